/* partline.c — t-lines-partsplit.sh: lines GCC's early ipa-split cuts
 * across (libuv 1.44.2: timer.c's uv_timer_stop, whose uv__handle_stop
 * macro line keeps its test in the function and sends its decrement to
 * uv_timer_stop.part.0; loop-watcher.c's one-line uv_idle_stop;
 * bench/projects/libuv/drive.c's one-line idle_cb).  tick, on one line,
 * is split after its test: the line is entered once per call (100), not
 * once more where tick.part.0 begins (114).  tock's part begins on a line
 * of its own, entered 14 times. */
#include <stdio.h>
#include <stdlib.h>

#define ACTIVE 4
#define REF 8
struct loop { unsigned active; unsigned long n; };
struct handle { unsigned flags; struct loop *loop; struct handle *next, *prev; };

#define handle_stop(h) do { if (((h)->flags & ACTIVE) == 0) break; (h)->flags &= ~ACTIVE; if (((h)->flags & REF) != 0) (h)->loop->active--; } while (0)

__attribute__((noinline)) static void unlink_handle(struct loop *l, struct handle *h)
{
    if (h->prev) h->prev->next = h->next;
    if (h->next) h->next->prev = h->prev;
    h->next = h->prev = NULL;
    l->n++;
}

int handle_stop_fn(struct handle *h)
{
    if (!(h->flags & ACTIVE))
        return 0;
    unlink_handle(h->loop, h);
    handle_stop(h);   /* @stop */
    return 0;
}

static int calls, goal;
static struct handle a, b, c;
static void tick(struct handle *h) { if (++calls % goal == 0) { handle_stop_fn(&a); handle_stop_fn(&b); handle_stop_fn(&c); } } /* @tick */
static int calls2;
static void tock(struct handle *h)
{
    if (++calls2 % goal != 0)
        return;
    handle_stop_fn(&a); handle_stop_fn(&b);   /* @tock */
    handle_stop_fn(h);
}

int main(int argc, char **argv)
{
    static struct loop l;
    void (*volatile fp)(struct handle *) = tick, (*volatile fq)(struct handle *) = tock;
    int n = argc > 1 ? atoi(argv[1]) : 100, i;
    goal = 7;
    a.loop = b.loop = c.loop = &l;
    for (i = 0; i < n; i++) {
        a.flags = ACTIVE | REF; b.flags = ACTIVE; c.flags = i % 3 ? ACTIVE | REF : 0;
        l.active += 2;
        fp(&a);
        fq(&c);
        handle_stop_fn(i % 2 ? &b : &a);
    }
    printf("%d and %d calls, %u active, %lu unlinked\n", calls, calls2, l.active, l.n);
    return 0;
}
