#!/usr/bin/env bash
# Checks growing families of tests (internal/family) with purr and prints,
# per size, the consistent executions, the time and the rate, so that the
# growth of the cost is visible at a glance. CPU time (user + system) is
# what the rate divides by: it does not depend on the load of the machine.
# Usage: scripts/bench-families.sh [MODEL [FAMILY:MIN-MAX ...]]
# Example: scripts/bench-families.sh aarch64 Writers:4-8 SB:4-12
set -euo pipefail
model=${1:-aarch64}
shift || true
specs=("$@")
if [ ${#specs[@]} -eq 0 ]; then
  specs=(Writers:4-8 SB:8-16 SB+dmb:8-16 IRIW:4-9 MP:6-14 Swaps:4-9)
fi
repo="$(cd "$(dirname "$0")/.." && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$repo" && go build -o "$work/purr" ./cmd/purr && go build -o "$work/famgen" ./internal/family/famgen)
printf '%-8s %3s %10s %9s %9s %12s\n' family N executions wall_s cpu_s execs/cpu_s
for spec in "${specs[@]}"; do
  fam=${spec%%:*}
  range=${spec#*:}
  for n in $(seq "${range%-*}" "${range#*-}"); do
    "$work/famgen" "$fam" "$n" > "$work/t.litmus"
    /usr/bin/time -f '%e %U %S' -o "$work/time" "$work/purr" -m "$model" "$work/t.litmus" > "$work/out"
    read -r wall user sys < "$work/time"
    execs=$(awk '/^Positive:/ { print $2 + $4 }' "$work/out")
    awk -v f="$fam" -v n="$n" -v x="$execs" -v w="$wall" -v u="$user" -v s="$sys" 'BEGIN {
      c = u + s; r = (c > 0) ? x / c : 0
      printf "%-8s %3d %10d %9.2f %9.2f %12.0f\n", f, n, x, w, c, r
    }'
  done
done
