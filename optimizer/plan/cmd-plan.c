/* pmopt plan -o FEEDBACK PROG TRACE... — the feedback file of the rebuild
 * loop (docs/layout.md): options are parsed here, PROG and the traces read
 * once (model_load), and each planner (plan.h: plan-branches.c, ...) adds its
 * numbered recommendations to one pifb_writer — or, with --advise, prints
 * them as advice with the same numbers.  --stats prints only the dynamic
 * statistics of PROG's layout under the traces (to measure a rebuilt
 * program).
 *
 * pmopt plan --hot[=PCT] -o OVERLAY PROG TRACE... — an overlay that counts
 * only the hot functions (the seeds' autonomic selection: the next run
 * counts just those).
 *
 * The counts are read exactly as `pmopt report` reads them (model_load in
 * model.c: summed over the traces, a trace of another build refused
 * unless --force) and the functions ranked as its function view ranks
 * them: by block executions (the sum of the function's sites' counts),
 * then entries, name, unit, function number.  The plan is the shortest
 * prefix of that ranking whose block executions reach PCT percent of the
 * total (compared exactly, in integers); functions that executed no block
 * are never chosen.
 *
 * With --samples the ranking is by sampled self time instead
 * (plan-samples.c): a cheap PERFINST_SAMPLE run chooses what to count.
 *
 * The overlay (runtime/overlay.c, docs/indicators.md "Overlays") turns
 * every unit of PROG off (`off UNIT *`), then each chosen function on,
 * after a comment `# name  blocks  percent`.  It is written to a temporary
 * file beside OVERLAY and renamed.  --advise prints the plan instead.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "plan.h"
#include "profile.h"
#include "order.h"
#include "order-sets.h"
#include "plan-order.h"
#include "piout.h"

/* What the runtime accepts (PI_OVERLAY_MAX_BYTES, PI_OVERLAY_MAX_RULES in
 * perfinst-format.h): a larger overlay is not applied at all, so pmopt
 * refuses to write one. */

#define PCT_SCALE 1000 /* PCT in thousandths of a percent */

/* What the ranking counts: block executions, or with --samples the
 * functions' sampled self time (plan-samples.c). */
static const char *measure = "block executions", *measure_col = "blocks";
/* --samples: all the traces' sampled periods, of which the percentages'
 * total is those whose leaf was an instrumented function of PROG */
static uint64_t sampled_all;

static void help(FILE *f)
{
    fprintf(f,
            "usage: pmopt plan [--tier-hot=PCT] [--force] (-o FEEDBACK | --advise) PROG TRACE...\n"
            "       pmopt plan --stats [--force] PROG TRACE...\n"
            "       pmopt plan --check=FEEDBACK PROG\n"
            "       pmopt plan --hot[=PCT] [--force] (-o OVERLAY | --advise) PROG TRACE...\n"
            "A feedback file for the rebuild loop (gcc -fplugin-arg-perfinst-feedback=FEEDBACK):\n"
            "block and edge counts of every function counted whole, and the functions for\n"
            ".text.hot and .text.unlikely; with the layout's dynamic statistics before and\n"
            "(predicted) after.  --advise prints the recommendations as numbered advice.\n"
            "  --tier-hot=PCT       hot functions: those with PCT percent of the block\n"
            "                       executions (99)\n"
            "  --stats              only the dynamic statistics of PROG's layout\n"
            "  --check=FEEDBACK     how much of FEEDBACK still matches PROG (a build\n"
            "                       with all=count of the changed program)\n"
            "  --promote-calls      promote-call: an indirect call site whose most frequent\n"
            "                       target has --promote-share=PCT percent of its calls (75)\n"
            "                       and at least --promote-min-calls=N calls (1000) becomes a\n"
            "                       speculative direct call on rebuild\n"
            "  --no-promote-calls   no promote-call recommendations (the default)\n"
            "  --copy-map=FILE      copy-profile: each inlined copy's block counts, from the\n"
            "                       training build's -fplugin-arg-perfinst-copy-map=FILE\n"
            "\n"
            "--hot:\n"
            "An overlay (PERFINST_OVERLAY) that turns every function of PROG off and then on\n"
            "exactly the hottest ones, by block executions summed over the traces, that\n"
            "together account for PCT percent of all block executions: the next run counts\n"
            "just those.\n"
            "  --hot[=PCT]          choose the hot functions; PCT in (0, 100], up to three\n"
            "                       decimals (90)\n"
            "  -o, --output=OVERLAY the overlay (written whole; a FIFO or device in place)\n"
            "  --advise             print the chosen functions instead of writing an overlay\n"
            "  --force              read traces of a different build of PROG\n"
            "  --samples            rank by sampled self time (traces of a PERFINST_SAMPLE run,\n"
            "                       counting may be off) instead of block executions\n"
            "   or: pmopt plan --expand-callers[=K] [--force] (-o OVERLAY | --advise) PROG TRACE...\n"
            "An overlay that turns on the functions already selected (those whose threshold\n"
            "fired; after a run under an overlay, those that counted) and the next K callers\n"
            "(1) found on the threshold events' stacks (docs/indicators.md).\n"
            "Function order, data order and chase-tail (docs/layout.md): with --order, -o\n"
            "names a feedback file for `pmopt relink` (with --rebuild too, one file for both).\n"
            "  --order=ALG          c3, exttsp, cdsort, sets, auto or none: order the hot\n"
            "                       functions by call-graph affinity (cdsort: BOLT's\n"
            "                       cache-directed sort; sets: Ext-TSP's order spread\n"
            "                       over the cache sets; auto: cdsort when Ext-TSP's hot\n"
            "                       lines overfill some sets of the cache, else exttsp);\n"
            "                       plan data order and reserved regions\n"
            "  --overfull=ALG       with --order=auto, the order where Ext-TSP's hot lines\n"
            "                       overfill some sets: cdsort (the default) or sets\n"
            "  --target=PROG2       with --order=sets: plan for the sizes of PROG2's\n"
            "                       objects (the rebuilt program the relink will place)\n"
            "  --rebuild-split      with --rebuild: model each function as the rebuild's\n"
            "                       split will leave its hot part (its blocks that ran at\n"
            "                       least 1%% of its entry's count, packed), not as the\n"
            "                       training build's section\n"
            "  --clean-ranges       model a counted function from its clean copy's ranges\n"
            "                       (.perfinst.clean), not its counting copy's scaled\n"
            "  --place-inlined      name a function the training build inlined everywhere\n"
            "                       in the order, after the ordered function that ran most\n"
            "                       of its blocks (a rebuild that keeps it out of line\n"
            "                       places it there)\n"
            "  --no-place-inlined   leave such functions out of the order (the default)\n"
            "  --no-model-check     write the order even when the cache model predicts it\n"
            "                       to hit less than the layout it replaces, and the data\n"
            "                       order when the L1d model does not predict it to miss\n"
            "                       less (for comparison)\n"
            "  --sets-passes=N      with --order=sets: passes of the search (4; 0: only\n"
            "                       print the set pressure of the orders and the target)\n"
            "  --sets-affinity=W    with --order=sets: a call within reach of its caller\n"
            "                       (the Ext-TSP score) is worth W fetches of set\n"
            "                       pressure (0.25; more keeps more of Ext-TSP's order)\n"
            "  --cache=S,W,L        the L1i geometry of the cache model (default: sysfs)\n"
            "  --reserve-sets=N     sets of the reserved region (default sets/8; 0: none)\n"
            "  --outside-ways=N     the cache model gives PROG's code N ways fewer in each\n"
            "                       set: they are left to code it does not see (libc, the\n"
            "                       loader, other shared objects; default 0)\n"
            "  --dcache=S,W,L       the L1d geometry of the data model (default: sysfs)\n"
            "  --no-indirect-calls  with --order: leave out the arcs of the traces'\n"
            "                       indirect-call targets (for comparison)\n"
            "  --tier-first         the functions of the hot tier (--tier-hot) first in the\n"
            "                       order, the other executed ones after them\n"
            "  --no-tier-first      the algorithm's order alone, hot tier or not (the default)\n"
            "  --rebuild            with --order: one feedback file for both loops, the\n"
            "                       rebuild kinds (for the plugin) then the order kinds (for\n"
            "                       pmopt relink), numbered on\n"
            "   or: pmopt plan --sharing (-o FEEDBACK | --advise) PROG TRACE...: the false\n"
            "sharing repairs (pmopt plan --sharing --help; docs/sharing.md).\n");
}

/* A whole number from lo to hi into *v; -1 if s is not one. */
static int parse_int(const char *s, long lo, long hi, int *v)
{
    char *end;
    long x = strtol(s, &end, 10);
    if (*end || end == s || x < lo || x > hi)
        return -1;
    *v = (int)x;
    return 0;
}

/* "90", "99.5", "0.125" -> thousandths; -1 if not a percentage in (0, 100]. */
static long parse_pct(const char *s)
{
    return pm_parse_pct(s);
}

/* PCT as the user would write it: 90, 99.5. */
static void fmt_pct(char *buf, size_t n, long pct)
{
    int len = snprintf(buf, n, "%ld.%03ld", pct / PCT_SCALE, pct % PCT_SCALE);
    while (len > 0 && buf[len - 1] == '0')
        buf[--len] = 0;
    if (len > 0 && buf[len - 1] == '.')
        buf[--len] = 0;
}

static double percent(uint64_t part, uint64_t total)
{
    return total ? 100.0 * (double)part / (double)total : 0.0;
}

/* A string in a comment line: control characters would end or garble it. */
static void comment_str(FILE *f, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        fputc(*p < 0x20 || *p == 0x7f ? '?' : *p, f);
}

/* The number of hot functions: the shortest prefix of md->funcs (hottest
 * first) with at least pct thousandths of a percent of the total. */
static size_t choose(const struct model *md, long pct, uint64_t total, uint64_t *chosen)
{
    __extension__ typedef unsigned __int128 u128;
    u128 want = (u128)total * (u128)pct; /* compared with cum * 100 * PCT_SCALE */
    uint64_t cum = 0;
    size_t n = 0;
    while (n < md->nfuncs && (u128)cum * (100 * PCT_SCALE) < want && md->funcs[n].blocks) {
        cum = pm_sat_add(cum, md->funcs[n].blocks);
        n++;
    }
    *chosen = cum;
    return n;
}

/* Functions whose counted code lies (partly) in another function: inlined
 * into a caller or in a clone GCC made, that code tests the caller's switch
 * or the global mode register, not the function's own, so the overlay's
 * rule for the function does not reach it.  Needs PROG's symbols or DWARF;
 * said as a note per function that executed blocks. */
static int note_foreign_code(const struct model *md)
{
    const struct pi_meta *m = &md->m;
    if (!md->have_dbg || m->range_shndx)
        return 0;
    const char ***holder = calloc(m->nunits ? m->nunits : 1, sizeof *holder);
    if (!holder)
        return rep_oom();
    int status = 0;
    for (size_t i = 0; i < m->nunits && !status; i++)
        if (m->units[i].hdr.nfuncs &&
            !(holder[i] = calloc(m->units[i].hdr.nfuncs, sizeof **holder)))
            status = rep_oom();
    for (size_t i = 0; i < m->nranges && !status; i++) {
        const struct pi_range *rg = &m->ranges[i];
        const struct pi_unit_view *u = pi_meta_unit(m, rg->unit_id);
        if (!rg->addr || !u || rg->site >= u->hdr.nsites)
            continue;
        uint32_t fi = u->sites[rg->site].func;
        if (fi >= u->hdr.nfuncs || holder[u - m->units][fi])
            continue;
        const struct pi_dfunc *df = pi_debug_func(&md->dbg, rg->addr);
        if (df && strcmp(pm_fn_key(pm_dfunc_linkage(df)), pi_unit_str(u, u->funcs[fi].name)))
            holder[u - m->units][fi] = pm_dfunc_name(df);
    }
    for (size_t i = 0; i < md->nfuncs && !status; i++) {
        const struct func_row *row = &md->funcs[i];
        const char *h = NULL;
        for (uint32_t k = 0; k < row->ncopies && !h; k++)
            h = holder[row->copies[k].u - m->units][row->copies[k].func];
        if (h && row->blocks)
            pm_note("%s has counted code in %s (inlined or a clone): that code follows %s's "
                    "switch or the global mode, not %s's, so the overlay's rule for %s does not "
                    "reach it", row->name, h, h, row->name, row->name);
    }
    for (size_t i = 0; i < m->nunits; i++)
        free(holder[i]);
    free(holder);
    return status;
}

/* Where the other sampled periods went, after the header (prefix "# " in
 * an overlay). */
static void note_outside(FILE *f, const char *prefix, uint64_t total)
{
    if (sampled_all > total)
        fprintf(f, "%s(of all %llu sampled periods, %llu (%.1f%%) fell outside the instrumented "
                   "functions: libraries, the runtime, code built without the plugin)\n",
                prefix, (unsigned long long)sampled_all,
                (unsigned long long)(sampled_all - total), percent(sampled_all - total, sampled_all));
}

static void write_overlay(FILE *f, const struct model *md, const char *pctstr, size_t n,
                          uint64_t chosen, uint64_t total)
{
    char rule[PI_OVERLAY_LINE_MAX];
    fprintf(f, PI_OVERLAY_HEADER "\n# pmopt plan --hot=%s ", pctstr);
    comment_str(f, md->prog);
    fprintf(f, " (build-id %s), %d trace%s\n", md->bid, md->ntraces, md->ntraces == 1 ? "" : "s");
    fprintf(f, "# %zu of %zu functions, %llu of %llu %s (%.1f%%)\n", n, md->nfuncs,
            (unsigned long long)chosen, (unsigned long long)total, measure,
            percent(chosen, total));
    note_outside(f, "# ", total);
    for (size_t i = 0; i < md->m.nunits; i++)
        fputs(pi_overlay_rule_line(rule, &(struct pi_overlay_rule){ md->m.units[i].hdr.unit_id,
                                                                    PI_OVERLAY_ALL, 0 }), f);
    for (size_t i = 0; i < n; i++) {
        const struct func_row *row = &md->funcs[i];
        fputs("# ", f);
        comment_str(f, row->name);
        fprintf(f, "  %llu  %.1f%%\n", (unsigned long long)row->blocks,
                percent(row->blocks, total));
        for (uint32_t k = 0; k < row->ncopies; k++) /* every unit's copy */
            fputs(pi_overlay_rule_line(rule, &(struct pi_overlay_rule){
                      row->copies[k].u->hdr.unit_id, row->copies[k].func, 1 }), f);
    }
}

static void print_advice(const struct model *md, const char *pctstr, size_t n, uint64_t chosen,
                         uint64_t total)
{
    printf("pmopt plan --hot=%s: %s (build-id %s), %d trace%s\n", pctstr, md->prog, md->bid,
           md->ntraces, md->ntraces == 1 ? "" : "s");
    printf("%zu of %zu functions have %llu of %llu %s (%.1f%%, at least %s%%):\n",
           n, md->nfuncs, (unsigned long long)chosen, (unsigned long long)total, measure,
           percent(chosen, total), pctstr);
    note_outside(stdout, "", total);
    int wb = 6, wn = 8;
    for (size_t i = 0; i < n; i++) {
        const struct func_row *row = &md->funcs[i];
        wb = rep_widest(wb, rep_digits(row->blocks), 20);
        wn = rep_widest(wn, (int)strlen(row->name), 40);
    }
    printf("  %*s  %7s  %10s  %-*s  %-20s  %s\n", wb, measure_col, "percent", "cumulative", wn,
           "function", "unit function", "file:line");
    uint64_t cum = 0;
    for (size_t i = 0; i < n; i++) {
        const struct func_row *row = &md->funcs[i];
        char uf[64];
        cum = pm_sat_add(cum, row->blocks);
        int k = snprintf(uf, sizeof uf, "0x%016llx %u", (unsigned long long)row->u->hdr.unit_id,
                         row->func);
        if (row->ncopies > 1)
            snprintf(uf + k, sizeof uf - (size_t)k, " +%u unit%s", row->ncopies - 1,
                     row->ncopies == 2 ? "" : "s");
        printf("  %*llu  %6.1f%%  %9.1f%%  %-*s  %-20s  %s:%u\n", wb,
               (unsigned long long)row->blocks, percent(row->blocks, total), percent(cum, total),
               wn, row->name, uf, row->file, row->line);
    }
    printf("The overlay (-o) turns every function of the program's %zu unit%s off, then these "
           "on.\n", md->m.nunits, md->m.nunits == 1 ? "" : "s");
}

/* text (len bytes) to path, whole or not at all (common/piout.h). */
static int write_atomically(const char *path, const char *text, size_t len)
{
    struct pi_out o;
    struct pi_err err;
    if (pi_out_begin(&o, path, ".pmopt-plan.", &err)) {
        pm_error("%s", err.msg);
        return -1;
    }
    FILE *f = fopen(o.tmp, "wx");
    int bad = !f || fwrite(text, 1, len, f) != len || fflush(f) || fsync(fileno(f));
    int saved = errno;
    if (f && fclose(f) && !bad)
        bad = 1, saved = errno;
    int rc = bad ? pi_err_set(&err, "%s: cannot write %s: %s", path, o.tmp, strerror(saved))
                 : pi_out_commit(&o, &err);
    if (rc)
        pm_error("%s", err.msg);
    pi_out_end(&o);
    return rc;
}

static int plan_check(int argc, char **argv, const char *path)
{
    if (argc - optind != 1)
        return pm_usage_error("plan", "--check=FEEDBACK: expected PROG alone");
    struct pifb_file fb;
    struct pi_meta m;
    struct pi_err err;
    memset(&m, 0, sizeof m);
    int status = PM_ERROR;
    if (pifb_read(path, &fb, &err)) {
        pm_error("%s", err.msg);
        pifb_free(&fb);
        return PM_ERROR;
    }
    if (pi_meta_read(argv[optind], &m, &err))
        pm_error("%s", err.msg);
    else if (!m.nunits)
        pm_error("%s: no perfinst metadata: build it with -fplugin-arg-perfinst-all=count",
                 argv[optind]);
    else if (plan_check_branches(&m, &fb, stdout) == 0)
        status = PM_OK;
    pi_meta_free(&m);
    pifb_free(&fb);
    return status;
}

/* With po (--order=ALG --rebuild): the order kinds follow the rebuild
 * kinds in the same file, numbered on (docs/layout.md "One loop"). */
/* plan-promote.c's thresholds: --promote-calls (off by default: on the
 * layout suite it raised the I1 misses' geomean 1.37x, speedtest1/fp's
 * 73x, and saved 0.02 % of the instructions; bench/RESULTS.md
 * 2026-11-30 01:22), --promote-share=PCT, --promote-min-calls=N,
 * --no-promote-calls */
static int promote_calls;
static const char *copy_map; /* --copy-map=FILE: copy-profile (plan-copies.c) */
static long promote_share = 75 * PCT_SCALE;
static uint64_t promote_min = 1000;

static int plan_feedback(int argc, char **argv, const char *out, int advise, int stats, int force,
                         long tier_hot, const struct plan_order_opts *po)
{
    if (advise && out)
        return pm_usage_error("plan", "--advise prints the plan: not with -o");
    if (stats && (advise || out))
        return pm_usage_error("plan", "--stats prints statistics only: not with -o or --advise");
    if (!advise && !out && !stats)
        return pm_usage_error("plan", "expected -o FEEDBACK, --advise or --stats (or --hot)");
    if (argc - optind < 2)
        return pm_usage_error("plan", "expected PROG and at least one TRACE");
    struct model md;
    memset(&md, 0, sizeof md);
    md.force = force;
    md.prog = argv[optind];
    md.ntraces = argc - optind - 1;
    int status = PM_ERROR;
    struct pifb_writer w;
    int have_w = 0;
    if (model_load(&md, argv + optind + 1) != 0)
        goto done;
    if (stats) {
        struct dynstats d;
        struct call_arc *arcs;
        size_t narcs;
        if (pf_dynstats(&md, &d) == 0 && pf_call_arcs(&md, &arcs, &narcs) == 0) {
            pf_dynstats_print(stdout, "dynamic statistics of PROG (measured)", &d);
            printf("call arcs (caller -> callee: calls), hottest first:\n");
            for (size_t i = 0; i < narcs && arcs[i].count; i++)
                printf("  %s -> %s: %llu\n", pm_func_name(arcs[i].u, arcs[i].caller),
                       *arcs[i].callee ? pm_fn_name(arcs[i].callee) : "(indirect)",
                       (unsigned long long)arcs[i].count);
            free(arcs);
            status = PM_OK;
        }
        goto done;
    }
    struct plan p = { .md = &md, .out = stdout, .tier_hot = tier_hot,
                      .promote_share = promote_calls ? promote_share : 0, .promote_min = promote_min };
    if (advise) {
        p.advice = stdout;
        printf("pmopt plan --advise: %s (build-id %s), %d trace%s\n", md.prog, md.bid, md.ntraces,
               md.ntraces == 1 ? "" : "s");
    } else {
        char *abs = realpath(md.prog, NULL);
        struct pi_err err;
        if (pifb_create(&w, out, abs ? abs : md.prog, md.m.build_id_len ? md.bid : NULL, 0, &err)) {
            pm_error("%s", err.msg);
            free(abs);
            goto done;
        }
        free(abs);
        have_w = 1;
        p.w = &w;
    }
    /* the planners, each adding its recommendations */
    if (plan_branches(&p))
        goto done;
    if (plan_promote(&p))
        goto done;
    if (copy_map && plan_copies(&p, copy_map))
        goto done;
    if (po && plan_order(&md, po, p.w, &p.number))
        goto done;
    if (have_w) {
        struct pi_err err;
        have_w = 0;
        if (pifb_commit(&w, &err)) {
            pm_error("%s", err.msg);
            goto done;
        }
        printf("%s: %u recommendations\n", out, p.number);
    }
    fflush(stdout);
    status = ferror(stdout) ? PM_ERROR : PM_OK;
done:
    if (have_w)
        pifb_abort(&w);
    model_free(&md);
    return status;
}

int cmd_plan(int argc, char **argv)
{
    static const struct option opts[] = {
        { "hot", optional_argument, NULL, 'H' },
        { "output", required_argument, NULL, 'o' },
        { "advise", no_argument, NULL, 'a' },
        { "force", no_argument, NULL, 'f' },
        { "expand-callers", optional_argument, NULL, 'E' },
        { "samples", no_argument, NULL, 's' },
        { "order", required_argument, NULL, 'O' },
        { "cache", required_argument, NULL, 'C' },
        { "reserve-sets", required_argument, NULL, 'R' },
        { "outside-ways", required_argument, NULL, 'w' },
        { "dcache", required_argument, NULL, 'D' },
        { "tier-hot", required_argument, NULL, 'T' },
        { "stats", no_argument, NULL, 'S' },
        { "check", required_argument, NULL, 'K' },
        { "rebuild", no_argument, NULL, 'B' },
        { "no-indirect-calls", no_argument, NULL, 'I' },
        { "tier-first", no_argument, NULL, 'F' },
        { "no-tier-first", no_argument, NULL, 'N' },
        { "target", required_argument, NULL, 'G' },
        { "sets-passes", required_argument, NULL, 'P' },
        { "sets-affinity", required_argument, NULL, 'W' },
        { "no-model-check", no_argument, NULL, 'M' },
        { "rebuild-split", no_argument, NULL, 'X' },
        { "clean-ranges", no_argument, NULL, 'L' },
        { "place-inlined", no_argument, NULL, 'i' },
        { "no-place-inlined", no_argument, NULL, 'j' },
        { "promote-share", required_argument, NULL, 'p' },
        { "promote-min-calls", required_argument, NULL, 'm' },
        { "no-promote-calls", no_argument, NULL, 'n' },
        { "promote-calls", no_argument, NULL, 'c' },
        { "copy-map", required_argument, NULL, 'Y' },
        { "overfull", required_argument, NULL, 1000 },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    long pct = -1, expand = -1, tier_hot = 99 * PCT_SCALE;
    int advise = 0, by_samples = 0, order = 0, stats = 0, rebuild = 0, tier_first = 0;
    struct plan_order_opts po = { .alg = ORD_NONE, .overfull = ORD_CDSORT, .reserve_sets = -1, .sets_passes = 4,
                                  .sets_affinity = ORD_SETS_AFFINITY };
    const char *check = NULL;
    const char *out = NULL;
    struct model md;
    memset(&md, 0, sizeof md);
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
        switch (c) {
        case 'H':
            pct = optarg ? parse_pct(optarg) : 90 * PCT_SCALE;
            if (pct < 0)
                return pm_usage_error("plan", "--hot: '%s' is not a percentage in (0, 100]",
                                      optarg);
            break;
        case 'o':
            if (!*optarg)
                return pm_usage_error("plan", "-o: empty file name");
            out = optarg;
            break;
        case 'E': {
            char *end = NULL;
            expand = optarg ? strtol(optarg, &end, 10) : 1;
            if (optarg && (*end || end == optarg || expand < 1 || expand > 64))
                return pm_usage_error("plan", "--expand-callers: '%s' is not a number of levels "
                                      "from 1 to 64", optarg);
            break;
        }
        case 'a': advise = 1; break;
        case 'T':
            tier_hot = parse_pct(optarg);
            if (tier_hot < 0)
                return pm_usage_error("plan", "--tier-hot: '%s' is not a percentage in (0, 100]",
                                      optarg);
            break;
        case 'S': stats = 1; break;
        case 'B': rebuild = 1; break;
        case 'I': po.no_icalls = 1; break;
        case 'F': tier_first = 1; break;
        case 'N': tier_first = 0; break;
        case 'G': po.target = optarg; break;
        case 'M': po.no_model_check = 1; break;
        case 'X': po.rebuild_split = 1; break;
        case 'L': po.clean_ranges = 1; break;
        case 'i': po.place_inlined = 1; break;
        case 'j': po.place_inlined = 0; break;
        case 'P':
            if (parse_int(optarg, 0, 100, &po.sets_passes))
                return pm_usage_error("plan", "--sets-passes: '%s' is not a number from 0 to 100",
                                      optarg);
            break;
        case 'W': {
            char *end;
            double v = strtod(optarg, &end);
            if (*end || end == optarg || !(v >= 0 && v <= 1e6))
                return pm_usage_error("plan", "--sets-affinity: '%s' is not a number from 0 to 1000000",
                                      optarg);
            po.sets_affinity = v;
            break;
        }
        case 'K': check = optarg; break;
        case 'p':
            promote_share = parse_pct(optarg);
            if (promote_share < 0)
                return pm_usage_error("plan", "--promote-share: '%s' is not a percentage in (0, 100]",
                                      optarg);
            break;
        case 'm': {
            char *end;
            errno = 0;
            unsigned long long v = strtoull(optarg, &end, 10);
            if (*end || end == optarg || errno || *optarg == '-')
                return pm_usage_error("plan", "--promote-min-calls: '%s' is not a number of calls",
                                      optarg);
            promote_min = v;
            break;
        }
        case 'n': promote_calls = 0; break;
        case 'c': promote_calls = 1; break;
        case 'Y': copy_map = optarg; break;
        case 'f': md.force = 1; break;
        case 's': by_samples = 1; break;
        case 'O':
            if ((po.alg = ord_parse(optarg)) < 0)
                return pm_usage_error("plan", "--order: '%s' is not c3, exttsp, cdsort, sets, auto or none",
                                      optarg);
            order = 1;
            break;
        case 'C': po.cache = optarg; break;
        case 'D': po.dcache = optarg; break;
        case 'R':
            if (parse_int(optarg, 0, 65536, &po.reserve_sets))
                return pm_usage_error("plan", "--reserve-sets: '%s' is not a number of sets",
                                      optarg);
            break;
        case 'w':
            if (parse_int(optarg, 0, 1024, &po.outside_ways))
                return pm_usage_error("plan", "--outside-ways: '%s' is not a number of ways",
                                      optarg);
            break;
        case 1000:
            po.overfull = ord_parse(optarg);
            if (po.overfull != ORD_SETS && po.overfull != ORD_CDSORT)
                return pm_usage_error("plan", "--overfull: '%s' is not sets or cdsort", optarg);
            break;
        case 'h': help(stdout); return PM_OK;
        default: return pm_usage_error("plan", "unknown option");
        }
    }
    /* the algorithm's order alone by default: the hot tier first had fewer
     * I1 misses on SQLite's two-plan relink but more on the one-plan loop,
     * and ran slower than BOLT and the one-plan relink on a quiet machine
     * (docs/layout.md "Function order") */
    po.tier_hot = tier_first ? tier_hot : 0;
    if (po.target && (!order || po.alg != ORD_SETS || rebuild))
        return pm_usage_error("plan", "--target: only with --order=sets (and not --rebuild: the "
                              "target is the rebuilt program)");
    if (check)
        return plan_check(argc, argv, check);
    if (order) {
        if (pct >= 0 || expand >= 0)
            return pm_usage_error("plan", "--hot and --expand-callers write an overlay, --order a "
                                  "feedback file: one at a time");
        if (rebuild) {
            if (stats)
                return pm_usage_error("plan", "--stats: not with --order --rebuild");
            po.rebuild_tier = tier_hot;
            return plan_feedback(argc, argv, out, advise, 0, md.force, tier_hot, &po);
        }
        return plan_order_main(&md, &po, advise, out, argc - optind, argv + optind);
    }
    if (pct >= 0 && expand >= 0)
        return pm_usage_error("plan", "--hot and --expand-callers: one plan at a time");
    if (rebuild)
        return pm_usage_error("plan", "--rebuild: only with --order (the rebuild kinds are "
                              "written without it anyway)");
    if (pct < 0 && expand < 0)
        return plan_feedback(argc, argv, out, advise, stats, md.force, tier_hot, NULL);
    if (stats)
        return pm_usage_error("plan", "--stats: not with --hot or --expand-callers");
    if (pct < 0)
        pct = 90 * PCT_SCALE; /* (unused) */
    if (advise && out)
        return pm_usage_error("plan", "--advise prints the plan: not with -o");
    if (!advise && !out)
        return pm_usage_error("plan", "expected -o OVERLAY (or --advise)");
    if (argc - optind < 2)
        return pm_usage_error("plan", "expected PROG and at least one TRACE");
    md.prog = argv[optind];
    md.ntraces = argc - optind - 1;
    char pctstr[32];
    fmt_pct(pctstr, sizeof pctstr, pct);

    int status = PM_ERROR;
    if (model_load(&md, argv + optind + 1) != 0)
        goto done;
    if (expand >= 0) {
        char *text = NULL;
        size_t len = 0;
        if (plan_expand_callers(&md, (int)expand, advise, advise ? NULL : &text, &len) == 0) {
            if (advise) {
                fflush(stdout);
                status = ferror(stdout) ? PM_ERROR : PM_OK;
            } else if (len > PI_OVERLAY_MAX_BYTES) {
                pm_error("%s: the overlay would be %zu bytes, the runtime reads at most %d", out,
                         len, PI_OVERLAY_MAX_BYTES);
            } else if (write_atomically(out, text, len) == 0) {
                status = PM_OK;
            }
        }
        free(text);
        goto done;
    }
    uint64_t total = 0, chosen, sampled = 0;
    if (by_samples) {
        if (plan_rank_by_samples(&md, argv + optind + 1, &sampled))
            goto done;
        measure = "sampled periods (self)";
        measure_col = "periods";
        sampled_all = sampled;
    }
    for (size_t i = 0; i < md.nfuncs; i++)
        total = pm_sat_add(total, md.funcs[i].blocks);
    if (by_samples && !total) {
        pm_error("none of the %llu sampled periods fell in an instrumented function of %s",
                 (unsigned long long)sampled, md.prog);
        goto done;
    }
    if (!total) {
        pm_error("the traces counted no block of %s: nothing to choose from (was it run with "
                 "PERFINST_MODE=off, or an overlay that turned everything off?)", md.prog);
        goto done;
    }
    size_t n = choose(&md, pct, total, &chosen);
    if (note_foreign_code(&md))
        goto done;
    if (advise) {
        print_advice(&md, pctstr, n, chosen, total);
        fflush(stdout);
        status = ferror(stdout) ? PM_ERROR : PM_OK;
        goto done;
    }
    if (md.m.nunits + n > PI_OVERLAY_MAX_RULES) {
        pm_error("%s: the overlay would have %zu rules, the runtime applies at most %d: "
                 "choose fewer functions (a lower --hot)", out, md.m.nunits + n,
                 PI_OVERLAY_MAX_RULES);
        goto done;
    }
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) {
        rep_oom();
        goto done;
    }
    write_overlay(f, &md, pctstr, n, chosen, total);
    if (fclose(f) || !text) {
        free(text);
        rep_oom();
        goto done;
    }
    if (len > PI_OVERLAY_MAX_BYTES)
        pm_error("%s: the overlay would be %zu bytes, the runtime reads at most %d: choose "
                 "fewer functions (a lower --hot)", out, len, PI_OVERLAY_MAX_BYTES);
    else if (write_atomically(out, text, len) == 0)
        status = PM_OK;
    free(text);
done:
    model_free(&md);
    return status;
}
