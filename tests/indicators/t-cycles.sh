# cycles.c through pmopt: maybe_slow (cycles(>200000)) is seen 20 times, 5
# of them over the threshold.  coded (cycles(code=0b001)) reads the runtime's
# code table: PERFINST_THRESH_TABLE=100000,1,1 makes bit 0 mean 100000
# cycles (2 of its 10 calls spin ~2 million cycles: 2 over), 5000000000
# makes it 0 over; a malformed table is reported once on stderr, naming the
# variable, and the program runs with the default table.
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -g -c "$T/indicators/cycles.c" -o cy.o
pi_ld -O2 -o cy cy.o
hits() { # TRACE FUNCTION: "hits execs" from the Indicators view
    "$PMOPT" report --format=csv --by=indicators cy "$1" |
        python3 -c "
import csv, sys
r = [x for x in csv.DictReader(sys.stdin) if x['function'] == '$2' and x['kind'] == 'cycles']
assert len(r) == 1, r
print(r[0]['hits'], r[0]['execs'])"
}
# run_until EXPECTED FUNCTION TRACE [VAR=VALUE...]: run cy until FUNCTION's
# "hits execs" is EXPECTED, at most 3 times (cycles are time: a fast call that
# the machine preempted can look slow under load); the last result is left
# in $got.
run_until() {
    local want=$1 fn=$2 pit=$3 i
    shift 3
    for i in 1 2 3; do
        env "$@" PERFINST_OUT="$pit" ./cy > out 2> err
        got=$(hits "$pit" "$fn")
        [ "$got" = "$want" ] && return 0
        echo "run $i: $fn: $got, expected $want; again"
    done
}
run_until "5 20" maybe_slow a.pit
assert_contains "the program saw 5 slow calls" out "^slow 5, coded [0-9]+$"
assert_eq "maybe_slow: 5 over 200000 of 20" "5 20" "$got"
"$PMOPT" report cy a.pit > rep 2> err
cat rep
assert_contains "text: maybe_slow 5 of 20 over 200000 cycles" rep "^  cycles +5 of 20  >200000 cycles +[0-9]+/[0-9]+/[0-9]+ +maybe_slow "
assert_contains "text: coded's threshold is its code through the default table" rep "^  cycles +[0-9]+ of 10  code 0b001 = 10 cycles \(default table 10/50/100\) .* coded "
assert_not_contains "no DWARF note" err "DWARF"
"$PMOPT" report --format=json cy a.pit > rep.json
python3 -c "
import json
r = {x['function']: x for x in json.load(open('rep.json'))['indicators']}
m = r['maybe_slow']
assert m['threshold'] == 200000 and m['threshold_from'] == 'directive', m
assert m['cycles']['max'] > 200000 and m['cycles']['min'] <= m['cycles']['mean'] <= m['cycles']['max'], m
assert r['coded']['threshold'] == 10 and r['coded']['threshold_from'] == 'code 0x1, default table', r
" || fail "json: cycles thresholds and statistics"
ok "json: thresholds and cycles statistics"

run_until "2 10" coded b.pit PERFINST_THRESH_TABLE=100000,1,1
assert_eq "table 100000,1,1: no message" "" "$(cat err)"
assert_eq "table 100000,1,1: coded 2 over of 10" "2 10" "$got"
run_until "0 10" coded c.pit PERFINST_THRESH_TABLE=5000000000,1,1
assert_eq "table 5000000000,1,1: coded 0 over of 10" "0 10" "$got"

PERFINST_THRESH_TABLE=bad PERFINST_OUT=d.pit ./cy > out 2> err
cat err
assert_eq "a bad table: one message" 1 "$(wc -l < err)"
assert_contains "a bad table: the message names the variable" err "PERFINST_THRESH_TABLE"
assert_contains "a bad table: the program still runs" out "^slow 5, coded [0-9]+$"
assert_eq "a bad table: the default table counts coded's calls" "10" "$(hits d.pit coded | cut -d' ' -f2)"
