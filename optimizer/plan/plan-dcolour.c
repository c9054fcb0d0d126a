/* plan-dcolour.c — the data half of the chase-tail plan (docs/layout.md
 * "Data colouring"): the cache model fed with the hot data lines, with the
 * geometry of the machine's L1d, for PROG's data layout, for the planned
 * data order and for a coloured layout (a stable part in sets 0..S-R-1, the
 * overflow in the reserved sets S-R..S-1, packed by rsv_pack as code is);
 * colouring is planned (feedback kind reserve-data) when the ordered data
 * still overfills sets and the colouring hits more.
 *
 * The access stream is modelled from what every all=count profile has:
 * the block counts times the data references of each block (relocations
 * from an executed block to an object's section, plan-order.c's data_w).
 * An object is hot when an executed block references it; its weight is
 * spread evenly over its lines, and all hot lines form one cyclic stream,
 * as for code.  watch counts per word would say which words are touched;
 * they exist only for watched objects and are not used here. */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dcolour.h"
#include "pmopt.h"
#include "plan.h"

/* Output section k's pieces from its own page-aligned base (1 TiB apart:
 * where .rodata, .data and .bss start relative to each other is the
 * linker's; each planned run starts at the top of its section). */
static uint64_t out_base(int k)
{
    return (uint64_t)(k + 1) << 40;
}

static int by_density_ctx_cmp(const struct dc_item *x, const struct dc_item *y)
{
    __extension__ typedef unsigned __int128 u128;
    u128 l = (u128)x->weight * (y->size ? y->size : 1), r = (u128)y->weight * (x->size ? x->size : 1);
    return l > r ? -1 : l < r;
}

int dc_plan(const struct dc_plan_in *in, struct dc_plan_out *o)
{
    memset(o, 0, sizeof *o);
    if (cm_geometry_type(in->dcache, "Data", &o->g))
        return -1;
    const struct cgeom *g = &o->g;
    char **names = malloc((in->nd ? in->nd : 1) * sizeof *names);
    struct dc_item *it = NULL;
    size_t ni = 0, *byd = NULL;
    struct dc_lines Lb = { 0 }, La = { 0 }, Lc = { 0 };
    int status = -1;
    if (!names)
        goto oom;
    for (size_t i = 0; i < in->nd; i++)
        names[i] = (char *)in->s->secs[in->data[i]].sym;
    if (dc_items(in->s, names, in->nd, NULL, 0, in->data_w, &it, &ni))
        goto oom;
    if (!ni) {
        status = 0;
        goto done;
    }
    /* before: PROG; after: each output section's pieces in the data order */
    if (dc_prog_lines(in->prog, g, it, ni, &Lb))
        goto oom;
    uint64_t at[DC_NOUT], hot_bytes = 0;
    for (int k = 0; k < DC_NOUT; k++)
        at[k] = out_base(k);
    for (size_t i = 0; i < ni; i++) {
        uint64_t a = it[i].align > 1 ? (at[it[i].out] + it[i].align - 1) / it[i].align * it[i].align
                                     : at[it[i].out];
        if (dc_add_item(&La, g, in->s, in->data_w, &it[i], a, (uint32_t)i))
            goto oom;
        at[it[i].out] = a + it[i].size;
        hot_bytes += it[i].size;
    }
    uint64_t min = dc_cover(&Lb);
    struct cm_result rb, ra, rc = { 0 };
    double cb, ca, cc = 0;
    if (dc_simulate(g, &Lb, min, &rb, &cb) || dc_simulate(g, &La, min, &ra, &ca))
        goto oom;
    printf("data cache model: L1d %u KiB, %u ways, %u-byte lines, %u sets; %zu data objects "
           "(%llu bytes) referenced by executed blocks, block counts x references spread over "
           "their lines (%d%% of them, lines with at least %llu), as a cyclic stream\n",
           g->size / 1024, g->ways, g->line, g->sets, ni, (unsigned long long)hot_bytes,
           DC_COVER, (unsigned long long)min);
    cm_print_result("before (PROG)", "D1 hit ratio", "accesses", g, &rb);
    cm_print_result("after the data order", "D1 hit ratio", "accesses", g, &ra);
    int chase = rb.overfull_sets > 0 || (uint64_t)rb.lines > (uint64_t)g->sets * g->ways;
    printf("  chase-tail condition for data %s (%s)\n", chase ? "present" : "absent",
           (uint64_t)rb.lines > (uint64_t)g->sets * g->ways ? "the hot data lines do not fit"
           : rb.overfull_sets ? "hot data lines crowd some sets" : "the hot data lines fit");
    o->before = cm_hit_ratio(&rb), o->after = o->coloured = cm_hit_ratio(&ra);
    uint32_t rsets = in->reserve_sets >= 0 ? (uint32_t)in->reserve_sets : g->sets / 8;
    if (rsets > 0 && rsets < g->sets && ra.overfull_sets) {
        struct reserve rv = { g->sets * g->line, 0, rsets * g->line };
        rv.window = rv.page - rv.size;
        /* stable: the densest pieces (weight per byte) that fit the stable
           sets' capacity; the least dense of them leave until the packed
           stable part spans at most `ways` pages (plan-order.c's rule) */
        byd = malloc(ni * sizeof *byd);
        if (!byd)
            goto oom;
        for (size_t i = 0; i < ni; i++) {
            size_t j = i;
            while (j > 0 && by_density_ctx_cmp(&it[byd[j - 1]], &it[i]) > 0)
                byd[j] = byd[j - 1], j--;
            byd[j] = i;
        }
        uint64_t capb = (uint64_t)rv.window * g->ways, used = 0, send;
        for (size_t i = 0; i < ni; i++) {
            struct dc_item *d = &it[byd[i]];
            d->overflow = !(used + d->size <= capb && d->weight);
            if (!d->overflow)
                used += d->size;
        }
        size_t drop = ni;
        for (;;) {
            if (dc_layout(&rv, it, ni, &send))
                goto oom;
            if (send <= (uint64_t)g->ways * rv.page)
                break;
            while (drop > 0 && it[byd[drop - 1]].overflow)
                drop--;
            if (!drop)
                break;
            it[byd[--drop]].overflow = 1;
        }
        for (size_t i = 0; i < ni; i++) {
            uint64_t a = out_base(it[i].out) + it[i].off;
            if (dc_add_item(&Lc, g, in->s, in->data_w, &it[i], a, (uint32_t)i))
                goto oom;
        }
        if (dc_simulate(g, &Lc, min, &rc, &cc))
            goto oom;
        cm_print_result("with coloured data", "D1 hit ratio", "accesses", g, &rc);
        o->rv = rv;
        for (size_t i = 0; i < ni; i++)
            if (it[i].overflow)
                o->no++;
        o->ns = ni - o->no;
        o->use = rc.hits > ra.hits && o->no > 0;
        if (!o->use)
            printf("  colouring the data would not help: not planned\n");
        else {
            o->coloured = cm_hit_ratio(&rc);
            o->ovf = malloc(o->no * sizeof *o->ovf);
            if (!o->ovf)
                goto oom;
            size_t k = 0;
            for (size_t i = 0; i < in->nd; i++) /* in the data order, each name once */
                for (size_t j = 0; j < ni; j++)
                    if (it[j].overflow && it[j].sym == names[i]) {
                        int dup = 0;
                        for (size_t q = 0; q < k && !dup; q++)
                            dup = !strcmp(o->ovf[q], it[j].sym);
                        if (!dup)
                            o->ovf[k++] = (char *)it[j].sym;
                        break;
                    }
            o->no = k;
        }
    }
    printf("  modelled D1 hit ratio of the hot data: %.3f before, %.3f after%s\n", o->before,
           o->use ? o->coloured : o->after, o->use ? " (coloured)" : " (data order)");
    /* the model's check, as for code (plan-order.c): the planned data
       layout is written only when it is predicted to miss less than PROG's
       own; one that only moves data (every hot line fits either way) moves
       what the model cannot see -- the strings libc's string functions
       read, whose paths depend on their addresses -- for no predicted
       gain (docs/layout.md "Data order") */
    const struct cm_result *rp = o->use ? &rc : &ra;
    double cp = o->use ? cc : ca;
    o->write = cm_compare(rp, cp, &rb, cb) > 0;
    if (!o->write) {
        printf("  the data order is not predicted to miss less than PROG's own data layout (D1 "
               "cyclic stream: hit ratio %.3f against %.3f; independent references: %.0f misses "
               "against %.0f): %s\n", cm_hit_ratio(rp), cm_hit_ratio(&rb), cp, cb,
               in->no_model_check ? "written anyway (--no-model-check)"
                                  : "not written, pmopt relink keeps the data as linked");
        if (in->no_model_check)
            o->write = 1;
        else
            o->use = 0;
    }
    status = 0;
    goto done;
oom:
    rep_oom();
done:
    dc_items_free(it, ni);
    free(names), free(byd), free(Lb.v), free(La.v), free(Lc.v);
    return status;
}

void dc_plan_free(struct dc_plan_out *o)
{
    free(o->ovf);
    o->ovf = NULL;
}
