/* export.h — what the writers of `pmopt export` share (cmd-export.c: the
 * command, its table of formats and the input every writer reads; one
 * file per format: export-chrome.c, export-pprof.c, export-callgrind.c,
 * export-lcov.c, export-speedscope.c; the flame graph and folded stacks
 * are export-stacks.c's).  docs/exports.md describes the formats.
 *
 * The input is PROG and its traces, read once for every format asked:
 *   - the exact counts (when PROG has .perfinst metadata and the traces
 *     count something): `pmopt report`'s views (model_load: sites,
 *     functions, lines) and the call arcs (pf_call_arcs);
 *   - the stack samples (timer and idle-transition samples) as
 *     `pmopt report --tree` reads them (stk_load), frames named by
 *     stk_frame.
 */
#ifndef PERFINST_EXPORT_H
#define PERFINST_EXPORT_H

#include <stdint.h>
#include <stdio.h>
#include "profile.h"
#include "model.h"
#include "stacks.h"

/* A table of ids by a key of two words (pointers to interned strings,
 * indices, addresses).  exp_tab_slot: the slot of (a, b), NULL when
 * memory ran out; its id is 0 when (a, b) was not there: set it (> 0). */
struct exp_tab {
    uint64_t *ka, *kb;
    uint32_t *id;                /* 0: empty */
    size_t cap, n;
};
uint32_t *exp_tab_slot(struct exp_tab *t, uint64_t a, uint64_t b);
uint32_t exp_tab_get(const struct exp_tab *t, uint64_t a, uint64_t b); /* 0: not there */
void exp_tab_free(struct exp_tab *t);

struct exp_in {
    const char *prog;            /* NULL: only stack samples */
    char **traces;
    int ntraces;
    int counts;                  /* md and arcs hold PROG's counts */
    struct model md;
    struct call_arc *arcs;
    size_t narcs;
    struct stk_tree t;           /* the stack samples (t.ss.n may be 0) */
    struct exp_tab fkeys;        /* exp_func_by_key's index */
};

/* The period of the timer samples in ns (0 if none) and of idle ticks. */
uint64_t exp_sample_period(const struct exp_in *in);
uint64_t exp_idle_period(const struct exp_in *in);

/* A file as pm_file shows it, as a path to open: absolute when it can be
 * made so (under the source root, else relative to the current
 * directory).  Interned. */
const char *exp_open_path(const char *shown);

/* The function of PROG whose linkage name (clone suffixes dropped) is key:
 * its row in md.funcs, NULL if PROG has none (a library function). */
const struct func_row *exp_func_by_key(struct exp_in *in, const char *key);

/* Coverage (export-lcov.c, for export-lcov.c and export-gcovr.c): the
 * functions (entries), lines (`pmopt report --by=line`'s counts) and
 * branches (a block's edges) of PROG's counts, sorted by file (as opened,
 * exp_open_path), kind, line, block, branch.  0, or -1 after an error
 * message (no counts: out names the output).  Free cov->v. */
enum { COV_FN, COV_BRANCH, COV_LINE };
struct exp_cov_rec {
    const char *file;
    int kind;
    uint32_t line;
    const char *name;            /* COV_FN: the linkage name without clone suffixes */
    uint64_t count;              /* entries, the line's count, the branch's */
    uint32_t block, branch;      /* COV_BRANCH: numbered from 1 over the file, from 0 */
    int ran;                     /* COV_BRANCH: the block ran */
};
struct exp_cov {
    struct exp_cov_rec *v;
    size_t n, cap;
    int oom;
};
int exp_coverage(struct exp_in *in, const char *out, struct exp_cov *cov);

/* The writers: 0, or -1 after an error message. */
int export_chrome(struct exp_in *in, const char *out);
int export_pprof(struct exp_in *in, const char *out);
int export_callgrind(struct exp_in *in, const char *out);
int export_lcov(struct exp_in *in, const char *out);
int export_gcovr(struct exp_in *in, const char *out);
int export_speedscope(struct exp_in *in, const char *out);

#endif /* PERFINST_EXPORT_H */
