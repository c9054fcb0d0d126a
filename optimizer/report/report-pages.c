/* report-pages.c — `pmopt report`'s views of the performance page table
 * (seed 004 M31; PAGES records, runtime/pagetable.c) and of perf_event
 * counts in trace regions (PERF records, runtime/perfev.c).
 *
 * Addresses in a PAGES record are run-time addresses of one process, so
 * the view is per trace, not summed: for each trace that has one, the
 * epochs, the look-aside buffer's hits, misses and hit rate, one row per
 * range (touches, threshold, handler calls) and the page touches per
 * epoch.  Text shows it after the other views; json adds a "pages" member
 * (one object per trace with a page table).
 *
 * PERF records are summed per (trace_start site, event) over the traces
 * and named by the site's function and line in PROG's metadata; json adds
 * a "perf" member.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

struct rpages {
    char *path;
    struct pi_rec_pages h;
    struct pi_page_range *ranges;
    uint64_t *epochs;
};

struct rperf {
    uint64_t unit_id;
    uint32_t site;
    uint32_t event;
    uint64_t intervals, value;
};

static int rperf_add_trace(struct report *r, const struct pi_trace *t)
{
    for (size_t k = 0; k < t->nperfs; k++) {
        const struct pi_trace_perf *p = &t->perfs[k];
        for (uint32_t i = 0; i < p->h.nevents; i++) {
            struct rperf *x = NULL;
            for (size_t j = 0; j < r->nperfs && !x; j++)
                if (r->perfs[j].unit_id == p->h.unit_id && r->perfs[j].site == p->h.site &&
                    r->perfs[j].event == p->v[i].event)
                    x = &r->perfs[j];
            if (!x) {
                struct rperf *a = realloc(r->perfs, (r->nperfs + 1) * sizeof *a);
                if (!a)
                    return rep_oom();
                r->perfs = a;
                x = &a[r->nperfs++];
                memset(x, 0, sizeof *x);
                x->unit_id = p->h.unit_id;
                x->site = p->h.site;
                x->event = p->v[i].event;
            }
            x->intervals = pm_sat_add(x->intervals, p->h.intervals);
            x->value = pm_sat_add(x->value, p->v[i].value);
        }
    }
    return 0;
}

/* "function file:line" of a trace_start site, or the unit and site. */
static void site_str(const struct report *r, uint64_t unit_id, uint32_t site, char *buf, size_t n)
{
    const struct pi_unit_view *u = pi_meta_unit(&r->m, unit_id);
    if (u && site < u->hdr.nsites) {
        const struct pi_site *s = &u->sites[site];
        snprintf(buf, n, "%s %s:%u", pm_func_name(u, s->func), pm_unit_file(u, s->file), s->line);
    } else
        snprintf(buf, n, "unit 0x%016llx site %u", (unsigned long long)unit_id, site);
}

void rperf_text(const struct report *r)
{
    if (!(r->by & BY_PERF) || (!r->nperfs && !r->by_given))
        return;
    printf("\nperf_event counts in trace regions (PERFINST_PERF), summed over the intervals\n");
    if (!r->nperfs) {
        printf("  (none: no PERF record)\n");
        return;
    }
    printf("  %-18s  %10s  %20s  %s\n", "event", "intervals", "value", "trace_start");
    char where[512];
    for (size_t i = 0; i < r->nperfs; i++) {
        const struct rperf *x = &r->perfs[i];
        const char *nm = pi_perf_event_name(x->event);
        site_str(r, x->unit_id, x->site, where, sizeof where);
        printf("  %-18s  %10llu  %20llu  %s\n", nm ? nm : "?", (unsigned long long)x->intervals,
               (unsigned long long)x->value, where);
    }
}

void rperf_json(const struct report *r)
{
    if (!(r->by & BY_PERF) || !r->nperfs)
        return;
    printf(",\n  \"perf\": [");
    for (size_t i = 0; i < r->nperfs; i++) {
        const struct rperf *x = &r->perfs[i];
        const char *nm = pi_perf_event_name(x->event);
        printf("%s\n    {\"unit\": \"0x%016llx\", \"site\": %u, \"event\": ", i ? "," : "",
               (unsigned long long)x->unit_id, x->site);
        pm_json_str(stdout, nm ? nm : "?");
        printf(", \"intervals\": %llu, \"value\": %llu}", (unsigned long long)x->intervals,
               (unsigned long long)x->value);
    }
    printf("\n  ]");
}

int rpages_add_trace(struct report *r, const struct pi_trace *t)
{
    if (rperf_add_trace(r, t))
        return -1;
    if (!t->has_pages)
        return 0;
    struct rpages *a = realloc(r->pages, (r->npages + 1) * sizeof *a);
    if (!a)
        return rep_oom();
    r->pages = a;
    struct rpages *p = &a[r->npages];
    memset(p, 0, sizeof *p);
    p->h = t->pages;
    p->path = strdup(t->path);
    p->ranges = calloc(t->pages.nranges + 1, sizeof *p->ranges);
    p->epochs = calloc(t->pages.nepochs + 1, sizeof *p->epochs);
    r->npages++;
    if (!p->path || !p->ranges || !p->epochs)
        return rep_oom();
    memcpy(p->ranges, t->page_ranges, t->pages.nranges * sizeof *p->ranges);
    memcpy(p->epochs, t->epoch_touches, t->pages.nepochs * sizeof *p->epochs);
    return 0;
}

static double hit_rate(const struct pi_rec_pages *h)
{
    uint64_t n = h->lookaside_hits + h->lookaside_misses;
    return n ? 100.0 * (double)h->lookaside_hits / (double)n : 0.0;
}

void rpages_text(const struct report *r)
{
    if (!(r->by & BY_PAGES))
        return;
    for (size_t k = 0; k < r->npages; k++) {
        const struct rpages *p = &r->pages[k];
        printf("\nPerformance page table (%s): %llu epoch%s, %u page%s of %u bytes\n", p->path,
               (unsigned long long)p->h.epochs, p->h.epochs == 1 ? "" : "s", p->h.npages,
               p->h.npages == 1 ? "" : "s", p->h.page_size);
        printf("  look-aside buffer: %llu hits, %llu misses, hit rate %.1f%%\n",
               (unsigned long long)p->h.lookaside_hits, (unsigned long long)p->h.lookaside_misses,
               hit_rate(&p->h));
        printf("  %5s  %-18s  %10s  %10s  %10s  %8s\n", "range", "address", "bytes", "touches",
               "threshold", "handler");
        for (uint32_t i = 0; i < p->h.nranges; i++) {
            const struct pi_page_range *g = &p->ranges[i];
            char th[24] = "-";
            if (g->threshold)
                snprintf(th, sizeof th, "%llu", (unsigned long long)g->threshold);
            printf("  %5u  0x%016llx  %10llu  %10llu  %10s  %8llu%s\n", g->id,
                   (unsigned long long)g->addr, (unsigned long long)g->len,
                   (unsigned long long)g->touches, th, (unsigned long long)g->fired,
                   g->live ? "" : "  (removed)");
        }
        if (p->h.nepochs) {
            printf("  page touches per epoch:");
            for (uint32_t i = 0; i < p->h.nepochs; i++)
                printf(" %llu", (unsigned long long)p->epochs[i]);
            printf("%s\n", p->h.nepochs < p->h.epochs ? " ..." : "");
        }
    }
}

void rpages_json(const struct report *r)
{
    if (!(r->by & BY_PAGES) || !r->npages)
        return;
    printf(",\n  \"pages\": [");
    for (size_t k = 0; k < r->npages; k++) {
        const struct rpages *p = &r->pages[k];
        printf("%s\n    {\"trace\": ", k ? "," : "");
        pm_json_str(stdout, p->path);
        printf(", \"epochs\": %llu, \"page_size\": %u, \"pages\": %u, \"lookaside_hits\": %llu, "
               "\"lookaside_misses\": %llu, \"hit_rate\": %.4f, \"ranges\": [",
               (unsigned long long)p->h.epochs, p->h.page_size, p->h.npages,
               (unsigned long long)p->h.lookaside_hits, (unsigned long long)p->h.lookaside_misses,
               hit_rate(&p->h) / 100.0);
        for (uint32_t i = 0; i < p->h.nranges; i++) {
            const struct pi_page_range *g = &p->ranges[i];
            printf("%s{\"range\": %u, \"address\": \"0x%llx\", \"bytes\": %llu, \"touches\": %llu, "
                   "\"threshold\": %llu, \"fired\": %llu, \"live\": %s}", i ? ", " : "", g->id,
                   (unsigned long long)g->addr, (unsigned long long)g->len,
                   (unsigned long long)g->touches, (unsigned long long)g->threshold,
                   (unsigned long long)g->fired, g->live ? "true" : "false");
        }
        printf("], \"touches_per_epoch\": [");
        for (uint32_t i = 0; i < p->h.nepochs; i++)
            printf("%s%llu", i ? ", " : "", (unsigned long long)p->epochs[i]);
        printf("]}");
    }
    printf("\n  ]");
}

void rpages_free(struct report *r)
{
    for (size_t k = 0; k < r->npages; k++) {
        free(r->pages[k].path);
        free(r->pages[k].ranges);
        free(r->pages[k].epochs);
    }
    free(r->pages);
    r->pages = NULL;
    r->npages = 0;
    free(r->perfs);
    r->perfs = NULL;
    r->nperfs = 0;
}
