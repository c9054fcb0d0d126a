# arrays of scalars repaired on rebuild (pad-array): the plugin records
# which static arrays are only indexed (.perfinst_share_arrays), `pmopt plan
# --sharing` recommends pad-array for those and advice with the reason for
# the others (address passed to a function, taken as a pointer, visible to
# other units); the rebuild gives each element a line of its own (nm: the
# array starts a line and is COUNT lines long), re-detection finds no false
# sharing, the output is unchanged; a pad-array for an array that escapes is
# refused with a warning naming the reason.
. "$PERFINST_TOP/tests/lib.sh"
# Exact counts: every access judged, not the default 1 in N (docs/sharing.md).
export PERFINST_SHARING_PERIOD=1
pi_cc -O2 -g -fplugin-arg-perfinst-sharing=all -c "$T/sharing/arrays.c" -o a.o
pi_ld -O2 -o a a.o
gcc -O2 -pthread "$T/sharing/arrays.c" -o plain
readelf -p .perfinst_share_arrays a > facts
assert_contains "facts: c only indexed" facts "pi-share-array c arrays.c [0-9]+ 8 2 ok"
assert_contains "facts: the atomics' pointers are element accesses" facts "pi-share-array lock arrays.c [0-9]+ 4 2 ok"
assert_contains "facts: passed to a function" facts "pi-share-array e arrays.c [0-9]+ 8 2 refused its address is passed to bump at arrays.c:[0-9]+"
assert_contains "facts: taken as a pointer" facts "pi-share-array p arrays.c [0-9]+ 8 2 refused its address is taken at arrays.c:[0-9]+"

# arr MODE VAR COUNT: detected false, planned pad-array, repaired
for spec in "scalars c 2" "flags flag 2" "hist hist 2" "locks lock 2" "global g 2 g.perfinst_padded"; do
    set -- $spec
    m=$1 v=$2 n=$3 sym=${4:-$2}
    PERFINST_OUT=$m.pit ./a $m > /dev/null 2>&1
    "$PMOPT" report --sharing a $m.pit > $m.rep
    assert_contains "$m: false sharing before" $m.rep "reloads: 0 true, 1998 false\)$"
    "$PMOPT" plan --sharing -o $m.fb a $m.pit
    assert_contains "$m: pad-array planned" $m.fb "^1 pad-array name=$v file=arrays.c reloads=1998 "
    gcc -fplugin="$PLUGIN" -fplugin-arg-perfinst-feedback=$m.fb -O2 -g -pthread "$T/sharing/arrays.c" -o $m.fixed
    ./plain $m > $m.want
    ./$m.fixed $m > $m.got
    diff -u $m.want $m.got || fail "$m: the repaired program's output differs"
    ok "$m: output unchanged after the repair"
    nm -S $m.fixed | awk -v v=$sym '$4 == v { print $1, $2 }' > $m.nm
    read addr size < $m.nm || fail "$m: no symbol $sym"
    [ $((0x$addr % 64)) = 0 ] || fail "$m: $v at 0x$addr does not start a line"
    [ $((0x$size)) = $((n * 64)) ] || fail "$m: $v is 0x$size bytes, not $n lines"
    ok "$m: $v starts a line, each of its $n elements a line of its own (0x$addr, 0x$size bytes)"
    pi_cc -O2 -g -fplugin-arg-perfinst-sharing=all -fplugin-arg-perfinst-feedback=$m.fb -c "$T/sharing/arrays.c" -o r.o
    pi_ld -O2 -o r r.o
    PERFINST_OUT=r$m.pit ./r $m > r$m.out 2>&1
    diff -u $m.want r$m.out || fail "$m: the repaired, instrumented program's output differs"
    "$PMOPT" report --sharing r r$m.pit > r$m.rep
    assert_contains "$m: no false sharing after the repair" r$m.rep "reloads: 0 true, 0 false\)$"
done
# -O0: the same rewrite
gcc -fplugin="$PLUGIN" -fplugin-arg-perfinst-feedback=scalars.fb -O0 -pthread "$T/sharing/arrays.c" -o s0
./s0 scalars > s0.got
diff -u scalars.want s0.got || fail "-O0: the repaired program's output differs"
nm -S s0 | grep -E " c$" > s0.nm
assert_contains "-O0: c padded" s0.nm "^[0-9a-f]*[048c]0 0000000000000080 b c$"

# escapes: advice with the reason, no recommendation
for spec in "escape e passed to bump" "pointer p taken"; do
    set -- $spec
    m=$1 v=$2
    PERFINST_OUT=$m.pit ./a $m > /dev/null 2>&1
    "$PMOPT" plan --sharing -o $m.fb a $m.pit
    assert_contains "$m: advice, with the reason" $m.fb "^# advice \(not applied automatically\): $v: .* not padded automatically: its address is $3"
    assert_contains "$m: no recommendation" $m.fb "^end 0 "
    "$PMOPT" plan --sharing --advise a $m.pit > $m.adv
    assert_contains "$m: --advise says why" $m.adv "$v: .*not padded automatically: its address is $3"
done
# a big array (a buffer, not per-thread slots): padding it would take 2 MiB
PERFINST_OUT=big.pit ./a big > /dev/null 2>&1
"$PMOPT" plan --sharing -o big.fb a big.pit
assert_contains "big: advice, not padded" big.fb "^# advice \(not applied automatically\): buf: .*not padded automatically: its 32768 elements padded to lines would take 2097152 bytes"
assert_contains "big: no recommendation" big.fb "^end 0 "
# a pad-array for an array that escapes: refused at the rebuild, with a warning
python3 - <<'PY'
import zlib
body = "perfinst-feedback 1\nprogram a\n1 pad-array name=e file=arrays.c\n2 pad-array name=c file=arrays.c\n"
open("forced.fb", "w").write(body + "end 2 0x%08x\n" % zlib.crc32(body.encode()))
PY
gcc -fplugin="$PLUGIN" -fplugin-arg-perfinst-feedback=forced.fb -O2 -pthread "$T/sharing/arrays.c" -o forced 2> forced.err
assert_contains "forced: refused with the reason" forced.err "warning: perfinst: forced.fb:3: recommendation 1 \(pad-array\) not applied: e is not padded: its address is passed to bump at arrays.c:[0-9]+"
nm -S forced | grep -E " [ce]$" > forced.nm
assert_contains "forced: e left alone" forced.nm " 0000000000000010 b e$"
assert_contains "forced: c still padded" forced.nm " 0000000000000080 b c$"
./forced escape > forced.out
./plain escape > escape.want
diff -u escape.want forced.out || fail "forced: output differs"
ok "forced: output unchanged"

# a global array: padded and renamed, so that a unit indexing it with the
# old stride cannot link; the plan says so
assert_contains "facts: a global array is marked public" facts "pi-share-array g arrays.c [0-9]+ 8 2 ok public"
assert_contains "global: the plan says it is renamed" global.fb "pad-array name=g .*renamed%20g.perfinst_padded"
gcc -fplugin="$PLUGIN" -fplugin-arg-perfinst-feedback=global.fb -O2 -pthread -c "$T/sharing/arrays.c" -o ag.o
gcc -fplugin="$PLUGIN" -fplugin-arg-perfinst-feedback=global.fb -O2 -c "$T/sharing/arrays-user.c" -o user.o
expect_fail "global: another unit using the old layout does not link" gcc -pthread ag.o user.o -o agu
assert_contains "  ... undefined g" err "undefined reference to .g'"

# fixtures.c's global `long c[2]`, whose address goes to addr_range: advice, and why
pi_cc -O2 -g -fplugin-arg-perfinst-sharing=all -c "$T/sharing/fixtures.c" -o f.o
pi_ld -O2 -o f f.o
PERFINST_OUT=adj.pit ./f adjacent > /dev/null 2>&1
"$PMOPT" plan --sharing -o adj.fb f adj.pit
assert_contains "fixtures' c: advice, with the reason" adj.fb "^# advice \(not applied automatically\): c: .*not padded automatically: its address is passed to addr_range at fixtures.c:[0-9]+"
assert_contains "fixtures' c: no recommendation" adj.fb "^end 0 "
