/* A loop whose header GCC copies (t-dynstats.sh).  At -O2 GCC 12 lays out
 * is_prime's loop test `d * d <= n` twice: an entry copy that falls into
 * the body's test `n % d == 0`, and a latch copy at the bottom of the loop
 * whose `jge` back to (another copy of) the body's test is taken on every
 * further round.  The body's test is copied the same way.  main calls
 * is_prime(i) for i = 0 .. N-1, so every trip count is known. */
#include <perfinst.h>
#include <stdio.h>
#include <stdlib.h>

PERFINST("count")
__attribute__((noinline)) static int is_prime(int n)
{
    if (n < 2)
        return 0;
    for (int d = 2; d * d <= n; d++)
        if (n % d == 0)
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100;
    int primes = 0;
    for (int i = 0; i < n; i++)
        primes += is_prime(i);
    printf("%d\n", primes);
    return 0;
}
