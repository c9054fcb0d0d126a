/* sorted-b.c: the chain's f2 and f4 (sorted-a.c says why). */
int f3(int x);

__attribute__((noinline)) int f2(int x)
{
    return f3(x) + (x & 7);
}

__attribute__((noinline)) int f4(int x)
{
    return x ^ (x >> 3);
}
