# pmopt relink of programs linked by gold (-fuse-ld=gold) and lld
# (-fuse-ld=lld) through the flags: relink replays the link with the same
# linker and gives it an order instead of GNU ld's script (gold cannot
# parse ld's default script: SORT_NONE): --section-ordering-file for gold,
# --symbol-ordering-file for lld.  The hot functions end up contiguous in
# the planned order (nm), the output is the same, the relinked program was
# linked by the same linker and relinks again.  A reserved region needs
# GNU ld's script: under gold it is skipped with a note and the order still
# applied.
. "$PERFINST_TOP/tests/lib.sh"
for t in ld.gold ld.lld pkg-config; do
    command -v $t > /dev/null || skip "$t is not installed (scripts/deps.sh installs binutils-gold, lld)"
done
export PKG_CONFIG_PATH=$B
flags="-O2 $(pkg-config --cflags perfinst) -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections"
libs=$(pkg-config --libs perfinst)
gcc $flags -c "$T/relink/hot.c" -o hot.o
linked_by() { # PROG: gold, lld or bfd, from what the linker left in the file
    if readelf -SW "$1" | grep -q '\.note\.gnu\.gold-version'; then echo gold
    elif readelf -p .comment "$1" 2>/dev/null | grep -q 'Linker: .*LLD '; then echo lld
    else echo bfd; fi
}
for L in gold lld; do
    gcc $libs -fuse-ld=$L -o hot.$L hot.o -lm
    assert_eq "$L: linked by $L" $L "$(linked_by hot.$L)"
    PERFINST_OUT=$L.pit ./hot.$L 2000 > /dev/null
    "$PMOPT" plan --order=exttsp -o $L.fb hot.$L $L.pit > plan.out
    order=$(sed -n 's/^[0-9]* order-functions alg=[a-z0-9]* functions=//p' $L.fb)
    "$PMOPT" relink hot.$L --feedback $L.fb -o hot.$L.r --smoke 500 --keep-script $L.order > rel.out 2>&1 ||
        { cat rel.out; fail "$L: pmopt relink"; }
    cat rel.out $L.order
    assert_contains "$L: relink checked the order" rel.out '^pmopt relink: 5 functions in the planned order'
    assert_contains "$L: an order, not a script" $L.order "$([ $L = gold ] && echo '^\.text\.' || echo '^main$')"
    assert_not_contains "$L: not GNU ld's script" $L.order 'SECTIONS|SORT_NONE'
    assert_eq "$L: relinked by $L" $L "$(linked_by hot.$L.r)"
    nm -n hot.$L.r | awk '$2 ~ /^[tT]$/ {print $3}' > syms
    got=$(grep -xE "$(echo "$order" | tr , '|')" syms | paste -sd,)
    assert_eq "$L: nm order of the hot functions" "$order" "$got"
    first=$(echo "$order" | cut -d, -f1); last=$(echo "$order" | tr , '\n' | tail -1)
    assert_eq "$L: the 5 hot functions are contiguous" 5 "$(sed -n "/^$first\$/,/^$last\$/p" syms | wc -l)"
    for in in "2000" "777 banner" "0"; do
        ./hot.$L $in > a.out 2>&1; ./hot.$L.r $in > b.out 2>&1
        cmp a.out b.out || fail "$L: output differs on '$in'"
    done
    ok "$L: output byte-identical on three inputs"
    "$PMOPT" relink hot.$L.r --feedback $L.fb -o hot.$L.rr > rel2.out 2>&1 || { cat rel2.out; fail "$L: relink of the relinked program"; }
    assert_contains "$L: the relinked program relinks (its earlier order dropped)" rel2.out 'functions in the planned order'
done

# A reserved region (chase-tail) under gold: skipped with a note, the order applied.
gcc $flags -fplugin-arg-perfinst-counting=inline -falign-functions=64 -c "$T/relink/cyclic.c" -o cyclic.o
gcc $libs -fuse-ld=gold -o cyclic cyclic.o
PERFINST_OUT=cyclic.pit ./cyclic 20 > /dev/null
"$PMOPT" plan --order=c3 --cache=32768,8,64 -o cyclic.fb cyclic cyclic.pit > cyclic.plan
grep -q '^[0-9]* reserve ' cyclic.fb || { cat cyclic.fb; fail "no reserve recommendation for cyclic"; }
"$PMOPT" relink cyclic --feedback cyclic.fb -o cyclic.r --smoke 30 > rel.out 2>&1 || { cat rel.out; fail "cyclic: relink under gold"; }
cat rel.out
assert_contains "reserve under gold: a note" rel.out 'linked by gold, which takes an order but no linker script of relink.s: reserve skipped'
assert_contains "reserve under gold: the order applied" rel.out 'functions in the planned order'
