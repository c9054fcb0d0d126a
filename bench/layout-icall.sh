#!/bin/bash
# shellcheck disable=SC2086  # flag lists are word-split on purpose
# bench/layout-icall.sh — the effect of indirect-call arcs on the function
# order (docs/layout.md "Indirect calls") on SQLite's workload.
#
#   bench/layout-icall.sh [--train S] [--test S]
#
# Builds the training program as bench/layout-all.sh does (-O2, all=count,
# sections, perfinst-ld; in bench/.work/layout-all/train, objects reused
# while their stamp holds: bench/lib.sh sqlite_build), runs it on mix train at size S
# (0.3), plans `pmopt plan --order=exttsp` with and without
# --no-indirect-calls, relinks the training program with each order, and
# measures the three (the training link, relinked without, relinked with)
# with cachegrind on mix test at size S (0.1), --I1=32768,8,64
# --D1=32768,8,64 --LL=8388608,16,64.  The three are the same counted code
# in different orders, so their I1 misses compare the orders alone.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
B=${PERFINST_BUILD:-$top/build}
train=0.3 test=0.1
while [ $# -gt 0 ]; do
    case $1 in
    --train) train=$2; shift 2 ;;
    --test) test=$2; shift 2 ;;
    *) echo "layout-icall: unknown argument $1" >&2; exit 2 ;;
    esac
done
say() { echo "layout-icall: $(date -u +%T) $*" >&2; }
W=$here/.work/layout-all
mkdir -p "$W"
. "$here/lib.sh"
sqlite_setup
cd "$W"
sqlite_build_train train
say "training run at $train"
sqlite_train train "$train"
"$B/pmopt" dump train/t.pit | awk '/ ICALL / && / site / { n++; c += $NF } END { printf "training run: %d (site, target) pairs, %d indirect calls\n", n, c }'
measure() { # NAME PROG
    PERFINST_OUT=/dev/null valgrind --tool=cachegrind --cache-sim=yes $GEOM --cachegrind-out-file=/dev/null "$2" "$test" test > "cac-$1.out" 2> "cac-$1.err"
    local ir i1 d1
    ir=$(sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "cac-$1.err" | tr -d ,)
    i1=$(sed -n 's/.*I1 *misses: *\([0-9,]*\).*/\1/p' "cac-$1.err" | tr -d ,)
    d1=$(sed -n 's/.*D1 *misses: *\([0-9,]*\).*/\1/p' "cac-$1.err" | head -1 | tr -d ,)
    echo "| $1 | $i1 | $ir | $d1 | $(tail -1 "cac-$1.out" | cut -d' ' -f1) |"
}
echo "| variant (the all=count training build) | I1 misses | I refs | D1 misses | checksum |"
echo "| --- | --- | --- | --- | --- |"
measure "perfinst-ld's link" train/prog
for v in without with; do
    flag=; [ $v = without ] && flag=--no-indirect-calls
    "$B/pmopt" plan --order=exttsp $flag -o fb-icall-$v train/prog train/t.pit > plan-icall-$v.out
    mkdir -p icall-$v
    "$B/pmopt" relink train/prog --feedback fb-icall-$v -o icall-$v/prog > icall-$v/out 2> icall-$v/err
    measure "relinked, exttsp, $v indirect-call arcs" icall-$v/prog
done
for v in without with; do echo "$v: $(grep -m1 'hot functions' plan-icall-$v.out)"; done
