# sharing detection: the fixtures' reloads, exact (barriers fix every
# interleaving), classified true or false on the right fields, named by
# variable, struct field, heap allocation site and source line, at -O0,
# -O2 and -O2 -flto; per-thread padded data has no reloads; atomics on
# one word are true sharing, never false.
. "$PERFINST_TOP/tests/lib.sh"
# exact mode: every access to a shared line checked (the default samples; t-sampled.sh)
export PERFINST_SHARING_PERIOD=1
build() { # OPT... -> ./f
    pi_cc "$@" -g -fplugin-arg-perfinst-sharing=all -c "$T/sharing/fixtures.c" -o f.o
    case "$*" in
    *-flto*) pi_ld -g "$@" -fplugin="$PLUGIN" -fplugin-arg-perfinst-sharing=all -o f f.o ;;
    *) pi_ld "$@" -o f f.o ;;
    esac
}
run() { # MODE -> MODE.rep
    rm -f "$1.pit"
    PERFINST_OUT="$1.pit" ./f "$1" > "$1.out" 2> "$1.addr"
    "$PMOPT" report --sharing f "$1.pit" > "$1.rep"
}
for opt in -O0 "-O2 -flto" -O2; do
    build $opt
    for m in adjacent atomic padded mixed; do run $m; done
    assert_contains "$opt adjacent: 2*(R-1) false reloads, no true" adjacent.rep "reloads: 0 true, 1998 false\)$"
    assert_contains "$opt atomic: 2*(R-1) true reloads, no false" atomic.rep "reloads: 1998 true, 0 false\)$"
    assert_contains "$opt padded: no reloads" padded.rep "0 with sharing; reloads: 0 true, 0 false\)$"
    assert_contains "$opt mixed: both kinds" mixed.rep "reloads: 999 true, 999 false\)$"
done
# the -O2 build is the last: the names (the -flto line tables name "<artificial>")
assert_contains "adjacent: T writes c[0], false" adjacent.rep "writes \[c\[0\]\]; reloads 0 true, 999 false$"
assert_contains "adjacent: T writes c[1], false" adjacent.rep "writes \[c\[1\]\]; reloads 0 true, 999 false$"
assert_contains "adjacent: verdict" adjacent.rep "^#1  line 0x[0-9a-f]+  FALSE sharing"
assert_contains "adjacent: the object" adjacent.rep "objects: (.*; )?c \(global, 16 bytes"
# (c[0] = c[0] + 1: one probe for the load and the store back, a read and a write)
assert_contains "adjacent: the source line of the access" adjacent.rep "at fixtures.c:[0-9]+ \(worker\): T[0-9] reads\+writes c\[0\]: (1998|2000) accesses, reloads 0 true, 999 false"
assert_not_contains "atomic: never false" atomic.rep "FALSE"
assert_contains "atomic: named" atomic.rep "writes \[total\]; reloads 999 true, 0 false$"
assert_contains "mixed: private field a reloads false" mixed.rep "reads\+writes mixed.a: (1998|2000) accesses, reloads 0 true, 999 false"
assert_contains "mixed: shared field reloads true" mixed.rep "writes mixed.shared: 1000 accesses, reloads 999 true, 0 false"
assert_not_contains "mixed: shared field never false" mixed.rep "mixed.shared: [0-9]+ accesses, reloads [0-9]+ true, [1-9]"

# the program patterns, -O2
for m in linreg hist flags locks hidden globals; do run $m; done
assert_contains "linreg: per-thread accumulators in a heap array, false" linreg.rep "reloads: 0 true, 1998 false\)$"
assert_contains "linreg: the heap object by allocation site" linreg.rep "objects: heap object from fixtures.c:[0-9]+ \(main\) \(heap, 80 bytes"
assert_contains "linreg: the allocation's call stack" linreg.rep "allocated at: fixtures.c:[0-9]+ \(main\) <- "
assert_contains "linreg: elements and fields named" linreg.rep "writes \[acc\[1\]\.sx, acc\[1\]\.sy, acc\[1\]\.sxx, acc\[1\]\.syy, acc\[1\]\.sxy\]"
assert_contains "hist: per-thread buckets, false" hist.rep "reloads: 0 true, 1998 false\)$"
assert_contains "hist: rows named" hist.rep "writes \[hist\[1\]\[0\.\.7\]\]"
assert_contains "flags: per-thread bools (bytes), false" flags.rep "reloads: 0 true, 1998 false\)$"
assert_contains "flags: named" flags.rep "writes \[flags\[1\]\]"
assert_contains "locks: spin-lock pool, false" locks.rep "reloads: 0 true, 1998 false\)$"
assert_contains "globals: two globals, false" globals.rep "reloads: 0 true, 1998 false\)$"
assert_contains "globals: both named" globals.rep "objects: hits_[ab] \(global, 8 bytes.*hits_[ab] \(global"
# prediction: safe in this placement, false sharing at others
assert_contains "hidden: no reloads in this run" hidden.rep "0 with sharing; reloads: 0 true, 0 false\)$"
assert_contains "hidden: predicted" hidden.rep "^  halves \(global, 128 bytes, at \+0 of its line this run\): HIDDEN false sharing"
assert_contains "hidden: safe at +0, not at +8" hidden.rep "line placements: \+0:[0-9] \+8:[0-9]{2,}"
# sampled mode, 1 in 2 accesses to a shared line on average: the same verdicts
PERFINST_SHARING_PERIOD=2 PERFINST_OUT=p-adj.pit ./f adjacent > /dev/null 2>&1
"$PMOPT" report --sharing f p-adj.pit > p-adj.rep
assert_contains "periodic: says so" p-adj.rep "sampled: 1 in 2 accesses"
assert_contains "periodic: adjacent still false only" p-adj.rep "reloads: 0 true, [1-9][0-9]* false\)$"
PERFINST_SHARING_PERIOD=2 PERFINST_OUT=p-at.pit ./f atomic > /dev/null 2>&1
"$PMOPT" report --sharing f p-at.pit > p-at.rep
assert_contains "periodic: atomic still true only" p-at.rep "reloads: [1-9][0-9]* true, 0 false\)$"
# every access through the runtime (no inlined skip): the same exact counts
PERFINST_SHARING_SAMPLE=0 PERFINST_OUT=s0.pit ./f mixed > /dev/null 2>&1
"$PMOPT" report --sharing f s0.pit > s0.rep
assert_contains "PERFINST_SHARING_SAMPLE=0: same counts" s0.rep "reloads: 999 true, 999 false\)$"
# the program's output does not depend on the instrumentation
gcc -O2 -pthread "$T/sharing/fixtures.c" -o plain
for m in adjacent atomic padded mixed linreg hist flags locks hidden globals; do
    ./plain $m > $m.plain 2>/dev/null
    diff -u $m.plain $m.out || fail "$m: output differs from the uninstrumented build"
done
ok "output unchanged by the instrumentation"
# the heat map
"$PMOPT" report --sharing --heatmap=lr.svg f linreg.pit > /dev/null
assert_contains "heat map: an SVG" lr.svg "^<svg xmlns"
assert_contains "heat map: bytes named" lr.svg "<title>\+[0-9]+ acc\[1\]\.sx: read and written</title>"
python3 -c "import xml.dom.minidom,sys; xml.dom.minidom.parse('lr.svg')" || fail "heat map is not well-formed XML"
ok "heat map is well-formed"
# errors
expect_fail "report --sharing needs a trace" "$PMOPT" report --sharing f
assert_contains "  ... says so" err "needs PROG and at least one TRACE"
echo junk > bad.pit
expect_fail "a file that is not a trace" "$PMOPT" report --sharing f bad.pit
assert_contains "  ... names it" err "bad.pit"
