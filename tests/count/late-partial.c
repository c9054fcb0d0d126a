/* late-partial.c — for t-count-late.sh: an extern function the early
 * inliner puts into one caller's loop (N entries inlined) and that is
 * called out of line through a pointer (2N+1 entries of its own copy):
 * pmopt report's entries 3N+1, of which inlined N; gcov counts 2N+1.
 *
 *   late-partial N */
#include <stdio.h>
#include <stdlib.h>

int peek(int x)
{
    return x * 3 + 1;
}

int (*volatile fp)(int) = peek;

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10, s = 0;
    for (int i = 0; i < n; i++)
        s += peek(i); /* inlined */
    for (int i = 0; i < 2 * n + 1; i++)
        s += fp(i); /* the function's own copy */
    printf("%d\n", s);
    return 0;
}
