/* order-sets.c — the set-pressure cost of a layout and the function order
 * that lowers it (order-sets.h; docs/layout.md "Set pressure"). */
#include <stdlib.h>
#include <string.h>

#include "order-sets.h"

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return a > 1 ? (v + a - 1) / a * a : v;
}

struct scratch {
    uint64_t *fetch; /* per line of the span */
    size_t cap;
    uint64_t *at;    /* per position */
};

static int scratch_fit(struct scratch *s, size_t lines)
{
    if (lines <= s->cap)
        return 0;
    uint64_t *v = realloc(s->fetch, lines * sizeof *v);
    if (!v)
        return -1;
    s->fetch = v, s->cap = lines;
    return 0;
}

/* The pressure of ids[0..n) at at[0..n). */
static uint64_t pressure(const struct ord_fn *f, const uint32_t *ids, const uint64_t *at, size_t n,
                         const struct ord_cache *c, struct scratch *s, uint32_t *lines,
                         uint32_t *overfull)
{
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < n; i++) {
        const struct ord_fn *x = &f[ids[i]];
        if (!x->nb)
            continue;
        if (at[i] < lo)
            lo = at[i];
        if (at[i] + x->size > hi)
            hi = at[i] + x->size;
    }
    if (lines)
        *lines = 0;
    if (overfull)
        *overfull = 0;
    if (lo >= hi)
        return 0;
    /* the span starts at a multiple of the set period so that line k of
       the array is in set k % sets */
    uint64_t period = (uint64_t)c->sets * c->line;
    uint64_t l0 = lo / period * period / c->line, nl = (hi + c->line - 1) / c->line - l0;
    if (scratch_fit(s, (size_t)nl))
        return UINT64_MAX;
    memset(s->fetch, 0, (size_t)nl * sizeof *s->fetch);
    for (size_t i = 0; i < n; i++) {
        const struct ord_fn *x = &f[ids[i]];
        for (size_t k = 0; k < x->nb; k++) {
            const struct ord_block *b = &x->b[k];
            if (!b->count || b->hi <= b->lo)
                continue;
            uint64_t a = (at[i] + b->lo) / c->line, e = (at[i] + b->hi - 1) / c->line;
            for (; a <= e; a++) {
                uint64_t *v = &s->fetch[a - l0];
                *v = *v + b->count < *v ? UINT64_MAX : *v + b->count;
            }
        }
    }
    uint64_t cost = 0, top[64];
    uint32_t ways = c->ways < 64 ? c->ways : 64;
    for (uint32_t set = 0; set < c->sets; set++) {
        uint32_t nt = 0, nlines = 0;
        uint64_t sum = 0, topsum = 0;
        for (uint64_t l = set; l < nl; l += c->sets) {
            uint64_t v = s->fetch[l];
            if (!v)
                continue;
            nlines++;
            sum += v;
            /* keep the `ways` largest, descending */
            if (nt < ways)
                top[nt++] = v;
            else if (v > top[ways - 1])
                top[ways - 1] = v;
            else
                continue;
            for (uint32_t k = nt - 1; k > 0 && top[k] > top[k - 1]; k--) {
                uint64_t t = top[k];
                top[k] = top[k - 1], top[k - 1] = t;
            }
        }
        for (uint32_t k = 0; k < nt; k++)
            topsum += top[k];
        cost += sum - topsum;
        if (lines)
            *lines += nlines;
        if (overfull && nlines > c->ways)
            ++*overfull;
    }
    return cost;
}

uint64_t ord_set_pressure(const struct ord_fn *f, const uint32_t *ids, const uint64_t *at,
                          size_t n, const struct ord_cache *c, uint32_t *lines,
                          uint32_t *overfull)
{
    struct scratch s = { 0 };
    uint64_t r = pressure(f, ids, at, n, c, &s, lines, overfull);
    free(s.fetch);
    return r;
}

static void place(const struct ord_fn *f, const uint32_t *ids, size_t n, uint64_t *at)
{
    uint64_t p = 0;
    for (size_t i = 0; i < n; i++) {
        p = align_up(p, f[ids[i]].align);
        at[i] = p;
        p += f[ids[i]].size;
    }
}

uint64_t ord_set_pressure_seq(const struct ord_fn *f, const uint32_t *ids, size_t n,
                              const struct ord_cache *c)
{
    uint64_t *at = malloc((n ? n : 1) * sizeof *at);
    if (!at)
        return UINT64_MAX;
    place(f, ids, n, at);
    uint64_t r = ord_set_pressure(f, ids, at, n, c, NULL, NULL);
    free(at);
    return r;
}

struct search {
    const struct ord_fn *f;
    const struct ord_node *nodes;
    size_t nn;
    const struct ord_arc *arcs;
    size_t na;
    const struct ord_cache *c;
    size_t n;
    struct scratch s;
    int oom;
};

/* What the search minimises: pressure - AFFINITY * Ext-TSP score. */
static double objective(struct search *q, const uint32_t *order)
{
    place(q->f, order, q->n, q->s.at);
    uint64_t p = pressure(q->f, order, q->s.at, q->n, q->c, &q->s, NULL, NULL);
    if (p == UINT64_MAX) {
        q->oom = 1;
        return 0;
    }
    double sc = q->na ? ord_exttsp_score(q->nodes, q->nn, q->arcs, q->na, order, q->n) : 0;
    if (sc < 0) {
        q->oom = 1;
        return 0;
    }
    return (double)p - ORD_SETS_AFFINITY * sc;
}

/* Moves the element at i to position j (shifting those between). */
static void move_to(uint32_t *v, size_t i, size_t j)
{
    uint32_t x = v[i];
    if (i < j)
        memmove(v + i, v + i + 1, (j - i) * sizeof *v);
    else
        memmove(v + j + 1, v + j, (i - j) * sizeof *v);
    v[j] = x;
}

/* Swaps and moves are tried between positions at most WINDOW apart: far
 * enough to reach any set offset (a function is rarely smaller than
 * 64 bytes, 64 of them span a page), near enough to keep the search
 * quadratic in WINDOW, not in n. */
#define WINDOW 64

long ord_spread(const struct ord_fn *f, const struct ord_node *nodes, size_t nn,
                const struct ord_arc *arcs, size_t na, const struct ord_cache *c,
                uint32_t *order, size_t n, int max_passes)
{
    struct search q = { f, nodes, nn, arcs, na, c, n, { 0 }, 0 };
    uint32_t *try = malloc((n ? n : 1) * sizeof *try);
    q.s.at = malloc((n ? n : 1) * sizeof *q.s.at);
    if (!try || !q.s.at) {
        free(try), free(q.s.at);
        return -1;
    }
    long changes = 0;
    double best = objective(&q, order);
    for (int pass = 0; pass < max_passes && !q.oom; pass++) {
        long before = changes;
        for (size_t i = 0; i < n && !q.oom; i++) {
            for (size_t j = i + 1; j < n && j <= i + WINDOW && !q.oom; j++) {
                /* swap i and j */
                memcpy(try, order, n * sizeof *try);
                uint32_t t = try[i];
                try[i] = try[j], try[j] = t;
                double v = objective(&q, try);
                if (v < best) {
                    best = v, changes++;
                    memcpy(order, try, n * sizeof *order);
                    continue;
                }
                /* move i to j, and j to i */
                memcpy(try, order, n * sizeof *try);
                move_to(try, i, j);
                v = objective(&q, try);
                if (v < best) {
                    best = v, changes++;
                    memcpy(order, try, n * sizeof *order);
                    continue;
                }
                memcpy(try, order, n * sizeof *try);
                move_to(try, j, i);
                v = objective(&q, try);
                if (v < best) {
                    best = v, changes++;
                    memcpy(order, try, n * sizeof *order);
                }
            }
        }
        if (changes == before)
            break;
    }
    free(try), free(q.s.at), free(q.s.fetch);
    return q.oom ? -1 : changes;
}
