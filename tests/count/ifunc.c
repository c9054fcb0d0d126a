/* An ifunc resolver (pick), a helper only it calls (detect, kept out of
 * line) and the two implementations it chooses between.  The resolver runs
 * while the program is relocated: in a static link before the thread
 * pointer is set, so a counter there faults.  Expected with N (argv[1]):
 * add_one entered N times, add_two never, main once; pick and detect
 * are not instrumented. */
#include <stdio.h>
#include <stdlib.h>

static int add_one(int x) { return x + 1; }
static int add_two(int x) { return x + 2; }

static int wanted;
__attribute__((noinline, noclone)) static int detect(void)
{
    int v = 0;
    for (int i = 0; i < 4; i++)
        v += (wanted >> i) & 1;
    return v;
}

static int (*pick(void))(int)
{
    return detect() ? add_two : add_one;
}

int add(int) __attribute__((ifunc("pick")));

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10, s = 0;
    for (int i = 0; i < n; i++)
        s = add(s);
    printf("%d\n", s);
    return 0;
}
