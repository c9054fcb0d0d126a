# count-at=late: the count pass after GCC's early inliner (late.c).
# Helpers inlined everywhere (sq, sum_to, outer, which inlines both) have
# no function of their own left to count their entries on; each inlined
# body gets a PI_SITE_INLINE site whose count is the count of the block it
# is entered in, and pmopt report adds those to the function's entries
# (a row of its own for a function inlined everywhere).  Every function's
# entries must equal count-at=cfg's, where each function is counted on its
# own entry block before inlining.  With -g the entry is GCC's inline entry
# marker; without it, the block that dominates the body's statements, unless
# the body's first block heads a loop of the body (sum_to: no site, its
# entries not counted, docs/design.md Known gaps).  The report says how
# many entries were inlined bodies' (csv inlined, json inlined_entries):
# gcov counts the others only (late-partial.c).  A body the early
# optimisations left no statement of keeps its marker (late-merged.c).
. "$PERFINST_TOP/tests/lib.sh"
src=$T/count/late.c
# fn PROG TRACE: "linkage entries" per function
fn() { "$PMOPT" report --by=function --format=csv "$1" "$2" | awk -F, 'NR > 1 { print $8, $2 }' | sort; }
# "ENTRIES INLINED" of the function of linkage name $3 (csv of PROG TRACE)
entries_inlined() {
    "$PMOPT" report --by=function --format=csv "$1" "$2" |
        awk -F, -v f="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR > 1 && $c["linkage"] == f { print $c["entries"], $c["inlined"] }'
}
# gcov's execution count of function $2 (GCNO $1, read with gcov's JSON)
gcov_count() {
    gcov --json-format --stdout "$1" 2> /dev/null |
        python3 -c 'import json, sys
print([f["execution_count"] for f in json.load(sys.stdin)["files"][0]["functions"] if f["name"] == sys.argv[1]][0])' "$2"
}
for g in -g ""; do
    for at in cfg late; do
        pi_cc -O2 $g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=$at -c "$src" -o $at.o
        pi_ld -O2 -o $at$g $at.o
        rm -f $at.pit
        PERFINST_OUT=$at.pit ./$at$g 30 > $at.out
        fn ./$at$g $at.pit > $at.fn
    done
    assert_eq "${g:-no -g}: the same output" "$(cat cfg.out)" "$(cat late.out)"
    nm late$g > syms
    for f in sq sum_to outer; do
        ! grep -q " $f\$" syms || fail "${g:-no -g}: $f has a function of its own in the late build (the fixture wants it inlined everywhere)"
        grep -q "^$f [0-9]" cfg.fn || fail "${g:-no -g}: count-at=cfg counts no entries of $f"
    done
    "$PMOPT" dump-meta late$g > meta
    grep -q '^  site [0-9]*: inline, .*region sq,' meta || fail "${g:-no -g}: no inline site of sq"
    if [ "$g" = -g ]; then
        diff cfg.fn late.fn > d || { cat d; fail "-g: entries differ from count-at=cfg's"; }
        ok "-g: the entries of $(wc -l < late.fn) functions (sq, sum_to, outer inlined everywhere) equal count-at=cfg's"
    else
        grep -v '^sum_to ' cfg.fn > want
        diff want late.fn > d || { cat d; fail "no -g: entries differ from count-at=cfg's"; }
        ok "no -g: $(wc -l < late.fn) functions' entries equal count-at=cfg's (sum_to's loop body has none)"
    fi
done
# an always-inline body the early ipa-split cut in two (late-split.c): its
# entries are its header's copies' (where a constant folded its test
# away, the copy's call of the part's), never the part's again
for g in -g ""; do
    for at in cfg late; do
        pi_cc -O2 $g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=$at -c "$T/count/late-split.c" -o split-$at.o
        pi_ld -O2 -o split-$at split-$at.o
        rm -f split-$at.pit
        PERFINST_OUT=split-$at.pit ./split-$at 5000 40 > split-$at.out
        fn ./split-$at split-$at.pit > split-$at.fn
    done
    assert_eq "split, ${g:-no -g}: the same output" "$(cat split-cfg.out)" "$(cat split-late.out)"
    "$PMOPT" dump-meta split-late.o > meta
    grep -q '^  function [0-9]* wrap \[wrap\.part\.[0-9]*\] .*a part the early ipa-split cut off' meta ||
        fail "split, ${g:-no -g}: the early ipa-split made no wrap.part (the fixture wants wrap cut in two)"
    ! nm split-late | grep -q ' body$' || fail "split, ${g:-no -g}: body has a function of its own"
    grep -q '^body 8$' split-cfg.fn || fail "split, ${g:-no -g}: count-at=cfg counts $(grep '^body ' split-cfg.fn) (body runs 8 times)"
    diff split-cfg.fn split-late.fn > d || { cat d; fail "split, ${g:-no -g}: entries differ from count-at=cfg's"; }
    ok "split, ${g:-no -g}: the entries of $(wc -l < split-late.fn) functions (body cut by ipa-split) equal count-at=cfg's"
done
# a function the early ipa-split cut, its front inlined into main
# (late-front.c, N=30): gcov's build splits nothing early and counts every
# call; pmopt's entries are the fronts', none of them `inlined`
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c "$T/count/late-front.c" -o front.o
pi_ld -O2 -o front front.o
"$PMOPT" dump-meta front.o > meta
grep -q '^  function [0-9]* f \[f\.part\.[0-9]*\] .*a part the early ipa-split cut off' meta ||
    fail "front: the early ipa-split made no f.part (the fixture wants f cut in two)"
rm -f front.pit
PERFINST_OUT=front.pit ./front 30 > front.out
assert_eq "front: f's entries and those inlined" "30 0" "$(entries_inlined ./front front.pit f)"
gcc -O2 --coverage "$T/count/late-front.c" -o fcov
./fcov 30 > fcov.out
assert_eq "front: the gcov build's output" "$(cat front.out)" "$(cat fcov.out)"
assert_eq "front: gcov's count of f = entries - inlined" "30" "$(gcov_count fcov-late-front.gcno f)"
# inlined bodies the early optimisations left no statement of
# (late-merged.c: a second address or load FRE merged with the first's):
# with -g their inline entry markers are kept for the count pass, and the
# variables that keep them are gone again from the debug info
for at in cfg late; do
    pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=$at -c "$T/count/late-merged.c" -o merged-$at.o
    pi_ld -O2 -o merged-$at merged-$at.o
    rm -f merged-$at.pit
    PERFINST_OUT=merged-$at.pit ./merged-$at 30 > merged-$at.out
    fn ./merged-$at merged-$at.pit > merged-$at.fn
done
assert_eq "merged: the same output" "$(cat merged-cfg.out)" "$(cat merged-late.out)"
grep -q '^peek 60$' merged-cfg.fn || fail "merged: count-at=cfg counts $(grep '^peek ' merged-cfg.fn) (peek runs 60 times)"
diff merged-cfg.fn merged-late.fn > d || { cat d; fail "merged: entries differ from count-at=cfg's"; }
! readelf --debug-dump=info merged-late.o | grep -q __perfinst_keep || fail "merged: __perfinst_keep is in the debug info"
ok "merged: the entries of $(wc -l < merged-late.fn) functions (bodies FRE merged) equal count-at=cfg's"
# the text report shows a function inlined everywhere as such (sq: 30
# iterations of work, and outer once in three of them)
"$PMOPT" report --by=function ./late late.pit > rep.txt
assert_contains "text report: sq is inlined everywhere, 40 entries" rep.txt '^ +40 +0 .* sq +.*late\.c:[0-9]+ +\(inlined\)$'
# an extern function inlined into one caller and called out of line by
# another (late-partial.c, N=40): its entries 3N+1, of which 40 inlined
# (csv `inlined`); gcov at -O2 counts its own copy's 2N+1, entries -
# inlined
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c "$T/count/late-partial.c" -o partial.o
pi_ld -O2 -o partial partial.o
rm -f partial.pit
PERFINST_OUT=partial.pit ./partial 40 > partial.out
nm partial | grep -q ' peek$' || fail "partial: peek has no copy of its own (the fixture wants one)"
assert_eq "partial: peek's entries and those inlined" "121 40" "$(entries_inlined ./partial partial.pit peek)"
"$PMOPT" report --by=function --format=json ./partial partial.pit |
    python3 -c 'import json, sys
r = [f for f in json.load(sys.stdin)["functions"] if f["linkage"] == "peek"][0]
print(r["entries"], r["inlined_entries"])' > peek.json
assert_eq "partial: json's entries and inlined_entries" "121 40" "$(cat peek.json)"
# (gcov comes with gcc: tests/count/t-lines-gcov.sh needs it too)
gcc -O2 --coverage "$T/count/late-partial.c" -o pcov
./pcov 40 > pcov.out
assert_eq "partial: the gcov build's output" "$(cat partial.out)" "$(cat pcov.out)"
assert_eq "partial: gcov's count of peek = entries - inlined" "81" "$(gcov_count pcov-late-partial.gcno peek)"
# a function of which only its part is left (part-only.c: f's front
# inlined into both callers, then f.part.0 too: the metadata's one copy of
# f is the part, linkage f.part.0): its row is still its unit's (csv
# nunits 1, units part-only.c; 0 and empty before)
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c "$T/count/part-only.c" -o part-only.o
pi_ld -O2 -o part-only part-only.o
PERFINST_OUT=part-only.pit ./part-only 30 > /dev/null
"$PMOPT" report --by=function --format=csv ./part-only part-only.pit |
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR > 1 && $c["function"] == "f" { print $c["linkage"], $c["entries"], $c["nunits"], $c["units"] }' > part.csv
assert_eq "part-only: f's row (linkage, entries, nunits, units)" "f.part.0 60 1 part-only.c" "$(cat part.csv)"
