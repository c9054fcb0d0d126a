/* ipa-ra.c: a caller of a counted function, for t-counting-opt.sh.
 * With -fipa-ra the clean caller keeps a, b, s and i in call-clobbered
 * registers across the call of leaf, because leaf (and so its counting
 * copy leaf.count.N, which leaf tail-calls) clobbers few of them; a
 * counting copy compiled without -fipa-ra records no register usage and
 * the caller saves four callee-saved registers instead. */
__attribute__((noinline)) int leaf(int x)
{
    return x > 7 ? x * 3 + (x >> 2) : x - 1;
}

int caller(int a, int b)
{
    int s = a;
    for (int i = 0; i < b; i++)
        s += leaf(i) ^ a;
    return s + b;
}
