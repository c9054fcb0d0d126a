#!/bin/bash
# armed-cost.sh — what counter combinations, dormant classes' probes and
# narrow counters cost per call, in instructions (callgrind: deterministic),
# on bench/armed/calls.c (1,000,000 calls of a 2-instruction function
# marked `count`).  Each variant's instructions minus the plain `count`
# build's, divided by the calls.  `--record` appends the table to
# bench/RESULTS.md.  Needs valgrind; takes about half a minute.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
B=$top/build
W=$top/bench/.work/armed
mkdir -p "$W"
cd "$W"
N=1000000
cc_pi() { gcc -O2 -fplugin="$B/perfinst.so" -I"$top/include" "$@"; }
build() { # NAME FLAGS...
    local name=$1; shift
    cc_pi "$@" -c "$top/bench/armed/calls.c" -o "$name.o"
    PERFINST_LIB_DIR=$B "$B/perfinst-ld" -O2 -o "$name" "$name.o"
}
instr() { # PROG [ENV...] -> callgrind's total
    local prog=$1; shift
    env PERFINST_OUT=/dev/null "$@" valgrind --tool=callgrind --callgrind-out-file=cg.out "./$prog" $N > /dev/null 2> cg.err
    awk '/^summary:/ { print $2 }' cg.out
}
build count
build probes -fplugin-arg-perfinst-combine=marked
build narrow -fplugin-arg-perfinst-counter-width=16
base=$(instr count)
rows=()
row() { # LABEL INSTR
    rows+=("| $1 | $2 | $(awk -v a="$2" -v b="$base" -v n=$N 'BEGIN { printf "%.1f", (a - b) / n }') |")
}
row '`count` (64-bit counters, no function probes)' "$base"
row '`combine=marked`, no combination armed' "$(instr probes)"
row '… `PERFINST_COMBINE='"'"'count(f) > 1e12'"'"'`' "$(instr probes PERFINST_COMBINE='count(f) > 1000000000000')"
row '… `insns(f) > 1e12` (counters copied at entry)' "$(instr probes PERFINST_COMBINE='insns(f) > 1000000000000')"
row '… `cycles(f) > 1e15` (rdtsc + thread CPU time)' "$(instr probes PERFINST_COMBINE='cycles(f) > 1000000000000000')"
row '`counter-width=16` (narrow counters)' "$(instr narrow)"
out=$(
    echo "## $(date -u '+%Y-%m-%d %H:%M') UTC — \`bench/armed-cost.sh\`"
    echo
    echo "- $N calls of a 2-instruction function marked \`count\` (bench/armed/calls.c), gcc -O2; callgrind"
    echo "  instructions of the whole run; per call = (variant − plain count) / calls.  Under valgrind a"
    echo "  system call (clock_gettime of the cycles term) counts only its user-space instructions."
    echo "- tree: $(git -C "$top" rev-parse --short HEAD)$(git -C "$top" diff --quiet || echo ' (with uncommitted changes)')"
    echo
    echo "| variant | instructions | extra per call |"
    echo "| --- | --- | --- |"
    printf '%s\n' "${rows[@]}"
)
echo "$out"
if [ "${1:-}" = "--record" ]; then
    printf '\n%s\n' "$out" >> "$top/bench/RESULTS.md"
fi
