/* counting=function (gcc-plugin/pass-countfn.cc): cell_info has no frame at
 * -O2 (a test and a sibling call through a function pointer), but its
 * counting copy checks an inline cache before the indirect call (__perfinst_icall_miss)
 * and keeps the page and the callee in callee-saved registers across it.
 * sum_cells calls cell_info and pick N times each; parse_cell runs N
 * times, cell_info's early return never (i >= 0).  The threshold
 * (count=4) on pick fires N/4 times with the stack pick < sum_cells <
 * main: pick's counting copy is entered by a sibling call, so it adds no
 * frame of its own. */
#include <perfinst.h>
#include <stdio.h>
#include <stdlib.h>

struct page {
    int n;
    int (*parse)(struct page *, int);
    int cells[16];
};

static int parse_cell(struct page *p, int i) { return p->cells[i & 15] * 3; }

__attribute__((noinline)) int cell_info(struct page *p, int i)
{
    if (i < 0)
        return 0;
    return p->parse(p, i);
}

static int events;

void on_pick(const struct perfinst_event *ev)
{
    (void)ev;
    events++;
}

PERFINST("threshold(count=4, handler=on_pick)")
__attribute__((noinline)) int pick(int x) { return x & 1 ? x * 3 : x + 1; }

__attribute__((noinline)) long sum_cells(struct page *p, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += cell_info(p, i) + pick(i);
    return s;
}

int main(int argc, char **argv)
{
    struct page p = { 16, parse_cell, { 0 } };
    for (int i = 0; i < 16; i++)
        p.cells[i] = i;
    int n = argc > 1 ? atoi(argv[1]) : 10;
    printf("sum %ld\n", sum_cells(&p, n));
    printf("events %d\n", events);
    return 0;
}
