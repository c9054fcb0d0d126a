/* view-trace.c — `pmopt report`'s view of the trace regions: per trace_start
 * site, intervals and cycles, the block executions and instructions between
 * start and stop, and a per-function breakdown (entries, blocks). Its text,
 * JSON and CSV are here together (report-ind.c calls them). */
#include <stdlib.h>
#include <string.h>

#include "report-ind.h"

static int cmp_treg_func(const void *a, const void *b)
{
    const struct treg_func *x = a, *y = b;
    PI_CMP_RET(y->blocks, x->blocks);
    PI_CMP_RET(x->u, y->u);
    return x->func < y->func ? -1 : x->func > y->func;
}

int build_trace(struct report *r)
{
    struct ind_views *iv = r->iv;
    const struct pi_meta *m = &r->md.m;
    const struct pi_trace *t = &r->md.ir.ind;
    size_t nfuncs = 0;
    for (size_t i = 0; i < m->nunits; i++)
        nfuncs += m->units[i].hdr.nfuncs;
    iv->tregs = calloc(t->ntraceregs ? t->ntraceregs : 1, sizeof *iv->tregs);
    if (!iv->tregs)
        return rep_oom();
    /* traceregs are sorted by (start_unit, start_site, unit_id) */
    for (size_t i = 0; i < t->ntraceregs;) {
        const struct pi_trace_tracereg *g = &t->traceregs[i];
        size_t j = i;
        while (j < t->ntraceregs && t->traceregs[j].start_unit == g->start_unit &&
               t->traceregs[j].start_site == g->start_site)
            j++;
        const struct pi_unit_view *su = rep_prog_unit(&r->md, g->start_unit, g->start_site);
        if (!su) {
            i = j;
            continue;
        }
        struct treg_row *row = &iv->tregs[iv->ntregs++];
        *row = (struct treg_row){ .u = su, .site = g->start_site };
        row->funcs = calloc(nfuncs ? nfuncs : 1, sizeof *row->funcs);
        if (!row->funcs)
            return rep_oom();
        uint64_t addr = r->md.us[su - m->units].site_addr ? r->md.us[su - m->units].site_addr[g->start_site]
                                                        : 0;
        const char *df;
        uint32_t dl;
        const struct pi_site *ss = &su->sites[g->start_site];
        if (addr && r->md.have_dbg && pi_debug_line(&r->md.dbg, addr, &df, &dl) &&
            (dl != ss->line || strcmp(pm_basename(df), pm_basename(pi_unit_str(su, ss->file))))) {
            row->dfile = pm_file(NULL, df);
            row->dline = dl;
        }
        for (size_t k = 0; k < t->nsitestats; k++) {
            const struct pi_rec_sitestat *s = &t->sitestats[k];
            if (s->unit_id == g->start_unit && s->site == g->start_site && s->kind == PI_STAT_TRACE) {
                row->has_stat = 1;
                row->st = *s;
            }
        }
        for (; i < j; i++) {
            const struct pi_trace_tracereg *x = &t->traceregs[i];
            const struct pi_unit_view *u = pi_meta_unit(m, x->unit_id);
            if (!u) {
                for (uint32_t c = 0; c < x->ncounters; c++)
                    row->foreign = pm_sat_add(row->foreign, x->counts[c]);
                continue;
            }
            uint32_t n = x->ncounters < u->hdr.ncounters ? x->ncounters : u->hdr.ncounters;
            uint64_t *delta, *arcs;
            if (rep_solve(u, x->counts, n, NULL, &delta, &arcs))
                return -1;
            free(arcs);
#define DELTA(site) (u->sites[site].kind == PI_SITE_BLOCK ? delta[site] : 0)
            for (uint32_t k = 0; k < u->hdr.nsites; k++) {
                uint64_t c = DELTA(k);
                row->blocks = pm_sat_add(row->blocks, c);
                row->insns += dyn_insns(code_of(r, u, k), c, &row->approx);
            }
            for (uint32_t f = 0; f < u->hdr.nfuncs; f++) {
                const struct pi_func *fn = &u->funcs[f];
                struct treg_func tf = { .u = u, .func = f };
                for (uint32_t k = fn->first_site; k < fn->first_site + fn->nsites; k++)
                    tf.blocks = pm_sat_add(tf.blocks, DELTA(k));
                if (!tf.blocks)
                    continue;
                /* sites[first_site] is the entry block of a function marked as a whole */
                if (fn->nsites && fn->directives && rep_site_counted(u, fn->first_site)) {
                    tf.has_entry = 1;
                    tf.entries = DELTA(fn->first_site);
                }
                row->funcs[row->nfuncs++] = tf;
            }
#undef DELTA
            free(delta);
        }
        if (row->nfuncs)
            qsort(row->funcs, row->nfuncs, sizeof *row->funcs, cmp_treg_func);
    }
    return 0;
}

void text_trace(const struct report *r)
{
    const struct ind_views *iv = r->iv;
    if (!rep_text_heading(r, iv->ntregs, "Trace regions (trace_start .. trace_stop: counts "
                          "summed over the intervals)", "no TRACEREG record for PROG's sites"))
        return;
    char q[64];
    for (size_t i = 0; i < iv->ntregs; i++) {
        const struct treg_row *t = &iv->tregs[i];
        const struct pi_site *s = &t->u->sites[t->site];
        printf("  start %s %s:%u", func_name(t->u, s->func), pm_unit_file(t->u, s->file), s->line);
        if (t->dfile)
            printf(" (DWARF: %s:%u)", t->dfile, t->dline);
        printf(", unit:site %016llx:%u\n", (unsigned long long)t->u->hdr.unit_id, t->site);
        if (t->has_stat && t->st.count)
            printf("    intervals %llu, cycles %llu (mean %llu, min %llu, max %llu)\n",
                   (unsigned long long)t->st.count, (unsigned long long)t->st.sum,
                   (unsigned long long)(t->st.sum / t->st.count), (unsigned long long)t->st.min,
                   (unsigned long long)t->st.max);
        else
            printf("    intervals %llu\n", (unsigned long long)(t->has_stat ? t->st.count : 0));
        qty_str(q, sizeof q, t->insns, t->approx);
        printf("    block executions %llu, instructions %s%s\n", (unsigned long long)t->blocks, q,
               t->approx ? " (approximate)" : "");
        if (t->foreign)
            printf("    and %llu block executions in units that are not in %s\n",
                   (unsigned long long)t->foreign, r->md.prog);
        if (!t->nfuncs)
            continue;
        int we = 7, wb = 6, wf = 8;
        for (size_t k = 0; k < t->nfuncs; k++) {
            we = rep_widest(we, rep_digits(t->funcs[k].entries), 20);
            wb = rep_widest(wb, rep_digits(t->funcs[k].blocks), 20);
            wf = rep_widest(wf, (int)strlen(func_name(t->funcs[k].u, t->funcs[k].func)), 40);
        }
        printf("    %*s  %*s  %-*s  %s\n", we, "entries", wb, "blocks", wf, "function", "file:line");
        for (size_t k = 0; k < t->nfuncs; k++) {
            const struct treg_func *f = &t->funcs[k];
            const struct pi_func *fn = &f->u->funcs[f->func];
            char e[24] = "-";
            if (f->has_entry)
                snprintf(e, sizeof e, "%llu", (unsigned long long)f->entries);
            printf("    %*s  %*llu  %-*s  %s:%u\n", we, e, wb, (unsigned long long)f->blocks, wf,
                   pm_unit_fname(f->u, fn->name), pm_unit_file(f->u, fn->file), fn->line);
        }
    }
}

void json_trace(const struct report *r)
{
    const struct ind_views *iv = r->iv;
    printf(",\n  \"trace_regions\": [");
    for (size_t i = 0; i < iv->ntregs; i++) {
        const struct treg_row *t = &iv->tregs[i];
        printf("%s\n    {", i ? "," : "");
        json_where(t->u, t->site);
        printf(", \"dwarf_file\": ");
        if (t->dfile)
            pm_json_str(stdout, t->dfile);
        else
            printf("null");
        printf(", \"dwarf_line\": %u, \"intervals\": %llu, \"cycles\": ", t->dfile ? t->dline : 0,
               (unsigned long long)(t->has_stat ? t->st.count : 0));
        if (t->has_stat)
            printf("{\"sum\": %llu, \"mean\": %llu, \"min\": %llu, \"max\": %llu}",
                   (unsigned long long)t->st.sum,
                   (unsigned long long)(t->st.count ? t->st.sum / t->st.count : 0),
                   (unsigned long long)t->st.min, (unsigned long long)t->st.max);
        else
            printf("null");
        printf(", \"blocks\": %llu, \"instructions\": ", (unsigned long long)t->blocks);
        put_qty(stdout, t->insns);
        printf(", \"approximate\": %s, \"foreign_blocks\": %llu, \"functions\": [",
               t->approx ? "true" : "false", (unsigned long long)t->foreign);
        for (size_t k = 0; k < t->nfuncs; k++) {
            const struct treg_func *f = &t->funcs[k];
            printf("%s\n      {\"unit\": \"0x%016llx\", \"function\": ", k ? "," : "",
                   (unsigned long long)f->u->hdr.unit_id);
            pm_json_str(stdout, func_name(f->u, f->func));
            printf(", \"entries\": ");
            if (f->has_entry)
                printf("%llu", (unsigned long long)f->entries);
            else
                printf("null");
            printf(", \"blocks\": %llu}", (unsigned long long)f->blocks);
        }
        printf("%s]}", t->nfuncs ? "\n    " : "");
    }
    printf("%s]", iv->ntregs ? "\n  " : "");
}

void csv_trace(const struct report *r)
{
    const struct ind_views *iv = r->iv;
    /* one row per (trace region, function), the region's totals repeated */
    printf("start_unit,start_site,start_function,start_file,start_line,intervals,cycles,"
           "blocks,instructions,approximate,unit,function,entries,function_blocks\n");
    for (size_t i = 0; i < iv->ntregs; i++) {
        const struct treg_row *t = &iv->tregs[i];
        const struct pi_site *s = &t->u->sites[t->site];
        for (size_t k = 0; k < (t->nfuncs ? t->nfuncs : 1); k++) {
            printf("0x%016llx,%u,", (unsigned long long)t->u->hdr.unit_id, t->site);
            pm_csv_str(stdout, func_name(t->u, s->func));
            putchar(',');
            pm_csv_str(stdout, pm_unit_file(t->u, s->file));
            printf(",%u,%llu,%llu,%llu,", s->line,
                   (unsigned long long)(t->has_stat ? t->st.count : 0),
                   (unsigned long long)(t->has_stat ? t->st.sum : 0),
                   (unsigned long long)t->blocks);
            put_qty(stdout, t->insns);
            printf(",%d,", t->approx);
            if (!t->nfuncs) {
                printf(",,,\n");
                continue;
            }
            const struct treg_func *f = &t->funcs[k];
            printf("0x%016llx,", (unsigned long long)f->u->hdr.unit_id);
            pm_csv_str(stdout, func_name(f->u, f->func));
            putchar(',');
            if (f->has_entry)
                printf("%llu", (unsigned long long)f->entries);
            printf(",%llu\n", (unsigned long long)f->blocks);
        }
    }
}
