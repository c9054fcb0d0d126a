#!/bin/bash
# timeout: 600
# C++ across two units, at -O0 and -O2, linked by GNU ld, gold and lld:
# an inline function (a COMDAT: a copy in each object, one kept) is counted
# once per call whichever copy the linker keeps, its discarded copy's
# .perfinst chunks go with it (a chunk belongs to its function's COMDAT
# group: gold and lld refused the link before); a sort comparator written
# as a lambda is counted under all=count (its calls counted by the program
# itself), with -flto too (where GCC's free_lang_data drops the closure
# type's name before the count pass: the lambda was not counted, and an
# inlined constructor of a class in an anonymous namespace lost the class
# from its name: ctorname.cc); and when
# the kept copy comes from an uninstrumented object, pmopt says so instead
# of reporting 0.
source "$PERFINST_TOP/tests/lib.sh"
for l in gold lld; do
    command -v "ld.$l" > /dev/null || fail "ld.$l is not installed (scripts/deps.sh installs binutils and lld)"
done
count() { python3 "$T/cxx/fncount.py" "$@"; }
TWICE=_Z5twicei SUM=_Z5sum_bPKii LAMBDA=_ZZ4mainENKUliiE_clEii

# run_prog WHAT PROG: twice(), sum_b() and the lambda counted as PROG's output says
run_prog() {
    rm -f run.pit
    PERFINST_OUT=run.pit ./"$2" > out
    compares=$(sed -n 's/^sum 88 compares \([0-9]*\)$/\1/p' out)
    [ -n "$compares" ] || fail "$1: unexpected output: $(cat out)"
    "$PMOPT" report --by=function --format=json "$2" run.pit > rep.json
    assert_eq "$1: twice() counted once per call (3 + 8)" "$TWICE 11" "$(count rep.json $TWICE)"
    assert_eq "$1: sum_b()" "$SUM 1" "$(count rep.json $SUM)"
    assert_eq "$1: the lambda comparator, once per comparison" "$LAMBDA $compares" "$(count rep.json $LAMBDA)"
}
for O in -O0 -O2; do
    pi_cc -x c++ $O -fplugin-arg-perfinst-all=count -c "$T/cxx/comdat-a.cc" -o a.o
    pi_cc -x c++ $O -fplugin-arg-perfinst-all=count -c "$T/cxx/comdat-b.cc" -o b.o
    readelf -gW b.o | grep -A8 "\[$TWICE\]" > group
    assert_contains "$O: twice's .perfinst chunk is in its COMDAT group" group "\.perfinst"
    for L in bfd gold lld; do
        pi_ld --pi-cc=g++ -fuse-ld=$L a.o b.o -o prog
        run_prog "$O $L" prog
    done
done
for u in a b; do
    pi_cc -x c++ -O2 -flto -fplugin-arg-perfinst-all=count -c "$T/cxx/comdat-$u.cc" -o lto-$u.o
done
pi_ld --pi-cc=g++ -O2 -flto lto-a.o lto-b.o -o lprog
run_prog -flto lprog
pi_cc -x c++ -O2 -g -flto -fplugin-arg-perfinst-all=count -c "$T/cxx/ctorname.cc" -o ctor.o
pi_ld --pi-cc=g++ -O2 -flto ctor.o -o ctor
PERFINST_OUT=ctor.pit ./ctor > out
"$PMOPT" report --by=function --format=json ctor ctor.pit > rep.json
assert_eq "-flto: the inlined constructors, named with their class" \
    "$(printf '%s\n' "_ZN2ns12_GLOBAL__N_15LexerC4EPKc 1000" "_ZN2ns4NodeC4Ei 1000")" \
    "$(count rep.json _ZN2ns12_GLOBAL__N_15LexerC4EPKc _ZN2ns4NodeC4Ei)"

# The kept copy of twice() from an object built without the plugin (the
# first on the command line): b.o's instrumented copy is discarded.
g++ -O0 -I"$PERFINST_TOP/include" -c "$T/cxx/comdat-a.cc" -o plain-a.o
pi_cc -x c++ -O0 -fplugin-arg-perfinst-all=count -c "$T/cxx/comdat-b.cc" -o b.o
for L in bfd gold lld; do
    pi_ld --pi-cc=g++ -fuse-ld=$L plain-a.o b.o -o mixed
    rm -f run.pit
    PERFINST_OUT=run.pit ./mixed > out
    "$PMOPT" report --by=function --format=json mixed run.pit > rep.json
    assert_eq "$L: twice() kept from the plain object" "$TWICE uninstrumented" "$(count rep.json $TWICE)"
    assert_eq "$L: sum_b() still counted" "$SUM 1" "$(count rep.json $SUM)"
done
"$PMOPT" report --by=function mixed run.pit > rep.txt
assert_contains "text report says so" rep.txt "^ +- +- +- +twice .*\(not instrumented in the kept copy\)"
"$PMOPT" report --by=function --format=csv mixed run.pit > rep.csv
assert_contains "csv: empty counts" rep.csv "^,,0x[0-9a-f]+,twice,.*,_Z5twicei,"
# and the other way round: the instrumented copy kept, every call counted
pi_cc -x c++ -O0 -fplugin-arg-perfinst-all=count -c "$T/cxx/comdat-a.cc" -o a.o
g++ -O0 -c "$T/cxx/comdat-b.cc" -o plain-b.o
pi_ld --pi-cc=g++ -fuse-ld=gold a.o plain-b.o -o mixed2
rm -f run.pit
PERFINST_OUT=run.pit ./mixed2 > out
"$PMOPT" report --by=function --format=json mixed2 run.pit > rep.json
assert_eq "instrumented copy kept: every call counted" "$TWICE 11" "$(count rep.json $TWICE)"
