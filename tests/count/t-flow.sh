# Counters on arcs (counters=arcs, the default) against a counter in every
# block (counters=blocks) on flow.c's known control flow — loops, a
# switch, early returns, longjmp, exit() three calls deep with the loops
# that called it still active, SIGTERM raised inside a loop, and SIGSEGV
# in a block that calls nothing (whose counter sits at the block's end, so
# the STOPPED record is added back), a function that opens with a loop (an
# empty first block): every block's count solved from the arcs
# equals the one counted directly, at -O0 and -O2, and the lines are
# gcov's (the expect-count comments are gcov 12's counts of an -O0
# --coverage build).  flow-exc.cc does the same for C++ exceptions.
# Each also with count-at=late (the count pass after the early inliner
# and optimisations): there flow.c's `return 10;`, `return 30;` and
# `return -1;` are PHI constants on the edges into the return block, with
# no statement of their own (gcov -O2 loses them), and lines.cc takes
# their lines from the PHI arguments' locations.
. "$PERFINST_TOP/tests/lib.sh"
src=$T/count/flow.c
# sites PROG TRACE: "function site line bb count" per block, by site
sites() {
    "$PMOPT" report "$1" "$2" --by=site --format=csv 2> /dev/null |
        awk -F, 'NR > 1 { print $4, $3, $6, $8, $1 }' | sort -k2n
}
sj=$(grep -n 'if (setjmp(env) == 0)' "$src" | cut -d: -f1)
for O in -O0 -O2 "-O2 -fplugin-arg-perfinst-count-at=late"; do
    for m in arcs blocks; do
        pi_cc $O -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-counters=$m -c "$src" -o $m.o
        pi_ld $O -o flow.$m $m.o
    done
    narcs=$("$PMOPT" dump-meta flow.arcs | grep -c '^    arc ' || true)
    [ "$narcs" -gt 0 ] || fail "$O: counters=arcs: no arcs in the metadata"
    # blocks that call nothing keep their counter at their end (poke's
    # last, where SIGSEGV stops it; consume's first, an empty block)
    "$PMOPT" dump-meta flow.arcs > meta
    grep -q '^  site [0-9]*: block, .*counter [0-9]* at end' meta || fail "$O: no counter at a block's end"
    assert_eq "$O: counters=blocks: no arcs" 0 "$("$PMOPT" dump-meta flow.blocks | grep -c '^    arc ' || true)"
    for mode in ret exit term segv; do
        for m in arcs blocks; do
            rm -f $m.$mode.pit
            st=0
            PERFINST_OUT=$m.$mode.pit ./flow.$m $mode > $m.$mode.out 2> /dev/null || st=$?
            echo $st >> $m.$mode.out
            sites flow.$m $m.$mode.pit > $m.$mode.sites
        done
        cmp -s arcs.$mode.out blocks.$mode.out || fail "$O $mode: the two builds ran differently"
        [ -s arcs.$mode.sites ] || fail "$O $mode: no sites in the report"
        if [ $mode = segv ]; then
            # counters=blocks gives poke's return block the entry's counter
            # (it runs as often unless a call leaves between: a fault is no
            # call), so there it says 1001 returns; poke is checked by its
            # lines below, against what ran
            grep -v '^poke ' blocks.$mode.sites > b; mv b blocks.$mode.sites
            grep -v '^poke ' arcs.$mode.sites > a; mv a arcs.$mode.sites
        fi
        # main's setjmp block (its first on the setjmp's line) is entered
        # again when jumper longjmps back: where gcov counts that (the count
        # pass after GCC's estimated profile: -O2 at count-at=late, the
        # default; arcs.cc, counts_returns) the arcs do, a counter at its
        # start does not
        case $O in
        -O2*) awk -v l="$sj" '!done && $1 == "main" && $3 == l { $5 += 1; done = 1 } 1' blocks.$mode.sites > b
            mv b blocks.$mode.sites ;;
        esac
        diff blocks.$mode.sites arcs.$mode.sites > d || { cat d; fail "$O $mode: solved counts differ from the counted ones"; }
        ok "$O $mode (exit status $(tail -1 arcs.$mode.out)): $(wc -l < arcs.$mode.sites) block counts solved from the arcs equal the counted ones"
    done
    assert_eq "$O: exit status with exit(3)" 3 "$(tail -1 arcs.exit.out)"
    assert_eq "$O: exit status of SIGTERM" 143 "$(tail -1 arcs.term.out)"
    assert_eq "$O: exit status of SIGSEGV" 139 "$(tail -1 arcs.segv.out)"
    "$PMOPT" dump arcs.segv.pit > segv.dump
    assert_contains "$O: the SIGSEGV trace says where the thread stopped" segv.dump "STOPPED module 0 pc 0x"
    python3 "$T/count/check-counts.py" --all "$PMOPT" ./flow.arcs "$src" arcs.exit.pit > c ||
        { cat c; fail "$O: line counts (exit)"; }
    ok "$O exit: $(tail -1 c), as gcov"
    # poke's lines when the SIGSEGV stopped it (the `// segv: N` comments)
    "$PMOPT" report ./flow.arcs arcs.segv.pit --by=line --format=csv |
        awk -F, 'NR > 1 && $2 ~ /flow\.c$/ { print $3 "=" $1 }' | sort > segv.lines
    grep -n '// segv: ' "$src" | sed 's/^\([0-9]*\):.*segv: \([0-9]*\).*/\1=\2/' | sort > segv.want
    [ -s segv.want ] || fail "no segv expectations in flow.c"
    comm -23 segv.want segv.lines > missing
    [ ! -s missing ] || { cat segv.lines; fail "$O segv: line counts $(tr '\n' ' ' < missing)not found"; }
    ok "$O segv: $(wc -l < segv.want) line counts of the block that stopped exact"
done

# C++: exceptions thrown through counted frames and caught in a loop.
command -v g++ > /dev/null || skip "g++ not installed"
for O in -O0 -O2 "-O2 -fplugin-arg-perfinst-count-at=late"; do
    for m in arcs blocks; do
        pi_cc -x c++ $O -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-counters=$m \
            -c "$T/count/flow-exc.cc" -o x$m.o
        pi_ld --pi-cc=g++ $O -o exc.$m x$m.o
        rm -f x$m.pit
        PERFINST_OUT=x$m.pit ./exc.$m > x$m.out
        sites exc.$m x$m.pit > x$m.sites
    done
    assert_eq "$O exceptions: output" "caught 4 sum 80" "$(cat xarcs.out)"
    [ -s xarcs.sites ] || fail "$O exceptions: no sites in the report"
    diff xblocks.sites xarcs.sites > d || { cat d; fail "$O exceptions: solved counts differ from the counted ones"; }
    python3 "$T/count/check-counts.py" --all "$PMOPT" ./exc.arcs "$T/count/flow-exc.cc" xarcs.pit > c ||
        { cat c; fail "$O: exceptions: line counts"; }
    ok "$O exceptions: $(wc -l < xarcs.sites) block counts equal, $(tail -1 c)"
done
