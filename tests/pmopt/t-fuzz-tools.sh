#!/bin/bash
# The remaining readers of untrusted input under libFuzzer (fuzz-tools.c)
# with AddressSanitizer and UBSan: report groups of RI trace records
# (common/piri.c) behind the trace reader, DWARF and symbols
# (common/pidwarf.c, through libdwarf), the runtime's .perfinst reader for
# combinations and dormant classes (runtime/fnmeta.c, section and whole
# file), the relink's object scanner (optimizer/model/objscan.c) and the
# .perfinst.reserve table (pi_reserve_decode in common/piformat.c).  Seeds: a program
# and object built with -g that write RI records, a trace with HOTSPOT
# records, and a reserve table.  The inputs that once made a reader crash
# or hang (fuzz-tools-regress/) are replayed first, then the fuzzer runs
# for FUZZ_SECONDS (20).  clang and libclang-rt-14-dev are installed by
# scripts/deps.sh; without them this test fails.
. "$PERFINST_TOP/tests/lib.sh"
P=$T/pmopt
need_libfuzzer
fuzz_cc -I"$PERFINST_TOP/optimizer/model" \
    -I"$PERFINST_TOP/runtime" "$P/fuzz-tools.c" "$P/fuzz-tools-rt.c" "$PERFINST_TOP/runtime/elfscan.c" \
    "$PERFINST_TOP/common/pidwarf.c" "$PERFINST_TOP/common/pimeta.c" "$PERFINST_TOP/common/piutil.c" \
    "$PERFINST_TOP/common/piformat.c" \
    "$PERFINST_TOP/common/piri.c" "$PERFINST_TOP/common/pitrace.c" "$PERFINST_TOP/common/piout.c" \
    "$PERFINST_TOP/optimizer/model/objscan.c" \
    -ldwarf -lelf -lz -o fuzz

# A program with RI sample points, built with -g (DWARF functions, lines,
# variables), and its trace of RI records.
pi_cc -O2 -g -c "$T/ri/count.c" -o count.o
pi_ld -O2 -o count.full count.o
strip --strip-unneeded -R .comment -o count.small count.full 2>/dev/null || cp count.full count.small
PERFINST_OUT=ri.pit ./count.full 20 tick > /dev/null
"$PMOPT" dump ri.pit | grep -q ' RI ' || fail "the seed trace has no RI record"
# A trace with HOTSPOT records (pmopt report --hot --record appends them).
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c "$T/layout/edges.c" -o edges.o
pi_ld -O2 -o edges edges.o
PERFINST_OUT=hot.pit ./edges 100 > /dev/null
"$PMOPT" report --hot=80 --record ./edges hot.pit > /dev/null
"$PMOPT" dump hot.pit | grep -q ' HOTSPOT ' || fail "the seed trace has no HOTSPOT record"

mkdir corpus
{ printf '\000'; cat ri.pit; } > corpus/trace-ri
{ printf '\000'; cat hot.pit; } > corpus/trace-hotspot
{ printf '\001'; cat count.full; } > corpus/dwarf-prog
{ printf '\001'; cat count.o; } > corpus/dwarf-object
objcopy --dump-section .perfinst=meta.bin count.full /dev/null
{ printf '\002'; cat meta.bin; } > corpus/fnmeta-section
{ printf '\003'; cat count.small; } > corpus/fnmeta-file
{ printf '\004'; cat count.o; } > corpus/objscan-object
ar rc lib.a count.o edges.o
{ printf '\004'; cat lib.a; } > corpus/objscan-archive
# PIRS, version 1, page 4096, window 3072, size 1024, 2 entries: one in
# the window, one across its end (docs/layout.md).
python3 - > corpus/reserve <<'PY'
import struct, sys
b = b'\x05' + b'PIRS' + struct.pack('<5I', 1, 4096, 3072, 1024, 2)
b += struct.pack('<2Q', 0x401c00, 0x100) + struct.pack('<2Q', 0x402f80, 0x100)
sys.stdout.buffer.write(b)
PY

# The seeds reach the readers' insides.
for s in corpus/*; do
    FUZZ_VERBOSE=1 FUZZ_DWARF=1 ./fuzz "$s" > "$s.log" 2>&1 || { tail -40 "$s.log"; fail "seed $s crashes"; }
done
FUZZ_VERBOSE=1 ./fuzz corpus/dwarf-prog > symbols.log 2>&1 || { tail -40 symbols.log; fail "symbols crash"; }
assert_contains "seed: symbols of the program" symbols.log "fuzz-tools: symbols: [1-9][0-9]* functions, [1-9][0-9]* sections"
assert_contains "seed: RI groups" corpus/trace-ri.log "fuzz-tools: trace: [0-9]+ records, ([1-9][0-9]*) RI groups, \1 well-formed"
assert_contains "seed: HOTSPOT trace" corpus/trace-hotspot.log "fuzz-tools: trace: [1-9][0-9]* records"
assert_contains "seed: DWARF of the program" corpus/dwarf-prog.log \
    "fuzz-tools: dwarf: [1-9][0-9]* functions, [1-9][0-9]* lines, [1-9][0-9]* variables"
assert_contains "seed: DWARF of the object" corpus/dwarf-object.log "fuzz-tools: dwarf: [1-9][0-9]* functions"
assert_contains "seed: fnmeta section" corpus/fnmeta-section.log "fuzz-tools: fnmeta: read"
assert_contains "seed: fnmeta file" corpus/fnmeta-file.log "fuzz-tools: fnmeta: read"
assert_contains "seed: objscan object" corpus/objscan-object.log "fuzz-tools: objscan: [1-9][0-9]* sections"
assert_contains "seed: objscan archive" corpus/objscan-archive.log "fuzz-tools: objscan: [1-9][0-9]* sections"
assert_contains "seed: reserve table" corpus/reserve.log "fuzz-tools: reserve: 1 of 2 in the window"
rm corpus/*.log

# fuzz-tools-regress/: inputs that once crashed, hung or were misread.
for r in "$P"/fuzz-tools-regress/*; do
    [ -e "$r" ] || continue
    FUZZ_VERBOSE=1 FUZZ_DWARF=1 ./fuzz -timeout=5 -rss_limit_mb=1024 "$r" > regress.log 2>&1 ||
        { tail -40 regress.log; fail "regression input $r crashes"; }
    case ${r##*/} in
    libdwarf-rnglists-double-free)  # libdwarf 20210528 freed the bad header twice
        assert_contains "$r refused" regress.log \
            "warning: .*DWARF: a malformed .debug_rnglists table header \(not read: libdwarf cannot read it safely\)" ;;
    libdwarf-huge-section)  # libdwarf allocated what a section header said (1.7 TB)
        assert_contains "$r refused" regress.log \
            "warning: .*DWARF: a malformed section \(past the end of the file\)" ;;
    libdwarf-shstrtab-type)  # not SHT_STRTAB: libelf named no section, libdwarf did
        assert_contains "$r refused" regress.log "warning: .*DWARF: a malformed section name table" ;;
    libdwarf-reloc-into-header)  # an object's relocation rewrote a list header
        assert_contains "$r refused" regress.log "warning: .*DWARF: a malformed .debug_rnglists table header" ;;
    libdwarf-sibling-loop)  # a DW_AT_sibling pointing back made the DIE walk loop forever
        assert_contains "$r refused" regress.log "warning: .*DWARF: a malformed DIE tree \(a sibling link points back\)" ;;
    libdwarf-line-dir-index)  # a DWARF 5 file's directory index == the count: libdwarf read past its array
        assert_contains "$r refused" regress.log "warning: .*DWARF: a malformed .debug_line table header \(the unit's lines" ;;
    libdwarf-rela-entsize)  # .rela.debug_rnglists' sh_entsize 0x72613c210018: no relocation checked, libdwarf applied one
        assert_contains "$r refused" regress.log "warning: .*DWARF: a malformed .debug_rnglists table header \(not read" ;;
    reserve-window-wraps)   # window 3072 + size 0xfffff000 wrapped in 32 bits
        assert_contains "$r refused" regress.log "fuzz-tools: reserve: -1 of 0 in the window" ;;
    reserve-length-wraps)   # an entry's offset + length wrapped in 64 bits
        assert_contains "$r outside" regress.log "fuzz-tools: reserve: 0 of 1 in the window" ;;
    esac
done
FUZZ_DWARF=1 ./fuzz -max_total_time="${FUZZ_SECONDS:-20}" -max_len=65536 -rss_limit_mb=1024 -timeout=5 \
    corpus > fuzz.log 2>&1 || { tail -40 fuzz.log; fail "the fuzzer found a problem"; }
grep -E "^Done [0-9]+ runs" fuzz.log
ok "no crash, leak, hang or undefined behaviour"
