# The sampling records' reader (common/pisample.c) under libFuzzer with
# AddressSanitizer and UBSan, seeded with real traces of timer and idle
# samples, for a short fixed budget (FUZZ_SECONDS, 15); and a trace whose
# SAMPLES record says more samples than it holds is refused with a message
# naming the file and the record.
. "$PERFINST_TOP/tests/lib.sh"

gcc -O2 -g -c "$T/sampling/deep.c" -o deep.o
pi_ld --pi-runtime -O2 -o deep deep.o -pthread
PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=cpu.pit ./deep 20000000 threads > /dev/null
gcc -O2 -g -c "$T/sampling/blocker.c" -o blocker.o
pi_ld --pi-runtime -O2 -o blocker blocker.o -pthread
PERFINST_IDLE=both PERFINST_OUT=idle.pit ./blocker 10 > /dev/null

# a SAMPLES record whose nsamples is one more than it holds (CRCs fixed up)
python3 - cpu.pit bad.pit <<'PY'
import struct, sys, zlib
d = bytearray(open(sys.argv[1], "rb").read())
off = 48
while off < len(d):
    typ, size = struct.unpack_from("<II", d, off)
    if typ == 31:
        p = off + 16
        n, = struct.unpack_from("<I", d, p)
        struct.pack_into("<I", d, p, n + 1)
        crc = zlib.crc32(bytes(d[p:p + size])) & 0xffffffff
        struct.pack_into("<I", d, off + 8, crc)
        struct.pack_into("<I", d, off + 12, zlib.crc32(bytes(d[off:off + 12])) & 0xffffffff)
        break
    off += 16 + size
else:
    sys.exit("no SAMPLES record")
open(sys.argv[2], "wb").write(d)
PY
expect_fail "a SAMPLES record that lies" "$PMOPT" report --tree bad.pit
assert_contains "names the file and the record" err "^pmopt: bad.pit: record [0-9]+ \(type 31\) at offset 0x[0-9a-f]+: sample [0-9]+ runs past the record$"

need_libfuzzer
mkdir corpus
cp cpu.pit idle.pit corpus/
# -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION: wrong CRCs accepted (piutil.h),
# so that mutated records reach pisample (without it, as until now, nearly
# every mutation was refused by the trace reader's CRC check)
fuzz_cc \
    "$T/sampling/fuzz-samples.c" "$PERFINST_TOP/common/pisample.c" "$PERFINST_TOP/common/pitrace.c" \
    "$PERFINST_TOP/common/pimeta.c" "$PERFINST_TOP/common/piutil.c" "$PERFINST_TOP/common/piout.c" \
    "$PERFINST_TOP/common/piformat.c" -lelf -o fuzz
./fuzz -max_total_time="${FUZZ_SECONDS:-15}" -max_len=65536 -rss_limit_mb=1024 -timeout=5 \
    corpus > fuzz.log 2>&1 || { tail -40 fuzz.log; fail "the fuzzer found a problem"; }
grep -E "^Done [0-9]+ runs" fuzz.log
ok "no crash, leak, hang or undefined behaviour"
