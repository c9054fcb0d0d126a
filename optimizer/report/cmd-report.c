/* pmopt report PROG TRACE... — counts per site, function and source line.
 *
 * PROG's metadata (.perfinst, read by pimeta) says which sites exist and
 * which counter each one reads; the traces hold the counters per (module,
 * unit).  A trace's module is matched to PROG by build-id: a trace of a
 * different build is refused (--force takes the module with PROG's file
 * name instead), other modules — shared libraries — are ignored with a
 * note.  Counts are summed over the traces.
 *
 * Three count views, hottest first:
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
 * and the views of the indicators' records and the instruction counts
 * (indicators, callers, regions, trace regions, types, watched data per
 * word and per access site), in report-ind.c.
 */
#include <fcntl.h>
#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gelf.h>
#include <libelf.h>

#include "report.h"

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
/* Reading                                                                   */
/* ---------------------------------------------------------------------- */

int rep_oom(void)
{
    pm_error("out of memory");
    return -1;
}
#define oom rep_oom

/* PROG's metadata, debug info, and where each site's code starts. */
static int read_program(struct report *r)
{
    struct pi_err err;
    struct pi_meta *m = &r->m;
    if (pi_meta_read(r->prog, m, &err)) {
        pm_error("%s", err.msg);
        return -1;
    }
    if (!m->nunits) {
        pm_error("%s: no perfinst metadata (no %s section): was it built with the plugin?",
                 r->prog, PI_SECTION_META);
        return -1;
    }
    if (pi_meta_validate(m, &err)) {
        pm_error("%s", err.msg);
        return -1;
    }
    pm_progress("reading the debug information of the program", 0, 0);
    int dbg = pi_debug_open(r->prog, &r->dbg, &err);
    pm_progress_clear();
    if (dbg == 0) {
        r->have_dbg = 1;
        if (r->dbg.warning[0])
            pm_note("%s", r->dbg.warning);
    }
    pm_names_program(m, r->have_dbg ? &r->dbg : NULL);
    if (m->build_id_len)
        pi_build_id_hex(m->build_id, m->build_id_len, r->bid);
    else
        snprintf(r->bid, sizeof r->bid, "(none)");

    r->us = calloc(m->nunits, sizeof *r->us);
    if (!r->us)
        return oom();
    for (size_t i = 0; i < m->nunits; i++) {
        if (!m->units[i].hdr.nsites)
            continue;
        r->us[i].site_addr = calloc(m->units[i].hdr.nsites, sizeof *r->us[i].site_addr);
        if (!r->us[i].site_addr)
            return oom();
    }
    for (size_t i = 0; i < m->nranges; i++) { /* sorted by address: the first wins */
        const struct pi_range *rg = &m->ranges[i];
        const struct pi_unit_view *u = pi_meta_unit(m, rg->unit_id);
        if (!rg->addr || !u || rg->site >= u->hdr.nsites)
            continue;
        struct usum *s = &r->us[u - m->units];
        if (!s->site_addr[rg->site])
            s->site_addr[rg->site] = rg->addr;
    }
    return 0;
}

/* The module of trace t that holds PROG, NULL if none (then nothing of t
 * is counted), or -1 through *refused when t is another build. */
static const struct pi_trace_module *program_module(const struct report *r,
                                                    const struct pi_trace *t, int *refused)
{
    *refused = 0;
    const struct pi_trace_module *mod = pm_match_module(t, r->m.build_id, r->m.build_id_len);
    if (mod)
        return mod;
    if (!t->nmodules) {
        /* cut short before its first MODULE record: it counted nothing we can see */
        pm_note("%s has no MODULE records: nothing of it is counted", t->path);
        return NULL;
    }
    const struct pi_trace_module *g = pm_guess_module(t, r->prog);
    char tb[2 * PI_BUILD_ID_MAX + 1] = "(none)";
    if (g->build_id_len)
        pi_build_id_hex(g->build_id, g->build_id_len, tb);
    if (!r->force) {
        pm_error("%s is not a trace of %s: %s has build-id %s, the trace's %s has %s "
                 "(--force reads it anyway)", t->path, r->prog, r->prog, r->bid, g->path, tb);
        *refused = 1;
        return NULL;
    }
    pm_note("%s: reading module %s (build-id %s) as %s (build-id %s) because of --force",
            t->path, g->path, tb, r->prog, r->bid);
    return g;
}

/* Add trace t's counts of PROG's module into r->us. */
static int add_trace(struct report *r, const struct pi_trace *t)
{
    int refused;
    const struct pi_trace_module *mod = program_module(r, t, &refused);
    if (refused)
        return -1;
    for (size_t i = 0; i < t->nmodules; i++) {
        const struct pi_trace_module *o = &t->modules[i];
        if (o == mod)
            continue;
        int has_counts = 0;
        for (size_t k = 0; k < t->nunits && !has_counts; k++)
            has_counts = t->units[k].module == i;
        if (has_counts)
            pm_note("%s: module %s is not %s (another build-id)%s: ignored", t->path, o->path,
                    r->prog, pm_is_shared_lib(o->path) ? ", a shared library" : "");
    }
    uint32_t mpos = mod ? (uint32_t)(mod - t->modules) : UINT32_MAX;
    for (size_t k = 0; k < t->nunits; k++) {
        const struct pi_trace_unit *tu = &t->units[k];
        if (tu->module != mpos)
            continue;
        const struct pi_unit_view *u = pi_meta_unit(&r->m, tu->unit_id);
        if (!u) {
            pm_note("%s: unit 0x%016llx is not in %s's metadata: ignored", t->path,
                    (unsigned long long)tu->unit_id, r->prog);
            continue;
        }
        uint32_t shorter = tu->ncounters < u->hdr.ncounters ? tu->ncounters : u->hdr.ncounters;
        if (tu->ncounters != u->hdr.ncounters) {
            if (!r->force) {
                pm_error("%s: unit 0x%016llx (%s) has %u counters, but %s says %u", t->path,
                         (unsigned long long)tu->unit_id, pi_unit_str(u, u->hdr.source),
                         tu->ncounters, r->prog, u->hdr.ncounters);
                return -1;
            }
            pm_note("%s: unit 0x%016llx has %u counters, %s says %u: using the first %u",
                    t->path, (unsigned long long)tu->unit_id, tu->ncounters, r->prog,
                    u->hdr.ncounters, shorter);
        }
        struct usum *s = &r->us[u - r->m.units];
        if (!s->sums) {
            /* sized by the trace's record (bounded by its size), not by what
             * the metadata claims */
            s->n = shorter;
            s->sums = calloc(s->n ? s->n : 1, sizeof *s->sums);
            if (!s->sums)
                return oom();
        }
        uint32_t n = tu->ncounters < s->n ? tu->ncounters : s->n;
        for (uint32_t i = 0; i < n; i++)
            s->sums[i] = pm_sat_add(s->sums[i], tu->counts[i]);
    }
    return rind_add_trace(r, t, mod);
}

static int read_traces(struct report *r, char **paths)
{
    for (int i = 0; i < r->ntraces; i++) {
        struct pi_err err;
        struct pi_trace t;
        pm_progress("reading traces", (size_t)i, (size_t)r->ntraces);
        if (pi_trace_read(paths[i], &t, &err)) {
            pm_error("%s", err.msg);
            return -1;
        }
        pm_trace_notes(&t);
        int bad = add_trace(r, &t) || rpages_add_trace(r, &t) || rranges_add_trace(r, &t);
        struct trace_info *in = &r->infos[i];
        in->path = strdup(t.path);
        in->nrecords = t.nrecords;
        in->flags = t.hdr.flags;
        in->finished = t.has_end;
        in->truncated = t.truncated;
        memcpy(in->lost, t.lost, sizeof in->lost);
        pi_trace_free(&t);
        if (bad)
            return -1;
        if (!in->path)
            return oom();
    }
    pm_progress_clear();
    return 0;
}

/* ---------------------------------------------------------------------- */
/* The views                                                                 */
/* ---------------------------------------------------------------------- */

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
    int c = strcmp(x->name, y->name);
    if (c)
        return c;
    if ((c = strcmp(x->key, y->key)))
        return c;
    if (x->u->hdr.unit_id != y->u->hdr.unit_id)
        return x->u->hdr.unit_id < y->u->hdr.unit_id ? -1 : 1;
    return x->func < y->func ? -1 : x->func > y->func;
}

/* Copies of one function together: linkage key, file, line; then by unit. */
static int cmp_copy(const void *a, const void *b)
{
    const struct func_copy *x = a, *y = b;
    int c = x->key == y->key ? 0 : strcmp(x->key, y->key);
    if (c || (x->file != y->file && (c = strcmp(x->file, y->file))))
        return c;
    if (x->u->funcs[x->func].line != y->u->funcs[y->func].line)
        return x->u->funcs[x->func].line < y->u->funcs[y->func].line ? -1 : 1;
    if (x->u->hdr.unit_id != y->u->hdr.unit_id)
        return x->u->hdr.unit_id < y->u->hdr.unit_id ? -1 : 1;
    return x->func < y->func ? -1 : x->func > y->func;
}

/* r->copies (sorted by cmp_copy) as rows: one per function. */
static void group_funcs(struct report *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->ncopies; i++) {
        const struct func_copy *c = &r->copies[i];
        const struct pi_func *fn = &c->u->funcs[c->func];
        struct func_row *row = n ? &r->funcs[n - 1] : NULL;
        if (!row || row->key != c->key || row->file != c->file || row->line != fn->line) {
            row = &r->funcs[n++];
            *row = (struct func_row){ .u = c->u, .func = c->func, .key = c->key,
                                      .name = pm_func_name(c->u, c->func), .file = c->file,
                                      .line = fn->line, .copies = c };
        }
        row->ncopies++;
        row->has_entry |= c->has_entry;
        row->entries = pm_sat_add(row->entries, c->entries);
        row->blocks = pm_sat_add(row->blocks, c->blocks);
    }
    r->nfuncs = n;
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

/* Lines: the largest count per (file, line, unit), then the sum over units. */
static void group_lines(struct report *r)
{
    struct line_row *l = r->lines;
    size_t n = 0;
    if (r->nlines)
        qsort(l, r->nlines, sizeof *l, cmp_line_key);
    for (size_t i = 0; i < r->nlines; i++) {
        if (n && !cmp_line_key(&l[n - 1], &l[i])) {
            if (l[i].count > l[n - 1].count)
                l[n - 1].count = l[i].count;
            continue;
        }
        l[n++] = l[i];
    }
    r->nlines = n;
    n = 0;
    for (size_t i = 0; i < r->nlines; i++) {
        if (n && !strcmp(l[n - 1].file, l[i].file) && l[n - 1].line == l[i].line) {
            l[n - 1].count = pm_sat_add(l[n - 1].count, l[i].count);
            continue;
        }
        l[n++] = l[i];
    }
    r->nlines = n;
}

/* The rows of a view sorted hottest first (count at offset off) that
 * together reach pct thousandths of a percent of the view's total. */
static size_t hot_prefix(const void *rows, size_t n, size_t size, size_t off, long pct)
{
    __extension__ typedef unsigned __int128 u128;
    uint64_t total = 0, cum = 0, v;
    for (size_t i = 0; i < n; i++) {
        memcpy(&v, (const char *)rows + i * size + off, sizeof v);
        total = pm_sat_add(total, v);
    }
    size_t k = 0;
    while (k < n && (u128)cum * 100000 < (u128)total * (u128)pct) {
        memcpy(&v, (const char *)rows + k * size + off, sizeof v);
        if (!v)
            break;
        cum = pm_sat_add(cum, v);
        k++;
    }
    return k;
}

/* Functions whose code in PROG came from an object the plugin did not
 * instrument.  An inline or template function of C++ is a COMDAT: every
 * object that uses it has a copy and the linker keeps one; the ranges of
 * the copies it discards go with them (pass-ranges.cc puts a CODE chunk in
 * its function's group).  When the kept copy is an uninstrumented
 * object's, none of the row's copies has a code range while PROG defines
 * the function as a global or weak symbol: the row is "not instrumented in
 * the kept copy", its counts unknown, rather than 0.  (A function
 * optimised away has no range either, but PROG does not define it; a
 * stripped PROG has no symbols to tell, and keeps the 0.) */
static int has_code(const struct report *r, const struct func_copy *c)
{
    const struct pi_func *fn = &c->u->funcs[c->func];
    const struct usum *s = &r->us[c->u - r->m.units];
    for (uint32_t k = fn->first_site; s->site_addr && k < fn->first_site + fn->nsites; k++)
        if (s->site_addr[k])
            return 1;
    return 0;
}

static int mark_uninstrumented(struct report *r)
{
    size_t candidates = 0;
    for (size_t i = 0; i < r->nfuncs; i++) {
        struct func_row *row = &r->funcs[i];
        int code = !row->u->funcs[row->func].nsites;
        for (uint32_t k = 0; k < row->ncopies && !code; k++)
            code = has_code(r, &row->copies[k]);
        row->uninstrumented = code ? 0 : -1; /* -1: a candidate, decided below */
        candidates += !code;
    }
    if (!candidates)
        return 0;
    int fd = open(r->prog, O_RDONLY);
    Elf *e = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ, NULL);
    struct pm_sym *syms = NULL;
    size_t nsyms = 0;
    int status = e && pm_elf_symbols(e, STT_FUNC, &syms, &nsyms) ? oom() : 0;
    for (size_t i = 0; i < r->nfuncs; i++) {
        struct func_row *row = &r->funcs[i];
        if (row->uninstrumented != -1)
            continue;
        const char *name = pi_unit_str(row->u, row->u->funcs[row->func].name);
        struct pm_sym key = { .name = name };
        const struct pm_sym *sym = nsyms ? bsearch(&key, syms, nsyms, sizeof *syms, pm_sym_cmp) : NULL;
        while (sym && sym > syms && !strcmp(sym[-1].name, name)) /* equal names are adjacent */
            sym--;
        int defined = 0;
        for (; sym && sym < syms + nsyms && !strcmp(sym->name, name) && !defined; sym++)
            defined = sym->bind == STB_GLOBAL || sym->bind == STB_WEAK;
        row->uninstrumented = defined;
    }
    free(syms);
    if (e)
        elf_end(e);
    if (fd >= 0)
        close(fd);
    return status;
}

static int build_views(struct report *r)
{
    const struct pi_meta *m = &r->m;
    size_t cap_sites = 0, cap_funcs = 0;
    for (size_t i = 0; i < m->nunits; i++) {
        cap_sites += m->units[i].hdr.nsites;
        cap_funcs += m->units[i].hdr.nfuncs;
    }
    r->sites = calloc(cap_sites ? cap_sites : 1, sizeof *r->sites);
    r->funcs = calloc(cap_funcs ? cap_funcs : 1, sizeof *r->funcs);
    r->copies = calloc(cap_funcs ? cap_funcs : 1, sizeof *r->copies);
    r->lines = calloc(cap_sites ? cap_sites : 1, sizeof *r->lines);
    if (!r->sites || !r->funcs || !r->copies || !r->lines)
        return oom();
    for (size_t i = 0; i < m->nunits; i++) {
        const struct pi_unit_view *u = &m->units[i];
        const struct usum *s = &r->us[i];
#define COUNT(counter) ((counter) != PI_NONE && s->sums && (counter) < s->n ? s->sums[counter] : 0)
        for (uint32_t k = 0; k < u->hdr.nsites; k++) {
            const struct pi_site *st = &u->sites[k];
            if (st->counter == PI_NONE)
                continue;
            struct site_row *row = &r->sites[r->nsites++];
            row->u = u;
            row->site = k;
            row->count = COUNT(st->counter);
            row->linkage = pi_unit_str(u, u->funcs[st->func].name);
            row->func = pm_func_name(u, st->func);
            row->file = pm_unit_file(u, st->file);
            row->line = st->line;
            row->addr = s->site_addr ? s->site_addr[k] : 0;
            /* no line from the compiler: ask DWARF (a site with a file and
               line 0 is a block gcov counts on no line: a computed goto's
               dispatch, pass-count.cc block_location) */
            if (!row->line && !st->file && row->addr && r->have_dbg &&
                pi_debug_line(&r->dbg, row->addr, &row->file, &row->line))
                row->file = pm_file(NULL, row->file);
            if (row->line)
                r->lines[r->nlines++] = (struct line_row){ .file = row->file, .line = row->line,
                                                           .count = row->count,
                                                           .unit_id = u->hdr.unit_id };
        }
        for (uint32_t f = 0; f < u->hdr.nfuncs; f++) {
            const struct pi_func *fn = &u->funcs[f];
            struct func_copy *row = &r->copies[r->ncopies++];
            row->u = u;
            row->func = f;
            row->key = pm_fn_key(pi_unit_str(u, fn->name));
            row->file = pm_func_file(u, f);
            if (fn->nsites && u->sites[fn->first_site].counter != PI_NONE) {
                row->has_entry = 1;
                row->entries = COUNT(u->sites[fn->first_site].counter);
            }
            for (uint32_t k = fn->first_site; k < fn->first_site + fn->nsites; k++)
                row->blocks = pm_sat_add(row->blocks, COUNT(u->sites[k].counter));
        }
#undef COUNT
    }
    group_lines(r);
    if (r->ncopies)
        qsort(r->copies, r->ncopies, sizeof *r->copies, cmp_copy);
    group_funcs(r);
    if (mark_uninstrumented(r))
        return -1;
    if (r->nsites)
        qsort(r->sites, r->nsites, sizeof *r->sites, cmp_site_row);
    if (r->nfuncs)
        qsort(r->funcs, r->nfuncs, sizeof *r->funcs, cmp_func_row);
    if (r->nlines)
        qsort(r->lines, r->nlines, sizeof *r->lines, cmp_line_row);
    for (size_t i = 0; i < r->nsites; i++)
        r->total_sites = pm_sat_add(r->total_sites, r->sites[i].count);
    for (size_t i = 0; i < r->nfuncs; i++)
        if (!r->funcs[i].uninstrumented)
            r->total_funcs = pm_sat_add(r->total_funcs, r->funcs[i].blocks);
    for (size_t i = 0; i < r->nlines; i++)
        r->total_lines = pm_sat_add(r->total_lines, r->lines[i].count);
    if (r->hot > 0) { /* hot spots: the shortest prefix of each view with --hot of its total */
        r->nsites = hot_prefix(r->sites, r->nsites, sizeof *r->sites,
                               offsetof(struct site_row, count), r->hot);
        r->nfuncs = hot_prefix(r->funcs, r->nfuncs, sizeof *r->funcs,
                               offsetof(struct func_row, blocks), r->hot);
        r->nlines = hot_prefix(r->lines, r->nlines, sizeof *r->lines,
                               offsetof(struct line_row, count), r->hot);
    }
    if (r->top > 0) {
        size_t top = (size_t)r->top;
        r->nsites = r->nsites < top ? r->nsites : top;
        r->nfuncs = r->nfuncs < top ? r->nfuncs : top;
        r->nlines = r->nlines < top ? r->nlines : top;
    }
    return 0;
}

int rep_load(struct report *r, char **traces)
{
    r->infos = calloc(r->ntraces > 0 ? (size_t)r->ntraces : 1, sizeof *r->infos);
    if (!r->infos)
        return oom();
    if (read_program(r) || rind_init(r) || read_traces(r, traces) || build_views(r))
        return -1;
    return 0;
}

/* ---------------------------------------------------------------------- */
/* Output                                                                    */
/* ---------------------------------------------------------------------- */

static const char *tf(int b) { return b ? "true" : "false"; }

/* The sources of a function's units, ';' between them, as a csv field. */
static void csv_units(const struct func_row *row)
{
    size_t len = 1;
    for (uint32_t k = 0; k < row->ncopies; k++)
        len += strlen(pm_unit_source(row->copies[k].u)) + 1;
    char *buf = malloc(len);
    if (!buf)
        return;
    len = 0;
    for (uint32_t k = 0; k < row->ncopies; k++)
        len += (size_t)sprintf(buf + len, "%s%s", k ? ";" : "", pm_unit_source(row->copies[k].u));
    pm_csv_str(stdout, buf);
    free(buf);
}

static void print_json(const struct report *r)
{
    printf("{\n  \"program\": ");
    pm_json_str(stdout, r->prog);
    printf(",\n  \"source_root\": ");
    pm_json_str(stdout, pm_source_root());
    printf(",\n  \"build_id\": \"%s\",\n  \"traces\": [", r->m.build_id_len ? r->bid : "");
    for (int i = 0; i < r->ntraces; i++) {
        const struct trace_info *in = &r->infos[i];
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
        for (size_t i = 0; i < r->nsites; i++) {
            const struct site_row *row = &r->sites[i];
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
        printf("%s]", r->nsites ? "\n  " : "");
    }
    if (r->by & BY_FUNCTION) {
        printf(",\n  \"functions\": [");
        for (size_t i = 0; i < r->nfuncs; i++) {
            const struct func_row *row = &r->funcs[i];
            const struct pi_func *fn = &row->u->funcs[row->func];
            printf("%s\n    {\"unit\": \"0x%016llx\", \"function\": ", i ? "," : "",
                   (unsigned long long)row->u->hdr.unit_id);
            pm_json_str(stdout, row->name);
            printf(", \"linkage\": ");
            pm_json_str(stdout, pi_unit_str(row->u, fn->name));
            printf(", \"file\": ");
            pm_json_str(stdout, row->file);
            printf(", \"line\": %u, \"sites\": %u, \"entries\": ", row->line, fn->nsites);
            if (row->has_entry && !row->uninstrumented)
                printf("%llu", (unsigned long long)row->entries);
            else
                printf("null");
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
        printf("%s]", r->nfuncs ? "\n  " : "");
    }
    if (r->by & BY_LINE) {
        printf(",\n  \"lines\": [");
        for (size_t i = 0; i < r->nlines; i++) {
            printf("%s\n    {\"file\": ", i ? "," : "");
            pm_json_str(stdout, r->lines[i].file);
            printf(", \"line\": %u, \"count\": %llu}", r->lines[i].line,
                   (unsigned long long)r->lines[i].count);
        }
        printf("%s]", r->nlines ? "\n  " : "");
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
        for (size_t i = 0; i < r->nsites; i++) {
            const struct site_row *row = &r->sites[i];
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
        printf("blocks,entries,unit,function,file,line,sites,linkage,nunits,units\n");
        for (size_t i = 0; i < r->nfuncs; i++) {
            const struct func_row *row = &r->funcs[i];
            const struct pi_func *fn = &row->u->funcs[row->func];
            if (!row->uninstrumented)
                printf("%llu", (unsigned long long)row->blocks);
            putchar(',');
            if (row->has_entry && !row->uninstrumented)
                printf("%llu", (unsigned long long)row->entries);
            printf(",0x%016llx,", (unsigned long long)row->u->hdr.unit_id);
            pm_csv_str(stdout, row->name);
            putchar(',');
            pm_csv_str(stdout, row->file);
            printf(",%u,%u,", row->line, fn->nsites);
            pm_csv_str(stdout, pi_unit_str(row->u, fn->name));
            printf(",%u,", row->ncopies);
            csv_units(row);
            putchar('\n');
        }
    } else if (r->by == BY_LINE) {
        printf("count,file,line\n");
        for (size_t i = 0; i < r->nlines; i++) {
            printf("%llu,", (unsigned long long)r->lines[i].count);
            pm_csv_str(stdout, r->lines[i].file);
            printf(",%u\n", r->lines[i].line);
        }
    } else {
        rind_csv(r);
    }
}

int rep_digits(uint64_t v)
{
    int d = 1;
    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d;
}

const char *rep_pct(char *buf, size_t n, uint64_t v, uint64_t total)
{
    if (!total)
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%.1f%%", 100.0 * (double)v / (double)total);
    return buf;
}

int rep_widest(int have, int len, int cap)
{
    if (len > cap)
        len = cap;
    return len > have ? len : have;
}

static void print_text(const struct report *r)
{
    printf("pmopt report: %s (build-id %s), %d trace%s\n", r->prog, r->bid, r->ntraces,
           r->ntraces == 1 ? "" : "s");
    for (int i = 0; i < r->ntraces; i++) {
        const struct trace_info *in = &r->infos[i];
        printf("  trace %s: %u records, %s%s%s\n", in->path, in->nrecords, pm_trace_state(in->finished, in->flags),
               in->flags & PI_TF_MERGED ? ", merged" : "",
               in->flags & PI_TF_MODE_OFF ? ", PERFINST_MODE=off" : "");
        for (uint32_t k = 1; k < PI_LOST_NTABLES; k++)
            if (in->lost[k].table)
                printf("    lost: %s\n", pm_lost_text(&in->lost[k]));
    }
    if (r->hot)
        printf("hot spots (--hot=%g): %zu sites, %zu functions, %zu lines\n",
               (double)r->hot / 1000, r->nsites, r->nfuncs, r->nlines);
    char loc[4096];
    if (r->by & BY_SITE) {
        int wc = 5, wf = 8, wl = 9;
        for (size_t i = 0; i < r->nsites; i++) {
            wc = rep_widest(wc, rep_digits(r->sites[i].count), 20);
            wf = rep_widest(wf, (int)strlen(r->sites[i].func), 40);
            wl = rep_widest(wl, snprintf(loc, sizeof loc, "%s:%u", r->sites[i].file,
                                     r->sites[i].line), 60);
        }
        printf("\nSites, hottest first (%% of all the sites' counts)\n");
        printf("  %*s  %6s  %-*s  %-*s  %-21s  %s\n", wc, "count", "%", wf, "function", wl,
               "file:line", "unit:site", "block");
        for (size_t i = 0; i < r->nsites; i++) {
            const struct site_row *row = &r->sites[i];
            char us[32], p[16];
            snprintf(loc, sizeof loc, "%s:%u", row->file, row->line);
            snprintf(us, sizeof us, "%016llx:%u", (unsigned long long)row->u->hdr.unit_id,
                     row->site);
            printf("  %*llu  %6s  %-*s  %-*s  %-21s  bb %u\n", wc, (unsigned long long)row->count,
                   rep_pct(p, sizeof p, row->count, r->total_sites), wf, row->func, wl, loc, us,
                   row->u->sites[row->site].bb);
        }
    }
    if (r->by & BY_FUNCTION) {
        int we = 7, wb = 6, wn = 8, wl = 9;
        for (size_t i = 0; i < r->nfuncs; i++) {
            const struct func_row *row = &r->funcs[i];
            we = rep_widest(we, rep_digits(row->entries), 20);
            wb = rep_widest(wb, rep_digits(row->blocks), 20);
            wn = rep_widest(wn, (int)strlen(row->name), 40);
            wl = rep_widest(wl, snprintf(loc, sizeof loc, "%s:%u", row->file, row->line), 60);
        }
        printf("\nFunctions, by block executions (entries = count of the entry block; a function "
               "compiled in several units is one row, summed; %% of all block executions)\n");
        printf("  %*s  %*s  %6s  %-*s  %-*s  %s\n", we, "entries", wb, "blocks", "%", wn,
               "function", wl, "file:line", "unit");
        for (size_t i = 0; i < r->nfuncs; i++) {
            const struct func_row *row = &r->funcs[i];
            char e[24] = "-", b[24] = "-", us[32], p[16] = "-";
            if (row->has_entry && !row->uninstrumented)
                snprintf(e, sizeof e, "%llu", (unsigned long long)row->entries);
            if (!row->uninstrumented) {
                snprintf(b, sizeof b, "%llu", (unsigned long long)row->blocks);
                rep_pct(p, sizeof p, row->blocks, r->total_funcs);
            }
            snprintf(loc, sizeof loc, "%s:%u", row->file, row->line);
            snprintf(us, sizeof us, "%u units", row->ncopies);
            printf("  %*s  %*s  %6s  %-*s  %-*s  %s%s\n", we, e, wb, b, p, wn, row->name, wl, loc,
                   row->ncopies == 1 ? pm_unit_source(row->u) : us,
                   row->uninstrumented ? "  (not instrumented in the kept copy)" : "");
            for (uint32_t k = 0; r->units && row->ncopies > 1 && k < row->ncopies; k++) {
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
        for (size_t i = 0; i < r->nlines; i++)
            wc = rep_widest(wc, rep_digits(r->lines[i].count), 20);
        printf("\nLines, hottest first (a line's count is the largest count among its blocks, "
               "as gcov shows it; %% of all the lines' counts)\n");
        printf("  %*s  %6s  %s\n", wc, "count", "%", "file:line");
        for (size_t i = 0; i < r->nlines; i++) {
            char p[16];
            printf("  %*llu  %6s  %s:%u\n", wc, (unsigned long long)r->lines[i].count,
                   rep_pct(p, sizeof p, r->lines[i].count, r->total_lines), r->lines[i].file,
                   r->lines[i].line);
        }
    }
    rind_text(r);
    rranges_text(r);
    rpages_text(r);
    rperf_text(r);
}

/* ---------------------------------------------------------------------- */

void rep_free(struct report *r)
{
    if (r->us)
        for (size_t i = 0; i < r->m.nunits; i++) {
            free(r->us[i].sums);
            free(r->us[i].site_addr);
        }
    free(r->us);
    for (int i = 0; r->infos && i < r->ntraces; i++)
        free(r->infos[i].path);
    free(r->infos);
    free(r->sites);
    free(r->funcs);
    free(r->copies);
    free(r->lines);
    rind_free(r);
    rpages_free(r);
    rranges_free(r);
    if (r->have_dbg)
        pi_debug_close(&r->dbg);
    pi_meta_free(&r->m);
}

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
            r.top = strtol(optarg, &end, 10);
            if (!*optarg || *end || r.top < 0)
                return pm_usage_error("report", "--top: '%s' is not a count", optarg);
            break;
        }
        case 'f': r.force = 1; break;
        case 'W': html = optarg; break;
        case 'A': annotate = optarg; break;
        case 'H':
            r.hot = optarg ? pm_parse_pct(optarg) : 90000;
            if (r.hot < 0)
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
    if (annotate && (r.fmt != FMT_TEXT || r.by || callers || r.top || r.hot || html))
        return pm_usage_error("report", "--annotate shows one file's lines in text: not with "
                              "--format, --by, --callers, --top, --hot or --html");
    if (annotate) {
        r.prog = argv[optind];
        r.ntraces = argc - optind - 1;
        r.by = BY_LINE;
        int st = rep_load(&r, argv + optind + 1) || rep_annotate(&r, annotate) ? PM_ERROR : PM_OK;
        fflush(stdout);
        rep_free(&r);
        return st;
    }
    if (record && (!r.hot || argc - optind != 2 || r.top))
        return pm_usage_error("report", "--record needs --hot, one TRACE, and no --top");
    if (r.fmt == FMT_CSV && callers && r.by_given && r.by != BY_CALLERS)
        return pm_usage_error("report", "csv shows one table: --callers or --by, not both");
    if (callers)
        r.by = r.fmt == FMT_CSV ? BY_CALLERS : (r.by ? r.by : BY_ALL) | BY_CALLERS;
    if (!r.by && r.hot)
        r.by = r.fmt == FMT_CSV ? BY_FUNCTION : BY_SITE | BY_FUNCTION | BY_LINE;
    if (!r.by)
        r.by = r.fmt == FMT_CSV ? BY_SITE : BY_ALL;
    if (r.fmt == FMT_CSV && r.by == (BY_WATCH | BY_WATCH_SITES))
        r.by = BY_WATCH; /* one table: the words (watch-sites: the sites) */
    if (r.fmt == FMT_CSV && (r.by & (BY_PAGES | BY_PERF)))
        return pm_usage_error("report", "--by=pages and --by=perf are shown in text and json only");
    if (!r.by_given && r.fmt != FMT_CSV)
        r.by |= BY_PAGES | BY_PERF; /* when a trace has them */
    r.prog = argv[optind];
    r.ntraces = argc - optind - 1;

    int status = PM_ERROR;
    if (rep_load(&r, argv + optind + 1) == 0 && rind_build(&r) == 0) {
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
    rep_free(&r);
    return status;
}
