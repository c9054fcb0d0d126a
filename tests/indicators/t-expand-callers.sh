# pmopt plan --expand-callers: seed 000's recursive caller selection on
# main → A → B → C (chain.c, all=count, threshold(count=13) on C).  Run 0
# counts everything; the plan selects C (its threshold fired) and adds its
# caller B.  Run 1 under that overlay counts exactly B and C (40 entries
# each, A and main 0); the next plan adds A, the next main; then nothing is
# left to add.  --expand-callers=2 adds two levels at once; --advise prints
# the choice; a trace without threshold events is refused; a caller that is
# not instrumented is named.
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c "$T/indicators/chain.c" -o chain.o
pi_ld -O2 -o chain chain.o
"$PMOPT" dump-meta chain > meta
unit=$(awk '/^unit / { print $2 }' meta)
fno() { awk -v n="$1" '$1 == "function" && $3 == n { print $2 }' meta; }
awk '/^  function [0-9]+ / { print $2, $3 }' meta > fnames
on() { # OVERLAY -> names turned on, sorted, one line
    awk -v u="$unit" '$1 == "on" && $2 == u { print $3 }' "$1" |
        while read -r f; do awk -v f="$f" '$1 == f { print $2 }' fnames; done | sort | tr '\n' ' '
}
entries() { # TRACE NAME -> entries of NAME
    "$PMOPT" report ./chain "$1" --by=function --format=csv | awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "entries") e = i; if (!e) e = 2 } $4 == n { print $e }'
}
PERFINST_OUT=r0.pit ./chain > out
assert_eq "output" 2380 "$(cat out)"
"$PMOPT" plan --expand-callers -o ov1 ./chain r0.pit 2> err || { cat err; fail "plan 1"; }
cat ov1
assert_eq "first line" "perfinst-overlay 1" "$(head -1 ov1)"
assert_eq "the unit off first" "off $unit *" "$(grep -v '^#' ov1 | sed -n 2p)"
assert_eq "plan 1 turns on" "B C " "$(on ov1)"
assert_contains "B is C's caller from 3 events" ov1 "^# B  caller of C, 3 events$"

PERFINST_OVERLAY=ov1 PERFINST_OUT=r1.pit ./chain > out
assert_eq "output under ov1" 2380 "$(cat out)"
"$PMOPT" report ./chain r1.pit --by=function --format=csv > f1.csv
cat f1.csv
for f in B C; do assert_contains "run 1 counts $f" f1.csv ",$f,"; done
assert_eq "run 1: C entered 40 times" 40 "$(entries r1.pit C)"
assert_eq "run 1: B entered 40 times" 40 "$(entries r1.pit B)"
assert_eq "run 1: A not counted" 0 "$(entries r1.pit A)"
assert_eq "run 1: main not counted" 0 "$(entries r1.pit main)"

"$PMOPT" plan --expand-callers -o ov2 ./chain r1.pit 2> /dev/null
assert_eq "plan 2 turns on" "A B C " "$(on ov2)"
assert_contains "A is B's caller" ov2 "^# A  caller of B, 3 events$"
PERFINST_OVERLAY=ov2 PERFINST_OUT=r2.pit ./chain > /dev/null
assert_eq "run 2: A entered 40 times" 40 "$(entries r2.pit A)"
assert_eq "run 2: main not counted" 0 "$(entries r2.pit main)"
"$PMOPT" plan --expand-callers -o ov3 ./chain r2.pit 2> /dev/null
assert_eq "plan 3 turns on" "A B C main " "$(on ov3)"
PERFINST_OVERLAY=ov3 PERFINST_OUT=r3.pit ./chain > /dev/null
assert_eq "run 3: main entered once" 1 "$(entries r3.pit main)"
assert_eq "run 3: D never on" 0 "$(entries r3.pit D)"
"$PMOPT" plan --expand-callers -o ov4 ./chain r3.pit 2> err4
assert_contains "nothing left to add" err4 "no new caller"
assert_eq "plan 4 keeps" "A B C main " "$(on ov4)"

"$PMOPT" plan --expand-callers=2 -o ov12 ./chain r0.pit 2> /dev/null
assert_eq "two levels at once" "A B C " "$(on ov12)"
"$PMOPT" plan --expand-callers --advise ./chain r1.pit > adv 2> /dev/null
assert_contains "advise: A added" adv "^  added +A +unit $unit function $(fno A)  \(caller of B, 3 events\)$"
assert_contains "advise: B selected" adv "^  selected +B "

# refusals
PERFINST_OVERLAY=ov1 PERFINST_MODE=off PERFINST_OUT=off.pit ./chain > /dev/null
expect_fail "a trace without threshold events" "$PMOPT" plan --expand-callers -o x ./chain off.pit
assert_contains "says why" err "no threshold event"
[ ! -e x ] || fail "an overlay was written"
expect_fail "bad level count" "$PMOPT" plan --expand-callers=0 -o x ./chain r0.pit
expect_fail "--hot with --expand-callers" "$PMOPT" plan --hot --expand-callers -o x ./chain r0.pit

# a caller the plugin did not instrument: C marked, the rest plain
pi_cc -O2 -g -c "$T/indicators/chain.c" -o plain.o
pi_ld -O2 -o plain plain.o
PERFINST_OUT=p.pit ./plain > /dev/null
"$PMOPT" plan --expand-callers -o pov ./plain p.pit 2> perr
assert_contains "names the uninstrumented caller" perr "B calls marked or selected code but is not instrumented"
