/* view-indicators.c — `pmopt report`'s view of the indicators: per site with
 * a SITESTAT, executions the probe saw, hits (trap: handler calls;
 * threshold: events; cycles: executions over the threshold; trace:
 * intervals), the threshold, and cycles mean/min/max for cycles and trace
 * probes. Its text, JSON and CSV are here together (report-ind.c calls
 * them). */
#include <stdlib.h>
#include <string.h>

#include "report-ind.h"

static const char *const stat_hits[] = {
    [PI_STAT_TRAP] = "handler calls",
    [PI_STAT_THRESHOLD] = "events",
    [PI_STAT_CYCLES] = "executions over the threshold",
    [PI_STAT_TRACE] = "intervals",
    [PI_STAT_COMBINE] = "fires of evaluations",
};

static int cmp_ind(const void *a, const void *b)
{
    const struct ind_row *x = a, *y = b;
    const struct pi_site *sx = &x->u->sites[x->st.site], *sy = &y->u->sites[y->st.site];
    int c = strcmp(pm_unit_file(x->u, sx->file), pm_unit_file(y->u, sy->file));
    if (c)
        return c;
    PI_CMP_RET(sx->line, sy->line);
    PI_CMP_RET(x->st.unit_id, y->st.unit_id);
    PI_CMP_RET(x->st.site, y->st.site);
    return x->st.kind < y->st.kind ? -1 : x->st.kind > y->st.kind;
}

int build_indicators(struct report *r)
{
    struct ind_views *iv = r->iv;
    iv->inds = calloc(r->md.ir.ind.nsitestats ? r->md.ir.ind.nsitestats : 1, sizeof *iv->inds);
    if (!iv->inds)
        return rep_oom();
    for (size_t i = 0; i < r->md.ir.ind.nsitestats; i++) {
        const struct pi_rec_sitestat *s = &r->md.ir.ind.sitestats[i];
        const struct pi_unit_view *u = rep_prog_unit(&r->md, s->unit_id, s->site);
        if (u && s->kind != PI_STAT_WATCH && /* the watch views show those */
            !(s->kind >= PI_STAT_HOT && s->kind <= PI_STAT_SPILL)) /* and report-dormant.c those */
            iv->inds[iv->ninds++] = (struct ind_row){ .u = u, .st = *s };
    }
    if (iv->ninds)
        qsort(iv->inds, iv->ninds, sizeof *iv->inds, cmp_ind);
    return 0;
}

/* ---------------------------------------------------------------------- */
/* What a threshold means                                                    */
/* ---------------------------------------------------------------------- */

/* The runtime's default cycles code table (PERFINST_THRESH_TABLE changes it
 * at run time; the trace does not say to what). */
static const uint64_t default_code_bits[3] = { 10, 50, 100 };

struct thr {
    int has;                /* a threshold applies */
    uint64_t value;
    int from_code;          /* value = the code through the default table */
    uint32_t code;
};

static struct thr threshold_of(const struct pi_site *s, uint32_t kind)
{
    struct thr t = { 0 };
    if (kind == PI_STAT_THRESHOLD) {
        t.has = 1;
        t.value = s->threshold;
    } else if (kind == PI_STAT_CYCLES) {
        t.has = 1;
        if (s->threshold) {
            t.value = s->threshold;
        } else {
            t.from_code = 1;
            t.code = PI_SITE_CYCLES_CODE(s->arg);
            for (int k = 0; k < 3; k++)
                if (t.code & (1u << k))
                    t.value += default_code_bits[k];
        }
    }
    return t;
}

static void threshold_text(const struct pi_site *s, uint32_t kind, char *buf, size_t n)
{
    struct thr t = threshold_of(s, kind);
    if (!t.has)
        snprintf(buf, n, "-");
    else if (kind == PI_STAT_THRESHOLD)
        snprintf(buf, n, "count=%llu", (unsigned long long)t.value);
    else if (!t.from_code)
        snprintf(buf, n, ">%llu cycles", (unsigned long long)t.value);
    else
        snprintf(buf, n, "code 0b%u%u%u = %llu cycles (default table 10/50/100)",
                 (t.code >> 2) & 1, (t.code >> 1) & 1, t.code & 1, (unsigned long long)t.value);
}

static int has_cycles(uint32_t kind)
{
    return kind == PI_STAT_CYCLES || kind == PI_STAT_TRACE;
}

void text_indicators(const struct report *r)
{
    const struct ind_views *iv = r->iv;
    if (!rep_text_heading(r, iv->ninds, "Indicators (hits: trap = handler calls, threshold = "
                          "events, cycles = executions over the threshold, trace = intervals, "
                          "combine = combinations fired of evaluations)",
                          "no SITESTAT record for PROG's sites"))
        return;
    char he[64], th[128], cy[96], loc[4096];
    int wh = 13, wt = 9, wc = 19, wf = 8;
    for (size_t i = 0; i < iv->ninds; i++) {
        const struct ind_row *x = &iv->inds[i];
        const struct pi_site *s = &x->u->sites[x->st.site];
        wh = rep_widest(wh, snprintf(he, sizeof he, "%llu of %llu", (unsigned long long)x->st.count,
                                     (unsigned long long)x->st.execs), 45);
        threshold_text(s, x->st.kind, th, sizeof th);
        wt = rep_widest(wt, (int)strlen(th), 60);
        wf = rep_widest(wf, (int)strlen(func_name(x->u, s->func)), 40);
        if (has_cycles(x->st.kind) && x->st.execs)
            wc = rep_widest(wc, snprintf(cy, sizeof cy, "%llu/%llu/%llu",
                                         (unsigned long long)(x->st.sum / x->st.execs),
                                         (unsigned long long)x->st.min,
                                         (unsigned long long)x->st.max), 64);
    }
    printf("  %-9s  %*s  %-*s  %-*s  %-*s  %s\n", "kind", wh, "hits of execs", wt, "threshold",
           wc, "cycles mean/min/max", wf, "function", "file:line");
    for (size_t i = 0; i < iv->ninds; i++) {
        const struct ind_row *x = &iv->inds[i];
        const struct pi_site *s = &x->u->sites[x->st.site];
        snprintf(he, sizeof he, "%llu of %llu", (unsigned long long)x->st.count,
                 (unsigned long long)x->st.execs);
        threshold_text(s, x->st.kind, th, sizeof th);
        if (has_cycles(x->st.kind) && x->st.execs)
            snprintf(cy, sizeof cy, "%llu/%llu/%llu", (unsigned long long)(x->st.sum / x->st.execs),
                     (unsigned long long)x->st.min, (unsigned long long)x->st.max);
        else
            snprintf(cy, sizeof cy, "-");
        snprintf(loc, sizeof loc, "%s:%u", pm_unit_file(x->u, s->file), s->line);
        printf("  %-9s  %*s  %-*s  %-*s  %-*s  %s\n", pi_trace_stat_kind_name(x->st.kind), wh, he,
               wt, th, wc, cy, wf, func_name(x->u, s->func), loc);
    }
    for (size_t i = 0; i < iv->ninds; i++)
        if (iv->inds[i].st.kind == PI_STAT_CYCLES &&
            threshold_of(&iv->inds[i].u->sites[iv->inds[i].st.site], PI_STAT_CYCLES).from_code) {
            printf("  (a cycles code means what PERFINST_THRESH_TABLE said in the run; the trace "
                   "does not record it, the default table is shown)\n");
            break;
        }
}

void json_indicators(const struct report *r)
{
    const struct ind_views *iv = r->iv;
    printf(",\n  \"indicators\": [");
    for (size_t i = 0; i < iv->ninds; i++) {
        const struct ind_row *x = &iv->inds[i];
        const struct pi_site *s = &x->u->sites[x->st.site];
        printf("%s\n    {", i ? "," : "");
        json_where(x->u, x->st.site);
        printf(", \"kind\": ");
        pm_json_str(stdout, pi_trace_stat_kind_name(x->st.kind));
        printf(", \"execs\": %llu, \"hits\": %llu, \"hits_are\": ",
               (unsigned long long)x->st.execs, (unsigned long long)x->st.count);
        pm_json_str(stdout, x->st.kind < sizeof stat_hits / sizeof *stat_hits && stat_hits[x->st.kind]
                                ? stat_hits[x->st.kind] : "?");
        struct thr t = threshold_of(s, x->st.kind);
        if (t.has && t.from_code)
            printf(", \"threshold\": %llu, \"threshold_from\": \"code 0x%x, default table\"",
                   (unsigned long long)t.value, t.code);
        else if (t.has)
            printf(", \"threshold\": %llu, \"threshold_from\": \"directive\"",
                   (unsigned long long)t.value);
        else
            printf(", \"threshold\": null, \"threshold_from\": null");
        if (has_cycles(x->st.kind))
            printf(", \"cycles\": {\"sum\": %llu, \"mean\": %llu, \"min\": %llu, \"max\": %llu}",
                   (unsigned long long)x->st.sum,
                   (unsigned long long)(x->st.execs ? x->st.sum / x->st.execs : 0),
                   (unsigned long long)x->st.min, (unsigned long long)x->st.max);
        else
            printf(", \"cycles\": null");
        printf("}");
    }
    printf("%s]", iv->ninds ? "\n  " : "");
    rdorm_json(r);
}

void csv_indicators(const struct report *r)
{
    const struct ind_views *iv = r->iv;
    printf("hits,execs,kind,unit,site,function,file,line,threshold,threshold_from,"
           "cycles_mean,cycles_min,cycles_max\n");
    for (size_t i = 0; i < iv->ninds; i++) {
        const struct ind_row *x = &iv->inds[i];
        const struct pi_site *s = &x->u->sites[x->st.site];
        printf("%llu,%llu,%s,0x%016llx,%u,", (unsigned long long)x->st.count,
               (unsigned long long)x->st.execs, pi_trace_stat_kind_name(x->st.kind),
               (unsigned long long)x->u->hdr.unit_id, x->st.site);
        pm_csv_str(stdout, func_name(x->u, s->func));
        putchar(',');
        pm_csv_str(stdout, pm_unit_file(x->u, s->file));
        printf(",%u,", s->line);
        struct thr t = threshold_of(s, x->st.kind);
        if (t.has)
            printf("%llu,%s", (unsigned long long)t.value,
                   t.from_code ? "default code table" : "directive");
        else
            putchar(',');
        if (has_cycles(x->st.kind))
            printf(",%llu,%llu,%llu\n",
                   (unsigned long long)(x->st.execs ? x->st.sum / x->st.execs : 0),
                   (unsigned long long)x->st.min, (unsigned long long)x->st.max);
        else
            printf(",,,\n");
    }
}
