/* report-html.c — pmopt report --html=FILE: the report as one self-contained
 * page a browser opens from disk: inline CSS, a few lines of inline JS
 * (sorting and filtering tables) and inline SVG; no external file, font or
 * network request.
 *
 * This file is the page's frame and the list of its sections; each view
 * writes its own section in the file that holds its other formats
 * (report-html.h).  Sections (each a <section id=...> with
 * data-status="collected" or "not-collected", which tests/pmopt/t-html.sh
 * checks):
 *   summary        PROG, its build-id, the traces and the totals (cmd-report.c);
 *   hot-functions  a bar chart (SVG) and the table of functions by block
 *                  executions (cmd-report.c);
 *   hot-lines      source lines by count, with the line's text when the
 *                  source file is readable (cmd-report.c);
 *   call-tree      the callers of marked code from the stacks of threshold
 *                  events (--callers' tree), as nested <details> (view-callers.c);
 *   flame-graph    the flame graph of the traces' stack samples
 *                  (PERFINST_SAMPLE, else PERFINST_IDLE), the SVG of `pmopt
 *                  export --flamegraph` (report-tree.c, beside --tree's text
 *                  of the same stacks);
 *   sharing        per trace with sharing records, the ranked lines of `pmopt
 *                  report --sharing` as a table and their heat map, the SVG
 *                  of --heatmap (report-sharing.c).
 * The page uses the same views as the text report (model_load builds
 * them), so their numbers are the same.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report-html.h"

void html_esc(FILE *f, const char *s)
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

void html_section_begin(FILE *f, const char *id, const char *title, int collected)
{
    fprintf(f, "<section id=\"%s\" data-status=\"%s\">\n<h2>%s</h2>\n", id,
            collected ? "collected" : "not-collected", title);
}

void html_not_collected(FILE *f, const char *why)
{
    fputs("<p class=\"none\">not collected: ", f);
    html_esc(f, why);
    fputs("</p>\n", f);
}

/* ---- the page ----------------------------------------------------------------- */

int rep_html_write(const struct report *r, const char *path)
{
    FILE *f = pm_create(path);
    if (!f)
        return -1;
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", f);
    fputs("pmopt report: ", f);
    html_esc(f, pm_basename(r->md.prog));
    fprintf(f, "</title>\n<style>%s</style>\n<script>%s</script>\n</head>\n<body>\n<header>\n"
               "<h1>pmopt report: ", css, js);
    html_esc(f, r->md.prog);
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
