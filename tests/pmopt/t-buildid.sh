#!/bin/bash
# pmopt report matches a trace's module to PROG by build-id: a trace of a
# different build is refused naming both files (read with --force); modules
# of other build-ids (shared libraries) are ignored with a note.
source "$PERFINST_TOP/tests/lib.sh"
source "$T/pmopt/fixture.sh"
build_prog
bid=$(pigen buildid prog)
[ ${#bid} = 40 ] || fail "the fixture program has no build-id"

# ---- another build of prog: refused, naming both files and both build-ids
pigen trace -o other.pit --prog prog --build-id feedface --unit "$UA=$CA"
run_pmopt report prog other.pit
assert_eq "different build: exit status" 1 "$rc"
assert_contains "names both files and build-ids" err \
    "other.pit is not a trace of prog: prog has build-id $bid, the trace's .*/prog has feedface \(--force"
[ ! -s out ] || { cat out; fail "a refused report printed a report"; }
ok "nothing printed on stdout"

# ---- --force reads it (the module with prog's file name)
run_pmopt report --force --format=json prog other.pit
[ $rc = 0 ] || { cat err; fail "--force exited $rc"; }
assert_contains "--force says what it did" err "reading module .*/prog \(build-id feedface\) as prog"
python3 -c "
import json; r=json.load(open('out')); s={(x['unit'],x['site']):x['count'] for x in r['sites']}
assert s[('0xa0a0a0a000000001',6)]==11, s" || fail "--force counts"
ok "--force counts used"

# ---- one good trace and one of another build: refused
pigen trace -o good.pit --prog prog --unit "$UA=$CA"
run_pmopt report prog good.pit other.pit
assert_eq "one bad trace among good: exit status" 1 "$rc"
assert_contains "the bad one is named" err "other.pit is not a trace of prog"

# ---- a shared library's module is ignored with a note; prog's counts used
pigen trace -o lib.pit --prog prog --unit "$UA=$CA" \
    --lib /usr/lib/x86_64-linux-gnu/libz.so.1:0badc0de --lib-unit "0x1234=9,9,9"
run_pmopt report --format=json prog lib.pit
[ $rc = 0 ] || { cat err; fail "a trace with a library module exited $rc"; }
assert_contains "library ignored with a note" err "note: lib.pit: module /usr/lib/x86_64-linux-gnu/libz.so.1 is not prog \(a shared library\): ignored"
python3 -c "
import json; r=json.load(open('out'))
assert all(x['unit'] != '0x0000000000001234' for x in r['sites'])
assert sum(x['count'] for x in r['sites'] if x['unit']=='0xa0a0a0a000000001') == 48" \
    || fail "library counts leaked into the report"
ok "only prog's counts"

# ---- a program module found by build-id even when it is not the first module
python3 - "$bid" <<'PY'
import os, struct, sys
sys.path.insert(0, os.path.join(os.environ["PERFINST_TOP"], "tests"))
from pifmt import pad8, trace_header, trace_record
# modules: a library first (index 0), prog second (index 5); counts of prog name index 5
bid = bytes.fromhex(sys.argv[1])
rec = lambda t, p: trace_record(t, pad8(p))
hdr = trace_header()
def mod(i, b, path):
    path = path.encode() + b"\0"
    return rec(2, struct.pack("<II", i, len(b)) + b.ljust(32, b"\0") + struct.pack("<QII", 0, len(path), 0) + path)
recs = [mod(0, b"\x01\x02", "/lib/libc.so.6"), mod(5, bid, "/somewhere/else/renamed")]
recs.append(rec(3, struct.pack("<QII", 0xa0a0a0a000000001, 5, 8) + struct.pack("<8Q", *range(1, 9))))
recs.append(rec(5, struct.pack("<II", len(recs), 0)))
open("second.pit", "wb").write(hdr + b"".join(recs))
PY
run_pmopt report --format=csv prog second.pit
[ $rc = 0 ] || { cat err; fail "program as module 5 exited $rc"; }
assert_eq "counts of module index 5 used" "8,0xa0a0a0a000000001,7" "$(sed -n 2p out | cut -d, -f1-3)"

# ---- PROG a shared library, traces of a test suite's programs: one that
# never loaded it counts nothing of it (a note), the report is made from
# the others; a trace of another build of the library is still refused
printf 'int lf(int x) { return x + 1; }\n' > l.c
printf 'int lf(int); int main(void) { int s = 0; for (int i = 0; i < 5; i++) s += lf(i); return s != 15; }\n' > usel.c
printf 'int main(void) { return 0; }\n' > nol.c
pi_cc -O2 -fPIC -fplugin-arg-perfinst-all=count -c l.c -o l.o
pi_ld -O2 -shared -o libl.so l.o
pi_cc -O2 -fplugin-arg-perfinst-all=count -c usel.c -o usel.o
pi_cc -O2 -fplugin-arg-perfinst-all=count -c nol.c -o nol.o
pi_ld -O2 -o usel usel.o -L. -ll -Wl,-rpath,"$PWD"
pi_ld -O2 -o nol nol.o
PERFINST_OUT=usel.pit ./usel || fail "usel failed"
PERFINST_OUT=nol.pit ./nol
PERFINST_OUT=nol2.pit ./nol
PERFINST_OUT=nol3.pit ./nol
run_pmopt report --by=function --format=csv libl.so usel.pit nol.pit nol2.pit nol3.pit
[ $rc = 0 ] || { cat err; fail "a library with a trace that never loaded it exited $rc"; }
assert_contains "the trace that never loaded it: a note" err "note: nol\.pit: the process did not load libl\.so \(no module of that name\): nothing of it is counted"
assert_eq "the other two: one note" "pmopt: note: and 2 more traces of processes that did not load libl.so" \
    "$(grep -v 'nol\.pit' err | grep 'did not load')"
assert_contains "usel's own module: one note" err "note: usel\.pit: module .*/usel is not libl\.so \(another program\): ignored"
assert_eq "lf entered 5 times, from the other trace" 5 "$(python3 -c "
import csv; print(sum(int(r['entries']) for r in csv.DictReader(open('out')) if r['function'] == 'lf'))")"
PERFINST_OUT=usel2.pit ./usel
run_pmopt report --by=function --format=csv libl.so usel.pit usel2.pit
assert_eq "two traces with the program's counts too: one note, then the sum of distinct modules" \
    "1 pmopt: note: in all 1 module other than libl.so counted in 2 traces: ignored" \
    "$(grep -c 'is not libl' err) $(grep 'in all' err)"
printf 'int lf(int x) { return x + 2; }\n' > l.c
pi_cc -O2 -fPIC -fplugin-arg-perfinst-all=count -c l.c -o l.o
pi_ld -O2 -shared -o libl.so l.o
run_pmopt report libl.so usel.pit nol.pit
assert_eq "a trace of another build of the library: exit status" 1 "$rc"
assert_contains "refused, named" err "usel\.pit is not a trace of libl\.so"
ok "a library's report skips a process that never loaded it, refuses another build's"
