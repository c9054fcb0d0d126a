#!/bin/bash
# The loader stage: a hand-made .perfinst.xlat (items on f1, a piece of f1,
# f2 and a variable, at the addresses nm gives) added with objcopy; lookups
# at the machine's line size, with the translation table rebuilt for other
# line sizes, and modules whose section is missing or broken.
. "$PERFINST_TOP/tests/lib.sh"
. "$T/runtime/fixture.sh"

# expected output of shadow.c for a good table
cat > expect <<'END'
f1+0 item site=0 counter=0 dir=0x1 thr=0 unit=0x5ad0 len=L1 start_ok=1 count=10
f1+2 item site=0 counter=0 dir=0x1 thr=0 unit=0x5ad0 len=L1 start_ok=1 count=10
f1+9 item site=5 counter=0 dir=0x8 thr=13 unit=0x5ad0 len=4 start_ok=1 count=10
f1+12 item site=0 counter=0 dir=0x1 thr=0 unit=0x5ad0 len=L1 start_ok=1 count=10
f2+0 item site=1 counter=1 dir=0x1 thr=0 unit=0x5ad0 len=L2 start_ok=1 count=25
f2+3 item site=1 counter=1 dir=0x1 thr=0 unit=0x5ad0 len=L2 start_ok=1 count=25
table+100 item site=2 counter=-1 dir=0x800 thr=0 unit=0x5ad0 len=256 start_ok=1 count=0
main none
stack none
null none
END
sed 's/ item .*/ none/' expect > expect-none

# check NAME LINE_SIZE EXPECT: run ./NAME, compare its answers.
check() {
    ./$1 > out 2> err
    assert_eq "$1: line size (PERFINST_LINE_SIZE=${PERFINST_LINE_SIZE:-})" "line_size $2" "$(head -1 out)"
    tail -n +2 out | diff -u "$3" - >&2 || fail "$1: lookups differ from $3"
    ok "$1: lookups as expected"
}

for pie in -pie -no-pie; do
    gcc $CFIX -pthread $pie -o shadow "$R/shadow.c" -L"$B" -lperfinst -Wl,-rpath,"$B"
    sym() { nm -S shadow | awk -v n=$1 '$4 == n {print "0x" $1, "0x" $2}'; }
    read -r a1 s1 <<< "$(sym f1)"
    read -r a2 s2 <<< "$(sym f2)"
    read -r at st <<< "$(sym table)"
    [ $((s1)) -gt 12 ] || fail "f1 is too small for the test ($s1)"
    sed -e "s/len=L1/len=$((s1))/" -e "s/len=L2/len=$((s2))/" expect > expect.$pie
    items="$a1,$s1,0,0,0x5ad0,1,0 $((a1 + 8)),4,5,0,0x5ad0,8,13 $a2,$s2,1,1,0x5ad0,1,0 $at,$st,2,-1,0x5ad0,0x800,0"
    add() { objcopy --add-section .perfinst.xlat=$1 --set-section-flags .perfinst.xlat=readonly shadow $2; }

    python3 "$R/mkxlat.py" x64.bin 64 $items
    add x64.bin sh64
    readelf -S -W sh64 | grep -q '\.perfinst\.xlat  *PROGBITS .* 0 *0 *1$' || \
        { readelf -S -W sh64 | grep perfinst >&2; fail "section is not non-alloc PROGBITS"; }
    line=$(cat /sys/devices/system/cpu/cpu0/cache/index0/coherency_line_size 2>/dev/null || echo 64)
    check sh64 "$line" expect.$pie
    PERFINST_VERBOSE=1 PERFINST_LINE_SIZE=64 check sh64 64 expect.$pie
    assert_contains "$pie: table used as is" err "shadow segment of 4 items, [0-9]+ blocks of 64 bytes$"
    PERFINST_VERBOSE=1 PERFINST_LINE_SIZE=128 check sh64 128 expect.$pie
    assert_contains "$pie: rebuilt for 128" err "shadow segment of 4 items, [0-9]+ blocks of 128 bytes \(translation table rebuilt from line size 64\)$"
    PERFINST_LINE_SIZE=16 check sh64 16 expect.$pie

    python3 "$R/mkxlat.py" x32.bin 32 --pad $items
    add x32.bin sh32
    PERFINST_VERBOSE=1 PERFINST_LINE_SIZE=64 check sh32 64 expect.$pie
    assert_contains "$pie: padding skipped, rebuilt from 32" err "rebuilt from line size 32"

    python3 "$R/mkxlat.py" bad.bin 64 --bad-crc $items
    add bad.bin shbad
    PERFINST_VERBOSE=1 PERFINST_LINE_SIZE=64 check shbad 64 expect-none
    assert_contains "$pie: bad CRC refused" err "shbad: no shadow segment: \.perfinst\.xlat: chunk at offset 0x0: hdr_crc mismatch \(stored 0x[0-9a-f]{8}, computed 0x[0-9a-f]{8}\)$"

    python3 "$R/mkxlat.py" far.bin 64 $items 0x7000000000,4,9,0,0x5ad0,1,0
    add far.bin shfar
    PERFINST_VERBOSE=1 PERFINST_LINE_SIZE=64 check shfar 64 expect-none
    assert_contains "$pie: item outside the module refused" err "no shadow segment: an item lies outside the module"

    PERFINST_VERBOSE=1 PERFINST_LINE_SIZE=64 check shadow 64 expect-none
    assert_contains "$pie: no section" err "shadow: no shadow segment: no .perfinst.xlat section"
done
