/* view-regions.c — `pmopt report`'s view of the regions: per named region,
 * visits (counts of its region_begin sites), block executions and
 * instructions executed inside (Σ count × the block's instruction count) of
 * its other sites. Its text, JSON and CSV are here together (report-ind.c
 * calls them). */
#include <stdlib.h>
#include <string.h>

#include "report-ind.h"

int build_regions(struct report *r)
{
    struct ind_views *iv = r->iv;
    const struct pi_meta *m = &r->md.m;
    size_t cap = 0;
    for (size_t i = 0; i < m->nunits; i++)
        cap += m->units[i].hdr.nsites;
    iv->regions = calloc(cap ? cap : 1, sizeof *iv->regions);
    if (!iv->regions)
        return rep_oom();
    for (size_t i = 0; i < m->nunits; i++) {
        const struct pi_unit_view *u = &m->units[i];
        for (uint32_t k = 0; k < u->hdr.nsites; k++) {
            const struct pi_site *s = &u->sites[k];
            const char *name = pi_unit_str(u, s->region);
            if (!*name || s->kind != PI_SITE_BLOCK) /* a data site's region names its object, a call site's its callee */
                continue;
            struct region_row *g = NULL;
            for (size_t j = 0; j < iv->nregions && !g; j++)
                if (iv->regions[j].u == u && iv->regions[j].func == s->func &&
                    !strcmp(iv->regions[j].name, name))
                    g = &iv->regions[j];
            if (!g) {
                g = &iv->regions[iv->nregions++];
                *g = (struct region_row){ .u = u, .func = s->func, .name = name };
            }
            g->nsites++;
            uint64_t c = rep_site_count(&r->md, u, k);
            if (s->directives & PI_D_REGION_BEGIN) {
                g->visits = pm_sat_add(g->visits, c);
                if (!g->bfile) {
                    g->bfile = pm_unit_file(u, s->file);
                    g->bline = s->line;
                }
                continue;
            }
            g->blocks = pm_sat_add(g->blocks, c);
            g->insns += dyn_insns(code_of(r, u, k), c, &g->approx);
            if (s->line && (!g->line || s->line < g->line)) {
                g->file = pm_unit_file(u, s->file);
                g->line = s->line;
            }
        }
    }
    for (size_t j = 0; j < iv->nregions; j++)
        if (!iv->regions[j].line) {
            iv->regions[j].file = iv->regions[j].bfile;
            iv->regions[j].line = iv->regions[j].bline;
        }
    return 0;
}

void text_regions(const struct report *r)
{
    const struct ind_views *iv = r->iv;
    if (!rep_text_heading(r, iv->nregions, "Regions (visits = entries into the region; blocks "
                          "and instructions executed inside; ~ approximate)",
                          "PROG has no named region"))
        return;
    char q[64];
    int wv = 6, wb = 6, wi = 12, wn = 6, wf = 8;
    for (size_t i = 0; i < iv->nregions; i++) {
        const struct region_row *g = &iv->regions[i];
        wv = rep_widest(wv, rep_digits(g->visits), 20);
        wb = rep_widest(wb, rep_digits(g->blocks), 20);
        wi = rep_widest(wi, qty_str(q, sizeof q, g->insns, g->approx), 40);
        wn = rep_widest(wn, (int)strlen(g->name), 40);
        wf = rep_widest(wf, (int)strlen(func_name(g->u, g->func)), 40);
    }
    printf("  %*s  %*s  %*s  %-*s  %-*s  %s\n", wv, "visits", wb, "blocks", wi, "instructions", wn,
           "region", wf, "function", "file:line");
    for (size_t i = 0; i < iv->nregions; i++) {
        const struct region_row *g = &iv->regions[i];
        qty_str(q, sizeof q, g->insns, g->approx);
        printf("  %*llu  %*llu  %*s  %-*s  %-*s  %s:%u\n", wv, (unsigned long long)g->visits, wb,
               (unsigned long long)g->blocks, wi, q, wn, g->name, wf, func_name(g->u, g->func),
               g->file ? g->file : "", g->line);
    }
    for (size_t i = 0; i < iv->nregions; i++)
        if (iv->regions[i].approx) {
            printf("  (~: a block with several copies of its code counts their mean, one without "
                   "code counts 0)\n");
            break;
        }
}

void json_regions(const struct report *r)
{
    const struct ind_views *iv = r->iv;
    printf(",\n  \"regions\": [");
    for (size_t i = 0; i < iv->nregions; i++) {
        const struct region_row *g = &iv->regions[i];
        printf("%s\n    {\"region\": ", i ? "," : "");
        pm_json_str(stdout, g->name);
        printf(", \"unit\": \"0x%016llx\", \"function\": ", (unsigned long long)g->u->hdr.unit_id);
        pm_json_str(stdout, func_name(g->u, g->func));
        printf(", \"file\": ");
        pm_json_str(stdout, g->file ? g->file : "");
        printf(", \"line\": %u, \"sites\": %u, \"visits\": %llu, \"blocks\": %llu, "
               "\"instructions\": ", g->line, g->nsites, (unsigned long long)g->visits,
               (unsigned long long)g->blocks);
        put_qty(stdout, g->insns);
        printf(", \"approximate\": %s}", g->approx ? "true" : "false");
    }
    printf("%s]", iv->nregions ? "\n  " : "");
}

void csv_regions(const struct report *r)
{
    const struct ind_views *iv = r->iv;
    /* the named regions, then the ranges added at run time (kind
       "runtime": no unit, function or line; their link-time [lo, hi)) */
    printf("visits,blocks,instructions,approximate,region,unit,function,file,line,sites,kind,lo,hi\n");
    for (size_t i = 0; i < iv->nregions; i++) {
        const struct region_row *g = &iv->regions[i];
        printf("%llu,%llu,", (unsigned long long)g->visits, (unsigned long long)g->blocks);
        put_qty(stdout, g->insns);
        printf(",%d,", g->approx);
        pm_csv_str(stdout, g->name);
        printf(",0x%016llx,", (unsigned long long)g->u->hdr.unit_id);
        pm_csv_str(stdout, func_name(g->u, g->func));
        putchar(',');
        pm_csv_str(stdout, g->file ? g->file : "");
        printf(",%u,%u,directive,,\n", g->line, g->nsites);
    }
    rranges_csv(r);
}
