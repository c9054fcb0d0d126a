/* pitrace.h — the one reader and writer of perfinst traces (*.pit).
 *
 * A trace is a 48-byte header and self-checking records (perfinst-format.h,
 * docs/formats.md).  Two ways to read one:
 *
 *   - record by record (pi_trace_open / pi_trace_next): what `pmopt dump`
 *     prints, every record decoded and checked;
 *   - as a whole (pi_trace_read): process, modules, counts summed per
 *     (module, unit), the indicators' records (SITESTAT combined per
 *     (unit, site, kind), EVENTs all kept in a fixed order, TRACEREG summed
 *     per (start site, unit), WATCH words summed per address), signal,
 *     whether the trace was finished.
 *
 * Two kinds of trouble:
 *
 *   hard errors (return -1, message in err): not a trace, bad magic, a
 *   version this reader does not know, header CRC mismatch, and records
 *   whose CRCs are right but whose contents are inconsistent (a writer bug);
 *
 *   a trace cut short (a warning, the complete records are used): the file
 *   ends inside a record, a record's CRC is wrong (a crash or a full disk
 *   during the write), or the END record is missing.  The reader stops at
 *   the first such record and says
 *     "TRACE: truncated after N complete records (offset 0x...): the program
 *      may have crashed".
 *
 * Record types this reader does not know are skipped and counted
 * (nunknown): a new record type does not need a new trace version, a
 * changed layout does.
 *
 * The writer (pi_trace_write) writes a whole trace to a temporary file in
 * the destination's directory and renames it, so a reader never sees half
 * of it; `pmopt merge` uses it, the runtime has its own async-signal-safe
 * writer of the same bytes.
 */
#ifndef PERFINST_PITRACE_H
#define PERFINST_PITRACE_H

#include <stddef.h>
#include <stdint.h>
#include "perfinst-format.h"
#include "pimeta.h" /* struct pi_err */

#ifdef __cplusplus
extern "C" {
#endif

/* ---- record by record ---------------------------------------------------- */

struct pi_trace_file {
    char *path;
    const uint8_t *data;     /* the whole file */
    size_t size;
    void *map;               /* mmap of the file, or NULL */
    size_t map_size;
    struct pi_trace_hdr hdr; /* validated */
    uint64_t off;            /* offset of the next record */
    uint32_t nrecords;       /* complete records returned so far */
    int end_seen;            /* an END record was read */
    int stopped;             /* the walk stopped early: warning says why */
    uint64_t stop_offset;    /* where it stopped */
    char warning[1024];      /* "" or the truncation / trailing-bytes message */
};

/* One record, checked and decoded.  Pointers point into the file's bytes
 * and live as long as the pi_trace_file. */
struct pi_trace_rec {
    uint32_t index;          /* 0-based record number */
    uint64_t offset;         /* file offset of its pi_rec_hdr */
    struct pi_rec_hdr hdr;
    const uint8_t *payload;  /* hdr.size bytes */
    union {
        struct pi_rec_process process;
        struct pi_rec_module module;
        struct pi_rec_counts counts;
        struct pi_rec_signal signal;
        struct pi_rec_end end;
        struct pi_rec_sitestat sitestat;
        struct pi_rec_event event;
        struct pi_rec_tracereg tracereg;
        struct pi_rec_watch watch;
        struct pi_rec_ri ri;
        struct pi_rec_hotspot hotspot;
        struct pi_rec_pages pages;
        struct pi_rec_perf perf;
        struct pi_rec_icall icall;
        struct pi_rec_range range;
        struct pi_rec_lost lost;
        struct pi_rec_stopped stopped;
    } u;
    const char *strings;     /* PROCESS: argc consecutive NUL-terminated strings;
                                MODULE: the path; HOTSPOT: the function's name;
                                RANGE: the range's name */
    const uint8_t *counts;   /* COUNTS, TRACEREG: ncounters little-endian uint64_t,
                                maybe unaligned: read them with pi_trace_count() */
    const uint8_t *frames;   /* EVENT: nframes uint64_t: pi_trace_frame() */
    const uint8_t *words;    /* WATCH: nwords pi_watch_word: pi_trace_word() */
    const uint8_t *groups;   /* RI: ngroups report groups (piri.h reads them) */
    const uint8_t *pages;    /* PAGES: ranges, pages and per-epoch touches: pi_trace_pages() */
    const uint8_t *perf;     /* PERF: nevents pi_perf_value: pi_trace_perf_value() */
};

/* Open and validate the header.  -1 with a message naming the file for a
 * file that is not a trace, a bad magic, an unknown version or a header CRC
 * mismatch. */
int pi_trace_open(const char *path, struct pi_trace_file *f, struct pi_err *err);
/* The same for bytes in memory (not copied; they must outlive f). */
int pi_trace_open_mem(const char *path, const void *data, size_t size,
                      struct pi_trace_file *f, struct pi_err *err);
/* Next record: 1 and *r filled; 0 when there are no more (f->end_seen, or
 * f->stopped with f->warning); -1 on a hard error (message in err). */
int pi_trace_next(struct pi_trace_file *f, struct pi_trace_rec *r, struct pi_err *err);
void pi_trace_close(struct pi_trace_file *f);

uint64_t pi_trace_count(const struct pi_trace_rec *r, uint32_t i);
uint64_t pi_trace_frame(const struct pi_trace_rec *r, uint32_t i);
struct pi_watch_word pi_trace_word(const struct pi_trace_rec *r, uint32_t i);
/* A PAGES record's contents, copied out (any pointer may be NULL). */
void pi_trace_pages(const struct pi_trace_rec *r, struct pi_page_range *ranges,
                    struct pi_page_entry *pages, uint64_t *epoch_touches);
struct pi_perf_value pi_trace_perf_value(const struct pi_trace_rec *r, uint32_t i);
const char *pi_trace_rec_name(uint32_t type); /* "COUNTS", ...; "?" if unknown */
/* "watch", "sitestat", ... for enum pi_lost_table; "?" otherwise. */
const char *pi_trace_lost_table_name(uint32_t table);
/* s into d (same table): lost and items added, the largest capacity. */
void pi_trace_lost_add(struct pi_rec_lost *d, const struct pi_rec_lost *s);
/* "trap", "threshold", "cycles", "trace", "watch" for enum pi_stat_kind; "?" otherwise. */
const char *pi_trace_stat_kind_name(uint32_t kind);

/* ---- as a whole ------------------------------------------------------------ */

struct pi_trace_module {
    uint32_t index;          /* pi_rec_module.index in the file */
    uint32_t build_id_len;
    uint8_t build_id[PI_BUILD_ID_MAX];
    uint64_t load_bias;
    char *path;
};

struct pi_trace_unit {
    uint64_t unit_id;
    uint32_t module;         /* position in pi_trace.modules[] (not the file's index) */
    uint32_t ncounters;
    uint64_t *counts;        /* summed over the unit's COUNTS records (saturating) */
};

/* One EVENT record: the threshold event and its stack. */
struct pi_trace_event {
    struct pi_rec_event ev;  /* ev.nframes frames follow */
    uint64_t *frames;        /* NULL when nframes is 0 */
};

/* The TRACEREG records of one (trace_start site, unit), summed. */
struct pi_trace_tracereg {
    uint64_t start_unit;
    uint32_t start_site;
    uint32_t ncounters;
    uint64_t unit_id;
    uint64_t *counts;        /* ncounters, summed (saturating) */
};

enum { PI_TRACE_ALONE_SAMPLES = 1, PI_TRACE_ALONE_RI = 2, PI_TRACE_ALONE_HOTSPOT = 4 };

struct pi_trace {
    char *path;
    struct pi_trace_hdr hdr;

    int has_process;
    uint64_t end_ns;
    uint32_t nthreads;
    uint32_t argc;
    char **argv;             /* argc strings */

    size_t nmodules;
    struct pi_trace_module *modules; /* sorted by index */
    size_t nunits;
    struct pi_trace_unit *units;     /* sorted by (module, unit_id); unique */

    /* What the indicators' probes saw (no module field: units are named by
     * id).  Kept in a canonical form (pi_trace_fold_indicators). */
    size_t nsitestats;
    struct pi_rec_sitestat *sitestats;   /* sorted by (unit_id, site, kind); unique */
    size_t nevents;
    struct pi_trace_event *events;       /* sorted by all their fields and frames */
    size_t ntraceregs;
    struct pi_trace_tracereg *traceregs; /* sorted by (start_unit, start_site, unit_id); unique */
    uint32_t watch_gran;                 /* bytes per word of the WATCH records; 0: none */
    size_t nwords;
    struct pi_watch_word *words;         /* sorted by addr; unique (reads, writes summed) */

    int has_signal;
    struct pi_rec_signal signal;

    /* Records read elsewhere, one run's each, that pmopt merge does not
       combine (PI_TRACE_ALONE_*: stack samples, report groups, HOTSPOT). */
    unsigned alone;

    /* The performance page table (PAGES; the last record wins; not merged). */
    int has_pages;
    struct pi_rec_pages pages;
    struct pi_page_range *page_ranges;   /* pages.nranges */
    struct pi_page_entry *page_entries;  /* pages.npages */
    uint64_t *epoch_touches;             /* pages.nepochs */

    /* perf_event counts of trace regions (PERF records, as written; not merged) */
    size_t nperfs;
    struct pi_trace_perf {
        struct pi_rec_perf h;            /* h.nevents values follow */
        struct pi_perf_value v[PI_PERF_MAX_EVENTS];
    } *perfs;

    /* indirect-call targets (ICALL, docs/layout.md "Indirect calls"):
     * sorted by (unit_id, site, target), unique (counts summed) */
    size_t nicalls;
    struct pi_rec_icall *icalls;
    /* what the runtime's tables could not hold (LOST), by table id (entry
     * 0 unused; an id this reader does not know is counted in nunknown):
     * lost and items added (saturating), capacity the largest, flags or'ed;
     * table == 0 where there is none */
    struct pi_rec_lost lost[PI_LOST_NTABLES];
    /* ranges added at run time (RANGE, perfinst_range_add), in file order;
     * module is a position in modules[] (pi_trace_write writes it as the
     * module's index, which is its position there). */
    size_t nranges;
    struct pi_trace_range {
        uint32_t module;
        uint64_t lo, hi;                 /* link-time, lo < hi */
        char *name;
    } *ranges;
    /* where threads were stopped (STOPPED), sorted by (module, pc), unique
     * (counts summed); module is a position in modules[] as for ranges */
    size_t nstopped;
    struct pi_rec_stopped *stopped;     /* (pi_trace_fold_stopped sorts and sums them) */
    /* Records pi_trace_write appends verbatim before END (not read, not
     * freed here: the caller owns them; `pmopt merge`'s sharing records,
     * pi_share_records).  Each: type, then payload a (na bytes) and b (nb),
     * padded to 8 bytes by the writer. */
    size_t nextra;
    const struct pi_trace_extra {
        uint32_t type;
        const void *a, *b;
        size_t na, nb;
    } *extra;

    int has_end;             /* finished cleanly */
    uint32_t nrecords;       /* complete records read */
    uint32_t nunknown;       /* records of unknown types, skipped */
    int truncated;           /* stopped early: warning says where and why */
    char warning[1024];      /* "" or the reader's warning */
};

int pi_trace_read(const char *path, struct pi_trace *t, struct pi_err *err);
int pi_trace_parse(const char *path, const void *data, size_t size, struct pi_trace *t,
                   struct pi_err *err);
void pi_trace_free(struct pi_trace *t);

/* A module by build-id (len > 0), or NULL. */
const struct pi_trace_module *pi_trace_find_module(const struct pi_trace *t,
                                                   const uint8_t *build_id, uint32_t len);
/* A unit's counts in module position `module`, or NULL. */
const struct pi_trace_unit *pi_trace_find_unit(const struct pi_trace *t, uint32_t module,
                                               uint64_t unit_id);

/* The module a run-time address of t falls in, as far as the trace can
 * tell: the one with the largest load bias not above addr (a module's
 * bias is where it was mapped; a non-PIE program has bias 0), or NULL.
 * Modules without units (libc, the runtime) have no MODULE record, so an
 * address in them is attributed to the module mapped below them: callers
 * must still check that the address lies inside that module's code. */
const struct pi_trace_module *pi_trace_module_of(const struct pi_trace *t, uint64_t addr);

/* The module of t that holds the watched word at addr (a pi_watch_word's
 * addr), and in *link its link-time address; NULL (and *link = addr) for a
 * word outside every module — heap, stack — or in a module without MODULE
 * record.  A process's trace: the module pi_trace_module_of names, when
 * addr lies less than PI_TRACE_MODULE_SPAN above its bias (a heap next to
 * a PIE program passes: callers that know the module's extent must check
 * it).  A merged trace: the module its bits 56..63 name (perfinst-format.h). */
const struct pi_trace_module *pi_trace_watch_module(const struct pi_trace *t, uint64_t addr,
                                                    uint64_t *link);

/* ---- the indicators' records: combining -------------------------------- */

/* Put t's indicator records into their canonical form: SITESTATs of one
 * (unit, site, kind) combined (count, execs and sum added, saturating; min
 * the least of the mins of records with execs > 0; max the largest),
 * TRACEREGs of one (start_unit, start_site, unit_id) added elementwise,
 * EVENTs sorted by (unit_id, site, kind, value, tid, nframes, frames),
 * WATCH words of one address added (saturating) and sorted by address.  -1
 * (message naming t->path) when two TRACEREGs of one key have different
 * ncounters. */
int pi_trace_fold_indicators(struct pi_trace *t, struct pi_err *err);
/* t->stopped sorted by (module, pc), one entry each, counts summed. */
void pi_trace_fold_stopped(struct pi_trace *t);

/* The order of a folded trace's SITESTATs (struct pi_indicators.sitestats):
 * (unit_id, site, kind); a qsort/bsearch comparator. */
int pi_sitestat_cmp(const void *a, const void *b);

/* Add copies of src's indicator records to dst and fold them in.  With
 * link_frames, EVENT frames of a trace written by a process (not merged)
 * become link-time addresses: each frame in the module of the event's unit
 * (the module whose COUNTS hold the unit; else the module of frames[0])
 * minus its load bias, and every other frame 0 ("another module").  A
 * frame counts as inside a module when pi_trace_module_of says so and it
 * lies less than PI_TRACE_MODULE_SPAN above the module's bias (a libc frame
 * above a PIE program would otherwise pass).  A merged trace's frames are
 * already link-time and are copied as they are.
 * -1 with err (naming src->path) on a TRACEREG ncounters mismatch or when
 * out of memory. */
#define PI_TRACE_MODULE_SPAN (1ull << 32)
int pi_trace_add_indicators(struct pi_trace *dst, const struct pi_trace *src, int link_frames,
                            struct pi_err *err);
/* (pi_trace_add_indicators also adds src's ICALL and LOST records: with link_frames,
 * a process's run-time targets become link-time addresses of the module of
 * the call site's unit, and a target outside it is dropped; merged traces'
 * are copied.) */

/* Add src's WATCH words to dst, made module-relative as a merged trace
 * holds them: a word in a module of src (pi_trace_watch_module) becomes
 * its link-time address tagged with 1 + the position of the module of
 * dst->modules with the same identity (build-id; path when it has none);
 * a word outside every module keeps its address.  Words of the same
 * address are then added (saturating), sorted by address: the result does
 * not depend on the order of the inputs.  Words of a module dst has not
 * (or beyond the 255th) are left out and counted in *dropped (may be NULL).
 * -1 with err (naming src->path) when src's words have another size than
 * dst's, or when out of memory. */
int pi_trace_add_watch(struct pi_trace *dst, const struct pi_trace *src, size_t *dropped,
                       struct pi_err *err);

/* Write t as a trace file: the header (hdr_size, version and CRC filled in
 * here; magic too), PROCESS if has_process, the modules (index = position),
 * COUNTS per unit, SITESTAT, EVENT and TRACEREG in t's order, WATCH (its
 * words in t's order, a record per million words) if t has words, SIGNAL
 * if has_signal, END.  Temporary file + rename. */
int pi_trace_write(const char *path, const struct pi_trace *t, struct pi_err *err);

#ifdef __cplusplus
}
#endif

#endif /* PERFINST_PITRACE_H */
