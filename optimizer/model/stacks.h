/* stacks.h — sampled call stacks in pmopt: the calling-context tree built
 * from a trace's stack samples (stacks.c; `pmopt report --tree` prints
 * it, report-tree.c), and the
 * exports of it (export-stacks.c: flame graph SVG, folded stacks; the
 * `pmopt export` options --flamegraph and --folded, cmd-export-stacks.c).
 * docs/sampling-stacks.md.
 */
#ifndef PERFINST_STACKS_H
#define PERFINST_STACKS_H

#include <stdint.h>
#include <stdio.h>
#include "pidwarf.h"
#include "pisample.h"

/* Counts per node, by what the samples were. */
enum { STK_SAMPLED = 0, STK_TO = 1, STK_FROM = 2, STK_NKINDS = 3 };
/* What a sample counts as: timer samples (cpu, wall), to-idle, from-idle. */
static inline int stk_kind(const struct pi_sample *s)
{
    return s->kind == PI_SK_IDLE_TO ? STK_TO : s->kind == PI_SK_IDLE_FROM ? STK_FROM : STK_SAMPLED;
}

struct stk_node {
    uint32_t parent;             /* 0 for the root's children; the root is node 0 */
    uint32_t first_child, next_sibling; /* 0: none */
    const char *name;            /* interned */
    const char *file;            /* the function's declaration, "" if unknown */
    uint32_t line;
    uint32_t depth;
    uint64_t self[STK_NKINDS];   /* base counts: samples whose leaf is this node */
    uint64_t total[STK_NKINDS];  /* cumulative: self + the children's totals */
};

struct stk_sym;                  /* an object's symbols (stacks.c) */

struct stk_tree {
    struct pi_samples ss;
    struct stk_node *nodes;
    size_t nnodes, cap;
    uint32_t *hash;              /* (parent, name) → node + 1 */
    size_t hcap;
    struct stk_sym *syms;        /* per ss.objs */
    uint64_t truncated;          /* samples marked truncated */
    int have[STK_NKINDS];        /* any samples of the kind */
    const char *prog;            /* stk_load's prog (may be NULL) and its build-id */
    uint8_t prog_id[PI_BUILD_ID_MAX];
    uint32_t prog_id_len;
};

/* Read the traces' samples and build the tree.  prog (may be NULL): the
 * program file to symbolize with when a map's build-id matches it (else
 * each map's own path is opened).  0, or -1 after an error message. */
int stk_load(struct stk_tree *t, const char *prog, char **traces, int ntraces);
/* The name of the node under the root that truncated samples' stacks hang
 * from ("[truncated]": the walk stopped at code without unwind
 * information, so their outermost frame is not the program's entry). */
extern const char stk_truncated[];
void stk_free(struct stk_tree *t);

/* A frame of a sample named through its object's symbols and DWARF (a
 * return address, innermost 0, is looked up one byte back, inside its
 * call).  A frame in no known function is named "[0xADDR]" or
 * "[OBJ+0xADDR]", with linkage NULL.  Strings are interned (names.h). */
struct stk_frame {
    const char *name;            /* as shown (names.h) */
    const char *linkage;         /* what metadata and plans call it; NULL if unknown */
    const char *file;            /* the function's declaration, shown (pm_file; "" if unknown) */
    uint32_t line;
    uint64_t lo;                 /* the function's first address (0 if unknown) */
    const char *src;             /* the address's source file, shown (pm_file; "" if unknown) */
    uint32_t src_line;
};
void stk_frame(struct stk_tree *t, const struct pi_sframe *fr, int innermost, struct stk_frame *out);
/* Children of n, sorted by decreasing total of `w` (weights per kind, or
 * NULL: all kinds), ties by name; *nout children (malloc'ed, free it). */
uint32_t *stk_children(const struct stk_tree *t, uint32_t n, const int *w, size_t *nout);
/* Weighted count of node n: sum over kinds k of w[k] * (total or self). */
uint64_t stk_count(const struct stk_node *n, const int *w, int self);

/* The child of `parent` named `name` (interned), 0 if none (a tree
 * built in this process: names are interned across trees). */
uint32_t stk_find(const struct stk_tree *t, uint32_t parent, const char *name);
/* Each timer sample's innermost frame: visit(ctx, function as the tree
 * names it, source file (pm_file's spelling) and line of the sampled pc
 * (NULL and 0 when the debug information has none), timer periods).
 * 0 (the visits cannot fail). */
int stk_sampled_leaves(struct stk_tree *t,
                       void (*visit)(void *ctx, const char *func, const char *file, uint32_t line,
                                     uint64_t periods),
                       void *ctx);

/* The operands of report --tree and export: [PROG] TRACE...; PROG is a
 * first operand that is not a trace.  Sets *prog (or NULL), *traces. */
void stk_operands(int argc, char **argv, const char **prog, char ***traces, int *ntraces);

/* export-stacks.c: w chooses the counts (--what), as in stk_count. */
int export_folded(const struct stk_tree *t, const int *w, FILE *f);
int export_flamegraph(const struct stk_tree *t, const int *w, const char *title, FILE *f);
/* The same picture as an <svg> element to embed in an HTML page (embedded:
 * no XML declaration); export_flamegraph is this with embedded = 0. */
int export_flamegraph_svg(const struct stk_tree *t, const int *w, const char *title, FILE *f, int embedded);
/* A differential flame graph (pmopt diff --flamegraph): new's frames,
 * each as wide as its count in new, coloured by how its count changed
 * from base (the same stack of names): red grew, blue shrank, the
 * stronger the larger the change; base's counts scaled by base_scale
 * (1, or new's total over base's with --normalize). */
int export_flamegraph_diff(const struct stk_tree *base, const struct stk_tree *t, const int *w,
                           double base_scale, const char *title, FILE *f);

#endif /* PERFINST_STACKS_H */
