/* report.h — the views of `pmopt report` (cmd-report.c: options and the
 * count views: sites, functions, lines; report-ind.c: the views of the
 * indicators' records; report-dormant.c, report-pages.c, report-ranges.c,
 * report-html.c (the page; report-html.h), report-annotate.c,
 * report-diff.c, hotspot.c), over the model of PROG and its traces that
 * model_load builds (model.h, r->md). */
#ifndef PERFINST_REPORT_H
#define PERFINST_REPORT_H

#include "model.h"

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

struct ind_views;           /* report-ind.c */

/* pmopt report: the model of PROG and its traces and the report's options. */
struct report {
    struct model md;                /* PROG and its traces (model.h) */
    /* options */
    enum fmt fmt;
    int by;
    int by_given;                   /* --by named the views: print them even when empty */
    int units;                      /* --units: list each function's units in text */
    /* the indicators' views (report-ind.c) */
    struct ind_views *iv;
};

/* report-ind.c: the indicators' views, built from r->md.ir after model_load. */
int rind_build(struct report *r);
void rind_text(const struct report *r);
void rind_json(const struct report *r); /* members after the count views' ones */
void rind_csv(const struct report *r);  /* r->by is one of the indicators' views */
void rind_free(struct report *r);

/* A text view's heading (after rind_build): nothing when the view has no
 * row and --by did not name it; "\nTITLE\n", and "  (none: WHY)" when it has
 * no row.  Whether its rows follow. */
int rep_text_heading(const struct report *r, size_t nrows, const char *title, const char *why);

/* report-dormant.c: dormant classes and secondary metrics (HOT, SECONDARY,
 * TERTIARY records) and narrow counters' spills, in the indicators' views. */
void rdorm_text(const struct report *r);
void rdorm_json(const struct report *r);  /* members ", dormant: [...], spills: [...]" */

/* report-html.c: pmopt report --html=FILE, one self-contained page (each
 * view writes its section: report-html.h). 0, or -1 after an error message. */
int rep_html_write(const struct report *r, const char *path);

/* report-pages.c: the page table's view (PAGES records), per trace, and
 * perf_event counts of trace regions (PERF records), summed. */
void rpages_text(const struct report *r);
void rpages_json(const struct report *r);
void rperf_text(const struct report *r);
void rperf_json(const struct report *r);

/* report-ranges.c: ranges added at run time (RANGE records, perfinst_range_add),
 * resolved against PROG's blocks and the summed counts in the regions view. */
void rranges_text(const struct report *r);
void rranges_json(const struct report *r);  /* member ", runtime_ranges: [...]" */
void rranges_csv(const struct report *r);   /* rows of the regions table, kind "runtime" */


/* report-annotate.c: --annotate=FILE, FILE's source with each line's count
 * (after model_load).  0, or -1 after an error message. */
int rep_annotate(const struct report *r, const char *path);

/* hotspot.c: --hot --record: HOTSPOT records for r->md.funcs (the hot view)
 * inserted before the END record of the trace at path. */
int rep_record_hotspots(const struct report *r, const char *path);


#endif /* PERFINST_REPORT_H */
