/* loopctr.c — a loop's counters in registers (loop-counters=register,
 * copies.cc pi_promote_loop_counters): loops whose calls are rare, left
 * by break, goto, return and continue; a call inside the loop that writes
 * the trace, longjmps out of it, or exits the process; a recursive call
 * that updates the same counters.  Each loop runs its calls on a cold
 * path (__builtin_expect), so each is promoted; t-loop-counters.sh
 * compares every site's count with a build whose counters stay in memory,
 * and a few with the values the program prints.  A @NAME comment marks a
 * line the test looks up. */
#include <perfinst.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static jmp_buf env;
static volatile long sink;
static const char *trace_name, *snap_name;

__attribute__((noinline)) void note(int v) { sink += v; }
__attribute__((noinline)) void bail(int v)
{
    if (v > 1000)
        longjmp(env, 1);
    sink += v;
}
__attribute__((noinline)) void leave(int v)
{
    if (v > 1000) {
        printf("exit in the loop\n");
        exit(3);
    }
    sink += v;
}
/* the trace as it is now, copied to snap_name */
__attribute__((noinline)) void snapshot(void)
{
    if (perfinst_write_trace() != 0) {
        perror("perfinst_write_trace");
        exit(2);
    }
    FILE *in = fopen(trace_name, "rb"), *out = fopen(snap_name, "wb");
    if (!in || !out)
        exit(2);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        fwrite(buf, 1, n, out);
    fclose(in);
    fclose(out);
}

/* several exits: continue, break, goto, return, the end */
__attribute__((noinline)) int exits(const int *a, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++) {
        if (a[i] == 0)
            continue;                        /* @exits-continue */
        if (a[i] < 0)
            break;                           /* @exits-break */
        if (a[i] > 900)
            goto out;                        /* @exits-goto */
        if (a[i] == 777)
            return -s;                       /* @exits-return */
        if (__builtin_expect(a[i] == 500, 0))
            note(a[i]);                      /* @exits-call */
        s += a[i];                           /* @exits-body */
    }
    s += 1;                                  /* @exits-end */
out:
    return s;
}

/* the trace written by a call in the middle of the loop */
__attribute__((noinline)) long halves(const int *a, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++) {
        if (a[i] & 1)
            s += a[i];                       /* @halves-odd */
        else
            s -= 1;                          /* @halves-even */
        if (__builtin_expect(i == n / 2, 0))
            snapshot();                      /* @halves-call */
    }
    return s;
}

/* left by a longjmp from a call */
__attribute__((noinline)) long walk(const int *a, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++) {
        s += a[i];                           /* @walk-body */
        if (__builtin_expect(a[i] < 0, 0))
            bail(-a[i]);                     /* @walk-call */
    }
    return s;                                /* @walk-ret */
}

/* the process ends in a call inside the loop */
__attribute__((noinline)) long stop(const int *a, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++) {
        s += a[i] * 3;                       /* @stop-body */
        if (__builtin_expect(a[i] < 0, 0))
            leave(-a[i]);                    /* @stop-call */
    }
    return s;
}

/* a recursive call updates the loop's own counters while the caller
   holds its increments in registers */
struct tree {
    struct tree *kid[6];
};
__attribute__((noinline)) long clear(struct tree *t)
{
    long n = 1;
    for (int j = 0; j < 6; j++) {
        struct tree *c = t->kid[j];
        if (__builtin_expect(c == NULL, 1))
            continue;                        /* @clear-null */
        n += clear(c);                       /* @clear-kid */
    }
    return n;
}

static struct tree *grow(int depth, unsigned *seed)
{
    struct tree *t = calloc(1, sizeof *t);
    for (int j = 0; j < 6 && depth > 0; j++) {
        *seed = *seed * 1103515245u + 12345u;
        if ((*seed >> 16) % 3 == 0)
            t->kid[j] = grow(depth - 1, seed);
    }
    return t;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "all";
    trace_name = getenv("PERFINST_OUT");
    snap_name = getenv("SNAP_OUT");
    enum { N = 1000 };
    static int a[N];
    for (int i = 0; i < N; i++)
        a[i] = (i * 37) % 700 + (i % 9 == 0 ? 0 : 1) - (i % 9 == 0 ? (i * 37) % 700 : 0);
    if (strcmp(mode, "all") == 0) {
        long t = 0;
        for (int r = 0; r < 3; r++) {
            a[100 * r + 50] = 500;
            t += exits(a, N);
        }
        a[600] = 950;
        t += exits(a, N);
        a[400] = 777;
        t += exits(a, N);
        a[300] = -1;
        t += exits(a, N);
        a[300] = a[400] = a[600] = 5;
        unsigned seed = 7;
        struct tree *root = grow(6, &seed);
        long nodes = 0;
        for (int r = 0; r < 20; r++)
            nodes += clear(root);
        printf("exits %ld nodes %ld sink %ld\n", t, nodes, (long)sink);
    } else if (strcmp(mode, "snap") == 0) {
        if (!trace_name || !snap_name)
            return 2;
        long odd = 0;
        for (int i = 0; i <= N / 2; i++)
            odd += a[i] & 1;
        printf("halves %ld mid-odd %ld mid-even %ld\n", halves(a, N), odd, N / 2 + 1 - odd);
    } else if (strcmp(mode, "jump") == 0) {
        a[123] = -2000;
        long s = 0;
        if (setjmp(env) == 0)
            s = walk(a, N);
        else
            printf("jumped\n");
        a[123] = -3;
        s += walk(a, N);
        printf("walk %ld walk-body %d\n", s, 124 + N);
    } else if (strcmp(mode, "exit") == 0) {
        a[321] = -5000;
        printf("stop-body %d\n", 322);
        fflush(stdout);
        stop(a, N);
    }
    return 0;
}
