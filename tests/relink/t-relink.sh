# pmopt plan --order + pmopt relink on hot.c (hot functions scattered
# between cold ones; an inline helper copied into a hot and a cold one —
# the cold copy must not count as hot): the plan orders the hot functions by their call
# graph (from the objects' call relocations, weighted by block counts),
# the relinked program has them contiguous in the planned order (nm), its
# output is byte-identical, and relinking twice gives the same layout.
# --advise prints the same recommendations, numbered; --only applies a
# selection.  The data model is a two-set direct-mapped L1d
# (--dcache=128,1,64), where table's 512 bytes at a line boundary (the data
# order) take 8 lines and as linked 9: predicted to miss less (Che's
# estimate), so order-data is written and applied.
. "$PERFINST_TOP/tests/lib.sh"
build_hot
PERFINST_OUT=train.pit ./hot 2000 > /dev/null
for alg in c3 exttsp; do
    "$PMOPT" plan --order=$alg --dcache=128,1,64 -o $alg.fb hot train.pit > plan.out
    cat plan.out
    assert_contains "$alg: the plan sees 3 call arcs of parse/main" plan.out "hot functions, [0-9]+ call arcs"
    grep '^[0-9]' $alg.fb
    order=$(sed -n 's/^[0-9]* order-functions alg=[a-z0-9]* functions=//p' $alg.fb)
    # every hot function, no cold one
    for f in main parse lex hash emit; do
        echo ",$order," | grep -q ",$f," || fail "$alg: $f is not in the order '$order'"
    done
    echo ",$order," | grep -q ",cold_" && fail "$alg: a cold function is in the order '$order'"
    ok "$alg: the order holds the 5 hot functions and no cold one: $order"
    "$PMOPT" relink hot --feedback $alg.fb -o hot.$alg --smoke 500 > rel.out
    cat rel.out
    assert_contains "$alg: relink checked the order" rel.out "^pmopt relink: 5 functions in the planned order"
    # nm: the hot functions at increasing addresses in the planned order,
    # and no other function between them
    nm -n hot.$alg | awk '$2 ~ /^[tT]$/ {print $3}' > syms
    want=$(echo "$order" | tr , ' ')
    got=$(grep -xE "$(echo "$order" | tr , '|')" syms | paste -sd' ')
    assert_eq "$alg: nm order of the hot functions" "$want" "$got"
    first=$(echo "$order" | cut -d, -f1); last=$(echo "$order" | tr , '\n' | tail -1)
    between=$(sed -n "/^$first\$/,/^$last\$/p" syms | wc -l)
    assert_eq "$alg: the 5 hot functions are contiguous" 5 "$between"
    for in in "2000" "777 banner" "0"; do
        ./hot $in > a.out 2>&1; ./hot.$alg $in > b.out 2>&1
        cmp a.out b.out || fail "$alg: output differs on '$in'"
    done
    ok "$alg: output byte-identical on three inputs"
done
# the same plan twice: the same layout
"$PMOPT" relink hot --feedback c3.fb -o hot.again > /dev/null
assert_eq "relinking twice gives the same text" "$(nm -n hot.c3 | awk '$2 ~ /^[tT]$/' | md5sum)" "$(nm -n hot.again | awk '$2 ~ /^[tT]$/' | md5sum)"
# a relinked program relinks again (its own recipe has the script removed)
"$PMOPT" relink hot.c3 --feedback exttsp.fb -o hot.re > /dev/null
assert_eq "relink of a relinked program follows the new plan" \
    "$(sed -n 's/^[0-9]* order-functions alg=[a-z0-9]* functions=//p' exttsp.fb | tr , ' ')" \
    "$(nm -n hot.re | awk '$2 ~ /^[tT]$/ {print $3}' | grep -xE 'main|parse|lex|hash|emit' | paste -sd' ')"

# advice mode: numbered, and the numbers select
"$PMOPT" plan --order=c3 --dcache=128,1,64 --advise hot train.pit > adv
cat adv
assert_contains "advice 1 is the function order" adv "^1\. order-functions: place 5 hot functions"
assert_contains "advice 2 is the data order" adv "^2\. order-data: place [0-9]+ data objects"
assert_contains "order-data names table" c3.fb "^2 order-data objects=.*table"
"$PMOPT" relink hot --feedback c3.fb --only 2 -o hot.data > rel.out
assert_contains "--only 2 applies one recommendation" rel.out "1 recommendation applied"
nm hot.data | grep -q ' table$' || fail "table is gone"
# order-data: table first in .bss (before stderr's copy and completed.0)
bss=$(readelf -SW hot.data | awk '$2 == ".bss" {print $4}')
assert_eq "order-data: table starts .bss" "$bss" "$(nm hot.data | awk '$3 == "table" {print $1}')"
"$PMOPT" relink hot --feedback c3.fb --only 1 -o hot.fn --keep-script fn.ld > /dev/null
assert_contains "the script of --only 1 lists the functions" fn.ld '^    \*\(\.text\.lex\)$'
assert_not_contains "... and not the data" fn.ld '^    \*\(\.bss\.table\)$'

# the cache geometry: sysfs (PERFINST_SYSFS_CACHE names another directory),
# overridden by --cache; a bad --cache is a usage error
mkdir -p fake/index0 fake/index1
printf '1\nData\n32K\n8\n64\n' | { read l; echo $l > fake/index0/level; read t; echo $t > fake/index0/type; read s; echo $s > fake/index0/size; read w; echo $w > fake/index0/ways_of_associativity; read c; echo $c > fake/index0/coherency_line_size; }
echo 1 > fake/index1/level; echo Instruction > fake/index1/type; echo 16K > fake/index1/size
echo 4 > fake/index1/ways_of_associativity; echo 64 > fake/index1/coherency_line_size
PERFINST_SYSFS_CACHE=$PWD/fake "$PMOPT" plan --order=c3 --advise hot train.pit > geo
assert_contains "the L1i geometry from sysfs" geo "^cache model: L1i 16 KiB, 4 ways, 64-byte lines, 64 sets"
PERFINST_SYSFS_CACHE=$PWD/fake "$PMOPT" plan --order=c3 --cache=65536,16,128 --advise hot train.pit > geo
assert_contains "--cache overrides sysfs" geo "^cache model: L1i 64 KiB, 16 ways, 128-byte lines, 32 sets"
if "$PMOPT" plan --order=c3 --cache=1000,3,64 --advise hot train.pit > /dev/null 2> err; then fail "a bad --cache was accepted"; fi
assert_contains "a bad --cache is refused" err "--cache=1000,3,64: expected SIZE,WAYS,LINE"
if "$PMOPT" plan --order=bogus --advise hot train.pit > /dev/null 2> err; then fail "--order=bogus accepted"; fi
assert_contains "an unknown order is a usage error" err "'bogus' is not c3, exttsp, cdsort, sets, auto or none"

# other link modes: -no-pie, and a static runtime in a -static program
for mode in "-no-pie" "--pi-static-runtime -static"; do
    pi_ld -O2 $mode -o hot.m hot.o
    "$PMOPT" relink hot.m --feedback c3.fb -o hot.m2 --smoke 300 --keep-script m.ld > rel.out
    # (a static libc has a parse of its own: names defined twice are not checked)
    assert_contains "$mode: relinked in order" rel.out "^pmopt relink: [45] functions in the planned order"
    head -3 m.ld | grep -q "Script for" || head -5 m.ld >&2
    assert_eq "$mode: the same ELF type" "$(readelf -h hot.m | grep Type:)" "$(readelf -h hot.m2 | grep Type:)"
done
