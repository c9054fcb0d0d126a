# C++ exceptions through counted code (all=count, counting copies at -O2):
# except.cc throws from a template instantiated twice, unwinds past a
# destructor, catches, rethrows and catches again; at -O0 and -O2 the
# program prints what it printed without the plugin, every function's
# entries are exact and so are the lines of the catch paths: 143 throws
# (i % 7 == 3 of 0..999), 29 of them rethrown (and i % 5 == 0), 114
# caught in middle().
. "$PERFINST_TOP/tests/lib.sh"
command -v g++ > /dev/null || skip "g++ is not installed"
cp "$T/cxx/except.cc" .
line() { grep -n "$1" except.cc | head -1 | cut -d: -f1; }
rethrow=$(line 'throw;') minus=$(line 'return -1;') caught=$(line 'caught++;')
for o in -O0 -O2; do
    g++ $o except.cc -o plain$o || fail "$o: the plain build"
    g++ $o -g -fplugin="$PLUGIN" -fplugin-arg-perfinst-all=count -c except.cc -o e$o.o || fail "$o: the counting build"
    pi_ld $o -o e$o e$o.o || fail "$o: the link"
    ./plain$o > plain$o.out
    PERFINST_OUT=e$o.pit ./e$o > e$o.out || fail "$o: the run"
    assert_eq "$o: the output" "$(cat plain$o.out)" "$(cat e$o.out)"
    assert_eq "$o: the program's own tally" "855886 29 1000" "$(cat e$o.out)"
    "$PMOPT" report --by=function --format=csv e$o e$o.pit | awk -F, 'NR > 1 { print $4 "=" $2 }' | sort > fn$o
    got=$(grep -E '^(main|middle|layer|checked<int>|checked<long>|Guard::~Guard)=' fn$o | paste -sd' ')
    assert_eq "$o: entries" "Guard::~Guard=1000 checked<int>=500 checked<long>=500 layer=1000 main=1 middle=1000" "$got"
    "$PMOPT" report --by=line --format=csv e$o e$o.pit > lines$o
    got=$(awk -F, -v a="$rethrow" -v b="$minus" -v c="$caught" '$2 == "except.cc" && ($3 == a || $3 == b || $3 == c) { print $3 "=" $1 }' lines$o | sort -n | paste -sd' ')
    assert_eq "$o: the catch paths' lines" "$rethrow=29 $minus=114 $caught=29" "$got"
done
