/* gcovlines.c — the shapes of Lua's lvm.c and zstd's zstd_double_fast.c
 * where pmopt report's line counts (count-at=late) used to differ from
 * gcov's at -O2 (tests/count/t-lines-gcov.sh).  Each function's comment
 * says which of gcov's rules it needs; main runs them with known counts:
 * prep and concat N times each, rep N/10 + 1 times. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gcovlines.h"

struct val { int tag; long i; const char *s; long len; };

/* forprep's shape (Lua lvm.c): the integer arm's last block also gets the
   outer if's line from its goto, after its own statements; gcov sorts a
   block's lines and lists it under the largest (the `v[2].i = count;`
   line), so the if's line counts the calls only (not the calls plus the
   integer arm's runs) */
static __attribute__((noinline)) int prep(struct val *v, long step)
{
    struct val *init = &v[0];
    struct val *limit = &v[1];
    if (init->tag == 1 && limit->tag == 1) {
        long count;
        if (step > 0) {
            count = limit->i - init->i;
            if (step != 1)
                count /= step;
        } else {
            count = init->i - limit->i;
            count /= -(step + 1) + 1;
        }
        v[2].i = count;
    } else {
        v[2].i = 0;
    }
    return 0;
}

/* luaV_concat's shape: a cheap test in front of a body too big to inline,
   which GCC's early ipa-split cuts off (concat.part.0, uncounted before)
   and whose front the early inliner puts into main; -fprofile-generate
   splits nothing early, so gcov counts concat whole: its own line and the
   test's count every call.  The `for` line's `n = 1` is folded into a PHI
   argument on the edges from the `?:` arms: the line still has statements,
   so it is counted by them alone, not again on those edges */
static char buf[4096];
void concat(struct val *top, int total)
{
    if (total == 1)
        return;
    do {
        int n = 2;
        long tl = top[-1].tag == 4 ? top[-1].len : (long)strlen(top[-1].s);
        for (n = 1; n < total && top[-n - 1].tag == 4; n++) {
            long l = top[-n - 1].len;
            if (l >= (long)sizeof buf - tl) {
                fprintf(stderr, "too long\n");
                exit(1);
            }
            tl += l;
        }
        char *p = buf;
        for (int k = n; k > 0; k--) {
            memcpy(p, top[-k].s, top[-k].len);
            p += top[-k].len;
        }
        top[-n].s = buf;
        top[-n].len = tl;
        total -= n - 1;
        top -= n - 1;
    } while (total > 1);
}

/* zstd_double_fast.c's shape: the repcode loop's test block (its lines
   cut in two runs by rd16's, from another file) is the function's last in
   GCC's numbering, which gcov takes for the exit block and lists under no
   line: the line of `& (rd16(ip) ...` counts every block that has it (the
   loop body's last block too, listed under the `continue;` line), and
   rd16's inlined bodies are calls of that line: gcov -O0's count (@O0),
   where gcov -O2 counts the loop body's runs again.  The
   swap of off1 and off2 is folded into PHI arguments: gcov -O2 lists no
   code on those lines, pmopt report counts them on their edge, as gcov
   -O0 does */
static __attribute__((noinline)) long rep(const unsigned char *ip, const unsigned char *end, long off1)
{
    long found = 0, off2 = 2;
    for (;;) {
        if (ip >= end - 4)
            return found;
        ip += 1 + (*ip & 3);
        while ((ip < end)
               && ((off1 > 0)
                   & (rd16(ip) == rd16(ip - off1)))) { /* @O0 */
            long t = off1;
            off1 = off2;
            off2 = t;
            found++;
            ip += 2;
            continue;
        }
    }
}

/* luaH_next's and luaD_precall's shape: two `return 1;` (`return NULL;`)
   merged into one PHI argument, which keeps the location of one of them,
   whose line an edge's goto also has: gcov counts the line by that edge's
   block alone, not again by the PHI argument's edge (pmopt counted both:
   tnext's first `return 1;` 50 for gcov's 30, kind's first `return NULL;`
   16 for 8) */
struct tab { int asize, hsize; const int *arr, *keys, *vals; };

static __attribute__((noinline)) int tnext(const struct tab *t, int *key, int *val)
{
    int i = *key;
    for (; i < t->asize; i++) {
        if (t->arr[i]) {
            *key = i + 1;
            *val = t->arr[i];
            return 1;
        }
    }
    for (i -= t->asize; i < t->hsize; i++) {
        if (t->keys[i]) {
            *key = t->asize + i + 1;
            *val = t->vals[i];
            return 1;
        }
    }
    return 0;
}

static __attribute__((noinline)) const char *kind(int tag, int *n)
{
    switch (tag) {
    case 1:
        *n += 1;
        return NULL;
    case 2:
        *n += 2;
        return NULL;
    case 3:
        return "three";
    default:
        *n -= 1;
        return "other";
    }
}

/* mujs's js_isarrayindex shape: three `return 0;` lowered to one return
   statement at the first one's line, whose PHI arguments then carry that
   line on the edges of all three (and of `: 0` too); no goto keeps the
   others' lines.  The first never runs here, the last on every call:
   pmopt listed the first with every call's count (gcov -O0: #####); now
   by the edge from the code right before it alone (gcov -O0's 0) */
static __attribute__((noinline)) int isidx(const char *p, int *idx)
{
    int n = 0;
    if (p[0] == 0)
        return 0; /* @isidx0 */
    if (p[0] == '0')
        return (p[1] == 0) ? *idx = 0, 1 : 0;
    while (*p) {
        int c = *p++;
        if (c >= '0' && c <= '9') {
            if (n >= 214748364)
                return 0;
            n = n * 10 + (c - '0');
        } else {
            return 0;
        }
    }
    *idx = n;
    return 1;
}

/* one interpreter under two names, at one line of gcovtwice.h */
#define TW_NAME run_plain
#define TW_NEXT do { pc++; goto top; } while (0)
#include "gcovtwice.h"
#undef TW_NAME
#undef TW_NEXT
#define TW_NAME run_hooked
#define TW_NEXT do { if (hook) hook(pc); pc++; goto top; } while (0)
#include "gcovtwice.h"
static int seen;
static void see(int pc) { seen += pc; }

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100;
    struct val v[3] = {{1, 0, 0, 0}, {1, 0, 0, 0}, {0, 0, 0, 0}};
    long sum = 0;
    for (int i = 0; i < n; i++) {
        v[0].tag = i % 7 ? 1 : 2;
        v[1].i = i;
        sum += prep(v, i % 3 - 1 ? i % 3 - 1 : 2) + v[2].i;
    }
    struct val s[8];
    for (int i = 0; i < n; i++) {
        int total = 1 + i % 4;
        for (int k = 0; k < total; k++)
            s[k] = (struct val){4, 0, "ab", 2};
        concat(s + total, total);
        sum += s[0].len;
    }
    static unsigned char data[4096];
    for (unsigned i = 0; i < sizeof data; i++)
        data[i] = (unsigned char)(i / 8 % 5);
    for (int i = 0; i < n / 10 + 1; i++)
        sum += rep(data, data + sizeof data, 1 + i % 3);
    static const int arr[6] = {1, 0, 3, 0, 0, 6}, keys[4] = {0, 7, 0, 9}, vals[4] = {0, 70, 0, 90};
    const struct tab t = {6, 4, arr, keys, vals};
    for (int i = 0; i < n / 10; i++) {
        int k = 0, val;
        while (tnext(&t, &k, &val))
            sum += val;
    }
    int m = 0;
    for (int i = 0; i < n; i++)
        sum += kind(i % 5, &m) != NULL;
    static const char *const names[] = {"length", "x", "abc"};
    for (int i = 0; i < n; i++) {
        int idx;
        sum += isidx(names[i % 3], &idx);
    }
    static const int code[] = {1, 2, 3, 1, 1, 2, 3, 3, 1, 0};
    for (int i = 0; i < n; i++)
        sum += run_plain(code, NULL);
    if (argc > 5)
        sum += run_hooked(code, see);
    printf("%ld %d %d\n", sum, m, seen);
    return 0;
}
