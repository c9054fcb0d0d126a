# Hot data ordered by affinity (data.c): pmopt plan --order groups the data
# objects that executed blocks reference by the function that references
# each most, in the function order.  By weight alone (a1 80000, b1 40000,
# a2 10000 reference executions) b1 would sit between a1 and a2; by
# affinity f's a1 and a2 are adjacent, g's b1 next to them, and the
# relinked program has the three hot objects contiguous in .data, before
# the cold arrays that lay between them, and prints the same.  The data
# model is a two-set direct-mapped L1d (--dcache=128,1,64): as linked, the
# three objects take three lines, two of them in one set; ordered, one line
# (the plan and the relink predict the order to miss less, and apply it).
. "$PERFINST_TOP/tests/lib.sh"
# counting=inline: this test studies the counting build's own layout, and a
# counting=function build's counting copies are f.count.N sections the relink
# leaves in ld's order (docs/layout.md)
pi_cc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-counting=inline -fplugin-arg-perfinst-sections \
    -c "$T/relink/data.c" -o data.o
pi_ld -O2 -o data data.o
PERFINST_OUT=train.pit ./data > train.out
nm -n data | awk '$3 ~ /^(a1|a2|b1|cold[1-4])$/ { print $3 }' | paste -sd' ' > before
echo "before: $(cat before)"
# between the first and the last hot object of the plain link lies a cold one
sed 's/ /\n/g' before | awk '/^(a1|a2|b1)$/ { h++; next } h > 0 && h < 3 { c++ } END { exit !(c > 0) }' ||
    fail "the plain link should interleave hot and cold objects: $(cat before)"
ok "the plain link interleaves hot and cold objects"
for alg in c3 exttsp; do
    "$PMOPT" plan --order=$alg --dcache=128,1,64 -o $alg.fb data train.pit > plan.out
    fo=$(sed -n 's/^[0-9]* order-functions alg=[a-z0-9]* functions=//p' $alg.fb)
    do=$(sed -n 's/^[0-9]* order-data objects=\([^ ]*\) .*/\1/p' $alg.fb)
    # f's objects (a1 heavier, then a2) together, g's b1 where g is in the order
    case "$fo" in
    *f*g*) want="a1,a2,b1" ;;
    *) want="b1,a1,a2" ;;
    esac
    assert_eq "$alg: data in the order of their functions ($fo)" "$want" "$do"
    "$PMOPT" relink data --feedback $alg.fb -o data.$alg --smoke 1000 > rel.out
    assert_contains "$alg: the relink's check" rel.out \
        "^pmopt relink: the data order is predicted to miss less than data's data as linked \(D1 128,1,64, cyclic stream: hit ratio 1\.000 against 0\.615; .*\): applied$"
    got=$(nm -n data.$alg | awk '$3 ~ /^(a1|a2|b1|cold[1-4])$/ { print $3 }' | paste -sd' ')
    echo "$alg: $got"
    case "$got" in
    "$(echo $want | tr , ' ') "*) ;;
    *) fail "$alg: the hot objects should come first and contiguous in the planned order: $got" ;;
    esac
    # contiguous in memory, too: each next object starts where the previous ends (8-byte longs)
    addrs=$(nm -n data.$alg | awk -v l="$want" 'BEGIN { n = split(l, w, ","); for (i = 1; i <= n; i++) k[w[i]] = 1 } ($3 in k) { print $1 }' | paste -sd' ')
    read -r x y z <<< "$addrs"
    [ $((16#$y - 16#$x)) -eq 8 ] && [ $((16#$z - 16#$y)) -eq 8 ] || fail "$alg: the hot objects are not adjacent: $addrs"
    ok "$alg: the hot objects are adjacent in .data ($addrs)"
    for in in "" "777" "5 x"; do
        ./data $in > a.out; ./data.$alg $in > b.out
        cmp a.out b.out || fail "$alg: output differs on '$in'"
    done
    ok "$alg: same output"
done
