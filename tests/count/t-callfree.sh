# callfree-counters=delta (copies.cc, pi_promote_loop_counters; gcc is
# GCC's store motion): in a counting copy an innermost loop with no call
# counts into registers from zero, added to memory
# at its exits, where store motion would load each counter before the loop
# and, for a counter that runs on some iterations only, keep a flag that
# it changed, tested at every exit (a hash chain walk: three instructions
# more an iteration, five an exit).  callfree.c: lookup's chain walk and
# scan_rows' scan (inside a loop that calls) are so counted, the call-free
# nest is not (store motion takes its counters out of both loops at once);
# every site's count equals callfree-counters=gcc's, the walk's exits equal
# what the program counts; the counting lookup's loop holds no %fs: update
# and no more than the clean loop and its two adds; the clean lookup made of
# its assembly (clean-copies=final) keeps nothing of the counters: its loop
# is plain -O2's, instruction for instruction in number.
. "$PERFINST_TOP/tests/lib.sh"
src=$T/count/callfree.c
for m in delta gcc; do
    pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-callfree-counters=$m \
        -fplugin-arg-perfinst-verbose -c "$src" -o $m.o 2> $m.notes
    pi_ld -O2 -o cf.$m $m.o
done
gcc -O2 -g -c "$src" -o plain.o
for f in lookup scan_rows; do
    assert_contains "$f: its loop's counters in registers" delta.notes "$f.: [0-9]+ counters of the loop at line [0-9]+ in registers"
done
assert_not_contains "nest (a call-free nest): left to store motion" delta.notes "nest.: .* in registers"
assert_not_contains "find_name (a loop that calls memcmp): left to store motion" delta.notes "find_name.: .* in registers"
assert_not_contains "callfree-counters=gcc: none in registers" gcc.notes 'in registers'
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-verbose -c "$src" -o default.o 2> default.notes
assert_contains "the default (delta): lookup's counters in registers" default.notes "lookup.: [0-9]+ counters of the loop at line [0-9]+ in registers"

read -r nplain _ <<< "$(loop_of plain.o lookup)"
read -r nclean _ <<< "$(loop_of delta.o lookup)"
read -r ncount nfs <<< "$(loop_of delta.o lookup.count.0)"
assert_eq "the clean lookup's loop: plain -O2's number of instructions" "$nplain" "$nclean"
assert_eq "lookup.count.0's loop: no %fs: update" 0 "$nfs"
[ "$ncount" -le $((nplain + 2)) ] || fail "lookup.count.0's loop: $ncount instructions, plain's $nplain and two adds at most"
ok "lookup.count.0's loop: $ncount instructions (plain's $nplain)"

sites() { site_counts "$@"; }
at() { marked_count "$src" cf.delta delta.pit "$1"; }
for m in delta gcc; do
    PERFINST_OUT=$PWD/$m.pit ./cf.$m 30 > $m.out
    sites cf.$m $m.pit > $m.sites
    [ -s $m.sites ] || fail "$m: no sites in the report"
done
gcc -O2 -o cf.plain "$src"
./cf.plain 30 > plain.out
diff plain.out delta.out || fail "delta: the output differs from -O2's"
diff gcc.sites delta.sites || fail "a count differs from callfree-counters=gcc's"
ok "every site's count ($(wc -l < delta.sites)) equals callfree-counters=gcc's"
read -r _ hits _ < <(tail -1 delta.out)
assert_eq "lookup's hits (the program's count)" "$hits" "$(at lookup-hit)"
assert_eq "lookup's walks to the chain's end (30 rounds of 1366, less the hits)" "$((30 * 1366 - hits))" "$(at lookup-end)"
off_counts_nothing cf.delta "$(./cf.plain)"
