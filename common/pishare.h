/* pishare.h — the one reader of the sharing records of a trace
 * (PI_REC_SHARE_LINE/SITE/THREAD/ALLOC, perfinst-format.h, docs/formats.md).
 *
 * pi_share_read walks a trace with pitrace's record reader and keeps the
 * sharing records, checked: a record whose length does not match its
 * counts is a hard error naming the file and the record.  Addresses stay
 * run-time addresses; the caller maps them through the trace's MODULE
 * records (pi_trace_read). */
#ifndef PERFINST_PISHARE_H
#define PERFINST_PISHARE_H

#include <stddef.h>
#include <stdint.h>
#include "perfinst-format.h"
#include "pimeta.h" /* struct pi_err */

#ifdef __cplusplus
extern "C" {
#endif

struct pi_share_line_v {
    struct pi_rec_share_line rec;
    struct pi_share_thr *thr;  /* rec.nthreads */
};

struct pi_share_site_v {
    struct pi_rec_share_site rec;
    char *what;                /* NULL or "STRUCT FIELD OFFSET SIZE" */
};

struct pi_share_alloc_v {
    struct pi_rec_share_alloc rec;
    uint64_t *frames;          /* rec.nframes */
};

struct pi_share {
    size_t nlines, nsites, nthreads, nallocs;
    struct pi_share_line_v *lines;   /* in trace order */
    struct pi_share_site_v *sites;
    struct pi_rec_share_thread *threads;
    struct pi_share_alloc_v *allocs;
};

/* Read the sharing records of the trace at path into *s (zeroed first).
 * 0, or -1 with a message in err (not a trace, a malformed record).  A
 * truncated trace is not an error here: the complete records are used. */
int pi_share_read(const char *path, struct pi_share *s, struct pi_err *err);
/* The same, from bytes in memory (the fuzz harness). */
int pi_share_parse(const char *path, const void *data, size_t size, struct pi_share *s, struct pi_err *err);
void pi_share_free(struct pi_share *s);

/* A thread's OS id by small id, 0 if the trace does not say. */
uint32_t pi_share_tid(const struct pi_share *s, uint32_t thread);

#ifdef __cplusplus
}
#endif

#endif
