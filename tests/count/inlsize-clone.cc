// inlsize-clone.cc — a static function that IPA-CP clones for its one
// constant argument (tests/count/t-inlsize-clone.sh): every caller passes
// scale = 3, so the clone, grade.constprop, is all the callers call and
// the original stays only to hold the body.
#include <cstdio>
#include <cstdlib>

struct rec {
    long pad[8];
    long v;
};

static long grade(long v, int scale)
{
    long g = 0;
    if (v < 10)
        g = 1;
    else if (v < 100)
        g = 2;
    else if (v < 1000)
        g = 3;
    else if (v < 10000)
        g = 4;
    if (v & 1)
        g += 10;
    if (v % scale == 0)
        g += 20;
    return g;
}

long __attribute__((noinline)) sum_grades(const rec *rs, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += grade(rs[i].v, 3);
    return s;
}

long __attribute__((noinline)) max_grade(const rec *rs, int n)
{
    long m = 0;
    for (int i = 0; i < n; i++) {
        long g = grade(rs[i].v, 3);
        if (g > m)
            m = g;
    }
    return m;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    rec *rs = static_cast<rec *>(calloc(n, sizeof *rs));
    for (int i = 0; i < n; i++)
        rs[i].v = (i * 7919L) % 20000;
    printf("%ld %ld\n", sum_grades(rs, n), max_grade(rs, n));
    free(rs);
    return 0;
}
