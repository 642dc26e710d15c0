#!/usr/bin/env bash
# Runs every litmus test of a folder in one purr process and prints the
# throughput. Usage: scripts/bench-corpus.sh FOLDER [MODEL]   (MODEL: sc)
# Example: scripts/bench-corpus.sh ../shared/corpus/dat3m-aarch64 sc
set -euo pipefail
folder=${1:?usage: bench-corpus.sh FOLDER [MODEL]}
model=${2:-sc}
repo="$(cd "$(dirname "$0")/.." && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$repo" && go build -o "$work/purr" ./cmd/purr)
find "$(cd "$folder" && pwd)" -name '*.litmus' | sort > "$work/index"
n=$(wc -l < "$work/index")
start=$(date +%s.%N)
status=0
"$work/purr" -m "$model" "@$work/index" > "$work/out.txt" 2> "$work/err.txt" || status=$?
end=$(date +%s.%N)
answered=$(grep -c '^Test ' "$work/out.txt" || true)
awk -v n="$n" -v a="$answered" -v s="$start" -v e="$end" -v m="$model" -v f="$folder" 'BEGIN {
  t = e - s
  printf "%s under %s: %d tests (%d answered) in %.2f s: %.1f tests/s\n", f, m, n, a, t, n / t
}'
if [ "$status" -ne 0 ]; then
  echo "purr exited with status $status; first errors:" >&2
  head -5 "$work/err.txt" >&2
fi
