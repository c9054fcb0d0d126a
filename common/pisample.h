/* pisample.h — the one reader of a trace's stack-sampling records (30..39:
 * SAMPLE_MAP, SAMPLES, SAMPLE_STATS, IDLE_STATS; perfinst-format.h,
 * docs/sampling-stacks.md).  It walks a trace record by record with
 * pitrace's reader (pi_trace_open / pi_trace_next), decodes these records
 * and checks them (a sample that runs past its record, a frame count over
 * PI_SAMPLE_MAX_FRAMES: an error naming the file and the record), and maps
 * each frame to (object, link-time address) through the trace's SAMPLE_MAP
 * records.  Several traces add up in one pi_samples; objects are shared by
 * path and build-id.
 */
#ifndef PERFINST_PISAMPLE_H
#define PERFINST_PISAMPLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "perfinst-format.h"
#include "pimeta.h"   /* struct pi_err */
#include "pitrace.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pi_sobj {
    char *path;
    uint32_t build_id_len;
    uint8_t build_id[PI_BUILD_ID_MAX];
};

/* A frame: the object it is in (index into objs, or PI_SOBJ_NONE: in no
 * mapped object) and its link-time address (the run-time one for NONE). */
#define PI_SOBJ_NONE 0xffffffffu
struct pi_sframe {
    uint32_t obj;
    uint64_t addr;
};

struct pi_sample {
    uint64_t ts;            /* CLOCK_MONOTONIC ns */
    uint32_t kind;          /* PI_SK_* */
    uint32_t flags;         /* PI_SF_* */
    uint32_t cpu, block, tid;
    uint32_t weight;        /* timer periods it stands for (>= 1) */
    uint32_t trace;         /* which trace it came from (0-based, in read order) */
    uint32_t nframes;
    struct pi_sframe *frames; /* innermost first */
};

struct pi_samples {
    size_t nobjs;
    struct pi_sobj *objs;
    size_t n, cap;
    struct pi_sample *s;
    uint32_t ntraces;
    /* headers, added over the traces */
    int has_stats;
    struct pi_rec_sample_stats stats;   /* kind and period of the last trace */
    int has_idle;
    struct pi_rec_idle_stats idle;      /* counts summed */
};

/* Add the sampling records of trace `path`.  0, or -1 with err naming the
 * file (not a trace, or a bad sampling record).  A trace cut short gives
 * its complete records; *warning (if not NULL) then holds the reader's
 * warning (or ""). */
int pi_samples_read(const char *path, struct pi_samples *ss, char *warning, size_t wlen,
                    struct pi_err *err);
/* The same for a trace's bytes in memory (path names it in messages). */
int pi_samples_read_mem(const char *path, const void *data, size_t size, struct pi_samples *ss,
                        char *warning, size_t wlen, struct pi_err *err);
void pi_samples_free(struct pi_samples *ss);

/* Decode one record of type 30..39 for `pmopt dump`: print it as one line
 * (and the samples' frames indented below) to f.  1 if the type is one of
 * ours, else 0. */
int pi_samples_dump_rec(FILE *f, const struct pi_trace_rec *r);

const char *pi_sample_kind_name(uint32_t kind);  /* "cpu", "wall", "to-idle", "from-idle" */
const char *pi_block_kind_name(uint32_t kind);   /* "mutex", "cond", ... */

#ifdef __cplusplus
}
#endif
#endif /* PERFINST_PISAMPLE_H */
