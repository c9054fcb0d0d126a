/* Known control flow for the counters on arcs (t-flow.sh): built with
 * all=count twice, counters=arcs (the counts solved from the arcs off a
 * spanning tree) and counters=blocks (a counter in every block), every
 * block's count must be the same, and each `expect-count: N` is the line's
 * count as gcov gives it.  `./flow MODE`: MODE exit ends the process by
 * exit() three calls deep, inside a loop (main, run and deep still active);
 * MODE segv dies of SIGSEGV in a block that calls nothing (entered and
 * never left: the trace's STOPPED record says where), MODE term of SIGTERM
 * that it raises three calls deep; anything else returns from main.
 * Every mode first runs the loops, the switch, the early returns and the
 * longjmp. */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static jmp_buf env;
static volatile int sink;

__attribute__((noinline)) int classify(int x)
{
    switch (x % 5) {                       // expect-count: 40
    case 0:
        return 10;                         // expect-count: 8
    case 1:
    case 2:
        sink += x;                         // expect-count: 16
        break;
    case 3:
        if (x > 20)                        // expect-count: 8
            return 30;                     // expect-count: 4
        sink -= x;                         // expect-count: 4
        break;
    default:
        sink ^= x;                         // expect-count: 8
    }
    return x & 1;                          // expect-count: 28
}

__attribute__((noinline)) int find(const int *v, int n, int key)
{
    for (int i = 0; i < n; i++)            // expect-count: 30
        if (v[i] == key)                   // expect-count: 29
            return i;                      // expect-count: 3
    return -1;                             // expect-count: 1
}

__attribute__((noinline)) void maybe_jump(int i)
{
    sink += i;                             // expect-count: 8
    if (i == 7)                            // expect-count: 8
        longjmp(env, 1);                   // expect-count: 1
    sink -= 1;                             // expect-count: 7
}

__attribute__((noinline)) int jumper(void)
{
    int i;
    for (i = 0; i < 12; i++)               // expect-count: 8
        maybe_jump(i);                     // expect-count: 8
    return i;
}

__attribute__((noinline)) void deep(int i)
{
    if (i == 4) {                          // expect-count: 5
        printf("exit from deep\n");        // expect-count: 1
        exit(3);
    }
    sink += i;                             // expect-count: 4
}

__attribute__((noinline)) void run(void)
{
    for (int i = 0; i < 10; i++)           // expect-count: 5
        deep(i);                           // expect-count: 5
}

static int *volatile nowhere; /* NULL, which the compiler cannot know */

__attribute__((noinline)) int poke(long i, long limit)
{
    if (i < limit)                         // segv: 1001
        return (int)i;                     // segv: 1000
    return *nowhere;                       // segv: 1
}

__attribute__((noinline)) void spin(long limit)
{
    for (long i = 0;; i++)
        sink += poke(i, limit);            /* SIGSEGV in poke: stopped there */
}

__attribute__((noinline)) void raise_in(int n)
{
    for (int i = 0; i < 2 * n; i++)
        if (i == n)
            raise(SIGTERM);
        else
            sink += i;
}

/* A loop that opens the function: its first block is empty (a jump to
 * the loop's test), and its counter, at the block's end, the block's only
 * statement (PI_SITE_COUNTER_AT_END). */
struct seqs {
    int *len;
    unsigned pos, size;
};

__attribute__((noinline)) void consume(struct seqs *s, long n)
{
    while (n > 0 && s->pos < s->size) {    // expect-count: 6
        int *p = s->len + s->pos;          // expect-count: 5
        if (n <= *p) {                     // expect-count: 5
            *p -= n;                       // expect-count: 1
            return;                        // expect-count: 1
        }
        n -= *p;                           // expect-count: 4
        *p = 0;                            // expect-count: 4
        s->pos++;                          // expect-count: 4
    }
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int total = 0;
    for (int x = 0; x < 40; x++)
        total += classify(x);
    int v[10] = {5, 3, 9, 1, 7, 2, 8, 4, 6, 0};
    total += find(v, 10, 9) + find(v, 10, 2) + find(v, 10, 0) + find(v, 10, 11);
    int jumped = 0;
    if (setjmp(env) == 0)
        total += jumper();
    else
        jumped = 1;
    int len[4] = {3, 4, 5, 6};
    struct seqs sq = {len, 0, 4};
    consume(&sq, 9);
    consume(&sq, 100);
    total += sq.pos;
    printf("total %d jumped %d\n", total, jumped);
    fflush(stdout);
    if (!strcmp(mode, "exit"))
        run();
    if (!strcmp(mode, "segv"))
        spin(1000);
    if (!strcmp(mode, "term"))
        raise_in(6);
    return 0;
}
