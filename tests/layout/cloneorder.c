/* cloneorder.c: a call chain main -> f1 -> f2 -> f3, where f2 calls h, a
 * static function with a loop that only f2 calls: too big for the early
 * inliner, so the training build counts h as a function of its own, and
 * GCC's IPA inliner then puts it into f2: the training build has no
 * section for h (t-cloneorder.sh).  A rebuild compiled with -DKEEP_H
 * keeps h out of line, as SQLite's rebuild keeps functions its training
 * build inlined everywhere; h's CFG and f2's are the same either way. */
#include <stdio.h>
#include <stdlib.h>

int f3(int x);

#ifdef KEEP_H
__attribute__((noinline))
#endif
static int h(int x)
{
    int s = 0;
    for (int i = 0; i < (x & 7); i++) {
        s += (x >> i) ^ i;
        if (s & 64)
            s = s * 7 + (x % 13);
        else
            s -= x / 5 + i * i;
    }
    return s;
}

__attribute__((noinline)) int f2(int x)
{
    return h(x) + f3(x);
}

__attribute__((noinline)) int f3(int x)
{
    return x ^ (x >> 3);
}

__attribute__((noinline)) int f1(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += f2(i);
    return s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    printf("%d\n", f1(n));
    return 0;
}
