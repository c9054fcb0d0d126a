/* report-ind.c — the views of `pmopt report` that come from the indicators'
 * records (SITESTAT, EVENT, TRACEREG, WATCH; docs/formats.md) and from the
 * static instruction counts of the CODE ranges, one file per view with its
 * text, JSON and CSV together: view-indicators.c, view-callers.c,
 * view-regions.c, view-trace.c (trace regions), view-types.c and
 * view-watch.c (watched data per word and per access site).  This file
 * holds what they share and calls them: rind_build, rind_text, rind_json,
 * rind_csv, rind_free.
 *
 * Instruction counts: a site with one code range has that range's counts;
 * a site with several (copies made by unrolling, duplication, inlining) has
 * their mean, and every figure built from it is marked approximate; so is
 * one built from an executed site without any range.
 *
 * The records are combined by the model (model.c: r->md.ir), matched to
 * PROG by unit id, event frames at link-time addresses, watched words
 * keyed by link-time, run-time or module-relative address.
 */
#include <stdlib.h>
#include <string.h>

#include "piutil.h"
#include "report-ind.h"

/* ---------------------------------------------------------------------- */
/* Instruction counts                                                        */
/* ---------------------------------------------------------------------- */

const struct site_code *code_of(const struct report *r, const struct pi_unit_view *u, uint32_t site)
{
    return &r->md.ir.code[u - r->md.m.units][site];
}

/* Instructions that `count` executions of a site ran. */
long double dyn_insns(const struct site_code *c, uint64_t count, int *approx)
{
    if (!count)
        return 0;
    if (c->nranges != 1)
        *approx = 1;
    return c->nranges ? (long double)count * c->insns / c->nranges : 0;
}

static int integral(long double v)
{
    return v >= 0 && v < 18446744073709551616.0L && v == (long double)(uint64_t)v;
}

void put_qty(FILE *f, long double v)
{
    if (integral(v))
        fprintf(f, "%.0Lf", v);
    else
        fprintf(f, "%.2Lf", v);
}

int qty_str(char *buf, size_t n, long double v, int approx)
{
    if (integral(v))
        return snprintf(buf, n, "%s%.0Lf", approx ? "~" : "", v);
    return snprintf(buf, n, "%s%.2Lf", approx ? "~" : "", v);
}

int rind_build(struct report *r)
{
    if (!r->iv && !(r->iv = calloc(1, sizeof *r->iv)))
        return rep_oom();
    if (build_indicators(r) || build_callers(r) || build_regions(r) || build_trace(r) ||
        build_types(r) || build_watch(r))
        return -1;
    struct ind_views *iv = r->iv;
    if (r->md.top > 0) {
        size_t top = (size_t)r->md.top;
        iv->ninds = iv->ninds < top ? iv->ninds : top;
        r->md.ir.nwwords = r->md.ir.nwwords < top ? r->md.ir.nwwords : top; /* wnamed still frees all */
        iv->nwsites = iv->nwsites < top ? iv->nwsites : top;
    }
    return 0;
}

const char *func_name(const struct pi_unit_view *u, uint32_t func)
{
    return pm_func_name(u, func);
}

int rep_text_heading(const struct report *r, size_t nrows, const char *title, const char *why)
{
    if (!nrows && !r->by_given)
        return 0;
    printf("\n%s\n", title);
    if (!nrows)
        printf("  (none: %s)\n", why);
    return nrows != 0;
}

void rind_text(const struct report *r)
{
    if (r->by & BY_INDICATORS) {
        text_indicators(r);
        rdorm_text(r);
    }
    if (r->by & BY_CALLERS)
        text_callers(r);
    if (r->by & BY_REGIONS)
        text_regions(r);
    if (r->by & BY_TRACE)
        text_trace(r);
    if (r->by & BY_TYPES)
        text_types(r);
    if (r->by & BY_WATCH)
        text_watch(r);
    if (r->by & BY_WATCH_SITES)
        text_watch_sites(r);
}

void rind_json(const struct report *r)
{
    if (r->by & BY_INDICATORS)
        json_indicators(r);
    if (r->by & BY_CALLERS)
        json_callers(r);
    if (r->by & BY_REGIONS)
        json_regions(r);
    if (r->by & BY_TRACE)
        json_trace(r);
    if (r->by & BY_TYPES)
        json_types(r);
    if (r->by & BY_WATCH)
        json_watch(r);
    if (r->by & BY_WATCH_SITES)
        json_watch_sites(r);
}

void rind_csv(const struct report *r)
{
    if (r->by == BY_INDICATORS)
        csv_indicators(r);
    else if (r->by == BY_CALLERS)
        csv_callers(r);
    else if (r->by == BY_REGIONS)
        csv_regions(r);
    else if (r->by == BY_TRACE)
        csv_trace(r);
    else if (r->by == BY_TYPES)
        csv_types(r);
    else if (r->by == BY_WATCH)
        csv_watch(r);
    else if (r->by == BY_WATCH_SITES)
        csv_watch_sites(r);
}

void json_where(const struct pi_unit_view *u, uint32_t site)
{
    const struct pi_site *s = &u->sites[site];
    printf("\"unit\": \"0x%016llx\", \"site\": %u, \"function\": ", (unsigned long long)u->hdr.unit_id,
           site);
    pm_json_str(stdout, func_name(u, s->func));
    printf(", \"file\": ");
    pm_json_str(stdout, pm_unit_file(u, s->file));
    printf(", \"line\": %u", s->line);
}

void rind_free(struct report *r)
{
    struct ind_views *iv = r->iv;
    if (!iv)
        return;
    free(iv->inds);
    free(iv->regions);
    for (size_t i = 0; i < iv->ntregs; i++)
        free(iv->tregs[i].funcs);
    free(iv->tregs);
    for (size_t i = 0; i < iv->ntypes; i++)
        free(iv->types[i].sites);
    free(iv->types);
    for (size_t i = 0; i < iv->nnodes; i++)
        free(iv->nodes[i].kids);
    free(iv->nodes);
    free(iv->roots);
    for (size_t i = 0; i < iv->wnamed; i++) {
        free(r->md.ir.wwords[i].name);
        r->md.ir.wwords[i].name = NULL;
    }
    free(iv->wsites);
    free(iv);
    r->iv = NULL;
}
