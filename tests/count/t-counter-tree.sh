# The arcs that get counters are those off a spanning tree weighted by
# GCC's estimated profile (counter-tree=estimate, the default with
# count-at=late; gcc-plugin/arcs.cc): in earlyexit.c's check(), a chain
# of early exits the calls seldom take, the estimate (GCC's early-return
# heuristic) makes the fall-through path the hot one and puts the
# counters on the exits, so a call that falls through runs one counter
# update; arcs.cc's own guess (counter-tree=guess, an even split at each
# test: what this test would see if the estimate stopped being read)
# counts every test's block, five updates a call.  The updates a run
# executes are the sum of its counters (each update adds 1), read from the
# trace; earlyexit-main.c is built without the plugin, so the unit's
# counters are check()'s alone.  The line counts are exact either way, in
# an executable and under -fPIC.
. "$PERFINST_TOP/tests/lib.sh"
src=$T/count/earlyexit.c
# updates TRACE: the sum of the counters of the one counted unit
updates() { "$PMOPT" dump "$1" | awk '/ COUNTS /{ c = 1; next } c && /^ +\[[0-9]+\]/ { for (i = 2; i <= NF; i++) s += $i; next } { c = 0 } END { print s + 0 }'; }
gcc -O2 -c "$T/count/earlyexit-main.c" -o main.o
for v in exe pic; do
    for tree in estimate guess; do
        flags="-fplugin-arg-perfinst-counter-tree=$tree"
        [ $v = pic ] && flags="$flags -fPIC"
        pi_cc -O2 -g -fplugin-arg-perfinst-all=count $flags -c "$src" -o $tree.o
        pi_ld -O2 -o $tree $tree.o main.o
        run_exact $tree "$src" 2950 "$v, $tree"
        n=$(updates $tree.pit)
        if [ $tree = estimate ]; then
            # 960 calls fall through (one update each), 40 take an exit
            [ "$n" -le 1100 ] || fail "$v: check() ran $n counter updates in 1000 calls with the estimate (want <= 1100)"
        else
            [ "$n" -ge 3000 ] || fail "$v: check() ran $n counter updates in 1000 calls with the guess (this test no longer tells the two apart)"
        fi
        ok "$v, $tree: $n counter updates in 1000 calls of check()"
    done
done
