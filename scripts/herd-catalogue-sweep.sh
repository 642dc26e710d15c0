#!/usr/bin/env bash
# Runs purr on herd7's catalogue directories as their configurations say and
# compares its verdicts with the directories' kinds files (herd7's verdicts),
# or its whole output with herd7's where a test has a .litmus.expected file.
#
# Usage: scripts/herd-catalogue-sweep.sh CATALOGUE LIBDIR [DIR...]
#   CATALOGUE  a checkout of herdtools7's catalogue/ folder (or a copy of
#              some of its directories laid out the same way)
#   LIBDIR     herd7's libdir (its Cat models: aarch64.cat, stdlib.cat, ...)
#   DIR...     the directories to sweep (default: all those below)
# Environment: PURR (a purr binary; default: built from this checkout),
#   JOBS (default 2), TIMEOUT (per test, default 20s), ENGINE (sat or explicit),
#   VERBOSE=1 (also list each disagreement, refusal and timeout).
#
# Per directory it prints one line: the tests run, how many purr answered as
# the kinds file says (agree), answered otherwise (DISAGREE: the worst
# outcome, a wrong answer), refused with file:line:col (grouped by reason),
# timed out, failed otherwise (internal errors or errors without a position),
# answered for a test the kinds file does not list (nokind), or left out by
# the cfg's names/nonames (skipped). It exits 1 if any test disagrees or crashed.
set -uo pipefail
catalogue=${1:?usage: herd-catalogue-sweep.sh CATALOGUE LIBDIR [DIR...]}
libdir=${2:?usage: herd-catalogue-sweep.sh CATALOGUE LIBDIR [DIR...]}
shift 2
catalogue=$(cd "$catalogue" && pwd)
libdir=$(cd "$libdir" && pwd)
repo="$(cd "$(dirname "$0")/.." && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -z "${PURR:-}" ]; then
  (cd "$repo" && go build -o "$work/purr" ./cmd/purr) || exit 2
  PURR="$work/purr"
fi
jobs=${JOBS:-2}
timeout=${TIMEOUT:-20s}
engine=${ENGINE:-sat}

# One directory a line: name | cfg | model | tests (folders, files or
# patterns such as tests/*.litmus, space separated) | kinds file, or
# "expected" for herd7's own output beside each test (TEST.litmus.expected,
# as catalogue/linux has: each answer is then compared whole, verdict,
# States, Positive/Negative, Observation and Hash, the Time line aside) |
# further flags (optional). The directory is the
# name, or if there is no such folder the name up to its last slash (demo/x86
# runs in demo). Paths are relative to the directory; the cfg and
# the model as herd's shelf.py names them (its first cfg and first cat), the
# model found in LIBDIR when the directory does not have it (their cats/ is
# often a link into herd's libdir). "-" for no cfg. dependencies has no cfg
# and its cats are fragments of herd's variant-deps model: its pick-deps
# tests run under herd's aarch64.cat against aarch64-pick's kinds (herd's
# verdicts; its own desired-kinds.txt are targets, not herd's answers), its
# down-one-leg tests as aarch64-down-one-leg's cfg says (variant deps).
specs='
aarch64|cfgs/new-web.cfg|aarch64.cat|tests|tests/kinds.txt
aarch64-readers-guide|cfgs/new-web.cfg|cats/aarch64.cat|tests|tests/kinds.txt
aarch64-deps|cfgs/web-deps.cfg|cats/aarch64-deps.cat|tests|tests/kinds.txt
aarch64-down-one-leg|cfgs/web-dol.cfg|cats/aarch64-dol.cat|tests|tests/down-one-leg-kinds.txt
aarch64-BBM|cfgs/web.cfg|cats/aarch64.cat|tests|-
aarch64-MTE|cfgs/web-MTE.cfg|cats/aarch64.cat|tests|kinds/kinds-cat=cats_aarch64-MTE.cat.txt
aarch64-MTE-mixed|cfgs/web-MTE-mixed.cfg|cats/aarch64-MTE-mixed.cat|tests|kinds/kinds-cat=cats_aarch64-MTE-mixed.cat.txt
aarch64-MTE-pick|cfgs/web-MTE.cfg|cats/aarch64-pick.cat|tests|-
aarch64-VMSA|cfgs/new-web.cfg|cats/aarch64.cat|tests|tests/VMSA-kinds.txt
aarch64-VMSA+MTE|cfgs/new-web.cfg|cats/aarch64.cat|tests|tests/kinds.txt
aarch64-ifetch|cfgs/new-web.cfg|cats/aarch64.cat|tests|kinds.txt
aarch64-ptw|cfgs/ptw.cfg|cats/aarch64-ptw.cat|tests|-
aarch64-pick|cfgs/asl.cfg|cats/aarch64.cat|tests|tests/kinds.txt
aarch64-cas|cfgs/asl.cfg|aarch64.cat|tests|tests/kinds.txt
aarch64-ETS2|cfgs/new-web.cfg|aarch64.cat|tests|tests/kinds.txt
aarch64-ETS3|cfgs/web.cfg|cats/aarch64.cat|tests|tests/kinds.txt
aarch64-PAC|cfgs/new-web.cfg|cats/aarch64.cat|tests|tests/kinds.txt
aarch64-gic|cfgs/web.cfg|cats/aarch64.cat|tests|tests/kinds.txt
aarch64-faults|cfgs/new-web.cfg|cats/aarch64.cat|tests|tests/kinds.txt
aarch64-mixed|cfgs/web-mixed.cfg|cats/aarch64-v02.cat|tests|tests/kinds.txt
dependencies/pick-deps|-|aarch64.cat|tests/pick-deps|../aarch64-pick/tests/kinds.txt
dependencies/down-one-leg|-|aarch64.cat|tests/down-one-leg|tests/down-one-leg/down-one-leg-kinds.txt|-variant deps
aarch64-oban/aarch-24667|-|libdir/aarch64.cat|tests|tests/kinds.txt
aarch64-oban/aarch-24800|-|aarch64.cat|tests|tests/kinds.txt
aarch64-oban/aarch-24876|-|libdir/aarch64.cat|tests|tests/kinds.txt
aarch64-oban/aarch-24967|-|libdir/aarch64.cat|tests|tests/kinds.txt
aarch64-oban/aarch-24987|-|aarch64.cat|tests|tests/kinds.txt
aarch64-oban/aarch-24989|-|aarch64.cat|tests|tests/kinds.txt
aarch64-oban/aarch-25021|-|libdir/aarch64.cat|tests|tests/kinds.txt
aarch64-oban/aarch-25105|-|libdir/aarch64.cat|tests|tests/kinds-pre_ETS.txt
aarch64-oban/aarch-25772|-|libdir/aarch64.cat|tests|kinds.txt
aarch64-oban/aarch-25890|-|libdir/aarch64.cat|tests|tests/kinds.txt
demo/anarchy|cfgs/tutorial.cfg|cats/anarchy.cat|tests|-|-bell bells/anarchy.bell
demo/x86|cfgs/tutorial.cfg|cats/x86.cat|tests/mp-x86.litmus|-|-bell bells/anarchy.bell
demo/c11|cfgs/tutorial.cfg|cats/c11.cat|tests/mp-c11-race.litmus tests/mp-c11-rel-acq.litmus tests/mp-c11-relaxed.litmus|-|-bell bells/anarchy.bell
c11popl15|c11.cfg|c11_orig.cat|tests/illustrative|-
x86|cfgs/new-web.cfg|cats/x86tso.cat|tests|tests/kinds.txt
x86_64|-|tso-mixed.cat|tests|kinds.txt
ASL|cfgs/pseudo-conf.cfg|cats/asl-pseudo-arch.cat|tests|-
readers-guide|cfgs/new-web.cfg|cats/aarch64.cat|tests|../aarch64-readers-guide/tests/kinds.txt
v8-proposal|cfgs/web.cfg|cats/v8-proposal.cat|tests/illustrative|-
armed-cats|cfgs/web.cfg|cats/arm-redux.cat|tests/illustrative|-
herding-cats|cfgs/web.cfg|ppc/cats/ppc.cat|ppc/tests/illustrative arm/tests/illustrative|-
java|cfgs/tutorial.cfg|cats/java.cat|tests/illustrative|-|-bell bells/java.bell
ptx|cfgs/ptx.cfg|cats/ptx.cat|tests|-
tutorial|cfgs/tutorial.cfg|cats/tutorial.cat|tests|-|-bell bells/tutorial.bell
linux|cfgs/linux-kernel.cfg|cats/linux-kernel.cat|tests/*.litmus|expected
linux/TST|loc.cfg|models/L01.cat|LUC/src|LUC/src/k.txt
demi|cfgs/demi.cfg|cats/rien.cat|tests|-|-bell bells/demi.bell
hsa|cfgs/hsa.cfg|cats/hsa.cat|tests/doc2|-|-bell bells/hsa.bell
'

want=" $* "
status=0
missing=
printf '%-28s %5s %5s %8s %7s %7s %6s %6s %7s\n' directory tests agree DISAGREE refused timeout failed nokind skipped
while IFS='|' read -r name cfg model tests kinds extra; do
  [ -n "$name" ] || continue
  [ $# -eq 0 ] || [[ "$want" == *" $name "* ]] || continue
  dir="$catalogue/$name"
  [ -d "$dir" ] || dir="$catalogue/${name%/*}"
  if [ ! -d "$dir" ]; then
    [ $# -eq 0 ] && missing+=" $name" || printf '%-28s (not in %s)\n' "$name" "$catalogue"
    continue
  fi
  list=()
  set -f # a pattern is matched in the directory, below
  for t in $tests; do
    if [ -d "$dir/$t" ]; then
      while IFS= read -r f; do list+=("$f"); done < <(cd "$dir" && find "$t" -name '*.litmus' | sort)
    elif [ -f "$dir/$t" ]; then list+=("$t")
    elif [[ "$t" == *[*?]* ]]; then
      while IFS= read -r f; do list+=("$f"); done < <(cd "$dir" && compgen -G "$t" | sort)
    fi
  done
  set +f
  [ ${#list[@]} -gt 0 ] || { printf '%-28s (no tests)\n' "$name"; continue; }
  args=(-j "$jobs" --timeout "$timeout" --engine "$engine" -I "$libdir")
  # The directory's own Cat files come before herd's (as an -I folder
  # overrides herd's libdir for herd7 too).
  [ -d "$dir/libdir" ] && args=(-I libdir "${args[@]}")
  [ -d "$dir/cats" ] && args=(-I cats "${args[@]}")
  if [ "$cfg" != - ] && [ -f "$dir/$cfg" ]; then args+=(-conf "$cfg")
  elif [ "$cfg" != - ]; then echo "# $name: no $cfg, run without a cfg"; fi
  if [ -f "$dir/$model" ]; then args+=(-m "$model")
  elif [ -f "$libdir/$(basename "$model")" ]; then args+=(-m "$libdir/$(basename "$model")")
  else
    # The cfg's own refusal (a semantic variant) does not need the model.
    echo "# $name: no $model, herd's aarch64.cat instead"
    args+=(-m "$libdir/aarch64.cat")
  fi
  # shellcheck disable=SC2206 # extra is a list of flags
  [ -n "$extra" ] && args+=($extra)
  out="$work/out" err="$work/err"
  (cd "$dir" && "$PURR" "${args[@]}" "${list[@]}") > "$out" 2> "$err"
  expected=
  if [ "$kinds" = expected ]; then
    expected=1 kfile="$work/expected"
    for f in "${list[@]}"; do
      [ -f "$dir/$f.expected" ] && { cat "$dir/$f.expected"; echo; }
    done > "$kfile"
  elif [ "$kinds" != - ] && [ -f "$dir/$kinds" ]; then kfile="$dir/$kinds"
  else kfile=/dev/null; fi
  [ "${VERBOSE:-}" = 1 ] && echo "# cd $dir && purr ${args[*]} ${tests}"
  awk -v name="$name" -v total="${#list[@]}" -v verbose="${VERBOSE:-}" -v expected="$expected" '
    function norm(k) {
      if (k ~ /^Allow/) return "Allowed"
      if (k ~ /^Forbid/) return "Forbidden"
      if (k ~ /^Requir/) return "Required"
      return k
    }
    # The kind a result gives: its quantifier, Ok or No, and its counts.
    function verdict(quant, isok, pos, neg) {
      if (quant == "Allowed") return isok ? "Allowed" : "Forbidden"
      if (quant == "Forbidden") return isok ? "Forbidden" : (neg == 0 ? "Required" : "Allowed")
      return isok ? "Required" : (pos > 0 ? "Allowed" : "Forbidden")
    }
    # herd7 output (.expected files): each block kept whole, Time aside,
    # and its kind.
    FILENAME == ARGV[1] && expected {
      if ($1 == "Test") { etest = $2; equant = $3; eblock[etest] = $0; next }
      if (etest == "" || $1 == "Time") next
      if ($0 == "") { etest = ""; next }
      eblock[etest] = eblock[etest] "\n" $0
      if ($0 == "Ok" || $0 == "No") eok = ($0 == "Ok")
      if ($1 == "Positive:") kind[tolower(etest)] = verdict(equant, eok, $2 + 0, $4 + 0)
      next
    }
    # Some kinds files spell a name in another case than the test does.
    FILENAME == ARGV[1] { if (NF >= 2 && $1 !~ /^#/) kind[tolower($1)] = norm($2); next }
    FILENAME == ARGV[2] {
      if ($1 == "Test") { test = $2; quant = $3; block[test] = $0; next }
      if (test == "" || $1 == "Time") next
      if ($0 == "") { test = ""; next }
      block[test] = block[test] "\n" $0
      if ($0 == "Ok" || $0 == "No") { ok[test] = ($0 == "Ok"); next }
      if ($1 == "Positive:") {
        v = verdict(quant, ok[test], $2 + 0, $4 + 0)
        k = tolower(test)
        if (!(k in kind)) { nokind++; if (verbose) print "  nokind " test " " v }
        else if (kind[k] == v) { agree++; if (expected) compared[test] = 1 }
        else { bad++; print "  DISAGREE " test ": purr " v ", herd " kind[k] }
      }
      next
    }
    / timed out after / { timeouts++; if (verbose) print "  timeout " $1; next }
    /internal error/ { failed++; print "  FAILED " $0; next }
    /^purr: note:/ { next }
    /^purr: [^ :]+:[0-9]+:[0-9]+: / { sub(/^purr: /, "") }
    /^purr: -[a-z]/ {
      reason = $0; sub(/^purr: /, "", reason)
      if (length(reason) > 120) reason = substr(reason, 1, 120) "..."
      why["(command line, every test) " reason]++; modelrefused = 1
      next
    }
    /: warning: / { next }
    /^[^ :]+:[0-9]+:[0-9]+: / {
      file = $0; sub(/:.*/, "", file)
      if (verbose) print "  refused " $0
      reason = $0; sub(/^[^ :]+:[0-9]+:[0-9]+: /, "", reason)
      # A refusal in the model that one test met ends with the test.
      if (match(reason, / [(]checking [^)]*[)]$/)) {
        test = substr(reason, RSTART + 11, RLENGTH - 12)
        reason = file ": " substr(reason, 1, RSTART - 1)
        if (test in seen) next
        seen[test] = 1; testrefused++
      } else {
        if (file in seen) next
        seen[file] = 1
        if (file ~ /[.]litmus$/) testrefused++
        else { modelrefused = 1; reason = "(model or cfg, every test) " file ": " reason }
      }
      if (length(reason) > 120) reason = substr(reason, 1, 120) "..."
      why[reason]++
      next
    }
    NF { failed++; print "  FAILED " $0 }
    END {
      # Against herd7 output, an answer agrees only when its whole block
      # does: the same verdict with other states or counts disagrees.
      for (t in compared) if (block[t] != eblock[t]) {
        agree--; bad++
        print "  DISAGREE " t ": the same verdict, another output than herd7 (States, counts, Observation or Hash)"
        if (verbose) print "    herd:\n" eblock[t] "\n    purr:\n" block[t]
      }
      answered = agree + bad + nokind
      refused = modelrefused ? total - answered - timeouts - failed : testrefused
      skipped = total - answered - refused - timeouts - failed
      printf "%-28s %5d %5d %8d %7d %7d %6d %6d %7d\n", name, total, agree, bad, refused, timeouts, failed, nokind, skipped
      for (r in why) printf "      %3d refused: %s\n", why[r], r
      exit (bad + failed > 0)
    }' "$kfile" "$out" "$err" || status=1
done <<< "$specs"
[ -z "$missing" ] || echo "# not in $catalogue:$missing"
exit $status
