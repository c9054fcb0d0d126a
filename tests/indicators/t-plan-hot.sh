# pmopt plan --hot: from a run of loops.c, an overlay that turns the unit
# off and on exactly the hottest functions with PCT percent of the block
# executions (expected set computed here from `pmopt report --by=function
# --format=csv`); the next run with that overlay counts just those, with
# the same counts as before.  Also --advise, the refusal of a trace of
# another build (the overlay left as it was), and the default PCT.
. "$PERFINST_TOP/tests/lib.sh"
src=$T/count/loops.c
pi_cc -O2 -g -c "$src" -o l.o
pi_ld -O2 -o loops l.o
PERFINST_OUT=all.pit ./loops > /dev/null
"$PMOPT" report ./loops all.pit --by=function --format=csv > f.csv
"$PMOPT" dump-meta loops > meta
unit=$(awk '/^unit / { print $2 }' meta)
[ -n "$unit" ] || fail "no unit in dump-meta"

# expected: the shortest prefix, hottest first, with >= PCT% of all blocks
expect() { # PCT -> names, one a line, sorted
    tail -n +2 f.csv | sort -t, -k1,1nr | awk -F, -v pct="$1" '
        { b[NR] = $1; n[NR] = $4; total += $1 }
        END { for (i = 1; i <= NR && cum * 100 < pct * total && b[i] > 0; i++) { cum += b[i]; print n[i] } }' | sort
}
expect 50 > want50
assert_eq "the counts' expectation for 50%" "collatz_steps" "$(cat want50)"
assert_eq "collatz_steps' share" "482 of 659" \
    "$(awk -F, 'NR > 1 { t += $1 } $4 == "collatz_steps" { c = $1 } END { print c " of " t }' f.csv)"

# function number -> name, as dump-meta numbers them
awk '/^  function [0-9]+ / { print $2, $3 }' meta > fnames
chosen() { # OVERLAY -> names of the functions it turns on, sorted
    awk -v u="$unit" '$1 == "on" && $2 == u { print $3 }' "$1" |
        while read -r f; do awk -v f="$f" '$1 == f { print $2 }' fnames; done | sort
}

"$PMOPT" plan --hot=50 -o hot.ov ./loops all.pit 2> plan.err || { cat plan.err; fail "plan"; }
assert_eq "first line" "perfinst-overlay 1" "$(head -1 hot.ov)"
assert_eq "the unit turned off first" "off $unit *" "$(grep -v '^#' hot.ov | sed -n 2p)"
assert_eq "rules" "2" "$(grep -cE '^(on|off) ' hot.ov)"
assert_eq "functions turned on" "$(cat want50)" "$(chosen hot.ov)"
assert_contains "a comment per function" hot.ov "^# collatz_steps  482  73\.1%$"
ls | grep -q '\.tmp\.' && fail "a temporary file was left behind"
ok "no temporary file left"

# the default is 90%; and --advise prints the same choice
"$PMOPT" plan --hot -o hot90.ov ./loops all.pit 2> /dev/null
expect 90 > want90
assert_eq "--hot (90%) turns on" "$(cat want90)" "$(chosen hot90.ov)"
"$PMOPT" plan --hot --advise ./loops all.pit > advice 2> /dev/null
assert_eq "--advise lists" "$(cat want90)" \
    "$(awk '/^  *blocks / { t = 1; next } t && /^  / { print $4 }' advice | sort)"
assert_contains "--advise: the share" advice "^2 of 4 functions have 611 of 659 block executions"

# functions whose counted code lies in another function (inlined into main,
# which has no switch) cannot be turned off: dump-meta's ranges say which
# ("where" is not the function itself), and plan says so in a note
awk '/^  0x/ { if (index($2, $6 "+") != 1) print $6 }' meta | sort -u > inlined
for f in $(awk '{ print $2 }' fnames); do
    if grep -qx "$f" inlined; then
        assert_contains "plan notes that $f's code is elsewhere" plan.err "note: $f has counted code in "
    else
        assert_not_contains "no note for $f" plan.err "note: $f has counted code"
    fi
done

PERFINST_OVERLAY=hot.ov PERFINST_OUT=hot.pit ./loops > out
assert_eq "output with the overlay" 822 "$(cat out)"
"$PMOPT" report ./loops hot.pit --by=function --format=csv 2> /dev/null > g.csv
"$PMOPT" report ./loops all.pit --by=site --format=csv > s_all.csv
"$PMOPT" report ./loops hot.pit --by=site --format=csv 2> /dev/null > s_hot.csv
row() { awk -F, -v f="$2" '$4 == f { print $1 "," $2 }' "$1"; }    # blocks,entries
sites() { awk -F, -v f="$2" '$4 == f { print $3 "=" $1 }' "$1" | sort -n; }
for f in $(awk '{ print $2 }' fnames); do
    if grep -qx "$f" want50 || grep -qx "$f" inlined; then
        assert_eq "$f counts as before" "$(row f.csv "$f")" "$(row g.csv "$f")"
        diff <(sites s_all.csv "$f") <(sites s_hot.csv "$f") || fail "$f: site counts changed"
    else
        assert_eq "$f (not chosen): blocks" "0" "$(row g.csv "$f" | cut -d, -f1)"
    fi
done
grep -qx sum_to inlined && fail "sum_to was expected to have a switch of its own"
ok "only the chosen functions count, with the same counts"

# a trace of another build is refused, and the overlay stays as it was
pi_cc -O1 -g -c "$src" -o l1.o
pi_ld -O1 -o loops1 l1.o
PERFINST_OUT=other.pit ./loops1 > /dev/null
cp hot.ov keep.ov
if "$PMOPT" plan --hot=50 -o hot.ov ./loops other.pit 2> other.err; then fail "another build accepted"; fi
assert_contains "another build: said" other.err "other.pit is not a trace of \./loops"
cmp -s hot.ov keep.ov || fail "the refused plan changed the overlay"
ok "the overlay is unchanged"

# a trace that counted nothing: no plan
PERFINST_MODE=off PERFINST_OUT=off.pit ./loops > /dev/null
set +e
"$PMOPT" plan --hot -o off.ov ./loops off.pit 2> off.err
rc=$?
set -e
assert_eq "no block executions: status" 1 "$rc"
assert_contains "no block executions: said" off.err "counted no block"
[ ! -e off.ov ] || fail "an overlay was written from nothing"
