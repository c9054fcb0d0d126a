/* report-ind.h — what the views of the indicators' records share (report-ind.c:
 * the instruction counts, names, and the dispatch from rind_build,
 * rind_text, rind_json and rind_csv to one file per view: view-*.c). */
#ifndef PERFINST_REPORT_IND_H
#define PERFINST_REPORT_IND_H

#include "report.h"

#include <stdlib.h>
#include <string.h>

#include "piutil.h"
#include "report.h"

struct ind_row {
    const struct pi_unit_view *u;
    struct pi_rec_sitestat st;
};

struct region_row {
    const struct pi_unit_view *u;
    uint32_t func;
    const char *name;
    const char *file;               /* the first line of its body, else its begin site's */
    uint32_t line;
    const char *bfile;              /* its region_begin site's */
    uint32_t bline;
    uint32_t nsites;
    uint64_t visits, blocks;
    long double insns;
    int approx;
};

struct treg_func {
    const struct pi_unit_view *u;
    uint32_t func;
    int has_entry;
    uint64_t entries, blocks;
};

struct treg_row {
    const struct pi_unit_view *u;   /* the trace_start site's */
    uint32_t site;
    const char *dfile;              /* DWARF's line at the start site's code, or NULL */
    uint32_t dline;
    int has_stat;
    struct pi_rec_sitestat st;      /* PI_STAT_TRACE of the start site */
    uint64_t blocks;
    long double insns;
    int approx;
    uint64_t foreign;               /* block executions in units PROG does not have */
    size_t nfuncs;
    struct treg_func *funcs;
};

struct types_site {
    uint32_t site;
    uint64_t count;
    uint32_t nranges;
    long double insns;              /* static, per execution (mean over the ranges) */
    long double stat[PI_NTYPES];
};

struct types_fn {
    const struct pi_unit_view *u;
    uint32_t func;
    uint32_t mask;                  /* 1 << PI_T_* requested */
    int approx;
    size_t nsites;
    struct types_site *sites;
};

struct cnode {                      /* the callers' tree */
    const char *name;
    uint64_t count;
    size_t nkids, kcap;
    size_t *kids;
};

struct wsite {
    const struct pi_unit_view *u;
    uint32_t site;
    uint64_t accesses, words;
};

struct ind_views {
    struct ind_row *inds;
    size_t ninds;
    struct region_row *regions;
    size_t nregions;
    struct treg_row *tregs;
    size_t ntregs;
    struct types_fn *types;
    size_t ntypes;
    struct cnode *nodes;
    size_t nnodes, ncap;
    size_t *roots;
    size_t nroots, rcap;
    uint64_t nevents;
    uint64_t nevents_other;         /* of them, not threshold events (combinations, dormant) */
    size_t wnamed;                  /* r->md.ir.wwords[0 .. wnamed) own their names */
    struct wsite *wsites;
    size_t nwsites;
};

/* report-ind.c */
const struct site_code *code_of(const struct report *r, const struct pi_unit_view *u, uint32_t site);
long double dyn_insns(const struct site_code *c, uint64_t count, int *approx);
void put_qty(FILE *f, long double v);
int qty_str(char *buf, size_t n, long double v, int approx);
const char *func_name(const struct pi_unit_view *u, uint32_t func);
void json_where(const struct pi_unit_view *u, uint32_t site);

/* One file per view: build (rind_build), text, JSON members, CSV table. */
void json_indicators(const struct report *r);
void csv_indicators(const struct report *r);
int build_indicators(struct report *r);
void text_indicators(const struct report *r);
void json_callers(const struct report *r);
void csv_callers(const struct report *r);
int build_callers(struct report *r);
void text_callers(const struct report *r);
void json_regions(const struct report *r);
void csv_regions(const struct report *r);
int build_regions(struct report *r);
void text_regions(const struct report *r);
void json_trace(const struct report *r);
void csv_trace(const struct report *r);
int build_trace(struct report *r);
void text_trace(const struct report *r);
void json_types(const struct report *r);
void csv_types(const struct report *r);
int build_types(struct report *r);
void text_types(const struct report *r);
void json_watch(const struct report *r);
void csv_watch(const struct report *r);
void json_watch_sites(const struct report *r);
void csv_watch_sites(const struct report *r);
int build_watch(struct report *r);
void text_watch(const struct report *r);
void text_watch_sites(const struct report *r);

#endif /* PERFINST_REPORT_IND_H */
