/* merge.h — traces of one program combined in memory (merge.c): what
 * `pmopt merge` writes, and what report --sharing and plan --sharing of
 * several traces analyse. */
#ifndef PERFINST_OPT_MERGE_H
#define PERFINST_OPT_MERGE_H

#include "pishare.h"
#include "pitrace.h"

/* The traces at paths[0..n), each one's counts times weights[i] (weights
 * NULL: 1), read and combined into *res (modules, units' counts, the
 * indicators' and watch records, ranges, header; res->path NULL, no extra
 * records) and *share (their sharing records, module-relative and
 * folded).  PM_OK, or PM_ERROR after a message; either way pm_merge_free
 * frees both. */
int pm_merge_traces(char **paths, const uint64_t *weights, int ntraces, int force, struct pi_trace *res,
                    struct pi_share *share);
void pm_merge_free(struct pi_trace *res, struct pi_share *share);

#endif
