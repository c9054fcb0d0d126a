/* plan-sharing.c — pmopt plan --sharing (-o FEEDBACK | --advise) PROG TRACE:
 * false-sharing findings turned into recommendations the plugin applies on
 * a rebuild (-fplugin-arg-perfinst-feedback=FEEDBACK), or into source
 * advice (docs/sharing.md "Repair").
 *
 * For each object the analysis (sh_analyze, report-sharing.c) found in
 * false sharing — seen in this run, or predicted at another placement:
 *
 *   - shared with OTHER objects (two globals, two heap objects on one
 *     line): the object gets lines of its own — `align-global name=VAR`
 *     (the plugin aligns it to a line, pads it to whole lines and moves it
 *     to a dedicated section) or `align-alloc func=F file=FILE line=N`
 *     (the allocation call becomes the runtime's line allocator);
 *   - threads writing different parts of the SAME object:
 *       * safe when the object starts a line (the prediction at +0 says
 *         so): the object is aligned as above;
 *       * an array of structs (per-thread elements): `pad-field type=S
 *         field=*` (the struct's first field aligned to a line, so its
 *         alignment and size — the array stride — become whole lines) and
 *         the object aligned;
 *       * one struct whose fields different threads write: `pad-field
 *         type=S field=F` for each field only one thread writes and no
 *         other thread reloads as true sharing; a field several threads
 *         write, or one thread writes and others read fresh (true
 *         sharing), is never padded;
 *       * an array of scalars (`long c[2]`): `pad-array name=VAR file=F`
 *         when the plugin found it without an initializer and only
 *         indexed (the facts it wrote into .perfinst_share_arrays): the
 *         rebuild gives each element lines of its own
 *         (gcc-plugin/repair-arrays.cc; a global one is renamed too);
 *         otherwise advice, with the reason (its address escapes, ...).
 *
 * pad-field changes the type's layout for the whole program: every unit
 * that uses the type must be rebuilt with the same feedback file (the plan
 * says so in each such recommendation). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "pifeedback.h"
#include "report.h"
#include "sharing.h"

/* pad-array only while the padded array stays this small: a big array
 * whose bytes threads share is a buffer, not per-thread slots. */
#define SH_PAD_ARRAY_MAX (1u << 20)

struct rec {
    char kind[16];
    char key[520];    /* name, type, or func (a C++ linkage name can be long) */
    char field[64];   /* pad-field */
    char file[256];   /* align-alloc */
    uint32_t line;
    uint64_t reloads; /* false reloads it addresses (seen or predicted) */
    char why[1024];
    int advice_only;
};

struct plan {
    struct rec *r;
    size_t n, cap;
};

static struct rec *add(struct plan *p, const struct rec *r)
{
    for (size_t i = 0; i < p->n; i++)
        if (!strcmp(p->r[i].kind, r->kind) && !strcmp(p->r[i].key, r->key) && !strcmp(p->r[i].field, r->field) &&
            p->r[i].line == r->line) {
            if (r->reloads > p->r[i].reloads)
                p->r[i].reloads = r->reloads;
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

static void align_object(struct plan *p, const struct sh_object *o, uint64_t reloads, const char *why)
{
    struct rec r;
    memset(&r, 0, sizeof r);
    r.reloads = reloads;
    snprintf(r.why, sizeof r.why, "%s", why);
    if (o->kind == SH_OBJ_GLOBAL) {
        snprintf(r.kind, sizeof r.kind, "align-global");
        snprintf(r.key, sizeof r.key, "%s", o->name);
    } else if (o->kind == SH_OBJ_HEAP && o->line) {
        snprintf(r.kind, sizeof r.kind, "align-alloc");
        snprintf(r.key, sizeof r.key, "%s", o->func);
        snprintf(r.file, sizeof r.file, "%s", o->file);
        r.line = o->line;
    } else
        return;
    add(p, &r);
}

/* Per field of struct S seen in o's sites: which threads wrote, touched it. */
struct fld {
    char name[64];
    uint64_t off;
    uint64_t writers, touchers; /* thread bits */
    uint64_t true_readers;      /* threads that reloaded it as true sharing */
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

static size_t fields_of(const struct sh_analysis *a, const struct sh_object *o, struct fld *f, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < a->s.nsites; i++) {
        const struct pi_share_site_v *s = &a->s.sites[i];
        char st[64], fname[64];
        uint64_t fo, ss;
        if (!sh_parse_what(s->what, st, sizeof st, fname, sizeof fname, &fo, &ss) || strcmp(st, o->stype))
            continue;
        uint64_t b = s->rec.line + (uint64_t)__builtin_ctzll(s->rec.mask ? s->rec.mask : 1);
        if (b < o->addr || b >= o->addr + o->size)
            continue;
        size_t k;
        for (k = 0; k < n && strcmp(f[k].name, fname); k++)
            ;
        if (k == n) {
            if (n == max)
                continue;
            memset(&f[n], 0, sizeof f[n]);
            snprintf(f[n].name, sizeof f[n].name, "%s", fname);
            f[n].off = fo;
            n++;
        }
        uint64_t bit = 1ull << (s->rec.thread & 63);
        f[k].touchers |= bit;
        if (s->rec.flags & PI_ACCESS_WRITE)
            f[k].writers |= bit;
        if (s->rec.reloads_true)
            f[k].true_readers |= bit;
    }
    return n;
}

/* Bytes of o each thread wrote, touched (over all its lines): is the
 * sharing inside the object (two threads write it)?  Does it share lines
 * with other objects that other threads write? */
static void inspect(const struct sh_analysis *a, const struct sh_object *o, int *intra, int *cross)
{
    uint64_t writers = 0, touchers = 0;
    *intra = *cross = 0;
    for (size_t li = 0; li < a->s.nlines; li++) {
        const struct pi_share_line_v *l = &a->s.lines[li];
        if (l->rec.addr + PI_SHARE_LINE <= o->addr || l->rec.addr >= o->addr + o->size)
            continue;
        uint64_t mine = 0; /* bytes of the line inside o */
        for (int b = 0; b < (int)PI_SHARE_LINE; b++)
            if (l->rec.addr + (uint64_t)b >= o->addr && l->rec.addr + (uint64_t)b < o->addr + o->size)
                mine |= 1ull << b;
        for (uint32_t k = 0; k < l->rec.nthreads; k++) {
            const struct pi_share_thr *t = &l->thr[k];
            uint64_t bit = 1ull << (t->thread & 63);
            if (t->wmask & mine)
                writers |= bit;
            if ((t->wmask | t->rmask) & mine)
                touchers |= bit;
        }
        if (!l->rec.reloads_false)
            continue;
        /* a thread that uses o reloads falsely while another writes other bytes of the line */
        for (uint32_t k = 0; k < l->rec.nthreads; k++)
            for (uint32_t j = 0; j < l->rec.nthreads; j++)
                if (k != j && (l->thr[k].wmask & ~mine) && ((l->thr[j].wmask | l->thr[j].rmask) & mine) &&
                    l->thr[j].reloads_false)
                    *cross = 1;
    }
    *intra = __builtin_popcountll(writers) >= 1 && __builtin_popcountll(touchers) >= 2 &&
             (__builtin_popcountll(writers) >= 2 || o->pred[o->actual_off / 8] || o->rf);
}

static uint64_t best_pred(const struct sh_object *o)
{
    uint64_t m = 0;
    for (unsigned k = 0; k < PI_SHARE_LINE / 8; k++)
        m = o->pred[k] > m ? o->pred[k] : m;
    return m;
}

static void plan_object(const struct sh_analysis *a, struct plan *p, const struct sh_object *o)
{
    uint64_t hidden = best_pred(o);
    if (!o->rf && hidden < SH_PREDICT_MIN)
        return;
    int intra, cross;
    inspect(a, o, &intra, &cross);
    uint64_t reloads = o->rf ? o->rf : hidden;
    char why[512];
    if (o->kind == SH_OBJ_OTHER) { /* no allocation site to change */
        struct rec r;
        memset(&r, 0, sizeof r);
        r.reloads = reloads;
        r.advice_only = 1;
        snprintf(r.kind, sizeof r.kind, "advice");
        snprintf(r.key, sizeof r.key, "%.150s", o->name);
        snprintf(r.why, sizeof r.why, "falsely shared, but allocated where perfinst did not see it: build the code "
                 "that allocates it with the plugin (-fplugin-arg-perfinst-sharing=all) so that the plan can name "
                 "its allocation site, or allocate it with aligned_alloc(64, size rounded up to 64)");
        add(p, &r);
        return;
    }
    if (cross) {
        snprintf(why, sizeof why, "%s shares cache lines with data other threads write (%llu false-sharing "
                 "reloads)", o->name, (unsigned long long)o->rf);
        align_object(p, o, reloads, why);
    }
    if (!intra)
        return;
    const char *seen = o->rf ? "seen in this run" : "predicted at other placements";
    if (o->pred[0] < SH_PREDICT_MIN) {
        snprintf(why, sizeof why, "threads write different parts of %s; safe when it starts a cache line (%s)",
                 o->name, seen);
        align_object(p, o, reloads, why);
        return;
    }
    struct rec r;
    memset(&r, 0, sizeof r);
    r.reloads = reloads;
    if (o->stype[0] && o->ssize && o->ssize < o->size) {
        snprintf(r.kind, sizeof r.kind, "pad-field");
        snprintf(r.key, sizeof r.key, "%s", o->stype);
        snprintf(r.field, sizeof r.field, "*");
        field_decl(a, o->stype, NULL, r.file, sizeof r.file, &r.line);
        snprintf(r.why, sizeof r.why, "per-thread elements of %s (struct %s, %llu bytes) share lines (%s): "
                 "the type is aligned and padded to whole lines — this changes struct %s for the whole "
                 "program, rebuild every unit that uses it", o->name, o->stype, (unsigned long long)o->ssize,
                 seen, o->stype);
        add(p, &r);
        snprintf(why, sizeof why, "the array of padded struct %s must start a line", o->stype);
        align_object(p, o, reloads, why);
        return;
    }
    if (o->stype[0]) {
        struct fld f[64];
        size_t nf = fields_of(a, o, f, 64);
        int padded = 0;
        for (size_t i = 0; i < nf; i++) {
            if (__builtin_popcountll(f[i].writers) != 1 || (f[i].true_readers & ~f[i].writers))
                continue; /* truly shared (written by several, or read what one wrote), or read-only */
            memset(&r, 0, sizeof r);
            r.reloads = reloads;
            snprintf(r.kind, sizeof r.kind, "pad-field");
            snprintf(r.key, sizeof r.key, "%s", o->stype);
            snprintf(r.field, sizeof r.field, "%.63s", f[i].name);
            field_decl(a, o->stype, f[i].name, r.file, sizeof r.file, &r.line);
            snprintf(r.why, sizeof r.why, "field %.63s.%.63s is written by one thread beside data other threads use "
                     "(%s): it starts a line of its own — this changes struct %s for the whole program, rebuild "
                     "every unit that uses it", o->stype, f[i].name, seen, o->stype);
            add(p, &r);
            padded++;
        }
        if (padded)
            return;
    }
    /* an array of scalars: its elements padded apart when the plugin found
     * it only indexed (the facts of .perfinst_share_arrays) */
    const struct pi_share_array *fact = NULL;
    int nfacts = 0;
    for (size_t i = 0; o->kind == SH_OBJ_GLOBAL && i < a->narrays; i++)
        if (!strcmp(a->arrays[i].name, o->name) && a->arrays[i].elem_size * a->arrays[i].count == o->size) {
            fact = &a->arrays[i];
            nfacts++;
        }
    memset(&r, 0, sizeof r);
    r.reloads = reloads;
    uint64_t stride = fact ? (fact->elem_size + PI_SHARE_LINE - 1) / PI_SHARE_LINE * PI_SHARE_LINE : 0;
    int too_big = fact && stride * fact->count > SH_PAD_ARRAY_MAX; /* a buffer, not per-thread slots */
    if (nfacts == 1 && fact->ok && !too_big) {
        snprintf(r.kind, sizeof r.kind, "pad-array");
        snprintf(r.key, sizeof r.key, "%s", o->name);
        snprintf(r.file, sizeof r.file, "%s", fact->file);
        r.line = fact->line;
        snprintf(r.why, sizeof r.why, "threads write different elements of %.160s (%s), an array of scalars that is "
                 "only indexed in %.200s: each element gets cache lines of its own (stride %llu -> %llu bytes, the "
                 "array %llu -> %llu bytes)", o->name, seen, fact->file, (unsigned long long)fact->elem_size,
                 (unsigned long long)stride, (unsigned long long)o->size,
                 (unsigned long long)(stride * fact->count));
        if (!strcmp(fact->reason, "public")) {
            size_t len = strlen(r.why);
            snprintf(r.why + len, sizeof r.why - len, "; it is visible to other units: the padded array is renamed "
                     "%.160s.perfinst_padded, so that a unit using it without this rebuild fails to link",
                     o->name);
        }
        add(p, &r);
        return;
    }
    char because[700];
    if (nfacts == 1 && fact->ok)
        snprintf(because, sizeof because, "not padded automatically: its %llu elements padded to lines would take "
                 "%llu bytes (more than %u)", (unsigned long long)fact->count,
                 (unsigned long long)(stride * fact->count), SH_PAD_ARRAY_MAX);
    else if (nfacts == 1)
        snprintf(because, sizeof because, "not padded automatically: %s", fact->reason);
    else if (nfacts > 1)
        snprintf(because, sizeof because, "not padded automatically: several arrays are named %s", o->name);
    else
        snprintf(because, sizeof because, "no transparent repair known (%s was not built with sharing detection, "
                 "or this is not an array the plugin can pad)", a->prog);
    r.advice_only = 1;
    snprintf(r.kind, sizeof r.kind, "advice");
    snprintf(r.key, sizeof r.key, "%s", o->name);
    snprintf(r.why, sizeof r.why, "threads write different elements of %.160s (%s), an array of scalars: %.600s; "
             "give each thread's element a line of its own, e.g. an array of `struct { alignas(64) T v; }`",
             o->name, seen, because);
    add(p, &r);
}

static int cmp_rec(const void *x, const void *y)
{
    const struct rec *a = x, *b = y;
    if (a->advice_only != b->advice_only)
        return a->advice_only - b->advice_only;
    if (a->reloads != b->reloads)
        return a->reloads > b->reloads ? -1 : 1;
    int c = strcmp(a->kind, b->kind);
    return c ? c : strcmp(a->key, b->key) ? strcmp(a->key, b->key) : strcmp(a->field, b->field);
}

static void help(FILE *f)
{
    fprintf(f,
            "usage: pmopt plan --sharing (-o FEEDBACK | --advise) [--force] PROG TRACE...\n"
            "Fixes for the false sharing `pmopt report --sharing PROG TRACE` finds (in this run or at\n"
            "other placements): a feedback file for the rebuild\n"
            "  gcc -fplugin=perfinst.so -fplugin-arg-perfinst-feedback=FEEDBACK ...\n"
            "(kinds align-global, align-alloc, pad-field, pad-array; -fplugin-arg-perfinst-feedback-only=1,3\n"
            "applies some), or the same fixes as source advice.  True sharing is never padded.\n"
            "  -o, --output=FEEDBACK  the feedback file (written whole; a FIFO or device in place)\n"
            "  --advise               print source advice instead\n"
            "  --force                read a trace of a different build of PROG\n");
}

static const char *at_line(uint32_t line)
{
    static char buf[24];
    snprintf(buf, sizeof buf, "%u: ", line);
    return buf;
}

static void advise_line(const struct sh_analysis *a, const struct rec *r, int num)
{
    if (!strcmp(r->kind, "align-global"))
        printf("%d. at the definition of `%s`: `_Alignas(64)` it and pad it to a multiple of 64 bytes (or "
               "`__attribute__((aligned(64)))`) — %s\n", num, r->key, r->why);
    else if (!strcmp(r->kind, "align-alloc"))
        printf("%d. %s:%u (in %s): allocate with `aligned_alloc(64, size rounded up to 64)` — %s\n", num,
               pm_basename(r->file), r->line, r->key, r->why);
    else if (!strcmp(r->kind, "pad-field") && !strcmp(r->field, "*"))
        printf("%d. %s%s%sstruct %s: `alignas(64)` its first member (the struct becomes a multiple of 64 bytes) "
               "— %s\n", num, r->line ? pm_basename(r->file) : "", r->line ? ":" : "", r->line ? at_line(r->line) : "",
               r->key, r->why);
    else if (!strcmp(r->kind, "pad-array"))
        printf("%d. %s:%u: `%s`: give each element a line of its own, e.g. an array of `struct { alignas(64) T v; }` "
               "(and index .v) — %s\n", num, pm_basename(r->file), r->line, r->key, r->why);
    else if (!strcmp(r->kind, "pad-field"))
        printf("%d. %s%s%sstruct %s: `alignas(64)` on member `%s` — %s\n", num, r->line ? pm_basename(r->file) : "",
               r->line ? ":" : "", r->line ? at_line(r->line) : "", r->key, r->field, r->why);
    else
        printf("%d. %s: %s\n", num, r->key, r->why);
    (void)a;
}

int cmd_plan_sharing(int argc, char **argv)
{
    static const struct option opts[] = {
        {"sharing", no_argument, NULL, 's'}, {"output", required_argument, NULL, 'o'},
        {"advise", no_argument, NULL, 'a'},  {"force", no_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},    {NULL, 0, NULL, 0},
    };
    const char *out = NULL;
    int advise = 0, force = 0, c;
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
        case 'h': help(stdout); return PM_OK;
        default: return pm_usage_error("plan", "unknown option");
        }
    }
    if (advise && out)
        return pm_usage_error("plan", "--advise prints the plan: not with -o");
    if (!advise && !out)
        return pm_usage_error("plan", "expected -o FEEDBACK (or --advise)");
    if (argc - optind < 2)
        return pm_usage_error("plan", "--sharing needs PROG and at least one TRACE");
    struct sh_analysis a;
    memset(&a, 0, sizeof a);
    if (sh_analyze_traces(&a, argv[optind], argv + optind + 1, argc - optind - 1, force)) {
        sh_free(&a);
        return PM_ERROR;
    }
    struct plan p = {0};
    for (size_t i = 0; i < a.nobjs; i++)
        plan_object(&a, &p, &a.objs[i]);
    qsort(p.r, p.n, sizeof *p.r, cmp_rec);
    int status = PM_OK;
    if (advise) {
        if (!p.n)
            printf("no false sharing found in %s: nothing to fix\n", a.trace);
        int num = 1;
        for (size_t i = 0; i < p.n; i++)
            advise_line(&a, &p.r[i], num++);
    } else {
        struct pifb_writer w;
        struct pi_err err;
        if (pifb_create(&w, out, a.prog, a.bid, 0, &err) < 0) {
            pm_error("%s", err.msg);
            status = PM_ERROR;
            goto done;
        }
        pifb_comment(&w, "perfinst sharing plan: false sharing repaired on rebuild (docs/sharing.md)");
        for (size_t i = 0; i < p.n; i++) {
            const struct rec *r = &p.r[i];
            if (r->advice_only) {
                char text[1400];
                snprintf(text, sizeof text, "advice (not applied automatically): %s: %s", r->key, r->why);
                pifb_comment(&w, text);
                continue;
            }
            pifb_rec_begin(&w, r->kind);
            if (!strcmp(r->kind, "align-global"))
                pifb_arg(&w, "name", r->key);
            else if (!strcmp(r->kind, "align-alloc")) {
                pifb_arg(&w, "func", r->key);
                pifb_arg(&w, "file", pm_basename(r->file));
                pifb_arg_u64(&w, "line", r->line);
            } else if (!strcmp(r->kind, "pad-array")) {
                pifb_arg(&w, "name", r->key);
                pifb_arg(&w, "file", pm_basename(r->file));
            } else {
                pifb_arg(&w, "type", r->key);
                pifb_arg(&w, "field", r->field);
                pifb_arg(&w, "scope", "whole-program");
            }
            pifb_arg_u64(&w, "reloads", r->reloads);
            pifb_arg(&w, "why", r->why);
            pifb_rec_end(&w);
        }
        if (pifb_commit(&w, &err) < 0) {
            pm_error("%s", err.msg);
            status = PM_ERROR;
        }
    }
done:
    free(p.r);
    sh_free(&a);
    return status;
}
