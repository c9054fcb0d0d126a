# A loop that calls nothing and updates many counters (crowded.c, the shape
# of libyaml's yaml_emitter_analyze_scalar): GCC's store motion would keep
# each counter in a register through the loop, more than the registers the
# loop's own values leave free, and the counting copy spilled them all
# (1.68x -O2's instructions in analyze; libyaml's emitter 2.0x).  Such a
# loop's updates are asm, one add to memory each (copies.cc,
# call_free_loops; a note with -fplugin-arg-perfinst-verbose), and the
# counting copy stays under 1.55x -O2's instructions in the same function
# (callgrind: deterministic counts).  Exact counts either way.  The same
# compiled -fPIC, as for a shared library (its updates are asm through
# the counters' offset, pass-tls.cc): 1.70x -O2 -fPIC's before.  That
# choice is clean-copies=all's (pinned here); with clean-copies=final, the
# default, every loop's updates are asm, no note: the same bound and counts.
. "$PERFINST_TOP/tests/lib.sh"
ALL=-fplugin-arg-perfinst-clean-copies=all
gcc -O2 -g "$T/count/crowded.c" -o o2
pi_cc -O2 -g -fplugin-arg-perfinst-all=count $ALL -fplugin-arg-perfinst-verbose -c "$T/count/crowded.c" -o pi.o 2> notes
assert_contains "the loop's updates are asm (note)" notes "more than 4 counters and calling nothing that writes memory"
pi_ld -O2 -o pi pi.o
gcc -O2 -g -fPIC "$T/count/crowded.c" -o o2pic
pi_cc -O2 -g -fPIC -fplugin-arg-perfinst-all=count $ALL -fplugin-arg-perfinst-verbose -c "$T/count/crowded.c" -o pic.o 2> notes
assert_contains "-fPIC: the loop's updates are asm (note)" notes "more than 4 counters and calling nothing that writes memory"
pi_ld -O2 -o pic pic.o
./o2 > want
PERFINST_OUT=pi.pit ./pi > got
cmp -s want got || fail "output $(cat got), -O2's $(cat want)"
python3 "$T/count/check-counts.py" --all "$PMOPT" ./pi "$T/count/crowded.c" pi.pit > c || { cat c; fail "counts"; }
ok "$(tail -1 c)"
off_counts_nothing pi "$(cat want)"
PERFINST_OUT=pic.pit ./pic > got
cmp -s want got || fail "-fPIC: output $(cat got), -O2's $(cat want)"
python3 "$T/count/check-counts.py" --all "$PMOPT" ./pic "$T/count/crowded.c" pic.pit > c || { cat c; fail "-fPIC: counts"; }
ok "-fPIC: $(tail -1 c)"
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c "$T/count/crowded.c" -o fin.o
pi_ld -O2 -o fin fin.o
PERFINST_OUT=fin.pit ./fin > got
cmp -s want got || fail "final: output $(cat got), -O2's $(cat want)"
python3 "$T/count/check-counts.py" --all "$PMOPT" ./fin "$T/count/crowded.c" fin.pit > c || { cat c; fail "final: counts"; }
ok "final: $(tail -1 c)"

command -v valgrind > /dev/null || skip "no valgrind (the counts and the output were checked)"
# self instructions of analyze's -O2 body and of its counting copy
self() { # CALLGRIND-OUT REGEX
    callgrind_annotate "$1" 2> /dev/null | awk -v re="$2" '!/=>/ && $0 ~ re { gsub(",", "", $1); print $1; exit }'
}
# the counting copy of analyze in PROG against analyze in the -O2 build O2
bound() { # O2 PROG WHAT
    valgrind --tool=callgrind --callgrind-out-file=cg.$1 ./$1 > /dev/null 2> vg.err || { cat vg.err; fail "valgrind $1"; }
    PERFINST_OUT=vg.pit valgrind --tool=callgrind --callgrind-out-file=cg.$2 ./$2 > /dev/null 2> vg.err ||
        { cat vg.err; fail "valgrind $2"; }
    local o2 pi
    o2=$(self cg.$1 ':analyze[.a-z0-9]* ')
    pi=$(self cg.$2 ':analyze[.a-z0-9]*\.count\.[0-9]+ ')
    [ -n "$o2" ] && [ -n "$pi" ] || fail "$3: no instruction count for analyze (-O2 '$o2', counting copy '$pi')"
    awk -v a="$pi" -v b="$o2" 'BEGIN { exit !(a <= 1.55 * b) }' ||
        fail "$3: the counting copy of analyze ran $pi instructions, over 1.55 x -O2's $o2"
    ok "$3: the counting copy of analyze: $pi instructions, -O2's $o2 ($(awk -v a="$pi" -v b="$o2" 'BEGIN { printf "%.2f", a / b }')x)"
}
bound o2 pi "executable"
bound o2pic pic "-fPIC"
bound o2 fin "clean-copies=final"
