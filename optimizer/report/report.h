/* report.h — what the two halves of `pmopt report` share: cmd-report.c
 * (options, reading PROG and the traces, the count views: sites, functions,
 * lines) and report-ind.c (the views of the indicators' records:
 * indicators, callers, regions, trace regions, types, watched data); and
 * what `pmopt plan` (cmd-plan.c) reuses of them: rep_load, the count views. */
#ifndef PERFINST_REPORT_H
#define PERFINST_REPORT_H

#include <stdint.h>
#include <stdio.h>
#include "names.h"
#include "pidwarf.h"
#include "pmopt.h"

enum fmt { FMT_TEXT, FMT_JSON, FMT_CSV };
/* Views (--by=NAME; --callers adds BY_CALLERS; --by=watch is BY_WATCH and
 * BY_WATCH_SITES, in csv BY_WATCH alone). */
enum {
    BY_SITE = 1, BY_FUNCTION = 2, BY_LINE = 4,
    BY_INDICATORS = 8, BY_REGIONS = 16, BY_TRACE = 32, BY_TYPES = 64, BY_CALLERS = 128,
    BY_WATCH = 256,          /* watched data per word */
    BY_WATCH_SITES = 512,    /* watched data per access site */
    BY_PAGES = 1 << 16,      /* the performance page table (report-pages.c) */
    BY_PERF = 1 << 17,       /* perf_event counts of trace regions (report-pages.c) */
    /* the default of text and json (callers: --callers) */
    BY_ALL = 1 | 2 | 4 | 8 | 16 | 32 | 64 | 256 | 512,
};

struct usum {               /* per unit of PROG */
    uint64_t *sums;         /* NULL until a trace has counts for the unit */
    uint32_t n;
    uint64_t *site_addr;    /* first range address per site, 0 if none */
};

struct trace_info {         /* what the output says about each trace */
    char *path;
    uint32_t nrecords, flags;
    int finished, truncated;
    struct pi_rec_lost lost[PI_LOST_NTABLES]; /* what the runtime's tables could not hold */
};

struct site_row {
    const struct pi_unit_view *u;
    uint32_t site;
    uint64_t count;
    const char *func, *file;        /* as shown (names.h) */
    const char *linkage;            /* the function's linkage name */
    uint32_t line;
    uint64_t addr;
};

/* One unit's copy of a function. */
struct func_copy {
    const struct pi_unit_view *u;
    uint32_t func;
    const char *key, *file;         /* as in struct func_row */
    int has_entry;
    uint64_t entries, blocks;
};

/* A function of the program: every unit's copy of it (an inline or
 * template function, a static inline of a header: the same linkage name
 * defined at the same file and line) in one row, summed. */
struct func_row {
    const struct pi_unit_view *u;   /* the first copy's (copies[0]) */
    uint32_t func;
    int has_entry;                  /* some copy has a counted entry block */
    uint64_t entries, blocks;       /* summed over the copies */
    const char *key;                /* the linkage name without clone suffixes (names.h) */
    const char *name, *file;        /* as shown (names.h) */
    uint32_t line;
    uint32_t ncopies;               /* >= 1 */
    const struct func_copy *copies; /* into report.copies, by unit id */
    int uninstrumented;             /* the linker kept another object's copy, not instrumented */
};

struct line_row {
    const char *file;
    uint32_t line;
    uint64_t count;
    uint64_t unit_id;       /* while grouping */
};

struct ind_views;           /* report-ind.c */

struct report {
    /* options */
    enum fmt fmt;
    int by, force;
    int by_given;                   /* --by named the views: print them even when empty */
    long top;
    long hot;                       /* --hot=PCT in thousandths of a percent; 0: off */
    const char *prog;
    /* inputs */
    struct pi_meta m;
    char bid[2 * PI_BUILD_ID_MAX + 1];
    struct pi_debug dbg;
    int have_dbg;
    struct usum *us;                /* m.nunits */
    int ntraces;
    struct trace_info *infos;       /* ntraces */
    /* the three count views */
    struct site_row *sites;
    struct func_row *funcs;
    struct line_row *lines;
    size_t nsites, nfuncs, nlines;
    uint64_t total_sites, total_funcs, total_lines; /* each view's total, before --top/--hot cut it */
    struct func_copy *copies;       /* the functions' copies, grouped by function */
    size_t ncopies;
    int units;                      /* --units: list each function's units in text */
    /* the indicators' views */
    struct ind_views *iv;
    /* the performance page table, per trace that has one (report-pages.c) */
    struct rpages *pages;
    size_t npages;
    struct rperf *perfs;            /* perf_event counts per trace_start site, summed */
    size_t nperfs;
    struct rrange *rranges;         /* ranges added at run time (report-ranges.c) */
    size_t nrranges;
};

/* report-ind.c: called by cmd-report.c in this order. */
int rind_init(struct report *r);     /* after PROG was read: its code per site */
/* A trace's indicator records for PROG's units; mod is PROG's module in t
 * (NULL: none, nothing of t is used). */
int rind_add_trace(struct report *r, const struct pi_trace *t, const struct pi_trace_module *mod);
int rind_build(struct report *r);    /* after every trace */
void rind_text(const struct report *r);
void rind_json(const struct report *r); /* members after the count views' ones */
void rind_csv(const struct report *r);  /* r->by is one of the indicators' views */
void rind_free(struct report *r);
/* The traces' indicator records combined (frames and ICALL targets at
 * link-time addresses), after rep_load; NULL before rind_init. */
const struct pi_trace *rind_combined(const struct report *r);
/* The traces' threshold events (frames at link-time addresses), after rep_load. */
size_t rind_events(const struct report *r, const struct pi_trace_event **ev);
/* The traces' SITESTAT records, folded (sorted by unit, site, kind), after rep_load. */
size_t rind_sitestats(const struct report *r, const struct pi_rec_sitestat **st);

/* report-dormant.c: dormant classes and secondary metrics (HOT, SECONDARY,
 * TERTIARY records) and narrow counters' spills, in the indicators' views. */
void rdorm_text(const struct report *r);
void rdorm_json(const struct report *r);  /* members ", dormant: [...], spills: [...]" */

/* plan-callers.c: pmopt plan --expand-callers=levels; the overlay's text
 * in *text (malloc'ed), or with advise the choice on stdout.  0 or -1. */
int plan_expand_callers(struct report *r, int levels, int advise, char **text, size_t *len);
/* The callers' tree (after rind_build), depth first: visit(ctx, depth, name,
 * events) with depth 0 for the marked functions, deeper for their callers.
 * Returns the number of threshold events the tree was made from. */
uint64_t rind_callers_walk(const struct report *r, void (*visit)(void *, int, const char *, uint64_t),
                           void *ctx);

/* report-html.c: pmopt report --html=FILE, one self-contained page. 0, or
 * -1 after an error message. */
int rep_html_write(const struct report *r, const char *path);

/* report-pages.c: the page table's view (PAGES records), per trace, and
 * perf_event counts of trace regions (PERF records), summed. */
int rpages_add_trace(struct report *r, const struct pi_trace *t);
void rpages_text(const struct report *r);
void rpages_json(const struct report *r);
void rperf_text(const struct report *r);
void rperf_json(const struct report *r);
void rpages_free(struct report *r);

/* report-ranges.c: ranges added at run time (RANGE records, perfinst_range_add),
 * resolved against PROG's blocks and the summed counts in the regions view. */
int rranges_add_trace(struct report *r, const struct pi_trace *t);
void rranges_text(const struct report *r);
void rranges_json(const struct report *r);  /* member ", runtime_ranges: [...]" */
void rranges_csv(const struct report *r);   /* rows of the regions table, kind "runtime" */
void rranges_free(struct report *r);

/* cmd-report.c, also for `pmopt plan` (cmd-plan.c): with r->prog, r->ntraces
 * and the options set, read PROG and the traces (a trace of another build
 * is refused unless r->force), sum the counts and build the count views
 * (sites, functions, lines: sorted hottest first, cut to r->top).  0, or -1
 * after an error message.  rep_free frees what it made, also after -1. */
int rep_load(struct report *r, char **traces);
/* plan-samples.c: re-rank r->funcs by sampled self time (each row's blocks
 * become its self timer periods; ties by inclusive periods, then name);
 * *sampled_total: all sampled periods.  0, or -1 after a message. */
int plan_rank_by_samples(struct report *r, char **traces, uint64_t *sampled_total);
void rep_free(struct report *r);

/* report-annotate.c: --annotate=FILE, FILE's source with each line's count
 * (after rep_load).  0, or -1 after an error message. */
int rep_annotate(const struct report *r, const char *path);
/* "12.5%" of total into buf ("-" when total is 0). */
const char *rep_pct(char *buf, size_t n, uint64_t v, uint64_t total);

/* hotspot.c: --hot --record: HOTSPOT records for r->funcs (the hot view)
 * inserted before the END record of the trace at path. */
int rep_record_hotspots(const struct report *r, const char *path);

/* Shared by both halves. */
int rep_oom(void);
int rep_digits(uint64_t v);
int rep_widest(int have, int len, int cap);

#endif /* PERFINST_REPORT_H */
