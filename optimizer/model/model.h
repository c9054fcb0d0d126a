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
    int part;                       /* F.part.N of the early ipa-split (PI_FUNC_PART): no entries */
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
    uint64_t inlined;               /* of entries: those of its bodies the early inliner put
                                       into other functions (count-at=late's inline sites),
                                       which gcov does not count as the function's */
    const char *key;                /* the linkage name without clone suffixes (names.h) */
    const char *name, *file;        /* as shown (names.h) */
    uint32_t line;
    uint32_t ncopies;               /* >= 1 */
    uint32_t nunits;                /* the units of the copies that are not parts (F.part.N) */
    const struct func_copy *copies; /* into model.copies, by unit id, parts last */
    int uninstrumented;             /* the linker kept another object's copy, not instrumented */
    const char *linkage;            /* the assembler name (the first copy's) */
    int inlined_only;               /* no copy: only bodies the early inliner put into other
                                       functions (PI_SITE_INLINE), whose entries are the row's;
                                       u and func are then the first such caller's */
};

/* Does a row's copy K start another unit: no copy before it is of its
 * unit?  The copies are sorted whole ones first, parts (F.part.N) last,
 * so a unit whose F the inliner took whole keeps only its part (its row
 * is a unit's all the same); target clones, F.avx2 and F.default, are two
 * copies of one unit.  (A row has a few copies: the walk back is short.) */
static inline int pm_copy_starts_unit(const struct func_copy *copies, uint32_t k)
{
    for (uint32_t j = 0; j < k; j++)
        if (copies[j].u == copies[k].u)
            return 0;
    return 1;
}

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

/* PROG and its traces, loaded (model_load): what every command of pmopt
 * reads.  A command fills in what to read (prog, ntraces) and how (force,
 * top, hot: its options' values); its other options are its own (struct
 * report in report.h, struct plan in plan.h, ...). */
struct model {
    /* what to read */
    const char *prog;
    int ntraces;
    int force;                      /* read traces of another build of PROG */
    long top;                       /* cut each count view to its N hottest rows; 0: all */
    long hot;                       /* ... to its hot spots (thousandths of a percent); 0: off */
    /* inputs */
    struct pi_meta m;
    char bid[2 * PI_BUILD_ID_MAX + 1];
    struct pi_debug dbg;
    int have_dbg;
    struct usum *us;                /* m.nunits */
    struct trace_info *infos;       /* ntraces */
    /* the three count views */
    struct site_row *sites;
    struct func_row *funcs;
    struct line_row *lines;
    size_t nsites, nfuncs, nlines;
    uint64_t total_sites, total_funcs, total_lines; /* each view's total, before top/hot cut it */
    struct func_copy *copies;       /* the functions' copies, grouped by function */
    size_t ncopies;
    /* the indicators' records, combined */
    struct ind_records ir;
    /* the performance page table, per trace that has one (report-pages.c) */
    struct rpages *pages;
    size_t npages;
    struct rperf *perfs;            /* perf_event counts per trace_start site, summed */
    size_t nperfs;
    struct rrange *rranges;         /* ranges added at run time (report-ranges.c) */
    size_t nrranges;
};

/* With md->prog, md->ntraces, force, top and hot set, read PROG and the traces
 * (a trace of another build is refused unless md->force), sum the counts,
 * combine the indicators' records (md->ir), keep the page tables, perf
 * counts and run-time ranges, and build the count views (sites, functions,
 * lines: sorted hottest first, cut to md->hot and md->top).  0, or -1 after
 * an error message.  model_free frees what it made, also after -1. */
int model_load(struct model *md, char **traces);
void model_free(struct model *md);

/* The count of site k of unit u (0 when no trace counted the unit), and
 * whether the site is counted at all: a block with a counter of its own,
 * or one of a function whose arcs carry the counters. */
uint64_t rep_site_count(const struct model *md, const struct pi_unit_view *u, uint32_t k);
int rep_site_counted(const struct pi_unit_view *u, uint32_t k);
/* Sites' and arcs' counts of unit u from the counter values ctr[0..n) (a
 * trace region's deltas, say) and the threads stopped in its blocks (stop,
 * per site, or NULL): site[u->hdr.nsites], arc[u->hdr.narcs], allocated;
 * 0, or -1 after a message. */
int rep_solve(const struct pi_unit_view *u, const uint64_t *ctr, uint32_t n, const uint64_t *stop,
              uint64_t **site, uint64_t **arc);

/* gcov-lines.c: the lines of unit u's functions that have arcs, counted
 * by gcov's rule, appended to *rows (n of them, room for *cap; grown). */
int rep_gcov_lines(const struct model *md, const struct pi_unit_view *u, struct line_row **rows,
                   size_t *n, size_t *cap);

/* PROG's unit of that id if it has that site, else NULL. */
const struct pi_unit_view *rep_prog_unit(const struct model *md, uint64_t unit_id, uint32_t site);
/* The traces' indicator records combined (frames and ICALL targets at
 * link-time addresses), after model_load; NULL before. */
const struct pi_trace *rind_combined(const struct model *md);
/* The traces' threshold events (frames at link-time addresses), after model_load. */
size_t rind_events(const struct model *md, const struct pi_trace_event **ev);
/* The traces' SITESTAT records, folded (sorted by unit, site, kind), after model_load. */
size_t rind_sitestats(const struct model *md, const struct pi_rec_sitestat **st);

#endif /* PERFINST_MODEL_H */
