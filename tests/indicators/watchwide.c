/* watch on accesses wider than a word: a whole struct pair (24 bytes,
 * three 8-byte words) copied by one aggregate assignment 5 times, so each
 * copy is one access of 3 words read and one of 3 words written; then one
 * field written alone.  perfinst_data_count per word: p1's words 5 reads
 * each and p1.b 1 write; p2's words 5 writes each.  With
 * PERFINST_WATCH_GRAN=16 the 24 bytes at a 32-byte boundary are 2 words. */
#include <perfinst.h>
#include <stdio.h>

struct PERFINST("watch") pair { long a, b, c; };
static struct pair p1 __attribute__((aligned(32))) = {1, 2, 3};
static struct pair p2 __attribute__((aligned(32)));

__attribute__((noinline)) static void copy(struct pair *d, const struct pair *s)
{
    *d = *s;
}

static void show(const char *name, const void *addr)
{
    unsigned long r = 0, w = 0;
    perfinst_data_count(addr, &r, &w);
    printf("%s: %lu reads, %lu writes\n", name, r, w);
}

int main(void)
{
    for (int i = 0; i < 5; i++)
        copy(&p2, &p1);
    p1.b = 7;
    show("p1.a", &p1.a);
    show("p1.b", &p1.b);
    show("p1.c", &p1.c);
    show("p2.a", &p2.a);
    show("p2.b", &p2.b);
    show("p2.c", &p2.c);
    return (int)(p2.a + p2.c) - 4;
}
