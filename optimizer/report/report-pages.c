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

/* "function file:line" of a trace_start site, or the unit and site. */
static void site_str(const struct report *r, uint64_t unit_id, uint32_t site, char *buf, size_t n)
{
    const struct pi_unit_view *u = pi_meta_unit(&r->md.m, unit_id);
    if (u && site < u->hdr.nsites) {
        const struct pi_site *s = &u->sites[site];
        snprintf(buf, n, "%s %s:%u", pm_func_name(u, s->func), pm_unit_file(u, s->file), s->line);
    } else
        snprintf(buf, n, "unit 0x%016llx site %u", (unsigned long long)unit_id, site);
}

void rperf_text(const struct report *r)
{
    if (!(r->by & BY_PERF) ||
        !rep_text_heading(r, r->md.nperfs, "perf_event counts in trace regions (PERFINST_PERF), "
                          "summed over the intervals", "no PERF record"))
        return;
    printf("  %-18s  %10s  %20s  %s\n", "event", "intervals", "value", "trace_start");
    char where[512];
    for (size_t i = 0; i < r->md.nperfs; i++) {
        const struct rperf *x = &r->md.perfs[i];
        const char *nm = pi_perf_event_name(x->event);
        site_str(r, x->unit_id, x->site, where, sizeof where);
        printf("  %-18s  %10llu  %20llu  %s\n", nm ? nm : "?", (unsigned long long)x->intervals,
               (unsigned long long)x->value, where);
    }
}

void rperf_json(const struct report *r)
{
    if (!(r->by & BY_PERF) || !r->md.nperfs)
        return;
    printf(",\n  \"perf\": [");
    for (size_t i = 0; i < r->md.nperfs; i++) {
        const struct rperf *x = &r->md.perfs[i];
        const char *nm = pi_perf_event_name(x->event);
        printf("%s\n    {\"unit\": \"0x%016llx\", \"site\": %u, \"event\": ", i ? "," : "",
               (unsigned long long)x->unit_id, x->site);
        pm_json_str(stdout, nm ? nm : "?");
        printf(", \"intervals\": %llu, \"value\": %llu}", (unsigned long long)x->intervals,
               (unsigned long long)x->value);
    }
    printf("\n  ]");
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
    for (size_t k = 0; k < r->md.npages; k++) {
        const struct rpages *p = &r->md.pages[k];
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
    if (!(r->by & BY_PAGES) || !r->md.npages)
        return;
    printf(",\n  \"pages\": [");
    for (size_t k = 0; k < r->md.npages; k++) {
        const struct rpages *p = &r->md.pages[k];
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
