/* plan-sharing.c — pmopt plan --sharing (-o FEEDBACK | --advise) PROG TRACE:
 * the model's false-sharing verdicts (sharing-model.c) turned into
 * recommendations the plugin applies on a rebuild
 * (-fplugin-arg-perfinst-feedback=FEEDBACK), or into source advice; and
 * pmopt plan --sharing --check REPAIRED TRACE, which checks a rebuild
 * against what it was asked to do (docs/sharing.md "Repair").
 *
 * For each object in false sharing — at this run's placement, with its
 * neighbours, or predicted at other placements:
 *
 *   - its writes take the line from other data's users (a flag beside
 *     read-mostly globals): the object gets lines of its own, `align-global
 *     name=VAR` or `align-alloc func=F file=FILE line=N`; data that is only
 *     read beside it needs nothing once the writers are moved;
 *   - threads write different parts of it:
 *       * safe when it starts a line: aligned as above;
 *       * an array of structs (per-thread elements): `pad-field type=S
 *         field=*` (the stride becomes whole lines), with `align-alloc` for
 *         a heap array: the two depend on each other (group=G members=N:
 *         applied together or not at all);
 *       * one struct whose fields different threads write: `pad-field
 *         type=S field=F` for each field only one thread writes (a field
 *         several threads write, or one another thread reads fresh, is
 *         true sharing and never padded);
 *       * an array of scalars: `pad-array` when the plugin found it only
 *         indexed (.perfinst_share_arrays);
 *       * a placement that removes most of it (a matrix whose rows are
 *         each thread's, misaligned): aligned;
 *       * otherwise advice, with the reason.
 *
 *     An object bigger than an L1 data cache is aligned only when that
 *     also takes the threads' writes apart on neighbouring lines (the
 *     prefetcher brings each missed line's neighbour): lu_ncb's matrix,
 *     whose block columns of 64 bytes are each thread's, gets advice.
 *
 * Every repair is checked in the model before it is written: the object
 * laid out as the rebuild will lay it out must have no false sharing left
 * (or, for a placement, at most half of its lines) and no pair of threads
 * sharing a line that did not before, counted from the bytes each thread
 * touches and the epochs, never from sampled reload counts: the same plan
 * in every run.  A repair that fails the check becomes advice
 * saying so.
 *
 * pad-field changes the type's layout for the whole program: every unit
 * that uses the type must be rebuilt with the same feedback file (the plan
 * says so in each such recommendation). */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <getopt.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "pifeedback.h"
#include "plan.h"
#include "sharing.h"

/* pad-array only while the padded array stays this small: a big array
 * whose bytes threads share is a buffer, not per-thread slots. */
#define SH_PAD_ARRAY_MAX (1u << 20)

struct rec {
    char kind[16];
    char key[520];    /* name, type, or func (a C++ linkage name can be long) */
    char field[64];   /* pad-field */
    char file[256];   /* align-alloc, pad-array */
    uint32_t line;
    uint64_t reloads; /* the object's false reloads (the report's figure) */
    char why[1024];
    int advice_only;
    int group;        /* recommendations that must be applied together share a group (0: none) */
    int number;       /* in the file */
    size_t twin;      /* align-alloc: the heap block `why` describes (sh_object.twin) */
};

struct sh_plan {
    struct rec *r;
    size_t n, cap;
    int groups;
    int *parent;      /* union-find over groups (a type padded for two arrays joins their groups) */
};

static int find(struct sh_plan *p, int g)
{
    while (p->parent[g] != g)
        g = p->parent[g] = p->parent[p->parent[g]];
    return g;
}

static int new_group(struct sh_plan *p)
{
    int *np = realloc(p->parent, (size_t)(p->groups + 2) * sizeof *np);
    if (!np) {
        rep_oom();
        exit(PM_ERROR);
    }
    p->parent = np;
    p->groups++;
    p->parent[p->groups] = p->groups;
    return p->groups;
}

static struct rec *add(struct sh_plan *p, const struct rec *r)
{
    for (size_t i = 0; i < p->n; i++)
        if (!strcmp(p->r[i].kind, r->kind) && !strcmp(p->r[i].key, r->key) && !strcmp(p->r[i].field, r->field) &&
            p->r[i].line == r->line) {
            if (r->reloads > p->r[i].reloads)
                p->r[i].reloads = r->reloads;
            /* blocks of one call (one align-alloc): the lowest-numbered
             * block's reason, whatever order the objects came in */
            if (!strcmp(r->kind, PIFB_ALIGN_ALLOC) &&
                (r->twin < p->r[i].twin || (r->twin == p->r[i].twin && strcmp(r->why, p->r[i].why) < 0))) {
                p->r[i].twin = r->twin;
                memcpy(p->r[i].why, r->why, sizeof r->why);
            }
            if (r->group && p->r[i].group) /* one group now */
                p->parent[find(p, r->group)] = find(p, p->r[i].group);
            else if (r->group)
                p->r[i].group = r->group;
            return &p->r[i];
        }
    if (p->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 16;
        struct rec *nr = realloc(p->r, p->cap * sizeof *nr);
        if (!nr) {
            rep_oom();
            exit(PM_ERROR);
        }
        p->r = nr;
    }
    p->r[p->n] = *r;
    return &p->r[p->n++];
}

static int alignable(const struct sh_object *o)
{
    return o->kind == SH_OBJ_GLOBAL || (o->kind == SH_OBJ_HEAP && o->line && o->func[0]);
}

static void align_rec(const struct sh_object *o, struct rec *r)
{
    if (o->kind == SH_OBJ_GLOBAL) {
        snprintf(r->kind, sizeof r->kind, PIFB_ALIGN_GLOBAL);
        snprintf(r->key, sizeof r->key, "%s", o->name);
    } else {
        snprintf(r->kind, sizeof r->kind, PIFB_ALIGN_ALLOC);
        snprintf(r->key, sizeof r->key, "%s", o->func);
        snprintf(r->file, sizeof r->file, "%s", o->file);
        r->line = o->line;
        r->twin = o->twin;
    }
}

/* The object on lines of its own (align-global or align-alloc), in group
 * (0: none), why formatted. */
static void __attribute__((format(printf, 4, 5))) add_align(struct sh_plan *p, const struct sh_object *o, int group,
                                                             const char *fmt, ...)
{
    struct rec r;
    memset(&r, 0, sizeof r);
    r.reloads = o->est_false;
    r.group = group;
    align_rec(o, &r);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r.why, sizeof r.why, fmt, ap);
    va_end(ap);
    add(p, &r);
}

static void advice(struct sh_plan *p, const struct sh_object *o, const char *fmt, const char *a1, const char *a2)
{
    struct rec r;
    memset(&r, 0, sizeof r);
    r.reloads = o->est_false;
    r.advice_only = 1;
    snprintf(r.kind, sizeof r.kind, "advice");
    snprintf(r.key, sizeof r.key, "%.150s", o->name);
    snprintf(r.why, sizeof r.why, fmt, a1, a2);
    add(p, &r);
}

/* Per field of struct S named in o's sites: which threads wrote, touched it. */
struct fld {
    char name[64];
    uint64_t off, end;          /* its bytes in the struct (the sites' `what`) */
    uint64_t writers, touchers; /* thread bits */
    uint64_t true_readers;      /* threads that read it while another wrote it */
};

/* Where field F of struct S is declared (F NULL: the first field the sites
 * name, preferring offset 0), from the sites' `what`; 0 if unknown. */
static int field_decl(const struct sh_analysis *a, const char *stype, const char *f, char *file, size_t fn,
                      uint32_t *line)
{
    int found = 0;
    for (size_t i = 0; i < a->s.nsites; i++) {
        char st[64], fname[64];
        uint64_t fo, ss;
        const char *w = a->s.sites[i].what;
        if (!sh_parse_what(w, st, sizeof st, fname, sizeof fname, &fo, &ss) || strcmp(st, stype) ||
            (f && strcmp(fname, f)))
            continue;
        if (sh_what_decl(w, file, fn, line)) {
            found = 1;
            if (f || fo == 0)
                return 1;
        }
    }
    return found;
}

static int cmp_fld(const void *x, const void *y)
{
    const struct fld *a = x, *b = y;
    return a->off < b->off ? -1 : a->off > b->off;
}

/* The fields of o's struct and who wrote, touched and truly shared each.
 * The fields (names, offsets) come from the sites' `what`, any thread's:
 * the struct's layout; a field's bytes are those its sites touched, up to
 * the next field.  Who did what comes from each thread's
 * bytes of each line and when it used the line, the facts that are the
 * same in every run: not from which threads' sites the runtime recorded
 * nor from the reloads it happened to see (a thread whose sites are
 * missing, or a field read while its writer was descheduled, gave another
 * plan in another run: fsbench's `mixed`, tests/sharing/t-fields.sh). */
static size_t fields_of(const struct sh_analysis *a, const struct sh_object *o, struct fld *f, size_t max)
{
    size_t n = 0;
    int oi = (int)(o - a->objs);
    for (size_t ri = o->row0; o->row0 != SIZE_MAX && ri < o->row0 + o->nrows; ri++) {
        const struct sh_line_row *row = &a->rows[ri];
        for (size_t k = row->site0; k < row->site0 + row->nsite; k++) {
            const struct pi_share_site_v *s = &a->s.sites[a->site_order[k]];
            char st[64], fname[64];
            uint64_t fo, ss;
            if (!sh_parse_what(s->what, st, sizeof st, fname, sizeof fname, &fo, &ss) || strcmp(st, o->stype))
                continue;
            int b = __builtin_ctzll(s->rec.mask ? s->rec.mask : 1);
            if (row->obj[b] != oi)
                continue;
            uint64_t end = fo + (uint64_t)__builtin_popcountll(s->rec.mask); /* (the access's size) */
            size_t j;
            for (j = 0; j < n && strcmp(f[j].name, fname); j++)
                ;
            if (j < n) {
                f[j].end = end > f[j].end ? end : f[j].end;
                continue;
            }
            if (n == max)
                continue;
            memset(&f[n], 0, sizeof f[n]);
            snprintf(f[n].name, sizeof f[n].name, "%s", fname);
            f[n].off = fo;
            f[n].end = end;
            n++;
        }
    }
    qsort(f, n, sizeof *f, cmp_fld);
    for (size_t j = 0; j + 1 < n; j++)
        f[j].end = f[j].end < f[j + 1].off ? f[j].end : f[j + 1].off;
    uint64_t stride = o->ssize ? o->ssize : o->size;
    for (size_t ri = o->row0; n && stride && o->row0 != SIZE_MAX && ri < o->row0 + o->nrows; ri++) {
        const struct sh_line_row *row = &a->rows[ri];
        int fld[PI_SHARE_LINE]; /* per byte of the line: the field, or -1 */
        for (int b = 0; b < (int)PI_SHARE_LINE; b++) {
            fld[b] = -1;
            if (row->obj[b] != oi)
                continue;
            uint64_t in = (row->addr + (uint64_t)b - o->addr) % stride;
            for (size_t j = 0; j < n && fld[b] < 0; j++)
                if (in >= f[j].off && in < f[j].end)
                    fld[b] = (int)j;
        }
        for (int t = 0; t < row->nthr; t++) {
            const struct sh_thr_row *tt = &row->thr[t];
            uint64_t bit = 1ull << (tt->thread & 63);
            const struct sh_thread *th = sh_thread_of(a, tt->thread);
            int forks = th && th->forks;
            for (int b = 0; b < (int)PI_SHARE_LINE; b++) {
                if (fld[b] < 0 || !(((tt->rmask | tt->wmask) >> b) & 1))
                    continue;
                struct fld *fj = &f[fld[b]];
                fj->touchers |= bit;
                if ((tt->wmask >> b) & 1)
                    fj->writers |= bit;
                /* it reads a byte another thread writes while it uses the
                 * line (not a thread that creates or joins others: its
                 * period there runs from its first to its last access of
                 * the whole line, main polling a flag beside the field and
                 * reading the results after the joins) */
                for (int u = 0; u < row->nthr && ((tt->rmask >> b) & 1) && !forks; u++) {
                    const struct sh_thr_row *tu = &row->thr[u];
                    if (u != t && ((tu->wmask >> b) & 1) && tt->lo < tu->hi && tu->lo < tt->hi)
                        fj->true_readers |= bit;
                }
            }
        }
    }
    return n;
}

static uint64_t whole_lines(uint64_t n)
{
    return (n + PI_SHARE_LINE - 1) / PI_SHARE_LINE * PI_SHARE_LINE;
}

/* The model's answer for a repair: its why text; 1 if it passes.  A
 * partial repair (a placement that removes most of it) passes when the
 * lines in false sharing are at most half of `before` (counted from the
 * bytes and epochs: the same in every run); otherwise `before` is the bound
 * of the false reloads, for the message. */
static int check_fix(struct sh_analysis *a, const struct sh_object *o, const struct sh_fix *fix, int partial,
                     uint64_t before, char *why, size_t n)
{
    uint64_t bound, pairs;
    int v = sh_predict_fixed(a, o, fix, &bound, &pairs);
    uint64_t pairs_now = sh_pairs_now(a, o);
    int clean = !(v & SH_V_FALSE);
    if (pairs > pairs_now) {
        snprintf(why, n, "the repaired layout would put %llu pairs of threads on shared lines where %llu are now",
                 (unsigned long long)pairs, (unsigned long long)pairs_now);
        return 0;
    }
    if (clean) {
        snprintf(why, n, "predicted for the repaired layout: no false sharing");
        return 1;
    }
    if (partial) {
        uint64_t left = sh_false_windows(a, o, fix, 0, PI_SHARE_LINE);
        snprintf(why, n, "%s for the repaired layout: false sharing on %llu of its lines, from %llu",
                 left * 2 <= before ? "predicted" : "too little gained", (unsigned long long)left,
                 (unsigned long long)before);
        return left * 2 <= before;
    }
    snprintf(why, n, "the repaired layout would still have false sharing (bound %llu, from %llu)",
             (unsigned long long)bound, (unsigned long long)before);
    return 0;
}

/* An object larger than an L1 data cache is streamed through the caches:
 * each line a thread misses comes with its neighbour (the prefetcher), so
 * two threads writing neighbouring lines pass them back and forth much as
 * if they shared one.  The windows of two neighbouring lines (either
 * parity) in false sharing, o at byte `off` of a line. */
#define SH_STREAMED ((uint64_t)32 << 10)

static uint64_t neighbours_false(struct sh_analysis *a, const struct sh_object *o, int off)
{
    return sh_false_windows(a, o, NULL, off, 2 * PI_SHARE_LINE) +
           sh_false_windows(a, o, NULL, off + PI_SHARE_LINE, 2 * PI_SHARE_LINE);
}

/* o's false sharing where it lies (or, hidden, at its worst placement),
 * counted in lines (win 64) or neighbouring lines (128): the same in every
 * run. */
static uint64_t false_now(struct sh_analysis *a, const struct sh_object *o, int win)
{
    if (o->v_here & SH_V_FALSE)
        return win == PI_SHARE_LINE ? sh_false_windows(a, o, NULL, o->actual_off, win)
                                    : neighbours_false(a, o, o->actual_off);
    uint64_t worst = 0;
    for (unsigned k = 0; k < SH_PLACEMENTS; k++)
        if (o->pv[k] & SH_V_FALSE) {
            uint64_t n = win == PI_SHARE_LINE ? sh_false_windows(a, o, NULL, 8 * (int)k, win)
                                              : neighbours_false(a, o, 8 * (int)k);
            worst = n > worst ? n : worst;
        }
    return worst;
}

/* Does starting a line pay for a streamed object?  Only when it also takes
 * the threads' writes apart on neighbouring lines (at least half of those
 * pairs of lines); otherwise *why says so (advice: predicted not to pay). */
static int aligned_pays(struct sh_analysis *a, const struct sh_object *o, char *why, size_t n)
{
    if (o->size <= SH_STREAMED)
        return 1;
    uint64_t now = false_now(a, o, 2 * PI_SHARE_LINE), after = neighbours_false(a, o, 0);
    if (after * 2 <= now)
        return 1;
    /* the prediction's figures (the report's placements): what a line
     * start takes away on lines, and what it leaves on pairs of lines */
    unsigned kp = (unsigned)(o->addr % (2 * PI_SHARE_LINE)) / 8;
    uint64_t line_now = (o->v_here & SH_V_FALSE) ? o->b_here : 0, line0 = (o->pv[0] & SH_V_FALSE) ? o->pred[0] : 0;
    uint64_t pair_now = (o->pv_pair[kp] & SH_V_FALSE) ? o->pred_pair[kp] : 0;
    uint64_t pair0 = (o->pv_pair[0] & SH_V_FALSE) ? o->pred_pair[0] : 0;
    uint64_t pair64 = (o->pv_pair[8] & SH_V_FALSE) ? o->pred_pair[8] : 0;
    snprintf(why, n, "starting a cache line would leave %llu pairs of neighbouring lines with different threads' "
             "writes (%llu now): an object of %llu bytes (more than an L1 data cache, %llu) is streamed through "
             "the caches, and the prefetcher brings each line's neighbour with it: predicted not to pay, not "
             "aligned (the prediction: at a line's start its lines' false reloads go from %llu to %llu, its "
             "128-byte pairs' from %llu to %llu or %llu)", (unsigned long long)after, (unsigned long long)now,
             (unsigned long long)o->size, (unsigned long long)SH_STREAMED, (unsigned long long)line_now,
             (unsigned long long)line0, (unsigned long long)pair_now, (unsigned long long)pair0,
             (unsigned long long)pair64);
    return 0;
}

/* Does o share a line with an object the plan aligns because it writes
 * beside others (so o, only read there, needs nothing)? */
static int culprit_moves(const struct sh_analysis *a, const struct sh_object *o)
{
    for (size_t ri = o->row0; o->row0 != SIZE_MAX && ri < o->row0 + o->nrows; ri++) {
        const struct sh_line_row *r = &a->rows[ri];
        if (!(r->verdict & SH_V_FALSE))
            continue;
        int moved = 0;
        for (int b = 0; b < (int)PI_SHARE_LINE; b++) {
            int oi = r->obj[b];
            if (oi >= 0 && &a->objs[oi] != o && (a->objs[oi].v_cross & SH_X_CULPRIT) && alignable(&a->objs[oi]))
                moved = 1;
        }
        if (!moved)
            return 0;
    }
    return 1;
}

/* An object the implementation owns: allocated by a function of the C++
 * standard library (std::, __gnu_cxx::: inlined into the program from its
 * headers, std::thread's state), or of a struct whose name is reserved to
 * the implementation (_State, __foo): its layout is the library's ABI. */
static int implementation_owned(const struct sh_object *o)
{
    static const char *const std_prefixes[] = {"_ZSt", "_ZNSt", "_ZNKSt", "_ZN9__gnu_cxx", "_ZNK9__gnu_cxx"};
    if (o->kind == SH_OBJ_HEAP)
        for (size_t i = 0; i < sizeof std_prefixes / sizeof *std_prefixes; i++)
            if (!strncmp(o->func, std_prefixes[i], strlen(std_prefixes[i])))
                return 1;
    return o->stype[0] == '_' && (o->stype[1] == '_' || (o->stype[1] >= 'A' && o->stype[1] <= 'Z'));
}

static void plan_object(struct sh_analysis *a, struct sh_plan *p, const struct sh_object *o)
{
    int hidden = 0;
    uint64_t worst = 0;
    for (unsigned k = 0; k < SH_PLACEMENTS; k++)
        if (o->pv[k] & SH_V_FALSE) {
            hidden = 1;
            worst = o->pred[k] > worst ? o->pred[k] : worst;
        }
    if (o->plain_off >= 0 && (o->v_plain & SH_V_FALSE)) {
        hidden = 1; /* at the plain build's placement */
        worst = o->b_plain > worst ? o->b_plain : worst;
    }
    int intra = (o->v_here & SH_V_FALSE) || hidden;
    if (!o->verdict_false && !hidden)
        return;
    const char *seen = o->verdict_false ? "seen in this run" : "predicted at other placements";
    char why[1024] = "", model[512];
    struct rec r;
    if (o->kind == SH_OBJ_OTHER) { /* no allocation site to change */
        advice(p, o, "falsely shared, but allocated where perfinst did not see it: build the code that allocates "
                     "it with the plugin (-fplugin-arg-perfinst-sharing=all) so that the plan can name its "
                     "allocation site, or allocate it with aligned_alloc(64, size rounded up to 64)%s%s", "", "");
        return;
    }
    if (implementation_owned(o)) {
        advice(p, o, "falsely shared (%s), but the C++ standard library allocates it or defines its type: its "
                     "layout is the library's, perfinst does not change it%s", seen, "");
        return;
    }
    /* with its neighbours: the writers move */
    if ((o->v_cross & SH_X_CULPRIT) || (o->v_cross == SH_X_VICTIM && !culprit_moves(a, o))) {
        if (alignable(o))
            add_align(p, o, 0, "%s %s (%s): it gets cache lines of its own", o->name,
                      o->v_cross & SH_X_CULPRIT ? "is written while threads use other data on its lines"
                                                : "is used while other data on its lines is written",
                      seen);
        else
            advice(p, o, "it shares lines with data other threads write, but perfinst cannot align it (%s)%s",
                   seen, "");
    }
    if (!intra)
        return;
    uint64_t before = (o->v_here & SH_V_FALSE) ? o->b_here : worst;
    /* (a streamed object whose aligned lines stay beside other threads'
     * lines: no alignment, step 1 or 5) */
    char notpay[1024] = "";
    int pays = !alignable(o) || aligned_pays(a, o, notpay, sizeof notpay);
    /* 1. safe when it starts a line */
    if (alignable(o) && !(o->pv[0] & SH_V_FALSE) && pays) {
        struct sh_fix fix = {.kind = SH_FIX_ALIGN};
        if (check_fix(a, o, &fix, 0, before, model, sizeof model)) {
            add_align(p, o, 0, "threads write different parts of %s; safe when it starts a cache line (%s); %s",
                      o->name, seen, model);
            return;
        }
    }
    int anon = !strcmp(o->stype, "<anonymous>");
    int group = 0;
    /* 2. an array of structs: each element on lines of its own */
    if (o->stype[0] && !anon && o->ssize && o->ssize < o->size) {
        struct sh_fix fix = {.kind = SH_FIX_STRIDE, .stride = o->ssize, .new_stride = whole_lines(o->ssize)};
        if (check_fix(a, o, &fix, 0, before, model, sizeof model)) {
            if (o->kind == SH_OBJ_HEAP)
                group = new_group(p);
            memset(&r, 0, sizeof r);
            r.reloads = o->est_false;
            r.group = group;
            snprintf(r.kind, sizeof r.kind, PIFB_PAD_FIELD);
            snprintf(r.key, sizeof r.key, "%s", o->stype);
            snprintf(r.field, sizeof r.field, "*");
            field_decl(a, o->stype, NULL, r.file, sizeof r.file, &r.line);
            snprintf(r.why, sizeof r.why, "per-thread elements of %s (struct %s, %llu bytes) share lines (%s): the "
                     "type is aligned and padded to whole lines (%s) — this changes struct %s for the whole "
                     "program, rebuild every unit that uses it", o->name, o->stype, (unsigned long long)o->ssize,
                     seen, model, o->stype);
            add(p, &r);
            if (o->kind == SH_OBJ_HEAP)
                add_align(p, o, group, "the array of padded struct %s must start a line: applied with the "
                          "padding or not at all", o->stype);
            return;
        }
        snprintf(why, sizeof why, "%s", model);
    }
    /* 3. one struct (or an element larger than a line): the fields one
     * thread writes, each on a line of its own */
    if (o->stype[0] && !anon) {
        struct fld f[64];
        size_t nf = fields_of(a, o, f, 64);
        qsort(f, nf, sizeof *f, cmp_fld);
        struct sh_fix fix = {.kind = SH_FIX_FIELDS, .stride = o->ssize ? o->ssize : o->size};
        uint64_t pos = 0, prev = 0;
        int padded = 0;
        char names[512] = "";
        for (size_t i = 0; i <= nf && fix.nfields < 63; i++) {
            int pad = i < nf && __builtin_popcountll(f[i].writers) == 1 && !(f[i].true_readers & ~f[i].writers) &&
                      f[i].off > 0 && f[i].off < fix.stride;
            if (i < nf && !pad)
                continue;
            uint64_t at = i < nf ? f[i].off : fix.stride;
            /* [prev, at) moves together */
            fix.old_off[fix.nfields] = prev;
            fix.old_end[fix.nfields] = at;
            fix.new_off[fix.nfields] = pos;
            fix.nfields++;
            pos += at - prev;
            if (i < nf) {
                pos = whole_lines(pos);
                prev = at;
                padded++;
                size_t l = strlen(names);
                snprintf(names + l, sizeof names - l, "%s%.60s", l ? ", " : "", f[i].name);
            }
        }
        fix.new_stride = whole_lines(pos);
        if (padded && check_fix(a, o, &fix, 0, before, model, sizeof model)) {
            if (o->kind == SH_OBJ_HEAP)
                group = new_group(p);
            for (size_t i = 0; i < nf; i++) {
                if (__builtin_popcountll(f[i].writers) != 1 || (f[i].true_readers & ~f[i].writers) || !f[i].off ||
                    f[i].off >= fix.stride)
                    continue; /* truly shared (written by several, or read what one wrote), or read-only */
                memset(&r, 0, sizeof r);
                r.reloads = o->est_false;
                r.group = group;
                snprintf(r.kind, sizeof r.kind, PIFB_PAD_FIELD);
                snprintf(r.key, sizeof r.key, "%s", o->stype);
                snprintf(r.field, sizeof r.field, "%.63s", f[i].name);
                field_decl(a, o->stype, f[i].name, r.file, sizeof r.file, &r.line);
                snprintf(r.why, sizeof r.why, "field %.63s.%.63s is written by one thread beside data other threads "
                         "use (%s): it starts a line of its own (%s) — this changes struct %s for the whole program, "
                         "rebuild every unit that uses it", o->stype, f[i].name, seen, model, o->stype);
                add(p, &r);
            }
            if (o->kind == SH_OBJ_HEAP)
                add_align(p, o, group, "the padded struct %s (%s) must start a line: applied with the padding "
                          "or not at all", o->stype, names);
            return;
        }
        if (padded)
            snprintf(why, sizeof why, "%s", model);
    }
    /* 4. an array of scalars: its elements padded apart when the plugin
     * found it only indexed (the facts of .perfinst_share_arrays) */
    const struct pi_share_array *fact = NULL;
    int nfacts = 0;
    for (size_t i = 0; o->kind == SH_OBJ_GLOBAL && i < a->narrays; i++)
        if (!strcmp(a->arrays[i].name, o->name) && a->arrays[i].elem_size * a->arrays[i].count == o->size) {
            fact = &a->arrays[i];
            nfacts++;
        }
    uint64_t stride = fact ? whole_lines(fact->elem_size) : 0;
    int too_big = fact && stride * fact->count > SH_PAD_ARRAY_MAX; /* a buffer, not per-thread slots */
    if (nfacts == 1 && fact->ok && !too_big) {
        struct sh_fix fix = {.kind = SH_FIX_STRIDE, .stride = fact->elem_size, .new_stride = stride};
        if (check_fix(a, o, &fix, 0, before, model, sizeof model)) {
            memset(&r, 0, sizeof r);
            r.reloads = o->est_false;
            snprintf(r.kind, sizeof r.kind, PIFB_PAD_ARRAY);
            snprintf(r.key, sizeof r.key, "%s", o->name);
            snprintf(r.file, sizeof r.file, "%s", fact->file);
            r.line = fact->line;
            snprintf(r.why, sizeof r.why, "threads write different elements of %.160s (%s), an array of scalars "
                     "that is only indexed in %.200s: each element gets cache lines of its own (stride %llu -> %llu "
                     "bytes, the array %llu -> %llu bytes; %.300s)", o->name, seen, fact->file,
                     (unsigned long long)fact->elem_size, (unsigned long long)stride, (unsigned long long)o->size,
                     (unsigned long long)(stride * fact->count), model);
            if (!strcmp(fact->reason, "public")) {
                size_t len = strlen(r.why);
                snprintf(r.why + len, sizeof r.why - len, "; it is visible to other units: the padded array is "
                         "renamed %.160s.perfinst_padded, so that a unit using it without this rebuild fails to link",
                         o->name);
            }
            /* its elements aligned, the padded array starts a line and ends
             * one: it takes the place of the align-global its neighbours
             * asked for above (the plugin places an array it pads itself,
             * and pads none moved to a section) */
            for (size_t i = 0; i < p->n; i++)
                if (!strcmp(p->r[i].kind, PIFB_ALIGN_GLOBAL) && !strcmp(p->r[i].key, o->name)) {
                    r.reloads = r.reloads > p->r[i].reloads ? r.reloads : p->r[i].reloads;
                    p->r[i] = r;
                    return;
                }
            add(p, &r);
            return;
        }
    }
    /* 5. a placement that removes most of it (the object aligned): at most
     * half of its lines in false sharing left, counted from the bytes (the
     * same in every run; the reload counts are sampled) */
    if (alignable(o) && pays) {
        struct sh_fix fix = {.kind = SH_FIX_ALIGN};
        if (check_fix(a, o, &fix, 1, false_now(a, o, PI_SHARE_LINE), model, sizeof model)) {
            add_align(p, o, 0, "threads write different parts of %s (%s); starting a cache line removes most of "
                      "it: %s", o->name, seen, model);
            return;
        }
    }
    /* 6. advice, with the reason */
    char because[1024];
    if (notpay[0])
        snprintf(because, sizeof because, "%s", notpay);
    else if (anon)
        snprintf(because, sizeof because, "its struct has no name the plugin can match (no tag, no typedef)");
    else if (why[0] && o->stype[0])
        snprintf(because, sizeof because, "%s", why);
    else if (nfacts == 1 && fact->ok && too_big)
        snprintf(because, sizeof because, "not padded automatically: its %llu elements padded to lines would take "
                 "%llu bytes (more than %u)", (unsigned long long)fact->count,
                 (unsigned long long)(stride * fact->count), SH_PAD_ARRAY_MAX);
    else if (nfacts == 1 && !fact->ok)
        snprintf(because, sizeof because, "not padded automatically: %s", fact->reason);
    else if (nfacts > 1)
        snprintf(because, sizeof because, "not padded automatically: several arrays are named %s", o->name);
    else if (o->kind == SH_OBJ_HEAP)
        snprintf(because, sizeof because, "a heap block without a struct layout the plugin can pad, and no placement "
                 "of it removes the sharing");
    else if (!a->narrays)
        snprintf(because, sizeof because, "%s has no facts about its arrays (built without sharing detection?)",
                 a->prog);
    else
        snprintf(because, sizeof because, "not an array the plugin can pad, and no placement of it removes the "
                 "sharing");
    if (notpay[0])
        advice(p, o, "threads write different parts of it: %s; give each thread's part two lines or more, apart "
                     "from the others' (e.g. blocks of 128 bytes from a 128-byte boundary)%s", because, "");
    else
        advice(p, o, "threads write different parts of it: %s; give each thread's part a line of its own, e.g. "
                     "`alignas(64)` on each thread's element%s", because, "");
    (void)why;
}

/* The plan's order (and so its numbers): repairs, then advice, each by
 * what it names -- kind, name, field, file, line -- never by the figures:
 * sampled reload counts vary between runs of the same program, and two
 * traces with the same verdicts must give the same plan
 * (tests/sharing/t-order.sh). */
static int cmp_rec(const void *x, const void *y)
{
    const struct rec *a = x, *b = y;
    if (a->advice_only != b->advice_only)
        return a->advice_only - b->advice_only;
    int c = strcmp(a->kind, b->kind);
    if (!c)
        c = strcmp(a->key, b->key);
    if (!c)
        c = strcmp(a->field, b->field);
    if (!c)
        c = strcmp(a->file, b->file);
    if (!c)
        c = (a->line > b->line) - (a->line < b->line);
    return c ? c : strcmp(a->why, b->why);
}

static void help(FILE *f)
{
    fprintf(f,
            "usage: pmopt plan --sharing (-o FEEDBACK | --advise) [--force] PROG TRACE...\n"
            "   or: pmopt plan --sharing --check REPAIRED TRACE...\n"
            "Fixes for the false sharing `pmopt report --sharing PROG TRACE` finds (in this run or at\n"
            "other placements): a feedback file for the rebuild\n"
            "  gcc -fplugin=perfinst.so -fplugin-arg-perfinst-feedback=FEEDBACK ...\n"
            "(kinds align-global, align-alloc, pad-field, pad-array; -fplugin-arg-perfinst-feedback-only=1,3\n"
            "applies some), or the same fixes as source advice.  True sharing is never padded.  Each\n"
            "repair is checked in the model first: none that would leave false sharing or put a new\n"
            "pair of threads on a line.\n"
            "  -o, --output=FEEDBACK  the feedback file (written whole; a FIFO or device in place)\n"
            "  --advise               print source advice instead\n"
            "  --check                REPAIRED (built with the feedback file and sharing detection) and a\n"
            "                         trace of it: was every recommendation applied, is the false sharing\n"
            "                         of what they repaired gone?\n"
            "  --plain=PLAIN          the build without perfinst: its globals' placements are judged too\n"
            "  --force                read a trace of a different build of PROG\n"
            "  --stats                the analysis' size and work on stderr\n");
}

static const char *at_line(uint32_t line)
{
    static char buf[24];
    snprintf(buf, sizeof buf, "%u: ", line);
    return buf;
}

static void advise_line(const struct rec *r, int num)
{
    if (!strcmp(r->kind, PIFB_ALIGN_GLOBAL))
        printf("%d. at the definition of `%s`: `_Alignas(64)` it and pad it to a multiple of 64 bytes (or "
               "`__attribute__((aligned(64)))`) — %s\n", num, r->key, r->why);
    else if (!strcmp(r->kind, PIFB_ALIGN_ALLOC))
        printf("%d. %s:%u (in %s): allocate with `aligned_alloc(64, size rounded up to 64)` — %s\n", num,
               pm_basename(r->file), r->line, r->key, r->why);
    else if (!strcmp(r->kind, PIFB_PAD_FIELD) && !strcmp(r->field, "*"))
        printf("%d. %s%s%sstruct %s: `alignas(64)` its first member (the struct becomes a multiple of 64 bytes) "
               "— %s\n", num, r->line ? pm_basename(r->file) : "", r->line ? ":" : "", r->line ? at_line(r->line) : "",
               r->key, r->why);
    else if (!strcmp(r->kind, PIFB_PAD_ARRAY))
        printf("%d. %s:%u: `%s`: give each element a line of its own, e.g. an array of `struct { alignas(64) T v; }` "
               "(and index .v) — %s\n", num, pm_basename(r->file), r->line, r->key, r->why);
    else if (!strcmp(r->kind, PIFB_PAD_FIELD))
        printf("%d. %s%s%sstruct %s: `alignas(64)` on member `%s` — %s\n", num, r->line ? pm_basename(r->file) : "",
               r->line ? ":" : "", r->line ? at_line(r->line) : "", r->key, r->field, r->why);
    else
        printf("%d. %s: %s\n", num, r->key, r->why);
}

/* ---- --check: a rebuild against its plan -------------------------------------- */

/* The plugin's account of a feedback rebuild (section .perfinst_share_applied
 * of REPAIRED, one text line per fact, units concatenated; docs/formats.md):
 *   pi-share-rec N KIND KEY        a sharing recommendation of the plan
 *   pi-share-applied N UNIT        applied in UNIT
 *   pi-share-not-applied N UNIT REASON */
struct applied {
    uint32_t number;
    char kind[32], key[256];
    int applied;
    char units[512];
    char reasons[1024];
};

static int applied_read(const char *path, struct applied **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    if (elf_version(EV_CURRENT) == EV_NONE)
        return -1;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        pm_error("%s: %s", path, strerror(errno));
        return -1;
    }
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    size_t shstrndx, cap = 0;
    int rc = 0;
    if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getshdrstrndx(elf, &shstrndx)) {
        pm_error("%s: not an ELF file%s", path, pi_not_elf_why(path));
        rc = -1;
        goto done;
    }
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
        GElf_Shdr sh;
        const char *name;
        if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)) ||
            strcmp(name, ".perfinst_share_applied") || sh.sh_type == SHT_NOBITS)
            continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        const char *p = d && d->d_buf ? d->d_buf : NULL, *end = p ? p + d->d_size : NULL;
        while (p && p < end) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
            char line[2048], what[32], a1[256], a2[1024];
            unsigned num;
            if (len < sizeof line) {
                memcpy(line, p, len);
                line[len] = 0;
                int k = sscanf(line, "pi-share-%31s %u %255s %1023[^\n]", what, &num, a1, a2);
                if (k >= 3) {
                    size_t i;
                    for (i = 0; i < *n && (*out)[i].number != num; i++)
                        ;
                    if (i == *n) {
                        if (*n == cap) {
                            cap = cap ? 2 * cap : 16;
                            struct applied *na = realloc(*out, cap * sizeof *na);
                            if (!na) {
                                rc = rep_oom();
                                goto done;
                            }
                            *out = na;
                        }
                        memset(&(*out)[i], 0, sizeof **out);
                        (*out)[i].number = num;
                        (*n)++;
                    }
                    struct applied *x = &(*out)[i];
                    size_t l;
                    if (!strcmp(what, "rec")) {
                        snprintf(x->kind, sizeof x->kind, "%.31s", a1);
                        snprintf(x->key, sizeof x->key, "%.255s", k == 4 ? a2 : "");
                    } else if (!strcmp(what, "applied")) {
                        x->applied = 1;
                        l = strlen(x->units);
                        if (!strstr(x->units, a1))
                            snprintf(x->units + l, sizeof x->units - l, "%s%s", l ? ", " : "", a1);
                    } else if (!strcmp(what, "not-applied")) {
                        l = strlen(x->reasons);
                        if (!strstr(x->reasons, a2))
                            snprintf(x->reasons + l, sizeof x->reasons - l, "%s%s: %s", l ? "; " : "", a1,
                                     k == 4 ? a2 : "?");
                    }
                }
            }
            p += len + 1;
            while (p < end && !*p)
                p++;
        }
    }
done:
    if (elf)
        elf_end(elf);
    close(fd);
    return rc;
}

static int cmp_applied(const void *x, const void *y)
{
    const struct applied *a = x, *b = y;
    return a->number < b->number ? -1 : a->number > b->number;
}

/* Does recommendation x name object o?  (Its key as the plugin wrote it:
 * name=V, func=F file=X line=L, type=S field=F.) */
static int repairs(const struct applied *x, const struct sh_object *o)
{
    char v[256], file[256];
    unsigned line;
    if (!strcmp(x->kind, PIFB_ALIGN_GLOBAL) || !strcmp(x->kind, PIFB_PAD_ARRAY))
        return o->kind == SH_OBJ_GLOBAL && sscanf(x->key, "name=%255s", v) == 1 && !strcmp(v, o->name);
    if (!strcmp(x->kind, PIFB_PAD_FIELD))
        return sscanf(x->key, "type=%255s", v) == 1 && !strcmp(v, o->stype);
    if (!strcmp(x->kind, PIFB_ALIGN_ALLOC))
        return o->kind == SH_OBJ_HEAP && sscanf(x->key, "func=%*s file=%255s line=%u", file, &line) == 2 &&
               line == o->line && !strcmp(pm_basename(file), pm_basename(o->file));
    return 0;
}

static int check(const char *repaired, char **traces, int ntraces, int force, int stats)
{
    struct applied *ap;
    size_t nap;
    if (applied_read(repaired, &ap, &nap))
        return PM_ERROR;
    qsort(ap, nap, sizeof *ap, cmp_applied);
    int bad = 0;
    if (!nap)
        printf("%s: no account of a sharing repair (.perfinst_share_applied): was it built with "
               "-fplugin-arg-perfinst-feedback=PLAN from pmopt plan --sharing?\n", repaired);
    for (size_t i = 0; i < nap; i++) {
        const struct applied *x = &ap[i];
        if (x->applied)
            printf("recommendation %u (%s %s): applied in %s\n", x->number, x->kind, x->key, x->units);
        else {
            printf("recommendation %u (%s %s): NOT applied: %s\n", x->number, x->kind, x->key,
                   x->reasons[0] ? x->reasons : "no unit of the program had what it names");
            bad++;
        }
    }
    struct sh_analysis a;
    memset(&a, 0, sizeof a);
    if (sh_analyze_traces(&a, repaired, traces, ntraces, force)) {
        free(ap);
        sh_free(&a);
        return PM_ERROR;
    }
    /* the objects the recommendations repaired must be free of false
     * sharing; others the plan did not name are reported, not judged */
    int left = 0, other = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < a.nobjs; i++) {
            const struct sh_object *o = &a.objs[i];
            if (!o->verdict_false)
                continue;
            int named = 0;
            for (size_t k = 0; k < nap && !named; k++)
                named = repairs(&ap[k], o);
            if (named != !pass)
                continue;
            if (!pass && !left++)
                printf("false sharing left in %s, in what the plan repaired:\n", a.trace);
            if (pass && !other++)
                printf("other false sharing in %s (no recommendation names it; not judged):\n", a.trace);
            printf("  %s (%s, %llu bytes, at +%d of its line): %s; false reloads: %llu %s\n", o->name,
                   sh_kind_name(o->kind), (unsigned long long)o->size, o->actual_off, o->verdict,
                   (unsigned long long)o->est_false, o->est_observed ? "observed" : "(a bound)");
        }
    if (!left)
        printf("no false sharing left in %s in what the plan repaired\n", a.trace);
    if (stats)
        sh_print_stats(&a);
    if (bad || left || !nap)
        printf("check FAILED: %d recommendation%s not applied, %d repaired object%s still in false sharing\n", bad,
               bad == 1 ? "" : "s", left, left == 1 ? "" : "s");
    else
        printf("check passed: every recommendation applied, no false sharing left in what they repaired\n");
    free(ap);
    sh_free(&a);
    return bad || left || !nap ? PM_ERROR : PM_OK;
}

int cmd_plan_sharing(int argc, char **argv)
{
    static const struct option opts[] = {
        {"sharing", no_argument, NULL, 's'}, {"output", required_argument, NULL, 'o'},
        {"advise", no_argument, NULL, 'a'},  {"force", no_argument, NULL, 'f'},
        {"check", no_argument, NULL, 'c'},   {"stats", no_argument, NULL, 'S'},
        {"plain", required_argument, NULL, 'p'},
        {"help", no_argument, NULL, 'h'},    {NULL, 0, NULL, 0},
    };
    const char *out = NULL, *plain = NULL;
    int advise = 0, force = 0, do_check = 0, stats = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
        switch (c) {
        case 's': break;
        case 'o':
            if (!*optarg)
                return pm_usage_error("plan", "-o: empty file name");
            out = optarg;
            break;
        case 'a': advise = 1; break;
        case 'f': force = 1; break;
        case 'c': do_check = 1; break;
        case 'S': stats = 1; break;
        case 'p': plain = optarg; break;
        case 'h': help(stdout); return PM_OK;
        default: return pm_usage_error("plan", "unknown option");
        }
    }
    if (do_check) {
        if (advise || out)
            return pm_usage_error("plan", "--check reads a repaired program and its trace: not with -o or --advise");
        if (argc - optind < 2)
            return pm_usage_error("plan", "--sharing --check needs REPAIRED and at least one TRACE");
        return check(argv[optind], argv + optind + 1, argc - optind - 1, force, stats);
    }
    if (advise && out)
        return pm_usage_error("plan", "--advise prints the plan: not with -o");
    if (!advise && !out)
        return pm_usage_error("plan", "expected -o FEEDBACK (or --advise)");
    if (argc - optind < 2)
        return pm_usage_error("plan", "--sharing needs PROG and at least one TRACE");
    struct sh_analysis a;
    memset(&a, 0, sizeof a);
    a.plain = plain;
    if (sh_analyze_traces(&a, argv[optind], argv + optind + 1, argc - optind - 1, force)) {
        sh_free(&a);
        return PM_ERROR;
    }
    struct sh_plan p = {0};
    new_group(&p); /* (group 0 unused: the parent array has a slot for it) */
    p.groups = 0;
    for (size_t i = 0; i < a.nobjs; i++)
        plan_object(&a, &p, &a.objs[i]);
    qsort(p.r, p.n, sizeof *p.r, cmp_rec);
    /* groups numbered in the order of their first member; their sizes */
    int *gnum = calloc((size_t)p.groups + 2, sizeof *gnum), *gsize = calloc((size_t)p.groups + 2, sizeof *gsize);
    int ng = 0;
    if (!gnum || !gsize) {
        free(gnum);
        free(gsize);
        sh_free(&a);
        return rep_oom();
    }
    for (size_t i = 0; i < p.n; i++)
        if (p.r[i].group) {
            int g = find(&p, p.r[i].group);
            if (!gnum[g])
                gnum[g] = ++ng;
            p.r[i].group = gnum[g];
            gsize[p.r[i].group]++;
        }
    int status = PM_OK;
    if (advise) {
        if (!p.n)
            printf("no false sharing found in %s: nothing to fix\n", a.trace);
        int num = 1;
        for (size_t i = 0; i < p.n; i++)
            advise_line(&p.r[i], num++);
    } else {
        struct pifb_writer w;
        struct pi_err err;
        if (pifb_create(&w, out, a.prog, a.bid, 0, &err) < 0) {
            pm_error("%s", err.msg);
            status = PM_ERROR;
            goto done;
        }
        pifb_comment(&w, "perfinst sharing plan: false sharing repaired on rebuild (docs/sharing.md)");
        struct plan wp = { .w = &w };
        for (size_t i = 0; i < p.n; i++) {
            const struct rec *r = &p.r[i];
            if (r->advice_only) {
                char text[1400];
                snprintf(text, sizeof text, "advice (not applied automatically): %s: %s", r->key, r->why);
                pifb_comment(&w, text);
                continue;
            }
            plan_begin(&wp, r->kind);
            if (!strcmp(r->kind, PIFB_ALIGN_GLOBAL))
                plan_arg(&wp, "name", r->key);
            else if (!strcmp(r->kind, PIFB_ALIGN_ALLOC)) {
                plan_arg(&wp, "func", r->key);
                plan_arg(&wp, "file", pm_basename(r->file));
                plan_arg_u64(&wp, "line", r->line);
            } else if (!strcmp(r->kind, PIFB_PAD_ARRAY)) {
                plan_arg(&wp, "name", r->key);
                plan_arg(&wp, "file", pm_basename(r->file));
            } else {
                plan_arg(&wp, "type", r->key);
                plan_arg(&wp, "field", r->field);
                plan_arg(&wp, "scope", "whole-program");
            }
            if (r->group) {
                plan_arg_u64(&wp, "group", (uint64_t)r->group);
                plan_arg_u64(&wp, "members", (uint64_t)gsize[r->group]);
            }
            plan_arg_u64(&wp, "reloads", r->reloads);
            plan_arg(&wp, "why", r->why);
            plan_end(&wp);
        }
        if (pifb_commit(&w, &err) < 0) {
            pm_error("%s", err.msg);
            status = PM_ERROR;
        }
    }
    if (stats)
        sh_print_stats(&a);
done:
    free(gnum);
    free(gsize);
    free(p.r);
    free(p.parent);
    sh_free(&a);
    return status;
}
