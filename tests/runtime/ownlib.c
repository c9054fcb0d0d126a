/* ownlib.c — a counted shared library for t-signal-own.sh: own_work(n)
 * calls own_step n times. */
__attribute__((noipa)) static long own_step(long x)
{
    return x % 3 ? x + 1 : x / 3;
}

long own_work(long n)
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s += own_step(i);
    return s;
}
