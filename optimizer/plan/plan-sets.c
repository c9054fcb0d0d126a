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


/* Size and alignment of every non-cold text section of sym in t (cold = 0),
 * or of every .text.unlikely.sym (cold = 1), as the relink packs them
 * (cmd-relink.c piece_of, cold_piece_of); 0 if none. */
static uint64_t target_size(const struct oscan *t, const char *sym, int cold, uint64_t *align)
{
    uint64_t size = 0;
    *align = 1;
    for (size_t i = 0; i < t->nsecs; i++) {
        const struct osec *o = &t->secs[i];
        if (o->kind != OS_TEXT || strcmp(o->sym, sym) || (cold ? !oscan_cold_part(o) : o->cold))
            continue;
        uint64_t a = o->align ? o->align : 1;
        size = (size + a - 1) / a * a + o->size;
        if (a > *align)
            *align = a;
    }
    return size;
}

/* The bytes [lo, hi) of the extent [rmin, rmax) scaled onto [0, tsize) (at
 * least a byte, within tsize), executed count times: appended to
 * blk[*nb..) unless empty. */
static void add_scaled(uint64_t lo, uint64_t hi, uint64_t rmin, uint64_t rmax, uint64_t tsize, uint64_t count,
                       struct ord_block *blk, size_t *nb)
{
    __extension__ typedef unsigned __int128 u128;
    uint64_t a = (uint64_t)((u128)(lo - rmin) * tsize / (rmax - rmin)),
             b = (uint64_t)((u128)(hi - rmin) * tsize / (rmax - rmin));
    if (b <= a)
        b = a + 1;
    if (b > tsize)
        b = tsize;
    if (a < b)
        blk[(*nb)++] = (struct ord_block){ a, b, count };
}

/* Section sec's executed ranges (a block runs to the next range), scaled
 * from the profiled section's size onto tsize: appended to blk[*nb..). */
static size_t section_ranges(const struct oscan *s, const uint64_t *count, uint32_t sec,
                             uint64_t tsize, int whole, struct ord_block *blk, size_t *nb)
{
    const struct osec *o = &s->secs[sec];
    uint64_t psize = o->size ? o->size : 1;
    size_t n0 = *nb, lo0 = oscan_first_range(s, sec);
    /* the ranges' extent: a counted function holds a clean and a
       counting copy (docs/design.md), the ranges are the counting
       copy's; scaled to another build, the extent maps onto it whole.
       A counting copy of its own (F.count.N, counting=function) is
       scaled whole onto F's section, as the cache model does
       (plan-order.c add_section_lines) */
    uint64_t rmin = 0, rmax = psize;
    if (tsize != psize && !whole) {
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
        if (!count[k])
            continue;
        uint64_t lo = s->ranges[k].off, hi = oscan_range_end(s, k);
        if (hi > o->size)
            hi = o->size;
        if (hi <= lo)
            hi = lo + 1;
        if (hi > rmax)
            hi = rmax;
        if (lo < rmin || lo >= rmax)
            continue;
        add_scaled(lo, hi, rmin, rmax, tsize, count[k], blk, nb);
    }
    return *nb - n0;
}

/* Section sec's clean ranges (layout.h: a counted function's own code by
 * its counting copy's sites), the executed ones scaled from its size onto
 * tsize, appended to blk[*nb..); -1 when it has none (then its ranges, or
 * its counting copy's, stand for it). */
static long clean_ranges(const struct oscan *s, const uint64_t *ccount, uint32_t sec,
                         uint64_t tsize, struct ord_block *blk, size_t *nb)
{
    size_t lo0 = oscan_first_of(s->cranges, s->ncranges, sec), n0 = *nb;
    uint64_t psize = s->secs[sec].size ? s->secs[sec].size : 1;
    if (!ccount || lo0 >= s->ncranges || s->cranges[lo0].sec != sec)
        return -1;
    for (size_t k = lo0; k < s->ncranges && s->cranges[k].sec == sec; k++) {
        const struct orange *x = &s->cranges[k];
        uint64_t hi = x->off + x->len > psize ? psize : x->off + x->len;
        if (!ccount[k] || hi <= x->off)
            continue;
        add_scaled(x->off, hi, 0, psize, tsize, ccount[k], blk, nb);
    }
    return (long)(*nb - n0);
}

/* Whether section sec has an executed range among r[0..n) (sorted by
 * section; count: per range, NULL for none). */
static int section_ran(const struct orange *r, size_t n, const uint64_t *count, uint32_t sec)
{
    for (size_t k = oscan_first_of(r, n, sec); count && k < n && r[k].sec == sec; k++)
        if (count[k])
            return 1;
    return 0;
}

int plan_sets(const struct plan_sets_in *in, uint32_t *order, size_t n, uint32_t *cold,
              size_t *ncold)
{
    const struct oscan *s = in->s;
    const struct cgeom *g = in->g;
    struct ord_cache c = { g->sets, g->ways, g->line };
    size_t nn = in->nn;
    struct ord_fn *f = calloc(nn ? nn : 1, sizeof *f);
    struct ord_block *blk = malloc((s->nranges + s->ncranges + 1) * sizeof *blk);
    uint32_t *items = malloc((n + nn + 1) * sizeof *items),
             *base = malloc((n + nn + 1) * sizeof *base), *ids = NULL;
    uint64_t *at = NULL;
    uint32_t *src = malloc((nn ? nn : 1) * sizeof *src);
    char *incold = calloc(nn ? nn : 1, 1), *name = NULL;
    struct pi_meta tm;
    struct oscan t;
    size_t nfs = 0, missing = 0, cmissing = 0, nc = 0;
    struct pm_sym *fs = NULL;
    int have_tm = 0, have_t = 0, fd = -1, status = -1, oom = 0;
    Elf *e = NULL;
    *ncold = 0;
    memset(&t, 0, sizeof t);
    if (!f || !blk || !items || !base || !incold || !src) {
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
                     "perfinst-ld%s", in->target, pm_no_link_why(&tm));
            goto done;
        }
        if (oscan_read_link(&t, &tm))
            goto done;
        have_t = 1;
    }
    /* counting=function: a function's ranges are its counting copy's
       (F.count.N), those of its cold part the copy's cold part's
       (.text.unlikely.F.count.N); src[k] is the section whose ranges are
       k's, and a copy's cold part is no item of its own */
    for (size_t k = 0; k < nn; k++)
        src[k] = (uint32_t)k;
    for (size_t k = 0; k < nn && in->copy; k++) {
        uint32_t c = in->copy[k];
        if (c == UINT32_MAX)
            continue;
        src[k] = c;
        long fc = -1, cc = -1;
        for (size_t j = 0; j < nn; j++) {
            const struct osec *o = &s->secs[j];
            if (o->obj != s->secs[k].obj || !oscan_cold_part(o))
                continue;
            if (!strcmp(o->sym, s->secs[k].sym))
                fc = (long)j;
            else if (!strcmp(o->sym, s->secs[c].sym))
                cc = (long)j;
        }
        if (cc >= 0) {
            incold[cc] = 1;
            if (fc >= 0)
                src[fc] = (uint32_t)cc;
        }
    }
    /* every ordered function's executed ranges, scaled to the target */
    size_t nb = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t sec = order[i];
        const struct osec *o = &s->secs[sec];
        uint64_t tsize = o->size ? o->size : 1, talign = o->align;
        items[i] = sec;
        if (have_t && !(tsize = target_size(&t, o->sym, 0, &talign))) {
            missing++;
            f[sec] = (struct ord_fn){ 0, 1, NULL, 0 };
            continue;
        }
        if (!have_t && in->pred) { /* the rebuild's hot part */
            f[sec] = in->pred[sec];
            continue;
        }
        f[sec].size = tsize, f[sec].align = talign ? talign : 1;
        f[sec].b = blk + nb;
        long nc = clean_ranges(s, in->ccount, sec, tsize, blk, &nb);
        f[sec].nb = nc >= 0 ? (size_t)nc
                            : section_ranges(s, in->count, src[sec], tsize, src[sec] != sec, blk, &nb);
    }
    /* the cold parts that ran (split=3's warm blocks, or blocks judged
       cold that ran after all): the relink places them right after the
       ordered functions, first those of the ordered functions in their
       order, then the others; one per name, as the relink's script names
       them */
    for (int pass = 0; pass < (!have_t && in->pred ? 0 : 2); pass++) {
        for (size_t i = 0; i < (pass ? nn : n); i++) {
            for (size_t k = pass ? i : 0; k < (pass ? i + 1 : nn); k++) {
                const struct osec *o = &s->secs[k];
                if (incold[k] || !oscan_cold_part(o) || (!pass && strcmp(o->sym, s->secs[order[i]].sym)) ||
                    !(section_ran(s->ranges, s->nranges, in->count, src[k]) ||
                      section_ran(s->cranges, s->ncranges, in->ccount, (uint32_t)k)))
                    continue;
                int dup = 0;
                for (size_t j = 0; j < nc && !dup; j++)
                    dup = !strcmp(s->secs[items[n + j]].sym, o->sym);
                incold[k] = 1;
                if (dup)
                    continue;
                uint64_t tsize = o->size ? o->size : 1, talign = o->align;
                if (have_t && !(tsize = target_size(&t, o->sym, 1, &talign))) {
                    cmissing++;
                    continue;
                }
                f[k].size = tsize, f[k].align = talign ? talign : 1;
                f[k].b = blk + nb;
                long cn = clean_ranges(s, in->ccount, (uint32_t)k, tsize, blk, &nb);
                f[k].nb = cn >= 0 ? (size_t)cn
                                  : section_ranges(s, in->count, src[k], tsize, src[k] != k, blk, &nb);
                items[n + nc++] = (uint32_t)k;
            }
        }
    }
    memcpy(base, items, (n + nc) * sizeof *base);
    uint64_t before = ord_set_pressure_seq(f, base, n + nc, &c),
             hot_only = ord_set_pressure_seq(f, base, n, &c);
    long ch = ord_spread_seg(f, in->nodes, nn, in->arcs, in->na, &c, items, n + nc, n,
                             in->passes, in->affinity);
    if (ch < 0) {
        pm_error("out of memory");
        goto done;
    }
    uint64_t after = ord_set_pressure_seq(f, items, n + nc, &c);
    memcpy(order, items, n * sizeof *order);
    memcpy(cold, items + n, nc * sizeof *cold);
    *ncold = nc;
    uint64_t cbytes = 0, cfetch = 0, afetch = 0;
    for (size_t i = 0; i < n + nc; i++) {
        const struct ord_fn *x = &f[items[i]];
        for (size_t k = 0; k < x->nb; k++) {
            afetch += x->b[k].count;
            if (i >= n)
                cfetch += x->b[k].count;
        }
        if (i >= n)
            cbytes += x->size;
    }
    printf("  cold parts: %zu that ran placed after the ordered functions (%llu bytes, %.2f%% "
           "of the blocks' executions)%s; the ordered functions alone: set pressure %llu\n", nc,
           (unsigned long long)cbytes, afetch ? 100.0 * (double)cfetch / (double)afetch : 0.0,
           cmissing ? " (some have no cold part in the target)" : "",
           (unsigned long long)hot_only);
    printf("  set pressure (fetches beyond the %u hottest lines of each set%s): %s order %llu, "
           "spread %llu (%ld swaps and moves, affinity %g)\n", g->ways,
           have_t ? ", sizes of the target" : "", ord_name(in->base_alg),
           (unsigned long long)before, (unsigned long long)after, ch, in->affinity);
    /* the score the search weighed: the sizes it placed (the target's,
       or the rebuild's hot parts) */
    printf("  Ext-TSP score%s %.0f -> %.0f\n",
           have_t ? " (sizes of the target)" : in->pred ? " (the rebuild's predicted hot parts)" : "",
           ord_sets_score(f, nn, in->arcs, in->na, base, n + nc),
           ord_sets_score(f, nn, in->arcs, in->na, items, n + nc));
    if (have_t) {
        if (missing)
            printf("  target %s: %zu of the %zu ordered functions have no section there "
                   "(inlined or removed)\n", in->target, missing, n);
        if (cmissing)
            printf("  target %s: %zu cold parts that ran have no .text.unlikely section there\n",
                   in->target, cmissing);
        /* the target's own layout, for comparison: the functions at their
           symbols, the cold parts at F.cold (F when the whole function is
           cold) */
        if ((fd = open(in->target, O_RDONLY)) < 0 || !(e = elf_begin(fd, ELF_C_READ, NULL)) ||
            (oom = pm_elf_symbols(e, STT_FUNC, &fs, &nfs)) || !nfs) {
            if (fd >= 0 && e && !oom)
                status = 0;
            else
                pm_error("%s: cannot read its symbols", in->target);
            goto done;
        }
        ids = malloc((n + nc + 1) * sizeof *ids);
        at = malloc((n + nc + 1) * sizeof *at);
        if (!ids || !at) {
            pm_error("out of memory");
            goto done;
        }
        size_t k = 0;
        for (size_t i = 0; i < n + nc; i++) {
            const char *sym = s->secs[items[i]].sym;
            uint64_t al;
            free(name);
            name = NULL;
            if (i >= n && target_size(&t, sym, 0, &al) &&
                (!(name = malloc(strlen(sym) + 6)) || !strcpy(name, sym) ||
                 !strcat(name, ".cold"))) {
                pm_error("out of memory");
                goto done;
            }
            struct pm_sym key = { .name = name ? name : sym };
            const struct pm_sym *hit = bsearch(&key, fs, nfs, sizeof *fs, pm_sym_cmp);
            if (hit && f[items[i]].nb)
                ids[k] = items[i], at[k++] = hit->addr;
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
    free(fs), free(ids), free(at), free(f), free(blk), free(items), free(base);
    free(incold), free(name), free(src);
    if (have_t)
        oscan_free(&t);
    if (have_tm)
        pi_meta_free(&tm);
    return status;
}
