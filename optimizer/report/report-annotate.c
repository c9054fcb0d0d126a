/* report-annotate.c — pmopt report --annotate=FILE: the source of FILE with
 * each line's count beside it, in gcov's layout (docs/pmopt.md):
 *
 *           -:    0:Source:prog.c
 *           -:    0:Program:./prog
 *           -:    0:Traces:1
 *           -:    1:#include <stdio.h>
 *          10:    5:    for (int i = 0; i < n; i++)
 *       #####:    7:        never();
 *
 * A line's count is the report's (--by=line: the largest count among the
 * blocks a line starts, in a unit, summed over the units that compiled
 * it).  A line that starts no block but has code inside one (the second
 * statement of a block: DWARF's line table says which lines the block's
 * address range holds) shows the largest count of those blocks, as gcov
 * counts it; a function's declaration line, its entries.  A line with code
 * that never ran shows #####, a line without
 * code -.  FILE is
 * found among the files PROG's counted lines name: the same file (by
 * realpath, the names joined to the source root), else the only one with
 * FILE's name, which is read where FILE is none (the bare name the report
 * shows, from another directory).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* The file of r's lines that is path, or NULL after a message. */
static const char *find_file(const struct report *r, const char *path)
{
    char want[PATH_MAX], have[PATH_MAX], buf[PATH_MAX];
    int exists = realpath(path, want) != NULL, gone = errno; /* else by its name alone */
    const char *by_name = NULL, *last = NULL;
    int ambiguous = 0;
    for (size_t i = 0; i < r->md.nlines; i++) {
        const char *f = r->md.lines[i].file;
        if (f == last)
            continue;
        last = f;
        if (exists && realpath(pm_source_path(f, buf, sizeof buf), have) && !strcmp(have, want))
            return f;
        if (!strcmp(pm_basename(f), pm_basename(path))) {
            ambiguous |= by_name && by_name != f;
            by_name = f;
        }
    }
    if (by_name && !ambiguous)
        return by_name;
    if (by_name)
        pm_error("%s: several files of %s have this name: give the path the report shows "
                 "(pmopt report --by=line)", path, r->md.prog);
    else if (!exists)
        pm_error("%s: cannot open: %s", path, strerror(gone));
    else
        pm_error("%s: no counted line of %s is in this file", path, r->md.prog);
    return NULL;
}

/* The lines of file that the code of counted blocks holds: each the
 * largest count of those blocks (has[] 1).  PROG's code ranges (one or
 * more per site) against the DWARF line table. */
static void inside_blocks(const struct report *r, const char *file, uint64_t *count,
                          unsigned char *has, uint32_t maxline)
{
    const struct pi_debug *d = &r->md.dbg;
    /* DWARF file index -> is it `file`? (computed once per index) */
    signed char *is = calloc(d->nfiles ? d->nfiles : 1, 1);
    if (!is)
        return;
    for (size_t i = 0; i < r->md.m.nranges; i++) {
        const struct pi_range *rg = &r->md.m.ranges[i];
        const struct pi_unit_view *u = pi_meta_unit(&r->md.m, rg->unit_id);
        if (!rg->addr || !rg->length || !u || rg->site >= u->hdr.nsites)
            continue;
        if (!rep_site_counted(u, rg->site))
            continue;
        uint64_t c = rep_site_count(&r->md, u, rg->site); /* (solved from the arcs, if its function has them) */
        /* the first row at or before addr, then every row inside the range */
        size_t lo = 0, hi = d->nlines;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (d->lines[mid].addr <= rg->addr)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (size_t k = lo ? lo - 1 : 0; k < d->nlines && d->lines[k].addr < rg->addr + rg->length;
             k++) {
            const struct pi_dline *l = &d->lines[k];
            if (l->end_sequence || !l->line || l->line > maxline || l->file >= d->nfiles ||
                (k + 1 < d->nlines && d->lines[k + 1].addr <= rg->addr))
                continue; /* ends before the range */
            if (!is[l->file])
                is[l->file] = pm_file(NULL, d->files[l->file]) == file ? 1 : -1;
            if (is[l->file] < 0)
                continue;
            if (!has[l->line] || c > count[l->line])
                count[l->line] = c;
            has[l->line] = 1;
        }
    }
    free(is);
}

int rep_annotate(const struct report *r, const char *path)
{
    const char *file = find_file(r, path);
    if (!file)
        return -1;
    /* PATH, or where it is none (the bare name the report shows) the file
       found */
    char buf[PATH_MAX];
    FILE *src = fopen(path, "r");
    if (!src && errno == ENOENT)
        src = fopen(path = pm_source_path(file, buf, sizeof buf), "r");
    if (!src) {
        pm_error("%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    /* counts by line number */
    uint32_t maxline = 0;
    for (size_t i = 0; i < r->md.nlines; i++)
        if (r->md.lines[i].file == file && r->md.lines[i].line > maxline)
            maxline = r->md.lines[i].line;
    for (size_t i = 0; r->md.have_dbg && i < r->md.dbg.nlines; i++)
        if (r->md.dbg.lines[i].line > maxline)
            maxline = r->md.dbg.lines[i].line; /* any file's: an upper bound */
    uint64_t *count = calloc((size_t)maxline + 1, sizeof *count);
    unsigned char *has = calloc((size_t)maxline + 1, 1);
    if (!count || !has) {
        free(count);
        free(has);
        fclose(src);
        return rep_oom();
    }
    if (r->md.have_dbg)
        inside_blocks(r, file, count, has, maxline);
    for (size_t i = 0; i < r->md.nfuncs; i++) { /* a declaration's line: the entries, as gcov */
        const struct func_row *f = &r->md.funcs[i];
        if (f->file == file && f->has_entry && !f->uninstrumented && f->line <= maxline &&
            !has[f->line]) {
            count[f->line] = f->entries;
            has[f->line] = 1;
        }
    }
    for (size_t i = 0; i < r->md.nlines; i++)
        if (r->md.lines[i].file == file) {
            count[r->md.lines[i].line] = r->md.lines[i].count;
            has[r->md.lines[i].line] = 1;
        }
    printf("%9s:%5u:Source:%s\n", "-", 0u, file);
    printf("%9s:%5u:Program:%s\n", "-", 0u, r->md.prog);
    printf("%9s:%5u:Traces:%d\n", "-", 0u, r->md.ntraces);
    char *text = NULL;
    size_t cap = 0;
    ssize_t len;
    uint32_t no = 0;
    while ((len = getline(&text, &cap, src)) >= 0) {
        no++;
        if (len && text[len - 1] == '\n')
            text[--len] = 0;
        char c[24] = "-";
        if (no <= maxline && has[no]) {
            if (count[no])
                snprintf(c, sizeof c, "%llu", (unsigned long long)count[no]);
            else
                snprintf(c, sizeof c, "#####");
        }
        printf("%9s:%5u:%s\n", c, no, text);
    }
    uint32_t last = maxline;
    while (last && !has[last])
        last--;
    if (no < last)
        pm_note("%s has %u lines, but %s counted line %u of %s: is it the source PROG was built "
                "from?", path, no, r->md.prog, last, file);
    free(text);
    free(count);
    free(has);
    fclose(src);
    return 0;
}
