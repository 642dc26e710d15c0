#!/usr/bin/env bash
# Times purr run once per test, one process each, as herd7 users run it:
# the Linux kernel's 35 tests under -conf linux-kernel.cfg, herd's AArch64
# catalogue (63 tests, default models) and MP.litmus 35 times. Prints, per
# suite and round, the wall and CPU (user + system) seconds of all its
# processes and the CPU milliseconds per process. With herd7 on the PATH
# (or HERD7=path), herd7 runs each test right after purr (alternating
# pairs: both see the same load) and the ratios of the wall times are
# printed; without it, herd7's wall times recorded in ../shared
# (*.times.csv) stand in. The parse cache starts empty (a temporary
# PURR_CACHE): round 1 fills it, later rounds read it.
# purr is built with CGO_ENABLED=0 (see README: a static binary starts
# faster). Usage: scripts/bench-cold.sh [ROUNDS]   (ROUNDS: 3)
set -euo pipefail
rounds=${1:-3}
repo="$(cd "$(dirname "$0")/.." && pwd)"
shared="$(cd "$repo/.." && pwd)/shared"
[ -d "$shared" ] || { echo "bench-cold: needs ../shared" >&2; exit 1; }
herd7=${HERD7:-$(command -v herd7 || true)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$repo" && CGO_ENABLED=0 go build -o "$work/purr" ./cmd/purr)
export PURR_CACHE="$work/cache"

# run DIR OUT CMD...: runs CMD in DIR, appends "wall cpu" to OUT.
run() {
  local dir=$1 out=$2; shift 2
  (cd "$dir" && /usr/bin/time -f '%e %U %S' -a -o "$out.raw" "$@" > /dev/null 2>&1 || true)
  tail -1 "$out.raw" | awk '{ print $1, $2 + $3 }' >> "$out"
}

# suite NAME DIR RECORDED TESTS... -- ARGS...: one round of a suite.
suite() {
  local name=$1 dir=$2 recorded=$3; shift 3
  local tests=() args=()
  while [ "$1" != -- ]; do tests+=("$1"); shift; done
  shift; args=("$@")
  rm -f "$work/p" "$work/h" "$work/p.raw" "$work/h.raw"
  for t in "${tests[@]}"; do
    run "$dir" "$work/p" "$work/purr" "${args[@]}" "$t"
    [ -n "$herd7" ] && run "$dir" "$work/h" "$herd7" "${args[@]}" "$t"
  done
  local n=${#tests[@]}
  awk -v name="$name" -v n="$n" '{ w += $1; c += $2 } END { printf "%-10s purr  %3d processes: wall %6.2f s, cpu %6.2f s, %5.1f ms cpu each\n", name, n, w, c, 1000 * c / n }' "$work/p"
  if [ -n "$herd7" ]; then
    paste "$work/p" "$work/h" | awk -v name="$name" '{ pw += $1; hw += $3; hc += $4 } END { printf "%-10s herd7 wall %6.2f s, cpu %6.2f s; purr/herd7 wall %.3f\n", name, hw, hc, pw / hw }'
  elif [ -n "$recorded" ]; then
    awk -F, '{ s += $3 } END { printf "%s", s }' "$recorded" > "$work/rec"
    awk -v name="$name" -v rec="$(cat "$work/rec")" '{ w += $1 } END { printf "%-10s herd7 as recorded in ../shared: wall %.2f s; purr/herd7 wall %.3f\n", name, rec, w / rec }' "$work/p"
  fi
}

kernel=("$shared"/lkmm/kernel-tests/*.litmus)
catalogue=("$shared"/corpus/herd-catalogue-aarch64/*.litmus)
mp=()
for ((i = 0; i < ${#kernel[@]}; i++)); do mp+=("$repo/testdata/MP.litmus"); done
for ((r = 1; r <= rounds; r++)); do
  echo "round $r"
  suite kernel "$shared/lkmm/model" "$shared/lkmm/kernel-tests/herd-7.57.txt.times.csv" "${kernel[@]}" -- -conf linux-kernel.cfg
  suite catalogue "$repo" "$shared/corpus/herd-catalogue-aarch64/herd-7.57.txt.times.csv" "${catalogue[@]}" --
  suite MP "$repo" "" "${mp[@]}" --
done
