/* sharing.h — what `pmopt report --sharing` (report-sharing.c) and `pmopt
 * plan --sharing` (plan-sharing.c) share: one analysis of a trace's
 * sharing records against PROG (docs/sharing.md). */
#ifndef PERFINST_OPT_SHARING_H
#define PERFINST_OPT_SHARING_H

#include <stdint.h>
#include <stdio.h>
#include "pidwarf.h"
#include "pishare.h"
#include "pmopt.h"

/* Predicted reloads below this are not worth a finding (one write seen by
 * a reader, at start-up, is not false sharing). */
#define SH_PREDICT_MIN 10

enum { SH_OBJ_GLOBAL = 1, SH_OBJ_HEAP = 2, SH_OBJ_OTHER = 3 };

/* A data object some analysed line holds bytes of. */
struct sh_object {
    int kind;                  /* SH_OBJ_* */
    char name[160];            /* global: its name; heap: "heap object from FILE:LINE (FUNC)" */
    uint64_t addr, size;       /* run-time address, bytes (0: unknown) */
    uint64_t link;             /* global: link-time address */
    const struct pi_dvar *var; /* global: its DWARF variable */
    const struct pi_share_alloc_v *alloc; /* heap: its allocation */
    char func[512], file[256]; /* heap: the allocation site (func: its linkage name) */
    uint32_t line;
    char stype[64];            /* the struct the accesses name (from the sites' `what`), "" unknown */
    uint64_t ssize;            /* its size */
    uint64_t rt, rf;           /* reloads on lines holding its bytes */
    uint32_t nwriters;         /* threads that wrote it */
    /* prediction: estimated false-sharing reloads if the object started at
     * byte 8*k of a line (k = 0..7), and of a 128-byte pair (k = 0..15) */
    uint64_t pred[PI_SHARE_LINE / 8], pred_pair[2 * PI_SHARE_LINE / 8];
    int actual_off;            /* where it started this run (addr % 64) */
    int analysed;              /* more than one thread touched it */
};

struct sh_thr_row {
    uint32_t thread, tid, cpu;
    uint64_t rmask, wmask, reads, writes, rt, rf;
};

struct sh_line_row {
    uint64_t addr;             /* run-time */
    int nthr;
    struct sh_thr_row *thr;
    uint64_t rt, rf, area_true[PI_SHARE_AREAS], area_false[PI_SHARE_AREAS];
    int obj[PI_SHARE_LINE];    /* per byte: index into objects, or -1 */
    double cost, gain;         /* estimated cycles of all reloads, of the false ones */
    int shared;                /* touched by more than one thread */
};

struct sh_analysis {
    const char *prog, *trace;
    char bid[2 * PI_BUILD_ID_MAX + 1]; /* prog's build-id in hex, "" if none */
    struct pi_debug dbg;
    int have_dbg;
    struct pi_trace t;
    const struct pi_trace_module *mod;
    uint64_t bias;
    struct pi_share s;
    size_t nrows;
    struct sh_line_row *rows;  /* ranked: gain, then cost, then address */
    size_t nobjs;
    struct sh_object *objs;
    double reload_cycles;      /* cost of one reload */
    char *trace_label;         /* several traces: "A + B" (a->trace) */
    struct pi_share_array *arrays; /* PROG's arrays of scalars (.perfinst_share_arrays) */
    size_t narrays;
};

/* Read PROG (symbols, DWARF, variables) and TRACE, map the lines to objects,
 * classify, rank and predict.  0, or -1 after an error message. */
int sh_analyze(struct sh_analysis *a, const char *prog, const char *trace, int force);
/* The same for one or more traces: several are merged first (pm_merge_files,
 * into a temporary file), a->trace then names them all. */
int sh_analyze_traces(struct sh_analysis *a, const char *prog, char **traces, int ntraces, int force);
void sh_free(struct sh_analysis *a);

/* The name of bytes [lo, hi) of a row's line as C would write them
 * ("c[0]", "stats.hits", "acc[1].sx", "heap+0x10"). */
void sh_name_bytes(const struct sh_analysis *a, const struct sh_line_row *r, int lo, int hi, char *buf,
                   size_t n);
/* file:line (function) of a site's pc, into buf. */
void sh_site_where(const struct sh_analysis *a, uint64_t pc, char *buf, size_t n);
/* The site text `what` split: struct, field, offset, size; 0 if malformed. */
int sh_what_decl(const char *what, char *file, size_t fn, uint32_t *line); /* where the field is declared */
int sh_parse_what(const char *what, char *st, size_t stn, char *field, size_t fn, uint64_t *off, uint64_t *size);

/* Text and SVG views (report-sharing.c). */
/* A line's verdict ("FALSE sharing", ...); the distinct names of the bytes
 * in mask, comma-separated; the objects a line holds, "; "-separated. */
const char *sh_verdict(uint64_t rt, uint64_t rf);
void sh_names_of(const struct sh_analysis *a, const struct sh_line_row *r, uint64_t mask, char *buf, size_t n);
void sh_objects_of_row(const struct sh_analysis *a, const struct sh_line_row *r, char *buf, size_t n);
/* The heat map of the top lines with reloads as SVG (embedded: an element
 * for an HTML page, no XML declaration); 0, or -1 on a write error. */
int sh_heatmap_svg(const struct sh_analysis *a, long top, FILE *f, int embedded);
int cmd_report_sharing(int argc, char **argv);
/* pmopt merge's work (cmd-merge.c): the traces at paths[0..n) merged into
 * out; quiet: no summary line.  PM_OK or PM_ERROR after a message.  Also
 * how report/plan --sharing read several traces. */
int pm_merge_files(const char *out, char **paths, int ntraces, int force, int quiet);
/* pmopt plan --sharing (plan-sharing.c); argv as given to `plan`. */
int cmd_plan_sharing(int argc, char **argv);

#endif
