/* report-tree.c — `pmopt report --tree`: the calling-context tree of
 * sampled stacks (stacks.c builds it), printed as text (docs/pmopt.md,
 * docs/sampling-stacks.md); and the same stacks as a flame graph, the
 * flame-graph section of report --html's page (export-stacks.c draws the
 * SVG; model/ cannot hold a report section, so it is here).
 *
 *   pmopt report --tree [--what=sampled|idle|to|from] [--min=PCT] [PROG] TRACE...
 */
#include <gelf.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "pmopt.h"
#include "report-html.h"
#include "stacks.h"

/* How many of PROG's functions (sized STT_FUNC symbols) its .eh_frame_hdr
 * table has an FDE for, at most: *nfde and *nfunc; -1 when PROG cannot
 * tell (no symbol table, a table of another encoding). */
static int unwind_coverage(const char *prog, uint64_t *nfde, uint64_t *nfunc)
{
    int fd, rc = -1;
    Elf *e = pm_elf_open(prog, &fd);
    size_t shstr;
    *nfde = *nfunc = 0;
    int have_hdr = 0, have_sym = 0;
    if (e && !elf_getshdrstrndx(e, &shstr)) {
        Elf_Scn *scn = NULL;
        while ((scn = elf_nextscn(e, scn))) {
            GElf_Shdr sh;
            const char *nm;
            Elf_Data *d;
            if (!gelf_getshdr(scn, &sh) || !(nm = elf_strptr(e, shstr, sh.sh_name)))
                continue;
            if (!strcmp(nm, ".eh_frame_hdr") && (d = elf_getdata(scn, NULL)) && d->d_buf &&
                d->d_size >= 12) {
                const unsigned char *h = d->d_buf;
                /* version 1, eh_frame_ptr sdata4 (any application), fde_count udata4 */
                if (h[0] == 1 && (h[1] & 0x0f) == 0x0b && h[2] == 0x03) {
                    uint32_t n;
                    memcpy(&n, h + 8, 4);
                    *nfde = n, have_hdr = 1;
                }
            } else if (sh.sh_type == SHT_SYMTAB && (d = elf_getdata(scn, NULL))) {
                size_t n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
                for (size_t i = 0; i < n; i++) {
                    GElf_Sym sym;
                    if (gelf_getsym(d, (int)i, &sym) && GELF_ST_TYPE(sym.st_info) == STT_FUNC &&
                        sym.st_size && sym.st_shndx != SHN_UNDEF)
                        (*nfunc)++;
                }
                have_sym = 1;
            }
        }
        rc = have_sym && *nfunc ? 0 : -1;
        (void)have_hdr; /* no table at all: no FDE */
    }
    pm_elf_close(e, fd);
    return rc;
}

/* Most samples truncated and PROG without unwind tables for most of its
 * functions (BusyBox's Makefile.flags: -fno-asynchronous-unwind-tables
 * -fno-unwind-tables -fomit-frame-pointer): say so, and what to add.  The
 * runtime unwinds by the loaded .eh_frame_hdr; -g's .debug_frame is not
 * loaded. */
static void note_no_unwind(const char *prog, uint64_t taken, uint64_t truncated)
{
    uint64_t nfde, nfunc;
    if (!prog || !taken || truncated * 2 < taken || unwind_coverage(prog, &nfde, &nfunc) ||
        nfde * 2 >= nfunc)
        return;
    pm_note("%llu of %llu samples are truncated: %s has unwind tables (.eh_frame) for %llu of "
            "its %llu functions (compiled with -fno-asynchronous-unwind-tables?), and a stack "
            "ends at its first frame without one: add -fasynchronous-unwind-tables after the "
            "build's own flags", (unsigned long long)truncated, (unsigned long long)taken,
            prog, (unsigned long long)nfde, (unsigned long long)nfunc);
}

static void print_sampled(const struct stk_tree *t, uint32_t n, const int *w, uint64_t all, double min_pct)
{
    size_t nc;
    uint32_t *c = stk_children(t, n, w, &nc);
    for (size_t i = 0; i < nc; i++) {
        const struct stk_node *nd = &t->nodes[c[i]];
        uint64_t tot = stk_count(nd, w, 0), self = stk_count(nd, w, 1);
        double pct = all ? 100.0 * (double)tot / (double)all : 0;
        if (pct < min_pct)
            continue;
        printf("%6.1f%% %6.1f%% %8llu %8llu  %*s%s", pct, all ? 100.0 * (double)self / (double)all : 0,
               (unsigned long long)tot, (unsigned long long)self, 2 * (int)(nd->depth - 1), "",
               nd->name);
        if (*nd->file && nd->line)
            printf("  (%s:%u)", pm_basename(nd->file), nd->line);
        else if (*nd->file) /* (an assembly function's DWARF has no line) */
            printf("  (%s)", pm_basename(nd->file));
        putchar('\n');
        print_sampled(t, c[i], w, all, min_pct);
    }
    free(c);
}

static void print_idle(const struct stk_tree *t, uint32_t n, const int *w, uint64_t all, double min_pct)
{
    size_t nc;
    uint32_t *c = stk_children(t, n, w, &nc);
    for (size_t i = 0; i < nc; i++) {
        const struct stk_node *nd = &t->nodes[c[i]];
        uint64_t tot = stk_count(nd, w, 0);
        if (all && 100.0 * (double)tot / (double)all < min_pct)
            continue;
        printf("%8llu %8llu %8llu %8llu  %*s%s", (unsigned long long)nd->self[STK_TO],
               (unsigned long long)nd->total[STK_TO], (unsigned long long)nd->self[STK_FROM],
               (unsigned long long)nd->total[STK_FROM], 2 * (int)(nd->depth - 1), "", nd->name);
        if (*nd->file && nd->line)
            printf("  (%s:%u)", pm_basename(nd->file), nd->line);
        else if (*nd->file) /* (an assembly function's DWARF has no line) */
            printf("  (%s)", pm_basename(nd->file));
        putchar('\n');
        print_idle(t, c[i], w, all, min_pct);
    }
    free(c);
}

/* Per thread and per CPU (seed 003 R11): the samples of the kinds in w,
 * weighted; the 8 largest threads, every CPU. */
struct tally {
    uint32_t key;
    uint64_t n[STK_NKINDS];
};

/* " in N processes" after the threads of several traces (one a process),
 * else "" */
static const char *in_processes(int ntraces)
{
    static char buf[32];
    if (ntraces < 2)
        return "";
    snprintf(buf, sizeof buf, " in %d processes", ntraces);
    return buf;
}

static int tally_cmp(const void *a, const void *b)
{
    const struct tally *x = a, *y = b;
    uint64_t cx = x->n[0] + x->n[1] + x->n[2], cy = y->n[0] + y->n[1] + y->n[2];
    PI_CMP_RET(cy, cx);
    return x->key < y->key ? -1 : x->key > y->key;
}

static void print_breakdown(const struct stk_tree *t, const int *w, int idle)
{
    struct tally *th = NULL, *cpu = NULL;
    size_t nth = 0, ncpu = 0;
    for (size_t i = 0; i < t->ss.n; i++) {
        const struct pi_sample *s = &t->ss.s[i];
        int k = stk_kind(s);
        if (!w[k])
            continue;
        uint64_t wt = k == STK_SAMPLED ? s->weight : 1;
        for (int pass = 0; pass < 2; pass++) {
            struct tally **v = pass ? &cpu : &th;
            size_t *nv = pass ? &ncpu : &nth;
            uint32_t key = pass ? s->cpu : s->tid;
            size_t j = 0;
            while (j < *nv && (*v)[j].key != key)
                j++;
            if (j == *nv) {
                struct tally *nn = realloc(*v, (*nv + 1) * sizeof *nn);
                if (!nn)
                    goto out;
                *v = nn;
                memset(&nn[j], 0, sizeof nn[j]);
                nn[j].key = key;
                (*nv)++;
            }
            (*v)[j].n[k] += wt;
        }
    }
    qsort(th, nth, sizeof *th, tally_cmp);
    qsort(cpu, ncpu, sizeof *cpu, tally_cmp);
    for (int pass = 0; pass < 2; pass++) {
        struct tally *v = pass ? cpu : th;
        size_t nv = pass ? ncpu : nth, shown = pass ? nv : (nv < 8 ? nv : 8);
        printf("  %s:", pass ? "per CPU" : "per thread");
        for (size_t j = 0; j < shown; j++) {
            if (idle)
                printf("%s %s %u: to %llu, from %llu", j ? ";" : "", pass ? "cpu" : "tid", v[j].key,
                       (unsigned long long)v[j].n[STK_TO], (unsigned long long)v[j].n[STK_FROM]);
            else
                printf("%s %s %u: %llu", j ? ";" : "", pass ? "cpu" : "tid", v[j].key,
                       (unsigned long long)v[j].n[STK_SAMPLED]);
        }
        if (shown < nv)
            printf("; %zu more", nv - shown);
        putchar('\n');
    }
out:
    free(th);
    free(cpu);
}

/* The flame graph of sampled call stacks (stacks.c builds the tree from the
 * traces' SAMPLE records, export-stacks.c draws it: the same SVG as `pmopt
 * export --flamegraph`, embedded).  Timer samples when the traces have
 * them, else idle-transition samples, as export chooses. */
void html_section_flamegraph(FILE *f, const struct report *r)
{
    char **paths = malloc((r->md.ntraces ? (size_t)r->md.ntraces : 1) * sizeof *paths);
    struct stk_tree t;
    memset(&t, 0, sizeof t);
    int loaded = 0;
    if (paths) {
        for (int i = 0; i < r->md.ntraces; i++)
            paths[i] = r->md.infos[i].path;
        loaded = !stk_load(&t, r->md.prog, paths, r->md.ntraces);
    }
    int w[STK_NKINDS] = {0, 0, 0};
    const char *what = "sampled";
    if (t.have[STK_SAMPLED])
        w[STK_SAMPLED] = 1;
    else
        w[STK_TO] = w[STK_FROM] = 1, what = "idle-transition";
    uint64_t all = loaded ? stk_count(&t.nodes[0], w, 0) : 0;
    html_section_begin(f, "flame-graph", "Flame graph (sampled call stacks)", all > 0);
    if (!all) {
        html_not_collected(f, !paths ? "out of memory"
                              : !loaded ? "the traces' stack samples could not be read (the message above says why)"
                                        : "the traces have no sampled call stacks (run with PERFINST_SAMPLE=cpu:1ms "
                                          "or PERFINST_IDLE=both)");
    } else {
        if (w[STK_SAMPLED] && t.ss.has_stats)
            fprintf(f, "<p>%s clock samples every %.3f ms: %llu samples for %llu periods "
                       "(%llu truncated, %llu dropped), %llu threads%s. Width is time; hover a frame "
                       "for its counts.</p>\n",
                    pi_sample_kind_name(t.ss.stats.kind), t.ss.stats.period_ns / 1e6,
                    (unsigned long long)t.ss.stats.taken, (unsigned long long)all,
                    (unsigned long long)t.ss.stats.truncated, (unsigned long long)t.ss.stats.dropped,
                    (unsigned long long)t.ss.stats.threads, in_processes(r->md.ntraces));
        else
            fprintf(f, "<p>%llu %s samples. Hover a frame for its counts.</p>\n", (unsigned long long)all,
                    what);
        char title[512];
        snprintf(title, sizeof title, "%s stacks of %s", what, pm_basename(r->md.prog));
        fputs("<div class=\"svgbox\">\n", f);
        export_flamegraph_svg(&t, w, title, f, 1);
        fputs("</div>\n", f);
    }
    fputs("</section>\n", f);
    stk_free(&t);
    free(paths);
}

static void help(FILE *f)
{
    fprintf(f,
            "usage: pmopt report --tree [--what=sampled|idle|to|from] [--min=PCT] [PROG] TRACE...\n"
            "The calling-context tree of the stacks sampled by PERFINST_SAMPLE (timer samples:\n"
            "cumulative and self counts, in timer periods) and by PERFINST_IDLE (idle-transition\n"
            "samples: to-idle and from-idle base and cumulative counts), named through the\n"
            "symbols and DWARF of the sampled objects (PROG's file for PROG's frames).\n"
            "  --what=W    sampled, idle (to and from), to or from (default: what the traces have)\n"
            "  --min=PCT   leave out nodes under PCT percent of the samples (0)\n");
}

int cmd_report_tree(int argc, char **argv)
{
    static const struct option opts[] = {
        { "tree", no_argument, NULL, 'T' },
        { "what", required_argument, NULL, 'w' },
        { "min", required_argument, NULL, 'm' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *what = NULL;
    double min_pct = 0;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
        switch (c) {
        case 'T': break;
        case 'w': what = optarg; break;
        case 'm': {
            char *end;
            min_pct = strtod(optarg, &end);
            if (end == optarg || *end || min_pct < 0 || min_pct > 100)
                return pm_usage_error("report", "--min=%s: expected a percentage from 0 to 100", optarg);
            break;
        }
        case 'h': help(stdout); return PM_OK;
        default:
            return pm_usage_error("report", "--tree: unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    int show_sampled = 1, show_idle = 1, w_idle[STK_NKINDS] = {0, 1, 1};
    if (what) {
        if (!strcmp(what, "sampled"))
            show_idle = 0;
        else if (!strcmp(what, "idle"))
            show_sampled = 0;
        else if (!strcmp(what, "to"))
            show_sampled = 0, w_idle[STK_FROM] = 0;
        else if (!strcmp(what, "from"))
            show_sampled = 0, w_idle[STK_TO] = 0;
        else
            return pm_usage_error("report", "--what=%s: expected sampled, idle, to or from", what);
    }
    const char *prog;
    char **traces;
    int ntraces;
    stk_operands(argc - optind, argv + optind, &prog, &traces, &ntraces);
    if (!ntraces)
        return pm_usage_error("report", "--tree: no TRACE given");
    struct stk_tree t;
    if (stk_load(&t, prog, traces, ntraces)) {
        stk_free(&t);
        return PM_ERROR;
    }
    int shown = 0;
    if (show_sampled && t.have[STK_SAMPLED]) {
        static const int w[STK_NKINDS] = {1, 0, 0};
        uint64_t all = t.nodes[0].total[STK_SAMPLED];
        const struct pi_rec_sample_stats *s = &t.ss.stats;
        printf("sampled stacks: %s clock, period %.3f ms: %llu samples for %llu periods, "
               "%llu truncated, %llu dropped, %llu threads%s\n",
               t.ss.has_stats ? pi_sample_kind_name(s->kind) : "?",
               t.ss.has_stats ? s->period_ns / 1e6 : 0.0,
               (unsigned long long)(t.ss.has_stats ? s->taken : 0), (unsigned long long)all,
               (unsigned long long)(t.ss.has_stats ? s->truncated : 0),
               (unsigned long long)(t.ss.has_stats ? s->dropped : 0),
               (unsigned long long)(t.ss.has_stats ? s->threads : 0), in_processes(ntraces));
        print_breakdown(&t, w, 0);
        printf("  total%%   self%%    total     self  function\n");
        print_sampled(&t, 0, w, all, min_pct);
        if (t.ss.has_stats)
            note_no_unwind(prog, s->taken, s->truncated);
        shown = 1;
    }
    if (show_idle && (t.have[STK_TO] || t.have[STK_FROM] || t.ss.has_idle)) {
        const struct pi_rec_idle_stats *s = &t.ss.idle;
        if (shown)
            putchar('\n');
        printf("idle-transition stacks: ticks %llu, idle %llu, busy %llu, skipped %llu, lost %llu "
               "(de-duplicated %llu; restarted calls %llu); to-idle %llu, from-idle %llu; "
               "period %.3f ms, %u CPUs, samplers %s\n",
               (unsigned long long)s->ticks, (unsigned long long)s->idle,
               (unsigned long long)s->busy, (unsigned long long)s->skipped,
               (unsigned long long)s->lost, (unsigned long long)s->dup,
               (unsigned long long)s->eintr, (unsigned long long)t.nodes[0].total[STK_TO],
               (unsigned long long)t.nodes[0].total[STK_FROM], s->period_ns / 1e6, s->ncpus,
               s->fifo ? "SCHED_FIFO" : "SCHED_OTHER");
        print_breakdown(&t, w_idle, 1);
        printf(" to-base   to-cum from-base from-cum  function\n");
        print_idle(&t, 0, w_idle, stk_count(&t.nodes[0], w_idle, 0), min_pct);
        shown = 1;
    }
    if (!shown)
        pm_note("no stack samples in the traces (run with PERFINST_SAMPLE=cpu:1ms or PERFINST_IDLE=both)");
    stk_free(&t);
    return PM_OK;
}
