/* tests/layout/t-copyprof.sh: g is inlined after the count (by the IPA
 * inliner) into f1 and f2.  f1 calls it 28 times, always with x < 0; f2
 * 10,000 times, always with x >= 0.  Summed, g's x < 0 arm ran 28 times of
 * 10,028: scaled into f1's copy it is a fraction of a run, cold; f1's own
 * copy ran it on every call. */
#include <stdio.h>

volatile int sink;
int vals[64];

static int g(int x)
{
    int r = 0;
    if (x < 0) {
        for (int i = 0; i < 3; i++)
            sink += i * x;
        r = -x * 3 + sink;
    } else {
        for (int i = 0; i < 5; i++)
            sink ^= i + x;
        r = x * 7 - sink;
    }
    return r;
}

__attribute__((noinline)) int f1(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += g(vals[i & 63] - 1000); /* F1_CALL */
    return s;
}

__attribute__((noinline)) int f2(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += g(vals[i & 63]); /* F2_CALL */
    return s;
}

int main(int argc, char **argv)
{
    for (int i = 0; i < 64; i++)
        vals[i] = i + (argc > 5);
    int a = f1(argc > 1 ? 10000 : 28);
    int b = f2(10000);
    printf("%d %d\n", a, b);
    return 0;
}
