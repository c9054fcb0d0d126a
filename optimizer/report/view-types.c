/* view-types.c — `pmopt report`'s view of the types: functions marked
 * types(...), per site and function the dynamic count of each requested
 * instruction type (static count of the site's code × the site's count). Its
 * text, JSON and CSV are here together (report-ind.c calls them). */
#include <stdlib.h>
#include <string.h>

#include "report-ind.h"

/* The types a function asked for: types(...) puts the mask into its sites'
 * arg; a cycles probe's site uses arg for its code, so it is not read. */
static uint32_t types_mask(const struct pi_unit_view *u, const struct pi_func *fn)
{
    uint32_t mask = 0;
    for (uint32_t k = fn->first_site; k < fn->first_site + fn->nsites; k++) {
        const struct pi_site *s = &u->sites[k];
        if (s->directives & PI_D_TYPES)
            mask |= PI_SITE_TYPES(s->arg);
    }
    return mask & ((1u << PI_NTYPES) - 1);
}

int build_types(struct report *r)
{
    struct ind_views *iv = r->iv;
    const struct pi_meta *m = &r->md.m;
    size_t cap = 0;
    for (size_t i = 0; i < m->nunits; i++)
        cap += m->units[i].hdr.nfuncs;
    iv->types = calloc(cap ? cap : 1, sizeof *iv->types);
    if (!iv->types)
        return rep_oom();
    for (size_t i = 0; i < m->nunits; i++) {
        const struct pi_unit_view *u = &m->units[i];
        for (uint32_t f = 0; f < u->hdr.nfuncs; f++) {
            const struct pi_func *fn = &u->funcs[f];
            uint32_t mask = types_mask(u, fn);
            if (!mask)
                continue;
            struct types_fn *tf = &iv->types[iv->ntypes++];
            *tf = (struct types_fn){ .u = u, .func = f, .mask = mask };
            tf->sites = calloc(fn->nsites ? fn->nsites : 1, sizeof *tf->sites);
            if (!tf->sites)
                return rep_oom();
            for (uint32_t k = fn->first_site; k < fn->first_site + fn->nsites; k++) {
                if (!rep_site_counted(u, k))
                    continue;
                const struct site_code *c = code_of(r, u, k);
                struct types_site *ts = &tf->sites[tf->nsites++];
                ts->site = k;
                ts->count = rep_site_count(&r->md, u, k);
                ts->nranges = c->nranges;
                if (ts->count && c->nranges != 1)
                    tf->approx = 1;
                if (c->nranges) {
                    ts->insns = (long double)c->insns / c->nranges;
                    for (unsigned t = 0; t < PI_NTYPES; t++)
                        ts->stat[t] = (long double)c->ntype[t] / c->nranges;
                }
            }
        }
    }
    return 0;
}

void text_types(const struct report *r)
{
    const struct ind_views *iv = r->iv;
    if (!rep_text_heading(r, iv->ntypes, "Types (dynamic count = the static count of the type "
                          "in the site's code × the site's count; ~ approximate)",
                          "no function of PROG is marked types(...)"))
        return;
    char q[64];
    for (size_t i = 0; i < iv->ntypes; i++) {
        const struct types_fn *tf = &iv->types[i];
        const struct pi_func *fn = &tf->u->funcs[tf->func];
        printf("  %s (%s:%u): types", pm_unit_fname(tf->u, fn->name), pm_unit_file(tf->u, fn->file),
               fn->line);
        const char *sep = " ";
        for (unsigned t = 0; t < PI_NTYPES; t++)
            if (tf->mask & (1u << t)) {
                printf("%s%s", sep, pi_itype_name(t));
                sep = ", ";
            }
        printf("%s\n", tf->approx ? " (approximate: a site has several code copies or none)" : "");
        printf("    %12s  %12s", "count", "insns");
        for (unsigned t = 0; t < PI_NTYPES; t++)
            if (tf->mask & (1u << t))
                printf("  %12s", pi_itype_name(t));
        printf("  %5s  %s\n", "site", "file:line");
        long double tot_i = 0, tot[PI_NTYPES] = { 0 };
        uint64_t tot_c = 0;
        for (size_t k = 0; k < tf->nsites; k++) {
            const struct types_site *ts = &tf->sites[k];
            const struct pi_site *s = &tf->u->sites[ts->site];
            int ap = ts->count && ts->nranges != 1;
            printf("    %12llu", (unsigned long long)ts->count);
            qty_str(q, sizeof q, ts->insns * ts->count, ap);
            printf("  %12s", q);
            tot_i += ts->insns * ts->count;
            tot_c = pm_sat_add(tot_c, ts->count);
            for (unsigned t = 0; t < PI_NTYPES; t++)
                if (tf->mask & (1u << t)) {
                    qty_str(q, sizeof q, ts->stat[t] * ts->count, ap);
                    printf("  %12s", q);
                    tot[t] += ts->stat[t] * ts->count;
                }
            printf("  %5u  %s:%u\n", ts->site, pm_unit_file(tf->u, s->file), s->line);
        }
        printf("    %12s", "total");
        qty_str(q, sizeof q, tot_i, tf->approx);
        printf("  %12s", q);
        for (unsigned t = 0; t < PI_NTYPES; t++)
            if (tf->mask & (1u << t)) {
                qty_str(q, sizeof q, tot[t], tf->approx);
                printf("  %12s", q);
            }
        printf("\n");
    }
}

void json_types(const struct report *r)
{
    const struct ind_views *iv = r->iv;
    printf(",\n  \"types\": [");
    for (size_t i = 0; i < iv->ntypes; i++) {
        const struct types_fn *tf = &iv->types[i];
        const struct pi_func *fn = &tf->u->funcs[tf->func];
        printf("%s\n    {\"unit\": \"0x%016llx\", \"function\": ", i ? "," : "",
               (unsigned long long)tf->u->hdr.unit_id);
        pm_json_str(stdout, pm_unit_fname(tf->u, fn->name));
        printf(", \"file\": ");
        pm_json_str(stdout, pm_unit_file(tf->u, fn->file));
        printf(", \"line\": %u, \"types\": [", fn->line);
        const char *sep = "";
        for (unsigned t = 0; t < PI_NTYPES; t++)
            if (tf->mask & (1u << t)) {
                printf("%s\"%s\"", sep, pi_itype_name(t));
                sep = ", ";
            }
        printf("], \"approximate\": %s, \"dynamic\": {", tf->approx ? "true" : "false");
        sep = "";
        for (unsigned t = 0; t < PI_NTYPES; t++)
            if (tf->mask & (1u << t)) {
                long double v = 0;
                for (size_t k = 0; k < tf->nsites; k++)
                    v += tf->sites[k].stat[t] * tf->sites[k].count;
                printf("%s\"%s\": ", sep, pi_itype_name(t));
                put_qty(stdout, v);
                sep = ", ";
            }
        printf("}, \"sites\": [");
        for (size_t k = 0; k < tf->nsites; k++) {
            const struct types_site *ts = &tf->sites[k];
            const struct pi_site *s = &tf->u->sites[ts->site];
            printf("%s\n      {\"site\": %u, \"file\": ", k ? "," : "", ts->site);
            pm_json_str(stdout, pm_unit_file(tf->u, s->file));
            printf(", \"line\": %u, \"count\": %llu, \"ranges\": %u, \"insns\": ", s->line,
                   (unsigned long long)ts->count, ts->nranges);
            put_qty(stdout, ts->insns);
            printf(", \"static\": {");
            sep = "";
            for (unsigned t = 0; t < PI_NTYPES; t++)
                if (tf->mask & (1u << t)) {
                    printf("%s\"%s\": ", sep, pi_itype_name(t));
                    put_qty(stdout, ts->stat[t]);
                    sep = ", ";
                }
            printf("}, \"dynamic\": {");
            sep = "";
            for (unsigned t = 0; t < PI_NTYPES; t++)
                if (tf->mask & (1u << t)) {
                    printf("%s\"%s\": ", sep, pi_itype_name(t));
                    put_qty(stdout, ts->stat[t] * ts->count);
                    sep = ", ";
                }
            printf("}}");
        }
        printf("%s]}", tf->nsites ? "\n    " : "");
    }
    printf("%s]", iv->ntypes ? "\n  " : "");
}

void csv_types(const struct report *r)
{
    const struct ind_views *iv = r->iv;
    /* one row per site of a types(...) function; a column per type,
     * empty for types the function did not ask for */
    printf("unit,function,site,file,line,count,ranges,insns");
    for (unsigned t = 0; t < PI_NTYPES; t++)
        printf(",%s", pi_itype_name(t));
    putchar('\n');
    for (size_t i = 0; i < iv->ntypes; i++) {
        const struct types_fn *tf = &iv->types[i];
        for (size_t k = 0; k < tf->nsites; k++) {
            const struct types_site *ts = &tf->sites[k];
            const struct pi_site *s = &tf->u->sites[ts->site];
            printf("0x%016llx,", (unsigned long long)tf->u->hdr.unit_id);
            pm_csv_str(stdout, func_name(tf->u, tf->func));
            printf(",%u,", ts->site);
            pm_csv_str(stdout, pm_unit_file(tf->u, s->file));
            printf(",%u,%llu,%u,", s->line, (unsigned long long)ts->count, ts->nranges);
            put_qty(stdout, ts->insns * ts->count);
            for (unsigned t = 0; t < PI_NTYPES; t++) {
                putchar(',');
                if (tf->mask & (1u << t))
                    put_qty(stdout, ts->stat[t] * ts->count);
            }
            putchar('\n');
        }
    }
}
