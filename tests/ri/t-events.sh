# The collection buffer: after calls to f0 .. f11 (callret) and mark()
# (sample(directed)), a group holds the newest calls, newest first: with
# cb=8 exactly the last 8 (mark, f11 .. f5), with the default 32 all 13;
# copying out is not destructive (the next group has them again).  Taken
# branches: a counted loop of 10 gives exactly 10 transfers.  emit(EXPR)
# values appear in order (newest first in the body), for expressions with
# fields, pointers and array elements; with emit disabled there are none;
# a bad EXPR is a compile error at its line.  At -O0 and -O2.
. "$PERFINST_TOP/tests/lib.sh"
# names FILE GROUP: the body's (type, function of the target) of group GROUP
names() {
    python3 - "$1" "$2" "${3:-target}" <<'PY'
import re, sys
syms = sorted((int(a, 16), n) for a, t, n in (l.split() for l in open("syms") if len(l.split()) == 3) if t in "tT")
lines = open(sys.argv[1]).read().split("\n")
bias = int(next(re.search(r"load_bias (0x[0-9a-f]+)", l).group(1) for l in lines if " MODULE " in l), 16)
i = lines.index("    group %s" % sys.argv[2])
out = []
for l in lines[i + 1:]:
    if not l.startswith("      ["):
        break
    m = re.search(r"\] (CALL|RETURN|TRANSFER) addr (0x[0-9a-f]+), target (0x[0-9a-f]+)", l)
    if m:
        a = int(m.group(2 if sys.argv[3] == "addr" else 3), 16) - bias
        out.append("%s %s" % (m.group(1), max((s for s in syms if s[0] <= a), default=(0, "?"))[1]))
print(" ".join(out) + " ", end="")
PY
}
for opt in -O0 -O2; do
    pi_cc $opt -g -c "$T/ri/events.c" -o ev.o
    pi_ld $opt -o ev ev.o
    nm ev > syms
    PERFINST_RI=events=call,cb=8,rgs=4 PERFINST_OUT=c8.pit ./ev calls > /dev/null
    "$PMOPT" dump c8.pit > c8
    assert_eq "$opt: cb=8: the last 8 calls, newest first" \
        "CALL mark CALL f11 CALL f10 CALL f9 CALL f8 CALL f7 CALL f6 CALL f5 " "$(names c8 0)"
    assert_eq "$opt: ... then filler" 21 "$(awk '$0 == "    group 0" { on = 1; next } /^    group/ { on = 0 } on && /FILLER/' c8 | wc -l)"
    assert_eq "$opt: non-destructive: the next group" \
        "CALL mark CALL mark CALL f11 CALL f10 CALL f9 CALL f8 CALL f7 CALL f6 " "$(names c8 1)"
    PERFINST_RI=events=call,rgs=4 PERFINST_OUT=c32.pit ./ev calls > /dev/null
    "$PMOPT" dump c32.pit > c32
    assert_eq "$opt: cb=32: all 13 calls" \
        "CALL mark CALL f11 CALL f10 CALL f9 CALL f8 CALL f7 CALL f6 CALL f5 CALL f4 CALL f3 CALL f2 CALL f1 CALL f0 " "$(names c32 0)"
    PERFINST_RI=events=call+ret,cb=8,rgs=4 PERFINST_OUT=cr.pit ./ev calls > /dev/null
    "$PMOPT" dump cr.pit > cr
    assert_eq "$opt: calls and returns interleave" \
        "CALL mark RETURN main CALL f11 RETURN main CALL f10 RETURN main CALL f9 RETURN main " "$(names cr 0)"
    assert_eq "$opt: ... calls from main, returns from the callees" \
        "CALL main RETURN f11 CALL main RETURN f10 CALL main RETURN f9 CALL main RETURN f8 " "$(names cr 0 addr)"

    PERFINST_RI=events=xfer,cb=64,rgs=7 PERFINST_OUT=l.pit ./ev loop > /dev/null
    "$PMOPT" dump l.pit > l
    assert_eq "$opt: a loop of 10: 10 taken branches" 10 "$(grep -c '\] TRANSFER' l)"
    assert_eq "$opt: ... all back into loop" "$(printf 'TRANSFER loop %.0s' $(seq 10))" "$(names l 0)"
    assert_eq "$opt: ... all from loop" "$(printf 'TRANSFER loop %.0s' $(seq 10))" "$(names l 0 addr)"
    assert_eq "$opt: ... from one branch to one edge" 1 "$(grep '\] TRANSFER' l | sed 's/.*\] //' | sort -u | wc -l)"

    PERFINST_RI=rgs=3 PERFINST_OUT=e.pit ./ev emit > /dev/null
    "$PMOPT" dump e.pit > e
    assert_eq "$opt: emitted values, newest first" "350 1007 42 25 16 9 4 1 " \
        "$(awk '/\] EMIT/ { printf "%s ", $6 }' e)"
    PERFINST_RI=rgs=3,events=call PERFINST_OUT=e2.pit ./ev emit > /dev/null
    "$PMOPT" dump e2.pit > e2
    assert_not_contains "$opt: emit disabled: no EMIT" e2 "\] EMIT"
    rm -f *.pit
done
expect_fail "a bad emit expression" pi_cc -c "$T/ri/emit-bad.c" -o bad.o
assert_contains "... unknown name at its line" err "emit-bad.c:4:.*error: perfinst: emit: 'nosuch' is not a variable, parameter or enumerator in scope"
assert_contains "... a field of a non-struct at its line (GCC's own error)" err "emit-bad.c:6:.*error: request for member .field. in something not a structure or union"
