#!/bin/bash
# Every PERFINST_* variable with a malformed value, one at a time (a table):
# one message on stderr naming the variable and the value (the overlay: the
# file and the line), and the program's output and exit status are those of
# a run without it.  (PERFINST_OUT takes any name: a file it cannot create
# is t-hostile.sh's.)  With the shared and the static runtime.
. "$PERFINST_TOP/tests/lib.sh"

pi_cc -O2 -c "$T/runtime/envbad.c" -o envbad.o
pi_ld -O2 -pthread -o envbad envbad.o
pi_ld -O2 -pthread --pi-static-runtime -o envbad.static envbad.o
printf 'perfinst-overlay 1\nbogus 1 2\n' > bad.ovl

# VARIABLE  VALUE  [what the message must also hold]  [another variable it needs]
table() {
    cat <<'ROWS'
PERFINST_MODE|sometimes
PERFINST_ICALL|always
PERFINST_LINE_SIZE|100
PERFINST_VERBOSE|yes
PERFINST_DORMANT|bogus
PERFINST_THRESH_TABLE|1,2
PERFINST_WATCH_GRAN|3
PERFINST_COMBINE|count(work) >
PERFINST_RI|every=x
PERFINST_TOPOLOGY|0:tertiary
PERFINST_SAMPLE|cpu:fast
PERFINST_SAMPLE_MAX_MB|0
PERFINST_IDLE|sometimes
PERFINST_IDLE_PERIOD|5s|PERFINST_IDLE=to
PERFINST_SHARING_LINES|1000
PERFINST_SHARING_PERIOD|0
PERFINST_SHARING_STACK|9
PERFINST_SHARING_SAMPLE|-1
PERFINST_SHARING_PRIVATE|x
PERFINST_PERF|bogus
PERFINST_OVERLAY|bad.ovl
ROWS
}

for prog in envbad envbad.static; do
    base_rc=0
    PERFINST_OUT=base.pit ./$prog > base.out 2> base.err || base_rc=$?
    assert_eq "$prog: the exit status without settings" 3 $base_rc
    assert_eq "$prog: nothing said without settings" "" "$(cat base.err)"
    n=0
    while IFS='|' read -r var val extra; do
        rc=0
        env ${extra:+"$extra"} "$var=$val" PERFINST_OUT=x.pit ./$prog > out 2> err || rc=$?
        [ "$var" = PERFINST_OVERLAY ] && want="PERFINST_OVERLAY $val:2: " || want="$var=$val"
        grep -qF -- "perfinst: $want" err || { cat err; fail "$prog: $var=$val is not said"; }
        assert_eq "$prog: $var=$val said once" 1 "$(grep -cF -- "$var" err)"
        assert_eq "$prog: $var=$val: nothing else said" 1 "$(wc -l < err)"
        cmp -s out base.out || fail "$prog: $var=$val changed the output: $(cat out)"
        assert_eq "$prog: $var=$val: the exit status" $base_rc $rc
        n=$((n + 1))
    done < <(table)
    assert_eq "$prog: every row ran" 21 $n
done
ok "each malformed value said once, naming variable and value; output and status unchanged"
