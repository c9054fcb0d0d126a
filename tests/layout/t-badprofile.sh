# Malformed branch-profile and function-tier recommendations are warnings
# naming file:line and the recommendation, never an internal compiler
# error; the function keeps GCC's estimate and the note counts them.
. "$PERFINST_TOP/tests/lib.sh"
src=$T/layout/branch.c
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg -c "$src" -o train.o
sum=$("$PMOPT" dump-meta train.o | awk '$1 == "function" && $3 == "work" { print $NF }')
[ -n "$sum" ] || fail "no checksum for work"
mkfb() { # OUT LINE...: a well-formed feedback file with these recommendations
    python3 - "$@" <<'PY'
import sys, zlib
out, lines = sys.argv[1], sys.argv[2:]
body = "perfinst-feedback 1\n" + "".join("%d %s\n" % (i + 1, l) for i, l in enumerate(lines))
open(out, "w").write(body + "end %d 0x%08x\n" % (len(lines), zlib.crc32(body.encode())))
PY
}
try() { # WHAT FILE REGEX
    pi_cc -O2 -fplugin-arg-perfinst-feedback="$2" -c "$src" -o x.o 2> err || { cat err; fail "$1: the compile failed"; }
    assert_contains "$1" err "$3"
    assert_not_contains "$1: no internal error" err "internal compiler error"
}
base="branch-profile fn=work src=$src checksum=$sum sites=4"
mkfb e1.fb "$base first=0 weight=1 counts=1,1,0,1 edges=1"
try "too few edges" e1.fb "e1\.fb:2: recommendation 1 \(.branch-profile.\): edges= has the wrong number of entries for these blocks; ignored"
mkfb e2.fb "$base first=3 weight=1 counts=1,1,0,1 edges=1,0"
try "chunk past the end" e2.fb "e2\.fb:2: recommendation 1 .*malformed"
mkfb e3.fb "$base first=0 weight=1 counts=1,x edges="
try "not a number" e3.fb "e3\.fb:2: recommendation 1 .*malformed"
mkfb e4.fb "$base first=0 weight=1 counts=1,1 edges=1,0"
try "blocks left out" e4.fb "the chunks do not cover every block of the function"
mkfb e5.fb "$base first=0 weight=1 counts=1,1,0,1 edges=1,0" "$base first=0 weight=1 counts=1,1,0,1 edges=1,0"
try "a block twice" e5.fb "a block is given twice"
mkfb e6.fb "function-tier fn=work src=$src tier=lukewarm"
try "a bad tier" e6.fb "e6\.fb:2: recommendation 1 \(.function-tier.\): tier must be hot or cold; ignored"
mkfb e7.fb "branch-profile fn=work src=$src sites=4 first=0 counts=1,1,0,1 edges=1,0"
try "no checksum" e7.fb "no checksum= or sites="
assert_contains "the note counts malformed profiles" err "0 function profiles matched, 0 stale, 1 malformed"
# a profile keyed to another source file does not apply here; that its
# function is there, with this CFG, is a warning naming the other key
mkfb e8.fb "branch-profile fn=work src=/elsewhere/branch-old.c checksum=$sum sites=4 first=0 weight=1 counts=1,1,0,1 edges=1,0"
pi_cc -O2 -fplugin-arg-perfinst-feedback=e8.fb -c "$src" -o x.o 2> err
assert_contains "another source: the function profiled elsewhere" err "warning: perfinst: e8\.fb: no function profile is keyed to this unit.s source .*branch\.c., but 1 of its functions are profiled under ./elsewhere/branch-old\.c."
assert_not_contains "no \"0 matched (100%)\"" err "0 function profiles matched"
# ... but the plan's one key of this file's name, and none of the unit's
# own, is this file compiled from another directory: it applies
mkfb e8b.fb "branch-profile fn=work src=/elsewhere/branch.c checksum=$sum sites=4 first=0 weight=1 counts=1,1,0,1 edges=1,0"
pi_cc -O2 -fplugin-arg-perfinst-feedback=e8b.fb -fplugin-arg-perfinst-verbose -c "$src" -o x.o 2> err
assert_contains "the same file name elsewhere: its profile applies" err "e8b\.fb: 1 function profiles matched, 0 stale, 0 malformed in .*branch\.c \(in the plan: /elsewhere/branch\.c, compiled from another directory\)"
mkfb e9.fb "branch-profile fn=other src=/elsewhere/other.c checksum=$sum sites=4 first=0 weight=1 counts=1,1,0,1 edges=1,0"
pi_cc -O2 -fplugin-arg-perfinst-feedback=e9.fb -fplugin-arg-perfinst-verbose -c "$src" -o x.o 2> err
assert_contains "nothing of this unit: a note with verbose" err "note: perfinst: e9\.fb: no function profile is keyed to this unit.s source"
assert_not_contains "and no warning" err "warning"
