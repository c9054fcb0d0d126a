/* report-sharing.c — pmopt report --sharing PROG TRACE: who fights over
 * which cache lines, true or false sharing, named by variable, struct
 * field, allocation site and source line (docs/sharing.md).  A view of the
 * model (sharing-model.c): the lines ranked by the estimated gain of a fix,
 * then one verdict per object with its prediction at other placements, and
 * the heat map (--heatmap); and the same lines and heat map as the sharing
 * section of pmopt report --html's page.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "report.h"
#include "report-html.h"
#include "sharing.h"

/* The figure of a row: observed reloads, or a bound when none was observed. */
static void print_figures(const struct sh_line_row *r, const struct sh_analysis *a)
{
    if (r->rf || !(r->verdict & SH_V_FALSE))
        printf("reloads: %llu true, %llu false", (unsigned long long)r->rt, (unsigned long long)r->rf);
    else
        printf("reloads: %llu true, 0 false observed (the threads' accesses did not interleave in this run); "
               "false reloads bound %llu",
               (unsigned long long)r->rt, (unsigned long long)r->bound);
    printf("  est. cost %.0f cycles, gain of a fix %.0f\n", r->cost, r->gain);
    (void)a;
}

/* A row's sites, one line per source place, thread, access kind and bytes:
 * two sites of one source line (a loop's head and its body, say) that
 * touch the same bytes are one line, their counts summed. */
struct site_line {
    char *text;
    size_t first;
    unsigned long long acc, rt, rf;
};

static int by_text(const void *x, const void *y)
{
    const struct site_line *p = x, *q = y;
    int c = strcmp(p->text, q->text);
    return c ? c : (p->first > q->first) - (p->first < q->first);
}

static int by_first(const void *x, const void *y)
{
    const struct site_line *p = x, *q = y;
    return (p->first > q->first) - (p->first < q->first);
}

static void print_sites(const struct sh_analysis *a, const struct sh_line_row *r)
{
    if (!r->nsite)
        return;
    struct site_line *v = calloc(r->nsite, sizeof *v);
    if (!v) {
        rep_oom();
        exit(PM_ERROR);
    }
    for (size_t i = 0; i < r->nsite; i++) {
        const struct pi_share_site_v *s = &a->s.sites[a->site_order[r->site0 + i]];
        char where[512], nm[1024], line[1700];
        sh_site_where(a, s->rec.pc, where, sizeof where);
        sh_names_of(a, r, s->rec.mask, nm, sizeof nm);
        snprintf(line, sizeof line, "at %s: T%u %s %s", where, s->rec.thread,
                 s->rec.flags & PI_ACCESS_WRITE ? (s->rec.flags & PI_ACCESS_READ ? "reads+writes" : "writes") : "reads",
                 nm);
        v[i] = (struct site_line){.text = strdup(line), .first = i, .acc = s->rec.accesses,
                                  .rt = s->rec.reloads_true, .rf = s->rec.reloads_false};
        if (!v[i].text) {
            rep_oom();
            exit(PM_ERROR);
        }
    }
    qsort(v, r->nsite, sizeof *v, by_text);
    size_t n = 0;
    for (size_t i = 0; i < r->nsite; i++) {
        if (n && !strcmp(v[n - 1].text, v[i].text)) {
            v[n - 1].acc += v[i].acc;
            v[n - 1].rt += v[i].rt;
            v[n - 1].rf += v[i].rf;
            free(v[i].text);
            continue;
        }
        v[n++] = v[i];
    }
    qsort(v, n, sizeof *v, by_first);
    for (size_t i = 0; i < n; i++) {
        printf("    %s: %llu accesses, reloads %llu true, %llu false\n", v[i].text, v[i].acc, v[i].rt, v[i].rf);
        free(v[i].text);
    }
    free(v);
}

/* A heap object's allocation stack, once: where the object (or another
 * with the same stack) first appears. */
static void print_stack(const struct sh_analysis *a, int oi, char *stack_shown)
{
    if (oi < 0 || a->objs[oi].kind != SH_OBJ_HEAP)
        return;
    if (a->objs[oi].stack_as >= 0)
        oi = a->objs[oi].stack_as;
    if (stack_shown[oi])
        return;
    stack_shown[oi] = 1;
    const struct pi_share_alloc_v *al = a->objs[oi].alloc;
    printf("    allocated at:");
    for (uint32_t k = 0; k < al->rec.nframes; k++) {
        char where[512];
        sh_site_where(a, al->frames[k], where, sizeof where);
        printf("%s %s", k ? " <-" : "", where);
    }
    printf("\n");
}

static void print_row(const struct sh_analysis *a, const struct sh_line_row *r, int rank, char *stack_shown)
{
    char buf[2048], ln[300];
    printf("#%d  line %s  %s  ", rank, sh_line_name(a, r->addr, ln, sizeof ln), sh_verdict(r->verdict));
    print_figures(r, a);
    sh_objects_of_row(a, r, buf, sizeof buf);
    printf("    objects: %s\n", buf);
    for (int b = 0; b < (int)PI_SHARE_LINE; b++) /* heap objects: the allocation's call stack, once */
        print_stack(a, r->obj[b], stack_shown);
    for (int k = 0; k < r->nthr; k++) {
        const struct sh_thr_row *t = &r->thr[k];
        char rn[1024], wn[1024], cpu[24] = "?";
        sh_names_of(a, r, t->rmask, rn, sizeof rn);
        sh_names_of(a, r, t->wmask, wn, sizeof wn);
        if (t->cpu != ~0u)
            snprintf(cpu, sizeof cpu, "%u", t->cpu);
        printf("    thread T%u (tid %u, cpu %s): %llu reads [%s], %llu writes [%s]; reloads %llu true, %llu false\n",
               t->thread, t->tid, cpu, (unsigned long long)t->reads, rn[0] ? rn : "-",
               (unsigned long long)t->writes, wn[0] ? wn : "-", (unsigned long long)t->rt,
               (unsigned long long)t->rf);
    }
    printf("    areas:");
    for (unsigned k = 0; k < PI_SHARE_AREAS; k++)
        if (r->area_true[k] || r->area_false[k])
            printf(" +%u: %llu true %llu false;", k * (PI_SHARE_LINE / PI_SHARE_AREAS),
                   (unsigned long long)r->area_true[k], (unsigned long long)r->area_false[k]);
    printf("\n");
    print_sites(a, r);
}

/* One verdict per object: those two or more threads use, and those in
 * false sharing with their neighbours. */
static void print_objects(const struct sh_analysis *a, char *stack_shown)
{
    int any = 0;
    for (size_t i = 0; i < a->nobjs; i++) {
        const struct sh_object *o = &a->objs[i];
        if ((!o->analysed && !o->verdict_false) || !strcmp(o->verdict, "no false sharing at any placement"))
            continue; /* (only what there is to say) */
        int nline = 0, npair = 0;
        for (unsigned k = 0; k < SH_PLACEMENTS; k++)
            nline += (o->pv[k] & SH_V_FALSE) != 0;
        for (unsigned k = 0; k < SH_PAIR_PLACEMENTS; k++)
            npair += (o->pv_pair[k] & SH_V_FALSE) != 0;
        if (!any++)
            printf("\nObjects: one verdict each, from the bytes each thread reads and writes and which threads run at "
                   "once\n(fork/join epochs): the same in every run of the program.  Placements: the object at every "
                   "8-byte\noffset of a line and of a 128-byte pair (adjacent-line prefetch); est. false reloads\n");
        printf("  %s (%s, %llu bytes, at +%d of its line this run): %s", o->name, sh_kind_name(o->kind),
               (unsigned long long)o->size, o->actual_off, o->verdict);
        if (o->verdict_false)
            printf("; false reloads: %llu %s", (unsigned long long)o->est_false,
                   o->est_observed ? "observed" : "(a bound from the access counts: none observed in this run)");
        if (o->analysed && o->plain_off >= 0 && (o->kind == SH_OBJ_GLOBAL || o->plain_off != o->actual_off))
            printf("; at the plain build's placement (+%d): %s", o->plain_off,
                   (o->v_plain & SH_V_FALSE) ? "FALSE sharing" : "no false sharing");
        printf("\n");
        print_stack(a, (int)i, stack_shown);
        if (nline) {
            printf("    line placements:");
            for (unsigned k = 0; k < SH_PLACEMENTS; k++)
                printf(" +%u:%llu", 8 * k, (unsigned long long)((o->pv[k] & SH_V_FALSE) ? o->pred[k] : 0));
            printf("\n");
        }
        if (npair) {
            printf("    128-byte pair placements:");
            for (unsigned k = 0; k < SH_PAIR_PLACEMENTS; k++)
                printf(" +%u:%llu", 8 * k, (unsigned long long)((o->pv_pair[k] & SH_V_FALSE) ? o->pred_pair[k] : 0));
            printf("\n");
        }
    }
}

static size_t count_shared(const struct sh_analysis *a)
{
    size_t n = 0;
    for (size_t i = 0; i < a->nrows; i++)
        n += a->rows[i].shared;
    return n;
}

/* What did not fit in the runtime's tables (PI_REC_SHARE_STATS). */
static void print_losses(const struct pi_share *s)
{
    const struct pi_rec_share_stats *t = &s->stats;
    if (!s->has_stats)
        return;
    if (t->lines_lost)
        printf("(lost: %llu accesses to lines beyond the %llu line records: PERFINST_SHARING_LINES)\n",
               (unsigned long long)t->lines_lost, (unsigned long long)t->lines_max);
    if (t->sites_lost)
        printf("(lost: the sites of %llu accesses, beyond the %llu (code address, line, thread) records: "
               "PERFINST_SHARING_SITES; the lines' counts have them, the code addresses listed do not)\n",
               (unsigned long long)t->sites_lost, (unsigned long long)t->sites_max);
    if (t->allocs_lost)
        printf("(lost: %llu allocations beyond the %llu recorded: PERFINST_SHARING_ALLOCS; their lines are named by "
               "their mapping)\n", (unsigned long long)t->allocs_lost, (unsigned long long)t->allocs_max);
    if (t->threads_lost)
        printf("(lost: %llu threads beyond the %llu numbered, counted as the last: PERFINST_SHARING_THREADS)\n",
               (unsigned long long)t->threads_lost, (unsigned long long)t->threads_max);
    if (t->private_dropped)
        printf("(not written: %llu private lines beyond %llu, which the prediction would use: "
               "PERFINST_SHARING_PRIVATE)\n", (unsigned long long)t->private_dropped,
               (unsigned long long)t->private_max);
    if (t->nofast_threads)
        printf("(%llu threads ran without a fast-path id: more than 250 at once; their accesses were all checked)\n",
               (unsigned long long)t->nofast_threads);
}

/* ---- the heat map: which bytes each thread reads and writes ------------ */

static void svg_text(FILE *f, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
}

/* The one heat map writer: a standalone SVG file (--heatmap) or, with
 * embedded, an <svg> element for an HTML page (pmopt report --html's
 * sharing section, below).  The top lines with reloads; 0, or -1 on a write error. */
int sh_heatmap_svg(const struct sh_analysis *a, long top, FILE *f, int embedded)
{
    static const char *const colors[] = {"#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
                                         "#e377c2", "#17becf"};
    size_t nrows = 0;
    while (nrows < a->nrows && nrows < (size_t)top && a->rows[a->rank[nrows]].verdict)
        nrows++;
    int cell = 12, left = 150, y = 40, width = left + 64 * cell + 20;
    int height = 60;
    for (size_t i = 0; i < nrows; i++)
        height += 40 + (a->rows[a->rank[i]].nthr) * (cell + 4) + 10;
    if (!embedded)
        fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"pi-heatmap\" width=\"%d\" height=\"%d\" font-family=\"monospace\" "
               "font-size=\"11\">\n<title>perfinst: cache-line heat map of ",
            width, height);
    svg_text(f, a->prog);
    fprintf(f, "</title>\n<text x=\"10\" y=\"20\" font-size=\"14\">Cache lines by estimated gain: per thread, "
               "dark = written, light = read only (hover a byte for its name)</text>\n");
    for (size_t i = 0; i < nrows; i++) {
        const struct sh_line_row *r = &a->rows[a->rank[i]];
        char objs[1024], ln[300];
        sh_objects_of_row(a, r, objs, sizeof objs);
        sh_line_name(a, r->addr, ln, sizeof ln);
        fprintf(f, "<text x=\"10\" y=\"%d\" font-weight=\"bold\">#%zu line ", y + 14, i + 1);
        svg_text(f, ln);
        fprintf(f, ": %s, %llu true / %llu false "
                   "reloads: ",
                sh_verdict(r->verdict), (unsigned long long)r->rt,
                (unsigned long long)r->rf);
        svg_text(f, objs);
        fprintf(f, "</text>\n");
        y += 24;
        for (int b = 0; b < 64; b += 8)
            fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#666\">+%d</text>\n", left + b * cell, y + 10, b);
        y += 14;
        for (int k = 0; k < r->nthr; k++) {
            const struct sh_thr_row *t = &r->thr[k];
            const char *col = colors[(t->thread - 1) % 8];
            fprintf(f, "<text x=\"10\" y=\"%d\">T%u (tid %u)</text>\n", y + cell - 2, t->thread, t->tid);
            for (int b = 0; b < 64; b++) {
                int w = (int)((t->wmask >> b) & 1), rd = (int)((t->rmask >> b) & 1);
                char nm[160];
                sh_name_bytes(a, r, b, b + 1, nm, sizeof nm);
                fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" fill-opacity=\"%s\" "
                           "stroke=\"#ccc\"><title>+%d ",
                        left + b * cell, y, cell, cell, w || rd ? col : "#fff", w ? "1" : rd ? "0.35" : "1", b);
                svg_text(f, nm);
                fprintf(f, ": %s</title></rect>\n", w && rd ? "read and written" : w ? "written" : rd ? "read" : "-");
            }
            y += cell + 4;
        }
        y += 10;
    }
    fprintf(f, "</svg>\n");
    return ferror(f) ? -1 : 0;
}

static int heatmap(const struct sh_analysis *a, const char *path, long top)
{
    FILE *f = pm_create(path);
    if (!f)
        return -1;
    if (sh_heatmap_svg(a, top, f, 0) | fclose(f)) {
        pm_error("%s: write failed: %m", path);
        return -1;
    }
    return 0;
}

#define HTML_HEATMAP_LINES 20   /* lines in each embedded heat map */

/* One trace's ranked sharing lines (report-sharing.c analyses them, as for
 * `pmopt report --sharing`) as a table, then their heat map (the same SVG
 * as --heatmap, embedded). */
static void sharing_trace(FILE *f, const struct sh_analysis *a, int idx)
{
    uint64_t rt = 0, rf = 0;
    size_t nrel = 0;
    for (size_t i = 0; i < a->nrows; i++) {
        rt += a->rows[i].rt, rf += a->rows[i].rf;
        nrel += a->rows[i].verdict != 0;
    }
    fputs("<h3>", f);
    html_esc(f, a->trace);
    fprintf(f, "</h3>\n<p>%zu threads; %zu lines touched by threads, %zu with sharing; "
               "reloads: %llu true, %llu false.",
            a->s.nthreads, a->nrows, nrel, (unsigned long long)rt, (unsigned long long)rf);
    if (a->period > 1)
        fprintf(f, " Sampled: 1 in %u accesses to shared lines; counts on shared lines are estimates.", a->period);
    fputs(" Ranked by the estimated gain of a fix.</p>\n", f);
    if (!nrel) {
        fputs("<p class=\"none\">no line with sharing</p>\n", f);
        return;
    }
    fprintf(f, "<table id=\"sharing-lines-%d\" class=\"sharing-lines\">\n<thead><tr>"
               "<th class=\"n\" onclick=\"piSort(this)\">#</th><th onclick=\"piSort(this)\">line</th>"
               "<th onclick=\"piSort(this)\">verdict</th>"
               "<th class=\"n\" onclick=\"piSort(this)\">true</th>"
               "<th class=\"n\" onclick=\"piSort(this)\">false</th>"
               "<th class=\"n\" onclick=\"piSort(this)\">est. cycles</th>"
               "<th class=\"n\" onclick=\"piSort(this)\">gain of a fix</th>"
               "<th>objects</th><th>writes per thread</th></tr></thead>\n<tbody>\n", idx);
    size_t n = nrel < HTML_MAX_ROWS ? nrel : HTML_MAX_ROWS;
    for (size_t i = 0; i < n; i++) {
        const struct sh_line_row *row = &a->rows[a->rank[i]];
        char buf[2048];
        fprintf(f, "<tr><td class=\"n\">%zu</td><td><code>0x%llx</code></td><td>%s</td>"
                   "<td class=\"n\">%llu</td><td class=\"n\">%llu</td><td class=\"n\">%.0f</td>"
                   "<td class=\"n\">%.0f</td><td>",
                i + 1, (unsigned long long)row->addr, sh_verdict(row->verdict),
                (unsigned long long)row->rt, (unsigned long long)row->rf, row->cost, row->gain);
        sh_objects_of_row(a, row, buf, sizeof buf);
        html_esc(f, buf);
        fputs("</td><td>", f);
        for (int k = 0; k < row->nthr; k++) {
            sh_names_of(a, row, row->thr[k].wmask, buf, sizeof buf);
            fprintf(f, "%sT%u: <code>", k ? "<br>" : "", row->thr[k].thread);
            html_esc(f, buf[0] ? buf : "-");
            fputs("</code>", f);
        }
        fputs("</td></tr>\n", f);
    }
    fputs("</tbody>\n</table>\n", f);
    if (n < nrel)
        fprintf(f, "<p class=\"none\">%zu more in pmopt report --sharing</p>\n", nrel - n);
    fputs("<div class=\"svgbox\">\n", f);
    sh_heatmap_svg(a, HTML_HEATMAP_LINES, f, 1);
    fputs("</div>\n", f);
}

/* Cache-line sharing: per trace with sharing records (PI_TF_SHARING). */
void html_section_sharing(FILE *f, const struct report *r)
{
    char *body = NULL;
    size_t size = 0;
    FILE *m = open_memstream(&body, &size);
    int shown = 0, failed = 0;
    for (int i = 0; m && i < r->md.ntraces; i++) {
        if (!(r->md.infos[i].flags & PI_TF_SHARING))
            continue;
        struct sh_analysis a;
        memset(&a, 0, sizeof a);
        if (sh_analyze(&a, r->md.prog, r->md.infos[i].path, r->md.force))
            failed++;
        else
            sharing_trace(m, &a, shown++);
        sh_free(&a);
    }
    if (m)
        fclose(m);
    html_section_begin(f, "sharing", "Cache-line sharing", shown > 0);
    if (shown)
        fwrite(body, 1, size, f);
    else
        html_not_collected(f, !m ? "out of memory"
                              : failed ? "the traces' sharing records could not be read (the message above says why)"
                                       : "the traces have no sharing records (build with "
                                         "-fplugin-arg-perfinst-sharing=all or a `sharing` directive)");
    free(body);
    fputs("</section>\n", f);
}

static void help(FILE *f)
{
    fprintf(f,
            "usage: pmopt report --sharing [OPTIONS] PROG TRACE...\n"
            "Cache lines two or more threads touched (programs built with\n"
            "-fplugin-arg-perfinst-sharing=all or `sharing` directives): objects and struct fields\n"
            "in them, threads, the source lines of the accesses, reloads classified as true or\n"
            "false sharing, estimated cost, ranked by the estimated gain of a fix; then the\n"
            "false sharing each object would have at other placements.  Several traces (runs of\n"
            "PROG) are merged first, as `pmopt merge` does: their counts add up.\n"
            "  --top=N|all          the N lines with the largest gain (50; all: every one)\n"
            "  --reload-cycles=C    cost of one reload in cycles (100)\n"
            "  --heatmap=FILE.svg   also a heat map of the lines: bytes each thread reads, writes\n"
            "  --plain=PLAIN        the build without perfinst: its globals' placements are judged too\n"
            "  --force              read a trace of a different build of PROG\n"
            "  --stats              the analysis' size and work on stderr\n");
}

int cmd_report_sharing(int argc, char **argv)
{
    static const struct option opts[] = {
        {"sharing", no_argument, NULL, 's'},    {"top", required_argument, NULL, 't'},
        {"heatmap", required_argument, NULL, 'm'}, {"reload-cycles", required_argument, NULL, 'c'},
        {"force", no_argument, NULL, 'f'},      {"help", no_argument, NULL, 'h'},
        {"stats", no_argument, NULL, 'S'},      {"plain", required_argument, NULL, 'p'},
        {NULL, 0, NULL, 0},
    };
    long top = 50; /* 0: all */
    double cycles = 100;
    const char *map = NULL, *plain = NULL;
    int force = 0, stats = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        char *end;
        switch (c) {
        case 's': break;
        case 't':
            if (!strcmp(optarg, "all")) {
                top = 0;
                break;
            }
            top = strtol(optarg, &end, 10);
            if (*end || top <= 0)
                return pm_usage_error("report", "--top: '%s' is not a positive number or all", optarg);
            break;
        case 'c':
            cycles = strtod(optarg, &end);
            if (*end || !(cycles > 0))
                return pm_usage_error("report", "--reload-cycles: '%s' is not a positive number", optarg);
            break;
        case 'm':
            if (!*optarg)
                return pm_usage_error("report", "--heatmap: empty file name");
            map = optarg;
            break;
        case 'f': force = 1; break;
        case 'S': stats = 1; break;
        case 'p': plain = optarg; break;
        case 'h': help(stdout); return PM_OK;
        default: return pm_usage_error("report", "unknown option");
        }
    }
    if (argc - optind < 2)
        return pm_usage_error("report", "--sharing needs PROG and at least one TRACE");
    struct sh_analysis a;
    memset(&a, 0, sizeof a);
    a.reload_cycles = cycles;
    a.plain = plain;
    if (sh_analyze_traces(&a, argv[optind], argv + optind + 1, argc - optind - 1, force)) {
        sh_free(&a);
        return PM_ERROR;
    }
    uint64_t rt = 0, rf = 0;
    size_t nrel = 0;
    for (size_t i = 0; i < a.nrows; i++) {
        rt += a.rows[i].rt, rf += a.rows[i].rf;
        nrel += a.rows[i].verdict != 0;
    }
    /* lines without writes while others use them (read-shared data) are not listed */
    size_t n = top > 0 && (size_t)top < nrel ? (size_t)top : nrel;
    printf("Cache-line sharing in %s (%zu threads; %zu lines touched by more than one thread, %zu with sharing; "
           "reloads: %llu true, %llu false)\n",
           a.trace, a.s.nthreads, count_shared(&a), nrel, (unsigned long long)rt, (unsigned long long)rf);
    if (a.period > 1)
        printf("(sampled: 1 in %u accesses to shared lines, on average, and the next access of its thread judged "
               "(PERFINST_SHARING_PERIOD); access and reload counts on shared lines are estimates, scaled by %u)\n",
               a.period, a.period);
    printf("(verdicts: from the bytes each thread reads and writes and %s; reload counts: observed in this run)\n",
           a.epochs ? "which threads run at once (fork/join epochs)" : "all threads counted as running at once (a trace "
                                                                       "without fork/join epochs)");
    print_losses(&a.s);
    char *stack_shown = calloc(a.nobjs + 1, 1);
    if (!stack_shown) {
        sh_free(&a);
        return rep_oom();
    }
    for (size_t i = 0; i < n; i++) {
        printf("\n");
        print_row(&a, &a.rows[a.rank[i]], (int)i + 1, stack_shown);
    }
    if (n < nrel)
        printf("\n(%zu more lines with sharing, of smaller gain: --top=all lists every one)\n", nrel - n);
    print_objects(&a, stack_shown);
    free(stack_shown);
    if (stats)
        sh_print_stats(&a);
    int rc = map && heatmap(&a, map, top > 0 ? top : 50) ? PM_ERROR : PM_OK;
    sh_free(&a);
    return rc;
}
