#!/bin/bash
# layout-pmopt.sh — the rebuild loop on a program of our own that is not a
# toy: pmopt itself (optimizer/ and common/, ~10k lines of C).  See
# docs/layout.md.
#
#   bench/layout-pmopt.sh [--record]
#
# Builds pmopt's sources three ways with the plugin: all=count (training),
# plain -O2 with the feedback, and all=count with the feedback (to measure
# the layout after).  Training = measuring = pmopt report, plan, dump and
# dump-meta on a small program (tests/layout/edges.c) and its trace.
# Prints the dynamic statistics (pmopt plan --stats) before, predicted and
# after, checks that the rebuilt pmopt prints the same, and counts
# instructions under callgrind: plain -O2 vs the rebuilt pmopt.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
record=0
[ "${1:-}" = --record ] && record=1
B=${PERFINST_BUILD:-$top/build}
W=$here/.work/layout-pmopt
say() { echo "layout-pmopt: $*" >&2; }
die() { say "error: $*"; exit 1; }
rm -rf "$W"
mkdir -p "$W"/{train,fb,after,plain}
cd "$W" || die "no $W"
export PERFINST_LIB_DIR=$B
# pmopt's sources in the order of their file names, as when optimizer/ was flat
SRCS="$(ls "$top"/common/*.c) $(ls "$top"/optimizer/*.c "$top"/optimizer/*/*.c | awk -F/ '{ print $NF, $0 }' | sort | cut -d' ' -f2)"
CF="-O2 -g -std=gnu11 -D_GNU_SOURCE -DPERFINST_VERSION=\"bench\" -I$top/include -I$top/common $(for d in "$top"/optimizer "$top"/optimizer/*/; do printf ' -I%s' "${d%/}"; done) -w"
compile() { # DIR FLAGS...
    local d=$1; shift
    for f in $SRCS; do gcc $CF "$@" -c "$f" -o "$d/$(basename "$f" .c).o" || die "compiling $f"; done
}
# the input pmopt works on
gcc -O2 -g -fplugin="$B/perfinst.so" -fplugin-arg-perfinst-all=count -I"$top/include" \
    -c "$top/tests/layout/edges.c" -o edges.o && "$B/perfinst-ld" -O2 -o edges edges.o || die "edges"
PERFINST_OUT=edges.pit ./edges > /dev/null
workload() { # PMOPT TRACE-PREFIX: the commands, their output to stdout
    local p=$1 t=$2
    PERFINST_OUT=$t.1.pit "$p" report ./edges edges.pit
    PERFINST_OUT=$t.2.pit "$p" plan --advise ./edges edges.pit
    PERFINST_OUT=$t.3.pit "$p" dump edges.pit
    PERFINST_OUT=$t.4.pit "$p" dump-meta ./edges
}
compile plain
gcc -o pmopt-plain plain/*.o -ldwarf -lelf -lz || die "link plain"
compile train -fplugin="$B/perfinst.so" -fplugin-arg-perfinst-all=count
"$B/perfinst-ld" -O2 -o pmopt-train train/*.o -ldwarf -lelf -lz || die "link train"
workload ./pmopt-train tr > train.out
"$B/pmopt" merge -o train.pit tr.*.pit > /dev/null || die merge
"$B/pmopt" plan -o pmopt.fb ./pmopt-train train.pit > plan.out || die plan
compile fb -fplugin="$B/perfinst.so" -fplugin-arg-perfinst-feedback="$W/pmopt.fb" 2> fb.err
gcc -o pmopt-fb fb/*.o -ldwarf -lelf -lz || die "link fb"
compile after -fplugin="$B/perfinst.so" -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-feedback="$W/pmopt.fb"
"$B/perfinst-ld" -O2 -o pmopt-after after/*.o -ldwarf -lelf -lz || die "link after"
workload ./pmopt-after af > after.out
"$B/pmopt" merge -o after.pit af.*.pit > /dev/null
"$B/pmopt" plan --stats ./pmopt-after after.pit > after.stats
workload ./pmopt-plain pl > plain.out
workload ./pmopt-fb fbr > fb.out
cmp -s plain.out fb.out && cmp -s plain.out train.out && cmp -s plain.out after.out ||
    die "the builds print different things"
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }
irsum() { local s=0; for c in "report ./edges edges.pit" "plan --advise ./edges edges.pit" "dump edges.pit" "dump-meta ./edges"; do s=$((s + $(ir "$1" $c))); done; echo $s; }
ip=$(irsum ./pmopt-plain)
if=$(irsum ./pmopt-fb)
val() { awk -v k="$2" 'index($0, k) { print $3; exit }' "$1"; }
{
    opt=""; [ $record = 1 ] && opt=" --record"
    echo "## $(date -u '+%Y-%m-%d %H:%M') UTC — \`bench/layout-pmopt.sh$opt\`"
    echo
    echo "The rebuild loop on pmopt itself ($(gcc --version | head -1); commit $(git -C "$top" rev-parse --short HEAD)):"
    echo "trained and measured on pmopt report/plan/dump/dump-meta of tests/layout/edges.c."
    echo "Plan: $(grep '^branches:' plan.out)"
    echo
    echo "| layout (counted builds, \`pmopt plan --stats\`) | executed edges | taken branches | executed instructions |"
    echo "| --- | --- | --- | --- |"
    sed -n '1,/predicted/p' plan.out > before.stats
    sed -n '/predicted/,$p' plan.out > pred.stats
    for x in before pred after; do
        echo "| $x | $(val $x.stats 'executed edges') | $(val $x.stats 'taken branches') $(awk '/taken branches/ { print $4 }' $x.stats) | $(val $x.stats 'executed instructions') |"
    done
    echo
    awk -v a="$ip" -v b="$if" 'BEGIN { printf "Instructions under callgrind (the four commands): plain -O2 %d, rebuilt with the feedback %d (%.3f).\n", a, b, b / a }'
    echo "The rebuilt pmopt prints the same as the plain one."
} > result.md
cat result.md
[ $record = 1 ] && { echo; cat result.md; } >> "$here/RESULTS.md"
exit 0
