/* order-sets.c — the set-pressure cost of a layout and the function order
 * that lowers it (order-sets.h; docs/layout.md "Set pressure"). */
#include <math.h>
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
/* The fetches of one set's lines (fetch[set], fetch[set + sets], ... below
 * n) beyond its `ways` most fetched ones (at most 64 kept); *nlines, when
 * asked, counts its lines with fetches. */
static uint64_t set_excess(const uint64_t *fetch, uint64_t n, uint32_t set,
                           const struct ord_cache *c, uint32_t *nlines)
{
    uint64_t top[64], sum = 0, topsum = 0;
    uint32_t ways = c->ways < 64 ? c->ways : 64, nt = 0;
    for (uint64_t l = set; l < n; l += c->sets) {
        uint64_t v = fetch[l];
        if (!v)
            continue;
        if (nlines)
            ++*nlines;
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
    return sum - topsum;
}

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
    uint64_t cost = 0;
    for (uint32_t set = 0; set < c->sets; set++) {
        uint32_t nlines = 0;
        cost += set_excess(s->fetch, nl, set, c, &nlines);
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

/* Che's approximation of LRU under independent references: in a set, line
 * i is referenced at rate f_i / F (F: all fetches); the set's
 * characteristic time T solves sum (1 - exp(-f_i T / F)) = ways, and line
 * i misses with probability exp(-f_i T / F). */
static double che_set(const uint64_t *v, size_t nv, uint32_t ways, double F)
{
    if (nv <= ways)
        return 0;
    double lo = 0, hi = 1;
    for (;;) { /* grow hi until it holds more than ways lines */
        double occ = 0;
        for (size_t i = 0; i < nv; i++)
            occ += 1 - exp(-(double)v[i] * hi / F);
        if (occ >= ways || hi > 1e30)
            break;
        hi *= 4;
    }
    for (int it = 0; it < 60; it++) {
        double mid = (lo + hi) / 2, occ = 0;
        for (size_t i = 0; i < nv; i++)
            occ += 1 - exp(-(double)v[i] * mid / F);
        if (occ < ways)
            lo = mid;
        else
            hi = mid;
    }
    double m = 0;
    for (size_t i = 0; i < nv; i++)
        m += (double)v[i] * exp(-(double)v[i] * lo / F);
    return m;
}

double ord_che_set(const uint64_t *v, size_t nv, uint32_t ways)
{
    double F = 0;
    for (size_t i = 0; i < nv; i++)
        F += (double)v[i];
    return F > 0 ? che_set(v, nv, ways, F) : 0;
}

double ord_lru_misses(const struct ord_fn *f, const uint32_t *ids, const uint64_t *at, size_t n,
                      const struct ord_cache *c)
{
    struct scratch s = { 0 };
    if (pressure(f, ids, at, n, c, &s, NULL, NULL) == UINT64_MAX)
        return -1;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < n; i++)
        if (f[ids[i]].nb) {
            if (at[i] < lo)
                lo = at[i];
            if (at[i] + f[ids[i]].size > hi)
                hi = at[i] + f[ids[i]].size;
        }
    double m = 0, F = 0;
    if (lo >= hi) {
        free(s.fetch);
        return 0;
    }
    uint64_t period = (uint64_t)c->sets * c->line;
    uint64_t l0 = lo / period * period / c->line, nl = (hi + c->line - 1) / c->line - l0;
    for (uint64_t l = 0; l < nl; l++)
        F += (double)s.fetch[l];
    uint64_t *v = malloc((nl / c->sets + 2) * sizeof *v);
    if (!v) {
        free(s.fetch);
        return -1;
    }
    for (uint32_t set = 0; set < c->sets; set++) {
        size_t nv = 0;
        for (uint64_t l = set; l < nl; l += c->sets)
            if (s.fetch[l])
                v[nv++] = s.fetch[l];
        m += che_set(v, nv, c->ways, F);
    }
    free(v), free(s.fetch);
    return m;
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

/* The Ext-TSP score (order.h's formula) of the nodes at pos[] (per node of
 * nn, UINT64_MAX when not placed), at f's sizes. */
static double placed_score(const struct ord_fn *f, const uint64_t *pos, size_t nn,
                           const struct ord_arc *arcs, size_t na)
{
    double sc = 0;
    for (size_t k = 0; k < na; k++) {
        const struct ord_arc *a = &arcs[k];
        if (a->from >= nn || a->to >= nn || a->from == a->to || pos[a->from] == UINT64_MAX ||
            pos[a->to] == UINT64_MAX)
            continue;
        sc += ord_arc_score(a->weight, pos[a->from] + (f[a->from].size ? f[a->from].size : 1) / 2,
                            pos[a->to]);
    }
    return sc;
}

double ord_sets_score(const struct ord_fn *f, size_t nn, const struct ord_arc *arcs, size_t na,
                      const uint32_t *ids, size_t n)
{
    uint64_t *at = malloc((n ? n : 1) * sizeof *at), *pos = malloc((nn ? nn : 1) * sizeof *pos);
    double sc = -1;
    if (at && pos) {
        place(f, ids, n, at);
        for (size_t i = 0; i < nn; i++)
            pos[i] = UINT64_MAX;
        for (size_t i = 0; i < n; i++)
            pos[ids[i]] = at[i];
        sc = placed_score(f, pos, nn, arcs, na);
    }
    free(at), free(pos);
    return sc;
}

/* The search evaluates thousands of layouts: each function's lines are
 * computed once per start offset within a line (its alignment allows few),
 * and a layout's cost sums them into the span's lines. */
struct fnlines {
    uint32_t *rel;    /* line index from the line of the function's start */
    uint64_t *fetch;
    uint32_t n;
    int done;
};

struct search {
    const struct ord_fn *f;
    const struct ord_cache *c;
    size_t n;
    struct fnlines *fl; /* per node, per start offset in the line: nn * line */
    uint64_t *at;       /* per position */
    uint64_t *pos;      /* per node: start, UINT64_MAX when not ordered */
    const struct ord_arc *arcs; /* arcs between ordered nodes */
    size_t na;
    uint64_t *fetch;    /* per line of the span */
    size_t span;
    double affinity;    /* the weight of the Ext-TSP score */
    int oom;
};

static struct fnlines *fn_lines(struct search *q, uint32_t id, uint64_t sub)
{
    struct fnlines *l = &q->fl[(size_t)id * q->c->line + sub];
    if (l->done)
        return l;
    l->done = 1;
    const struct ord_fn *x = &q->f[id];
    uint64_t nl = (sub + x->size + q->c->line - 1) / q->c->line + 1;
    uint64_t *v = calloc(nl, sizeof *v);
    if (!v) {
        q->oom = 1;
        return l;
    }
    for (size_t k = 0; k < x->nb; k++) {
        const struct ord_block *b = &x->b[k];
        if (!b->count || b->hi <= b->lo)
            continue;
        for (uint64_t a = (sub + b->lo) / q->c->line; a <= (sub + b->hi - 1) / q->c->line && a < nl; a++)
            v[a] = v[a] + b->count < v[a] ? UINT64_MAX : v[a] + b->count;
    }
    uint32_t m = 0;
    for (uint64_t a = 0; a < nl; a++)
        m += v[a] != 0;
    l->rel = malloc((m ? m : 1) * sizeof *l->rel);
    l->fetch = malloc((m ? m : 1) * sizeof *l->fetch);
    if (!l->rel || !l->fetch) {
        free(v);
        q->oom = 1;
        return l;
    }
    for (uint64_t a = 0; a < nl; a++)
        if (v[a])
            l->rel[l->n] = (uint32_t)a, l->fetch[l->n++] = v[a];
    free(v);
    return l;
}

/* What the search minimises: pressure - affinity * Ext-TSP score. */
static double objective(struct search *q, const uint32_t *order)
{
    const struct ord_cache *c = q->c;
    place(q->f, order, q->n, q->at);
    memset(q->fetch, 0, q->span * sizeof *q->fetch);
    for (size_t i = 0; i < q->n && !q->oom; i++) {
        const struct ord_fn *x = &q->f[order[i]];
        q->pos[order[i]] = q->at[i];
        if (!x->nb)
            continue;
        const struct fnlines *l = fn_lines(q, order[i], q->at[i] % c->line);
        uint64_t base = q->at[i] / c->line;
        for (uint32_t k = 0; k < l->n; k++) {
            uint64_t *v = &q->fetch[base + l->rel[k]];
            *v = *v + l->fetch[k] < *v ? UINT64_MAX : *v + l->fetch[k];
        }
    }
    if (q->oom)
        return 0;
    uint64_t cost = 0;
    for (uint32_t set = 0; set < c->sets; set++)
        cost += set_excess(q->fetch, q->span, set, c, NULL);
    return (double)cost - q->affinity * placed_score(q->f, q->pos, SIZE_MAX, q->arcs, q->na);
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
#define SEARCH_COVER 99 /* percent of the fetches held by the functions moved */

static int by_u64_desc(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x > y ? -1 : x < y;
}

long ord_spread_seg(const struct ord_fn *f, const struct ord_node *nodes, size_t nn,
                    const struct ord_arc *arcs, size_t na, const struct ord_cache *c,
                    uint32_t *order, size_t n, size_t nfirst, int max_passes, double affinity)
{
    (void)nodes;
    struct search q;
    memset(&q, 0, sizeof q);
    q.f = f, q.c = c, q.n = n, q.affinity = affinity;
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += f[order[i]].size + (f[order[i]].align > 1 ? f[order[i]].align : 0);
    q.span = (size_t)(total / c->line + 2 * c->sets + 2);
    uint32_t *try = malloc((n ? n : 1) * sizeof *try);
    struct ord_arc *ar = malloc((na ? na : 1) * sizeof *ar);
    q.fl = calloc((nn ? nn : 1) * c->line, sizeof *q.fl);
    q.at = malloc((n ? n : 1) * sizeof *q.at);
    q.pos = malloc((nn ? nn : 1) * sizeof *q.pos);
    q.fetch = malloc(q.span * sizeof *q.fetch);
    long changes = -1;
    char *hotf = NULL;
    uint64_t *fw = NULL;
    if (!try || !ar || !q.fl || !q.at || !q.pos || !q.fetch)
        goto out;
    for (size_t i = 0; i < nn; i++)
        q.pos[i] = UINT64_MAX;
    for (size_t i = 0; i < n; i++)
        q.pos[order[i]] = 0;
    for (size_t k = 0; k < na; k++)
        if (arcs[k].from < nn && arcs[k].to < nn && arcs[k].from != arcs[k].to && arcs[k].weight &&
            q.pos[arcs[k].from] != UINT64_MAX && q.pos[arcs[k].to] != UINT64_MAX)
            ar[q.na++] = arcs[k];
    q.arcs = ar;
    /* the search moves the functions that hold 99 % of the fetches (their
       lines decide the pressure; moving a warm one is done by moving the
       hot ones around it) */
    hotf = calloc(nn ? nn : 1, 1);
    fw = malloc((n ? n : 1) * sizeof *fw);
    if (!hotf || !fw)
        goto out;
    if (nfirst > n)
        nfirst = n;
    /* per segment: [0, nfirst) and [nfirst, n) */
    for (int seg = 0; seg < 2; seg++) {
        size_t s0 = seg ? nfirst : 0, s1 = seg ? n : nfirst, m = s1 - s0;
        uint64_t all = 0, cum = 0;
        for (size_t i = s0; i < s1; i++) {
            const struct fnlines *l = fn_lines(&q, order[i], 0);
            fw[i - s0] = 0;
            for (uint32_t k = 0; l && k < l->n; k++)
                fw[i - s0] += l->fetch[k];
            all += fw[i - s0];
        }
        if (q.oom)
            goto out;
        if (m)
            qsort(fw, m, sizeof *fw, by_u64_desc);
        uint64_t thr = 1;
        for (size_t i = 0; i < m && cum * 100.0 < all * (double)SEARCH_COVER; i++)
            cum += fw[i], thr = fw[i];
        for (size_t i = s0; i < s1; i++) {
            const struct fnlines *l = fn_lines(&q, order[i], 0);
            uint64_t w = 0;
            for (uint32_t k = 0; k < l->n; k++)
                w += l->fetch[k];
            hotf[order[i]] = w && w >= thr;
        }
    }
    changes = 0;
    double best = objective(&q, order);
    for (int pass = 0; pass < max_passes && !q.oom; pass++) {
        long before = changes;
        for (size_t i = 0; i < n && !q.oom; i++) {
            for (size_t j = i + 1; j < n && j <= i + WINDOW && !q.oom; j++) {
                if (i < nfirst && j >= nfirst)
                    break; /* each segment keeps its functions */
                if (!hotf[order[i]] && !hotf[order[j]])
                    continue;
                for (int mv = 0; mv < 3; mv++) {
                    memcpy(try, order, n * sizeof *try);
                    if (mv == 0) { /* swap i and j */
                        uint32_t t = try[i];
                        try[i] = try[j], try[j] = t;
                    } else if (mv == 1) {
                        move_to(try, i, j);
                    } else {
                        move_to(try, j, i);
                    }
                    double v = objective(&q, try);
                    if (v < best) {
                        best = v, changes++;
                        memcpy(order, try, n * sizeof *order);
                        break;
                    }
                }
            }
        }
        if (changes == before)
            break;
    }
out:
    if (q.fl)
        for (size_t i = 0; i < (nn ? nn : 1) * c->line; i++)
            free(q.fl[i].rel), free(q.fl[i].fetch);
    free(try), free(ar), free(q.fl), free(q.at), free(q.pos), free(q.fetch), free(hotf), free(fw);
    return q.oom ? -1 : changes;
}
