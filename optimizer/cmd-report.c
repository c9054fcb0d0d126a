/* pmopt report PROG TRACE... — counts per site, function and source line.
 *
 * PROG's metadata (.perfinst, read by pimeta) says which sites exist and
 * which counter each one reads; the traces hold the counters per (module,
 * unit).  A trace's module is matched to PROG by build-id: a trace of a
 * different build is refused (--force takes the module with PROG's file
 * name instead), other modules — shared libraries — are ignored with a
 * note.  Counts are summed over the traces.
 *
 * Three views, hottest first:
 *   sites      one row per site that has a counter: its count;
 *   functions  entries = the count of the function's first site (its entry
 *              block), blocks = the sum of its sites' counts (block
 *              executions);
 *   lines      per source line the LARGEST count among the line's sites of
 *              one unit — what gcov prints: a `for` line spans the init, test
 *              and increment blocks, and users expect the test's count
 *              (n+1), not their sum (2n+1).  Copies of a line in different
 *              units (a header's inline function) are separate code: their
 *              counts are added.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "pidwarf.h"
#include "pmopt.h"

enum fmt { FMT_TEXT, FMT_JSON, FMT_CSV };
enum { BY_SITE = 1, BY_FUNCTION = 2, BY_LINE = 4, BY_ALL = 7 };

static void help(FILE *f)
{
    fprintf(f,
            "usage: pmopt report [OPTIONS] PROG TRACE...\n"
            "Counts per site, function and source line, hottest first, summed over the traces.\n"
            "  --format=text|json|csv   output format (text)\n"
            "  --by=site|function|line  one view only (text and json show all three by default,\n"
            "                           csv shows sites)\n"
            "  --top=N                  the N hottest rows of each view\n"
            "  --force                  read traces of a different build of PROG\n");
}

struct usum {               /* per unit of PROG */
    uint64_t *sums;         /* NULL until a trace has counts for the unit */
    uint32_t n;
    uint64_t *site_addr;    /* first range address per site, 0 if none */
};

struct site_row {
    const struct pi_unit_view *u;
    uint32_t site;
    uint64_t count;
    const char *func, *file;
    uint32_t line;
    uint64_t addr;
};

struct func_row {
    const struct pi_unit_view *u;
    uint32_t func;
    int has_entry;
    uint64_t entries, blocks;
};

struct trace_info {
    char *path;
    uint32_t nrecords, flags;
    int finished, truncated;
};

struct line_row {
    const char *file;
    uint32_t line;
    uint64_t count;
    uint64_t unit_id;       /* while grouping */
};

static int cmp_site_row(const void *a, const void *b)
{
    const struct site_row *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    int c = strcmp(x->file, y->file);
    if (c)
        return c;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    if (x->u->hdr.unit_id != y->u->hdr.unit_id)
        return x->u->hdr.unit_id < y->u->hdr.unit_id ? -1 : 1;
    return x->site < y->site ? -1 : x->site > y->site;
}

static int cmp_func_row(const void *a, const void *b)
{
    const struct func_row *x = a, *y = b;
    if (x->blocks != y->blocks)
        return x->blocks > y->blocks ? -1 : 1;
    if (x->entries != y->entries)
        return x->entries > y->entries ? -1 : 1;
    int c = strcmp(pi_unit_str(x->u, x->u->funcs[x->func].name),
                   pi_unit_str(y->u, y->u->funcs[y->func].name));
    if (c)
        return c;
    if (x->u->hdr.unit_id != y->u->hdr.unit_id)
        return x->u->hdr.unit_id < y->u->hdr.unit_id ? -1 : 1;
    return x->func < y->func ? -1 : x->func > y->func;
}

static int cmp_line_key(const void *a, const void *b)
{
    const struct line_row *x = a, *y = b;
    int c = strcmp(x->file, y->file);
    if (c)
        return c;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return x->unit_id < y->unit_id ? -1 : x->unit_id > y->unit_id;
}

static int cmp_line_row(const void *a, const void *b)
{
    const struct line_row *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    int c = strcmp(x->file, y->file);
    if (c)
        return c;
    return x->line < y->line ? -1 : x->line > y->line;
}

static size_t limit(size_t n, long top)
{
    return top > 0 && (size_t)top < n ? (size_t)top : n;
}

static int digits(uint64_t v)
{
    int d = 1;
    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d;
}

int cmd_report(int argc, char **argv)
{
    static const struct option opts[] = {
        { "format", required_argument, NULL, 'F' },
        { "by", required_argument, NULL, 'b' },
        { "top", required_argument, NULL, 't' },
        { "force", no_argument, NULL, 'f' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    enum fmt fmt = FMT_TEXT;
    int by = 0, force = 0, c;
    long top = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'F':
            if (!strcmp(optarg, "text")) fmt = FMT_TEXT;
            else if (!strcmp(optarg, "json")) fmt = FMT_JSON;
            else if (!strcmp(optarg, "csv")) fmt = FMT_CSV;
            else return pm_usage_error("report", "--format: '%s' is not text, json or csv", optarg);
            break;
        case 'b':
            if (!strcmp(optarg, "site")) by = BY_SITE;
            else if (!strcmp(optarg, "function")) by = BY_FUNCTION;
            else if (!strcmp(optarg, "line")) by = BY_LINE;
            else return pm_usage_error("report", "--by: '%s' is not site, function or line", optarg);
            break;
        case 't': {
            char *end;
            top = strtol(optarg, &end, 10);
            if (!*optarg || *end || top < 0)
                return pm_usage_error("report", "--top: '%s' is not a count", optarg);
            break;
        }
        case 'f': force = 1; break;
        case 'h': help(stdout); return PM_OK;
        default: return pm_usage_error("report", "unknown option");
        }
    }
    if (argc - optind < 2)
        return pm_usage_error("report", "expected PROG and at least one TRACE");
    if (!by)
        by = fmt == FMT_CSV ? BY_SITE : BY_ALL;
    const char *prog = argv[optind];
    int ntraces = argc - optind - 1;
    char **tpaths = argv + optind + 1;

    int status = PM_ERROR;
    struct pi_err err;
    struct pi_meta m;
    struct pi_debug dbg;
    struct pi_trace t;
    struct usum *us = NULL;
    struct site_row *sites = NULL;
    struct func_row *funcs = NULL;
    struct line_row *lines = NULL;
    struct trace_info *infos = calloc((size_t)ntraces, sizeof *infos);
    size_t nsites = 0, nfuncs = 0, nlines = 0;
    int have_dbg = 0;
    memset(&t, 0, sizeof t);
    if (!infos) {
        pm_error("out of memory");
        return PM_ERROR;
    }
    if (pi_meta_read(prog, &m, &err)) {
        pm_error("%s", err.msg);
        free(infos);
        return PM_ERROR;
    }
    if (!m.nunits) {
        pm_error("%s: no perfinst metadata (no %s section): was it built with the plugin?",
                 prog, PI_SECTION_META);
        goto out;
    }
    if (pi_meta_validate(&m, &err)) {
        pm_error("%s", err.msg);
        goto out;
    }
    if (pi_debug_open(prog, &dbg, &err) == 0) {
        have_dbg = 1;
        if (dbg.warning[0])
            pm_note("%s", dbg.warning);
    }
    char bid[2 * PI_BUILD_ID_MAX + 1];
    pi_build_id_hex(m.build_id, m.build_id_len, bid);

    us = calloc(m.nunits, sizeof *us);
    if (!us)
        goto oom;
    for (size_t i = 0; i < m.nunits; i++) {
        if (!m.units[i].hdr.nsites)
            continue;
        us[i].site_addr = calloc(m.units[i].hdr.nsites, sizeof *us[i].site_addr);
        if (!us[i].site_addr)
            goto oom;
    }
    for (size_t i = 0; i < m.nranges; i++) { /* sorted by address: the first wins */
        const struct pi_range *r = &m.ranges[i];
        const struct pi_unit_view *u = pi_meta_unit(&m, r->unit_id);
        if (!r->addr || !u || r->site >= u->hdr.nsites)
            continue;
        struct usum *s = &us[u - m.units];
        if (!s->site_addr[r->site])
            s->site_addr[r->site] = r->addr;
    }

    /* ---- the traces ---- */
    for (int ti = 0; ti < ntraces; ti++) {
        if (pi_trace_read(tpaths[ti], &t, &err)) {
            pm_error("%s", err.msg);
            goto out;
        }
        pm_trace_notes(&t);
        const struct pi_trace_module *mod = pm_match_module(&t, m.build_id, m.build_id_len);
        if (!mod && !t.nmodules) {
            /* cut short before its first MODULE record: it counted nothing we can see */
            pm_note("%s has no MODULE records: nothing of it is counted", t.path);
        } else if (!mod) {
            char tb[2 * PI_BUILD_ID_MAX + 1] = "";
            const struct pi_trace_module *g = pm_guess_module(&t, prog);
            if (g)
                pi_build_id_hex(g->build_id, g->build_id_len, tb);
            if (!force) {
                pm_error("%s is not a trace of %s: %s has build-id %s, the trace's %s has %s "
                         "(--force reads it anyway)", t.path, prog, prog,
                         m.build_id_len ? bid : "(none)", g ? g->path : "(no module)",
                         tb[0] ? tb : "(none)");
                goto out;
            }
            {
                pm_note("%s: reading module %s (build-id %s) as %s (build-id %s) because of "
                        "--force", t.path, g->path, tb[0] ? tb : "(none)", prog,
                        m.build_id_len ? bid : "(none)");
            }
            mod = g;
        }
        for (size_t i = 0; i < t.nmodules; i++) {
            const struct pi_trace_module *o = &t.modules[i];
            if (o == mod)
                continue;
            int has_counts = 0;
            for (size_t k = 0; k < t.nunits && !has_counts; k++)
                has_counts = t.units[k].module == i;
            if (has_counts)
                pm_note("%s: module %s is not %s (another build-id)%s: ignored", t.path, o->path,
                        prog, pm_is_shared_lib(o->path) ? ", a shared library" : "");
        }
        uint32_t mpos = mod ? (uint32_t)(mod - t.modules) : UINT32_MAX;
        for (size_t k = 0; k < t.nunits; k++) {
            const struct pi_trace_unit *tu = &t.units[k];
            if (tu->module != mpos)
                continue;
            const struct pi_unit_view *u = pi_meta_unit(&m, tu->unit_id);
            if (!u) {
                pm_note("%s: unit 0x%016llx is not in %s's metadata: ignored", t.path,
                        (unsigned long long)tu->unit_id, prog);
                continue;
            }
            if (tu->ncounters != u->hdr.ncounters) {
                if (!force) {
                    pm_error("%s: unit 0x%016llx (%s) has %u counters, but %s says %u", t.path,
                             (unsigned long long)tu->unit_id, pi_unit_str(u, u->hdr.source),
                             tu->ncounters, prog, u->hdr.ncounters);
                    goto out;
                }
                pm_note("%s: unit 0x%016llx has %u counters, %s says %u: using the first %u",
                        t.path, (unsigned long long)tu->unit_id, tu->ncounters, prog,
                        u->hdr.ncounters,
                        tu->ncounters < u->hdr.ncounters ? tu->ncounters : u->hdr.ncounters);
            }
            struct usum *s = &us[u - m.units];
            if (!s->sums) {
                /* sized by the trace's record (bounded by its size), not by
                 * what the metadata claims */
                s->n = tu->ncounters < u->hdr.ncounters ? tu->ncounters : u->hdr.ncounters;
                s->sums = calloc(s->n ? s->n : 1, sizeof *s->sums);
                if (!s->sums)
                    goto oom;
            }
            uint32_t n = tu->ncounters < s->n ? tu->ncounters : s->n;
            for (uint32_t i = 0; i < n; i++)
                s->sums[i] = pm_sat_add(s->sums[i], tu->counts[i]);
        }
        infos[ti].path = strdup(t.path);
        if (!infos[ti].path)
            goto oom;
        infos[ti].nrecords = t.nrecords;
        infos[ti].flags = t.hdr.flags;
        infos[ti].finished = t.has_end;
        infos[ti].truncated = t.truncated;
        pi_trace_free(&t);
    }

    /* ---- rows ---- */
    size_t cap_sites = 0, cap_funcs = 0;
    for (size_t i = 0; i < m.nunits; i++) {
        cap_sites += m.units[i].hdr.nsites;
        cap_funcs += m.units[i].hdr.nfuncs;
    }
    sites = calloc(cap_sites ? cap_sites : 1, sizeof *sites);
    funcs = calloc(cap_funcs ? cap_funcs : 1, sizeof *funcs);
    lines = calloc(cap_sites ? cap_sites : 1, sizeof *lines);
    if (!sites || !funcs || !lines)
        goto oom;
    for (size_t i = 0; i < m.nunits; i++) {
        const struct pi_unit_view *u = &m.units[i];
        const struct usum *s = &us[i];
#define COUNT(counter) ((counter) != PI_NONE && s->sums && (counter) < s->n ? s->sums[counter] : 0)
        for (uint32_t k = 0; k < u->hdr.nsites; k++) {
            const struct pi_site *st = &u->sites[k];
            if (st->counter == PI_NONE)
                continue;
            struct site_row *r = &sites[nsites++];
            r->u = u;
            r->site = k;
            r->count = COUNT(st->counter);
            r->func = pi_unit_str(u, u->funcs[st->func].name);
            r->file = pi_unit_str(u, st->file);
            r->line = st->line;
            r->addr = s->site_addr ? s->site_addr[k] : 0;
            if (!r->line && r->addr && have_dbg) /* no line from the compiler: ask DWARF */
                pi_debug_line(&dbg, r->addr, &r->file, &r->line);
            if (r->line)
                lines[nlines++] = (struct line_row){ .file = r->file, .line = r->line,
                                                     .count = r->count, .unit_id = u->hdr.unit_id };
        }
        for (uint32_t f = 0; f < u->hdr.nfuncs; f++) {
            const struct pi_func *fn = &u->funcs[f];
            struct func_row *r = &funcs[nfuncs++];
            r->u = u;
            r->func = f;
            if (fn->nsites && u->sites[fn->first_site].counter != PI_NONE) {
                r->has_entry = 1;
                r->entries = COUNT(u->sites[fn->first_site].counter);
            }
            for (uint32_t k = fn->first_site; k < fn->first_site + fn->nsites; k++)
                r->blocks = pm_sat_add(r->blocks, COUNT(u->sites[k].counter));
        }
#undef COUNT
    }
    /* lines: the largest count per (file, line, unit), then the sum over units */
    if (nlines)
        qsort(lines, nlines, sizeof *lines, cmp_line_key);
    size_t nl = 0;
    for (size_t i = 0; i < nlines; i++) {
        struct line_row *p = nl ? &lines[nl - 1] : NULL;
        if (p && !cmp_line_key(p, &lines[i])) {
            if (lines[i].count > p->count)
                p->count = lines[i].count;
            continue;
        }
        lines[nl++] = lines[i];
    }
    nlines = nl;
    nl = 0;
    for (size_t i = 0; i < nlines; i++) {
        struct line_row *p = nl ? &lines[nl - 1] : NULL;
        if (p && !strcmp(p->file, lines[i].file) && p->line == lines[i].line) {
            p->count = pm_sat_add(p->count, lines[i].count);
            continue;
        }
        lines[nl++] = lines[i];
    }
    nlines = nl;
    if (nsites)
        qsort(sites, nsites, sizeof *sites, cmp_site_row);
    if (nfuncs)
        qsort(funcs, nfuncs, sizeof *funcs, cmp_func_row);
    if (nlines)
        qsort(lines, nlines, sizeof *lines, cmp_line_row);
    size_t ns = limit(nsites, top), nf = limit(nfuncs, top), nln = limit(nlines, top);

    /* ---- output ---- */
    if (fmt == FMT_JSON) {
        printf("{\n  \"program\": ");
        pm_json_str(stdout, prog);
        printf(",\n  \"build_id\": \"%s\",\n  \"traces\": [", bid);
        for (int i = 0; i < ntraces; i++) {
            printf("%s\n    {\"path\": ", i ? "," : "");
            pm_json_str(stdout, infos[i].path);
            printf(", \"records\": %u, \"finished\": %s, \"truncated\": %s, \"merged\": %s, "
                   "\"mode_off\": %s}", infos[i].nrecords, infos[i].finished ? "true" : "false",
                   infos[i].truncated ? "true" : "false",
                   infos[i].flags & PI_TF_MERGED ? "true" : "false",
                   infos[i].flags & PI_TF_MODE_OFF ? "true" : "false");
        }
        printf("\n  ]");
        if (by & BY_SITE) {
            printf(",\n  \"sites\": [");
            for (size_t i = 0; i < ns; i++) {
                const struct site_row *r = &sites[i];
                const struct pi_site *st = &r->u->sites[r->site];
                printf("%s\n    {\"unit\": \"0x%016llx\", \"site\": %u, \"function\": ",
                       i ? "," : "", (unsigned long long)r->u->hdr.unit_id, r->site);
                pm_json_str(stdout, r->func);
                printf(", \"file\": ");
                pm_json_str(stdout, r->file);
                printf(", \"line\": %u, \"column\": %u, \"bb\": %u, \"counter\": %u, "
                       "\"address\": \"0x%llx\", \"count\": %llu}", r->line, st->column, st->bb,
                       st->counter, (unsigned long long)r->addr, (unsigned long long)r->count);
            }
            printf("%s]", ns ? "\n  " : "");
        }
        if (by & BY_FUNCTION) {
            printf(",\n  \"functions\": [");
            for (size_t i = 0; i < nf; i++) {
                const struct func_row *r = &funcs[i];
                const struct pi_func *fn = &r->u->funcs[r->func];
                printf("%s\n    {\"unit\": \"0x%016llx\", \"function\": ", i ? "," : "",
                       (unsigned long long)r->u->hdr.unit_id);
                pm_json_str(stdout, pi_unit_str(r->u, fn->name));
                printf(", \"file\": ");
                pm_json_str(stdout, pi_unit_str(r->u, fn->file));
                printf(", \"line\": %u, \"sites\": %u, ", fn->line, fn->nsites);
                if (r->has_entry)
                    printf("\"entries\": %llu", (unsigned long long)r->entries);
                else
                    printf("\"entries\": null");
                printf(", \"blocks\": %llu}", (unsigned long long)r->blocks);
            }
            printf("%s]", nf ? "\n  " : "");
        }
        if (by & BY_LINE) {
            printf(",\n  \"lines\": [");
            for (size_t i = 0; i < nln; i++) {
                printf("%s\n    {\"file\": ", i ? "," : "");
                pm_json_str(stdout, lines[i].file);
                printf(", \"line\": %u, \"count\": %llu}", lines[i].line,
                       (unsigned long long)lines[i].count);
            }
            printf("%s]", nln ? "\n  " : "");
        }
        printf("\n}\n");
    } else if (fmt == FMT_CSV) {
        if (by == BY_SITE) {
            printf("count,unit,site,function,file,line,column,bb,counter,address\n");
            for (size_t i = 0; i < ns; i++) {
                const struct site_row *r = &sites[i];
                const struct pi_site *st = &r->u->sites[r->site];
                printf("%llu,0x%016llx,%u,", (unsigned long long)r->count,
                       (unsigned long long)r->u->hdr.unit_id, r->site);
                pm_csv_str(stdout, r->func);
                putchar(',');
                pm_csv_str(stdout, r->file);
                printf(",%u,%u,%u,%u,0x%llx\n", r->line, st->column, st->bb, st->counter,
                       (unsigned long long)r->addr);
            }
        } else if (by == BY_FUNCTION) {
            printf("blocks,entries,unit,function,file,line,sites\n");
            for (size_t i = 0; i < nf; i++) {
                const struct func_row *r = &funcs[i];
                const struct pi_func *fn = &r->u->funcs[r->func];
                printf("%llu,", (unsigned long long)r->blocks);
                if (r->has_entry)
                    printf("%llu", (unsigned long long)r->entries);
                printf(",0x%016llx,", (unsigned long long)r->u->hdr.unit_id);
                pm_csv_str(stdout, pi_unit_str(r->u, fn->name));
                putchar(',');
                pm_csv_str(stdout, pi_unit_str(r->u, fn->file));
                printf(",%u,%u\n", fn->line, fn->nsites);
            }
        } else {
            printf("count,file,line\n");
            for (size_t i = 0; i < nln; i++) {
                printf("%llu,", (unsigned long long)lines[i].count);
                pm_csv_str(stdout, lines[i].file);
                printf(",%u\n", lines[i].line);
            }
        }
    } else {
        printf("pmopt report: %s (build-id %s), %d trace%s\n", prog,
               m.build_id_len ? bid : "none", ntraces, ntraces == 1 ? "" : "s");
        for (int i = 0; i < ntraces; i++)
            printf("  trace %s: %u records, %s%s%s\n", infos[i].path, infos[i].nrecords,
                   infos[i].finished ? "finished" : "truncated",
                   infos[i].flags & PI_TF_MERGED ? ", merged" : "",
                   infos[i].flags & PI_TF_MODE_OFF ? ", PERFINST_MODE=off" : "");
        /* text: widths from the data */
        int wc = 5, wf = 8, wl = 9;
        char loc[4096];
        for (size_t i = 0; i < ns; i++) {
            int d = digits(sites[i].count);
            wc = d > wc ? d : wc;
            int l = (int)strlen(sites[i].func);
            wf = l > wf ? (l > 40 ? 40 : l) : wf;
            l = snprintf(loc, sizeof loc, "%s:%u", sites[i].file, sites[i].line);
            wl = l > wl ? (l > 60 ? 60 : l) : wl;
        }
        if (by & BY_SITE) {
            printf("\nSites, hottest first\n");
            printf("  %*s  %-*s  %-*s  %-21s  %s\n", wc, "count", wf, "function", wl, "file:line",
                   "unit:site", "block");
            for (size_t i = 0; i < ns; i++) {
                const struct site_row *r = &sites[i];
                snprintf(loc, sizeof loc, "%s:%u", r->file, r->line);
                char us_[32];
                snprintf(us_, sizeof us_, "%016llx:%u", (unsigned long long)r->u->hdr.unit_id,
                         r->site);
                printf("  %*llu  %-*s  %-*s  %-21s  bb %u\n", wc, (unsigned long long)r->count,
                       wf, r->func, wl, loc, us_, r->u->sites[r->site].bb);
            }
        }
        if (by & BY_FUNCTION) {
            int we = 7, wb = 6, wn = 8;
            for (size_t i = 0; i < nf; i++) {
                int d = digits(funcs[i].entries);
                we = d > we ? d : we;
                d = digits(funcs[i].blocks);
                wb = d > wb ? d : wb;
                int l = (int)strlen(pi_unit_str(funcs[i].u, funcs[i].u->funcs[funcs[i].func].name));
                wn = l > wn ? (l > 40 ? 40 : l) : wn;
            }
            printf("\nFunctions, by block executions (entries = count of the entry block)\n");
            printf("  %*s  %*s  %-*s  %s\n", we, "entries", wb, "blocks", wn, "function",
                   "file:line");
            for (size_t i = 0; i < nf; i++) {
                const struct func_row *r = &funcs[i];
                const struct pi_func *fn = &r->u->funcs[r->func];
                char e[24];
                if (r->has_entry)
                    snprintf(e, sizeof e, "%llu", (unsigned long long)r->entries);
                else
                    snprintf(e, sizeof e, "-");
                printf("  %*s  %*llu  %-*s  %s:%u\n", we, e, wb, (unsigned long long)r->blocks, wn,
                       pi_unit_str(r->u, fn->name), pi_unit_str(r->u, fn->file), fn->line);
            }
        }
        if (by & BY_LINE) {
            int wc2 = 5;
            for (size_t i = 0; i < nln; i++) {
                int d = digits(lines[i].count);
                wc2 = d > wc2 ? d : wc2;
            }
            printf("\nLines, hottest first (a line's count is the largest count among its "
                   "blocks, as gcov shows it)\n");
            printf("  %*s  %s\n", wc2, "count", "file:line");
            for (size_t i = 0; i < nln; i++)
                printf("  %*llu  %s:%u\n", wc2, (unsigned long long)lines[i].count,
                       lines[i].file, lines[i].line);
        }
    }
    status = PM_OK;
    goto out;
oom:
    pm_error("out of memory");
out:
    fflush(stdout);
    pi_trace_free(&t);
    if (us)
        for (size_t i = 0; i < m.nunits; i++) {
            free(us[i].sums);
            free(us[i].site_addr);
        }
    free(us);
    free(sites);
    free(funcs);
    free(lines);
    for (int i = 0; i < ntraces; i++)
        free(infos[i].path);
    free(infos);
    if (have_dbg)
        pi_debug_close(&dbg);
    pi_meta_free(&m);
    return status;
}
