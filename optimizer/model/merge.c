/* merge.c — traces of one program combined in memory, once: pmopt merge
 * writes the result (cmd-merge.c); report --sharing and plan --sharing of
 * several traces analyse it.
 *
 * Streaming: two passes over the inputs, one input in memory at a time, so
 * that a thousand traces of a fleet merge in the memory of one (plus what
 * the result holds).  The first pass walks each input's records for its
 * header and MODULE records only: the same run given twice and different
 * builds are refused before anything is added, and the merged module list
 * is known before the first count is.  The second pass reads each input
 * whole, adds it to the result and frees it.
 *
 * --weight=N multiplies the counts of the inputs that follow it (until the
 * next --weight; 1 before the first): block counts, the SITESTAT counts,
 * executions and cycle sums, TRACEREG counts, WATCH reads and writes and
 * ICALL counts, STOPPED counts (saturating).  Threshold EVENTs (each a stack) and the
 * sharing records are not scaled.  For fleets where each machine counted
 * a different share of its runs.
 *
 * Modules are identified by build-id (by path when a module has none).  Two
 * inputs whose modules have the same file name but different build-ids ran
 * different builds: refused, unless --force, which keeps the builds apart
 * as separate modules (their counts are never added together).  A library
 * that only some runs loaded is simply carried over.
 *
 * The output does not depend on the order of the inputs: modules sorted by
 * build-id (then path; the smallest path seen for a build-id is kept), units
 * by id, counts summed (saturating at 2^64-1), pid, ppid, start and end
 * times and load biases 0, no argv, no SIGNAL record; the header says
 * PI_TF_MERGED, PI_TF_MODE_OFF only if every input ran with
 * PERFINST_MODE=off, PI_TF_PARTIAL if some input was partial, and the
 * inputs' line size if they agree (else 0).
 *
 * One run given twice would count twice: two process traces with the same
 * pid, start time and module build-ids (copies, or two snapshots of one
 * run that PERFINST_FLUSH wrote), or two merged traces with the same bytes,
 * are refused unless --force.
 *
 * The indicators' records are combined by pitrace (pi_trace_add_indicators):
 * SITESTATs per (unit, site, kind) — counts, executions and cycle sums
 * added, min of the mins, max of the maxes; TRACEREGs per (start site, unit)
 * added elementwise (a different number of counters is refused); every
 * EVENT kept, sorted by its contents.  Since load biases become 0, event
 * frames become link-time addresses of the module of the event's unit
 * (frames in other modules become 0).  WATCH words become module-relative
 * (pi_trace_add_watch: a word in a module is its link-time address tagged
 * with the merged module's position; heap and stack words keep their
 * run-time addresses) and words of one address are added; inputs whose
 * words have different sizes are refused.
 *
 * Stack samples, report groups (RI) and HOTSPOT records are one run's (its
 * addresses and threads), as PAGES and PERF are: left out, with a note
 * (pi_trace.alone) for the first three.
 *
 * The sharing records (PI_REC_SHARE_*) are made module-relative the same
 * way and combined by pishare (pi_share_add): lines by address, sites by
 * (pc, line, thread, what), threads by small id, counts summed, masks
 * or'ed; heap lines keep their run-time addresses, so the heap lines of
 * two runs add up only where the runs had the same addresses.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"
#include "pmopt.h"

/* A module as the merge sees it: its identity and where it came from. */
struct mod {
    uint32_t build_id_len;
    uint8_t build_id[PI_BUILD_ID_MAX];
    uint32_t index;          /* pi_rec_module.index in its trace */
    char *path;
    size_t trace;
};

/* What the first pass keeps of an input. */
struct input {
    const char *path;
    struct pi_trace_hdr hdr;
    size_t first_mod, nmods; /* its modules in mods[], by index */
};

static int cmp_mod(const void *a, const void *b)
{
    const struct mod *x = a, *y = b;
    PI_CMP_RET(x->build_id_len, y->build_id_len);
    int c = memcmp(x->build_id, y->build_id, x->build_id_len);
    if (c)
        return c;
    return strcmp(x->path, y->path); /* without a build-id the path is the identity */
}

static int cmp_mod_index(const void *a, const void *b)
{
    const struct mod *x = a, *y = b;
    return x->index < y->index ? -1 : x->index > y->index;
}

static int same_identity(const struct mod *x, const struct mod *y)
{
    if (x->build_id_len != y->build_id_len || memcmp(x->build_id, y->build_id, x->build_id_len))
        return 0;
    return x->build_id_len || !strcmp(x->path, y->path);
}

/* The position of input module m in the merged modules (res->nmodules if
 * none: cannot happen, every input module is there). */
static size_t merged_module(const struct pi_trace *res, const struct pi_trace_module *m)
{
    struct mod key = { .build_id_len = m->build_id_len, .path = m->path };
    memcpy(key.build_id, m->build_id, m->build_id_len);
    size_t pos = 0;
    while (pos < res->nmodules) { /* few modules: a linear search is enough */
        struct mod have = { .build_id_len = res->modules[pos].build_id_len,
                            .path = res->modules[pos].path };
        memcpy(have.build_id, res->modules[pos].build_id, have.build_id_len);
        if (same_identity(&have, &key))
            break;
        pos++;
    }
    return pos;
}

/* Ranges added at run time: by (module, lo, hi, name), so the output does
 * not depend on the order of the inputs; one of each. */
static int cmp_range(const void *a, const void *b)
{
    const struct pi_trace_range *x = a, *y = b;
    PI_CMP_RET(x->module, y->module);
    PI_CMP_RET(x->lo, y->lo);
    PI_CMP_RET(x->hi, y->hi);
    return strcmp(x->name, y->name);
}

static int add_ranges(struct pi_trace *res, const struct pi_trace *in)
{
    for (size_t j = 0; j < in->nranges; j++) {
        const struct pi_trace_range *g = &in->ranges[j];
        struct pi_trace_range *a = realloc(res->ranges, (res->nranges + 1) * sizeof *a);
        if (!a)
            return -1;
        res->ranges = a;
        a[res->nranges] = *g;
        a[res->nranges].module = (uint32_t)merged_module(res, &in->modules[g->module]);
        if (!(a[res->nranges].name = strdup(g->name)))
            return -1;
        res->nranges++;
    }
    if (!in->nranges)
        return 0;
    qsort(res->ranges, res->nranges, sizeof *res->ranges, cmp_range);
    size_t n = 0;
    for (size_t i = 0; i < res->nranges; i++) {
        if (n && !cmp_range(&res->ranges[n - 1], &res->ranges[i])) {
            free(res->ranges[i].name);
            continue;
        }
        res->ranges[n++] = res->ranges[i];
    }
    res->nranges = n;
    return 0;
}

/* Where threads stopped, by (module, pc), counts summed. */
static int add_stopped(struct pi_trace *res, const struct pi_trace *in)
{
    for (size_t j = 0; j < in->nstopped; j++) {
        struct pi_rec_stopped *a = realloc(res->stopped, (res->nstopped + 1) * sizeof *a);
        if (!a)
            return -1;
        res->stopped = a;
        a[res->nstopped] = in->stopped[j];
        a[res->nstopped].module = (uint32_t)merged_module(res, &in->modules[in->stopped[j].module]);
        res->nstopped++;
    }
    pi_trace_fold_stopped(res);
    return 0;
}

static uint64_t sat_mul(uint64_t a, uint64_t w)
{
    return w && a > UINT64_MAX / w ? UINT64_MAX : a * w;
}

/* --weight: t's counts times w (docs at the top). */
static void scale(struct pi_trace *t, uint64_t w)
{
    if (w == 1)
        return;
    for (size_t i = 0; i < t->nunits; i++)
        for (uint32_t k = 0; k < t->units[i].ncounters; k++)
            t->units[i].counts[k] = sat_mul(t->units[i].counts[k], w);
    for (size_t i = 0; i < t->nsitestats; i++) {
        struct pi_rec_sitestat *s = &t->sitestats[i];
        s->count = sat_mul(s->count, w);
        s->execs = sat_mul(s->execs, w);
        s->sum = sat_mul(s->sum, w);
    }
    for (size_t i = 0; i < t->ntraceregs; i++)
        for (uint32_t k = 0; k < t->traceregs[i].ncounters; k++)
            t->traceregs[i].counts[k] = sat_mul(t->traceregs[i].counts[k], w);
    for (size_t i = 0; i < t->nwords; i++) {
        t->words[i].reads = sat_mul(t->words[i].reads, w);
        t->words[i].writes = sat_mul(t->words[i].writes, w);
    }
    for (size_t i = 0; i < t->nicalls; i++)
        t->icalls[i].count = sat_mul(t->icalls[i].count, w);
    for (size_t i = 0; i < t->nstopped; i++) {
        uint64_t c = sat_mul(t->stopped[i].count, w);
        t->stopped[i].count = c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
    }
}

/* Whether two files have the same bytes (merged traces carry no pid or
 * start time to tell them apart). */
static int same_bytes(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa && fb;
    char x[65536], y[65536];
    while (same) {
        size_t n = fread(x, 1, sizeof x, fa), m = fread(y, 1, sizeof y, fb);
        same = n == m && !memcmp(x, y, n);
        if (n < sizeof x)
            break;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

/* Whether inputs x and y are the same run: the pid, start time and module
 * build-ids of a process's trace, the bytes of a merged one. */
static int same_run(const struct input *x, const struct input *y, const struct mod *mods)
{
    if ((x->hdr.flags & PI_TF_MERGED) || (y->hdr.flags & PI_TF_MERGED))
        return (x->hdr.flags & PI_TF_MERGED) && (y->hdr.flags & PI_TF_MERGED) &&
               same_bytes(x->path, y->path);
    if (x->hdr.pid != y->hdr.pid || x->hdr.start_ns != y->hdr.start_ns || x->nmods != y->nmods)
        return 0;
    for (size_t i = 0; i < x->nmods; i++) {
        const struct mod *a = &mods[x->first_mod + i], *b = &mods[y->first_mod + i];
        if (a->build_id_len != b->build_id_len || memcmp(a->build_id, b->build_id, a->build_id_len))
            return 0;
    }
    return 1;
}

/* Pass 1: the header and MODULE records of input i, appended to *mods. */
static int scan_input(struct input *in, size_t i, struct mod **mods, size_t *nmods, size_t *cap,
                      struct pi_err *err)
{
    struct pi_trace_file f;
    struct pi_trace_rec r;
    int rc;
    if (pi_trace_open(in->path, &f, err))
        return -1;
    in->hdr = f.hdr;
    in->first_mod = *nmods;
    while ((rc = pi_trace_next(&f, &r, err)) == 1) {
        if (r.hdr.type != PI_REC_MODULE)
            continue;
        if (*nmods == *cap) {
            size_t n = *cap ? 2 * *cap : 64;
            struct mod *m = realloc(*mods, n * sizeof *m);
            if (!m) {
                rc = pi_err_set(err, "out of memory");
                break;
            }
            *mods = m;
            *cap = n;
        }
        struct mod *m = &(*mods)[*nmods];
        memset(m, 0, sizeof *m);
        m->build_id_len = r.u.module.build_id_len;
        memcpy(m->build_id, r.u.module.build_id, m->build_id_len);
        m->index = r.u.module.index;
        m->trace = i;
        if (!(m->path = strdup(r.strings))) {
            rc = pi_err_set(err, "out of memory");
            break;
        }
        (*nmods)++;
    }
    pi_trace_close(&f);
    in->nmods = *nmods - in->first_mod;
    if (in->nmods)
        qsort(*mods + in->first_mod, in->nmods, sizeof **mods, cmp_mod_index);
    return rc < 0 ? -1 : 0;
}

/* Refuse what the first pass found: one run given twice, modules of one
 * name with different build-ids (notes with --force).  0 or -1. */
static int check_inputs(const struct input *in, int ntraces, const struct mod *mods, size_t nmods,
                        int force)
{
    for (int i = 0; i < ntraces; i++)
        for (int j = 0; j < i; j++) {
            if (!same_run(&in[j], &in[i], mods))
                continue;
            char when[64] = "";
            if (!(in[i].hdr.flags & PI_TF_MERGED))
                snprintf(when, sizeof when, " (pid %llu, started at %llu ns)",
                         (unsigned long long)in[i].hdr.pid, (unsigned long long)in[i].hdr.start_ns);
            if (!force) {
                pm_error("%s is the same run as %s%s: its counts would be added twice "
                         "(--force merges it anyway)", in[i].path, in[j].path, when);
                return -1;
            }
            pm_note("%s is the same run as %s%s: counted twice (--force)", in[i].path, in[j].path,
                    when);
            break;
        }
    /* the identities, each where it was first seen, in the inputs' order */
    size_t *first = calloc(nmods ? nmods : 1, sizeof *first), nfirst = 0;
    if (!first) {
        pm_error("out of memory");
        return -1;
    }
    for (size_t a = 0; a < nmods; a++) {
        size_t b = 0;
        while (b < nfirst && !same_identity(&mods[first[b]], &mods[a]))
            b++;
        if (b == nfirst)
            first[nfirst++] = a;
    }
    int status = 0;
    for (size_t a = 0; a < nfirst && !status; a++)
        for (size_t b = a + 1; b < nfirst && !status; b++) {
            const struct mod *x = &mods[first[a]], *y = &mods[first[b]];
            if (x->trace == y->trace || !x->build_id_len || !y->build_id_len ||
                strcmp(pm_basename(x->path), pm_basename(y->path)))
                continue;
            char hx[2 * PI_BUILD_ID_MAX + 1], hy[2 * PI_BUILD_ID_MAX + 1];
            pi_build_id_hex(x->build_id, x->build_id_len, hx);
            pi_build_id_hex(y->build_id, y->build_id_len, hy);
            if (!force) {
                pm_error("%s and %s are traces of different builds: %s has build-id %s in the "
                         "first and %s in the second (--force keeps them apart in one trace)",
                         in[x->trace].path, in[y->trace].path, pm_basename(x->path), hx, hy);
                status = -1;
                break;
            }
            pm_note("%s and %s: %s has build-ids %s and %s; kept as separate modules (--force)",
                    in[x->trace].path, in[y->trace].path, pm_basename(x->path), hx, hy);
        }
    free(first);
    return status;
}

/* The merged modules: every identity once, sorted (cmp_mod), the smallest
 * path seen for a build-id.  Sorts mods. */
static int merged_modules(struct pi_trace *res, struct mod *mods, size_t nmods)
{
    if (nmods)
        qsort(mods, nmods, sizeof *mods, cmp_mod);
    res->modules = calloc(nmods ? nmods : 1, sizeof *res->modules);
    if (!res->modules)
        return -1;
    for (size_t a = 0; a < nmods; a++) {
        if (res->nmodules && same_identity(&mods[a], &mods[a - 1]))
            continue;
        struct pi_trace_module *m = &res->modules[res->nmodules++];
        m->index = (uint32_t)(res->nmodules - 1);
        m->build_id_len = mods[a].build_id_len;
        memcpy(m->build_id, mods[a].build_id, m->build_id_len);
        if (!(m->path = strdup(mods[a].path)))
            return -1;
    }
    return 0;
}

/* The merged units, sorted by (module, unit_id), and for each the input
 * that brought it first (for the message when another disagrees). */
struct units {
    size_t *from;
    size_t cap;
};

/* Add input t's counts (t is input number `trace` of paths) to res. */
static int add_units(struct pi_trace *res, struct units *us, const struct pi_trace *t,
                     size_t trace, char **paths)
{
    for (size_t j = 0; j < t->nunits; j++) {
        const struct pi_trace_unit *u = &t->units[j];
        uint32_t mod = (uint32_t)merged_module(res, &t->modules[u->module]);
        size_t lo = 0, hi = res->nunits;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            const struct pi_trace_unit *d = &res->units[mid];
            if (d->module < mod || (d->module == mod && d->unit_id < u->unit_id))
                lo = mid + 1;
            else
                hi = mid;
        }
        struct pi_trace_unit *d = &res->units[lo];
        if (lo < res->nunits && d->module == mod && d->unit_id == u->unit_id) {
            if (d->ncounters != u->ncounters) {
                pm_error("%s and %s: unit 0x%016llx of %s has %u counters in one and %u in the "
                         "other", paths[us->from[lo]], paths[trace],
                         (unsigned long long)u->unit_id, res->modules[mod].path, d->ncounters,
                         u->ncounters);
                return -1;
            }
            for (uint32_t i = 0; i < d->ncounters; i++)
                d->counts[i] = pm_sat_add(d->counts[i], u->counts[i]);
            continue;
        }
        if (res->nunits == us->cap) {
            size_t cap = us->cap ? 2 * us->cap : 64;
            struct pi_trace_unit *nu = realloc(res->units, cap * sizeof *nu);
            if (nu)
                res->units = nu;
            size_t *nf = nu ? realloc(us->from, cap * sizeof *nf) : NULL;
            if (!nf) {
                pm_error("out of memory");
                return -1;
            }
            us->from = nf;
            us->cap = cap;
        }
        memmove(&res->units[lo + 1], &res->units[lo], (res->nunits - lo) * sizeof *res->units);
        memmove(&us->from[lo + 1], &us->from[lo], (res->nunits - lo) * sizeof *us->from);
        res->nunits++;
        d = &res->units[lo];
        *d = (struct pi_trace_unit){ .module = mod, .unit_id = u->unit_id,
                                     .ncounters = u->ncounters };
        us->from[lo] = trace;
        if (!(d->counts = malloc((u->ncounters ? u->ncounters : 1) * sizeof *d->counts))) {
            pm_error("out of memory");
            return -1;
        }
        memcpy(d->counts, u->counts, u->ncounters * sizeof *d->counts);
    }
    return 0;
}

int pm_merge_traces(char **paths, const uint64_t *weights, int ntraces, int force, struct pi_trace *res,
                    struct pi_share *share)
{
    int status = PM_ERROR;
    struct pi_err err;
    struct input *in = calloc((size_t)ntraces, sizeof *in);
    struct mod *mods = NULL;
    size_t nmods = 0, capmods = 0;
    struct units us = { NULL, 0 };
    struct pi_trace t;
    memset(res, 0, sizeof *res);
    memset(&t, 0, sizeof t);
    memset(share, 0, sizeof *share);
    if (!in) {
        pm_error("out of memory");
        return PM_ERROR;
    }

    /* pass 1: headers and modules */
    for (int i = 0; i < ntraces; i++) {
        pm_progress("reading the traces' modules", (size_t)i, (size_t)ntraces);
        in[i].path = paths[i];
        if (scan_input(&in[i], (size_t)i, &mods, &nmods, &capmods, &err)) {
            pm_error("%s", err.msg);
            goto out;
        }
    }
    pm_progress_clear();
    if (check_inputs(in, ntraces, mods, nmods, force))
        goto out;
    if (merged_modules(res, mods, nmods)) {
        pm_error("out of memory");
        goto out;
    }

    /* pass 2: each input read whole, added, freed */
    size_t dropped = 0, alone[3] = { 0, 0, 0 };
    int all_off = 1, any_overlay = 0, any_partial = 0, any_sharing = 0;
    uint32_t line_size = 0;
    uint64_t nthreads = 0;
    for (int i = 0; i < ntraces; i++) {
        pm_progress("reading traces", (size_t)i, (size_t)ntraces);
        if (pi_trace_read(paths[i], &t, &err)) {
            pm_error("%s", err.msg);
            goto out;
        }
        pm_trace_notes(&t);
        scale(&t, weights ? weights[i] : 1);
        if (add_units(res, &us, &t, (size_t)i, paths))
            goto out;
        if (pi_trace_add_indicators(res, &t, 1, &err) ||
            pi_trace_add_watch(res, &t, &dropped, &err)) {
            pm_error("%s", err.msg);
            goto out;
        }
        if (add_ranges(res, &t) || add_stopped(res, &t)) {
            pm_error("out of memory");
            goto out;
        }
        if (t.hdr.flags & PI_TF_SHARING) { /* module-relative, combined (pishare.c) */
            struct pi_share s;
            any_sharing = 1;
            if (pi_share_read(t.path, &s, &err) ||
                pi_share_add(share, &s, &t, res->modules, res->nmodules, &err)) {
                pi_share_free(&s);
                pm_error("%s", err.msg);
                goto out;
            }
            pi_share_free(&s);
        }
        /* header and process: nothing that depends on one run or on the order */
        all_off &= !!(t.hdr.flags & PI_TF_MODE_OFF);
        any_overlay |= !!(t.hdr.flags & PI_TF_OVERLAY);
        any_partial |= !!(t.hdr.flags & PI_TF_PARTIAL);
        if (!i)
            line_size = t.hdr.line_size;
        else if (t.hdr.line_size != line_size)
            line_size = 0;
        nthreads += t.nthreads;
        for (int k = 0; k < 3; k++)
            alone[k] += !!(t.alone & (1u << k));
        pi_trace_free(&t);
        memset(&t, 0, sizeof t);
    }
    pm_progress_clear();
    if (dropped) /* only past the 255th module: the tag has 8 bits */
        pm_note("%zu watched word%s of modules past the 255th left out", dropped,
                dropped == 1 ? "" : "s");
    /* one run's records, which only make sense with that run's addresses
       and threads: left out, and said */
    static const char *const what[3] = { "stack samples (PERFINST_SAMPLE, PERFINST_IDLE)",
                                         "report groups (RI records)", "hot-spot records (report --record)" };
    static const char *const instead[3] = { ": give pmopt report --tree the traces themselves",
                                            ": give pmopt report the traces themselves", "" };
    for (int k = 0; k < 3; k++)
        if (alone[k])
            pm_note("%zu of the %d traces have %s, which pmopt merge leaves out%s", alone[k], ntraces,
                    what[k], instead[k]);
    res->hdr.flags = PI_TF_MERGED | (all_off ? PI_TF_MODE_OFF : 0) | (any_overlay ? PI_TF_OVERLAY : 0) |
                     (any_sharing ? PI_TF_SHARING : 0) | (any_partial ? PI_TF_PARTIAL : 0);
    res->hdr.line_size = line_size;
    res->has_process = 1;
    res->nthreads = nthreads > UINT32_MAX ? UINT32_MAX : (uint32_t)nthreads;
    status = PM_OK;
out:
    pm_progress_clear();
    pi_trace_free(&t);
    free(in);
    for (size_t i = 0; i < nmods; i++)
        free(mods[i].path);
    free(mods);
    free(us.from);
    return status;
}

void pm_merge_free(struct pi_trace *res, struct pi_share *share)
{
    pi_trace_free(res);
    pi_share_free(share);
}
