# Counters numbered hottest first (counter-order=hot, the default;
# gcc-plugin/ctr-order.cc): in ctrorder.c's work(), whose loop comes after
# five cold checks, the counters of the loop's blocks (lines 29-38) are the
# function's first ones, one after another, so that they share cache lines;
# with counter-order=site they come after the checks' (what this test
# would see if the renumbering stopped).  The line counts are exact and
# every site's count is the same in both orders (the metadata follows the
# renumbering), in an executable, under -fPIC and with counter-address=base.
. "$PERFINST_TOP/tests/lib.sh"
src=$T/count/ctrorder.c
# sites PROG TRACE: "function site count" per site
sites() { "$PMOPT" report "$1" "$2" --by=site --format=csv | awk -F, 'NR > 1 { print $4, $3, $1 }' | sort; }
for v in exe pic base; do
    for order in hot site; do
        flags="-fplugin-arg-perfinst-counter-order=$order"
        [ $v = pic ] && flags="$flags -fPIC"
        [ $v = base ] && flags="$flags -fplugin-arg-perfinst-counter-address=base"
        pi_cc -O2 -g -fplugin-arg-perfinst-all=count $flags -c "$src" -o $order.o
        pi_ld -O2 -o $order $order.o
        rm -f $order.pit
        PERFINST_OUT=$order.pit ./$order > $order.out
        assert_eq "$v, $order: the program's result" 532939 "$(cat $order.out)"
        python3 "$T/count/check-counts.py" --all "$PMOPT" ./$order "$src" $order.pit > c || { cat c; fail "$v, $order: counts"; }
        ok "$v, $order: $(tail -1 c)"
        sites ./$order $order.pit > $order.sites
        "$PMOPT" dump-meta ./$order > $order.meta
        python3 "$T/count/ctr-order.py" $order.meta work 29 38 > $order.ctr
    done
    diff hot.sites site.sites > d || { cat d; fail "$v: the sites' counts differ between the two orders"; }
    ok "$v: $(wc -l < hot.sites) sites, the same counts in both orders"
    for order in hot site; do
        read -r -a loop < <(sed -n 1p $order.ctr)
        read -r -a rest < <(sed -n 2p $order.ctr)
        [ ${#loop[@]} -ge 3 ] && [ ${#rest[@]} -ge 5 ] || fail "$v, $order: ${#loop[@]} loop counters, ${#rest[@]} others in work (want >= 3, >= 5)"
        first=${loop[0]} last=${loop[${#loop[@]} - 1]}
        if [ $order = hot ]; then
            [ "$last" -lt "${rest[0]}" ] || fail "$v: the loop's counters (${loop[*]}) are not work's first (others: ${rest[*]})"
            assert_eq "$v: the loop's counters one after another (${loop[*]})" ${#loop[@]} $((last - first + 1))
        else
            [ "$last" -gt "${rest[0]}" ] || fail "$v, site order: the loop's counters (${loop[*]}) already first"
            ok "$v, site order: the loop's counters (${loop[*]}) after others (${rest[*]})"
        fi
    done
done
