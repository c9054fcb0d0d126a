/* quality.c — the feedback's profile quality (t-quality.sh).  step() is
 * called 100000 times from hot()'s loop and once from main().  With
 * GUESSED_LOCAL counts (feedback-quality=local) a call in a block that
 * runs as often as its function's entry is "maybe hot" to GCC, so step()
 * is inlined at both call sites; with feedback-quality=ipa the call in
 * main() ran once in the whole training run (not more than the number of
 * runs): a cold call whose inlining would grow the code, so it stays a
 * call, while the hot one is inlined as before. */
#include <stdio.h>
#include <stdlib.h>

unsigned step(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x + 1;
}

__attribute__((noinline)) unsigned hot(unsigned n)
{
    unsigned s = 0;
    for (unsigned i = 0; i < n; i++)
        s += step(i);
    return s;
}

int main(int argc, char **argv)
{
    unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 100000;
    unsigned s = hot(n);
    if (argc > 2)
        s += 7;
    s ^= step(n);
    printf("%u\n", s);
    return 0;
}
