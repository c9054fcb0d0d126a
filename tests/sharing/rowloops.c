/* Loops whose trip count is known only when they run (pass-sharing.cc's
 * loop groups: one check before the loop, a copy without checks when it
 * passes): ./rowloops [PASSES [short]]
 *
 * Two workers own the rows of a matrix by parity (lurow's pattern): rows of
 * 100 doubles, 800 bytes, 16 bytes into a line, so that the line at each
 * end of a row is shared with the neighbouring row's owner.  Each writes
 * its rows PASSES times, the workers in turns (more than a line's
 * footprint: its middle lines become its own, the lines at its ends
 * shared, sampled), then, one worker
 * at a time, updates parts of its rows from a vector of its own,
 * x[lo + j] += f * y[j], j < len, with lo and len read from a table (no
 * constant trip count: the loop's check computes it), lengths 1 to 90 (the
 * check covers at most 64 iterations and 8 lines).
 *
 * Before each of those loops the worker (in functions perfinst does not
 * instrument) reads the shadow's bytes of the lines the loop's accesses
 * lie in: when each is its own id or PI_SHARE_SAMPLED_BYTE (the other
 * states call the runtime, which counts down itself), the per-access checks
 * would count its countdown down once per access to a sampled line, and
 * nothing else would happen.  It sets the countdown to 1000000, runs the
 * loop, and compares what the loop took off with that count: the loop's
 * check must take exactly what the checks it stands for take (the sampled
 * lines at the rows' ends, the owner's lines between).  The same for loops
 * of 130 to 256 iterations adding a vector of its own into its sum, which
 * shares a line with the other worker's (sampled): checked once every 64
 * iterations (chunk groups), the countdown given back for the iterations a
 * chunk did not run; and loops adding into the sum alone (a copy of the
 * loop without checks runs the chunks); and loops whose access to the sum
 * runs in some iterations only (every 2nd or 7th; in turns with one to its
 * own vector).  Prints the loops
 * verified, those that took another count, the accesses counted down, and
 * the loops' accesses and the long loops' iterations.  With `short`, only
 * the row loops of 8 to 47 iterations (their accesses on at most 7 lines
 * each) run after the writes. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROWS 8
#define COLS 100
#define SAMPLED 0xfd /* PI_SHARE_SAMPLED_BYTE (include/perfinst-format.h) */

struct pi_share_tls { /* runtime/sharing.c's struct sh_tls: what the inlined checks read */
    unsigned countdown;
    unsigned char id;
};
extern __thread struct pi_share_tls __perfinst_share_tls __attribute__((tls_model("initial-exec")));
extern unsigned char *__perfinst_share_shadow;

static int passes = 12, only_short;
static double *m;
static pthread_barrier_t bar;
static const int los[] = {0, 3, 17, 9, 0, 1};
static const int lens[] = {1, 5, 8, 13, 30, 47, 63, 64, 65, 70, 90};
static long verified[2], wrong[2], counted[2], accesses[2], chunked[2], some[2];
static double warmed[2];
static volatile long *sums; /* one line: each worker's sum, sampled once both wrote it */
static const int longs[] = {130, 200, 256};

/* The countdown the per-access checks of len accesses from x (a store) and
 * y (a load), 8 bytes apart, would take off, or -1 when one of their
 * lines is in a state that calls. */
static __attribute__((noinline, no_instrument_function)) long expected(const double *x, const double *y, int len)
{
    unsigned char me = __perfinst_share_tls.id;
    long k = 0;
    for (int j = 0; j < len; j++)
        for (int s = 0; s < 2; s++) {
            unsigned char b = __perfinst_share_shadow[(unsigned long)(s ? y + j : x + j) >> 6];
            if (b == SAMPLED)
                k++;
            else if (b != me)
                return -1;
        }
    return k;
}

static __attribute__((noinline, no_instrument_function)) void set_countdown(unsigned v)
{
    __perfinst_share_tls.countdown = v;
}

static __attribute__((noinline, no_instrument_function)) unsigned countdown(void)
{
    return __perfinst_share_tls.countdown;
}

static __attribute__((noinline)) void axpy(double *x, const double *y, double f, int len)
{
    for (int j = 0; j < len; j++)
        x[j] += f * y[j];
}

/* a long loop (the chunk groups): the sum at one address, y walked */
static __attribute__((noinline)) void sum_into(volatile long *s, const double *y, int len)
{
    for (int j = 0; j < len; j++)
        *s += (long)y[j];
}

/* a long loop at one address (the chunk groups' copy of the body without
 * checks) */
static __attribute__((noinline)) void bump(volatile long *s, int len)
{
    for (int j = 0; j < len; j++)
        *s += j;
}

static __attribute__((noinline, no_instrument_function)) long expected_bump(volatile long *s, int len)
{
    unsigned char b = __perfinst_share_shadow[(unsigned long)s >> 6];
    return b == SAMPLED ? len : b == __perfinst_share_tls.id ? 0 : -1;
}

/* long loops whose accesses at one address run in some iterations only
 * (a chunk's members counted where they run, the countdown given back for
 * the runs they did not make): the sum every `every` iterations; the sum
 * and the worker's own vector in turns */
static __attribute__((noinline)) void bump_some(volatile long *s, int len, int every)
{
    for (int j = 0; j < len; j++)
        if (j % every == 0)
            *s += j;
}

static __attribute__((noinline)) void bump_alt(volatile long *s, volatile double *o, int len)
{
    for (int j = 0; j < len; j++) {
        if (j & 1)
            *s += j;
        else
            *o += 1;
    }
}

static __attribute__((noinline, no_instrument_function)) long expected_some(volatile long *s, int len, int every)
{
    unsigned char b = __perfinst_share_shadow[(unsigned long)s >> 6];
    return b == SAMPLED ? (len + every - 1) / every : b == __perfinst_share_tls.id ? 0 : -1;
}

static __attribute__((noinline, no_instrument_function)) long expected_alt(volatile long *s, volatile double *o,
                                                                           int len)
{
    unsigned char me = __perfinst_share_tls.id, bs = __perfinst_share_shadow[(unsigned long)s >> 6],
                  bo = __perfinst_share_shadow[(unsigned long)o >> 6];
    if ((bs != SAMPLED && bs != me) || (bo != SAMPLED && bo != me))
        return -1;
    return (bs == SAMPLED ? len / 2 : 0) + (bo == SAMPLED ? (len + 1) / 2 : 0);
}

/* y read (its lines past their footprint) */
static __attribute__((noinline)) double warm(const double *y)
{
    double s = 0;
    for (int j = 0; j < 256; j++)
        s += y[j];
    return s;
}

/* What sum_into's per-access checks take off the countdown (as expected()) */
static __attribute__((noinline, no_instrument_function)) long expected_sum(volatile long *s, const double *y, int len)
{
    unsigned char me = __perfinst_share_tls.id;
    long k = 0;
    for (int j = 0; j < len; j++)
        for (int t = 0; t < 2; t++) {
            unsigned char b = __perfinst_share_shadow[(unsigned long)(t ? (const volatile void *)(y + j) : s) >> 6];
            if (b == SAMPLED)
                k++;
            else if (b != me)
                return -1;
        }
    return k;
}

/* A loop's count against its checks' (k < 0: not verified) */
static void tally(int me, long k, long got, int some_loop)
{
    if (k < 0)
        return;
    verified[me]++;
    some[me] += some_loop;
    wrong[me] += got != k;
    counted[me] += got;
}

static void *worker(void *arg)
{
    int me = (int)(long)arg;
    double *y = aligned_alloc(64, 256 * sizeof *y);
    if (!y)
        return NULL;
    for (int j = 0; j < 256; j++)
        y[j] = j;
    for (int p = 0; p < passes; p++)
        for (int t = 0; t < 2; t++) { /* in turns: the same reloads in every run */
            if (t == me) {
                for (int i = me; i < ROWS; i += 2)
                    for (int j = 0; j < COLS; j++)
                        m[i * COLS + j] += p + j;
                for (int j = 0; j < 256; j++)
                    y[j] += 1;
                sums[me] += p;
            }
            pthread_barrier_wait(&bar);
        }
    for (int t = 0; t < 2; t++) {
        if (t == me)
            for (int i = me; i < ROWS; i += 2)
                for (unsigned a = 0; a < sizeof los / sizeof los[0]; a++)
                    for (unsigned b = 0; b < sizeof lens / sizeof lens[0]; b++) {
                        int lo = los[a], len = lens[b];
                        if (lo + len > COLS || (only_short && (len < 8 || len > 47)))
                            continue;
                        double *x = m + i * COLS + lo;
                        long k = expected(x, y, len);
                        set_countdown(1000000);
                        axpy(x, y, 0.5, len);
                        long got = 1000000 - (long)countdown();
                        accesses[me] += 2 * len;
                        tally(me, k, got, 0);
                    }
            for (int w = 0; t == me && w < 10; w++) /* y's lines past the footprint */
                warmed[me] += warm(y);
            for (unsigned b = 0; t == me && b < sizeof longs / sizeof longs[0]; b++) {
                long k = expected_sum(&sums[me], y, longs[b]);
                set_countdown(1000000);
                sum_into(&sums[me], y, longs[b]);
                long got = 1000000 - (long)countdown();
                chunked[me] += longs[b];
                tally(me, k, got, 0);
                k = expected_bump(&sums[me], longs[b]);
                set_countdown(1000000);
                bump(&sums[me], longs[b]);
                tally(me, k, 1000000 - (long)countdown(), 0);
                for (int every = 2; every <= 7; every += 5) {
                    k = expected_some(&sums[me], longs[b], every);
                    set_countdown(1000000);
                    bump_some(&sums[me], longs[b], every);
                    tally(me, k, 1000000 - (long)countdown(), 1);
                }
                k = expected_alt(&sums[me], y, longs[b]);
                set_countdown(1000000);
                bump_alt(&sums[me], y, longs[b]);
                tally(me, k, 1000000 - (long)countdown(), 1);
            }
        pthread_barrier_wait(&bar);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        passes = atoi(argv[1]);
    only_short = argc > 2 && !strcmp(argv[2], "short");
    char *block = aligned_alloc(64, ROWS * COLS * sizeof *m + 64);
    if (!block || passes < 1)
        return 1;
    memset(block, 0, ROWS * COLS * sizeof *m + 64);
    m = (double *)(block + 16);
    sums = aligned_alloc(64, 64);
    if (!sums)
        return 1;
    sums[0] = sums[1] = 0;
    pthread_barrier_init(&bar, NULL, 2);
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    double s = 0;
    for (int i = 0; i < ROWS * COLS; i++)
        s += m[i] * (1 + i % 7);
    printf("rowloops %.6e\n", s);
    printf("verified %ld %ld wrong %ld %ld counted %ld %ld\n", verified[0], verified[1], wrong[0], wrong[1],
           counted[0], counted[1]);
    printf("accesses %ld\n", accesses[0] + accesses[1]);
    printf("chunked %ld\n", chunked[0] + chunked[1]);
    printf("some %ld\n", some[0] + some[1]);
    return 0;
}
