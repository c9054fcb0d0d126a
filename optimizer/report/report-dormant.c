/* report-dormant.c — `pmopt report`'s views of dormant classes (seed 004
 * M25: secondary and tertiary metrics, times flagged hot) and of narrow
 * counters' spills, from the SITESTAT records runtime/armed.c and the
 * narrow counters leave (perfinst-format.h: PI_STAT_HOT, PI_STAT_SECONDARY,
 * PI_STAT_TERTIARY, PI_STAT_SPILL).  Shown with the indicators.
 *
 *   Dormant classes (level: 1 off, 2 counting the class, 3 also timing)
 *     level  flagged hot  invocations  secondary  class   tertiary  cycles mean  function  file:line
 *         2            1           70       2170  branch         0            -  walk      w.c:12
 *
 *   Narrow counters (the count is the 64-bit total: spills plus what was left in the narrow counter)
 *     width  spills     count  function  file:line
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

struct drow {
    const struct pi_unit_view *u;
    uint32_t site;
    int has_hot, has_sec, has_ter;
    struct pi_rec_sitestat hot, sec, ter;
};

static const struct pi_unit_view *unit_site(const struct report *r, uint64_t unit_id, uint32_t site)
{
    const struct pi_unit_view *u = pi_meta_unit(&r->md.m, unit_id);
    return u && site < u->hdr.nsites ? u : NULL;
}

/* Rows of the dormant view (one per function entry site), in the records'
 * order (unit, site); *n rows.  NULL with *n = 0 if none (or no memory). */
static struct drow *dormant_rows(const struct report *r, size_t *n)
{
    const struct pi_rec_sitestat *st;
    size_t ns = rind_sitestats(&r->md, &st), k = 0;
    struct drow *rows = calloc(ns ? ns : 1, sizeof *rows);
    *n = 0;
    if (!rows)
        return NULL;
    for (size_t i = 0; i < ns; i++) {
        const struct pi_rec_sitestat *s = &st[i];
        if (s->kind != PI_STAT_HOT && s->kind != PI_STAT_SECONDARY && s->kind != PI_STAT_TERTIARY)
            continue;
        const struct pi_unit_view *u = unit_site(r, s->unit_id, s->site);
        if (!u)
            continue;
        if (!k || rows[k - 1].u != u || rows[k - 1].site != s->site)
            rows[k++] = (struct drow){.u = u, .site = s->site};
        struct drow *d = &rows[k - 1];
        if (s->kind == PI_STAT_HOT)
            d->hot = *s, d->has_hot = 1;
        else if (s->kind == PI_STAT_SECONDARY)
            d->sec = *s, d->has_sec = 1;
        else
            d->ter = *s, d->has_ter = 1;
    }
    *n = k;
    return rows;
}

static void class_str(uint32_t arg, char *buf, size_t n)
{
    uint32_t types = PI_SITE_DORMANT_TYPES(arg);
    buf[0] = 0;
    for (unsigned t = 0; t < PI_NTYPES; t++)
        if (types & (1u << t)) {
            size_t l = strlen(buf);
            snprintf(buf + l, n - l, "%s%s", l ? "|" : "", pi_itype_name(t));
        }
    if (!buf[0])
        snprintf(buf, n, "-");
}

static const char *fname(const struct pi_unit_view *u, uint32_t site)
{
    return pm_func_name(u, u->sites[site].func);
}

void rdorm_text(const struct report *r)
{
    size_t n;
    struct drow *rows = dormant_rows(r, &n);
    if (n) {
        printf("\nDormant classes (level: 1 off, 2 counting the class from the entry after a "
               "primary threshold, 3 also timing; invocations = entries counted at level 2 or 3; secondary = the class's instructions)\n");
        printf("  %5s  %11s  %11s  %12s  %-14s  %8s  %11s  %-10s  %s\n", "level", "flagged hot",
               "invocations", "secondary", "class", "tertiary", "cycles mean", "function",
               "file:line");
        for (size_t i = 0; i < n; i++) {
            const struct drow *d = &rows[i];
            const struct pi_site *s = &d->u->sites[d->site];
            char cls[64], cy[32];
            class_str(s->arg, cls, sizeof cls);
            if (d->has_ter && d->ter.count)
                snprintf(cy, sizeof cy, "%llu", (unsigned long long)(d->ter.sum / d->ter.count));
            else
                snprintf(cy, sizeof cy, "-");
            printf("  %5llu  %11llu  %11llu  %12llu  %-14s  %8llu  %11s  %-10s  %s:%u\n",
                   (unsigned long long)(d->has_hot ? d->hot.max : 1),
                   (unsigned long long)d->hot.count, (unsigned long long)d->sec.execs,
                   (unsigned long long)d->sec.count, cls, (unsigned long long)d->ter.count, cy,
                   fname(d->u, d->site), pm_unit_file(d->u, s->file), s->line);
        }
    }
    free(rows);
    const struct pi_rec_sitestat *st;
    size_t ns = rind_sitestats(&r->md, &st), nsp = 0;
    for (size_t i = 0; i < ns; i++)
        nsp += st[i].kind == PI_STAT_SPILL && unit_site(r, st[i].unit_id, st[i].site);
    if (!nsp)
        return;
    printf("\nNarrow counters (count = the exact total: the spills into the 64-bit counter plus "
           "what was left in the narrow one)\n");
    printf("  %5s  %10s  %14s  %-10s  %s\n", "width", "spills", "count", "function", "file:line");
    for (size_t i = 0; i < ns; i++) {
        const struct pi_rec_sitestat *x = &st[i];
        const struct pi_unit_view *u = unit_site(r, x->unit_id, x->site);
        if (x->kind != PI_STAT_SPILL || !u)
            continue;
        const struct pi_site *s = &u->sites[x->site];
        uint64_t count = rep_site_count(&r->md, u, x->site);
        printf("  %5llu  %10llu  %14llu  %-10s  %s:%u\n", (unsigned long long)x->max,
               (unsigned long long)x->count, (unsigned long long)count, fname(u, x->site),
               pm_unit_file(u, s->file), s->line);
    }
}

void rdorm_json(const struct report *r)
{
    size_t n;
    struct drow *rows = dormant_rows(r, &n);
    printf(",\n  \"dormant\": [");
    for (size_t i = 0; i < n; i++) {
        const struct drow *d = &rows[i];
        const struct pi_site *s = &d->u->sites[d->site];
        char cls[64];
        class_str(s->arg, cls, sizeof cls);
        printf("%s\n    {\"unit\": \"0x%016llx\", \"site\": %u, \"function\": ", i ? "," : "",
               (unsigned long long)d->u->hdr.unit_id, d->site);
        pm_json_str(stdout, fname(d->u, d->site));
        printf(", \"class\": ");
        pm_json_str(stdout, cls);
        printf(", \"level\": %llu, \"flagged_hot\": %llu, \"invocations\": %llu, \"secondary\": %llu, "
               "\"tertiary\": %llu, \"tertiary_cycles\": %llu}",
               (unsigned long long)(d->has_hot ? d->hot.max : 1), (unsigned long long)d->hot.count,
               (unsigned long long)d->sec.execs, (unsigned long long)d->sec.count,
               (unsigned long long)d->ter.count, (unsigned long long)d->ter.sum);
    }
    printf("%s]", n ? "\n  " : "");
    free(rows);
    const struct pi_rec_sitestat *st;
    size_t ns = rind_sitestats(&r->md, &st), k = 0;
    printf(",\n  \"spills\": [");
    for (size_t i = 0; i < ns; i++) {
        const struct pi_rec_sitestat *x = &st[i];
        const struct pi_unit_view *u = unit_site(r, x->unit_id, x->site);
        if (x->kind != PI_STAT_SPILL || !u)
            continue;
        printf("%s\n    {\"unit\": \"0x%016llx\", \"site\": %u, \"function\": ", k++ ? "," : "",
               (unsigned long long)u->hdr.unit_id, x->site);
        pm_json_str(stdout, fname(u, x->site));
        printf(", \"width\": %llu, \"spills\": %llu}", (unsigned long long)x->max,
               (unsigned long long)x->count);
    }
    printf("%s]", k ? "\n  " : "");
}
