/* An early exit before a body that needs callee-saved registers (BusyBox
 * awk's handle_special): -O2 tests the flag before its pushes.  The counted
 * build's copies must too: the return block both ways share holds
 * perfinst's asms, which GCC sizes at 128 bytes a line, too big to copy
 * for shrink-wrapping until pass-countfn.cc's allowance.  Expected with N
 * (argv[1]) calls, one in eight flagged: special entered N times.  g, h
 * and k are noipa: IPA-RA would otherwise let special keep its values in
 * registers they leave alone, with no pushes at all. */
#include <stdio.h>
#include <stdlib.h>
struct var { unsigned type; double num; char *s; };
__attribute__((noipa)) double g(struct var *v) { return v->num + 1; }
__attribute__((noipa)) double h(double a, double b) { return a * b; }
static volatile int sink;
__attribute__((noipa)) void k(char *s, int x) { sink += x + (s != 0); }
__attribute__((noinline)) void special(struct var *v)
{
    if (!(v->type & (1u << 10)))
        return;
    double a = g(v), b = g(v + 1), c = g(v + 2);
    for (int i = 0; i < (int)a; i++)
        k(v->s, (int)h(b, c + i));
    v->num = a + b + c;
}
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 80;
    struct var v[3] = {{0, 2, "x"}, {0, 1, 0}, {0, 1, 0}};
    for (int i = 0; i < n; i++) {
        v[0].type = i % 8 == 0 ? 1u << 10 : 0;
        v[0].num = 2;
        special(v);
    }
    printf("%d\n", sink);
    return 0;
}
