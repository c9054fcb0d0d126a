/* copyflow.c — how much of each edge of a function falls through in PROG's
 * layout when its blocks have several copies (profile.h, cf_fallthrough;
 * docs/layout.md "Dynamic statistics").
 *
 * A block's copies are its site's code ranges.  All copies update the
 * site's one counter, so the counts give a block's executions, not each
 * copy's.  Copy i of block A falls through to block B when its range ends
 * where a range of B begins (up to PAD_MAX bytes of padding): then its
 * executions that go on to B are fall-throughs (its branch goes elsewhere),
 * and every other execution of A -> B is a taken branch.  Per copy we keep
 * an interval of executions, per (copy, edge) that falls through an
 * interval of its flow, and tighten them to a fixed point with what the
 * code and the counts say:
 *
 *   - the copies of A run count(A) times in all;
 *   - a copy runs at least as often as code falls into it: the flow of
 *     the copies of A's predecessors that end where it begins;
 *     and at most count(A) minus what falls into the other copies;
 *   - a copy whose range ends in no branch or return (ntype, CODE chunk)
 *     leaves only by falling through: all of its runs go on to the block
 *     it falls into;
 *   - the flow of A -> B is the sum over A's copies; a copy's share is at
 *     most its runs, at least the edge's flow minus what the other copies
 *     can carry, and at least its runs minus A's other edges.
 *
 * The lower end of each edge's fall-through interval is what the
 * statistics count as falling through (the rest is taken); the width is
 * what the counts cannot tell (dynstats.copied).  Without copies every
 * interval is exact: an edge falls through when the source's one range
 * ends where a range of the target begins. */
#include <stdlib.h>
#include <string.h>

#include "profile.h"

struct ftv {
    uint32_t from, to;     /* local copy indices: from ends where to begins */
    uint32_t a, edge;      /* the source block (index in p) and its edge entry */
    uint64_t lo, hi;
};

static uint64_t sub0(uint64_t a, uint64_t b)
{
    return a > b ? a - b : 0;
}

static uint64_t min64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

static uint64_t max64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* Lower a's upper bound / raise its lower bound; whether it changed. */
static int set_hi(uint64_t *hi, uint64_t v)
{
    if (v < *hi) {
        *hi = v;
        return 1;
    }
    return 0;
}

static int set_lo(uint64_t *lo, uint64_t v)
{
    if (v > *lo) {
        *lo = v;
        return 1;
    }
    return 0;
}

int cf_fallthrough(const struct pi_meta *m, const struct fprof *p, const uint32_t *rfirst,
                   const uint32_t *rix, uint64_t *ftlo, uint64_t *fthi)
{
    const struct pi_unit_view *u = p->u;
    uint32_t base = rfirst[p->first], ncopies = rfirst[p->first + p->nblocks] - base;
    memset(ftlo, 0, (p->nedges ? p->nedges : 1) * sizeof *ftlo);
    memset(fthi, 0, (p->nedges ? p->nedges : 1) * sizeof *fthi);
    if (!ncopies)
        return 0;
    uint64_t *clo = calloc(ncopies, sizeof *clo), *chi = calloc(ncopies, sizeof *chi);
    uint64_t *inlo = calloc(ncopies, sizeof *inlo), *inhi = calloc(ncopies, sizeof *inhi);
    uint32_t *nft = calloc(ncopies, sizeof *nft);
    uint8_t *nobranch = calloc(ncopies, 1);
    uint64_t *out = calloc(p->nblocks ? p->nblocks : 1, sizeof *out);
    uint64_t *elo = calloc(p->nedges ? p->nedges : 1, sizeof *elo);
    struct ftv *v = NULL;
    size_t nv = 0, cap = 0;
    int rc = -1;
    if (!clo || !chi || !inlo || !inhi || !nft || !nobranch || !out || !elo)
        goto done;
    for (uint32_t b = 0; b < p->nblocks; b++) {
        for (uint32_t e = p->eoff[b]; e < p->eoff[b + 1]; e++)
            out[b] = pm_sat_add(out[b], p->edge[e]);
        const struct pi_site *s = &u->sites[p->first + b];
        uint32_t k0 = rfirst[p->first + b], k1 = rfirst[p->first + b + 1];
        for (uint32_t k = k0; k < k1; k++) {
            uint32_t c = k - base;
            const struct pi_range *a = &m->ranges[rix[k]];
            clo[c] = k1 - k0 == 1 ? p->count[b] : 0;
            chi[c] = p->count[b];
            nobranch[c] = !a->ntype[PI_T_BRANCH] && !a->ntype[PI_T_RET];
            /* the ranges that start where this one ends (several when
               some are empty) */
            size_t j0 = rix[k] + 1;
            while (j0 < m->nranges && m->ranges[j0].addr < a->addr + a->length)
                j0++;
            for (size_t j = j0; j < m->nranges && m->ranges[j].addr == m->ranges[j0].addr; j++) {
                const struct pi_range *n = &m->ranges[j];
                if (n->unit_id != u->hdr.unit_id || n->addr - (a->addr + a->length) > PF_PAD_MAX)
                    continue;
                uint32_t t = n->site;
                if (t < p->first || t >= p->first + p->nblocks)
                    continue;
                uint32_t to = UINT32_MAX;
                for (uint32_t q = rfirst[t]; q < rfirst[t + 1]; q++)
                    if (rix[q] == j)
                        to = q - base;
                for (uint32_t sj = 0; sj < s->nsucc && to != UINT32_MAX; sj++) {
                    uint32_t e = p->eoff[b] + sj;
                    if (u->succs[s->succ_first + sj] != t)
                        continue;
                    int dup = 0;
                    for (size_t w = nv; w-- > 0 && v[w].from == c;)
                        dup |= v[w].edge == e;
                    if (dup)
                        continue;
                    if (pi_grow((void **)&v, &cap, nv, sizeof *v))
                        goto done;
                    nft[c]++;
                    v[nv++] = (struct ftv){ c, to, b, e, 0, min64(p->edge[e], p->count[b]) };
                }
            }
        }
    }
    for (int round = 0; round < 1000; round++) {
        int changed = 0;
        /* what falls into each copy, and each edge's sure fall-through */
        memset(inlo, 0, ncopies * sizeof *inlo);
        memset(inhi, 0, ncopies * sizeof *inhi);
        memset(elo, 0, (p->nedges ? p->nedges : 1) * sizeof *elo);
        for (size_t w = 0; w < nv; w++) {
            inlo[v[w].to] = pm_sat_add(inlo[v[w].to], v[w].lo);
            inhi[v[w].to] = pm_sat_add(inhi[v[w].to], v[w].hi);
            elo[v[w].edge] = pm_sat_add(elo[v[w].edge], v[w].lo);
        }
        /* the copies' runs */
        for (uint32_t b = 0; b < p->nblocks; b++) {
            uint32_t k0 = rfirst[p->first + b] - base, k1 = rfirst[p->first + b + 1] - base;
            uint64_t sumlo = 0, sumhi = 0, suminlo = 0, c = p->count[b];
            for (uint32_t k = k0; k < k1; k++) {
                sumlo = pm_sat_add(sumlo, clo[k]);
                sumhi = pm_sat_add(sumhi, chi[k]);
                suminlo = pm_sat_add(suminlo, inlo[k]);
            }
            for (uint32_t k = k0; k < k1; k++) {
                /* the other copies' bounds, as summed above */
                uint64_t ohi = sumhi - chi[k], olo = sumlo - clo[k], oin = suminlo - inlo[k];
                changed |= set_lo(&clo[k], sub0(c, ohi));
                changed |= set_lo(&clo[k], min64(inlo[k], c));
                changed |= set_hi(&chi[k], sub0(c, olo));
                changed |= set_hi(&chi[k], sub0(c, oin));
                if (chi[k] < clo[k])
                    chi[k] = clo[k]; /* counts that do not add up (exit): keep going */
            }
        }
        /* the fall-through flow per copy and edge */
        for (size_t w = 0; w < nv; w++) {
            struct ftv *f = &v[w];
            uint32_t b = f->a, k0 = rfirst[p->first + b] - base,
                     k1 = rfirst[p->first + b + 1] - base;
            uint64_t e = p->edge[f->edge], others_hi = 0;
            for (uint32_t k = k0; k < k1; k++)
                if (k != f->from)
                    others_hi = pm_sat_add(others_hi, chi[k]);
            changed |= set_hi(&f->hi, chi[f->from]);
            changed |= set_hi(&f->hi, sub0(e, elo[f->edge] - f->lo));
            changed |= set_lo(&f->lo, sub0(e, others_hi));
            changed |= set_lo(&f->lo, sub0(clo[f->from], out[b] - e));
            if (nobranch[f->from] && nft[f->from] == 1)
                /* it leaves only by falling through, into f->to */
                changed |= set_lo(&f->lo, min64(clo[f->from], e));
            if (f->hi < f->lo)
                f->hi = f->lo;
        }
        if (!changed)
            break;
    }
    for (size_t w = 0; w < nv; w++) {
        ftlo[v[w].edge] = pm_sat_add(ftlo[v[w].edge], v[w].lo);
        fthi[v[w].edge] = pm_sat_add(fthi[v[w].edge], v[w].hi);
    }
    for (uint32_t e = 0; e < p->nedges; e++) {
        ftlo[e] = min64(ftlo[e], p->edge[e]);
        fthi[e] = max64(min64(fthi[e], p->edge[e]), ftlo[e]);
    }
    rc = 0;
done:
    free(clo), free(chi), free(inlo), free(inhi), free(nft), free(nobranch), free(out),
        free(elo), free(v);
    return rc ? rep_oom() : 0;
}
