/* tests/layout/t-relink-statics.sh: a static mix, as statics-b.c has one
 * of the same name (libsodium's implementations of one primitive). */
static __attribute__((noinline)) unsigned mix(unsigned x)
{
    for (int i = 0; i < 50; i++)
        x = x * 2654435761u + (x >> 7);
    return x;
}
unsigned run_a(unsigned n)
{
    unsigned s = 0;
    for (unsigned i = 0; i < n; i++)
        s += mix(i);
    return s;
}
