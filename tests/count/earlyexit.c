/* earlyexit.c — a chain of early exits that the calls seldom take
 * (tests/count/t-counter-tree.sh; main is in earlyexit-main.c, built
 * without the plugin, so that this unit's counters are check()'s alone).
 * GCC's estimate (its early-return heuristic) makes the fall-through path
 * the hot one; arcs.cc's own guess, an even split at each test, makes each
 * test's block colder than the last and counts every one of them.  The
 * expect-count comments are gcov 12's counts of an -O0 --coverage build. */
struct item {
    int flags;
    int num;
    const char *s;
};

int check(const struct item *it)
{
    if (it->flags & 1)                     // expect-count: 1000
        return 1;                          // expect-count: 10
    if (it->flags & 2)                     // expect-count: 990
        return 0;                          // expect-count: 10
    if (it->num < 0 || it->num > 100)      // expect-count: 980
        return 4;                          // expect-count: 10
    if (it->s && it->s[0] == '-')          // expect-count: 970
        return 2;                          // expect-count: 10
    return 3;                              // expect-count: 960
}
