/* tests/layout/t-variants.sh: one source, two units (-DBITS=8, -DBITS=16), as dav1d's *_tmpl.c */
#if BITS == 8
typedef unsigned char pixel;
#define bitfn(x) x##_8
#else
typedef unsigned short pixel;
#define bitfn(x) x##_16
#endif
static int __attribute__((noinline)) filt(const pixel *p, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++) {
        if (p[i] > 100)
            s += p[i];
        else
            s -= 1;
#if BITS == 16
        if (s > 100000)
            s >>= 2;
#endif
    }
    return s;
}
static pixel __attribute__((noinline)) clip(int v)
{
    if (v < 0)
        return 0;
    if (v > (1 << BITS) - 1)
        return (pixel)((1 << BITS) - 1);
    return (pixel)v;
}
int bitfn(run)(int n)
{
    pixel buf[64];
    int t = 0;
    for (int i = 0; i < 64; i++)
        buf[i] = clip(i * 7 - 20);
    for (int k = 0; k < n; k++)
        t += filt(buf, 64 - (k & 7));
    return t;
}
