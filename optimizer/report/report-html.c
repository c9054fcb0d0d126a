/* report-html.c — pmopt report --html=FILE: the report as one self-contained
 * page a browser opens from disk: inline CSS, a few lines of inline JS
 * (sorting and filtering tables) and inline SVG; no external file, font or
 * network request.
 *
 * Sections (each a <section id=...> with data-status="collected" or
 * "not-collected", which tests/pmopt/t-html.sh checks):
 *   summary        PROG, its build-id, the traces and the totals;
 *   hot-functions  a bar chart (SVG) and the table of functions by block
 *                  executions;
 *   hot-lines      source lines by count, with the line's text when the
 *                  source file is readable;
 *   call-tree      the callers of marked code from the stacks of threshold
 *                  events (--callers' tree), as nested <details>;
 *   flame-graph    html_section_flamegraph(): the flame graph of the traces'
 *                  stack samples (PERFINST_SAMPLE, else PERFINST_IDLE), the
 *                  SVG of `pmopt export --flamegraph` (export-stacks.c);
 *   sharing        html_section_sharing(): per trace with sharing records,
 *                  the ranked lines of `pmopt report --sharing` as a table
 *                  and their heat map, the SVG of --heatmap (report-sharing.c).
 * The page uses the same views as the text report (cmd-report.c builds
 * them), so their numbers are the same.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "sharing.h"
#include "stacks.h"

#define HTML_MAX_ROWS 200   /* rows per table; the text report has them all */
#define HTML_MAX_BARS 20    /* bars in the functions' chart */

static void esc(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default:
            /* control characters (but tab) have no place in a page */
            if ((unsigned char)*s < 0x20 && *s != '\t')
                fputc('?', f);
            else
                fputc(*s, f);
        }
    }
}

static const char css[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#222;background:#fafafa}"
    "header{background:#243447;color:#fff;padding:14px 24px}"
    "header h1{margin:0;font-size:20px}header p{margin:4px 0 0;color:#cfd8e3}"
    "main{padding:8px 24px 32px;max-width:1200px}"
    "section{background:#fff;border:1px solid #ddd;border-radius:6px;margin:16px 0;padding:8px 16px}"
    "section h2{font-size:16px;margin:8px 0}"
    "table{border-collapse:collapse;width:100%;font-size:13px}"
    "th,td{padding:3px 8px;border-bottom:1px solid #eee;text-align:left;white-space:nowrap}"
    "th{cursor:pointer;background:#f0f3f6;user-select:none}"
    "td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}"
    "td.src{font-family:monospace;white-space:pre;color:#444}"
    ".heat{display:inline-block;height:10px;background:#e8590c;border-radius:2px}"
    ".none{color:#888;font-style:italic}"
    ".cards{display:flex;gap:12px;flex-wrap:wrap}"
    ".card{background:#f0f3f6;border-radius:6px;padding:8px 14px}"
    ".card b{display:block;font-size:18px}"
    "details{margin-left:18px}summary{cursor:pointer}"
    "input{margin:4px 0 8px;padding:3px 6px;width:280px}"
    "code{font-size:12px}"
    ".svgbox{overflow-x:auto;margin:8px 0}svg.pi-flame{max-width:100%;height:auto}h3{font-size:14px;margin:12px 0 4px}"
    "table.sharing-lines td{white-space:normal;vertical-align:top}";

/* Sort a table by a column (numbers in td.n), filter rows by a text box. */
static const char js[] =
    "function piSort(th){var t=th.closest('table'),b=t.tBodies[0],i=th.cellIndex,"
    "n=th.classList.contains('n'),d=th.dataset.d=th.dataset.d==='1'?'-1':'1',"
    "r=Array.prototype.slice.call(b.rows);r.sort(function(x,y){var a=x.cells[i].dataset.v||"
    "x.cells[i].textContent,c=y.cells[i].dataset.v||y.cells[i].textContent;"
    "return(n?(Number(a)-Number(c)):a.localeCompare(c))*d;});"
    "r.forEach(function(e){b.appendChild(e);});}"
    "function piFilter(inp,id){var q=inp.value.toLowerCase(),b=document.getElementById(id)"
    ".tBodies[0];Array.prototype.forEach.call(b.rows,function(e){e.style.display="
    "e.textContent.toLowerCase().indexOf(q)<0?'none':'';});}";

static void section_begin(FILE *f, const char *id, const char *title, int collected)
{
    fprintf(f, "<section id=\"%s\" data-status=\"%s\">\n<h2>%s</h2>\n", id,
            collected ? "collected" : "not-collected", title);
}

static void not_collected(FILE *f, const char *why)
{
    fputs("<p class=\"none\">not collected: ", f);
    esc(f, why);
    fputs("</p>\n", f);
}

/* ---- summary ------------------------------------------------------------- */

static uint64_t total_blocks(const struct report *r)
{
    uint64_t t = 0;
    for (size_t i = 0; i < r->md.nfuncs; i++)
        t = pm_sat_add(t, r->md.funcs[i].blocks);
    return t;
}

static void html_section_summary(FILE *f, const struct report *r)
{
    section_begin(f, "summary", "Summary", 1);
    const char *hot = r->md.nfuncs && r->md.funcs[0].blocks
        ? r->md.funcs[0].name : "-";
    fprintf(f, "<div class=\"cards\">\n<div class=\"card\">block executions<b>%llu</b></div>\n"
               "<div class=\"card\">functions<b>%zu</b></div>\n"
               "<div class=\"card\">traces<b>%d</b></div>\n<div class=\"card\">hottest function<b>",
            (unsigned long long)total_blocks(r), r->md.nfuncs, r->md.ntraces);
    esc(f, hot);
    fputs("</b></div>\n</div>\n<table>\n<thead><tr><th>trace</th><th class=\"n\">records</th>"
          "<th>state</th></tr></thead>\n<tbody>\n", f);
    for (int i = 0; i < r->md.ntraces; i++) {
        const struct trace_info *in = &r->md.infos[i];
        fputs("<tr><td>", f);
        esc(f, in->path);
        fprintf(f, "</td><td class=\"n\">%u</td><td>%s%s%s</td></tr>\n", in->nrecords,
                pm_trace_state(in->finished, in->flags), in->flags & PI_TF_MERGED ? ", merged" : "",
                in->flags & PI_TF_MODE_OFF ? ", PERFINST_MODE=off" : "");
    }
    fputs("</tbody>\n</table>\n</section>\n", f);
}

/* ---- hot functions and lines ---------------------------------------------- */

static void bar_chart(FILE *f, const struct report *r)
{
    size_t n = r->md.nfuncs < HTML_MAX_BARS ? r->md.nfuncs : HTML_MAX_BARS;
    while (n && !r->md.funcs[n - 1].blocks)
        n--;
    if (!n)
        return;
    const int w = 900, label = 260, bh = 18, gap = 4;
    uint64_t max = r->md.funcs[0].blocks;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%zu\" "
               "role=\"img\" aria-label=\"block executions per function\">\n",
            w, n * (bh + gap) + gap);
    for (size_t i = 0; i < n; i++) {
        const struct func_row *row = &r->md.funcs[i];
        double frac = (double)row->blocks / (double)max;
        int bw = (int)(frac * (w - label - 120));
        if (bw < 1)
            bw = 1;
        /* hotter is redder: hue 45 (yellow) down to 0 (red) */
        int hue = (int)(45 * (1 - frac));
        size_t y = gap + i * (bh + gap);
        fprintf(f, "<text x=\"%d\" y=\"%zu\" font-size=\"12\" text-anchor=\"end\" "
                   "font-family=\"monospace\">", label - 6, y + bh - 5);
        esc(f, row->name);
        fprintf(f, "</text><rect x=\"%d\" y=\"%zu\" width=\"%d\" height=\"%d\" rx=\"2\" "
                   "fill=\"hsl(%d,85%%,50%%)\"/><text x=\"%d\" y=\"%zu\" font-size=\"12\">%llu</text>\n",
                label, y, bw, bh, hue, label + bw + 6, y + bh - 5,
                (unsigned long long)row->blocks);
    }
    fputs("</svg>\n", f);
}

static void html_section_functions(FILE *f, const struct report *r)
{
    uint64_t total = total_blocks(r);
    section_begin(f, "hot-functions", "Hot functions (block executions)", r->md.nfuncs > 0);
    if (!r->md.nfuncs) {
        not_collected(f, "PROG has no counted functions");
        fputs("</section>\n", f);
        return;
    }
    bar_chart(f, r);
    fputs("<input type=\"search\" placeholder=\"filter functions\" "
          "oninput=\"piFilter(this,'functions')\">\n<table id=\"functions\">\n<thead><tr>"
          "<th class=\"n\" onclick=\"piSort(this)\">blocks</th>"
          "<th class=\"n\" onclick=\"piSort(this)\">share</th>"
          "<th class=\"n\" onclick=\"piSort(this)\">entries</th>"
          "<th onclick=\"piSort(this)\">function</th><th onclick=\"piSort(this)\">file:line</th>"
          "</tr></thead>\n<tbody>\n", f);
    size_t n = r->md.nfuncs < HTML_MAX_ROWS ? r->md.nfuncs : HTML_MAX_ROWS;
    for (size_t i = 0; i < n; i++) {
        const struct func_row *row = &r->md.funcs[i];
        double pct = total ? 100.0 * (double)row->blocks / (double)total : 0;
        fprintf(f, "<tr><td class=\"n\">%llu</td><td class=\"n\" data-v=\"%.4f\">"
                   "<span class=\"heat\" style=\"width:%dpx\"></span> %.1f%%</td>",
                (unsigned long long)row->blocks, pct, (int)(pct * 0.6) + 1, pct);
        if (row->has_entry)
            fprintf(f, "<td class=\"n\">%llu</td>", (unsigned long long)row->entries);
        else
            fputs("<td class=\"n\" data-v=\"-1\">-</td>", f);
        fputs("<td><code>", f);
        esc(f, row->name);
        fputs("</code></td><td>", f);
        esc(f, row->file);
        fprintf(f, ":%u</td></tr>\n", row->line);
    }
    fputs("</tbody>\n</table>\n", f);
    if (n < r->md.nfuncs)
        fprintf(f, "<p class=\"none\">%zu more in the text report</p>\n", r->md.nfuncs - n);
    fputs("</section>\n", f);
}

/* Line `line` of file `path` (the hot lines' sources; NULL if unreadable). */
static const char *source_line(const char *path, uint32_t line, char *buf, size_t size)
{
    char full[4096];
    FILE *s = fopen(pm_source_path(path, full, sizeof full), "r");
    if (!s)
        return NULL;
    uint32_t at = 1;
    const char *got = NULL;
    while (fgets(buf, (int)size, s)) {
        size_t len = strlen(buf);
        int whole = len && buf[len - 1] == '\n';
        if (at == line) {
            if (whole)
                buf[len - 1] = 0;
            got = buf;
            break;
        }
        if (whole)
            at++;
    }
    fclose(s);
    return got;
}

static void html_section_lines(FILE *f, const struct report *r)
{
    section_begin(f, "hot-lines", "Hot lines (a line's count is the largest count among its "
                  "blocks, as gcov shows it)", r->md.nlines > 0);
    if (!r->md.nlines) {
        not_collected(f, "no site has a source line");
        fputs("</section>\n", f);
        return;
    }
    fputs("<table id=\"lines\">\n<thead><tr><th class=\"n\" onclick=\"piSort(this)\">count</th>"
          "<th onclick=\"piSort(this)\">file:line</th><th>source</th></tr></thead>\n<tbody>\n", f);
    size_t n = r->md.nlines < HTML_MAX_ROWS ? r->md.nlines : HTML_MAX_ROWS;
    char buf[512];
    for (size_t i = 0; i < n; i++) {
        const struct line_row *l = &r->md.lines[i];
        fprintf(f, "<tr><td class=\"n\">%llu</td><td>", (unsigned long long)l->count);
        esc(f, l->file);
        fprintf(f, ":%u</td><td class=\"src\">", l->line);
        esc(f, source_line(l->file, l->line, buf, sizeof buf));
        fputs("</td></tr>\n", f);
    }
    fputs("</tbody>\n</table>\n</section>\n", f);
}

/* ---- the call tree ---------------------------------------------------------- */

struct tree_out {
    FILE *f;
    int depth;              /* of the last node written; -1 before the first */
};

static void tree_node(void *ctx, int depth, const char *name, uint64_t count)
{
    struct tree_out *t = ctx;
    /* close the nodes that are not ancestors of this one */
    for (; t->depth >= depth; t->depth--)
        fputs("</details>\n", t->f);
    fputs("<details open><summary><code>", t->f);
    esc(t->f, name);
    fprintf(t->f, "</code> — %llu event%s%s</summary>\n", (unsigned long long)count,
            count == 1 ? "" : "s", depth ? "" : " (marked)");
    t->depth = depth;
}

static void html_section_calltree(FILE *f, const struct report *r)
{
    /* rendered into memory first: the section's status depends on it */
    char *body = NULL;
    size_t size = 0;
    FILE *m = open_memstream(&body, &size);
    if (!m) {
        section_begin(f, "call-tree", "Call tree", 0);
        not_collected(f, "out of memory");
        fputs("</section>\n", f);
        return;
    }
    struct tree_out t = {m, -1};
    uint64_t events = rind_callers_walk(r, tree_node, &t);
    for (; t.depth >= 0; t.depth--)
        fputs("</details>\n", m);
    fclose(m);
    section_begin(f, "call-tree", "Call tree (callers of marked code)", size > 0);
    if (size) {
        fprintf(f, "<p>From the stacks of %llu threshold event%s: each marked function, "
                   "then who called it.</p>\n", (unsigned long long)events, events == 1 ? "" : "s");
        fwrite(body, 1, size, f);
    } else {
        not_collected(f, "no threshold event with a stack for PROG (mark a function "
                         "threshold(count=N) to see who calls it)");
    }
    free(body);
    fputs("</section>\n", f);
}

/* ---- the views other components feed ------------------------------------- */

/* The flame graph of sampled call stacks (stacks.c builds the tree from the
 * traces' SAMPLE records, export-stacks.c draws it: the same SVG as `pmopt
 * export --flamegraph`, embedded).  Timer samples when the traces have
 * them, else idle-transition samples, as export chooses. */
static void html_section_flamegraph(FILE *f, const struct report *r)
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
    section_begin(f, "flame-graph", "Flame graph (sampled call stacks)", all > 0);
    if (!all) {
        not_collected(f, !paths ? "out of memory"
                         : !loaded ? "the traces' stack samples could not be read (the message above says why)"
                                   : "the traces have no sampled call stacks (run with PERFINST_SAMPLE=cpu:1ms "
                                     "or PERFINST_IDLE=both)");
    } else {
        if (w[STK_SAMPLED] && t.ss.has_stats)
            fprintf(f, "<p>%s clock samples every %.3f ms: %llu samples for %llu periods "
                       "(%llu truncated, %llu dropped), %llu threads. Width is time; hover a frame "
                       "for its counts.</p>\n",
                    pi_sample_kind_name(t.ss.stats.kind), t.ss.stats.period_ns / 1e6,
                    (unsigned long long)t.ss.stats.taken, (unsigned long long)all,
                    (unsigned long long)t.ss.stats.truncated, (unsigned long long)t.ss.stats.dropped,
                    (unsigned long long)t.ss.stats.threads);
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
    esc(f, a->trace);
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
        esc(f, buf);
        fputs("</td><td>", f);
        for (int k = 0; k < row->nthr; k++) {
            sh_names_of(a, row, row->thr[k].wmask, buf, sizeof buf);
            fprintf(f, "%sT%u: <code>", k ? "<br>" : "", row->thr[k].thread);
            esc(f, buf[0] ? buf : "-");
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
static void html_section_sharing(FILE *f, const struct report *r)
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
    section_begin(f, "sharing", "Cache-line sharing", shown > 0);
    if (shown)
        fwrite(body, 1, size, f);
    else
        not_collected(f, !m ? "out of memory"
                         : failed ? "the traces' sharing records could not be read (the message above says why)"
                                  : "the traces have no sharing records (build with "
                                    "-fplugin-arg-perfinst-sharing=all or a `sharing` directive)");
    free(body);
    fputs("</section>\n", f);
}

/* ---- the page ----------------------------------------------------------------- */

int rep_html_write(const struct report *r, const char *path)
{
    FILE *f = pm_create(path);
    if (!f)
        return -1;
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", f);
    fputs("pmopt report: ", f);
    esc(f, pm_basename(r->md.prog));
    fprintf(f, "</title>\n<style>%s</style>\n<script>%s</script>\n</head>\n<body>\n<header>\n"
               "<h1>pmopt report: ", css, js);
    esc(f, r->md.prog);
    fprintf(f, "</h1>\n<p>build-id %s · perfinst %s</p>\n</header>\n<main>\n", r->md.bid,
            PERFINST_VERSION);
    html_section_summary(f, r);
    html_section_functions(f, r);
    html_section_lines(f, r);
    html_section_calltree(f, r);
    html_section_flamegraph(f, r);
    html_section_sharing(f, r);
    fputs("</main>\n</body>\n</html>\n", f);
    if (ferror(f) | fclose(f)) {
        pm_error("%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}
