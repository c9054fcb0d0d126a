/* First touches in the solo phase (runtime/sharing.c): the main thread,
 * alone, touches pg.touched, which claims the whole page (pg is page
 * aligned), then pg.d (a claimed line: touched without a record).  Two
 * workers then take turns writing their own element of pg.c (a line main
 * claimed but never touched) and of pg.d; main reads both after the join.
 *
 *   pg.c: 2 * (ROUNDS - 1) false reloads; main's read is a first touch
 *   pg.d: the same, and main's read of d[1] is a TRUE reload (it saw the
 *         line in the solo phase; worker 1 wrote d[1] since)
 *   pg.touched: main's alone, no reload
 *
 * The counts are those of a run in which every access calls the runtime. */
#include <pthread.h>
#include <stdio.h>

#define ROUNDS 1000
static struct {
    volatile long touched[8];
    volatile long c[2] __attribute__((aligned(64)));
    volatile long d[2] __attribute__((aligned(64)));
} pg __attribute__((aligned(4096)));
static pthread_barrier_t bar;

static void *worker(void *arg)
{
    long me = (long)arg;
    for (int i = 0; i < ROUNDS; i++) {
        if (me == 0) {
            pg.c[0] = pg.c[0] + 1;
            pg.d[0] = pg.d[0] + 1;
        }
        pthread_barrier_wait(&bar);
        if (me == 1) {
            pg.c[1] = pg.c[1] + 1;
            pg.d[1] = pg.d[1] + 1;
        }
        pthread_barrier_wait(&bar);
    }
    return NULL;
}

int main(void)
{
    for (int i = 0; i < 8; i++)
        pg.touched[i] = i;
    pg.d[0] = 5;
    pthread_t t[2];
    pthread_barrier_init(&bar, NULL, 2);
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    long s = 0;
    for (int i = 0; i < 8; i++)
        s += pg.touched[i];
    printf("c = %ld %ld d = %ld %ld touched = %ld\n", pg.c[0], pg.c[1], pg.d[0], pg.d[1], s);
    return 0;
}
