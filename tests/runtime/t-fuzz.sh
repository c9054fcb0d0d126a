#!/bin/bash
# The runtime's readers of untrusted input under libFuzzer (fuzz-runtime.c)
# with AddressSanitizer and UBSan: the loader stage's ELF64 section-header
# parser and .perfinst.xlat validation, and the PERFINST_OVERLAY parser.
# Seeds: a program linked by perfinst-ld (its table used as is and rebuilt
# for another line size) and a valid overlay.  The inputs that once made a
# reader crash or hang (fuzz-regress/) are replayed first, then the fuzzer
# runs for FUZZ_SECONDS (15).  clang and libclang-rt-14-dev are installed
# by scripts/deps.sh; without them this test fails.
. "$PERFINST_TOP/tests/lib.sh"
R=$T/runtime
need_libfuzzer

fuzz_cc -I"$PERFINST_TOP/runtime" \
    "$R/fuzz-runtime.c" "$PERFINST_TOP/runtime/loader.c" "$PERFINST_TOP/runtime/elfscan.c" "$PERFINST_TOP/runtime/overlay.c" \
    "$PERFINST_TOP/runtime/fnmeta.c" "$PERFINST_TOP/common/piflow.c" \
    "$PERFINST_TOP/common/xlat-blocks.c" "$PERFINST_TOP/common/piformat.c" -o fuzz

# The seed program: instrumented code ranges, so a real .perfinst.xlat.
pi_cc -O2 -c "$T/count/loops.c" -o loops.o
pi_ld -O2 -o loops.full loops.o
strip -o loops loops.full    # smaller; the .perfinst* sections stay
readelf -S -W loops | grep -q '\.perfinst\.xlat ' || fail "the seed program has no .perfinst.xlat"
unit=$("$PMOPT" dump-meta loops | awk '/^unit / { print $2; exit }')
[ -n "$unit" ] || fail "no unit id in dump-meta"

mkdir corpus
# First byte: even = loader (line size 16 << (bits 1-3 % 7)), odd = overlay.
{ printf '\004'; cat loops; } > corpus/prog-64      # 64: the file's table as is
{ printf '\002'; cat loops; } > corpus/prog-32      # 32: rebuilt
{ printf '\014'; cat loops; } > corpus/prog-1024    # 1024: rebuilt
{ printf '\104'; cat loops; } > corpus/prog-biased  # 64, loaded 0x7f0000000000 higher
printf '\001perfinst-overlay 1\n# a comment\noff %s 3\noff %s *   # all\non  %s 3\n' \
    "$unit" "$unit" "$unit" > corpus/overlay
printf '\001perfinst-overlay 1\r\n\toff 0x5c1f0e2a9b3d4c77 0\r\n' > corpus/overlay-crlf

# The seeds go through the loader: the program's segment is built.
for s in corpus/*; do
    FUZZ_VERBOSE=1 ./fuzz "$s" > "$s.log" 2>&1 || { tail -40 "$s.log"; fail "seed $s crashes"; }
done
assert_contains "seed: the table as is" corpus/prog-64.log \
    "fuzz-runtime: loader: shadow segment, line size 64, [1-9][0-9]* of [0-9]+ lookups"
assert_contains "seed: the table rebuilt" corpus/prog-32.log \
    "fuzz-runtime: loader: shadow segment, line size 32 \(rebuilt\), [1-9][0-9]* of [0-9]+ lookups"
assert_contains "seed: rebuilt for 1024" corpus/prog-1024.log "line size 1024 \(rebuilt\)"
assert_contains "seed: loaded higher" corpus/prog-biased.log \
    "fuzz-runtime: loader: shadow segment, line size 64, [1-9][0-9]* of [0-9]+ lookups"
assert_contains "seed: overlay rules" corpus/overlay.log "fuzz-runtime: overlay: rules"
assert_contains "seed: CRLF overlay rules" corpus/overlay-crlf.log "fuzz-runtime: overlay: rules"
rm corpus/*.log

# fuzz-regress/ without the harness's 64 KiB limit on the module's span:
#   xlat-rebuild-huge-item  an item's length corrupted so that the table
#       rebuilt for line size 1024 took 4.8M refs (seconds; gigabytes for a
#       smaller line size); refused: the item lies outside the table's
#       span (common/piformat.c, the decoder pmopt shares; before it, the
#       loader's own check that the file's unused table must still match
#       its items refused it, and still guards the rebuild).  Its XLAT
#       chunk's version was raised to 2 (header CRC recomputed) with
#       PI_FORMAT_VERSION.
for r in "$R"/fuzz-regress/*; do
    FUZZ_VERBOSE=1 FUZZ_MAX_SPAN=0xffffffffffffffff ./fuzz -timeout=5 -rss_limit_mb=1024 "$r" \
        > regress.log 2>&1 || { tail -40 regress.log; fail "regression input $r crashes"; }
    case ${r##*/} in
    xlat-rebuild-huge-item)
        assert_contains "$r refused" regress.log "no shadow segment: \.perfinst\.xlat: chunk at offset 0x0: XLAT: item 4: \[0x13b0, \+678653545\) lies outside the span" ;;
    esac
done
./fuzz -max_total_time="${FUZZ_SECONDS:-15}" -max_len=32768 -rss_limit_mb=1024 -timeout=5 \
    corpus > fuzz.log 2>&1 || { tail -40 fuzz.log; fail "the fuzzer found a problem"; }
grep -E "^Done [0-9]+ runs" fuzz.log
ok "no crash, leak, hang or undefined behaviour"
