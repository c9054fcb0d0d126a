/* plainhost-lib.c — the counted library of t-plain-host.sh: no indirect
 * call (a miss there would make the thread known another way). */
__attribute__((noinline)) static int step(int x)
{
    __asm__ volatile("" : "+r"(x));
    return x + 1;
}
int work_linked(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s = step(s);
    return s;
}
