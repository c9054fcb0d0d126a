/* tests/count/t-stack-protector.sh: a function with a variable-length
 * array (the stack protector guards it under -fstack-protector, as every
 * function under -fstack-protector-all), called from a caller that keeps
 * values in its frame.  libsodium's sodium_stackzero is this shape: the
 * clean copy made of its counting copy's assembly stored the canary into
 * its caller's frame before anything else, and the off mode crashed.
 * Prints 442 for 100 (worked out by hand: the sum of v[i & 7] over 100
 * values of i, 12 times 36 plus 1 + 2 + 3 + 4). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) void stackzero(size_t len)
{
    unsigned char fodder[len];
    explicit_bzero(fodder, len);                         // expect-count: 100
}

__attribute__((noinline)) long caller(long *v, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++) {
        long *p = v + (i & 7);
        stackzero(64 + (i & 3));                         // expect-count: 100
        s += *p;
    }
    return s;
}

int main(int argc, char **argv)
{
    long v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    printf("%ld\n", caller(v, argc > 1 ? atoi(argv[1]) : 100));
    return 0;
}
