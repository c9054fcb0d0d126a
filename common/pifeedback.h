/* pifeedback.h — the one reader and writer of feedback files (`pmopt plan`
 * writes them; `gcc -fplugin-arg-perfinst-feedback=FILE` and `pmopt relink
 * --feedback FILE` read them).  The format is in docs/formats.md
 * ("Feedback files").
 *
 * The file is text: a header line, numbered recommendations of the form
 *     N KIND key=value key=value ...
 * and a trailer that makes truncation and corruption detectable:
 *     end NRECS CRC32
 * This layer knows nothing of what the kinds mean: it tokenises, checks and
 * selects; the plugin, `pmopt relink` and `pmopt plan --advise` interpret. */
#ifndef PERFINST_PIFEEDBACK_H
#define PERFINST_PIFEEDBACK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "piutil.h"
#include "piout.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PIFB_MAGIC "perfinst-feedback"
#define PIFB_VERSION 3u     /* 2: the build-id header line; 3: at=late (branch-profile, promote-call);
                               versions 1 and 2 are read too */
#define PIFB_MAX_LINE 65536u   /* longer lines are refused */
#define PIFB_MAX_ARGS 64u      /* key=value pairs per recommendation */

struct pifb_arg {
    char *key;
    char *value; /* decoded (%XX escapes undone) */
};

struct pifb_rec {
    uint32_t number;  /* the recommendation's number, unique in the file */
    uint32_t line;    /* where it was in the file */
    char *kind;
    uint32_t nargs;
    struct pifb_arg *args;
};

struct pifb_file {
    char *path;
    char *program;       /* "program" header value, or NULL */
    uint64_t build_hash; /* "build" header value (pi_hash64 of the program's
                            .perfinst), 0 if absent */
    char *build_id;      /* "build-id" header value: the program's NT_GNU_BUILD_ID in
                            hex (version 2), or NULL */
    uint32_t nrecs;
    struct pifb_rec *recs; /* in file order */
};

/* Read and check PATH.  0 on success; -1 with a message naming the file, the
 * line and the problem in err for an unreadable, foreign,
 * newer, malformed, truncated or corrupt file.  The caller frees with
 * pifb_free() in both cases. */
int pifb_read(const char *path, struct pifb_file *fb, struct pi_err *err);
/* The same for a file already in memory (the fuzz harness uses it); name is
 * used in messages. */
int pifb_parse(const char *name, const char *data, size_t len, struct pifb_file *fb,
               struct pi_err *err);
void pifb_free(struct pifb_file *fb);

/* Keep only the recommendations whose numbers are in LIST ("1,3,5-7"); 0, or
 * -1 with a message if LIST is malformed or names a number the file does not
 * have. */
int pifb_select(struct pifb_file *fb, const char *list, struct pi_err *err);

/* The value of KEY in REC, or NULL. */
const char *pifb_get(const struct pifb_rec *rec, const char *key);
/* The value of KEY as an unsigned number (decimal or 0x hex); 0 when present
 * and well-formed, -1 otherwise. */
int pifb_get_u64(const struct pifb_rec *rec, const char *key, uint64_t *v);

/* ---- the kinds pmopt writes: one definition ----------------------------
 * Each kind's name, its keys (in the order pmopt plan writes them; some
 * only when they apply) and the loop that applies it: the rebuild (the
 * plugin's passes), the sharing repair (the plugin's), the relink (pmopt
 * relink).  The planners write only these keys (optimizer/plan/recs.c
 * checks); the plugin (gcc-plugin/feedback.cc) and pmopt relink decide
 * from the loop what they apply.  The reader and writer below stay
 * generic: they know nothing of what the kinds mean.  docs/formats.md
 * ("Feedback files") documents each kind's keys. */
#define PIFB_BRANCH_PROFILE "branch-profile"
#define PIFB_FUNCTION_TIER "function-tier"
#define PIFB_COPY_PROFILE "copy-profile"
#define PIFB_PROMOTE_CALL "promote-call"
#define PIFB_ORDER_FUNCTIONS "order-functions"
#define PIFB_ORDER_DATA "order-data"
#define PIFB_RESERVE "reserve"
#define PIFB_RESERVE_DATA "reserve-data"
#define PIFB_ALIGN_GLOBAL "align-global"
#define PIFB_ALIGN_ALLOC "align-alloc"
#define PIFB_PAD_FIELD "pad-field"
#define PIFB_PAD_ARRAY "pad-array"
enum pifb_loop { PIFB_REBUILD = 1, PIFB_SHARING = 2, PIFB_RELINK = 3 };
struct pifb_kind {
    const char *name;
    enum pifb_loop loop;
    const char *keys; /* space-separated */
};
/* The kind named name, or NULL when pmopt writes no such kind. */
const struct pifb_kind *pifb_kind(const char *name);
/* Is key one of k's keys? */
int pifb_kind_has_key(const struct pifb_kind *k, const char *key);

/* Writing: pifb_create() opens PATH.tmp and writes the header;
 * pifb_rec_begin/arg/end write one recommendation; pifb_commit() writes the
 * trailer, flushes and renames over PATH (atomically: a failed plan never
 * leaves a broken file), pifb_abort() removes the temporary. */
struct pifb_writer {
    FILE *f;
    struct pi_out out; /* written whole or not at all (piout.h) */
    uint32_t crc, nrecs, number;
    int failed;
};
/* program: the program's path; build_id: its NT_GNU_BUILD_ID in hex (NULL
 * or "": none), which pmopt relink checks */
int pifb_create(struct pifb_writer *w, const char *path, const char *program,
                const char *build_id, uint64_t build_hash, struct pi_err *err);
void pifb_rec_begin(struct pifb_writer *w, const char *kind); /* numbered 1, 2, ... */
void pifb_arg(struct pifb_writer *w, const char *key, const char *value);
void pifb_arg_u64(struct pifb_writer *w, const char *key, uint64_t value);
void pifb_rec_end(struct pifb_writer *w);
/* A "# ..." comment line (advice text for people; ignored by readers). */
void pifb_comment(struct pifb_writer *w, const char *text);
int pifb_commit(struct pifb_writer *w, struct pi_err *err);
void pifb_abort(struct pifb_writer *w);

#ifdef __cplusplus
}
#endif

#endif /* PERFINST_PIFEEDBACK_H */
