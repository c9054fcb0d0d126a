/* report.h — the views of `pmopt report` (cmd-report.c: options and the
 * count views: sites, functions, lines; report-ind.c: the views of the
 * indicators' records; report-dormant.c, report-pages.c, report-ranges.c,
 * report-html.c, report-annotate.c, report-diff.c, hotspot.c), over the
 * model of PROG and its traces that rep_load builds (model.h). */
#ifndef PERFINST_REPORT_H
#define PERFINST_REPORT_H

#include "model.h"

/* report-ind.c: the indicators' views, built from r->ir after rep_load. */
int rind_build(struct report *r);
void rind_text(const struct report *r);
void rind_json(const struct report *r); /* members after the count views' ones */
void rind_csv(const struct report *r);  /* r->by is one of the indicators' views */
void rind_free(struct report *r);

/* report-dormant.c: dormant classes and secondary metrics (HOT, SECONDARY,
 * TERTIARY records) and narrow counters' spills, in the indicators' views. */
void rdorm_text(const struct report *r);
void rdorm_json(const struct report *r);  /* members ", dormant: [...], spills: [...]" */

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
 * (after rep_load).  0, or -1 after an error message. */
int rep_annotate(const struct report *r, const char *path);

/* hotspot.c: --hot --record: HOTSPOT records for r->funcs (the hot view)
 * inserted before the END record of the trace at path. */
int rep_record_hotspots(const struct report *r, const char *path);


#endif /* PERFINST_REPORT_H */
