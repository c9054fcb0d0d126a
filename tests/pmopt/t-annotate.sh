#!/bin/bash
# pmopt report --annotate=FILE: slower.c (the diff test's program) with
# each line's count beside it, compared whole with a golden file
# (golden/annotate-slower.txt), and line by line with gcov's counts of the
# same program and run wherever gcov gives a line a number.  Bad uses.
source "$PERFINST_TOP/tests/lib.sh"
source "$T/pmopt/fixture.sh"

cp "$T/pmopt/slower.c" .
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -DFACTOR=5 -c slower.c -o s.o
pi_ld -O2 -g -o slower s.o
PERFINST_OUT=run.pit ./slower 1000 3

run_pmopt report --annotate=slower.c ./slower run.pit
[ $rc = 0 ] || { cat err; fail "report --annotate exited $rc"; }
[ ! -s err ] || { cat err; fail "report --annotate said something on stderr"; }
assert_golden "the annotated source" out pmopt/golden/annotate-slower.txt
cp out annotated
# the same file by its absolute path
run_pmopt report --annotate="$PWD/slower.c" ./slower run.pit
cmp out annotated || fail "--annotate by absolute path differs"
ok "--annotate by absolute path: the same"
# the bare name the report shows, from a directory without it: the file the
# program's lines name
mkdir sub
(cd sub && "$PMOPT" report --annotate=slower.c ../slower ../run.pit > ../sub.out 2> ../sub.err) ||
    { cat sub.err; fail "--annotate by the bare name from another directory"; }
sed 1,2d annotated > a.body
sed 1,2d sub.out > s.body
cmp a.body s.body || fail "--annotate by the bare name from another directory differs"
ok "--annotate by the bare name from another directory: the same"

# gcov of the same program and run: equal wherever both give a count
gcc --coverage -O2 -DFACTOR=5 slower.c -o cov
./cov 1000 3
gcov -o cov-slower slower.c > /dev/null
python3 - <<'PY' || fail "--annotate and gcov disagree"
def counts(path):
    out = {}
    for l in open(path):
        c, no, _ = l.split(":", 2)
        c, no = c.strip(), int(no.strip())
        if no and c not in ("-",):
            out[no] = 0 if c == "#####" else int(c.rstrip("*"))
    return out
ours, gcov = counts("annotated"), counts("slower.c.gcov")
both = sorted(set(ours) & set(gcov))
bad = [(n, ours[n], gcov[n]) for n in both if ours[n] != gcov[n]]
assert not bad, bad
assert len(both) >= 15, both
print("lines compared:", len(both))
PY
ok "every line both count: the same count as gcov"

run_pmopt report --annotate=nosuch.c ./slower run.pit
assert_eq "a missing file: error" 1 "$rc"
assert_contains "says so" err "^pmopt: nosuch.c: cannot open: No such file or directory$"
echo 'int x;' > other.c
run_pmopt report --annotate=other.c ./slower run.pit
assert_eq "a file PROG has no lines of: error" 1 "$rc"
assert_contains "says so" err "^pmopt: other.c: no counted line of \./slower is in this file$"
run_pmopt report --annotate=slower.c --format=json ./slower run.pit
assert_eq "--annotate with --format=json: usage error" 2 "$rc"
