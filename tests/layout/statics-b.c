/* tests/layout/t-relink-statics.sh: another static mix (never run in the
 * training), of the same name as statics-a.c's. */
static __attribute__((noinline)) unsigned mix(unsigned x)
{
    for (int i = 0; i < 30; i++)
        x = x * 40503u ^ (x >> 3);
    return x;
}
unsigned run_b(unsigned n)
{
    unsigned s = 0;
    for (unsigned i = 0; i < n; i++)
        s += mix(i);
    return s;
}
