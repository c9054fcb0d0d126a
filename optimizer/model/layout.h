/* layout.h — what function/data ordering, the cache model and `pmopt
 * relink` share (plan-order.c, objscan.c, cachemodel.c, cmd-relink.c).
 * docs/layout.md ("Function order", "Relink", "Chase-tail reserved
 * regions") describes the algorithms and the feedback kinds. */
#ifndef PERFINST_LAYOUT_H
#define PERFINST_LAYOUT_H

#include <stddef.h>
#include <stdint.h>
#include "pimeta.h"

/* ---- objscan.c: the sections, symbols and references of the link's objects */

enum osec_kind { OS_TEXT = 1, OS_DATA = 2, OS_BSS = 3, OS_RODATA = 4 };

struct osec {
    char *name;        /* section name, e.g. ".text.f" */
    const char *sym;   /* what it holds (the part after the prefix): "f" */
    int kind;          /* enum osec_kind */
    int cold;          /* .text.unlikely.*, .text.exit.* */
    int group;         /* in a section group (a COMDAT's copy) */
    uint64_t size, align;
    uint32_t obj;      /* index into oscan.objs */
    uint64_t samples;  /* filled by the plan: block executions in it */
};

struct oref {          /* a relocation from one section to another */
    uint32_t from;     /* osec index */
    uint32_t to;       /* osec index, or UINT32_MAX while unresolved */
    char *to_name;     /* global symbol, when to is resolved by name */
    uint64_t offset;   /* in from */
    int call;          /* a call or jmp (e8/e9 before a PC32/PLT32) */
};

struct orange {        /* a CODE range of an object: where a site's code is */
    uint32_t sec;      /* osec index */
    uint64_t off;
    uint64_t unit_id;
    uint32_t site;
    uint32_t len;      /* bytes of the range */
};

struct oclean {        /* where a split function's clean copy starts (entry=jump) */
    uint32_t sec;      /* osec index */
    uint64_t off;
};

struct oscan {
    char **objs;
    size_t nobjs;
    struct osec *secs;
    size_t nsecs;
    struct oref *refs;
    size_t nrefs;
    struct orange *ranges; /* sorted by (sec, off) */
    size_t nranges;
    /* the clean copies' ranges (.perfinst.clean: a counted function f's
       code by the sites of f.count.N whose source positions it has,
       gcc-plugin/pass-ranges.cc), sorted by (sec, off); contiguous, each
       range's code is its own length */
    struct orange *cranges;
    size_t ncranges;
    /* the clean copies' entries, from the `clean` fields of the objects'
     * __perfinst_jumpinfo (perfinst-format.h), sorted by (sec, off) */
    struct oclean *cleans;
    size_t ncleans;
    /* functions defined in a shared text section (".text" with several
     * functions): "obj: name" strings, for the relink's refusal */
    char **shared;
    size_t nshared;
    /* objects that hold -flto bytecode (.gnu.lto_*): their code was made
       during the link, in lto1, and is in none of the objects; the first */
    size_t nlto;
    char *lto_obj;
    /* objects the link recorded that are gone (a build that deleted them);
       the first */
    size_t ngone;
    char *gone_obj;
};

/* Scan the relocatable objects and archive members among paths; link_lto:
 * the code of objects with -flto bytecode is not read (lto1 made the
 * program's).  0, or -1 with a message naming the file. */
int oscan_read(struct oscan *s, char *const *paths, size_t n, int link_lto);
/* The same for the inputs of a program's recorded link (ordered by argv),
 * link_lto as the link ran. */
int oscan_read_link(struct oscan *s, const struct pi_meta *m);
void oscan_free(struct oscan *s);
/* Where the code of range k (of s->ranges) ends, for the cache models: a
 * block's code runs to the next range of its section (the plugin's ranges
 * leave out inline asm and code GCC added without a counter: the models
 * err towards hot), but not into a clean copy (entry=jump lays the
 * counting copy out first) unless the range ends where the clean copy
 * starts (a body shared by cross-jumping), and at least over its own
 * length. */
uint64_t oscan_range_end(const struct oscan *s, size_t k);
/* The index of section sec's first range (ranges are sorted by section),
 * or of the first range after it when it has none. */
size_t oscan_first_range(const struct oscan *s, uint32_t sec);
/* The same in any array r[0..n) sorted by (sec, off) (s->cranges). */
size_t oscan_first_of(const struct orange *r, size_t n, uint32_t sec);
/* Text section of function name, or -1 (first one if static duplicates). */
long oscan_find(const struct oscan *s, int kind, const char *sym);
/* "f" for ".text.f", ".text.hot.f", NULL if the name holds no symbol. */
const char *oscan_sym_of(const char *secname, int *kind, int *cold);
/* A function's cold part (F.cold, or a function wholly cold): a cold text
 * section .text.unlikely.F, or the rebuild's .text.sorted.cRANK.F and
 * .text.sorted.RANKc.F (cold-parts=sorted, beside); not .text.exit. */
int oscan_cold_part(const struct osec *o);

/* ---- cachemodel.c: a set-associative LRU cache and the chase-tail model -- */

struct cgeom {
    uint32_t size, ways, line; /* bytes, ways, line bytes */
    uint32_t sets;             /* size / (ways * line) */
};

/* The machine's L1i (sysfs /sys/devices/system/cpu/cpu0/cache/index*),
 * else 32768,8,64; spec "SIZE,WAYS,LINE" (cachegrind's syntax) overrides.
 * 0, or -1 with a message for a bad spec. */
int cm_geometry(const char *spec, struct cgeom *g);
/* The same for the level-1 cache of sysfs type type_want ("Data": L1d). */
int cm_geometry_type(const char *spec, const char *type_want, struct cgeom *g);

struct cm_line {        /* one line of hot code and how often it is fetched */
    uint64_t addr;      /* line address (multiple of line) */
    uint64_t fetches;
    uint32_t region;    /* the function (caller's index) */
};

struct cm_result {
    uint64_t fetches, hits, misses; /* weighted by fetches */
    uint32_t lines, overfull_sets, max_per_set;
};

/* Simulates rounds of the cyclic stream (every line once per round, in
 * address order) through an LRU cache of geometry g, weighting each
 * access by the line's fetches; the first round only warms the cache.
 * Per-region hits/misses into rh/rm (room for nregions) when not NULL. */
int cm_simulate(const struct cgeom *g, const struct cm_line *lines, size_t n,
                struct cm_result *res, uint64_t *rh, uint64_t *rm, size_t nregions);

/* Sorts lines by address and makes the lines of one address one, their
 * fetches summed (saturating); returns the new count. */
size_t cm_fold_lines(struct cm_line *lines, size_t n);
/* hits / fetches of a simulation (1 with no fetches). */
double cm_hit_ratio(const struct cm_result *c);
/* One line of a plan's model summary: WHAT, the hot lines, the crowded
 * sets, "<ratio_name> X, M misses of N <events>". */
void cm_print_result(const char *what, const char *ratio_name, const char *events,
                     const struct cgeom *g, const struct cm_result *c);
/* The smallest fetch count of the lines v[0..n) that hold percent % of
 * their fetches, hottest first: the model's hot lines (1 when out of
 * memory). */
uint64_t cm_cover(const struct cm_line *v, size_t n, int percent);
/* Che's approximation of the LRU misses of the lines v[0..n) (order-sets.h
 * ord_che_set, per set): lines referenced independently at rates in
 * proportion to their fetches, where the cyclic stream has every line of
 * an overfull set miss on every fetch.  -1 when out of memory. */
double cm_che_misses(const struct cgeom *g, const struct cm_line *v, size_t n);
/* The model's check (docs/layout.md "The model's check"): a layout a
 * (cyclic stream a, Che's estimate che_a) against layout b: 1 when a is
 * predicted to miss less, -1 more, 0 when neither estimate tells them
 * apart.  The cyclic stream decides (hit ratios: the two layouts' hot
 * lines may hold different fetches); where it ties, Che's estimate. */
int cm_compare(const struct cm_result *a, double che_a, const struct cm_result *b, double che_b);
/* cm_compare, but the cyclic stream decides only where the two hit ratios
 * differ by MARGIN or more (0: any difference); closer, Che's estimate
 * decides.  With hot code several times L1i both layouts thrash almost
 * every set, and a hit ratio of 0.004 against 0.000 (one set of 64 that
 * fits) is no verdict on which misses less. */
int cm_compare_margin(const struct cm_result *a, double che_a, const struct cm_result *b, double che_b,
                      double margin);

/* ---- the reserved region (feedback kind "reserve") ----------------------- */

struct reserve {
    uint32_t page;         /* the set-index period: sets * line (4096) */
    uint32_t window;       /* page offset of the reserved window */
    uint32_t size;         /* its bytes (reserved sets * line) */
};

/* Place the sections (sizes, aligns) of the stable list and the overflow
 * list as the relink will: stable code fills [0, window) of each page,
 * overflow code [window, window + size); returns each one's offset from
 * the (page-aligned) start, UINT64_MAX when an overflow piece is larger
 * than the window (it is placed after everything).  The total in *end. */
void rsv_pack(const struct reserve *r, const uint64_t *ssize, const uint64_t *salign, size_t ns,
              const uint64_t *osize, const uint64_t *oalign, size_t no, uint64_t *soff,
              uint64_t *ooff, uint64_t *end);

/* The .perfinst.reserve table of a relinked program: its format is
 * perfinst-format.h's (struct pi_reserve_hdr), its decoder
 * pi_reserve_decode (common/piformat.c). */

#endif /* PERFINST_LAYOUT_H */
