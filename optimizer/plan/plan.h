/* plan.h — what the planners of `pmopt plan` share.  cmd-plan.c parses the
 * options, reads PROG and the traces once (model_load), and calls each
 * planner (plan-branches.c, and others beside it) with the same struct
 * plan; each adds its numbered recommendations to the feedback file, or
 * with --advise prints them as advice for the programmer, with the same
 * numbers. */
#ifndef PERFINST_PLAN_H
#define PERFINST_PLAN_H

#include <stdint.h>
#include <stdio.h>
#include "pifeedback.h"
#include "model.h"

struct plan {
    struct model *md;        /* PROG and the counts summed over the traces */
    struct pifb_writer *w;   /* the feedback file; NULL with --advise */
    FILE *advice;            /* --advise: where advice goes (stdout); else NULL */
    FILE *out;               /* the plan's summary (stdout, or stderr with -o -) */
    uint32_t number;         /* the last recommendation's number */
    long tier_hot;           /* plan-branches: functions with this share of the
                                block executions (thousandths of a percent) go
                                to .text.hot */
    long promote_share;      /* plan-promote: a target with this share of an
                                indirect call site's calls (thousandths of a
                                percent; 0: no promote-call) */
    uint64_t promote_min;    /* plan-promote: ... and at least these calls */
};

/* recs.c, the one writer of recommendations (kinds and keys:
 * common/pifeedback's table).  One recommendation: plan_begin returns its
 * number; then arguments, then plan_end.  With --advise nothing is written, but numbers are counted the
 * same way, so advice N is recommendation N of the file. */
uint32_t plan_begin(struct plan *p, const char *kind);
void plan_arg(struct plan *p, const char *key, const char *value);
void plan_arg_u64(struct plan *p, const char *key, uint64_t value);
void plan_arg_hex(struct plan *p, const char *key, uint64_t value);
void plan_arg_cfg(struct plan *p, const struct pi_func *fn); /* checksum= and at= */
/* src= (U's source key), and variant= when another unit of PROG has that
 * key with another variant (the same file compiled twice with other
 * definitions or options: the producer's variant=, gcc-plugin/unit.cc) */
void plan_arg_src(struct plan *p, const struct pi_unit_view *u);
/* U's variant: its producer's "variant=HEX", or 0 (a plugin before it) */
uint64_t plan_unit_variant(const struct pi_unit_view *u);
void plan_end(struct plan *p);
/* Advice about recommendation n: "N. TEXT" on p->advice, or a comment
 * "# N. TEXT" in the feedback file. */
void plan_advice(struct plan *p, uint32_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* One recommendation with its keys kv (key, value, ..., NULL, as the
 * order's planner makes them) after a comment: written to w ("# COMMENT",
 * then the record), or without w printed on stdout as "N. KIND: COMMENT"
 * and one "key=value" line per key; numbered *number + 1. */
void plan_rec(struct pifb_writer *w, uint32_t *number, const char *kind, const char *comment,
              const char *const *kv);

/* plan-callers.c: pmopt plan --expand-callers=levels; the overlay's text
 * in *text (malloc'ed), or with advise the choice on stdout.  0 or -1. */
int plan_expand_callers(struct model *md, int levels, int advise, char **text, size_t *len);
/* plan-samples.c: re-rank md->funcs by sampled self time (each row's blocks
 * become its self timer periods; ties by inclusive periods, then name);
 * *sampled_total: all sampled periods.  0, or -1 after a message. */
int plan_rank_by_samples(struct model *md, char **traces, uint64_t *sampled_total);

/* The planners.  0, or -1 after an error message. */
int plan_branches(struct plan *p);  /* plan-branches.c: branch-profile, function-tier */
int plan_promote(struct plan *p);   /* plan-promote.c: promote-call */
int plan_copies(struct plan *p, const char *map); /* plan-copies.c: copy-profile */
/* `pmopt plan --check=FEEDBACK PROG`: which function profiles of a feedback
 * file still match PROG's functions (name, source and CFG checksum),
 * weighted by their block executions. */
int plan_check_branches(const struct pi_meta *m, const struct pifb_file *fb, FILE *out);

#endif /* PERFINST_PLAN_H */
