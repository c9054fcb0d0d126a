/* shadow.c — the loader stage's lookups, for t-shadow.sh.  The test adds a
 * hand-made .perfinst.xlat section (mkxlat.py) whose items sit on f1, on a
 * nested piece of f1, on f2 and on the variable `table`; this program looks
 * addresses up and prints what it finds, one line per query. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include "fake-unit.h"

FAKE_UNIT(s, 0x5ad0ull, 4)

int table[64];

__attribute__((noinline)) int f1(int x)
{
    HIT(s, 0);
    return x * 3 + table[x & 63];
}

__attribute__((noinline)) int f2(int x)
{
    HIT(s, 1);
    return x * 5 - table[(x + 1) & 63];
}

static void *five_f2(void *p)
{
    for (int i = 0; i < 5; i++)
        f2(i);
    return NULL;
}

static void show(const char *what, const void *addr, const void *expect)
{
    const struct perfinst_shadow_item *it = perfinst_shadow_lookup(addr);
    if (!it) {
        printf("%s none\n", what);
        return;
    }
    printf("%s item site=%u counter=%" PRId32 " dir=0x%x thr=%" PRIu64 " unit=0x%" PRIx64
           " len=%u start_ok=%d count=%" PRIu64 "\n",
           what, it->site, (int32_t)it->counter, it->directives, it->threshold, it->unit_id,
           it->length, it->addr == (uintptr_t)expect, perfinst_item_count(it));
}

int main(void)
{
    for (int i = 0; i < 10; i++)
        f1(i);
    for (int i = 0; i < 20; i++)
        f2(i);
    pthread_t t;
    pthread_create(&t, NULL, five_f2, NULL);
    pthread_join(t, NULL);

    const char *c1 = (const char *)f1, *c2 = (const char *)f2;
    int local;
    printf("line_size %u\n", perfinst_line_size());
    show("f1+0", c1, c1);
    show("f1+2", c1 + 2, c1);
    show("f1+9", c1 + 9, c1 + 8);  /* the nested item [f1+8, f1+12) */
    show("f1+12", c1 + 12, c1);
    show("f2+0", c2, c2);
    show("f2+3", c2 + 3, c2);
    show("table+100", (const char *)table + 100, table);
    show("main", (const void *)main, NULL);
    show("stack", &local, NULL);
    show("null", NULL, NULL);
    return 0;
}
