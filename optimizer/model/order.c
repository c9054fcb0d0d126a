/* order.c — C3 (hfsort), Ext-TSP-style and cache-directed (CDSort) function
 * orders over a weighted call graph (order.h; the algorithms are described
 * in docs/layout.md "Function order"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "order.h"

#define C3_PAGE 4096u /* C3 stops growing a cluster at a page (hfsort's rule) */
/* Neither algorithm merges two clusters/chains when the merged density
 * (samples per byte) would fall below 1/DEGRADE of the denser one's:
 * hfsort's kMaxDensityDegradation; it keeps code that ran a few times out
 * of the hot clusters. */
#define DEGRADE 8u

/* Would merging chains x and y dilute the denser one more than DEGRADE? */
struct chains;
static int dilutes(const struct chains *c, uint32_t x, uint32_t y);

int ord_parse(const char *name)
{
    if (!strcmp(name, "c3") || !strcmp(name, "hfsort"))
        return ORD_C3;
    if (!strcmp(name, "exttsp") || !strcmp(name, "ext-tsp"))
        return ORD_EXTTSP;
    if (!strcmp(name, "cdsort"))
        return ORD_CDSORT;
    if (!strcmp(name, "none"))
        return ORD_NONE;
    if (!strcmp(name, "sets"))
        return ORD_SETS;
    if (!strcmp(name, "auto"))
        return ORD_AUTO;
    return -1;
}

const char *ord_name(int alg)
{
    return alg == ORD_C3 ? "c3" : alg == ORD_EXTTSP ? "exttsp" : alg == ORD_SETS ? "sets"
           : alg == ORD_AUTO ? "auto" : alg == ORD_CDSORT ? "cdsort" : "none";
}

static uint64_t sz(const struct ord_node *n)
{
    return n->size ? n->size : 1;
}

/* Chains of nodes (a cluster in C3, a chain in Ext-TSP) as linked lists. */
struct chains {
    uint32_t *head, *tail, *next, *of; /* per chain: head, tail; per node: next, chain */
    uint64_t *size, *samples;          /* per chain */
    uint32_t *len;                     /* per chain: its nodes */
};

static int dilutes(const struct chains *c, uint32_t x, uint32_t y)
{
    __extension__ typedef unsigned __int128 u128;
    uint64_t ms = c->samples[x] + c->samples[y], mz = c->size[x] + c->size[y];
    /* samples[a]/size[a] > DEGRADE * ms/mz, for the denser a */
    u128 lx = (u128)c->samples[x] * mz, ly = (u128)c->samples[y] * mz;
    u128 r_x = (u128)DEGRADE * ms * c->size[x], r_y = (u128)DEGRADE * ms * c->size[y];
    return lx > r_x || ly > r_y;
}

static void chain_append(struct chains *c, uint32_t x, uint32_t y)
{ /* chain y goes after chain x; y becomes empty */
    c->next[c->tail[x]] = c->head[y];
    c->tail[x] = c->tail[y];
    for (uint32_t v = c->head[y]; v != UINT32_MAX; v = c->next[v])
        c->of[v] = x;
    c->size[x] += c->size[y];
    c->samples[x] += c->samples[y];
    c->len[x] += c->len[y];
    c->head[y] = c->tail[y] = UINT32_MAX;
    c->size[y] = c->samples[y] = 0;
    c->len[y] = 0;
}

static const struct chains *sort_ctx;
static int by_density(const void *a, const void *b)
{ /* samples/size descending, compared exactly; ties by the head node */
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    const struct chains *c = sort_ctx;
    __extension__ typedef unsigned __int128 u128;
    u128 l = (u128)c->samples[x] * c->size[y], r = (u128)c->samples[y] * c->size[x];
    if (l != r)
        return l > r ? -1 : 1;
    return c->head[x] < c->head[y] ? -1 : c->head[x] > c->head[y];
}

static const struct ord_node *hot_ctx;
static int by_samples(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    if (hot_ctx[x].samples != hot_ctx[y].samples)
        return hot_ctx[x].samples > hot_ctx[y].samples ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* Flatten the non-empty chains, densest first. */
static size_t emit(struct chains *c, size_t nn, const char *hot, uint32_t *out)
{
    uint32_t *ids = malloc((nn ? nn : 1) * sizeof *ids);
    if (!ids)
        return (size_t)-1;
    size_t k = 0, n = 0;
    for (uint32_t i = 0; i < nn; i++)
        if (c->head[i] != UINT32_MAX && hot[c->head[i]])
            ids[k++] = i;
    sort_ctx = c;
    qsort(ids, k, sizeof *ids, by_density);
    for (size_t i = 0; i < k; i++)
        for (uint32_t v = c->head[ids[i]]; v != UINT32_MAX; v = c->next[v])
            out[n++] = v;
    free(ids);
    return n;
}

static int chains_init(struct chains *c, const struct ord_node *nodes, size_t nn)
{
    size_t n = nn ? nn : 1;
    c->head = malloc(n * sizeof *c->head);
    c->tail = malloc(n * sizeof *c->tail);
    c->next = malloc(n * sizeof *c->next);
    c->of = malloc(n * sizeof *c->of);
    c->size = malloc(n * sizeof *c->size);
    c->samples = malloc(n * sizeof *c->samples);
    c->len = malloc(n * sizeof *c->len);
    if (!c->head || !c->tail || !c->next || !c->of || !c->size || !c->samples || !c->len)
        return -1;
    for (uint32_t i = 0; i < nn; i++) {
        c->head[i] = c->tail[i] = c->of[i] = i;
        c->next[i] = UINT32_MAX;
        c->size[i] = sz(&nodes[i]);
        c->samples[i] = nodes[i].samples;
        c->len[i] = 1;
    }
    return 0;
}

static void chains_free(struct chains *c)
{
    free(c->head), free(c->tail), free(c->next), free(c->of), free(c->size), free(c->samples), free(c->len);
}

/* C3: callees, hottest first, join the cluster of their heaviest caller
 * (appended at its end) while the result stays within a page. */
static size_t c3(const struct ord_node *nodes, size_t nn, const struct ord_arc *arcs, size_t na,
                 const char *hot, struct chains *c, uint32_t *out)
{
    uint32_t *byhot = malloc((nn ? nn : 1) * sizeof *byhot), *best = malloc((nn ? nn : 1) * sizeof *best);
    uint64_t *bw = calloc(nn ? nn : 1, sizeof *bw);
    if (!byhot || !best || !bw) {
        free(byhot), free(best), free(bw);
        return (size_t)-1;
    }
    for (uint32_t i = 0; i < nn; i++)
        best[i] = UINT32_MAX, byhot[i] = i;
    for (size_t k = 0; k < na; k++) {
        const struct ord_arc *a = &arcs[k];
        if (a->from == a->to || !a->weight)
            continue;
        if (a->weight > bw[a->to] || (a->weight == bw[a->to] && a->from < best[a->to]))
            bw[a->to] = a->weight, best[a->to] = a->from;
    }
    hot_ctx = nodes;
    qsort(byhot, nn, sizeof *byhot, by_samples);
    for (size_t k = 0; k < nn; k++) {
        uint32_t f = byhot[k], p = best[f];
        if (!hot[f] || p == UINT32_MAX)
            continue;
        uint32_t cp = c->of[p], cf = c->of[f];
        if (cp == cf || c->size[cp] + c->size[cf] > C3_PAGE || dilutes(c, cp, cf))
            continue;
        /* only a whole cluster whose head is f moves (hfsort: f must start it) */
        if (c->head[cf] != f)
            continue;
        chain_append(c, cp, cf);
    }
    free(byhot), free(best), free(bw);
    return emit(c, nn, hot, out);
}

/* ---- chain merging (Ext-TSP, CDSort) ------------------------------------ */

/* Both merge chains pass by pass: every arc between two chains is scored
 * in both concatenations into its pair's slot, and the best pair merges. */
struct pairsum {
    uint64_t key;  /* (lo << 32 | hi) + 1, 0 = empty */
    double xy, yx; /* gain of lo then hi, of hi then lo */
    double apart;  /* cdsort: the pair's calls as if the hot code were between */
};

struct merger {
    const struct ord_node *nodes;
    struct chains *c;
    uint64_t *pos;     /* each node's offset in its chain */
    struct pairsum *h; /* this pass's pairs, open addressing */
    size_t cap;
};

static uint64_t mix(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return k;
}

static int merger_init(struct merger *m, const struct ord_node *nodes, size_t nn, size_t na,
                       struct chains *c)
{
    m->nodes = nodes, m->c = c, m->cap = 16;
    while (m->cap < 2 * na + 16)
        m->cap *= 2;
    m->pos = calloc(nn ? nn : 1, sizeof *m->pos);
    m->h = malloc(m->cap * sizeof *m->h);
    return m->pos && m->h ? 0 : -1;
}

static void merger_free(struct merger *m)
{
    free(m->pos), free(m->h);
}

/* The slot of the pair of chains arc a joins (claimed when new, its sums
 * zero), and where a leaves and arrives with the lower chain first (at[0],
 * at[1]) and with the higher first (at[2], at[3]): its caller's middle, its
 * callee's start. */
static struct pairsum *pair_of(struct merger *m, const struct ord_arc *a, uint64_t at[4])
{
    const struct chains *c = m->c;
    uint32_t x = c->of[a->from], y = c->of[a->to];
    uint32_t lo = x < y ? x : y, hi = x < y ? y : x;
    uint64_t key = ((uint64_t)lo << 32 | hi) + 1;
    size_t i = mix(key) & (m->cap - 1);
    while (m->h[i].key && m->h[i].key != key)
        i = (i + 1) & (m->cap - 1);
    m->h[i].key = key;
    uint64_t mid_from = m->pos[a->from] + sz(&m->nodes[a->from]) / 2, st_to = m->pos[a->to];
    at[0] = mid_from + (x == hi ? c->size[lo] : 0);
    at[1] = st_to + (y == hi ? c->size[lo] : 0);
    at[2] = mid_from + (x == lo ? c->size[hi] : 0);
    at[3] = st_to + (y == lo ? c->size[hi] : 0);
    return &m->h[i];
}

/* Arc a joins two chains and both its ends are hot: a pass scores it. */
static int joins(const struct chains *c, const char *hot, const struct ord_arc *a)
{
    return c->of[a->from] != c->of[a->to] && a->weight && hot[a->from] && hot[a->to];
}

/* The pair KEY's chains merged: the higher one first when HI_FIRST. */
static void merge_pair(struct merger *m, uint64_t key, int hi_first)
{
    uint32_t lo = (uint32_t)((key - 1) >> 32), hi = (uint32_t)(key - 1);
    uint32_t first = hi_first ? hi : lo, second = hi_first ? lo : hi;
    uint64_t shift = m->c->size[first];
    for (uint32_t v = m->c->head[second]; v != UINT32_MAX; v = m->c->next[v])
        m->pos[v] += shift;
    chain_append(m->c, first, second);
}

static size_t exttsp(const struct ord_node *nodes, size_t nn, const struct ord_arc *arcs,
                     size_t na, const char *hot, struct chains *c, uint32_t *out)
{
    struct merger m;
    if (merger_init(&m, nodes, nn, na, c)) {
        merger_free(&m);
        return (size_t)-1;
    }
    for (;;) {
        memset(m.h, 0, m.cap * sizeof *m.h);
        for (size_t k = 0; k < na; k++) {
            const struct ord_arc *a = &arcs[k];
            if (!joins(c, hot, a) || dilutes(c, c->of[a->from], c->of[a->to]))
                continue;
            uint64_t at[4];
            struct pairsum *ps = pair_of(&m, a, at);
            ps->xy += ord_arc_score(a->weight, at[0], at[1]);
            ps->yx += ord_arc_score(a->weight, at[2], at[3]);
        }
        double bestg = 0;
        uint64_t bestk = 0;
        int bestdir = 0;
        for (size_t i = 0; i < m.cap; i++) {
            const struct pairsum *ps = &m.h[i];
            if (!ps->key)
                continue;
            double g = ps->xy >= ps->yx ? ps->xy : ps->yx;
            if (g > bestg || (g == bestg && g > 0 && ps->key < bestk))
                bestg = g, bestk = ps->key, bestdir = ps->xy >= ps->yx ? 0 : 1;
        }
        if (bestg <= 0)
            break;
        merge_pair(&m, bestk, bestdir);
    }
    merger_free(&m);
    return emit(c, nn, hot, out);
}

/* A call of WEIGHT at D bytes (order.h ORD_CDS_DIST_POWER). */
static double cds_dist(uint64_t weight, uint64_t a, uint64_t b)
{
    uint64_t d = a > b ? a - b : b - a;
    return (double)weight * pow(d ? (double)d : 0.1, -ORD_CDS_DIST_POWER);
}

/* The expected misses of a chain of COUNT samples over SIZE bytes: COUNT
 * times the chance that none of ORD_CDS_PAGES pages, each fetched with the
 * probability of its samples among TOTAL, is a page of it. */
static double cds_misses(double count, double size, double total)
{
    double page = count / size * ORD_CDS_PAGE;
    if (page >= total)
        return 0;
    return count * pow(1.0 - page / total, (double)ORD_CDS_PAGES);
}

/* CDSort: chains merged greedily, the pair of chains with a call between
 * them that gains most first: the calls' distance scores in the better of
 * the two concatenations over the same calls at the hot code's whole size
 * apart, plus ORD_CDS_FREQ_SCALE times the misses the merge saves (a dense
 * chain and a sparse one merged are fetched as one), the sum divided by
 * the smaller chain's size when positive, so that short chains merge
 * first.  A function's count is the most of its samples, its incoming and
 * its outgoing calls.  The chains, densest first. */
static size_t cdsort(const struct ord_node *nodes, size_t nn, const struct ord_arc *arcs,
                     size_t na, const char *hot, struct chains *c, uint32_t *out)
{
    struct merger m;
    uint64_t *in = calloc(nn ? nn : 1, sizeof *in), *outw = calloc(nn ? nn : 1, sizeof *outw);
    if (merger_init(&m, nodes, nn, na, c) || !in || !outw) {
        merger_free(&m), free(in), free(outw);
        return (size_t)-1;
    }
    double total = 0, hotsize = 0;
    for (size_t k = 0; k < na; k++)
        if (arcs[k].from != arcs[k].to) {
            outw[arcs[k].from] += arcs[k].weight;
            in[arcs[k].to] += arcs[k].weight;
        }
    for (uint32_t i = 0; i < nn; i++) {
        total += (double)nodes[i].samples;
        uint64_t cnt = nodes[i].samples;
        cnt = in[i] > cnt ? in[i] : cnt;
        cnt = outw[i] > cnt ? outw[i] : cnt;
        c->samples[i] = cnt;
        if (hot[i])
            hotsize += (double)c->size[i];
    }
    if (total <= 0)
        total = 1;
    /* before a merge, a call scores as if the whole hot code were between */
    double far = pow(hotsize > 0 ? hotsize : 1, -ORD_CDS_DIST_POWER);
    for (;;) {
        memset(m.h, 0, m.cap * sizeof *m.h);
        for (size_t k = 0; k < na; k++) {
            const struct ord_arc *a = &arcs[k];
            if (!joins(c, hot, a) || c->len[c->of[a->from]] + c->len[c->of[a->to]] > ORD_CDS_MAX_CHAIN)
                continue;
            uint64_t at[4];
            struct pairsum *ps = pair_of(&m, a, at);
            ps->xy += cds_dist(a->weight, at[0], at[1]);
            ps->yx += cds_dist(a->weight, at[2], at[3]);
            ps->apart += (double)a->weight * far;
        }
        double bestg = 0;
        uint64_t bestk = 0;
        int bestdir = 0;
        for (size_t i = 0; i < m.cap; i++) {
            const struct pairsum *ps = &m.h[i];
            if (!ps->key)
                continue;
            uint32_t lo = (uint32_t)((ps->key - 1) >> 32), hi = (uint32_t)(ps->key - 1);
            double sl = (double)c->size[lo], sh = (double)c->size[hi];
            double cl = (double)c->samples[lo], ch = (double)c->samples[hi];
            double freq = cds_misses(cl, sl, total) + cds_misses(ch, sh, total) -
                          cds_misses(cl + ch, sl + sh, total);
            /* equal within rounding: lo first, the order the nodes came in */
            int dir = ps->yx > ps->xy * (1 + 1e-12) + 1e-12;
            double g = (dir ? ps->yx : ps->xy) - ps->apart + ORD_CDS_FREQ_SCALE * freq;
            if (g >= 0)
                g /= sl < sh ? sl : sh;
            if (g > 1e-9 && (g > bestg || (g == bestg && ps->key < bestk)))
                bestg = g, bestk = ps->key, bestdir = dir;
        }
        if (!bestk)
            break;
        merge_pair(&m, bestk, bestdir);
    }
    merger_free(&m), free(in), free(outw);
    return emit(c, nn, hot, out);
}

size_t ord_compute(int alg, const struct ord_node *nodes, size_t nn, const struct ord_arc *arcs,
                   size_t na, uint32_t *out)
{
    char *hot = calloc(nn ? nn : 1, 1);
    if (!hot)
        return (size_t)-1;
    for (size_t i = 0; i < nn; i++)
        hot[i] = nodes[i].samples != 0;
    for (size_t k = 0; k < na; k++)
        if (arcs[k].weight && arcs[k].from < nn && arcs[k].to < nn)
            hot[arcs[k].from] = hot[arcs[k].to] = 1;
    size_t n = 0;
    if (alg == ORD_NONE) {
        for (uint32_t i = 0; i < nn; i++)
            if (hot[i])
                out[n++] = i;
        hot_ctx = nodes;
        qsort(out, n, sizeof *out, by_samples);
        free(hot);
        return n;
    }
    struct chains c;
    memset(&c, 0, sizeof c);
    if (chains_init(&c, nodes, nn)) {
        chains_free(&c);
        free(hot);
        return (size_t)-1;
    }
    n = alg == ORD_C3       ? c3(nodes, nn, arcs, na, hot, &c, out)
        : alg == ORD_CDSORT ? cdsort(nodes, nn, arcs, na, hot, &c, out)
                            : exttsp(nodes, nn, arcs, na, hot, &c, out);
    chains_free(&c);
    free(hot);
    return n;
}

/* Start address of every node in the order (nodes not in it: UINT64_MAX). */
static uint64_t *layout(const struct ord_node *nodes, size_t nn, const uint32_t *order, size_t n)
{
    uint64_t *at = malloc((nn ? nn : 1) * sizeof *at), p = 0;
    if (!at)
        return NULL;
    for (size_t i = 0; i < nn; i++)
        at[i] = UINT64_MAX;
    for (size_t i = 0; i < n; i++) {
        at[order[i]] = p;
        p += sz(&nodes[order[i]]);
    }
    return at;
}

/* An arc between two nodes the layout at places, and where it leaves
 * from (the middle of its caller). */
static int placed_arc(const struct ord_arc *a, const uint64_t *at)
{
    return a->from != a->to && at[a->from] != UINT64_MAX && at[a->to] != UINT64_MAX;
}

static uint64_t arc_source(const struct ord_node *nodes, const uint64_t *at, const struct ord_arc *a)
{
    return at[a->from] + sz(&nodes[a->from]) / 2;
}

double ord_exttsp_score(const struct ord_node *nodes, size_t nn, const struct ord_arc *arcs,
                        size_t na, const uint32_t *order, size_t n)
{
    uint64_t *at = layout(nodes, nn, order, n);
    double s = 0;
    if (!at)
        return -1;
    for (size_t k = 0; k < na; k++) {
        const struct ord_arc *a = &arcs[k];
        if (placed_arc(a, at))
            s += ord_arc_score(a->weight, arc_source(nodes, at, a), at[a->to]);
    }
    free(at);
    return s;
}

double ord_call_distance(const struct ord_node *nodes, size_t nn, const struct ord_arc *arcs,
                         size_t na, const uint32_t *order, size_t n)
{
    uint64_t *at = layout(nodes, nn, order, n);
    double s = 0, w = 0;
    if (!at)
        return -1;
    for (size_t k = 0; k < na; k++) {
        const struct ord_arc *a = &arcs[k];
        if (!placed_arc(a, at))
            continue;
        uint64_t m = arc_source(nodes, at, a), t = at[a->to];
        s += (double)a->weight * (double)(t > m ? t - m : m - t);
        w += (double)a->weight;
    }
    free(at);
    return w ? s / w : 0;
}
