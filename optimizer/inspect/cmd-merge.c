/* pmopt merge -o OUT TRACE... — sum traces of the same program into one.
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
 * The sharing records (PI_REC_SHARE_*) are made module-relative the same
 * way and combined by pishare (pi_share_add): lines by address, sites by
 * (pc, line, thread, what), threads by small id, counts summed, masks
 * or'ed; heap lines keep their run-time addresses, so the heap lines of
 * two runs add up only where the runs had the same addresses.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "pmopt.h"
#include "sharing.h"

static void help(FILE *f)
{
    fprintf(f,
            "usage: pmopt merge [--force] -o OUT TRACE...\n"
            "Sum traces of the same program (same module build-ids) into OUT.\n"
            "  -o, --output=OUT  the merged trace (written whole; a FIFO or device in place)\n"
            "  --force           merge traces of different builds (kept as separate modules),\n"
            "                    and the same run given twice (counted twice)\n");
}

/* A module as the merge sees it: its identity and where it came from. */
struct mod {
    uint32_t build_id_len;
    uint8_t build_id[PI_BUILD_ID_MAX];
    const char *path;
    size_t trace;
};

static int cmp_mod(const void *a, const void *b)
{
    const struct mod *x = a, *y = b;
    if (x->build_id_len != y->build_id_len)
        return x->build_id_len < y->build_id_len ? -1 : 1;
    int c = memcmp(x->build_id, y->build_id, x->build_id_len);
    if (c)
        return c;
    if (!x->build_id_len) /* no build-id: the path is the identity */
        return strcmp(x->path, y->path);
    return strcmp(x->path, y->path);
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
    if (x->module != y->module)
        return x->module < y->module ? -1 : 1;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    if (x->hi != y->hi)
        return x->hi < y->hi ? -1 : 1;
    return strcmp(x->name, y->name);
}

static int merge_ranges(struct pi_trace *res, const struct pi_trace *in, int ntraces)
{
    for (int i = 0; i < ntraces; i++)
        for (size_t j = 0; j < in[i].nranges; j++) {
            const struct pi_trace_range *g = &in[i].ranges[j];
            struct pi_trace_range *a = realloc(res->ranges, (res->nranges + 1) * sizeof *a);
            if (!a)
                return -1;
            res->ranges = a;
            a[res->nranges] = *g;
            a[res->nranges].module = (uint32_t)merged_module(res, &in[i].modules[g->module]);
            if (!(a[res->nranges].name = strdup(g->name)))
                return -1;
            res->nranges++;
        }
    if (res->nranges)
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

struct ucount {
    uint32_t module;                 /* position in the merged modules */
    uint64_t unit_id;
    const struct pi_trace_unit *u;
    size_t trace;
};

static int cmp_ucount(const void *a, const void *b)
{
    const struct ucount *x = a, *y = b;
    if (x->module != y->module)
        return x->module < y->module ? -1 : 1;
    if (x->unit_id != y->unit_id)
        return x->unit_id < y->unit_id ? -1 : 1;
    return x->trace < y->trace ? -1 : x->trace > y->trace;
}

int cmd_merge(int argc, char **argv)
{
    static const struct option opts[] = {
        { "output", required_argument, NULL, 'o' },
        { "force", no_argument, NULL, 'f' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *out = NULL;
    int force = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'f': force = 1; break;
        case 'h': help(stdout); return PM_OK;
        default: return pm_usage_error("merge", "unknown option");
        }
    }
    if (!out)
        return pm_usage_error("merge", "-o OUT is required");
    int ntraces = argc - optind;
    if (ntraces < 1)
        return pm_usage_error("merge", "expected at least one TRACE");
    return pm_merge_files(out, argv + optind, ntraces, force, 0);
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

/* Whether traces x and y are the same run: the pid, start time and module
 * build-ids of a process's trace, the bytes of a merged one. */
static int same_run(const struct pi_trace *x, const struct pi_trace *y)
{
    if ((x->hdr.flags & PI_TF_MERGED) || (y->hdr.flags & PI_TF_MERGED))
        return (x->hdr.flags & PI_TF_MERGED) && (y->hdr.flags & PI_TF_MERGED) &&
               same_bytes(x->path, y->path);
    if (x->hdr.pid != y->hdr.pid || x->hdr.start_ns != y->hdr.start_ns ||
        x->nmodules != y->nmodules)
        return 0;
    for (size_t i = 0; i < x->nmodules; i++)
        if (x->modules[i].build_id_len != y->modules[i].build_id_len ||
            memcmp(x->modules[i].build_id, y->modules[i].build_id, x->modules[i].build_id_len))
            return 0;
    return 1;
}

int pm_merge_files(const char *out, char **paths, int ntraces, int force, int quiet)
{
    int status = PM_ERROR;
    struct pi_err err;
    struct pi_trace *in = calloc((size_t)ntraces, sizeof *in);
    struct mod *mods = NULL;
    struct ucount *uc = NULL;
    struct pi_trace res;
    struct pi_share share;
    struct pi_trace_extra *extra = NULL;
    memset(&res, 0, sizeof res);
    memset(&share, 0, sizeof share);
    if (!in) {
        pm_error("out of memory");
        return PM_ERROR;
    }
    size_t nmods = 0, nuc = 0;
    for (int i = 0; i < ntraces; i++) {
        pm_progress("reading traces", (size_t)i, (size_t)ntraces);
        if (pi_trace_read(paths[i], &in[i], &err)) {
            pm_error("%s", err.msg);
            goto out;
        }
        pm_trace_notes(&in[i]);
        nmods += in[i].nmodules;
        nuc += in[i].nunits;
    }
    pm_progress_clear();
    for (int i = 0; i < ntraces; i++)
        for (int j = 0; j < i; j++) {
            if (!same_run(&in[j], &in[i]))
                continue;
            char when[64] = "";
            if (!(in[i].hdr.flags & PI_TF_MERGED))
                snprintf(when, sizeof when, " (pid %llu, started at %llu ns)",
                         (unsigned long long)in[i].hdr.pid, (unsigned long long)in[i].hdr.start_ns);
            if (!force) {
                pm_error("%s is the same run as %s%s: its counts would be added twice "
                         "(--force merges it anyway)", in[i].path, in[j].path, when);
                goto out;
            }
            pm_note("%s is the same run as %s%s: counted twice (--force)", in[i].path, in[j].path,
                    when);
            break;
        }

    /* modules: identities, the conflict check, then the merged list */
    mods = calloc(nmods ? nmods : 1, sizeof *mods);
    uc = calloc(nuc ? nuc : 1, sizeof *uc);
    if (!mods || !uc) {
        pm_error("out of memory");
        goto out;
    }
    size_t k = 0;
    for (int i = 0; i < ntraces; i++)
        for (size_t j = 0; j < in[i].nmodules; j++) {
            const struct pi_trace_module *m = &in[i].modules[j];
            mods[k].build_id_len = m->build_id_len;
            memcpy(mods[k].build_id, m->build_id, m->build_id_len);
            mods[k].path = m->path;
            mods[k].trace = (size_t)i;
            k++;
        }
    for (size_t a = 0; a < nmods; a++)
        for (size_t b = a + 1; b < nmods; b++) {
            const struct mod *x = &mods[a], *y = &mods[b];
            if (x->trace == y->trace || !x->build_id_len || !y->build_id_len ||
                same_identity(x, y) || strcmp(pm_basename(x->path), pm_basename(y->path)))
                continue;
            char hx[2 * PI_BUILD_ID_MAX + 1], hy[2 * PI_BUILD_ID_MAX + 1];
            pi_build_id_hex(x->build_id, x->build_id_len, hx);
            pi_build_id_hex(y->build_id, y->build_id_len, hy);
            if (!force) {
                pm_error("%s and %s are traces of different builds: %s has build-id %s in the "
                         "first and %s in the second (--force keeps them apart in one trace)",
                         in[x->trace].path, in[y->trace].path, pm_basename(x->path), hx, hy);
                goto out;
            }
            pm_note("%s and %s: %s has build-ids %s and %s; kept as separate modules (--force)",
                    in[x->trace].path, in[y->trace].path, pm_basename(x->path), hx, hy);
        }
    if (nmods)
        qsort(mods, nmods, sizeof *mods, cmp_mod);
    /* unique identities; the first of each run has the smallest path */
    res.modules = calloc(nmods ? nmods : 1, sizeof *res.modules);
    if (!res.modules) {
        pm_error("out of memory");
        goto out;
    }
    for (size_t a = 0; a < nmods; a++) {
        if (res.nmodules && same_identity(&mods[a], &mods[a - 1]))
            continue;
        struct pi_trace_module *m = &res.modules[res.nmodules++];
        m->index = (uint32_t)(res.nmodules - 1);
        m->build_id_len = mods[a].build_id_len;
        memcpy(m->build_id, mods[a].build_id, m->build_id_len);
        m->path = strdup(mods[a].path);
        if (!m->path) {
            pm_error("out of memory");
            goto out;
        }
    }

    /* counts: find each input unit's merged module, sort, sum */
    k = 0;
    for (int i = 0; i < ntraces; i++)
        for (size_t j = 0; j < in[i].nunits; j++) {
            const struct pi_trace_unit *u = &in[i].units[j];
            size_t pos = merged_module(&res, &in[i].modules[u->module]);
            uc[k++] = (struct ucount){ .module = (uint32_t)pos, .unit_id = u->unit_id, .u = u,
                                       .trace = (size_t)i };
        }
    if (nuc)
        qsort(uc, nuc, sizeof *uc, cmp_ucount);
    res.units = calloc(nuc ? nuc : 1, sizeof *res.units);
    if (!res.units) {
        pm_error("out of memory");
        goto out;
    }
    for (size_t a = 0; a < nuc; a++) {
        const struct ucount *x = &uc[a];
        struct pi_trace_unit *d = res.nunits ? &res.units[res.nunits - 1] : NULL;
        if (d && d->module == x->module && d->unit_id == x->unit_id) {
            if (d->ncounters != x->u->ncounters) {
                pm_error("%s and %s: unit 0x%016llx of %s has %u counters in one and %u in the "
                         "other", in[uc[a - 1].trace].path, in[x->trace].path,
                         (unsigned long long)x->unit_id, res.modules[x->module].path,
                         d->ncounters, x->u->ncounters);
                goto out;
            }
            for (uint32_t i = 0; i < d->ncounters; i++)
                d->counts[i] = pm_sat_add(d->counts[i], x->u->counts[i]);
            continue;
        }
        d = &res.units[res.nunits++];
        d->module = x->module;
        d->unit_id = x->unit_id;
        d->ncounters = x->u->ncounters;
        d->counts = calloc(d->ncounters ? d->ncounters : 1, sizeof *d->counts);
        if (!d->counts) {
            pm_error("out of memory");
            goto out;
        }
        for (uint32_t i = 0; i < d->ncounters; i++)
            d->counts[i] = x->u->counts[i];
    }

    /* the indicators' records: combined, in an order of their own */
    size_t dropped = 0;
    for (int i = 0; i < ntraces; i++)
        if (pi_trace_add_indicators(&res, &in[i], 1, &err) ||
            pi_trace_add_watch(&res, &in[i], &dropped, &err)) {
            pm_error("%s", err.msg);
            goto out;
        }
    if (merge_ranges(&res, in, ntraces)) {
        pm_error("out of memory");
        goto out;
    }
    /* the sharing records: module-relative, combined (pishare.c) */
    int any_sharing = 0;
    for (int i = 0; i < ntraces; i++) {
        struct pi_share s;
        any_sharing |= !!(in[i].hdr.flags & PI_TF_SHARING);
        if (!(in[i].hdr.flags & PI_TF_SHARING))
            continue;
        if (pi_share_read(in[i].path, &s, &err) || pi_share_add(&share, &s, &in[i], res.modules, res.nmodules, &err)) {
            pi_share_free(&s);
            pm_error("%s", err.msg);
            goto out;
        }
        pi_share_free(&s);
    }
    if (pi_share_records(&share, &extra, &res.nextra)) {
        pm_error("out of memory");
        goto out;
    }
    res.extra = extra;
    if (dropped) /* only past the 255th module: the tag has 8 bits */
        pm_note("%zu watched word%s of modules past the 255th left out", dropped,
                dropped == 1 ? "" : "s");

    /* header and process: nothing that depends on one run or on the order */
    int all_off = 1, any_overlay = 0, any_partial = 0;
    uint32_t line_size = in[0].hdr.line_size;
    uint64_t nthreads = 0;
    for (int i = 0; i < ntraces; i++) {
        all_off &= !!(in[i].hdr.flags & PI_TF_MODE_OFF);
        any_overlay |= !!(in[i].hdr.flags & PI_TF_OVERLAY);
        any_partial |= !!(in[i].hdr.flags & PI_TF_PARTIAL);
        if (in[i].hdr.line_size != line_size)
            line_size = 0;
        nthreads += in[i].nthreads;
    }
    res.hdr.flags = PI_TF_MERGED | (all_off ? PI_TF_MODE_OFF : 0) | (any_overlay ? PI_TF_OVERLAY : 0) |
                    (any_sharing ? PI_TF_SHARING : 0) | (any_partial ? PI_TF_PARTIAL : 0);
    res.hdr.line_size = line_size;
    res.has_process = 1;
    res.nthreads = nthreads > UINT32_MAX ? UINT32_MAX : (uint32_t)nthreads;
    if (pi_trace_write(out, &res, &err)) {
        pm_error("%s", err.msg);
        goto out;
    }
    if (!quiet)
        printf("merged %d trace%s into %s: %zu module%s, %zu unit%s\n", ntraces,
               ntraces == 1 ? "" : "s", out, res.nmodules, res.nmodules == 1 ? "" : "s", res.nunits,
               res.nunits == 1 ? "" : "s");
    status = PM_OK;
out:
    for (int i = 0; i < ntraces; i++)
        pi_trace_free(&in[i]);
    free(in);
    free(mods);
    free(uc);
    res.extra = NULL;
    res.nextra = 0;
    pi_trace_free(&res);
    free(extra);
    pi_share_free(&share);
    return status;
}
