/* pmopt export --gcovr OUT PROG TRACE... — gcovr's JSON tracefile (format
 * version 0.3, what `gcovr --json` writes and `gcovr --add-tracefile`
 * reads: gcovr.com/en/5.2/output/json.html), so that gcovr renders PROG's
 * counts as its text, HTML, Cobertura or SonarQube reports.  gcovr 5.2
 * (Debian bookworm's) reads its own JSON, not lcov tracefiles.
 *
 * The same records as the lcov tracefile (exp_coverage): per file, each
 * line's count with its branches (one per successor edge of a block that
 * starts on the line, its count; 0 when the block never ran) and each
 * function's entries.
 */
#include <stdlib.h>
#include <string.h>

#include "export.h"

static void gc_file(FILE *f, const struct exp_cov_rec *v, size_t n)
{
    fputs("  {\"file\": ", f);
    pm_json_str(f, v[0].file);
    fputs(", \"functions\": [", f);
    int k = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i].kind == COV_FN) {
            fprintf(f, "%s\n    {\"name\": ", k++ ? "," : "");
            pm_json_str(f, v[i].name);
            fprintf(f, ", \"lineno\": %u, \"execution_count\": %llu}", v[i].line,
                    (unsigned long long)v[i].count);
        }
    fputs("],\n   \"lines\": [", f);
    /* branches and lines are each sorted by line (branches first): walk both */
    size_t br = 0;
    k = 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i].kind != COV_LINE)
            continue;
        fprintf(f, "%s\n    {\"line_number\": %u, \"count\": %llu, \"branches\": [", k++ ? "," : "",
                v[i].line, (unsigned long long)v[i].count);
        while (br < n && (v[br].kind < COV_BRANCH || (v[br].kind == COV_BRANCH && v[br].line < v[i].line)))
            br++;
        for (int b = 0; br < n && v[br].kind == COV_BRANCH && v[br].line == v[i].line; br++, b++)
            fprintf(f, "%s{\"count\": %llu, \"fallthrough\": false, \"throw\": false}",
                    b ? ", " : "", (unsigned long long)(v[br].ran ? v[br].count : 0));
        fputs("], \"gcovr/noncode\": false, \"gcovr/excluded\": false}", f);
    }
    fputs("]}", f);
}

int export_gcovr(struct exp_in *in, const char *out)
{
    struct exp_cov c;
    if (exp_coverage(in, out, &c))
        return -1;
    FILE *f = pm_create(out);
    int rc = f ? 0 : -1;
    if (f) {
        fputs("{\"gcovr/format_version\": \"0.3\", \"files\": [\n", f);
        for (size_t i = 0, nf = 0; i < c.n; nf++) {
            size_t end = i;
            while (end < c.n && c.v[end].file == c.v[i].file)
                end++;
            if (nf)
                fputs(",\n", f);
            gc_file(f, c.v + i, end - i);
            i = end;
        }
        fputs("\n]}\n", f);
        if (fclose(f)) {
            pm_error("%s: %m", out);
            rc = -1;
        }
    }
    free(c.v);
    return rc;
}
