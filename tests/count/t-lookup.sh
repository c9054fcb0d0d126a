# Translation-table lookups for every site: every byte of every code range
# pmopt lists resolves, in the running program, to that range's shadow item
# (seed 004 M12); the item's count is live; uninstrumented code has no item.
# Also the metadata round trip: at -O0 each range's address maps through
# DWARF to the site's own file:line.
. "$PERFINST_TOP/tests/lib.sh"
for pie in -pie -no-pie; do
    pi_cc -O0 -g -fPIE -c "$T/count/lookup.c" -o lookup.o
    pi_ld $pie -o lookup lookup.o
    "$PMOPT" dump-meta lookup > meta.txt
    awk '$1 ~ /^0x/ && $4 ~ /count/ { print $1, $3, $5 }' meta.txt > ranges.txt
    [ -s ranges.txt ] || fail "no ranges listed"
    main=$(nm lookup | awk '$3 == "main" { print $1 }')
    for ls in 64 128 32; do
        PERFINST_LINE_SIZE=$ls PERFINST_OUT=/dev/null/x ./lookup ranges.txt "$main" > out.txt 2> err.txt ||
            { cat err.txt out.txt; fail "$pie line size $ls: lookups wrong"; }
        assert_contains "$pie line size $ls: every byte found" out.txt " 0 wrong; entry count of work 1; main has item: no"
    done
    # round trip: address → DWARF line equals the site's line (all at -O0)
    # (a zero-length range has no instruction of its own to look up)
    awk '$1 ~ /^0x/ && $4 ~ /count/ && $3 > 0 { print $1, $7 }' meta.txt | while read -r addr where; do
        line=$(addr2line -e lookup "$addr" | sed 's/ .*//')
        [ "${line##*/}" = "${where##*/}" ] || fail "$addr: DWARF says $line, site says $where"
    done
    ok "$pie: every range's address resolves to its site's file:line"
done
