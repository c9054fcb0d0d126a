/* pmopt export --FORMAT OUT [--FORMAT OUT...] [PROG] TRACE...
 *
 * PROG's counts and the traces' stack samples in the formats other tools
 * read, one file per format asked (docs/exports.md):
 *
 *   --pprof OUT       gzip'ed profile.proto (pprof, Pyroscope, Parca)     export-pprof.c
 *   --callgrind OUT   callgrind format (KCachegrind, callgrind_annotate)   export-callgrind.c
 *   --lcov OUT        an lcov tracefile (genhtml, lcov)                    export-lcov.c
 *   --gcovr OUT       gcovr's JSON tracefile (gcovr --add-tracefile)       export-gcovr.c
 *   --speedscope OUT  speedscope's file format                             export-speedscope.c
 *   --chrome OUT      Chrome/Perfetto trace-event JSON                     export-chrome.c
 *   --flamegraph OUT, --folded OUT: the stack samples' flame graph SVG and
 *                     folded stacks, with their own options (cmd-export-stacks.c)
 *
 * PROG is the first operand when it is not a trace; without it only the
 * stack samples are exported (named through each sampled object's file).
 * The input is read once for every format (struct exp_in, export.h).
 *
 * A new format is one line in formats[] and its writer in its own file
 * (export-FORMAT.c), declared in export.h: every entry is a `--NAME FILE`
 * option, the dispatch needs no change.
 */
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "export.h"

static const struct {
    const char *name;   /* the option: --NAME FILE */
    int (*write)(struct exp_in *in, const char *out);
    int counts;         /* needs PROG's counts or stack samples (0: neither, chrome) */
    const char *what;
} formats[] = {
    { "pprof", export_pprof, 1, "gzip'ed profile.proto: pprof, Pyroscope, Parca" },
    { "callgrind", export_callgrind, 1, "callgrind format: KCachegrind, callgrind_annotate" },
    { "lcov", export_lcov, 1, "lcov tracefile (.info): genhtml, lcov (needs PROG's counts)" },
    { "gcovr", export_gcovr, 1, "gcovr's JSON tracefile: gcovr --add-tracefile (PROG's counts)" },
    { "speedscope", export_speedscope, 1, "speedscope JSON (stack samples; else the counts)" },
    { "chrome", export_chrome, 0, "Chrome/Perfetto trace-event JSON (report groups, samples)" },
};
#define NFORMATS (sizeof formats / sizeof formats[0])

static void help(FILE *f)
{
    fprintf(f, "usage: pmopt export --FORMAT OUT [--FORMAT OUT...] [PROG] TRACE...\n"
               "PROG's exact counts and the traces' stack samples in other tools' formats,\n"
               "one file per format:\n");
    for (size_t i = 0; i < NFORMATS; i++)
        fprintf(f, "  --%-12s OUT  %s\n", formats[i].name, formats[i].what);
    fprintf(f, "PROG: the instrumented program (its counts; without it, only stack samples).\n"
               "   or: pmopt export (--flamegraph OUT.svg | --folded OUT) [--what=W] [PROG] TRACE...\n"
               "Stack samples (PERFINST_SAMPLE, PERFINST_IDLE) as a flame graph or folded stacks;\n"
               "`pmopt export --flamegraph x --help` for its options.  docs/exports.md.\n");
}

/* ---- the input ------------------------------------------------------------- */

uint64_t exp_sample_period(const struct exp_in *in)
{
    return in->t.ss.has_stats ? in->t.ss.stats.period_ns : 0;
}

uint64_t exp_idle_period(const struct exp_in *in)
{
    return in->t.ss.has_idle ? in->t.ss.idle.period_ns : 0;
}

const char *exp_open_path(const char *shown)
{
    char buf[PATH_MAX], cwd[PATH_MAX], abs[2 * PATH_MAX + 2];
    if (!*shown)
        return "";
    const char *p = pm_source_path(shown, buf, sizeof buf);
    if (*p == '/' || !*p || !getcwd(cwd, sizeof cwd))
        return pm_intern(p);
    snprintf(abs, sizeof abs, "%s/%s", cwd, p);
    return pm_intern(abs);
}

const struct func_row *exp_func_by_key(struct exp_in *in, const char *key)
{
    if (!in->counts || !key)
        return NULL;
    if (!in->fkeys.n) /* the rows by key (interned), the first row of a key */
        for (size_t i = 0; i < in->md.nfuncs; i++) {
            uint32_t *id = exp_tab_slot(&in->fkeys, (uintptr_t)in->md.funcs[i].key, 0);
            if (id && !*id)
                *id = (uint32_t)i + 1;
        }
    uint32_t id = exp_tab_get(&in->fkeys, (uintptr_t)pm_intern(key), 0);
    return id ? &in->md.funcs[id - 1] : NULL;
}

/* ---- tables: (key, key) -> id ------------------------------------------------- */

static uint64_t mix(uint64_t a, uint64_t b)
{
    uint64_t h = a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull) * 0xff51afd7ed558ccdull;
    return h ^ h >> 29;
}

uint32_t *exp_tab_slot(struct exp_tab *t, uint64_t a, uint64_t b)
{
    if (2 * (t->n + 1) > t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 1024;
        uint64_t *ka = calloc(cap, sizeof *ka), *kb = calloc(cap, sizeof *kb);
        uint32_t *id = calloc(cap, sizeof *id);
        if (!ka || !kb || !id) {
            free(ka), free(kb), free(id);
            return NULL;
        }
        for (size_t i = 0; i < t->cap; i++) {
            if (!t->id[i])
                continue;
            size_t j = mix(t->ka[i], t->kb[i]) & (cap - 1);
            while (id[j])
                j = (j + 1) & (cap - 1);
            ka[j] = t->ka[i], kb[j] = t->kb[i], id[j] = t->id[i];
        }
        free(t->ka), free(t->kb), free(t->id);
        t->ka = ka, t->kb = kb, t->id = id, t->cap = cap;
    }
    size_t j = mix(a, b) & (t->cap - 1);
    while (t->id[j] && (t->ka[j] != a || t->kb[j] != b))
        j = (j + 1) & (t->cap - 1);
    if (!t->id[j]) /* new: the caller sets the id */
        t->ka[j] = a, t->kb[j] = b, t->n++;
    return &t->id[j];
}

uint32_t exp_tab_get(const struct exp_tab *t, uint64_t a, uint64_t b)
{
    if (!t->cap)
        return 0;
    size_t j = mix(a, b) & (t->cap - 1);
    while (t->id[j] && (t->ka[j] != a || t->kb[j] != b))
        j = (j + 1) & (t->cap - 1);
    return t->id[j];
}

void exp_tab_free(struct exp_tab *t)
{
    free(t->ka), free(t->kb), free(t->id);
}

/* Does PROG have .perfinst metadata (else it is read for its symbols only)? */
static int has_meta(const char *prog)
{
    struct pi_meta m;
    struct pi_err err;
    if (pi_meta_read(prog, &m, &err))
        return 0;
    int n = m.nunits > 0;
    pi_meta_free(&m);
    return n;
}

static int load(struct exp_in *in, const char *prog, char **traces, int ntraces)
{
    memset(in, 0, sizeof *in);
    in->prog = prog;
    in->traces = traces;
    in->ntraces = ntraces;
    if (prog && has_meta(prog)) {
        in->md.prog = prog;
        in->md.ntraces = ntraces;
        if (model_load(&in->md, traces) || pf_call_arcs(&in->md, &in->arcs, &in->narcs))
            return -1;
        for (size_t i = 0; i < in->md.m.nunits && !in->counts; i++)
            in->counts = in->md.us[i].sums != NULL;
        if (!in->counts)
            pm_note("the traces hold no counts of %s", prog);
    }
    return stk_load(&in->t, prog, traces, ntraces);
}

static void unload(struct exp_in *in)
{
    if (in->md.prog)
        model_free(&in->md);
    free(in->arcs);
    exp_tab_free(&in->fkeys);
    stk_free(&in->t);
}

/* ---- the command ------------------------------------------------------------ */

int cmd_export(int argc, char **argv)
{
    struct option opts[NFORMATS + 2];
    const char *outs[NFORMATS] = {0};
    for (size_t i = 0; i < NFORMATS; i++)
        opts[i] = (struct option){ formats[i].name, required_argument, NULL, (int)(256 + i) };
    opts[NFORMATS] = (struct option){ "help", no_argument, NULL, 'h' };
    opts[NFORMATS + 1] = (struct option){ NULL, 0, NULL, 0 };
    int c, any = 0, need = 0;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
        if (c == 'h') {
            help(stdout);
            return PM_OK;
        }
        if (c < 256 || c >= 256 + (int)NFORMATS)
            return pm_usage_error(argv[0], "unknown or incomplete option '%s'", argv[optind - 1]);
        outs[c - 256] = optarg;
        need |= formats[c - 256].counts;
        any = 1;
    }
    if (!any)
        return pm_usage_error(argv[0], "nothing to export: no format given (--pprof OUT, "
                                       "--callgrind OUT, --lcov OUT, --gcovr OUT, --speedscope OUT, "
                                       "--chrome OUT, --flamegraph OUT or --folded OUT)");
    const char *prog;
    char **traces;
    int ntraces;
    stk_operands(argc - optind, argv + optind, &prog, &traces, &ntraces);
    if (!ntraces)
        return pm_usage_error(argv[0], "no TRACE given");
    struct exp_in in;
    if (load(&in, prog, traces, ntraces)) {
        unload(&in);
        return PM_ERROR;
    }
    int status = PM_OK;
    if (need && !in.counts && !in.t.ss.n)
        pm_note("no counts%s and no stack samples in the traces: the exports are empty",
                prog ? "" : " (no PROG given)");
    for (size_t i = 0; i < NFORMATS; i++)
        if (outs[i] && formats[i].write(&in, outs[i]))
            status = PM_ERROR;
    unload(&in);
    return status;
}
