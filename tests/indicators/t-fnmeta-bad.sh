# The runtime's reader of .perfinst for combinations and dormant classes
# (runtime/fnmeta.c) on damaged metadata: a program whose .perfinst was
# overwritten says why on stderr (a combination cannot name its functions
# then) and runs on; 300 programs with random
# bytes of chain.c's .perfinst changed never crash (exit 0, no signal), whatever the
# reader makes of them.
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -g -fplugin-arg-perfinst-combine=marked -c "$T/indicators/combine.c" -o c.o
pi_ld -O2 -rdynamic -o comb c.o -ldl
read -r off size < <(readelf -SW comb | sed 's/^ *\[ *[0-9]*\]//' | awk '$1 == ".perfinst" { print $4, $5 }' |
    while read -r o s; do echo $((16#$o)) $((16#$s)); done)
[ -n "$off" ] && [ "$size" -gt 64 ] || fail "no .perfinst section in comb"
export PERFINST_COMBINE='ab: 2*count(A) - count(B) > 10'
cp comb zero
python3 - "$off" "$size" <<'PY'
import sys
off, size = int(sys.argv[1]), int(sys.argv[2])
b = bytearray(open("zero", "rb").read())
b[off:off + size] = b"\xff" * size
open("zero", "wb").write(b)
PY
./zero > out 2> err
cat err
assert_contains "damaged metadata is reported, as pmopt says it" err "perfinst: .*zero: metadata for counter combinations and dormant classes: \.perfinst: chunk at offset 0x0: bad magic 0xffffffff \(expected 0x31544950, \"PIT1\"\)$"
assert_contains "the combination cannot name A, and says why" err "ab: A was never entered .*the metadata, which could not be read"
assert_contains "the program ran" out "^sum 16774912211$"
# the random damage on a quicker program: chain.c, every function probed
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-combine=all -c "$T/indicators/chain.c" -o ch.o
pi_ld -O2 -o chain ch.o
read -r off size < <(readelf -SW chain | sed 's/^ *\[ *[0-9]*\]//' | awk '$1 == ".perfinst" { print $4, $5 }' |
    while read -r o s; do echo $((16#$o)) $((16#$s)); done)
python3 - "$off" "$size" <<'PY'
import random, sys
off, size = int(sys.argv[1]), int(sys.argv[2])
src = open("chain", "rb").read()
rnd = random.Random(3)
for i in range(300):
    b = bytearray(src)
    for _ in range(rnd.choice([1, 2, 4, 16])):
        p = off + rnd.randrange(size)
        b[p] = rnd.randrange(256)
    open(f"m{i}", "wb").write(b)
PY
chmod +x m*
crashed=0
for i in $(seq 0 299); do
    PERFINST_COMBINE='a: count(C) - count(B) > 0; b: insns(A) + branch(main) > 100; c: cycles(B) > 100000' \
        PERFINST_OUT="m$i.pit" timeout 20 "./m$i" > /dev/null 2> "e$i" || { echo "m$i: exit $?"; cat "e$i"; crashed=$((crashed + 1)); }
done
assert_eq "no damaged program crashed" 0 "$crashed"
echo "reasons given: $(cat e* | sed -n 's/.*dormant classes: //p' | sort | uniq -c | tr '\n' ';')"
