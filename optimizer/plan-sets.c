/* plan-sets.c — `pmopt plan --order=sets [--target=PROG2]`: the Ext-TSP
 * order spread over the cache sets by its set pressure (order-sets.h,
 * docs/layout.md "Set pressure").
 *
 * A function's executed ranges are its blocks' CODE ranges in the profiled
 * build (a block's code runs to the next range, as in the cache model),
 * with their counts.  With --target, the sizes and alignments are those of
 * PROG2's objects (the rebuilt program the relink will place: built
 * without counters, so smaller), and when a function's size differs, the
 * extent of its CODE ranges (the counting copy of a counted function) is
 * scaled onto PROG2's section — the counted and the plain build of one
 * feedback file lay out the same blocks in about the same order, the
 * counted one with a counter update in each. */
#include <gelf.h>
#include <libelf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "layout.h"
#include "order-sets.h"
#include "plan-sets.h"
#include "pmopt.h"

/* Size and alignment of every non-cold text section of sym in t, as the
 * relink packs them (cmd-relink.c piece_of); 0 if none. */
static uint64_t target_size(const struct oscan *t, const char *sym, uint64_t *align)
{
    uint64_t size = 0;
    *align = 1;
    for (size_t i = 0; i < t->nsecs; i++) {
        const struct osec *o = &t->secs[i];
        if (o->kind != OS_TEXT || o->cold || strcmp(o->sym, sym))
            continue;
        uint64_t a = o->align ? o->align : 1;
        size = (size + a - 1) / a * a + o->size;
        if (a > *align)
            *align = a;
    }
    return size;
}

int plan_sets(const struct plan_sets_in *in, uint32_t *order, size_t n)
{
    const struct oscan *s = in->s;
    const struct cgeom *g = in->g;
    struct ord_cache c = { g->sets, g->ways, g->line };
    struct ord_fn *f = calloc(in->nn ? in->nn : 1, sizeof *f);
    struct ord_block *blk = malloc((s->nranges ? s->nranges : 1) * sizeof *blk);
    uint32_t *base = malloc((n ? n : 1) * sizeof *base), *ids = NULL;
    uint64_t *at = NULL;
    struct pi_meta tm;
    struct oscan t;
    char **paths = NULL;
    size_t npaths = 0, nfs = 0, missing = 0;
    struct pm_sym *fs = NULL;
    int have_tm = 0, have_t = 0, fd = -1, status = -1, oom = 0;
    Elf *e = NULL;
    memset(&t, 0, sizeof t);
    if (!f || !blk || !base) {
        pm_error("out of memory");
        goto done;
    }
    if (in->target) {
        struct pi_err err;
        if (pi_meta_read(in->target, &tm, &err)) {
            pm_error("--target=%s: %s", in->target, err.msg);
            goto done;
        }
        have_tm = 1;
        if (!tm.has_link) {
            pm_error("--target=%s has no recorded link (.perfinst.link): link it with "
                     "perfinst-ld", in->target);
            goto done;
        }
        if (oscan_link_inputs(&tm, &paths, &npaths) || oscan_read(&t, paths, npaths))
            goto done;
        have_t = 1;
    }
    /* every ordered function's executed ranges, scaled to the target */
    size_t nb = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t sec = order[i];
        const struct osec *o = &s->secs[sec];
        uint64_t psize = o->size ? o->size : 1, tsize = psize, talign = o->align;
        if (have_t) {
            tsize = target_size(&t, o->sym, &talign);
            if (!tsize) {
                missing++;
                f[sec] = (struct ord_fn){ 0, 1, NULL, 0 };
                continue;
            }
        }
        f[sec].size = tsize, f[sec].align = talign ? talign : 1;
        f[sec].b = blk + nb;
        size_t lo0 = 0, hi0 = s->nranges;
        while (lo0 < hi0) {
            size_t mid = (lo0 + hi0) / 2;
            if (s->ranges[mid].sec < sec)
                lo0 = mid + 1;
            else
                hi0 = mid;
        }
        /* the ranges' extent: a counted function holds a clean and a
           counting copy (docs/design.md), the ranges are the counting
           copy's; scaled to another build, the extent maps onto it whole */
        uint64_t rmin = 0, rmax = psize;
        if (tsize != psize) {
            rmin = UINT64_MAX, rmax = 0;
            for (size_t k = lo0; k < s->nranges && s->ranges[k].sec == sec; k++) {
                const struct orange *x = &s->ranges[k];
                if (x->off < rmin)
                    rmin = x->off;
                if (x->off + x->len > rmax)
                    rmax = x->off + x->len;
            }
            if (rmax > o->size)
                rmax = o->size;
            if (rmin >= rmax)
                rmin = 0, rmax = psize;
        }
        for (size_t k = lo0; k < s->nranges && s->ranges[k].sec == sec; k++) {
            if (!in->count[k])
                continue;
            uint64_t lo = s->ranges[k].off, hi = o->size;
            for (size_t m = k + 1; m < s->nranges && s->ranges[m].sec == sec; m++)
                if (s->ranges[m].off > lo) {
                    hi = s->ranges[m].off;
                    break;
                }
            if (hi < lo + s->ranges[k].len)
                hi = lo + s->ranges[k].len;
            if (hi > o->size)
                hi = o->size;
            if (hi <= lo)
                hi = lo + 1;
            if (hi > rmax)
                hi = rmax;
            if (lo < rmin || lo >= rmax)
                continue;
            __extension__ typedef unsigned __int128 u128;
            uint64_t a = (uint64_t)((u128)(lo - rmin) * tsize / (rmax - rmin)),
                     b = (uint64_t)((u128)(hi - rmin) * tsize / (rmax - rmin));
            if (b <= a)
                b = a + 1;
            if (b > tsize)
                b = tsize;
            if (a >= b)
                continue;
            blk[nb++] = (struct ord_block){ a, b, in->count[k] };
            f[sec].nb++;
        }
    }
    memcpy(base, order, n * sizeof *base);
    uint64_t before = ord_set_pressure_seq(f, base, n, &c);
    long ch = ord_spread(f, in->nodes, in->nn, in->arcs, in->na, &c, order, n, in->passes);
    if (ch < 0) {
        pm_error("out of memory");
        goto done;
    }
    uint64_t after = ord_set_pressure_seq(f, order, n, &c);
    printf("  set pressure (fetches beyond the %u hottest lines of each set%s): %s order %llu, "
           "spread %llu (%ld swaps and moves)\n", g->ways,
           have_t ? ", sizes of the target" : "", ord_name(in->base_alg),
           (unsigned long long)before, (unsigned long long)after, ch);
    printf("  Ext-TSP score %.0f -> %.0f\n",
           ord_exttsp_score(in->nodes, in->nn, in->arcs, in->na, base, n),
           ord_exttsp_score(in->nodes, in->nn, in->arcs, in->na, order, n));
    if (have_t) {
        if (missing)
            printf("  target %s: %zu of the %zu ordered functions have no section there "
                   "(inlined or removed)\n", in->target, missing, n);
        /* the target's own layout, for comparison */
        if ((fd = open(in->target, O_RDONLY)) < 0 || !(e = elf_begin(fd, ELF_C_READ, NULL)) ||
            (oom = pm_elf_symbols(e, STT_FUNC, &fs, &nfs)) || !nfs) {
            if (fd >= 0 && e && !oom)
                status = 0;
            else
                pm_error("%s: cannot read its symbols", in->target);
            goto done;
        }
        ids = malloc((n ? n : 1) * sizeof *ids);
        at = malloc((n ? n : 1) * sizeof *at);
        if (!ids || !at) {
            pm_error("out of memory");
            goto done;
        }
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            struct pm_sym key = { s->secs[order[i]].sym, 0, 0 };
            const struct pm_sym *hit = bsearch(&key, fs, nfs, sizeof *fs, pm_sym_cmp);
            if (hit && f[order[i]].nb)
                ids[k] = order[i], at[k++] = hit->addr;
        }
        uint32_t lines, over;
        uint64_t own = ord_set_pressure(f, ids, at, k, &c, &lines, &over);
        printf("  set pressure of the target as linked: %llu (%u hot lines, %u of %u sets over "
               "%u ways); LRU misses (Che's approximation) %.0f\n", (unsigned long long)own, lines,
               over, g->sets, g->ways, ord_lru_misses(f, ids, at, k, &c));
    }
    status = 0;
done:
    if (e)
        elf_end(e);
    if (fd >= 0)
        close(fd);
    free(fs), free(ids), free(at), free(f), free(blk), free(base), free(paths);
    if (have_t)
        oscan_free(&t);
    if (have_tm)
        pi_meta_free(&tm);
    return status;
}
