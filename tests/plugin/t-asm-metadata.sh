# The metadata in few lines of assembly (gcc-plugin/pass-ranges.cc,
# unit.cc): GNU as spends about a thousand instructions on every value of a
# data directive and as many on every line, and an all=count unit has a
# code range per site and copy.  A CODE chunk's range is three lines
# (.quad LABEL, UNIT / .long SITE, END-LABEL / .quad COUNTS, COUNTS), the
# UNIT chunk 32 words a line, and a range that the next one follows ends at
# that one's label.  What the bytes say is checked by the tests that read
# them (t-types.sh: the per-type counts; the counting tests: sites, ranges).
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -fplugin-arg-perfinst-all=count -S "$T/count/clean-copies.c" -o cc.s
# every CODE chunk: its header's range count N, its lines between the
# header and .popsection (3 N), its ranges that end where the next starts
awk '/^\t\.pushsection \.perfinst(\.clean)?,"[oeG]+"/ { on = 1; k = 0; next }
     on && /^\t\.popsection/ { print n, k - 5, shared; on = 0; shared = 0; next }
     on { k++ }
     on && k == 5 { split($2, a, ","); n = a[1] }
     on && /^\t\.long [0-9]+, \.L[0-9]+-\.L[0-9]+$/ { split($3, e, "-"); end = e[1] }
     on && /^\t\.quad \.L[0-9]+, 0x/ { l = $2; sub(/,$/, "", l); if (l == end) shared++ }' cc.s > chunks
[ -s chunks ] || fail "no CODE chunk in the assembly"
awk '$2 != 3 * $1 { exit 1 }' chunks || { cat chunks; fail "a CODE chunk's ranges are not three lines each"; }
ok "$(wc -l < chunks) CODE chunks, $(awk '{ n += $1 } END { print n }' chunks) ranges, three lines each"
[ "$(awk '{ s += $3 } END { print s + 0 }' chunks)" -gt 0 ] || fail "no range ends at the next one's label"
ok "$(awk '{ s += $3 } END { print s }' chunks) ranges end at the next one's label"
# the UNIT chunk: 32 words a line
awk '/^\t\.pushsection \.perfinst,"",@progbits$/ { on = 1; next } on && /^\t\.popsection/ { exit }
     on && /^\t\.quad / { lines++; words += split($0, w, ",") } END { print lines, words }' cc.s > unit
read -r lines words < unit
[ "$words" -gt 64 ] || fail "the UNIT chunk: $words words"
assert_eq "the UNIT chunk's lines for its $words words" "$(((words + 31) / 32))" "$lines"
