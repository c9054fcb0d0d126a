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
#include "pitrace.h"

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

struct pi_share_region_v {
    struct pi_rec_share_region rec;
    char *path;                /* "" for an anonymous mapping */
};

struct pi_share {
    size_t nlines, nsites, nthreads, nallocs;
    struct pi_share_line_v *lines;   /* in trace order */
    struct pi_share_site_v *sites;
    struct pi_rec_share_thread *threads;
    struct pi_share_alloc_v *allocs;
    size_t nregions;
    struct pi_share_region_v *regions; /* the writable mappings (PI_REC_SHARE_REGION) */
    int has_stats;
    struct pi_rec_share_stats stats;   /* the tables' sizes and losses (PI_REC_SHARE_STATS), summed */
};

/* d += x: losses summed, sizes the largest. */
void pi_share_stats_add(struct pi_rec_share_stats *d, const struct pi_rec_share_stats *x);

/* Read the sharing records of the trace at path into *s (zeroed first).
 * 0, or -1 with a message in err (not a trace, a malformed record).  A
 * truncated trace is not an error here: the complete records are used. */
int pi_share_read(const char *path, struct pi_share *s, struct pi_err *err);
/* The same, from bytes in memory (the fuzz harness). */
int pi_share_parse(const char *path, const void *data, size_t size, struct pi_share *s, struct pi_err *err);
void pi_share_free(struct pi_share *s);

/* The writable mapping holding run-time address addr, or NULL. */
const struct pi_share_region_v *pi_share_region_of(const struct pi_share *s, uint64_t addr);

/* A thread's OS id by small id, 0 if the trace does not say. */
uint32_t pi_share_tid(const struct pi_share *s, uint32_t thread);

/* ---- the arrays' facts (section .perfinst_share_arrays of a program) ------
 * Written by the plugin's arrays pass (gcc-plugin/repair-arrays.cc) in
 * builds with sharing detection: one text line per static or global array
 * of scalars of each unit,
 *   "pi-share-array NAME FILE LINE ELEMENT-SIZE COUNT ok\n"
 *   "pi-share-array NAME FILE LINE ELEMENT-SIZE COUNT refused REASON\n"
 * (docs/formats.md): whether a rebuild may pad its elements apart. */
struct pi_share_array {
    char name[128], file[256];
    uint32_t line;
    uint64_t elem_size, count;
    int ok;              /* 1: only indexed, static, no initializer: pad-array applies */
    char reason[512];    /* refused: why; ok: "public" (renamed when padded) or "" */
};
/* The facts in the ELF file at path (*out malloc'd, *n of them; none: 0
 * and NULL).  -1 with err when the file cannot be read as ELF; malformed
 * lines are skipped. */
int pi_share_arrays_read(const char *path, struct pi_share_array **out, size_t *n, struct pi_err *err);
/* The same from the section's bytes (the fuzz harness, tests). */
int pi_share_arrays_parse(const char *data, size_t size, struct pi_share_array **out, size_t *n);

/* ---- merging (pmopt merge, and report/plan --sharing of several traces) --
 *
 * pi_share_add adds copies of src's records (read from the trace st, as
 * pi_trace_read read it) to dst, made module-relative the way a merged
 * trace holds them (like WATCH words, pi_trace_add_watch): an address in a
 * module of st — a site's pc, an allocation's frames, a line (and a site's
 * line) that is in a module and in no recorded heap object — becomes its
 * link-time address tagged with 1 + the position of the module with the
 * same identity among modules[] (PI_WATCH_MODULE); addresses in the brk
 * heap (the [heap] REGION: lines, allocations, the region itself) become
 * heap-relative, tagged PI_SHARE_HEAP_TAG, so that a deterministic
 * program's heap objects are the same lines in every run; other heap
 * addresses and frames outside every module keep theirs.  Records of a merged st are
 * retagged.  Then pi_share_fold.  Threads are identified by their small id
 * (the order in which they first touched instrumented shared data): thread
 * k of every input is thread k of the result.  -1 with err when out of
 * memory. */
#define PI_SHARE_HEAP_TAG 0xfeu /* merged: brk-heap addresses, heap-relative */
int pi_share_add(struct pi_share *dst, const struct pi_share *src, const struct pi_trace *st,
                 const struct pi_trace_module *modules, size_t nmodules, struct pi_err *err);
/* Combine the records of one identity and sort them, so that the result
 * does not depend on the order of the inputs: LINEs by address (counts
 * summed, saturating; per thread: masks or'ed, counts summed, the CPU kept
 * when the same, else ~0u), SITEs by (pc, line, thread, what) (flags and
 * masks or'ed, counts summed), THREADs by id (OS id and CPU kept when the
 * same, else 0 and ~0u; the largest period), ALLOCs identical in every
 * field deduplicated, sorted by (addr, seq, ...).  -1 with err when out of
 * memory. */
int pi_share_fold(struct pi_share *s, struct pi_err *err);
/* s's records as trace records for pi_trace_write (t->extra): *out is
 * malloc'd (free it after the write), NULL when s is empty.  -1 when out
 * of memory. */
int pi_share_records(const struct pi_share *s, struct pi_trace_extra **out, size_t *n);

#ifdef __cplusplus
}
#endif

#endif
