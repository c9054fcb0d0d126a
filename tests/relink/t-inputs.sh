#!/bin/bash
# No input overwritten.  Every command that writes a file refuses an output
# that is one of its inputs — the same file by device and inode: the same
# name, a hard link, a symbolic link — naming both, as gcc does, and leaves
# every file as it was: pmopt plan (feedback file, overlay), report --html,
# merge, export (Chrome JSON, folded stacks, flame graph), relink (the
# program, the feedback file, one of the link's inputs), and perfinst-ld.
# report --hot --record still appends to the trace it read (on purpose).
# A plan records its program's build-id (feedback format 2); relink applies
# a plan of another build of the same sources with a note (the rebuild
# loop) and refuses one of another program (fewer than half of its names
# found) unless --force; it says so for a plan of format 1, which has none.
. "$PERFINST_TOP/tests/lib.sh"
build_hot
PERFINST_OUT=a.pit ./hot 2000 > /dev/null
PERFINST_OUT=b.pit ./hot 777 banner > /dev/null
PERFINST_SAMPLE=cpu:100us PERFINST_OUT=s.pit ./hot 20000 > /dev/null
"$PMOPT" plan --order=c3 -o plan.fb hot a.pit > /dev/null
for f in hot hot.o a.pit b.pit s.pit plan.fb; do cp $f $f.orig; done
ln a.pit hard.pit
ln -s a.pit sym.pit

# refused WHAT OUT IN CMD...: CMD fails (1), says OUT is the input IN, and
# changed nothing.
refused() {
    local what=$1 out=$2 in=$3 st=0
    shift 3
    "$@" > out.txt 2> err.txt || st=$?
    assert_eq "$what: exit status" 1 "$st"
    assert_contains "$what: says which" err.txt "^(pmopt|perfinst-ld): $out: is the input $in \(the same file\): refusing to overwrite an input$"
    for f in hot hot.o a.pit b.pit s.pit plan.fb; do
        cmp -s $f $f.orig || fail "$what: $f was changed"
    done
    assert_eq "$what: no temporary directory left" "" "$(ls -A | grep -E '^\.pmopt|^\.pi|^\.perfinst' || true)"
}
refused "plan -o PROG" hot hot "$PMOPT" plan --order=c3 -o hot hot a.pit
refused "plan -o TRACE" a.pit a.pit "$PMOPT" plan -o a.pit hot a.pit
refused "plan --hot -o PROG" hot hot "$PMOPT" plan --hot -o hot hot a.pit
refused "plan --hot -o TRACE (second trace)" b.pit b.pit "$PMOPT" plan --hot -o b.pit hot a.pit b.pit
refused "report --html=TRACE" a.pit a.pit "$PMOPT" report --html=a.pit hot a.pit
refused "report --html=PROG" hot hot "$PMOPT" report --html=hot hot a.pit
refused "merge -o an input" b.pit b.pit "$PMOPT" merge -o b.pit a.pit b.pit
refused "merge -o a hard link to an input" hard.pit a.pit "$PMOPT" merge -o hard.pit a.pit b.pit
refused "merge -o a symbolic link to an input" sym.pit a.pit "$PMOPT" merge -o sym.pit a.pit b.pit
refused "export --chrome=TRACE" a.pit a.pit "$PMOPT" export --chrome a.pit a.pit
refused "export --folded=TRACE" s.pit s.pit "$PMOPT" export --folded s.pit hot s.pit
refused "export --flamegraph=PROG" hot hot "$PMOPT" export --flamegraph hot hot s.pit
refused "relink -o PROG" hot hot "$PMOPT" relink hot --feedback plan.fb -o hot
refused "relink -o FEEDBACK" plan.fb plan.fb "$PMOPT" relink hot --feedback plan.fb -o plan.fb
refused "relink -o a link input" "$PWD/hot.o" "$PWD/hot.o" "$PMOPT" relink hot --feedback plan.fb -o "$PWD/hot.o"
# perfinst-ld: gcc's driver refuses an output named as an input itself; the
# link stage refuses one that is an input by another name (a hard link).
ln hot.o same.o
refused "perfinst-ld -o an input by another name" same.o "$PWD/hot.o" pi_ld -O2 -o same.o hot.o -lm
rm same.o

# the same outputs elsewhere are fine
"$PMOPT" merge -o ab.pit a.pit b.pit > /dev/null
"$PMOPT" report --html=r.html hot a.pit > /dev/null
"$PMOPT" export --folded s.folded hot s.pit > /dev/null 2>&1
[ -s ab.pit ] && [ -s r.html ] && [ -e s.folded ] || fail "outputs that are not inputs were not written"
ok "outputs that are not inputs are written"
# --record updates the trace it read, on purpose
"$PMOPT" report --hot=50 --record hot a.pit > rec.out
assert_contains "report --hot --record: appended to its own trace" rec.out "recorded [0-9]+ hot spots? in a.pit"
"$PMOPT" dump a.pit | grep -q HOTSPOT || fail "no HOTSPOT record in a.pit"
ok "a.pit has the HOTSPOT records"

# ---- a plan records its program's build-id; relink checks it
bid() { readelf -n "$1" | sed -n 's/.*Build ID: *//p'; }
assert_contains "the plan is format 3" plan.fb "^perfinst-feedback 3$"
assert_contains "the plan names its program's build-id" plan.fb "^build-id $(bid hot)$"
# another build of the same sources (the rebuild loop relinks the rebuilt
# program with the training build's plan): applied, with a note
pi_cc -O1 -fplugin-arg-perfinst-all=count -ffunction-sections -fdata-sections \
    -c "$T/relink/hot.c" -o other.o
pi_ld -O1 -o other other.o -lm
[ "$(bid hot)" != "$(bid other)" ] || fail "the two builds have the same build-id"
"$PMOPT" relink other --feedback plan.fb -o other.rel > out.txt 2> err.txt
assert_contains "another build: applied, said" err.txt "^pmopt: note: plan.fb was made for another build \(($PWD/)?hot, build-id $(bid hot)\): [0-9]+ of its [0-9]+ functions and objects are in other$"
[ -x other.rel ] || fail "another build: no program"
ok "another build: other.rel written"
# another program: refused unless --force
pi_cc -O2 -fplugin-arg-perfinst-all=count -ffunction-sections -fdata-sections \
    -c "$T/relink/data.c" -o data.o
pi_ld -O2 -o data data.o
st=0
"$PMOPT" relink data --feedback plan.fb -o data.rel > out.txt 2> err.txt || st=$?
assert_eq "another program's plan: refused" "1 absent" "$st $( [ -e data.rel ] && echo present || echo absent)"
assert_contains "another program's plan: says whose it is" err.txt "^pmopt: plan.fb was made for another program: ($PWD/)?hot, build-id $(bid hot); data has build-id $(bid data) and only [01] of the plan's [0-9]+ functions and objects \(--force applies it anyway\)$"
"$PMOPT" relink data --feedback plan.fb -o data.rel --force > out.txt 2> err.txt
assert_contains "--force: applied, with a note" err.txt "^pmopt: note: plan.fb was made for another program \(($PWD/)?hot, build-id $(bid hot)\): applied to data anyway \(--force\)$"
[ -x data.rel ] || fail "--force: no program"
ok "--force: data.rel written"
# format 1 (no build-id): read, and said
python3 - <<'PY'
import zlib
lines = [l for l in open("plan.fb").read().splitlines(True) if not l.startswith("build-id ")]
lines[0] = "perfinst-feedback 1\n"
body = [l for l in lines if not l.startswith("end ")]
crc = zlib.crc32("".join(l for l in body if l.strip() and not l.startswith("#")).encode())
nrec = sum(1 for l in body if l[0].isdigit())
open("v1.fb", "w").write("".join(body) + "end %d 0x%08x\n" % (nrec, crc))
PY
"$PMOPT" relink hot --feedback v1.fb -o hot.rel > out.txt 2> err.txt
assert_contains "format 1: not checked, said" err.txt "^pmopt: note: v1.fb does not record its program's build-id \(an older pmopt plan made it\): not checked against hot$"
