/* dcolour.h — data colouring, the data half of the chase-tail reserved
 * regions (docs/layout.md "Data colouring"): what `pmopt plan --order`
 * (plan-dcolour.c) and `pmopt relink` (cmd-relink.c) share — the pieces of
 * hot data, their packing into a stable part and a reserved set range,
 * the linker-script lines that place them and the check of the result. */
#ifndef PERFINST_DCOLOUR_H
#define PERFINST_DCOLOUR_H

#include <stdio.h>
#include <stdint.h>
#include "layout.h"

/* The output sections data objects go to, in the default script's order
 * (pmopt relink's write_script lists .text, then these). */
enum { DC_RODATA = 0, DC_DATA = 1, DC_BSS = 2, DC_NOUT = 3 };

struct dc_item {           /* one object's sections that go to one output section */
    const char *sym;       /* the object (borrowed from the oscan) */
    int out;               /* DC_* */
    uint64_t size, align;  /* its sections laid end to end, with their alignments */
    const char **secs;     /* distinct section names (borrowed) */
    size_t nsecs;
    uint64_t weight;       /* executions of the blocks that reference it (plan only) */
    int overflow;          /* placed in the reserved sets */
    uint64_t off;          /* global packing offset (set index = off % page / line) */
    uint64_t rel;          /* offset from its output section's page-aligned base */
};

/* The output section (DC_*) a data section goes to, or -1 (relro data,
 * not data). */
int dc_out_of(const char *secname);

/* The pieces of the objects names[0..n) in s: one per object and output
 * section that has sections of it, grouped by output section, in names'
 * order; overflow set for names in ovf[0..no); weight summed from w (per
 * osec; may be NULL).  0, or -1 out of memory. */
int dc_items(const struct oscan *s, char *const *names, size_t n, char *const *ovf, size_t no,
             const uint64_t *w, struct dc_item **out, size_t *nout);
void dc_items_free(struct dc_item *it, size_t n);

/* Offsets as the relink places them: the stable pieces of all output
 * sections fill page offsets [0, window) page after page, the overflow
 * pieces [window, window + size) (rsv_pack over all pieces at once: a set
 * index depends only on the page offset, so the budget of sets is shared
 * by .rodata, .data and .bss); rel is then off minus its output section's
 * first page.  *stable_end: the end of the stable part (global).  0, or
 * -1 out of memory. */
int dc_layout(const struct reserve *rv, struct dc_item *it, size_t n, uint64_t *stable_end);

/* The linker-script lines of output section out (DC_*): page-align, then
 * every piece at base + rel.  Returns how many pieces it placed (0: none
 * of this output section, nothing written). */
size_t dc_script(FILE *f, int out, const struct dc_item *it, size_t n, const struct reserve *rv);

/* After the link: reads prog's object symbols and prints how many overflow
 * pieces lie wholly in the reserved window and stable ones wholly before
 * it.  0, or -1 with a message when an overflow piece is outside. */
int dc_verify(const char *prog, const char *shown, const struct dc_item *it, size_t n,
              const struct reserve *rv);

/* ---- the data model (docs/layout.md "Data colouring"): the plan's and the
 * relink's check -------------------------------------------------------------- */

#define DC_COVER 99 /* percent of the modelled accesses the hot lines hold */

struct dc_lines {
    struct cm_line *v;
    size_t n, cap;
};

/* The lines of [addr, addr + size), each with its share of weight.  0, or
 * -1 out of memory. */
int dc_add_object(struct dc_lines *L, const struct cgeom *g, uint64_t addr, uint64_t size,
                  uint64_t weight, uint32_t region);
/* The lines of piece *d placed at addr: each of its sections in s (one
 * per object that defines it: a static table a header defines is one per
 * unit) laid end to end as dc_items lays them, with its own weight w[j]
 * (one piece's weight spread over all its copies would thin the lines of
 * the copy that is used).  0, or -1 out of memory. */
int dc_add_item(struct dc_lines *L, const struct cgeom *g, const struct oscan *s, const uint64_t *w,
                const struct dc_item *d, uint64_t addr, uint32_t region);
/* The lines of the pieces it[0..n) where the linked program prog has them
 * (its object symbols; a piece whose name it lacks adds none).  0, or -1
 * out of memory. */
int dc_prog_lines(const char *prog, const struct cgeom *g, const struct dc_item *it, size_t n,
                  struct dc_lines *L);
/* Folds L (two objects in one line: one line, both weights) and returns the
 * smallest weight of the lines that hold DC_COVER % of all: the hot lines. */
uint64_t dc_cover(struct dc_lines *L);
/* Folds L, keeps the lines of weight at least min and models them: the
 * cyclic stream into r, Che's estimate into *che.  0, or -1 out of memory. */
int dc_simulate(const struct cgeom *g, struct dc_lines *L, uint64_t min, struct cm_result *r,
                double *che);

/* ---- plan-dcolour.c: the model and the plan ----------------------------------- */

struct dc_plan_in {
    const char *prog;
    const struct oscan *s;
    const uint64_t *data_w;   /* per osec: executions of referencing blocks */
    const uint32_t *data;     /* the planned data order (osec indices) */
    size_t nd;
    const char *dcache;       /* --dcache=SIZE,WAYS,LINE or NULL (sysfs, type Data) */
    int reserve_sets;         /* -1: sets / 8; 0: never */
    int no_model_check;       /* --no-model-check: written even when not predicted better */
};

struct dc_plan_out {
    int write;                /* the data order (coloured or not) predicted to miss less than
                                 PROG's data layout: written (or --no-model-check) */
    int use;                  /* colouring planned */
    struct reserve rv;
    char **ovf;               /* the overflow objects' names (borrowed), no of them */
    size_t no, ns;
    double before, after, coloured; /* modelled D1 hit ratios */
    struct cgeom g;
};

/* Prints the data cache model before, after the data order and coloured;
 * decides whether to colour.  0, or -1 after a message. */
int dc_plan(const struct dc_plan_in *in, struct dc_plan_out *o);
void dc_plan_free(struct dc_plan_out *o);

#endif /* PERFINST_DCOLOUR_H */
