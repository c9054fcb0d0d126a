/* The applied counts kept consistent (t-repair.sh, gcc-plugin/pass-feedback.cc
 * pi_feedback_repair_counts).
 *
 * f: trained with flags & 4 never set, so its three nested branches never
 * ran; each of them and the path around them give `flags` the same value
 * at the join but one (a == 7 clears bit 4).  GCC 12's cd-dce makes a
 * forwarder for the edges with the same value by splitting the first of
 * them, a branch that never ran, and the forwarder keeps that edge's
 * zero although the path of every call goes through it; RTL expansion
 * then gives every block after it, both calls to g and the return, a
 * zero too, and the split sends them to f.cold.  Repaired, f's hot part
 * holds both calls and f.cold only the three branches.
 * objlen: Lua's luaV_objlen in small, trained with tag 5 and no `mt`
 * alone.  GCC's switch lowering leaves the tests of the other tags a count
 * that no edge brings them (the edge from the tag test is a never): no
 * block that ran enters the call to calltm, which is not given a count;
 * with feedback-repair=converse the tests are given a zero and go to
 * objlen.cold with the call.
 * pragma: SQLite's sqlite3Pragma in small, run twice, case 3 (f's body,
 * written out again: an inlined helper would be counted as its own)
 * once: the switch's edges hold GCC's shares of 10 %, whose counts round
 * to 0 on 2 runs; the case still ran (its count says so).  By default it
 * is no block that ran and stays in pragma.cold; with
 * feedback-repair=converse its lost zeros are given back: both calls to
 * g in pragma's hot part.
 * With an argument N (1, 2 or 3) the branches run: 3 takes a == 7, and
 * objlen every case. */
#include <stdio.h>
#include <stdlib.h>

struct W {
    unsigned flags;
    int ob, rs, d, n;
};

__attribute__((noipa)) int g(struct W *w, int x)
{
    return x * 3 + w->n;
}

__attribute__((noipa)) unsigned f(struct W *w, unsigned flags, int a, int b)
{
    if (flags & 4) {
        if (a == 7) {
            flags &= ~4u;
            w->flags &= ~4u;
        } else if (b == 5) {
            w->d = 2;
        } else if (w->ob == 0) {
            w->flags |= 128;
            w->ob = w->rs;
        }
    }
    if (g(w, a) > 100)
        w->n++;
    if (flags & 1)
        w->n += g(w, b);
    return flags;
}

struct V {
    int tag;
    long n;
    void *mt;
};

__attribute__((noipa)) void *gettm(struct V *v)
{
    return v->mt ? v->mt : v;
}

__attribute__((noipa)) void calltm(void *tm, struct V *v, long *out)
{
    *out = (tm == (void *)v ? 3 : 5) + v->n;
}

__attribute__((noipa)) void objlen(long *out, struct V *v)
{
    void *tm;
    switch (v->tag) {
    case 5:
        tm = v->mt;
        if (tm)
            break;
        *out = v->n * 2;
        return;
    case 4:
        *out = v->n;
        return;
    case 20:
        *out = v->n + 1;
        return;
    default:
        tm = gettm(v);
        break;
    }
    calltm(tm, v, out);
}

__attribute__((noipa)) unsigned pragma(struct W *w, int op, unsigned flags, int a, int b)
{
    switch (op) {
    case 0: w->n += 1; break;
    case 1: w->n += 2; w->d = 7; break;
    case 2: w->n = w->d * 3; break;
    case 3:
        if (flags & 4) {
            if (a == 7) {
                flags &= ~4u;
                w->flags &= ~4u;
            } else if (b == 5) {
                w->d = 2;
            } else if (w->ob == 0) {
                w->flags |= 128;
                w->ob = w->rs;
            }
        }
        if (g(w, a) > 100)
            w->n++;
        if (flags & 1)
            w->n += g(w, b);
        break;
    case 4: w->ob = g(w, 4); break;
    case 5: w->rs = g(w, 5) + 1; break;
    case 6: w->d = g(w, 6) + 2; break;
    case 7: w->n = g(w, 7) * 2; break;
    case 8: w->flags ^= 8; break;
    case 9: w->flags ^= 9; w->n--; break;
    default: w->n = -1;
    }
    return flags;
}

int main(int argc, char **argv)
{
    int mode = argc > 1 ? atoi(argv[1]) : 0;
    struct W w = {0, 1, 2, 3, 0};
    unsigned long s = 0;
    for (int i = 0; i < 1000; i++) {
        unsigned fl = mode == 0 ? 0 : mode == 1 ? 4 : (unsigned)i;
        s += f(&w, fl | (i & 1), mode == 3 ? 7 : i % 3, i % 6);
        w.ob = i & 1;
    }
    static long mt;
    long len = 0, o;
    for (int i = 0; i < 1000; i++) {
        struct V v = {mode == 0 ? 5 : (int[]){5, 4, 20, 9}[i % 4], i, mode == 3 && i % 8 == 0 ? &mt : NULL};
        objlen(&o, &v);
        len += o;
    }
    s += pragma(&w, 3, 1 | (mode ? 4 : 0), mode == 3 ? 7 : 1, 2);
    s += pragma(&w, mode == 2 ? 5 : 8, 0, 0, 0);
    printf("%lu %d %u %ld\n", s, w.n, w.flags, len & 0xffff);
    return 0;
}
