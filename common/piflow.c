/* piflow.c — block and arc counts from the counters (piflow.h).
 *
 * The unknowns of a function are its blocks' and arcs' counts; the
 * equations, one pair per block: the sum of its incoming arcs equals its
 * count, and so does the sum of its outgoing ones; and one for the
 * function's entry and exit, taken as one vertex: what enters the
 * function leaves it.  The plugin puts a counter on every arc off a
 * spanning tree of the graph whose vertices are the blocks' ins and outs
 * (a block is the edge between them), so the unknown arcs form a forest
 * and propagation solves them all: a vertex with one unknown arc left
 * gives it.  Sums are taken modulo 2^64, so that the few negative values
 * of an inconsistent (mid-run) trace cancel out on the way and only the
 * final counts are clamped.
 */
#include <stdlib.h>
#include <string.h>

#include "piflow.h"

#define NEG(x) ((x) >> 63)

struct vertex {
    uint64_t count, sin, sout; /* its count; the known parts of its ins and outs */
    uint32_t uin, uout;        /* incoming / outgoing arcs not known yet */
    uint32_t in_first, nin, out_first, nout;
    unsigned known : 1, queued : 1;
};

struct solver {
    struct vertex *v;          /* nsites + 1 (the last: entry and exit) */
    uint32_t *in, *out;        /* arc indices (relative) by destination / by source */
    uint64_t *val;             /* per arc */
    unsigned char *kn;         /* per arc: known */
    uint32_t *queue;
    uint32_t qlen;
};

static void push(struct solver *s, uint32_t x)
{
    if (!s->v[x].queued) {
        s->v[x].queued = 1;
        s->queue[s->qlen++] = x;
    }
}

static uint32_t end_of(uint32_t site, const struct pi_func *fn)
{
    return site == PI_NONE ? fn->nsites : site - fn->first_site;
}

static void arc_known(struct solver *s, const struct pi_func *fn, const struct pi_arc *arcs,
                      uint32_t a, uint64_t value)
{
    const struct pi_arc *x = &arcs[fn->first_arc + a];
    uint32_t src = end_of(x->src, fn), dst = end_of(x->dst, fn);
    s->kn[a] = 1;
    s->val[a] = value;
    s->v[src].uout--;
    s->v[src].sout += value;
    s->v[dst].uin--;
    s->v[dst].sin += value;
    push(s, src);
    push(s, dst);
}

/* The one unknown arc among list[first .. first+n). */
static uint32_t the_unknown(const struct solver *s, const uint32_t *list, uint32_t first, uint32_t n)
{
    for (uint32_t i = first; i < first + n; i++)
        if (!s->kn[list[i]])
            return list[i];
    return UINT32_MAX; /* (cannot happen: the caller counted one) */
}

static int solve(const struct pi_func *fn, const struct pi_site *sites, const struct pi_arc *arcs,
                 const uint64_t *ctr, uint32_t nctr, const uint64_t *stop, uint64_t *site_count,
                 uint64_t *arc_count, struct pi_flow_stat *st)
{
    uint32_t nv = fn->nsites + 1, na = fn->narcs;
    struct solver s = { 0 };
    s.v = calloc(nv, sizeof *s.v);
    s.in = malloc((na ? na : 1) * sizeof *s.in);
    s.out = malloc((na ? na : 1) * sizeof *s.out);
    s.val = calloc(na ? na : 1, sizeof *s.val);
    s.kn = calloc(na ? na : 1, 1);
    s.queue = malloc(nv * sizeof *s.queue);
    if (!s.v || !s.in || !s.out || !s.val || !s.kn || !s.queue) {
        free(s.v), free(s.in), free(s.out), free(s.val), free(s.kn), free(s.queue);
        return -1;
    }
    /* arcs by destination and by source (counting sort) */
    for (uint32_t a = 0; a < na; a++) {
        const struct pi_arc *x = &arcs[fn->first_arc + a];
        s.v[end_of(x->dst, fn)].uin++;
        s.v[end_of(x->src, fn)].uout++;
    }
    uint32_t fi = 0, fo = 0;
    for (uint32_t x = 0; x < nv; x++) {
        struct vertex *v = &s.v[x];
        v->in_first = fi;
        v->out_first = fo;
        v->nin = v->uin;
        v->nout = v->uout;
        fi += v->uin;
        fo += v->uout;
        v->uin = v->uout = 0;
    }
    for (uint32_t a = 0; a < na; a++) {
        const struct pi_arc *x = &arcs[fn->first_arc + a];
        struct vertex *d = &s.v[end_of(x->dst, fn)], *o = &s.v[end_of(x->src, fn)];
        s.in[d->in_first + d->uin++] = a;
        s.out[o->out_first + o->uout++] = a;
    }
    for (uint32_t k = 0; stop && k < fn->nsites; k++) {
        /* stopped inside: known outflow to the exit, as if by a fake arc */
        uint64_t x = stop[fn->first_site + k];
        s.v[k].sout += x;
        s.v[nv - 1].sin += x;
    }
    for (uint32_t k = 0; k < fn->nsites; k++) {
        const struct pi_site *t = &sites[fn->first_site + k];
        if (t->counter != PI_NONE) {
            s.v[k].known = 1;
            s.v[k].count = t->counter < nctr ? ctr[t->counter] : 0;
            /* a counter at the block's end missed the executions stopped
               before it */
            if (stop && (t->arg & PI_SITE_COUNTER_AT_END))
                s.v[k].count += stop[fn->first_site + k];
        }
        push(&s, k);
    }
    push(&s, nv - 1);
    for (uint32_t a = 0; a < na; a++) {
        const struct pi_arc *x = &arcs[fn->first_arc + a];
        if (x->counter != PI_NONE)
            arc_known(&s, fn, arcs, a, x->counter < nctr ? ctr[x->counter] : 0);
    }
    while (s.qlen) {
        uint32_t x = s.queue[--s.qlen];
        struct vertex *v = &s.v[x];
        v->queued = 0;
        if (!v->known && (!v->uin || !v->uout)) {
            v->known = 1;
            v->count = !v->uin ? v->sin : v->sout;
        }
        if (!v->known)
            continue;
        if (v->uin == 1) {
            uint32_t a = the_unknown(&s, s.in, v->in_first, v->nin);
            if (a != UINT32_MAX)
                arc_known(&s, fn, arcs, a, v->count - v->sin);
        }
        if (v->uout == 1) {
            uint32_t a = the_unknown(&s, s.out, v->out_first, v->nout);
            if (a != UINT32_MAX)
                arc_known(&s, fn, arcs, a, v->count - v->sout);
        }
    }
    for (uint32_t k = 0; k < fn->nsites; k++) {
        uint64_t c = s.v[k].known ? s.v[k].count : 0;
        st->nunsolved += !s.v[k].known;
        st->nnegative += NEG(c);
        site_count[fn->first_site + k] = NEG(c) ? 0 : c;
    }
    for (uint32_t a = 0; a < na; a++) {
        uint64_t c = s.kn[a] ? s.val[a] : 0;
        st->nunsolved += !s.kn[a];
        st->nnegative += NEG(c);
        arc_count[fn->first_arc + a] = NEG(c) ? 0 : c;
    }
    free(s.v), free(s.in), free(s.out), free(s.val), free(s.kn), free(s.queue);
    return 0;
}

int pi_flow_func(const struct pi_func *fn, const struct pi_site *sites, const struct pi_arc *arcs,
                 const uint64_t *ctr, uint32_t nctr, const uint64_t *stop, uint64_t *site_count,
                 uint64_t *arc_count, struct pi_flow_stat *st)
{
    if (fn->narcs) {
        if (solve(fn, sites, arcs, ctr, nctr, stop, site_count, arc_count, st) == 0)
            return 0;
        memset(site_count + fn->first_site, 0, fn->nsites * sizeof *site_count);
        memset(arc_count + fn->first_arc, 0, fn->narcs * sizeof *arc_count);
        return -1;
    }
    for (uint32_t k = fn->first_site; k < fn->first_site + fn->nsites; k++) {
        uint32_t c = sites[k].counter;
        site_count[k] = c != PI_NONE && c < nctr ? ctr[c] : 0;
    }
    return 0;
}

int pi_flow_unit(const struct pi_unit *hdr, const struct pi_func *funcs, const struct pi_site *sites,
                 const struct pi_arc *arcs, const uint64_t *ctr, uint32_t nctr, const uint64_t *stop,
                 uint64_t *site_count, uint64_t *arc_count, struct pi_flow_stat *st)
{
    int r = 0;
    memset(site_count, 0, hdr->nsites * sizeof *site_count);
    if (hdr->narcs)
        memset(arc_count, 0, hdr->narcs * sizeof *arc_count);
    for (uint32_t f = 0; f < hdr->nfuncs; f++)
        r |= pi_flow_func(&funcs[f], sites, arcs, ctr, nctr, stop, site_count, arc_count, st);
    return r;
}
