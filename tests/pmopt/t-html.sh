#!/bin/bash
# pmopt report --html: one self-contained page.  html.c (compiled as h&t.c,
# so that the file name needs escaping) is run and reported; check-html.py
# parses the page (well-formed, nothing fetched, every section with its
# status, hot_kernel the hottest, the call tree leaf ← middle ← outer);
# headless Chromium (scripts/deps.sh installs it; without it this test
# fails) opens it from disk and takes a screenshot, which pngstat.py checks
# is not blank.
. "$PERFINST_TOP/tests/lib.sh"
cp "$T/pmopt/html.c" 'h&t.c'
pi_cc -O2 -g -c 'h&t.c' -o h.o
pi_ld -O2 -o h h.o
PERFINST_OUT=h.pit ./h > /dev/null
"$PMOPT" report --html=out.html ./h h.pit > out 2> err
assert_eq "nothing on stdout" "" "$(cat out)"
assert_eq "nothing on stderr" "" "$(cat err)"
python3 "$T/pmopt/check-html.py" out.html > check.out || { cat check.out; fail "the page"; }
ok "$(tail -1 check.out)"

expect_fail "an unwritable output" "$PMOPT" report --html=/nonexistent/out.html ./h h.pit
assert_contains "names the file" err "^pmopt: /nonexistent/out.html: cannot create: No such file or directory$"

screenshot out.html 1100,1300
