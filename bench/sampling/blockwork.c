/* blockwork.c — a multi-threaded blocking workload for the sampling
 * benchmark (bench/sample-overhead.sh): a pipeline of STAGES threads passes
 * TOKENS tokens through condition-variable queues of depth 4, each stage
 * doing a little work per token and taking a shared lock to add to a
 * checksum.  Threads block often (empty or full queues, the lock), so the
 * blocking points and idle-transition samples are exercised; time is spent
 * in work() and in waiting.
 *
 *   blockwork [TOKENS [STAGES]]     prints checksum=HEX
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define DEPTH 4
struct queue {
    pthread_mutex_t mu;
    pthread_cond_t nonempty, nonfull;
    uint64_t buf[DEPTH];
    int head, n;
};
static struct queue *qs;
static int stages;
static long tokens;
static pthread_mutex_t sum_mu = PTHREAD_MUTEX_INITIALIZER;
static uint64_t checksum = 1469598103934665603ull;

static void put(struct queue *q, uint64_t v)
{
    pthread_mutex_lock(&q->mu);
    while (q->n == DEPTH)
        pthread_cond_wait(&q->nonfull, &q->mu);
    q->buf[(q->head + q->n++) % DEPTH] = v;
    pthread_cond_signal(&q->nonempty);
    pthread_mutex_unlock(&q->mu);
}

static uint64_t get(struct queue *q)
{
    pthread_mutex_lock(&q->mu);
    while (q->n == 0)
        pthread_cond_wait(&q->nonempty, &q->mu);
    uint64_t v = q->buf[q->head];
    q->head = (q->head + 1) % DEPTH;
    q->n--;
    pthread_cond_signal(&q->nonfull);
    pthread_mutex_unlock(&q->mu);
    return v;
}

__attribute__((noinline)) static uint64_t work(uint64_t v, int stage)
{
    for (int i = 0; i < 3000 + 500 * stage; i++)
        v = v * 6364136223846793005ull + 1442695040888963407ull;
    return v;
}

static void *stage_main(void *arg)
{
    int s = (int)(intptr_t)arg;
    for (long i = 0; i < tokens; i++) {
        uint64_t v = s ? get(&qs[s - 1]) : (uint64_t)i;
        v = work(v, s);
        if (i % 16 == 0) {
            pthread_mutex_lock(&sum_mu);
            checksum = (checksum ^ v) * 1099511628211ull;
            pthread_mutex_unlock(&sum_mu);
        }
        if (s < stages - 1)
            put(&qs[s], v);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    tokens = argc > 1 ? atol(argv[1]) : 100000;
    stages = argc > 2 ? atoi(argv[2]) : 4;
    if (stages < 1 || stages > 64 || tokens < 1)
        return 2;
    qs = calloc((size_t)stages, sizeof *qs);
    pthread_t th[64];
    for (int s = 0; s < stages; s++) {
        pthread_mutex_init(&qs[s].mu, NULL);
        pthread_cond_init(&qs[s].nonempty, NULL);
        pthread_cond_init(&qs[s].nonfull, NULL);
    }
    for (int s = 0; s < stages; s++)
        pthread_create(&th[s], NULL, stage_main, (void *)(intptr_t)s);
    for (int s = 0; s < stages; s++)
        pthread_join(th[s], NULL);
    printf("checksum=%016llx\n", (unsigned long long)checksum);
    return 0;
}
