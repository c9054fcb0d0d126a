/* `sharing` without -fplugin-arg-perfinst-sharing=all: only what is marked
 * is instrumented — a variable, a struct type (through any pointer), a
 * field, and every access in a marked function.  Each pair of threads
 * takes turns (barriers) on data written by both, so every marked line has
 * exactly 2*(R-1) false reloads, and the unmarked one has none recorded. */
#include <pthread.h>
#include <stdio.h>
#include <perfinst.h>

#define R 100
static pthread_barrier_t bar __attribute__((aligned(64)));

PERFINST("sharing") volatile long pair_var[2] __attribute__((aligned(64)));
struct PERFINST("sharing") ptype {
    volatile long a, b;
} __attribute__((aligned(64)));
struct ptype by_type;
struct pfield {
    volatile long x PERFINST("sharing");
    volatile long y PERFINST("sharing");
} __attribute__((aligned(64)));
struct pfield by_field;
volatile long in_func[2] __attribute__((aligned(64)));
volatile long unmarked[2] __attribute__((aligned(64)));

PERFINST("sharing") static void touch_in_func(int me)
{
    in_func[me] += 1;
}

static void *worker(void *arg)
{
    int me = (int)(long)arg;
    struct ptype *pt = &by_type;
    for (int i = 0; i < R; i++) {
        for (int t = 0; t < 2; t++) {
            if (t == me) {
                pair_var[me] += 1;
                if (me)
                    pt->b += 1;
                else
                    pt->a += 1;
                if (me)
                    by_field.y += 1;
                else
                    by_field.x += 1;
                touch_in_func(me);
                unmarked[me] += 1;
            }
            pthread_barrier_wait(&bar);
        }
    }
    return NULL;
}

int main(void)
{
    pthread_t t[2];
    pthread_barrier_init(&bar, NULL, 2);
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("%ld %ld %ld %ld %ld\n", pair_var[0] + pair_var[1], by_type.a + by_type.b, by_field.x + by_field.y,
           in_func[0] + in_func[1], unmarked[0] + unmarked[1]);
    return 0;
}
