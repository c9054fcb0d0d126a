/* watch on a variable (attribute and pragma spellings), a struct type and a
 * field: reads and writes per 8-byte word, exactly as the source does them,
 * read back at run time by address (perfinst_data_count). */
#include <perfinst.h>
#include <stdio.h>

long table[4] PERFINST("watch");

#pragma perfinst watch
long counter;

struct PERFINST("watch") point { long x, y; };
struct rec { int hot PERFINST("watch"); int cold; long pad; };

static struct rec recs[2];
long unwatched[2];

static void show(const char *what, const void *addr)
{
    uint64_t r, w;
    perfinst_data_count(addr, &r, &w);
    printf("%s: %llu reads, %llu writes\n", what, (unsigned long long)r, (unsigned long long)w);
}

__attribute__((noinline)) static void move(struct point *p, long dx)
{
    p->x += dx;          /* 1 read, 1 write of word x */
    p->y = p->x * 2;     /* 1 read of x, 1 write of y */
}

int main(void)
{
    for (int i = 0; i < 10; i++)
        table[i % 4] += i;           /* words 0,1: 3 reads 3 writes; 2,3: 2 and 2 */
    counter = 3;
    counter++;
    struct point pt = {1, 2};        /* a whole-object write: 2 words */
    for (int i = 0; i < 5; i++)
        move(&pt, i);
    recs[0].hot = 5;
    recs[1].cold = 7;                /* not watched */
    recs[1].hot = recs[0].hot;
    unwatched[1] = table[2];
    show("table[0]", &table[0]);
    show("table[2]", &table[2]);
    show("counter", &counter);
    show("pt.x", &pt.x);
    show("pt.y", &pt.y);
    show("recs[0]", &recs[0].hot);
    show("recs[1]", &recs[1].hot);
    show("unwatched", &unwatched[1]);
    return 0;
}
