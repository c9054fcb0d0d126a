#!/bin/bash
# C++ lambdas are counted like the functions they are written in: a lambda
# in a function marked `count` is counted with it, a directive written on
# the lambda applies to it, a statement directive inside its body counts
# that statement, and an unmarked lambda stays uncounted.  (t-comdat.sh:
# a sort comparator under all=count.)  Exact counts at -O0 and -O2.
source "$PERFINST_TOP/tests/lib.sh"
count() { python3 "$T/cxx/fncount.py" "$@"; }
ADD=_ZZ6markedPKiiENKUliE_clEi TRIPLE=_ZZ8unmarkediENKUliE_clEi SQ=_ZZ5plainiENKUliE_clEi
body=$(grep -n "LOOP BODY" "$T/cxx/lambda.cc" | cut -d: -f1)
for O in -O0 -O2; do
    pi_cc -x c++ $O -c "$T/cxx/lambda.cc" -o lambda.o
    pi_ld --pi-cc=g++ lambda.o -o prog
    rm -f run.pit
    PERFINST_OUT=run.pit ./prog > out
    assert_eq "$O: output" "24 18 11 9" "$(cat out)"
    "$PMOPT" report --format=json prog run.pit > rep.json
    assert_eq "$O: the lambda in a counted function" "$ADD 2" "$(count rep.json $ADD)"
    assert_eq "$O: perfinst(\"count\") on the lambda" "$TRIPLE 4" "$(count rep.json $TRIPLE)"
    assert_eq "$O: an unmarked lambda" "$SQ none" "$(count rep.json $SQ)"
    got=$(python3 -c 'import json,sys; print([l["count"] for l in json.load(open("rep.json"))["lines"] if l["line"] == int(sys.argv[1])])' "$body")
    assert_eq "$O: the statement in the lambda (5 + 2 iterations)" "[7]" "$got"
done
