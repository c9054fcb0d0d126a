/* sorted-b.c: the chain's f2 and f4 (sorted-a.c says why), and g, which
 * f2 calls with a constant: GCC's IPA-CP makes it g.constprop.0 (unless
 * -fno-ipa-cp), a clone whose name the plan may or may not know. */
int f3(int x);

static __attribute__((noinline)) int g(int x, int k)
{
    return (x * k) ^ (x >> 3);
}

__attribute__((noinline)) int f2(int x)
{
    return f3(x) + g(x, 7) + (x & 7);
}

__attribute__((noinline)) int f4(int x)
{
    return x ^ (x >> 3);
}
