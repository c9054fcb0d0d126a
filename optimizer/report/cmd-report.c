/* pmopt report PROG TRACE... — counts per site, function and source line.
 *
 * model_load (model.c) reads PROG and the traces, sums the counts and builds
 * the three count views (sites, functions, lines, hottest first); this
 * file parses the options and prints those views in text, JSON and CSV,
 * with the views of the indicators' records and the instruction counts
 * (indicators, callers, regions, trace regions, types, watched data per
 * word and per access site: report-ind.c), the page tables and perf
 * counts (report-pages.c), the ranges added at run time (report-ranges.c)
 * and dormant classes (report-dormant.c); and the summary and the
 * functions' and lines' views in HTML, sections of report --html's page
 * (report-html.c).
 */
#include <fcntl.h>
#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gelf.h>
#include <libelf.h>

#include "commands.h"
#include "report.h"
#include "report-html.h"

static void help(FILE *f)
{
    fprintf(f,
            "usage: pmopt report [OPTIONS] PROG TRACE...\n"
            "Counts per site, function and source line, hottest first, summed over the traces;\n"
            "what the indicators saw; instructions executed in regions and trace regions;\n"
            "reads and writes of watched data per word (named through DWARF) and per site.\n"
            "  --format=text|json|csv   output format (text)\n"
            "  --by=VIEW                one view only: site, function, line, indicators,\n"
            "                           regions, trace, types, watch (per word and per site;\n"
            "                           csv: per word), watch-sites or callers (text and json\n"
            "                           show all but callers by default, csv shows sites);\n"
            "                           pages: the performance page table, perf: perf_event\n"
            "                           counts of trace regions (text, json)\n"
            "  --tree                   the calling-context tree of sampled stacks (pmopt report --tree --help)\n"
            "  --callers                also the callers of marked code, from the stacks of\n"
            "                           threshold events (csv: that table)\n"
            "  --units                  in text, under a function compiled in several units\n"
            "                           (inline, template), each unit's counts (json and csv\n"
            "                           always list the units)\n"
            "  --top=N                  the N hottest rows of each view\n"
            "  --hot[=PCT]              hot spots: the hottest sites, functions and lines\n"
            "                           that together have PCT percent (90) of their view's\n"
            "                           counts (by default only those three views)\n"
            "  --record                 with --hot and one TRACE: append a versioned HOTSPOT\n"
            "                           record per hot function to TRACE\n"
            "  --force                  read traces of a different build of PROG\n"
            "  --annotate=FILE          FILE's source with each line's count beside it, as gcov\n"
            "                           shows it (##### for a line whose code never ran)\n"
            "  --html=FILE              write the report as one self-contained HTML page\n"
            "                           (hot functions and lines, call tree, flame graph of\n"
            "                           stack samples, cache-line sharing) to FILE\n");
}

/* ---------------------------------------------------------------------- */
/* Output                                                                    */
/* ---------------------------------------------------------------------- */

static const char *tf(int b) { return b ? "true" : "false"; }

/* The sources of a function's units, ';' between them, as a csv field
 * (its parts, F.part.N, last among its copies, are in their function's unit). */
static void csv_units(const struct func_row *row)
{
    size_t len = 1;
    for (uint32_t k = 0; k < row->ncopies; k++)
        len += strlen(pm_unit_source(row->copies[k].u)) + 1;
    char *buf = malloc(len);
    if (!buf)
        return;
    buf[0] = 0; /* (a function inlined everywhere has no copy: count-at=late) */
    len = 0;
    for (uint32_t k = 0; k < row->ncopies; k++) /* each unit once */
        if (pm_copy_starts_unit(row->copies, k))
            len += (size_t)sprintf(buf + len, "%s%s", k ? ";" : "", pm_unit_source(row->copies[k].u));
    pm_csv_str(stdout, buf);
    free(buf);
}

static void print_json(const struct report *r)
{
    printf("{\n  \"program\": ");
    pm_json_str(stdout, r->md.prog);
    printf(",\n  \"source_root\": ");
    pm_json_str(stdout, pm_source_root());
    printf(",\n  \"build_id\": \"%s\",\n  \"traces\": [", r->md.m.build_id_len ? r->md.bid : "");
    for (int i = 0; i < r->md.ntraces; i++) {
        const struct trace_info *in = &r->md.infos[i];
        printf("%s\n    {\"path\": ", i ? "," : "");
        pm_json_str(stdout, in->path);
        printf(", \"records\": %u, \"finished\": %s, \"truncated\": %s, \"partial\": %s, "
               "\"merged\": %s, \"mode_off\": %s", in->nrecords, tf(in->finished),
               tf(in->truncated), tf(in->flags & PI_TF_PARTIAL), tf(in->flags & PI_TF_MERGED),
               tf(in->flags & PI_TF_MODE_OFF));
        printf(", \"lost\": [");
        for (uint32_t k = 1, n = 0; k < PI_LOST_NTABLES; k++)
            if (in->lost[k].table)
                printf("%s{\"table\": \"%s\", \"capacity\": %llu, \"lost\": %llu, \"items\": %llu, "
                       "\"estimated\": %s}", n++ ? ", " : "", pi_trace_lost_table_name(k),
                       (unsigned long long)in->lost[k].capacity, (unsigned long long)in->lost[k].lost,
                       (unsigned long long)in->lost[k].items, tf(in->lost[k].flags & PI_LOST_ESTIMATE));
        printf("]}");
    }
    printf("\n  ]");
    if (r->by & BY_SITE) {
        printf(",\n  \"sites\": [");
        for (size_t i = 0; i < r->md.nsites; i++) {
            const struct site_row *row = &r->md.sites[i];
            const struct pi_site *st = &row->u->sites[row->site];
            printf("%s\n    {\"unit\": \"0x%016llx\", \"site\": %u, \"function\": ", i ? "," : "",
                   (unsigned long long)row->u->hdr.unit_id, row->site);
            pm_json_str(stdout, row->func);
            printf(", \"linkage\": ");
            pm_json_str(stdout, row->linkage);
            printf(", \"file\": ");
            pm_json_str(stdout, row->file);
            printf(", \"line\": %u, \"column\": %u, \"bb\": %u, \"counter\": %u, "
                   "\"address\": \"0x%llx\", \"count\": %llu}", row->line, st->column, st->bb,
                   st->counter, (unsigned long long)row->addr, (unsigned long long)row->count);
        }
        printf("%s]", r->md.nsites ? "\n  " : "");
    }
    if (r->by & BY_FUNCTION) {
        printf(",\n  \"functions\": [");
        for (size_t i = 0; i < r->md.nfuncs; i++) {
            const struct func_row *row = &r->md.funcs[i];
            uint32_t nsites = row->inlined_only ? 0 : row->u->funcs[row->func].nsites;
            printf("%s\n    {\"unit\": \"0x%016llx\", \"function\": ", i ? "," : "",
                   (unsigned long long)row->u->hdr.unit_id);
            pm_json_str(stdout, row->name);
            printf(", \"linkage\": ");
            pm_json_str(stdout, row->linkage);
            printf(", \"file\": ");
            pm_json_str(stdout, row->file);
            printf(", \"line\": %u, \"sites\": %u, \"entries\": ", row->line, nsites);
            if (row->has_entry && !row->uninstrumented)
                printf("%llu, \"inlined_entries\": %llu", (unsigned long long)row->entries,
                       (unsigned long long)row->inlined);
            else
                printf("null, \"inlined_entries\": null");
            if (row->uninstrumented)
                printf(", \"blocks\": null, \"instrumented\": false, \"units\": [");
            else
                printf(", \"blocks\": %llu, \"instrumented\": true, \"units\": [",
                       (unsigned long long)row->blocks);
            for (uint32_t k = 0; k < row->ncopies; k++) {
                const struct func_copy *c = &row->copies[k];
                printf("%s{\"unit\": \"0x%016llx\", \"source\": ", k ? ", " : "",
                       (unsigned long long)c->u->hdr.unit_id);
                pm_json_str(stdout, pm_unit_source(c->u));
                printf(", \"entries\": ");
                if (c->has_entry && !row->uninstrumented)
                    printf("%llu", (unsigned long long)c->entries);
                else
                    printf("null");
                if (row->uninstrumented)
                    printf(", \"blocks\": null}");
                else
                    printf(", \"blocks\": %llu}", (unsigned long long)c->blocks);
            }
            printf("]}");
        }
        printf("%s]", r->md.nfuncs ? "\n  " : "");
    }
    if (r->by & BY_LINE) {
        printf(",\n  \"lines\": [");
        for (size_t i = 0; i < r->md.nlines; i++) {
            printf("%s\n    {\"file\": ", i ? "," : "");
            pm_json_str(stdout, r->md.lines[i].file);
            printf(", \"line\": %u, \"count\": %llu}", r->md.lines[i].line,
                   (unsigned long long)r->md.lines[i].count);
        }
        printf("%s]", r->md.nlines ? "\n  " : "");
    }
    rind_json(r);
    rranges_json(r);
    rpages_json(r);
    rperf_json(r);
    printf("\n}\n");
}

/* One table: csv has no sections. */
static void print_csv(const struct report *r)
{
    if (r->by == BY_SITE) {
        printf("count,unit,site,function,file,line,column,bb,counter,address,linkage\n");
        for (size_t i = 0; i < r->md.nsites; i++) {
            const struct site_row *row = &r->md.sites[i];
            const struct pi_site *st = &row->u->sites[row->site];
            printf("%llu,0x%016llx,%u,", (unsigned long long)row->count,
                   (unsigned long long)row->u->hdr.unit_id, row->site);
            pm_csv_str(stdout, row->func);
            putchar(',');
            pm_csv_str(stdout, row->file);
            printf(",%u,%u,%u,%u,0x%llx,", row->line, st->column, st->bb, st->counter,
                   (unsigned long long)row->addr);
            pm_csv_str(stdout, row->linkage);
            putchar('\n');
        }
    } else if (r->by == BY_FUNCTION) {
        printf("blocks,entries,unit,function,file,line,sites,linkage,nunits,units,inlined\n");
        for (size_t i = 0; i < r->md.nfuncs; i++) {
            const struct func_row *row = &r->md.funcs[i];
            uint32_t nsites = row->inlined_only ? 0 : row->u->funcs[row->func].nsites;
            if (!row->uninstrumented)
                printf("%llu", (unsigned long long)row->blocks);
            putchar(',');
            if (row->has_entry && !row->uninstrumented)
                printf("%llu", (unsigned long long)row->entries);
            printf(",0x%016llx,", (unsigned long long)row->u->hdr.unit_id);
            pm_csv_str(stdout, row->name);
            putchar(',');
            pm_csv_str(stdout, row->file);
            printf(",%u,%u,", row->line, nsites);
            pm_csv_str(stdout, row->linkage);
            printf(",%u,", row->nunits);
            csv_units(row);
            putchar(',');
            if (row->has_entry && !row->uninstrumented)
                printf("%llu", (unsigned long long)row->inlined);
            putchar('\n');
        }
    } else if (r->by == BY_LINE) {
        printf("count,file,line\n");
        for (size_t i = 0; i < r->md.nlines; i++) {
            printf("%llu,", (unsigned long long)r->md.lines[i].count);
            pm_csv_str(stdout, r->md.lines[i].file);
            printf(",%u\n", r->md.lines[i].line);
        }
    } else {
        rind_csv(r);
    }
}

static void print_text(const struct report *r)
{
    printf("pmopt report: %s (build-id %s), %d trace%s\n", r->md.prog, r->md.bid, r->md.ntraces,
           r->md.ntraces == 1 ? "" : "s");
    for (int i = 0; i < r->md.ntraces; i++) {
        const struct trace_info *in = &r->md.infos[i];
        printf("  trace %s: %u records, %s%s%s\n", in->path, in->nrecords, pm_trace_state(in->finished, in->flags),
               in->flags & PI_TF_MERGED ? ", merged" : "",
               in->flags & PI_TF_MODE_OFF ? ", PERFINST_MODE=off" : "");
        for (uint32_t k = 1; k < PI_LOST_NTABLES; k++)
            if (in->lost[k].table)
                printf("    lost: %s\n", pm_lost_text(&in->lost[k]));
    }
    if (r->md.hot)
        printf("hot spots (--hot=%g): %zu sites, %zu functions, %zu lines\n",
               (double)r->md.hot / 1000, r->md.nsites, r->md.nfuncs, r->md.nlines);
    char loc[4096];
    if (r->by & BY_SITE) {
        int wc = 5, wf = 8, wl = 9;
        for (size_t i = 0; i < r->md.nsites; i++) {
            wc = rep_widest(wc, rep_digits(r->md.sites[i].count), 20);
            wf = rep_widest(wf, (int)strlen(r->md.sites[i].func), 40);
            wl = rep_widest(wl, snprintf(loc, sizeof loc, "%s:%u", r->md.sites[i].file,
                                     r->md.sites[i].line), 60);
        }
        printf("\nSites, hottest first (%% of all the sites' counts)\n");
        printf("  %*s  %6s  %-*s  %-*s  %-21s  %s\n", wc, "count", "%", wf, "function", wl,
               "file:line", "unit:site", "block");
        for (size_t i = 0; i < r->md.nsites; i++) {
            const struct site_row *row = &r->md.sites[i];
            char us[32], p[16];
            snprintf(loc, sizeof loc, "%s:%u", row->file, row->line);
            snprintf(us, sizeof us, "%016llx:%u", (unsigned long long)row->u->hdr.unit_id,
                     row->site);
            printf("  %*llu  %6s  %-*s  %-*s  %-21s  bb %u\n", wc, (unsigned long long)row->count,
                   rep_pct(p, sizeof p, row->count, r->md.total_sites), wf, row->func, wl, loc, us,
                   row->u->sites[row->site].bb);
        }
    }
    if (r->by & BY_FUNCTION) {
        int we = 7, wb = 6, wn = 8, wl = 9;
        for (size_t i = 0; i < r->md.nfuncs; i++) {
            const struct func_row *row = &r->md.funcs[i];
            we = rep_widest(we, rep_digits(row->entries), 20);
            wb = rep_widest(wb, rep_digits(row->blocks), 20);
            wn = rep_widest(wn, (int)strlen(row->name), 40);
            wl = rep_widest(wl, snprintf(loc, sizeof loc, "%s:%u", row->file, row->line), 60);
        }
        printf("\nFunctions, by block executions (entries = count of the entry block; a function "
               "compiled in several units is one row, summed; %% of all block executions)\n");
        printf("  %*s  %*s  %6s  %-*s  %-*s  %s\n", we, "entries", wb, "blocks", "%", wn,
               "function", wl, "file:line", "unit");
        for (size_t i = 0; i < r->md.nfuncs; i++) {
            const struct func_row *row = &r->md.funcs[i];
            char e[24] = "-", b[24] = "-", us[32], p[16] = "-";
            if (row->has_entry && !row->uninstrumented)
                snprintf(e, sizeof e, "%llu", (unsigned long long)row->entries);
            if (!row->uninstrumented) {
                snprintf(b, sizeof b, "%llu", (unsigned long long)row->blocks);
                rep_pct(p, sizeof p, row->blocks, r->md.total_funcs);
            }
            snprintf(loc, sizeof loc, "%s:%u", row->file, row->line);
            snprintf(us, sizeof us, "%u units", row->nunits);
            printf("  %*s  %*s  %6s  %-*s  %-*s  %s%s\n", we, e, wb, b, p, wn, row->name, wl, loc,
                   row->inlined_only ? "(inlined)" : row->nunits <= 1 ? pm_unit_source(row->u) : us,
                   row->uninstrumented ? "  (not instrumented in the kept copy)" : "");
            for (uint32_t k = 0; r->units && row->nunits > 1 && k < row->ncopies; k++) {
                const struct func_copy *c = &row->copies[k];
                char ce[24] = "-";
                if (c->has_entry)
                    snprintf(ce, sizeof ce, "%llu", (unsigned long long)c->entries);
                printf("  %*s  %*llu  %6s  %*s  unit 0x%016llx %s\n", we, ce, wb,
                       (unsigned long long)c->blocks, "", wn, "", (unsigned long long)c->u->hdr.unit_id,
                       pm_unit_source(c->u));
            }
        }
    }
    if (r->by & BY_LINE) {
        int wc = 5;
        for (size_t i = 0; i < r->md.nlines; i++)
            wc = rep_widest(wc, rep_digits(r->md.lines[i].count), 20);
        printf("\nLines, hottest first (a line's count is the largest count among its blocks, "
               "as gcov shows it; %% of all the lines' counts)\n");
        printf("  %*s  %6s  %s\n", wc, "count", "%", "file:line");
        for (size_t i = 0; i < r->md.nlines; i++) {
            char p[16];
            printf("  %*llu  %6s  %s:%u\n", wc, (unsigned long long)r->md.lines[i].count,
                   rep_pct(p, sizeof p, r->md.lines[i].count, r->md.total_lines), r->md.lines[i].file,
                   r->md.lines[i].line);
        }
    }
    rind_text(r);
    rranges_text(r);
    rpages_text(r);
    rperf_text(r);
}

/* ---------------------------------------------------------------------- */
/* HTML (report --html, report-html.c's page): the summary, functions and  */
/* lines sections                                                          */
/* ---------------------------------------------------------------------- */

#define HTML_MAX_BARS 20    /* bars in the functions' chart */

static uint64_t total_blocks(const struct report *r)
{
    uint64_t t = 0;
    for (size_t i = 0; i < r->md.nfuncs; i++)
        t = pm_sat_add(t, r->md.funcs[i].blocks);
    return t;
}

void html_section_summary(FILE *f, const struct report *r)
{
    html_section_begin(f, "summary", "Summary", 1);
    const char *hot = r->md.nfuncs && r->md.funcs[0].blocks
        ? r->md.funcs[0].name : "-";
    fprintf(f, "<div class=\"cards\">\n<div class=\"card\">block executions<b>%llu</b></div>\n"
               "<div class=\"card\">functions<b>%zu</b></div>\n"
               "<div class=\"card\">traces<b>%d</b></div>\n<div class=\"card\">hottest function<b>",
            (unsigned long long)total_blocks(r), r->md.nfuncs, r->md.ntraces);
    html_esc(f, hot);
    fputs("</b></div>\n</div>\n<table>\n<thead><tr><th>trace</th><th class=\"n\">records</th>"
          "<th>state</th></tr></thead>\n<tbody>\n", f);
    for (int i = 0; i < r->md.ntraces; i++) {
        const struct trace_info *in = &r->md.infos[i];
        fputs("<tr><td>", f);
        html_esc(f, in->path);
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
        html_esc(f, row->name);
        fprintf(f, "</text><rect x=\"%d\" y=\"%zu\" width=\"%d\" height=\"%d\" rx=\"2\" "
                   "fill=\"hsl(%d,85%%,50%%)\"/><text x=\"%d\" y=\"%zu\" font-size=\"12\">%llu</text>\n",
                label, y, bw, bh, hue, label + bw + 6, y + bh - 5,
                (unsigned long long)row->blocks);
    }
    fputs("</svg>\n", f);
}

void html_section_functions(FILE *f, const struct report *r)
{
    uint64_t total = total_blocks(r);
    html_section_begin(f, "hot-functions", "Hot functions (block executions)", r->md.nfuncs > 0);
    if (!r->md.nfuncs) {
        html_not_collected(f, "PROG has no counted functions");
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
        html_esc(f, row->name);
        fputs("</code></td><td>", f);
        html_esc(f, row->file);
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

void html_section_lines(FILE *f, const struct report *r)
{
    html_section_begin(f, "hot-lines", "Hot lines (a line's count is the largest count among its "
                       "blocks, as gcov shows it)", r->md.nlines > 0);
    if (!r->md.nlines) {
        html_not_collected(f, "no site has a source line");
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
        html_esc(f, l->file);
        fprintf(f, ":%u</td><td class=\"src\">", l->line);
        html_esc(f, source_line(l->file, l->line, buf, sizeof buf));
        fputs("</td></tr>\n", f);
    }
    fputs("</tbody>\n</table>\n</section>\n", f);
}

/* ---------------------------------------------------------------------- */

int cmd_report(int argc, char **argv)
{
    static const struct option opts[] = {
        { "format", required_argument, NULL, 'F' },
        { "by", required_argument, NULL, 'b' },
        { "top", required_argument, NULL, 't' },
        { "force", no_argument, NULL, 'f' },
        { "callers", no_argument, NULL, 'c' },
        { "units", no_argument, NULL, 'U' },
        { "html", required_argument, NULL, 'W' },
        { "annotate", required_argument, NULL, 'A' },
        { "hot", optional_argument, NULL, 'H' },
        { "record", no_argument, NULL, 'R' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    static const struct { const char *name; int bit; } views[] = {
        { "site", BY_SITE }, { "function", BY_FUNCTION }, { "line", BY_LINE },
        { "indicators", BY_INDICATORS }, { "regions", BY_REGIONS }, { "trace", BY_TRACE },
        { "types", BY_TYPES }, { "callers", BY_CALLERS },
        { "watch", BY_WATCH | BY_WATCH_SITES }, { "watch-sites", BY_WATCH_SITES },
        { "pages", BY_PAGES }, { "perf", BY_PERF },
    };
    int callers = 0, record = 0;
    const char *html = NULL, *annotate = NULL;
    struct report r;
    memset(&r, 0, sizeof r);
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'F':
            if (!strcmp(optarg, "text")) r.fmt = FMT_TEXT;
            else if (!strcmp(optarg, "json")) r.fmt = FMT_JSON;
            else if (!strcmp(optarg, "csv")) r.fmt = FMT_CSV;
            else return pm_usage_error("report", "--format: '%s' is not text, json or csv", optarg);
            break;
        case 'b':
            r.by = 0;
            for (size_t i = 0; i < sizeof views / sizeof views[0]; i++)
                if (!strcmp(optarg, views[i].name))
                    r.by = views[i].bit;
            if (!r.by)
                return pm_usage_error("report", "--by: '%s' is not site, function, line, "
                                      "indicators, regions, trace, types, watch, watch-sites or "
                                      "callers", optarg);
            r.by_given = 1;
            break;
        case 'c': callers = 1; break;
        case 'U': r.units = 1; break;
        case 't': {
            char *end;
            r.md.top = strtol(optarg, &end, 10);
            if (!*optarg || *end || r.md.top < 0)
                return pm_usage_error("report", "--top: '%s' is not a count", optarg);
            break;
        }
        case 'f': r.md.force = 1; break;
        case 'W': html = optarg; break;
        case 'A': annotate = optarg; break;
        case 'H':
            r.md.hot = optarg ? pm_parse_pct(optarg) : 90000;
            if (r.md.hot < 0)
                return pm_usage_error("report", "--hot: '%s' is not a percentage in (0, 100]",
                                      optarg);
            break;
        case 'R': record = 1; break;
        case 'h': help(stdout); return PM_OK;
        default: return pm_usage_error("report", "unknown option");
        }
    }
    if (argc - optind < 2)
        return pm_usage_error("report", "expected PROG and at least one TRACE");
    if (annotate && (r.fmt != FMT_TEXT || r.by || callers || r.md.top || r.md.hot || html))
        return pm_usage_error("report", "--annotate shows one file's lines in text: not with "
                              "--format, --by, --callers, --top, --hot or --html");
    if (annotate) {
        r.md.prog = argv[optind];
        r.md.ntraces = argc - optind - 1;
        r.by = BY_LINE;
        int st = model_load(&r.md, argv + optind + 1) || rep_annotate(&r, annotate) ? PM_ERROR : PM_OK;
        fflush(stdout);
        model_free(&r.md);
        return st;
    }
    if (record && (!r.md.hot || argc - optind != 2 || r.md.top))
        return pm_usage_error("report", "--record needs --hot, one TRACE, and no --top");
    if (r.fmt == FMT_CSV && callers && r.by_given && r.by != BY_CALLERS)
        return pm_usage_error("report", "csv shows one table: --callers or --by, not both");
    if (callers)
        r.by = r.fmt == FMT_CSV ? BY_CALLERS : (r.by ? r.by : BY_ALL) | BY_CALLERS;
    if (!r.by && r.md.hot)
        r.by = r.fmt == FMT_CSV ? BY_FUNCTION : BY_SITE | BY_FUNCTION | BY_LINE;
    if (!r.by)
        r.by = r.fmt == FMT_CSV ? BY_SITE : BY_ALL;
    if (r.fmt == FMT_CSV && r.by == (BY_WATCH | BY_WATCH_SITES))
        r.by = BY_WATCH; /* one table: the words (watch-sites: the sites) */
    if (r.fmt == FMT_CSV && (r.by & (BY_PAGES | BY_PERF)))
        return pm_usage_error("report", "--by=pages and --by=perf are shown in text and json only");
    if (!r.by_given && r.fmt != FMT_CSV)
        r.by |= BY_PAGES | BY_PERF; /* when a trace has them */
    r.md.prog = argv[optind];
    r.md.ntraces = argc - optind - 1;

    int status = PM_ERROR;
    if (model_load(&r.md, argv + optind + 1) == 0 && rind_build(&r) == 0) {
        /* nothing is printed before every input was accepted */
        if (html)
            status = rep_html_write(&r, html) ? PM_ERROR : PM_OK;
        else if (r.fmt == FMT_JSON)
            print_json(&r);
        else if (r.fmt == FMT_CSV)
            print_csv(&r);
        else
            print_text(&r);
        if (!html)
            status = PM_OK;
        if (record && rep_record_hotspots(&r, argv[optind + 1]))
            status = PM_ERROR;
    }
    fflush(stdout);
    rind_free(&r);
    model_free(&r.md);
    return status;
}
