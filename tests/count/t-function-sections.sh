# With all=count the plugin compiles the unit with a section per function
# (-ffunction-sections), unless the command line says
# -fno-function-sections: the counted unit's code is several times -O2's,
# and GNU as takes a time that grows faster than a section's size (SQLite's
# amalgamation: 3.8 s in one .text, 0.9 s with a section per function;
# gcc-plugin/perfinst.cc, bench/RESULTS.md 2026-11-30 05:30).  The linked
# program is the same either way: the same functions in the same order,
# and the same exact counts.  Without all=count the plugin leaves GCC's
# sections alone.
. "$PERFINST_TOP/tests/lib.sh"
src=$T/count/earlyexit.c
# sect OBJ SYMBOL: the name of the section that holds SYMBOL in OBJ
sect() {
    local ndx
    ndx=$(readelf -sW "$1" | awk -v s="$2" '$8 == s && $4 == "FUNC" { print $7 }')
    [ -n "$ndx" ] || fail "$1: no function $2"
    readelf -SW "$1" | sed -n "s/^ *\[ *$ndx\] \([^ ]*\) .*/\1/p"
}
gcc -O2 -c "$T/count/earlyexit-main.c" -o main.o
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c "$src" -o own.o
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fno-function-sections -c "$src" -o one.o
pi_cc -O2 -g -c "$src" -o plain.o
assert_eq "all=count: check()'s section" .text.check "$(sect own.o check)"
assert_eq "all=count: check.count.0's section" .text.check.count.0 "$(sect own.o check.count.0)"
assert_eq "-fno-function-sections: check()'s section" .text "$(sect one.o check)"
assert_eq "-fno-function-sections: check.count.0's section" .text "$(sect one.o check.count.0)"
assert_eq "no all=count: check()'s section" .text "$(sect plain.o check)"
for v in own one; do
    pi_ld -O2 -o $v $v.o main.o
    run_exact $v "$src" 2950 "$v"
    nm -n --defined-only $v | awk '$2 ~ /^[tT]$/ { print $3 }' > $v.order
done
cmp -s own.order one.order || { diff own.order one.order; fail "the functions' order differs with a section per function"; }
ok "the same $(wc -l < own.order) functions in the same order either way"
