/* model.h — a program and its traces as every command of pmopt sees them
 * (model.c: read once, the counts summed, the indicators' records
 * combined, the count views built); the report's views (report.h) and the
 * planners (plan.h) read it. */
#ifndef PERFINST_MODEL_H
#define PERFINST_MODEL_H

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
    uint64_t *sums;         /* its counters summed over the traces; NULL until a trace has counts */
    uint32_t n;
    uint64_t *stop;         /* per site: threads stopped inside it (STOPPED), NULL if none */
    uint64_t *site;         /* per site: its count, solved from sums (common/piflow.h) */
    uint64_t *arc;          /* per arc: its count */
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

struct site_code {          /* a site's code: its ranges that survived the link */
    uint32_t nranges;
    uint64_t insns;         /* summed over the ranges */
    uint64_t ntype[PI_NTYPES];
};

enum wclass {                       /* how a watched word is keyed */
    W_PROG = 0,                     /* PROG's image: its link-time address */
    W_RUNTIME = 1,                  /* outside PROG: a run-time address */
    W_RELATIVE = 2,                 /* outside PROG's image, from a merged trace: relative
                                       to PROG's load address */
};

struct wword {
    int cls;                        /* enum wclass */
    uint64_t addr;
    uint64_t reads, writes;
    char *name;                     /* "table[2]", "heap/stack", "?" (after building) */
    int is_var;
};

/* The indicators' records of the traces for PROG (model.c). */
struct ind_records {
    struct site_code **code;        /* per unit of PROG, per site; NULL until PROG is read */
    struct pi_trace ind;            /* the traces' indicator records, combined */
    uint32_t wgran;                 /* bytes per watched word; 0: no WATCH record */
    struct wword *wwords;           /* the watched words, keyed (enum wclass) */
    size_t nwwords, wcap;
};

/* The page table of one trace (PAGES records) and perf_event counts of a
 * trace region (PERF records), summed. */
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

/* A range added at run time (RANGE records), resolved by report-ranges.c. */
struct rrange {
    char *name;
    uint64_t lo, hi;
    int done;
    uint64_t visits, blocks, partial_blocks;
    long double insns;
    int approx;
    uint32_t nsites, npartial;
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
    /* the indicators' records, combined */
    struct ind_records ir;
    /* the indicators' views (report-ind.c) */
    struct ind_views *iv;
    /* the performance page table, per trace that has one (report-pages.c) */
    struct rpages *pages;
    size_t npages;
    struct rperf *perfs;            /* perf_event counts per trace_start site, summed */
    size_t nperfs;
    struct rrange *rranges;         /* ranges added at run time (report-ranges.c) */
    size_t nrranges;
};

/* With r->prog, r->ntraces and the options set, read PROG and the traces
 * (a trace of another build is refused unless r->force), sum the counts,
 * combine the indicators' records (r->ir), keep the page tables, perf
 * counts and run-time ranges, and build the count views (sites, functions,
 * lines: sorted hottest first, cut to r->hot and r->top).  0, or -1 after
 * an error message.  rep_free frees what it made, also after -1 (the
 * report's views first: rind_free). */
int rep_load(struct report *r, char **traces);
void rep_free(struct report *r);

/* The count of site k of unit u (0 when no trace counted the unit), and
 * whether the site is counted at all: a block with a counter of its own,
 * or one of a function whose arcs carry the counters. */
uint64_t rep_site_count(const struct report *r, const struct pi_unit_view *u, uint32_t k);
int rep_site_counted(const struct pi_unit_view *u, uint32_t k);
/* Sites' and arcs' counts of unit u from the counter values ctr[0..n) (a
 * trace region's deltas, say) and the threads stopped in its blocks (stop,
 * per site, or NULL): site[u->hdr.nsites], arc[u->hdr.narcs], allocated;
 * 0, or -1 after a message. */
int rep_solve(const struct pi_unit_view *u, const uint64_t *ctr, uint32_t n, const uint64_t *stop,
              uint64_t **site, uint64_t **arc);

/* gcov-lines.c: the lines of unit u's functions that have arcs, counted
 * by gcov's rule, appended to *rows (n of them, room for *cap; grown). */
int rep_gcov_lines(const struct report *r, const struct pi_unit_view *u, struct line_row **rows,
                   size_t *n, size_t *cap);

/* PROG's unit of that id if it has that site, else NULL. */
const struct pi_unit_view *rep_prog_unit(const struct report *r, uint64_t unit_id, uint32_t site);
/* The traces' indicator records combined (frames and ICALL targets at
 * link-time addresses), after rep_load; NULL before. */
const struct pi_trace *rind_combined(const struct report *r);
/* The traces' threshold events (frames at link-time addresses), after rep_load. */
size_t rind_events(const struct report *r, const struct pi_trace_event **ev);
/* The traces' SITESTAT records, folded (sorted by unit, site, kind), after rep_load. */
size_t rind_sitestats(const struct report *r, const struct pi_rec_sitestat **st);

#endif /* PERFINST_MODEL_H */
