/* sharing.h — the model of a program's cache-line sharing (sharing-model.c)
 * and what its views share: `pmopt report --sharing` (report-sharing.c),
 * `pmopt plan --sharing` (plan-sharing.c), the HTML report's section, and
 * the names of bytes, objects and sites (sharing-names.c).  See
 * docs/sharing.md.
 *
 * The verdicts are a property of the program, not of one interleaving:
 * two threads fight over a line when one writes bytes of it the other does
 * not touch and their lives overlap in the program's fork/join epochs
 * (pthread_create and pthread_join order them, whatever the scheduler did).
 * The reload counts the runtime observed (sampled) are the cost estimate;
 * when none was observed, a bound from the access counts stands in, and the
 * views say which. */
#ifndef PERFINST_OPT_SHARING_H
#define PERFINST_OPT_SHARING_H

#include <stdint.h>
#include <stdio.h>
#include "pidwarf.h"
#include "pishare.h"
#include "pmopt.h"

#define SH_PLACEMENTS (PI_SHARE_LINE / 8)      /* an object at byte 8k of a line, k < 8 */
#define SH_PAIR_PLACEMENTS (2 * PI_SHARE_LINE / 8) /* ... of a 128-byte pair (adjacent-line prefetch) */

enum { SH_OBJ_GLOBAL = 1, SH_OBJ_HEAP = 2, SH_OBJ_OTHER = 3 };

/* A verdict: bits of what threads do on a (virtual) line. */
enum {
    SH_V_FALSE = 1,           /* a thread writes bytes another (at the same time) does not touch */
    SH_V_TRUE = 2,            /* a thread writes bytes another touches */
};
/* An object's false sharing with its neighbours on a line. */
enum {
    SH_X_VICTIM = 1,          /* its users lose the line to other data's writers */
    SH_X_CULPRIT = 2,         /* its writers take the line from other data's users */
};

/* A thread of the trace and its life in fork/join epochs. */
struct sh_thread {
    uint32_t thread, tid, cpu;
    uint32_t birth, death;    /* [birth, death) */
    int forks;                /* it created or joined threads: its accesses' own epochs are used */
    int known;                /* the epochs are known */
};

struct sh_thr_row {
    uint32_t thread, tid, cpu;
    uint64_t rmask, wmask, reads, writes, rt, rf;
    uint32_t lo, hi;          /* when it used the line: [lo, hi) in epochs */
};

struct sh_line_row {
    uint64_t addr;             /* run-time (or merged: tagged) */
    int nthr;
    struct sh_thr_row *thr;
    uint64_t rt, rf, area_true[PI_SHARE_AREAS], area_false[PI_SHARE_AREAS]; /* observed */
    int obj[PI_SHARE_LINE];    /* per byte: index into objects, or -1 */
    int verdict;               /* SH_V_* from the bytes and the epochs */
    uint64_t bound;            /* upper bound of the false reloads from the access counts */
    uint64_t est_false;        /* the figure shown: rf, or the bound when no reload was observed */
    int est_observed;
    double cost, gain;         /* estimated cycles of all reloads, of the false ones */
    int shared;                /* touched by more than one thread */
    size_t site0, nsite;       /* its sites: a->site_order[site0 .. site0 + nsite) */
};

/* A data object some analysed line holds bytes of. */
struct sh_object {
    int kind;                  /* SH_OBJ_* */
    char name[160];            /* global: its name; heap: "heap object from FILE:LINE (FUNC)", and
                                * ", block K of N" when N objects of the trace have that name */
    uint64_t addr, size;       /* run-time address, bytes (0: unknown) */
    uint64_t link;             /* global: link-time address */
    const struct pi_dvar *var; /* global: its DWARF variable */
    const struct pi_share_alloc_v *alloc; /* heap: its allocation */
    int stack_as;              /* heap: the object whose allocation stack, the same, stands for its own */
    size_t twin;               /* heap: K of ", block K of N" (0: the only object of its name) */
    const struct pi_share_region_v *region; /* other: the mapping it lies in, if known */
    char func[512], file[256]; /* heap: the allocation site (func: its linkage name) */
    uint32_t line;
    char stype[64];            /* the struct the accesses name (from the sites' `what`), "" unknown */
    uint64_t ssize;            /* its size */
    size_t row0, nrows;        /* the rows (address order) holding its bytes */
    int touched;               /* a thread touched its bytes */
    uint32_t nthreads;         /* threads that touched it */
    uint64_t rt, rf;           /* observed reloads on lines holding its bytes */
    /* prediction: verdict and bound of the false reloads if it started at
     * byte 8k of a line, and of a 128-byte pair; and where it is */
    int pv[SH_PLACEMENTS], pv_pair[SH_PAIR_PLACEMENTS];
    uint64_t pred[SH_PLACEMENTS], pred_pair[SH_PAIR_PLACEMENTS];
    int actual_off;            /* where it started this run (addr % 64) */
    int plain_off;             /* ... in the plain build (heap: the same; globals: --plain), -1 unknown */
    int v_plain;               /* SH_V_* among its own bytes there */
    uint64_t b_plain;
    int v_here;                /* SH_V_* among its own bytes at this run's placement */
    uint64_t b_here;           /* ... and the bound */
    int v_cross;               /* SH_X_* */
    int analysed;              /* two or more threads touched it */
    int verdict_false;         /* the one verdict: false sharing here (inside or with neighbours) */
    const char *verdict;       /* ... in words */
    uint64_t est_false;        /* the one figure: observed false reloads, or a bound */
    int est_observed;          /* 1: observed in this run; 0: a bound from the access counts */
};

struct sh_analysis {
    const char *prog, *trace;
    char bid[2 * PI_BUILD_ID_MAX + 1]; /* prog's build-id in hex, "" if none */
    const char *plain;         /* the plain build (--plain): its globals' placements; NULL */
    struct pi_debug plain_dbg;
    int have_plain;
    struct pi_debug dbg;
    int have_dbg;
    struct pi_trace t;
    const struct pi_trace_module *mod;
    uint64_t bias;
    struct pi_share s;         /* folded: lines by address, sites, threads, allocations, regions sorted */
    size_t nrows;
    struct sh_line_row *rows;  /* by address */
    size_t *rank;              /* row indices: by gain, then cost, then address */
    size_t nobjs;
    struct sh_object *objs;
    size_t *site_order;        /* site indices by (line, pc, thread) */
    size_t nthr;
    struct sh_thread *thr;     /* by thread number */
    int epochs;                /* the trace has fork/join epochs */
    double reload_cycles;      /* cost of one reload */
    char *trace_label;         /* several traces: "A + B" (a->trace) */
    struct pi_share_array *arrays; /* PROG's arrays of scalars (.perfinst_share_arrays) */
    size_t narrays;
    uint32_t period;           /* PERFINST_SHARING_PERIOD of the run (1: exact) */
    uint64_t work;             /* steps of the analysis: near-linear in the records (tests check it) */
    /* private */
    struct sh_seg *segs;       /* the heap's segments: each byte's latest allocation */
    size_t nsegs;
};

/* Read PROG (symbols, DWARF, variables) and TRACE, map the lines to objects,
 * judge, rank and predict (a->plain, when the caller set it: the plain
 * build whose globals' placements are judged too).  0, or -1 after an
 * error message. */
int sh_analyze(struct sh_analysis *a, const char *prog, const char *trace, int force);
/* The same for one or more traces: several are combined in memory first
 * (pm_merge_traces, as `pmopt merge` combines them); a->trace then names
 * them all ("A + B"). */
int sh_analyze_traces(struct sh_analysis *a, const char *prog, char **traces, int ntraces, int force);
void sh_free(struct sh_analysis *a);
/* "sharing analysis: ... work N" on stderr (--stats). */
void sh_print_stats(const struct sh_analysis *a);

/* Thread number num of the trace, or NULL. */
const struct sh_thread *sh_thread_of(const struct sh_analysis *a, uint32_t num);

/* A thread's life on a line: [lo, hi) in epochs. */
void sh_thread_span(const struct sh_analysis *a, uint32_t thread, uint32_t e_first, uint32_t e_last, uint32_t *lo,
                    uint32_t *hi);

/* ---- the repaired layout (the plan checks its repairs in the model) -----
 * A repair of one object: where each of its bytes goes.  kind: */
enum { SH_FIX_ALIGN = 1, SH_FIX_STRIDE = 2, SH_FIX_FIELDS = 3 };
struct sh_fix {
    int kind;
    uint64_t stride;           /* SH_FIX_STRIDE, SH_FIX_FIELDS: the element's size before */
    uint64_t new_stride;       /* ... and after */
    int nfields;               /* SH_FIX_FIELDS: [old_off, old_end) -> new_off */
    uint64_t old_off[64], old_end[64], new_off[64];
};
/* The verdict (SH_V_*) and bound of object o laid out by fix, starting a
 * line; *pairs: the thread pairs that would share a line (for "no new
 * pair").  Counts work. */
int sh_predict_fixed(struct sh_analysis *a, const struct sh_object *o, const struct sh_fix *fix, uint64_t *bound,
                     uint64_t *pairs);
/* The windows of `win` bytes (64: lines; 128: two neighbouring lines) in
 * which o's bytes are in false sharing, o laid out by fix (NULL: as it is)
 * from byte `shift` of a window: a count from the bytes each thread reads
 * and writes and the epochs alone, the same in every run (no reload counts). */
uint64_t sh_false_windows(struct sh_analysis *a, const struct sh_object *o, const struct sh_fix *fix, int shift,
                          int win);
/* The thread pairs that share a line holding o's bytes as it lies now. */
uint64_t sh_pairs_now(struct sh_analysis *a, const struct sh_object *o);

/* ---- names (sharing-names.c) ---------------------------------------------- */

/* The name of bytes [lo, hi) of a row's line as C would write them
 * ("c[0]", "stats.hits", "acc[1].sx", "heap+0x10"). */
void sh_name_bytes(const struct sh_analysis *a, const struct sh_line_row *r, int lo, int hi, char *buf,
                   size_t n);
/* The distinct names of the bytes in mask, comma-separated, runs of
 * elements or bytes as ranges ("image[64..127]", "heap+0xc00..0xc3f"). */
void sh_names_of(const struct sh_analysis *a, const struct sh_line_row *r, uint64_t mask, char *buf, size_t n);
/* The objects a line holds, "; "-separated. */
void sh_objects_of_row(const struct sh_analysis *a, const struct sh_line_row *r, char *buf, size_t n);
/* file:line (function) of a site's pc, into buf. */
void sh_site_where(const struct sh_analysis *a, uint64_t pc, char *buf, size_t n);
/* A line's address as the reader knows it ("0x6340 (link-time, prog)"). */
const char *sh_line_name(const struct sh_analysis *a, uint64_t addr, char *buf, size_t n);
/* A line's verdict in words ("FALSE sharing", ...). */
const char *sh_verdict(int verdict);
/* "global", "heap", "unrecorded" */
const char *sh_kind_name(int kind);
/* The site text `what` split: struct, field, offset, size; 0 if malformed. */
int sh_what_decl(const char *what, char *file, size_t fn, uint32_t *line); /* where the field is declared */
int sh_parse_what(const char *what, char *st, size_t stn, char *field, size_t fn, uint64_t *off, uint64_t *size);

/* ---- views ------------------------------------------------------------------ */

/* The heat map of the top lines with reloads as SVG (embedded: an element
 * for an HTML page, no XML declaration); 0, or -1 on a write error. */
int sh_heatmap_svg(const struct sh_analysis *a, long top, FILE *f, int embedded);

#endif
