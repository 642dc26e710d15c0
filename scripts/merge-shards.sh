#!/usr/bin/env bash
# Merges the outputs of a batch run as N shards (purr --shard I/N) into the
# output of the whole batch: the shards' stdouts concatenated in the order
# of their numbers, then their stderrs likewise, and the largest of their
# exit statuses as its own.
# Usage: scripts/merge-shards.sh N DIR > all.txt 2> all.err
#   DIR holds, for each shard I from 0 to N-1, I.out (its stdout), I.err
#   (its stderr) and I.status (its exit status as a number). A missing
#   file fails the merge: a lost shard would silently lose its tests.
set -euo pipefail
n=${1:?usage: merge-shards.sh N DIR}
dir=${2:?usage: merge-shards.sh N DIR}
status=0
for ((i = 0; i < n; i++)); do
  for ext in out err status; do
    if [ ! -f "$dir/$i.$ext" ]; then
      echo "merge-shards: $dir/$i.$ext is missing: shard $i/$n did not finish" >&2
      exit 4
    fi
  done
  s=$(cat "$dir/$i.status")
  if ! [[ $s =~ ^[0-9]+$ ]]; then
    echo "merge-shards: $dir/$i.status holds \"$s\", not an exit status" >&2
    exit 4
  fi
  ((s > status)) && status=$s
done
for ((i = 0; i < n; i++)); do cat "$dir/$i.out"; done
for ((i = 0; i < n; i++)); do cat "$dir/$i.err" >&2; done
exit "$status"
