/* sorted-a.c, sorted-b.c: a call chain across two objects, main -> f1 ->
 * f2 -> f3 -> f4 (f1 and f3 here, f2 and f4 in sorted-b.c), for the
 * rebuild's function order (t-sorted.sh): linked in object order the
 * chain is f1 f3 | f2 f4; the plan orders it f1 f2 f3 f4, which only a
 * global order (.text.sorted, sorted by ld) can give.  f1's branch that
 * never runs goes to its cold part, f1.cold; rare never runs. */
#include <stdio.h>
#include <stdlib.h>

int f2(int x);
int f4(int x);

__attribute__((noinline)) int f1(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++) {
        s += f2(i);
        if (s == -12345) /* never: a block for f1.cold */
            printf("f1: odd sum %d at %d of %d\n", s, i, n);
    }
    return s;
}

__attribute__((noinline)) int f3(int x)
{
    return f4(x) * 3 + 1;
}

__attribute__((noinline)) int rare(int x)
{
    printf("rare %d\n", x);
    return x + 1;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int s = n < 0 ? rare(n) : f1(n);
    printf("%d\n", s);
    return 0;
}
