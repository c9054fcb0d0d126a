# A full program buffer: with full=drain nothing is lost — 1000 units at
# every=10 in a buffer of 4 groups give 25 RI records (24 drained, 1 live)
# holding all 100 groups, units 10 .. 1000 without a gap; with full=stop
# the first 4 are kept, BEGIN says S, and 96 are counted lost.  Threads
# keep their own buffers: 4 threads of 500 units give 50 groups each, at
# units 10 .. 500 in every thread, also with drains.
. "$PERFINST_TOP/tests/lib.sh"
units() { awk '/INSTRUCTION/ { for (i = 1; i <= NF; i++) if ($i == "units") printf "%s ", $(i+1) }' "$1"; }
pi_cc -O2 -g -c "$T/ri/count.c" -o count.o
pi_ld -O2 -o count count.o
PERFINST_RI=every=10,rgs=1,buf=256,full=drain PERFINST_OUT=d.pit ./count 1000 tick > /dev/null
"$PMOPT" dump d.pit > d
assert_eq "drain: 25 RI records" 25 "$(grep -c ' RI tid' d)"
assert_eq "... 24 drained" 24 "$(grep -c ' RI tid .*flags 0x1 (drained )' d)"
assert_eq "... seq 0 .. 24" "$(seq -s ' ' 0 24)" "$(awk '/ RI tid/ { printf "%s%s", n++ ? " " : "", $7 }' d | tr -d ,)"
assert_eq "... every group, no gap" "$(seq -s ' ' 10 10 1000) " "$(units d)"
assert_eq "... nothing lost" 25 "$(grep -c 'suppressed 0, lost 0$' d)"
assert_eq "... a BEGIN per buffer" 25 "$(grep -c '\] BEGIN' d)"

PERFINST_RI=every=10,rgs=1,buf=256,full=stop PERFINST_OUT=s.pit ./count 1000 tick > /dev/null
"$PMOPT" dump s.pit > s
assert_eq "stop: the first 4 groups" "10 20 30 40 " "$(units s)"
assert_contains "... 96 lost" s " RI tid .*, ngroups 4, flags 0x4 \(stopped \), suppressed 0, lost 96$"
assert_contains "... BEGIN has S" s "\] BEGIN flags 0x1 \(S\), rgs 1, mode count, nrg 4,"

pi_cc -O2 -g -c "$T/ri/threads.c" -o threads.o
pi_ld -O2 -o threads threads.o -pthread
for full in drain stop; do
    rm -f t.pit
    PERFINST_RI=rgs=1,buf=1024,full=$full PERFINST_OUT=t.pit ./threads > /dev/null
    "$PMOPT" dump t.pit > t
    tids=$(awk '/ RI tid/ { print $5 }' t | tr -d , | sort -u)
    assert_eq "$full: 4 threads" 4 "$(echo "$tids" | wc -l)"
    for tid in $tids; do
        awk -v t="$tid," '/ RI tid/ { on = ($5 == t) } on' t > one
        if [ $full = drain ]; then
            assert_eq "thread $tid: groups at 10 .. 500" "$(seq -s ' ' 10 10 500) " "$(units one)"
        else
            assert_eq "thread $tid: the first 16 groups" "$(seq -s ' ' 10 10 160) " "$(units one)"
            assert_contains "thread $tid: stopped, 34 lost" one "flags 0x4 \(stopped \), suppressed 0, lost 34$"
        fi
    done
done

# full=alert: the handler runs at each sample point that finds the buffer
# full; draining there loses nothing, doing nothing loses the group
pi_cc -O2 -g -c "$T/ri/alert.c" -o alert.o
pi_ld -O2 -o alert alert.o
PERFINST_RI=rgs=1,buf=256,full=alert PERFINST_OUT=a.pit ./alert 1000 drain > out
assert_contains "alert + drain: 24 alerts" out "^alerts full 24 halted 0$"
"$PMOPT" dump a.pit > a
assert_eq "... every group, no gap" "$(seq -s ' ' 10 10 1000) " "$(units a)"
assert_eq "... nothing lost" 25 "$(grep -c 'suppressed 0, lost 0$' a)"
PERFINST_RI=rgs=1,buf=256,full=alert PERFINST_OUT=b.pit ./alert 1000 > out
assert_contains "alert, no room made: an alert each time" out "^alerts full 96 halted 0$"
"$PMOPT" dump b.pit > b
assert_eq "... the first 4 kept" "10 20 30 40 " "$(units b)"
assert_contains "... 96 lost" b "lost 96$"
