#!/bin/bash
# The runtime's parsers of PERFINST_* values under libFuzzer (fuzz-env.c)
# with AddressSanitizer and UBSan, and the harness's oracle: a refused value
# is said naming the variable and the value, a taken one is in its
# documented grammar and range, every PERFINST_COMBINE combination is
# installed or reported.  Seeds: the values docs/runtime.md,
# docs/sampling.md, docs/sampling-stacks.md and docs/indicators.md give.
# The inputs that once broke a parser (fuzz-env-regress/) are replayed
# first, then the fuzzer runs for FUZZ_SECONDS (15).
. "$PERFINST_TOP/tests/lib.sh"
R=$T/runtime
need_libfuzzer

fuzz_cc -I"$PERFINST_TOP/runtime" \
    "$R/fuzz-env.c" "$R/fuzz-env-armed.c" "$R/fuzz-env-ri.c" "$R/fuzz-env-perf.c" \
    "$PERFINST_TOP/runtime/env.c" -o fuzz

# First byte: the variable (fuzz-env.c's switch), then the value.
mkdir corpus
seed() { local sel=$1; shift; local i=0; for v in "$@"; do
    printf "\\$(printf %03o "$sel")%s" "$v" > "corpus/$sel-$i"; i=$((i + 1)); done; }
seed 0 on off
seed 1 64 128 16 1024
seed 2 0 1
seed 3 auto handler
seed 4 10,50,100 1,2,3
seed 5 8 1 4096
seed 6 1ms 100us 1000ms
seed 7 cpu cpu:1ms wall:500us cpu:2000000ns wall:1s
seed 8 512 1 1048576
seed 9 to from both off
seed 10 4194304 1024
seed 11 1 1000000
seed 12 4 1 8
seed 13 64 0
seed 14 65536
seed 15 'count(work) > 1000' 'hot: cycles(f) - 3*insns(f) > 0' 'a: count(f)>1; b: 2*branch(g) + load(g) >= 10'
seed 16 '0:primary:0xa00f11/0x1000065,1:secondary:0xa00f11/0x1000065' '0:primary:0x10,1:primary:0x11' \
    '0-1:primary:0x10,1:primary:0x10:maxrgs=1'
seed 17 on every=5000,rgs=3 cycles=100000 mode=none,directed=on events=call+ret+xfer+emit \
    full=drain buf=65536,cb=32,migrations=2 suppress=secondary start=10
seed 18 task-clock cycles,instructions task-clock,page-faults,context-switches
seed 19 1 60 86400
seed 20 1024 65536 268435456
seed 21 256 4096 16777216
seed 22 0 4096 16777216

# The seeds are taken without a word, and the harness says so.
for s in corpus/*; do
    FUZZ_VERBOSE=1 ./fuzz "$s" > "$s.log" 2>&1 || { tail -20 "$s.log"; fail "seed $s crashes"; }
    case ${s##*/} in
    15-*) assert_contains "seed $s installed" "$s.log" "fuzz-env: PERFINST_COMBINE=.*: [1-9] installed, 0 reported" ;;
    18-*) ;; # perf events: this machine may refuse them (said)
    *) assert_contains "seed $s taken" "$s.log" "^fuzz-env: PERFINST_[A-Z_]*=.*: taken$" ;;
    esac
done
rm corpus/*.log

# fuzz-env-regress/: values the old parsers took or skipped without a word
# (each file's name says which); now refused, and said.  The *-leading-zeros
# ones were refused though well-formed (more than 20 digits): now taken.
for r in "$R"/fuzz-env-regress/*; do
    FUZZ_VERBOSE=1 ./fuzz "$r" > regress.log 2>&1 || { tail -20 regress.log; fail "regression input $r"; }
    case ${r##*/} in
    combine-empty) assert_contains "$r" regress.log "0 installed, 1 reported" ;;
    perf-many-unknown)  # 110 unknown events: the harness lost the last messages (its buffer was full) and aborted
        assert_contains "$r: every unknown event said" regress.log "^fuzz-env: PERFINST_PERF=t0,t1," ;;
    *-leading-zeros) assert_contains "$r taken" regress.log "^fuzz-env: PERFINST_[A-Z_]*=.*: taken$" ;;
    *) assert_contains "$r refused and said" regress.log "^fuzz-env: PERFINST_[A-Z_]*=.*: refused: perfinst: PERFINST_" ;;
    esac
done
./fuzz -max_total_time="${FUZZ_SECONDS:-15}" -max_len=1024 -rss_limit_mb=1024 -timeout=5 \
    corpus > fuzz.log 2>&1 || { grep -m3 "fuzz-env:" fuzz.log; tail -30 fuzz.log; fail "the fuzzer found a problem"; }
grep -E "^Done [0-9]+ runs" fuzz.log
ok "every malformed value said, none taken out of range, no crash"
