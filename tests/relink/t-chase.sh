# Chase-tail fixtures under cachegrind (deterministic, geometry given):
#  oneset.c: 12 hot functions at the same page offset (one 8-way set):
#    the plan's model says "hot lines crowd some sets", the order puts them
#    in consecutive sets, and cachegrind's I1 misses fall;
#  cyclic.c: 80 hot functions of ~500 bytes (40 KiB) called in a cycle:
#    the model says "the hot lines do not fit", plans a reserved region
#    (sets 56-63), the relink puts the 25 overflow functions into the
#    window 0xe00-0xfff of their pages (nm and .perfinst.reserve), the
#    model's hit ratio rises from 0, and cachegrind's I1 misses are cut.
. "$PERFINST_TOP/tests/lib.sh"
command -v valgrind > /dev/null || skip "valgrind not installed"
CG="valgrind --tool=cachegrind --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64 --cachegrind-out-file=/dev/null"
i1misses() { $CG "$@" 2>&1 >/dev/null | sed -n 's/.*I1  misses: *\([0-9,]*\).*/\1/p' | tr -d ,; }

for p in oneset cyclic; do
    # counting=inline: this test studies the counting build's own layout, and a
    # counting=function build's counting copies are f.count.N sections the relink
    # leaves in ld's order (docs/layout.md)
    pi_cc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-counting=inline -ffunction-sections -fdata-sections \
        -falign-functions=64 -c "$T/relink/$p.c" -o $p.o
    pi_ld -O2 -o $p $p.o
    PERFINST_OUT=$p.pit ./$p 20 > /dev/null
    "$PMOPT" plan --order=c3 --cache=32768,8,64 -o $p.fb $p $p.pit > $p.plan
    cat $p.plan
    "$PMOPT" relink $p --feedback $p.fb -o $p.r --smoke 30 > $p.rel
    cat $p.rel
done

# oneset: 12 hot functions' lines in one set before, none over after
assert_contains "oneset: the model sees 12 lines in one set" oneset.plan "before \(PROG\) .* 1 of 64 sets over 8 ways \(max 12\): hit ratio 0\.[0-9]+"
assert_contains "oneset: chase-tail condition (crowded set)" oneset.plan "chase-tail condition present \(hot lines crowd some sets\)"
assert_contains "oneset: the order fits" oneset.plan "after the order .* 0 of 64 sets over 8 ways .* hit ratio 1\.000"
offs=$(nm oneset | awk '$3 ~ /^hot[0-9]+$/ {print substr($1, length($1)-2)}' | sort -u | wc -l)
assert_eq "oneset: before, the 12 hot functions share one page offset" 1 "$offs"
sets=$(nm oneset.r | awk '$3 ~ /^hot[0-9]+$/ {print $1}' | while read a; do echo $(( (0x$a >> 6) & 63 )); done | sort -u | wc -l)
assert_eq "oneset: after, they start in 12 different sets" 12 "$sets"
b=$(i1misses ./oneset 20000); a=$(i1misses ./oneset.r 20000)
echo "oneset: I1 misses $b -> $a"
[ "$a" -lt $((b / 10)) ] || fail "oneset: I1 misses $b -> $a, not cut by 10x"
ok "oneset: cachegrind I1 misses $b -> $a"

# cyclic: the reserved region
assert_contains "cyclic: the hot lines do not fit" cyclic.plan "chase-tail condition present \(the hot lines do not fit\)"
assert_contains "cyclic: the order alone does not help" cyclic.plan "after the order .* hit ratio 0\.000"
assert_contains "cyclic: a reserved region is planned" cyclic.fb "^[0-9]+ reserve page=0x1000 window=0xe00 size=0x200 overflow=f"
assert_contains "cyclic: the model's ratio rises" cyclic.plan "with a reserved region .* hit ratio 0\.[1-9]"
n=$(sed -n 's/.* overflow=//p' cyclic.fb | tr , '\n' | wc -l)
assert_contains "cyclic: relink placed every overflow function in its window" cyclic.rel "^pmopt relink: $n of $n overflow functions in the reserved window 0xe00-0x1000 of each 0x1000-byte page \(\.perfinst\.reserve: $n of $n\)"
inwin=$(for f in $(sed -n 's/.* overflow=//p' cyclic.fb | tr , ' '); do
    a=$(nm cyclic.r | awk -v f=$f '$3 == f {print $1}'); o=$(( 0x$a & 0xfff ))
    [ $o -ge $((0xe00)) ] && echo in; done | wc -l)
assert_eq "cyclic: nm agrees: overflow functions at page offsets 0xe00-0xfff" "$n" "$inwin"
readelf -SW cyclic.r | grep -q '\.perfinst\.reserve' || fail "no .perfinst.reserve section"
ok "cyclic: .perfinst.reserve marks the reserved region"
b=$(i1misses ./cyclic 200); a=$(i1misses ./cyclic.r 200)
echo "cyclic: I1 misses $b -> $a"
[ "$a" -lt $((b * 6 / 10)) ] || fail "cyclic: I1 misses $b -> $a, not cut by 40%"
ok "cyclic: cachegrind I1 misses $b -> $a"
./cyclic 77 > a.out; ./cyclic.r 77 > b.out
cmp a.out b.out || fail "cyclic: output differs"
ok "cyclic: output byte-identical"
