# The data model of `pmopt plan` (docs/layout.md "Data order") with a
# static table that a header defines, so that two units each have a copy
# of one name (libjpeg-turbo's jpeg_nbits_table in jchuff.c and
# jcphuff.c): the plan's data order places both copies as one piece, and
# the model after the order gives each copy its own references.  It gave
# the piece's weight to both copies' bytes at once: here the copy read
# once was as hot as the used one (2,048 hot lines for 1,024); with more
# reads the used copy's lines fell under the hot-line threshold, the model
# after the order had no hot line and no access, a hit ratio of 1.000
# against 0.000, and the order was written for a gain it had made up.
. "$PERFINST_TOP/tests/lib.sh"
python3 -c "print('static const unsigned char tbl[65536] = {' + ','.join(str(i % 17) for i in range(65536)) + '};')" > tbl.h
cat > a.c << 'C'
#include "tbl.h"
unsigned a_sum(unsigned n)
{
    unsigned s = 0, x = 1;
    for (unsigned i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        s += tbl[x >> 16];
    }
    return s;
}
C
cat > b.c << 'C'
#include "tbl.h"
unsigned b_one(unsigned i) { return tbl[i & 0xffff]; }
C
cat > main.c << 'C'
#include <stdio.h>
unsigned a_sum(unsigned);
unsigned b_one(unsigned);
int main(void) { printf("%u\n", a_sum(300000) + b_one(5)); return 0; }
C
for f in a b main; do
    pi_cc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections -c $f.c -o $f.o
done
pi_ld -O2 -o prog a.o b.o main.o
PERFINST_OUT=run.pit ./prog > /dev/null
"$PMOPT" plan --order=auto -o plan.fb prog run.pit > plan.out
assert_contains "one piece of two copies" plan.out "1 data objects \(131072 bytes\)"
hot() { awk -v w="$1" 'index($0, w) && index($0, "D1 hit ratio") { for (i = 1; i <= NF; i++) if ($(i) == "hot") print $(i - 1) }' plan.out; }
acc() { awk -v w="$1" 'index($0, w) && index($0, "D1 hit ratio") { for (i = 1; i <= NF; i++) if ($(i) == "accesses") print $(i - 1) }' plan.out; }
b=$(hot "before (PROG)") a=$(hot "after the data order")
[ -n "$b" ] && [ -n "$a" ] || { cat plan.out; fail "no model lines"; }
[ "$a" -ge $((b - 1)) ] || { cat plan.out; fail "after the order $a hot lines, before $b: the used copy's lines thinned out"; }
[ "$a" -le $((b + 1)) ] || { cat plan.out; fail "after the order $a hot lines, before $b: the copy read once is hot"; }
ba=$(acc "before (PROG)") aa=$(acc "after the data order")
[ "$aa" -ge $((ba * 99 / 100)) ] || { cat plan.out; fail "after the order $aa accesses, before $ba"; }
ok "the model after the order keeps the used copy's $a hot lines and $aa of $ba accesses"
assert_not_contains "no made-up hit ratio" plan.out "1\.000 after"
