/* profile.c — block and edge counts of a function, and the layout's
 * dynamic statistics (profile.h; docs/layout.md). */
#include <stdlib.h>
#include <string.h>

#include "profile.h"

void pf_free(struct fprof *p)
{
    free(p->count);
    free(p->eoff);
    free(p->edge);
    memset(p, 0, sizeof *p);
}

#define UNKNOWN UINT64_MAX

/* Edges lo..hi-1 of a block (through map, if not NULL) that together
 * carry count: when one of them is unknown it gets what the others leave
 * over.  Returns whether it did. */
static int settle(struct fprof *p, uint64_t count, const uint32_t *map, uint32_t lo, uint32_t hi)
{
    uint32_t unknown = 0, which = 0;
    uint64_t known = 0;
    for (uint32_t i = lo; i < hi; i++) {
        uint32_t e = map ? map[i] : i;
        if (p->edge[e] == UNKNOWN) {
            unknown++;
            which = e;
        } else
            known += p->edge[e];
    }
    if (unknown != 1)
        return 0;
    p->edge[which] = count > known ? count - known : 0;
    return 1;
}

/* Flow conservation, to a fixed point: a block whose outgoing edges are
 * all known but one gives that one; so does a block (not the entry) whose
 * incoming edges are all known but one.  Returns whether it changed. */
static int propagate(struct fprof *p, const uint32_t *in_first, const uint32_t *in_edge)
{
    int changed = 0;
    for (uint32_t b = 0; b < p->nblocks; b++) {
        changed |= settle(p, p->count[b], NULL, p->eoff[b], p->eoff[b + 1]);
        if (b == 0)
            continue; /* the entry: entered from outside */
        changed |= settle(p, p->count[b], in_edge, in_first[b], in_first[b + 1]);
    }
    return changed;
}

/* The successor edges that are arcs of the function's flow graph (all
 * but abnormal ones), with their solved counts.  A block's arcs are in its
 * edges' order, so its j-th arc to a site is its j-th successor. */
static void exact_edges(const struct model *md, const struct pi_unit_view *u,
                        const struct pi_func *fn, struct fprof *p)
{
    const struct usum *s = &md->us[u - md->m.units];
    if (!fn->narcs || !s->arc)
        return;
    for (uint32_t a = fn->first_arc; a < fn->first_arc + fn->narcs; a++) {
        const struct pi_arc *x = &u->arcs[a];
        if ((x->flags & PI_ARC_FAKE) || x->src == PI_NONE || x->dst == PI_NONE)
            continue;
        uint32_t b = x->src - p->first;
        if (b >= p->nblocks)
            continue;
        const struct pi_site *st = &u->sites[x->src];
        for (uint32_t j = 0; j < st->nsucc; j++)
            if (u->succs[st->succ_first + j] == x->dst) {
                p->edge[p->eoff[b] + j] = s->arc[a];
                break;
            }
    }
}

int pf_load(const struct model *md, const struct pi_unit_view *u, uint32_t func, struct fprof *p)
{
    memset(p, 0, sizeof *p);
    const struct pi_func *fn = &u->funcs[func];
    p->u = u;
    p->func = func;
    p->first = fn->first_site;
    while (p->nblocks < fn->nsites && u->sites[p->first + p->nblocks].kind == PI_SITE_BLOCK)
        p->nblocks++;
    uint32_t nb = p->nblocks;
    p->count = calloc(nb ? nb : 1, sizeof *p->count);
    p->eoff = calloc(nb + 1, sizeof *p->eoff);
    uint32_t *in_first = calloc(nb + 2, sizeof *in_first);
    if (!p->count || !p->eoff || !in_first)
        goto oom;
    for (uint32_t b = 0; b < nb; b++) {
        const struct pi_site *s = &u->sites[p->first + b];
        p->count[b] = rep_site_count(md, u, p->first + b);
        p->weight = pm_sat_add(p->weight, p->count[b]);
        p->eoff[b + 1] = p->eoff[b] + s->nsucc;
        for (uint32_t j = 0; j < s->nsucc; j++) {
            uint32_t t = u->succs[s->succ_first + j] - p->first;
            if (t < nb)
                in_first[t + 2]++;
        }
    }
    p->nedges = p->eoff[nb];
    p->edge = calloc(p->nedges ? p->nedges : 1, sizeof *p->edge);
    uint32_t *in_edge = calloc(p->nedges ? p->nedges : 1, sizeof *in_edge);
    if (!p->edge || !in_edge) {
        free(in_edge);
        goto oom;
    }
    /* incoming edges by destination (counting sort) */
    for (uint32_t b = 0; b < nb; b++)
        in_first[b + 2] += in_first[b + 1];
    for (uint32_t b = 0; b < nb; b++) {
        const struct pi_site *s = &u->sites[p->first + b];
        for (uint32_t j = 0; j < s->nsucc; j++) {
            uint32_t t = u->succs[s->succ_first + j] - p->first;
            if (t < nb)
                in_edge[in_first[t + 1]++] = p->eoff[b] + j;
        }
    }
    /* in_first[t] .. in_first[t+1] now index in_edge for destination t */
    for (uint32_t e = 0; e < p->nedges; e++)
        p->edge[e] = UNKNOWN;
    exact_edges(md, u, fn, p);
    for (uint32_t b = 0; b < nb; b++) {
        uint32_t n = p->eoff[b + 1] - p->eoff[b];
        for (uint32_t e = p->eoff[b]; e < p->eoff[b + 1]; e++)
            if (p->edge[e] != UNKNOWN)
                continue;               /* an arc's */
            else if (!p->count[b])
                p->edge[e] = 0;         /* never left */
            else if (n == 1)
                p->edge[e] = p->count[b];
    }
    for (uint32_t t = 0; t < nb; t++)
        if (!p->count[t] && t)
            for (uint32_t i = in_first[t]; i < in_first[t + 1]; i++)
                if (p->edge[in_edge[i]] == UNKNOWN)
                    p->edge[in_edge[i]] = 0;  /* never entered */
    for (int round = 0;; round++) {
        while (propagate(p, in_first, in_edge))
            ;
        /* whatever the first fixed point leaves open is an estimate, also
           what later follows from an estimate */
        if (round == 0)
            for (uint32_t e = 0; e < p->nedges; e++)
                p->nestimated += p->edge[e] == UNKNOWN;
        /* what is left: the first block with open edges shares out what it
           still has in proportion to what their destinations still need */
        uint32_t b = 0;
        for (; b < nb; b++) {
            uint32_t e = p->eoff[b];
            while (e < p->eoff[b + 1] && p->edge[e] != UNKNOWN)
                e++;
            if (e < p->eoff[b + 1])
                break;
        }
        if (b == nb)
            break;
        uint64_t have = p->count[b];
        for (uint32_t e = p->eoff[b]; e < p->eoff[b + 1]; e++)
            if (p->edge[e] != UNKNOWN)
                have = have > p->edge[e] ? have - p->edge[e] : 0;
        long double need_sum = 0;
        uint32_t open = 0;
        long double need[p->eoff[b + 1] - p->eoff[b]];
        const struct pi_site *s = &u->sites[p->first + b];
        for (uint32_t j = 0; j < s->nsucc; j++) {
            uint32_t e = p->eoff[b] + j;
            need[j] = 0;
            if (p->edge[e] != UNKNOWN)
                continue;
            open++;
            uint32_t t = u->succs[s->succ_first + j] - p->first;
            uint64_t got = 0;
            for (uint32_t i = in_first[t]; i < in_first[t + 1]; i++)
                if (p->edge[in_edge[i]] != UNKNOWN)
                    got += p->edge[in_edge[i]];
            need[j] = p->count[t] > got ? (long double)(p->count[t] - got) : 0;
            need_sum += need[j];
        }
        uint64_t left = have;
        uint32_t last = 0;
        for (uint32_t j = 0; j < s->nsucc; j++) {
            uint32_t e = p->eoff[b] + j;
            if (p->edge[e] != UNKNOWN)
                continue;
            uint64_t v = need_sum > 0 ? (uint64_t)((long double)have * need[j] / need_sum)
                                      : have / open;
            v = v > left ? left : v;
            p->edge[e] = v;
            left -= v;
            last = e;
        }
        p->edge[last] += left; /* rounding */
    }
    free(in_edge);
    free(in_first);
    return 0;
oom:
    free(in_first);
    pf_free(p);
    return rep_oom();
}

/* ---- dynamic statistics -------------------------------------------------- */

/* The instructions block copies k0 .. k1 (ranges rix[k]) run in `count`
 * runs, each copy's runs between runlo[k] and runhi[k]: the least and the
 * most (the runs not bound to a copy go to the copies with the fewest, the
 * most instructions first) and an estimate (those runs shared in proportion
 * to what each copy may still take). */
static void copy_insns(const struct pi_meta *m, const uint32_t *rix, const uint64_t *runlo,
                       const uint64_t *runhi, uint32_t k0, uint32_t k1, uint64_t count,
                       long double *lo, long double *hi, long double *mid)
{
    long double base = 0, sumlo = 0, room = 0;
    for (uint32_t k = k0; k < k1; k++) {
        base += (long double)runlo[k] * m->ranges[rix[k]].ninsns;
        sumlo += runlo[k];
        room += runhi[k] - runlo[k];
    }
    long double rest = count > sumlo ? (long double)count - sumlo : 0;
    if (rest > room)
        rest = room;
    *mid = base;
    for (uint32_t k = k0; k < k1; k++)
        if (room > 0)
            *mid += rest * (runhi[k] - runlo[k]) / room * m->ranges[rix[k]].ninsns;
    /* fewest instructions first, then most: selection over the copies */
    for (int most = 0; most < 2; most++) {
        long double left = rest, sum = base;
        uint32_t used_lo = 0; /* instructions per run already taken */
        int first = 1;
        while (left > 0) {
            uint32_t best = k1, bn = 0;
            for (uint32_t k = k0; k < k1; k++) {
                uint32_t n = m->ranges[rix[k]].ninsns;
                if (runhi[k] == runlo[k] || (!first && (most ? n >= used_lo : n <= used_lo)))
                    continue;
                if (best == k1 || (most ? n > bn : n < bn))
                    best = k, bn = n;
            }
            if (best == k1)
                break;
            /* every copy with bn instructions per run */
            for (uint32_t k = k0; k < k1 && left > 0; k++)
                if (runhi[k] != runlo[k] && m->ranges[rix[k]].ninsns == bn) {
                    long double take = runhi[k] - runlo[k];
                    take = take < left ? take : left;
                    sum += take * bn;
                    left -= take;
                }
            used_lo = bn;
            first = 0;
        }
        *(most ? hi : lo) = sum;
    }
}

int pf_dynstats(const struct model *md, struct dynstats *d)
{
    const struct pi_meta *m = &md->m;
    memset(d, 0, sizeof *d);
    long double insns_lo = 0, insns_hi = 0, insns = 0;
    struct cf_text *text = md->prog ? cf_text_load(md->prog) : NULL;
    for (size_t i = 0; i < m->nunits; i++) {
        const struct pi_unit_view *u = &m->units[i];
        /* per site: its ranges (rix[rfirst[s] .. rfirst[s+1])), instructions */
        uint32_t ns = u->hdr.nsites;
        uint32_t *rfirst = calloc(ns + 2, sizeof *rfirst);
        uint32_t *ni = calloc(ns + 1, sizeof *ni);
        uint32_t *rix = NULL;
        uint64_t *ftlo = NULL, *fthi = NULL, *runlo = NULL, *runhi = NULL;
        if (!rfirst || !ni)
            goto oom;
        for (size_t k = 0; k < m->nranges; k++) {
            const struct pi_range *a = &m->ranges[k];
            if (a->addr && a->unit_id == u->hdr.unit_id && a->site < ns) {
                rfirst[a->site + 2]++;
                ni[a->site] += a->ninsns;
            }
        }
        for (uint32_t k = 0; k < ns; k++)
            rfirst[k + 2] += rfirst[k + 1];
        rix = calloc(rfirst[ns + 1] + 1, sizeof *rix);
        if (!rix)
            goto oom;
        for (size_t k = 0; k < m->nranges; k++) {
            const struct pi_range *a = &m->ranges[k];
            if (a->addr && a->unit_id == u->hdr.unit_id && a->site < ns)
                rix[rfirst[a->site + 1]++] = (uint32_t)k;
        }
        /* rfirst[s] .. rfirst[s+1] now index rix for site s */
        /* the functions' blocks: each copy's runs x its instructions
           (below); other sites (ni[k] = 0 once done): the count x the
           ranges' mean */
        for (uint32_t f = 0; f < u->hdr.nfuncs; f++) {
            struct fprof p;
            if (pf_load(md, u, f, &p))
                goto fail;
            uint32_t base = rfirst[p.first], ncopies = rfirst[p.first + p.nblocks] - base;
            ftlo = calloc(p.nedges ? p.nedges : 1, sizeof *ftlo);
            fthi = calloc(p.nedges ? p.nedges : 1, sizeof *fthi);
            runlo = calloc(ncopies + 1, sizeof *runlo);
            runhi = calloc(ncopies + 1, sizeof *runhi);
            if (!ftlo || !fthi || !runlo || !runhi) {
                pf_free(&p);
                goto oom;
            }
            if (cf_fallthrough(m, &p, rfirst, rix, text, ftlo, fthi, runlo, runhi)) {
                pf_free(&p);
                goto fail;
            }
            for (uint32_t b = 0; b < p.nblocks; b++) {
                uint32_t k0 = rfirst[p.first + b] - base, k1 = rfirst[p.first + b + 1] - base;
                long double lo, hi, mid;
                copy_insns(m, rix + base, runlo, runhi, k0, k1, p.count[b], &lo, &hi, &mid);
                insns_lo += lo;
                insns_hi += hi;
                insns += mid;
                ni[p.first + b] = 0;
            }
            uint64_t fflow = 0;
            for (uint32_t b = 0; b < p.nblocks; b++) {
                const struct pi_site *s = &u->sites[p.first + b];
                for (uint32_t j = 0; j < s->nsucc; j++) {
                    uint32_t e = p.eoff[b] + j;
                    uint64_t c = p.edge[e];
                    uint32_t t = u->succs[s->succ_first + j];
                    if (!c)
                        continue;
                    if (rfirst[p.first + b] == rfirst[p.first + b + 1] ||
                        t >= ns || rfirst[t] == rfirst[t + 1]) {
                        d->unplaced += c;
                        continue;
                    }
                    fflow += c;
                    /* what surely falls through does; what may is counted
                       taken, and said (docs/layout.md) */
                    d->taken += c - ftlo[e];
                    d->copied += fthi[e] - ftlo[e];
                }
            }
            d->flow += fflow;
            d->functions += fflow != 0;
            pf_free(&p);
            free(ftlo), free(fthi), free(runlo), free(runhi);
            ftlo = fthi = runlo = runhi = NULL;
        }
        for (uint32_t k = 0; k < ns; k++) {
            uint32_t nr = rfirst[k + 1] - rfirst[k];
            if (nr && ni[k]) {
                long double x = (long double)rep_site_count(md, u, k) * ni[k] / nr;
                insns_lo += x;
                insns_hi += x;
                insns += x;
            }
        }
        free(rfirst), free(ni), free(rix);
        continue;
    oom:
        rep_oom();
    fail:
        free(rfirst), free(ni), free(rix), free(ftlo), free(fthi), free(runlo), free(runhi);
        cf_text_free(text);
        return -1;
    }
    d->insns_lo = (uint64_t)(insns_lo + 0.5L);
    d->insns_hi = (uint64_t)(insns_hi + 0.5L);
    d->insns = (uint64_t)(insns + 0.5L);
    cf_text_free(text);
    return 0;
}

struct cedge {
    uint64_t count;
    uint32_t from, to;
};

static int cmp_cedge(const void *a, const void *b)
{
    const struct cedge *x = a, *y = b;
    PI_CMP_RET(y->count, x->count);
    PI_CMP_RET(x->from, y->from);
    return x->to < y->to ? -1 : x->to > y->to;
}

static uint32_t chain_head(uint32_t *head, uint32_t b)
{
    while (head[b] != b) {
        head[b] = head[head[b]];
        b = head[b];
    }
    return b;
}

/* Greedy chaining (Pettis and Hansen's bottom-up positioning): take edges
 * hottest first, link from -> to when from has no layout successor yet,
 * to no layout predecessor, to is not the entry, and they are in different
 * chains.  The linked flow falls through. */
int pf_dynstats_predicted(const struct model *md, struct dynstats *d)
{
    const struct pi_meta *m = &md->m;
    struct dynstats before;
    if (pf_dynstats(md, &before))
        return -1;
    *d = before;
    d->taken = 0;
    d->copied = 0; /* one copy per block: chained or not */
    for (size_t i = 0; i < m->nunits; i++) {
        const struct pi_unit_view *u = &m->units[i];
        uint32_t *nr = calloc(u->hdr.nsites + 1, sizeof *nr);
        if (!nr)
            return rep_oom();
        for (size_t k = 0; k < m->nranges; k++) {
            const struct pi_range *a = &m->ranges[k];
            if (a->addr && a->unit_id == u->hdr.unit_id && a->site < u->hdr.nsites)
                nr[a->site]++;
        }
        for (uint32_t f = 0; f < u->hdr.nfuncs; f++) {
            struct fprof p;
            if (pf_load(md, u, f, &p)) {
                free(nr);
                return -1;
            }
            struct cedge *ce = calloc(p.nedges ? p.nedges : 1, sizeof *ce);
            uint32_t *head = calloc(p.nblocks ? p.nblocks : 1, sizeof *head);
            uint8_t *has_succ = calloc(p.nblocks ? p.nblocks : 1, 1);
            uint8_t *has_pred = calloc(p.nblocks ? p.nblocks : 1, 1);
            if (!ce || !head || !has_succ || !has_pred) {
                free(ce), free(head), free(has_succ), free(has_pred), free(nr);
                pf_free(&p);
                return rep_oom();
            }
            size_t n = 0;
            uint64_t flow = 0;
            for (uint32_t b = 0; b < p.nblocks; b++) {
                head[b] = b;
                const struct pi_site *s = &u->sites[p.first + b];
                for (uint32_t j = 0; j < s->nsucc; j++) {
                    uint64_t c = p.edge[p.eoff[b] + j];
                    uint32_t t = u->succs[s->succ_first + j];
                    if (!c || !nr[p.first + b] || !nr[t])
                        continue;
                    flow += c;
                    ce[n++] = (struct cedge){ c, b, t - p.first };
                }
            }
            qsort(ce, n, sizeof *ce, cmp_cedge);
            uint64_t chained = 0;
            for (size_t k = 0; k < n; k++) {
                uint32_t a = ce[k].from, b = ce[k].to;
                if (b == 0 || a == b || has_succ[a] || has_pred[b] ||
                    chain_head(head, a) == chain_head(head, b))
                    continue;
                has_succ[a] = has_pred[b] = 1;
                head[chain_head(head, b)] = chain_head(head, a);
                chained += ce[k].count;
            }
            d->taken += flow - chained;
            free(ce), free(head), free(has_succ), free(has_pred);
            pf_free(&p);
        }
        free(nr);
    }
    return 0;
}

static double pct(uint64_t a, uint64_t b)
{
    return b ? 100.0 * (double)a / (double)b : 0.0;
}

void pf_dynstats_print(FILE *f, const char *title, const struct dynstats *d)
{
    fprintf(f, "%s:\n", title);
    if (d->insns_lo != d->insns_hi)
        fprintf(f, "  executed instructions  %llu (%llu to %llu: copied blocks)\n",
                (unsigned long long)d->insns, (unsigned long long)d->insns_lo,
                (unsigned long long)d->insns_hi);
    else
        fprintf(f, "  executed instructions  %llu\n", (unsigned long long)d->insns);
    fprintf(f, "  executed edges         %llu (in %u functions; %llu more with a block "
               "without code)\n", (unsigned long long)d->flow, d->functions,
            (unsigned long long)d->unplaced);
    fprintf(f, "  taken branches         %llu (%.1f%%)\n", (unsigned long long)d->taken,
            pct(d->taken, d->flow));
    if (d->copied)
        fprintf(f, "  of which copied        %llu (%.1f%%): from blocks with several copies, "
                   "the counts cannot tell (fall-through %.1f%% to %.1f%%)\n",
                (unsigned long long)d->copied, pct(d->copied, d->flow),
                pct(d->flow - d->taken, d->flow), pct(d->flow - d->taken + d->copied, d->flow));
    fprintf(f, "  fall-through           %llu (%.1f%%)\n",
            (unsigned long long)(d->flow - d->taken), pct(d->flow - d->taken, d->flow));
}

/* ---- call arcs ------------------------------------------------------------ */

static int cmp_arc(const void *a, const void *b)
{
    const struct call_arc *x = a, *y = b;
    PI_CMP_RET(y->count, x->count);
    if (x->u != y->u)
        return x->u->hdr.unit_id < y->u->hdr.unit_id ? -1 : 1;
    return x->site < y->site ? -1 : x->site > y->site;
}

/* An indirect call site's recorded targets (ICALL records, docs/layout.md
 * "Indirect calls") as arcs with the exact calls; the number added, -1 when
 * out of memory. */
static int icall_arcs(const struct model *md, const struct pi_unit_view *u, uint32_t site,
                      struct call_arc **arcs, size_t *cap, size_t *n)
{
    const struct pi_trace *t = rind_combined(md);
    int added = 0;
    if (!t || !md->have_dbg)
        return 0;
    for (size_t i = 0; i < t->nicalls; i++) {
        const struct pi_rec_icall *c = &t->icalls[i];
        if (c->unit_id != u->hdr.unit_id || c->site != site || !c->count)
            continue;
        const struct pi_dfunc *df = pi_debug_func(&md->dbg, c->target);
        if (!df || !df->name || df->lo != c->target)
            continue;
        if (pi_grow((void **)arcs, cap, *n, sizeof **arcs))
            return -1;
        (*arcs)[(*n)++] = (struct call_arc){ u, u->sites[site].func, site,
                                             pm_fn_key(pm_dfunc_linkage(df)), c->count };
        added++;
    }
    return added;
}

int pf_call_arcs(const struct model *md, struct call_arc **arcs, size_t *n)
{
    const struct pi_meta *m = &md->m;
    size_t cap = 0;
    *arcs = NULL;
    *n = 0;
    for (size_t i = 0; i < m->nunits; i++) {
        const struct pi_unit_view *u = &m->units[i];
        for (uint32_t k = 0; k < u->hdr.nsites; k++) {
            const struct pi_site *s = &u->sites[k];
            if (s->kind != PI_SITE_CALL || s->arg >= u->hdr.nsites)
                continue;
            const char *callee = pi_unit_str(u, s->region);
            int targets = *callee ? 0 : icall_arcs(md, u, k, arcs, &cap, n);
            if (targets > 0)
                continue; /* the recorded targets replace the unknown callee */
            if (targets < 0 || pi_grow((void **)arcs, &cap, *n, sizeof **arcs)) {
                free(*arcs);
                *arcs = NULL;
                return rep_oom();
            }
            (*arcs)[(*n)++] = (struct call_arc){ u, s->func, k, callee,
                                                 rep_site_count(md, u, s->arg) };
        }
    }
    if (*n)
        qsort(*arcs, *n, sizeof **arcs, cmp_arc);
    return 0;
}
