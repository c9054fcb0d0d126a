#!/bin/bash
# The readers under libFuzzer (fuzz-readers.c) with AddressSanitizer and
# UBSan, seeded with the fixture's metadata, program, object and trace, for
# a short fixed budget (FUZZ_SECONDS, 20).  clang and libclang-rt-14-dev are
# installed by scripts/deps.sh; without them this test fails.
source "$PERFINST_TOP/tests/lib.sh"
source "$T/pmopt/fixture.sh"
need_libfuzzer
build_prog
pigen trace -o a.pit --prog prog --unit "$UA=$CA" --unit "$UB=$CB" --signal 11 \
    --sitestat "$UA:4:trap:3:3:0:0:0" --sitestat "$UA:0:cycles:2:9:900:10:500" \
    --event "$UA:4:threshold:13:7:p+0x1139,p+0x1180,0x7f0000001234" --tracereg "$UA:3:$UA=$CA" \
    --watch "8:p+0x4010=3/1,p+0x4018=0/2,0x7ffd00001000=5/5"
mkdir corpus
objcopy --dump-section .perfinst=meta.bin prog /dev/null
{ printf '\000'; cat meta.bin; } > corpus/meta
{ printf '\001'; cat a.pit; } > corpus/trace
{ printf '\002'; cat prog.o; } > corpus/object
{ printf '\002'; cat prog; } > corpus/program
{ printf '\003'; printf 'perfinst-feedback 1\nprogram /x%%20y\n1 pad-field type=s field=a\n2 order functions=f,g\nend 2 0x1\n'; } > corpus/feedback
# a trace with sharing records (common/pishare.c)
pi_cc -O1 -fplugin-arg-perfinst-sharing=all -c "$T/sharing/fixtures.c" -o sf.o
pi_ld -O1 -o sf sf.o
PERFINST_OUT=sf.pit ./sf mixed 20 > /dev/null 2>&1
{ printf '\001'; cat sf.pit; } > corpus/sharing
# traces with PAGES and PERF records, written by the runtime
pi_cc -O2 -c "$T/indicators/pages.c" -o pages.o && pi_ld -O2 -o pages pages.o -pthread
PERFINST_OUT=pages.pit ./pages > /dev/null
{ printf '\001'; cat pages.pit; } > corpus/trace-pages
pi_cc -O2 -c "$T/indicators/perf.c" -o perf.o && pi_ld -O2 -o perf perf.o -pthread
PERFINST_PERF=task-clock,context-switches PERFINST_OUT=perf.pit ./perf > /dev/null
{ printf '\001'; cat perf.pit; } > corpus/trace-perf
# a trace with RANGE records (perfinst_range_add), written by the runtime
pi_cc -O1 -c "$T/indicators/rangeadd.c" -o rangeadd.o && pi_ld -O1 -o rangeadd rangeadd.o
PERFINST_OUT=ranges.pit ./rangeadd 10 10 > /dev/null
{ printf '\001'; cat ranges.pit; } > corpus/trace-ranges
fuzz_cc \
    "$F/fuzz-readers.c" "$PERFINST_TOP/common/pimeta.c" "$PERFINST_TOP/common/pitrace.c" \
    "$PERFINST_TOP/common/piutil.c" "$PERFINST_TOP/common/pifeedback.c" "$PERFINST_TOP/common/pishare.c" \
    "$PERFINST_TOP/common/piout.c" "$PERFINST_TOP/common/piformat.c" \
    -lelf -o fuzz
./fuzz -max_total_time="${FUZZ_SECONDS:-20}" -max_len=16384 -rss_limit_mb=1024 -timeout=5 \
    corpus > fuzz.log 2>&1 || { tail -40 fuzz.log; fail "the fuzzer found a problem"; }
grep -E "^Done [0-9]+ runs" fuzz.log
ok "no crash, leak, hang or undefined behaviour"
