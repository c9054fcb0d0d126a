/* report-ranges.c — `pmopt report --by=regions`: the ranges a program
 * added at run time by address (perfinst_range_add, RANGE records; docs/
 * indicators.md "Ranges added at run time").
 *
 * A range is [lo, hi) in link-time addresses of PROG's module.  It is
 * resolved here, against the whole run's counts (so a range added late
 * still counts what ran before the call):
 *
 *   a block site is inside when it has code (CODE ranges that survived the
 *   link) and every one of its ranges lies in [lo, hi); one with some code
 *   inside and some outside is "partly inside" and left out (counted in
 *   `partial`); code in [lo, hi) that belongs to no block site (the clean
 *   copy of a split function, uninstrumented functions) counts nothing;
 *
 *   instructions = Σ over the sites inside of count × the site's static
 *   instruction count (the mean over its ranges when it has several:
 *   approximate, marked ~, as everywhere in the report);
 *
 *   visits = executions of edges entering the range from outside: edges of
 *   the profile (profile.c) from a block not inside to one inside, plus the
 *   entries of a function whose entry block is inside (its entry count less
 *   the edges back into the entry block), less the calls to it from call
 *   sites whose calling block is inside (a call within the range is not a
 *   visit; neither is the return into the range from a callee outside it).
 *   Edges the flow equations left open are estimates: marked ~ too.
 *
 * Ranges of the same (name, lo, hi) in several traces are one row; RANGE
 * records of modules other than PROG's are ignored with a note.
 */
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "report.h"

struct scode {
    uint32_t nr, nin, nover;
    uint64_t insns;
};

#define IN(sc) ((sc).nr && (sc).nin == (sc).nr)

/* Fill in g's figures from r's counts. */
static int resolve(const struct report *r, struct rrange *g)
{
    const struct pi_meta *m = &r->md.m;
    struct scode **code = calloc(m->nunits ? m->nunits : 1, sizeof *code);
    int rc = -1;
    if (!code)
        return rep_oom();
    for (size_t i = 0; i < m->nunits; i++)
        if (!(code[i] = calloc(m->units[i].hdr.nsites ? m->units[i].hdr.nsites : 1,
                               sizeof **code)))
            goto out;
    for (size_t i = 0; i < m->nranges; i++) {
        const struct pi_range *rg = &m->ranges[i];
        const struct pi_unit_view *u = pi_meta_unit(m, rg->unit_id);
        if (!rg->addr || !u || rg->site >= u->hdr.nsites)
            continue;
        struct scode *c = &code[u - m->units][rg->site];
        uint64_t end = rg->addr + rg->length;
        c->nr++;
        c->insns += rg->ninsns;
        if (rg->addr >= g->lo && end <= g->hi && (rg->length || rg->addr < g->hi))
            c->nin++;
        else if (rg->addr < g->hi && end > g->lo)
            c->nover++;
    }
    /* the functions whose entry block is inside: calls to them from inside
       are not visits */
    struct call_arc *arcs = NULL;
    size_t narcs = 0;
    if (pf_call_arcs(&r->md, &arcs, &narcs))
        goto out;
    for (size_t ui = 0; ui < m->nunits; ui++) {
        const struct pi_unit_view *u = &m->units[ui];
        const struct scode *sc = code[ui];
        for (uint32_t f = 0; f < u->hdr.nfuncs; f++) {
            struct fprof p;
            if (pf_load(&r->md, u, f, &p)) {
                free(arcs);
                goto out;
            }
            int any = 0;
            for (uint32_t b = 0; b < p.nblocks; b++) {
                const struct scode *c = &sc[p.first + b];
                if (IN(*c)) {
                    any = 1;
                    g->nsites++;
                    g->blocks = pm_sat_add(g->blocks, p.count[b]);
                    g->insns += (long double)p.count[b] * c->insns / c->nr;
                    g->approx |= c->nr > 1 && p.count[b];
                } else if (c->nover || (c->nin && c->nin < c->nr)) {
                    g->npartial++;
                    g->partial_blocks = pm_sat_add(g->partial_blocks, p.count[b]);
                }
            }
            if (!any) {
                pf_free(&p);
                continue;
            }
            uint64_t back_to_entry = 0;
            for (uint32_t b = 0; b < p.nblocks; b++) {
                const struct pi_site *s = &u->sites[p.first + b];
                int from_in = IN(sc[p.first + b]);
                for (uint32_t j = 0; j < s->nsucc; j++) {
                    uint32_t to = u->succs[s->succ_first + j] - p.first;
                    if (to >= p.nblocks)
                        continue;
                    uint64_t e = p.edge[p.eoff[b] + j];
                    if (to == 0)
                        back_to_entry = pm_sat_add(back_to_entry, e);
                    if (!from_in && IN(sc[p.first + to]))
                        g->visits = pm_sat_add(g->visits, e);
                }
            }
            if (p.nblocks && IN(sc[p.first])) {
                uint64_t entries = p.count[0] > back_to_entry ? p.count[0] - back_to_entry : 0;
                const char *name = pi_unit_str(u, u->funcs[f].name);
                for (size_t a = 0; a < narcs; a++) {
                    const struct call_arc *c = &arcs[a];
                    uint32_t cb = c->u->sites[c->site].arg;
                    if (cb < c->u->hdr.nsites && IN(code[c->u - m->units][cb]) &&
                        !strcmp(c->callee, name))
                        entries = entries > c->count ? entries - c->count : 0;
                }
                g->visits = pm_sat_add(g->visits, entries);
            }
            g->approx |= p.nestimated != 0;
            pf_free(&p);
        }
    }
    free(arcs);
    g->done = 1;
    rc = 0;
out:
    for (size_t i = 0; i < m->nunits; i++)
        free(code[i]);
    free(code);
    return rc ? rep_oom() : 0;
}

static int resolve_all(const struct report *r)
{
    for (size_t i = 0; i < r->md.nrranges; i++)
        if (!r->md.rranges[i].done && resolve(r, &r->md.rranges[i]))
            return -1;
    return 0;
}

static void qty(char *buf, size_t n, long double v, int approx)
{
    snprintf(buf, n, "%s%.*Lf", approx ? "~" : "", v == (long double)(uint64_t)v ? 0 : 2, v);
}

void rranges_text(const struct report *r)
{
    if (!(r->by & BY_REGIONS) || (!r->md.nrranges && !r->by_given) || resolve_all(r) ||
        !rep_text_heading(r, r->md.nrranges, "Ranges added at run time (perfinst_range_add; visits "
                          "= entries from outside; blocks and instructions executed inside; ~ "
                          "approximate)", "the traces have no RANGE record"))
        return;
    char q[64];
    int wv = 6, wb = 6, wi = 12, wn = 5;
    for (size_t i = 0; i < r->md.nrranges; i++) {
        const struct rrange *g = &r->md.rranges[i];
        qty(q, sizeof q, g->insns, g->approx);
        wv = rep_widest(wv, rep_digits(g->visits), 20);
        wb = rep_widest(wb, rep_digits(g->blocks), 20);
        wi = rep_widest(wi, (int)strlen(q), 40);
        wn = rep_widest(wn, (int)strlen(g->name), 64);
    }
    printf("  %*s  %*s  %*s  %-*s  %-28s  %s\n", wv, "visits", wb, "blocks", wi, "instructions",
           wn, "range", "[lo, hi) link-time", "sites (partly inside: left out)");
    for (size_t i = 0; i < r->md.nrranges; i++) {
        const struct rrange *g = &r->md.rranges[i];
        char span[64];
        qty(q, sizeof q, g->insns, g->approx);
        snprintf(span, sizeof span, "[0x%llx, 0x%llx)", (unsigned long long)g->lo,
                 (unsigned long long)g->hi);
        printf("  %*llu  %*llu  %*s  %-*s  %-28s  %u", wv, (unsigned long long)g->visits, wb,
               (unsigned long long)g->blocks, wi, q, wn, g->name, span, g->nsites);
        if (g->npartial)
            printf(" (%u partly inside, %llu executions)", g->npartial,
                   (unsigned long long)g->partial_blocks);
        printf("\n");
    }
}

void rranges_json(const struct report *r)
{
    if (!(r->by & BY_REGIONS) || resolve_all(r))
        return;
    printf(",\n  \"runtime_ranges\": [");
    for (size_t i = 0; i < r->md.nrranges; i++) {
        const struct rrange *g = &r->md.rranges[i];
        printf("%s\n    {\"range\": ", i ? "," : "");
        pm_json_str(stdout, g->name);
        printf(", \"lo\": %llu, \"hi\": %llu, \"sites\": %u, \"partial_sites\": %u, "
               "\"partial_blocks\": %llu, \"visits\": %llu, \"blocks\": %llu, \"instructions\": ",
               (unsigned long long)g->lo, (unsigned long long)g->hi, g->nsites, g->npartial,
               (unsigned long long)g->partial_blocks, (unsigned long long)g->visits,
               (unsigned long long)g->blocks);
        char q[64];
        qty(q, sizeof q, g->insns, 0);
        printf("%s, \"approximate\": %s}", q, g->approx ? "true" : "false");
    }
    printf("%s]", r->md.nrranges ? "\n  " : "");
}

void rranges_csv(const struct report *r)
{
    if (resolve_all(r))
        return;
    for (size_t i = 0; i < r->md.nrranges; i++) {
        const struct rrange *g = &r->md.rranges[i];
        char q[64];
        qty(q, sizeof q, g->insns, 0);
        printf("%llu,%llu,%s,%d,", (unsigned long long)g->visits, (unsigned long long)g->blocks, q,
               g->approx);
        pm_csv_str(stdout, g->name);
        printf(",,,,0,%u,runtime,0x%llx,0x%llx\n", g->nsites, (unsigned long long)g->lo,
               (unsigned long long)g->hi);
    }
}
