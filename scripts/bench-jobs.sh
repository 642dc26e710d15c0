#!/usr/bin/env bash
# Times -j 1 and -j 2 on every litmus test of a folder, in alternating
# pairs so that both see the same load, checks that their outputs agree
# (Time values masked), and prints each pair's wall times and ratio, then
# the medians. Usage: scripts/bench-jobs.sh FOLDER [PAIRS]   (PAIRS: 5)
# Example: scripts/bench-jobs.sh ../shared/corpus/dat3m-aarch64
set -euo pipefail
folder=${1:?usage: bench-jobs.sh FOLDER [PAIRS]}
pairs=${2:-5}
repo="$(cd "$(dirname "$0")/.." && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$repo" && go build -o "$work/purr" ./cmd/purr)
find "$(cd "$folder" && pwd)" -name '*.litmus' | sort > "$work/index"
mask() { sed -E 's/^Time ([^ ]+) .*/Time \1 */' "$1"; }
wall() { # JOBS: runs the batch, prints its wall time in seconds
  local start end
  start=$(date +%s.%N)
  "$work/purr" -j "$1" "@$work/index" > "$work/out.$1" 2> "$work/err.$1" || true
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" 'BEGIN { print e - s }'
}
for ((p = 1; p <= pairs; p++)); do
  t1=$(wall 1)
  t2=$(wall 2)
  if ! cmp -s <(mask "$work/out.1") <(mask "$work/out.2") || ! cmp -s "$work/err.1" "$work/err.2"; then
    echo "bench-jobs: -j 2's output differs from -j 1's" >&2
    exit 1
  fi
  echo "$t1 $t2" | awk '{ printf "pair %d: -j 1 %.2f s, -j 2 %.2f s, ratio %.3f\n", '"$p"', $1, $2, $2 / $1 }'
  echo "$t1 $t2" >> "$work/times"
done
awk '{ a[NR] = $1; b[NR] = $2; r[NR] = $2 / $1 }
function median(x, n,   i, j, t) {
  for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
  return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
}
END { printf "medians over %d pairs: -j 1 %.2f s, -j 2 %.2f s, ratio %.3f\n", NR, median(a, NR), median(b, NR), median(r, NR) }' "$work/times"
