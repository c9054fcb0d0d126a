/* Dormant classes and secondary metrics (seed 004 M25).  walk carries
 * threshold(count=30) (the primary) and dormant(types=branch, threshold=1):
 * its branch class is compiled in but off until the 30th call flags it hot;
 * from the 31st call the branches it executes are counted (level 2); the
 * first counted call reaches the class's threshold of 1, so from the 32nd
 * call it is at level 3 (timed).  types(branch) lets pmopt report check the
 * class's count against static counts x executions.  still is dormant and
 * never flagged: it stays at level 1 and counts nothing. */
#include <perfinst.h>
#include <stdio.h>
#include <stdlib.h>

static int secondary_events;

/* With PERFINST_DORMANT=handler the runtime leaves level 2 to a handler:
 * this one, on the THRESHOLD vector, when DORMANT_BY_HANDLER is set. */
static void on_primary(const struct perfinst_event *ev)
{
    struct perfinst_dormant d;
    (void)ev;
    if (getenv("DORMANT_BY_HANDLER") && !perfinst_dormant_read("walk", &d) && d.level < 2)
        perfinst_dormant_set("walk", 2);
}
static unsigned long long secondary_value;

static void on_secondary(const struct perfinst_event *ev)
{
    secondary_events++;
    secondary_value = ev->value;
}

PERFINST("threshold(count=30)", "dormant(types=branch, threshold=1)", "types(branch)")
__attribute__((noinline)) int walk(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        if (i % 3 == 0)
            s += i;
        else
            s -= 1;
    return s;
}

PERFINST("dormant(types=load|store)")
__attribute__((noinline)) int still(int x) { return x ^ 5; }

int main(void)
{
    perfinst_set_handler(PERFINST_EV_SECONDARY, on_secondary);
    perfinst_set_handler(PERFINST_EV_THRESHOLD, on_primary);
    struct perfinst_dormant d;
    unsigned long long sec[101], per = 0;
    int zero_until_30 = 1, linear = 1;
    long s = 0;
    for (int k = 1; k <= 100; k++) {
        s += walk(10) + still(k);
        if (perfinst_dormant_read("walk", &d))
            return 1;
        sec[k] = d.secondary;
        if (k <= 30 && d.secondary != 0)
            zero_until_30 = 0;
        if (k == 31)
            per = d.secondary;
        if (k > 30 && d.secondary != (unsigned long long)(k - 30) * per)
            linear = 0;
        if (k == 30 || k == 31 || k == 32)
            printf("after call %d: level %d, flagged hot %llu, secondary %llu\n", k, d.level,
                   (unsigned long long)d.flagged_hot, (unsigned long long)d.secondary);
    }
    printf("sum %ld\n", s);
    printf("zero until the primary threshold: %s\n", zero_until_30 ? "yes" : "no");
    printf("then per call: %llu, linear: %s\n", per, linear && per ? "yes" : "no");
    perfinst_dormant_read("walk", &d);
    printf("walk: level %d, flagged hot %llu, invocations %llu, secondary %llu, branch %llu, "
           "tertiary %llu\n", d.level, (unsigned long long)d.flagged_hot,
           (unsigned long long)d.invocations, (unsigned long long)d.secondary,
           (unsigned long long)d.types_count[0], (unsigned long long)d.tertiary_invocations);
    printf("secondary events %d, value %llu\n", secondary_events, secondary_value);
    perfinst_dormant_read("still", &d);
    printf("still: level %d, flagged hot %llu, secondary %llu\n", d.level,
           (unsigned long long)d.flagged_hot, (unsigned long long)d.secondary);
    printf("unknown: %d\n", perfinst_dormant_read("nosuch", &d));
    (void)sec;
    return 0;
}
