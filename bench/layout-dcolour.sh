#!/bin/bash
# bench/layout-dcolour.sh — data colouring (docs/layout.md "Data colouring"):
# cachegrind D1 misses before and after `pmopt relink` applies a
# reserve-data recommendation, and what the plan's data model says.
#
#   bench/layout-dcolour.sh [--rounds N] [--train S] [--test S]
#
# 1. tests/relink/dcolour.c (80 hot 512-byte arrays at a 4 KiB stride, 40 KiB
#    summed in a cycle): trained with all=count (20 rounds), planned with
#    --order=c3 --dcache=32768,8,64; the clean -O2 -ffunction-sections
#    -fdata-sections build (linked by perfinst-ld) and the counted training
#    build are relinked with the plan; D1 misses at N rounds (default 200).
# 2. The SQLite workload (bench/sqlite/workload.c): trained on the train mix
#    at S (default 0.1), planned the same way; the data model's lines, and
#    when colouring is planned, D1 misses of the O2-sections build, relinked
#    with the order alone (recommendations 1-2) and with the colouring, on
#    the test mix at --test (default 0.05).
# Geometry: --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64 (deterministic).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
B=$top/build
rounds=200 train=0.1 test=0.05
while [ $# -gt 0 ]; do
    case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --train) train=$2; shift 2 ;;
    --test) test=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "layout-dcolour: unknown argument $1" >&2; exit 2 ;;
    esac
done
say() { echo "layout-dcolour: $*" >&2; }
W=$here/.work/dcolour
mkdir -p "$W"
export PERFINST_LIB_DIR=$B
CG="valgrind --tool=cachegrind --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64 --cachegrind-out-file=/dev/null"
d1() { $CG "$@" 2>&1 >/dev/null | sed -n 's/.*D1  misses: *\([0-9,]*\).*/\1/p' | tr -d ,; }
dr() { $CG "$@" 2>&1 >/dev/null | sed -n 's/.*D   refs: *\([0-9,]*\).*/\1/p' | tr -d ,; }
PLAN="--order=c3 --cache=32768,8,64 --dcache=32768,8,64"
cd "$W"

# ---- 1. the fixture ----------------------------------------------------------------
F=$top/tests/relink/dcolour.c
gcc -O2 -fplugin="$B/perfinst.so" -I"$top/include" -fplugin-arg-perfinst-all=count \
    -fplugin-arg-perfinst-sections -c "$F" -o fx-train.o
"$B/perfinst-ld" -O2 -o fx-train fx-train.o
gcc -O2 -ffunction-sections -fdata-sections -c "$F" -o fx-clean.o
"$B/perfinst-ld" -O2 -o fx-clean fx-clean.o
rm -f fx.pit
PERFINST_OUT=fx.pit ./fx-train 20 > /dev/null
"$B/pmopt" plan $PLAN -o fx.fb fx-train fx.pit > fx.plan
for p in fx-clean fx-train; do
    "$B/pmopt" relink $p --feedback fx.fb -o $p.r --smoke 30 > $p.rel
    "$B/pmopt" relink $p --feedback fx.fb --only 1,2 -o $p.ord > /dev/null
done
echo "## dcolour.c ($rounds rounds), cachegrind D1 misses"
grep -E "^data cache model|before \(PROG\) .*D1|after the data order|with coloured data|modelled D1" fx.plan
for p in fx-clean fx-train; do
    b=$(d1 ./$p "$rounds"); o=$(d1 ./$p.ord "$rounds"); a=$(d1 ./$p.r "$rounds")
    echo "$p: D1 misses $b (as linked), $o (data order), $a (coloured): $(echo "scale=3; $a / $b" | bc)x"
    cmp <(./$p 77) <(./$p.r 77) > /dev/null && echo "$p: output unchanged"
done

# ---- 2. SQLite -------------------------------------------------------------------
SQ=$("$here/fetch-sqlite.sh" | tail -1)
DEFS="-DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION"
build() { # DIR CFLAGS...
    local d=$1; shift
    mkdir -p "$d"
    if [ ! -f "$d/sqlite3.o" ] || [ "$(cat "$d/flags" 2>/dev/null)" != "$*" ]; then
        say "compiling $d: $*"
        gcc "$@" $DEFS -I"$SQ" -c "$SQ/sqlite3.c" -o "$d/sqlite3.o"
        gcc "$@" $DEFS -std=c11 -I"$SQ" -c "$here/sqlite/workload.c" -o "$d/workload.o"
        echo "$*" > "$d/flags"
    fi
}
build sec -O2 -ffunction-sections -fdata-sections
build train -O2 -fplugin="$B/perfinst.so" -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections
(cd sec && "$B/perfinst-ld" -O2 -o prog workload.o sqlite3.o -lm)
(cd train && "$B/perfinst-ld" -O2 -o prog workload.o sqlite3.o -lm)
say "SQLite training run at size $train"
rm -f train/t.pit
(cd train && PERFINST_OUT=t.pit ./prog "$train" train > /dev/null)
"$B/pmopt" plan $PLAN -o sq.fb train/prog train/t.pit > sq.plan
echo "## SQLite (trained at $train, train mix)"
grep -E "^data cache model|before \(PROG\) .*D1|after the data order|with coloured data|chase-tail condition for data|colouring the data|modelled D1" sq.plan
"$B/pmopt" relink sec/prog --feedback sq.fb --only 1,2 -o sec/prog.ord > /dev/null
b=$(d1 ./sec/prog "$test" test); o=$(d1 ./sec/prog.ord "$test" test)
if grep -q " reserve-data " sq.fb; then
    n=$(sed -n 's/^\([0-9]*\) reserve-data .*/\1/p' sq.fb)
    "$B/pmopt" relink sec/prog --feedback sq.fb -o sec/prog.col --smoke "0.02 test" > sec/col.rel
    a=$(d1 ./sec/prog.col "$test" test)
    echo "SQLite (test mix at $test): D1 misses $b (O2-sections), $o (order), $a (order + colouring, recommendation $n)"
else
    echo "SQLite (test mix at $test): D1 misses $b (O2-sections), $o (order); no colouring planned"
fi
