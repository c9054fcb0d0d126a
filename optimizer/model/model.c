/* model.c — a program and its traces as pmopt's commands see them
 * (model.h): PROG's metadata and debug information read once, each trace
 * read once and everything of PROG's in it kept — the counters summed, the
 * indicators' records combined (SITESTAT, EVENT, TRACEREG, ICALL: frames
 * at link-time addresses, pi_trace_add_indicators), the watched words
 * keyed, the page tables, perf_event counts and ranges added at run time —
 * and the three count views built.
 *
 * A trace's module is matched to PROG by build-id: a trace of a different
 * build is refused (--force takes the module with PROG's file name
 * instead), other modules — shared libraries — are ignored with a note.
 *
 * Three count views, hottest first:
 *   sites      one row per counted site (a counter of its own, or a block of a
 *              function whose arcs carry the counters): its count, solved by
 *              flow conservation (rep_solve, common/piflow.c; a STOPPED
 *              record stands for the exit a stopped thread missed);
 *   functions  entries = the count of the function's first site (its entry
 *              block), plus the entries of its bodies inlined into other
 *              functions where those were counted after the early inliner
 *              (count-at=late: PI_SITE_INLINE, the count of the block each
 *              is entered in; a function inlined everywhere gets a row of
 *              its own with no blocks), blocks = the sum of its sites'
 *              counts (block executions);
 *   lines      per source line the LARGEST count among the line's sites of
 *              one unit — what gcov prints: a `for` line spans the init, test
 *              and increment blocks, and users expect the test's count
 *              (n+1), not their sum (2n+1).  Copies of a line in different
 *              units (a header's inline function) are separate code: their
 *              counts are added.  In a function whose arcs carry the
 *              counters, lines are counted by gcov's rule (gcov-lines.c).
 *
 * Indicator records are matched to PROG by unit id (they carry no module);
 * records of units PROG does not have are ignored with a note.  Watched
 * words are classified per trace (pi_trace_watch_module): a word of PROG's
 * module inside PROG's image is keyed by its link-time address, any other
 * by its run-time address (or, from a merged trace, its module-relative
 * one); words of other modules are ignored with a note.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gelf.h>
#include <libelf.h>

#include "model.h"
#include "piflow.h"
#include "piutil.h"

#define oom rep_oom

const struct pi_unit_view *rep_prog_unit(const struct model *md, uint64_t unit_id, uint32_t site)
{
    const struct pi_unit_view *u = pi_meta_unit(&md->m, unit_id);
    return u && site < u->hdr.nsites ? u : NULL;
}

/* ---------------------------------------------------------------------- */
/* The indicators' records                                                   */
/* ---------------------------------------------------------------------- */

const struct pi_trace *rind_combined(const struct model *md)
{
    return md->ir.code ? &md->ir.ind : NULL;
}

static int rind_init(struct model *md)
{
    const struct pi_meta *m = &md->m;
    struct ind_records *iv = &md->ir;
    iv->code = calloc(m->nunits ? m->nunits : 1, sizeof *iv->code);
    if (!iv->code)
        return rep_oom();
    for (size_t i = 0; i < m->nunits; i++) {
        iv->code[i] = calloc(m->units[i].hdr.nsites ? m->units[i].hdr.nsites : 1,
                             sizeof **iv->code);
        if (!iv->code[i])
            return rep_oom();
    }
    for (size_t i = 0; i < m->nranges; i++) {
        const struct pi_range *rg = &m->ranges[i];
        const struct pi_unit_view *u = pi_meta_unit(m, rg->unit_id);
        if (!rg->addr || !u || rg->site >= u->hdr.nsites)
            continue; /* discarded by the linker */
        struct site_code *c = &iv->code[u - m->units][rg->site];
        c->nranges++;
        c->insns += rg->ninsns;
        for (unsigned t = 0; t < PI_NTYPES; t++)
            c->ntype[t] += rg->ntype[t];
    }
    return 0;
}

/* Is a link-time address inside PROG's image?  (Without section headers:
 * assume so.) */
static int in_image(const struct model *md, uint64_t link)
{
    if (!md->have_dbg || md->dbg.alloc_hi <= md->dbg.alloc_lo)
        return 1;
    return link >= md->dbg.alloc_lo && link < md->dbg.alloc_hi;
}

/* Trace t's watched words, keyed (enum wclass), into iv->wwords. */
static int add_words(struct model *md, const struct pi_trace *t, const struct pi_trace_module *mod)
{
    struct ind_records *iv = &md->ir;
    if (!t->nwords)
        return 0;
    if (iv->wgran && t->watch_gran != iv->wgran) {
        pm_error("%s: watched words of %u bytes, but an earlier trace has %u-byte words "
                 "(PERFINST_WATCH_GRAN differed)", t->path, t->watch_gran, iv->wgran);
        return -1;
    }
    iv->wgran = t->watch_gran;
    size_t other = 0;
    int merged = !!(t->hdr.flags & PI_TF_MERGED);
    for (size_t i = 0; i < t->nwords; i++) {
        const struct pi_watch_word *w = &t->words[i];
        uint64_t link;
        const struct pi_trace_module *m = pi_trace_watch_module(t, w->addr, &link);
        struct wword x = { .cls = W_RUNTIME, .addr = w->addr, .reads = w->reads,
                           .writes = w->writes };
        if (m && m != mod) {
            other++;
            continue;
        }
        if (m && in_image(md, link)) {
            x.cls = W_PROG;
            x.addr = link;
        } else if (m && merged) {
            x.cls = W_RELATIVE;
            x.addr = link;
        }
        if (pi_grow((void **)&iv->wwords, &iv->wcap, iv->nwwords, sizeof *iv->wwords))
            return rep_oom();
        iv->wwords[iv->nwwords++] = x;
    }
    if (other)
        pm_note("%s: %zu watched word%s in modules that are not %s: ignored", t->path, other,
                other == 1 ? "" : "s", md->prog);
    return 0;
}

static int rind_add_trace(struct model *md, const struct pi_trace *t, const struct pi_trace_module *mod)
{
    struct ind_records *iv = &md->ir;
    if (!mod)
        return 0;
    size_t foreign = 0;
    for (size_t i = 0; i < t->nsitestats; i++)
        foreign += !rep_prog_unit(md, t->sitestats[i].unit_id, t->sitestats[i].site);
    for (size_t i = 0; i < t->nevents; i++)
        foreign += !rep_prog_unit(md, t->events[i].ev.unit_id, t->events[i].ev.site);
    for (size_t i = 0; i < t->ntraceregs; i++) {
        const struct pi_trace_tracereg *g = &t->traceregs[i];
        const struct pi_unit_view *u = pi_meta_unit(&md->m, g->unit_id);
        if (!rep_prog_unit(md, g->start_unit, g->start_site) || !u) {
            foreign++;
            continue;
        }
        if (g->ncounters != u->hdr.ncounters) {
            if (!md->force) {
                pm_error("%s: trace region of site %u: unit 0x%016llx (%s) has %u counters, but "
                         "%s says %u", t->path, g->start_site, (unsigned long long)g->unit_id,
                         pi_unit_str(u, u->hdr.source), g->ncounters, md->prog, u->hdr.ncounters);
                return -1;
            }
            pm_note("%s: trace region of site %u: unit 0x%016llx has %u counters, %s says %u: "
                    "using the first %u", t->path, g->start_site, (unsigned long long)g->unit_id,
                    g->ncounters, md->prog, u->hdr.ncounters,
                    g->ncounters < u->hdr.ncounters ? g->ncounters : u->hdr.ncounters);
        }
    }
    if (foreign)
        pm_note("%s: %zu indicator record%s of units that are not in %s: ignored", t->path,
                foreign, foreign == 1 ? "" : "s", md->prog);
    if (add_words(md, t, mod))
        return -1;
    struct pi_err err;
    if (pi_trace_add_indicators(&iv->ind, t, 1, &err)) {
        pm_error("%s", err.msg);
        return -1;
    }
    return 0;
}

size_t rind_events(const struct model *md, const struct pi_trace_event **ev)
{
    *ev = md->ir.code ? md->ir.ind.events : NULL;
    return md->ir.code ? md->ir.ind.nevents : 0;
}

size_t rind_sitestats(const struct model *md, const struct pi_rec_sitestat **st)
{
    *st = md->ir.code ? md->ir.ind.sitestats : NULL;
    return md->ir.code ? md->ir.ind.nsitestats : 0;
}

static void free_records(struct model *md)
{
    if (md->ir.code)
        for (size_t i = 0; i < md->m.nunits; i++)
            free(md->ir.code[i]);
    free(md->ir.code);
    md->ir.code = NULL;
    pi_trace_free(&md->ir.ind);
    free(md->ir.wwords);
    md->ir.wwords = NULL;
    md->ir.nwwords = md->ir.wcap = 0;
    for (size_t k = 0; k < md->npages; k++) {
        free(md->pages[k].path);
        free(md->pages[k].ranges);
        free(md->pages[k].epochs);
    }
    free(md->pages);
    md->pages = NULL;
    md->npages = 0;
    free(md->perfs);
    md->perfs = NULL;
    md->nperfs = 0;
    for (size_t i = 0; i < md->nrranges; i++)
        free(md->rranges[i].name);
    free(md->rranges);
    md->rranges = NULL;
    md->nrranges = 0;
}

/* ---------------------------------------------------------------------- */
/* Page tables, perf_event counts, ranges added at run time                 */
/* ---------------------------------------------------------------------- */

static int rperf_add_trace(struct model *md, const struct pi_trace *t)
{
    for (size_t k = 0; k < t->nperfs; k++) {
        const struct pi_trace_perf *p = &t->perfs[k];
        for (uint32_t i = 0; i < p->h.nevents; i++) {
            struct rperf *x = NULL;
            for (size_t j = 0; j < md->nperfs && !x; j++)
                if (md->perfs[j].unit_id == p->h.unit_id && md->perfs[j].site == p->h.site &&
                    md->perfs[j].event == p->v[i].event)
                    x = &md->perfs[j];
            if (!x) {
                struct rperf *a = realloc(md->perfs, (md->nperfs + 1) * sizeof *a);
                if (!a)
                    return rep_oom();
                md->perfs = a;
                x = &a[md->nperfs++];
                memset(x, 0, sizeof *x);
                x->unit_id = p->h.unit_id;
                x->site = p->h.site;
                x->event = p->v[i].event;
            }
            x->intervals = pm_sat_add(x->intervals, p->h.intervals);
            x->value = pm_sat_add(x->value, p->v[i].value);
        }
    }
    return 0;
}

static int rpages_add_trace(struct model *md, const struct pi_trace *t)
{
    if (rperf_add_trace(md, t))
        return -1;
    if (!t->has_pages)
        return 0;
    struct rpages *a = realloc(md->pages, (md->npages + 1) * sizeof *a);
    if (!a)
        return rep_oom();
    md->pages = a;
    struct rpages *p = &a[md->npages];
    memset(p, 0, sizeof *p);
    p->h = t->pages;
    p->path = strdup(t->path);
    p->ranges = calloc(t->pages.nranges + 1, sizeof *p->ranges);
    p->epochs = calloc(t->pages.nepochs + 1, sizeof *p->epochs);
    md->npages++;
    if (!p->path || !p->ranges || !p->epochs)
        return rep_oom();
    memcpy(p->ranges, t->page_ranges, t->pages.nranges * sizeof *p->ranges);
    memcpy(p->epochs, t->epoch_touches, t->pages.nepochs * sizeof *p->epochs);
    return 0;
}

static int rranges_add_trace(struct model *md, const struct pi_trace *t)
{
    if (!t->nranges)
        return 0;
    /* PROG's module in t: the one whose COUNTS hold a unit of PROG */
    uint32_t mpos = UINT32_MAX;
    for (size_t k = 0; k < t->nunits && mpos == UINT32_MAX; k++)
        if (pi_meta_unit(&md->m, t->units[k].unit_id))
            mpos = t->units[k].module;
    for (size_t i = 0; i < t->nranges; i++) {
        const struct pi_trace_range *g = &t->ranges[i];
        if (g->module != mpos) {
            pm_note("%s: range \"%s\" lies in module %s, not %s: ignored", t->path, g->name,
                    t->modules[g->module].path, md->prog);
            continue;
        }
        int dup = 0;
        for (size_t j = 0; j < md->nrranges && !dup; j++)
            dup = md->rranges[j].lo == g->lo && md->rranges[j].hi == g->hi &&
                  !strcmp(md->rranges[j].name, g->name);
        if (dup)
            continue;
        struct rrange *a = realloc(md->rranges, (md->nrranges + 1) * sizeof *a);
        if (!a)
            return rep_oom();
        md->rranges = a;
        a[md->nrranges] = (struct rrange){ .name = strdup(g->name), .lo = g->lo, .hi = g->hi };
        if (!a[md->nrranges].name)
            return rep_oom();
        md->nrranges++;
    }
    return 0;
}

/* ---------------------------------------------------------------------- */
/* Reading                                                                   */
/* ---------------------------------------------------------------------- */

#define oom rep_oom

/* PROG has no perfinst metadata: say which modules the traces counted in.
 * The process that wrote a trace is often not the module to give (python3
 * running a counted extension module, a plugin host): the trace's name is
 * the process's. */
static void note_counted_modules(char **paths, int ntraces)
{
    for (int i = 0; i < ntraces; i++) {
        struct pi_err err;
        struct pi_trace t;
        if (pi_trace_read(paths[i], &t, &err))
            continue; /* (said when PROG is right) */
        for (size_t k = 0; k < t.nmodules; k++) {
            int counted = 0;
            for (size_t j = 0; j < t.nunits && !counted; j++)
                counted = t.units[j].module == k;
            if (counted)
                pm_note("%s counted in %s: give that as PROG", paths[i], t.modules[k].path);
        }
        pi_trace_free(&t);
    }
}

/* PROG's metadata, debug info, and where each site's code starts. */
static int read_program(struct model *md, char **traces)
{
    struct pi_err err;
    struct pi_meta *m = &md->m;
    if (pi_meta_read(md->prog, m, &err)) {
        pm_error("%s", err.msg);
        return -1;
    }
    if (!m->nunits) {
        pm_error("%s: no perfinst metadata (no %s section): was it built with the plugin?",
                 md->prog, PI_SECTION_META);
        note_counted_modules(traces, md->ntraces);
        return -1;
    }
    if (pi_meta_validate(m, &err)) {
        pm_error("%s", err.msg);
        return -1;
    }
    pm_progress("reading the debug information of the program", 0, 0);
    int dbg = pi_debug_open(md->prog, &md->dbg, &err);
    pm_progress_clear();
    if (dbg == 0) {
        md->have_dbg = 1;
        if (md->dbg.warning[0])
            pm_note("%s", md->dbg.warning);
    }
    pm_names_program(m, md->have_dbg ? &md->dbg : NULL);
    if (m->build_id_len)
        pi_build_id_hex(m->build_id, m->build_id_len, md->bid);
    else
        snprintf(md->bid, sizeof md->bid, "(none)");

    md->us = calloc(m->nunits, sizeof *md->us);
    if (!md->us)
        return oom();
    for (size_t i = 0; i < m->nunits; i++) {
        if (!m->units[i].hdr.nsites)
            continue;
        md->us[i].site_addr = calloc(m->units[i].hdr.nsites, sizeof *md->us[i].site_addr);
        if (!md->us[i].site_addr)
            return oom();
    }
    for (size_t i = 0; i < m->nranges; i++) { /* sorted by address: the first wins */
        const struct pi_range *rg = &m->ranges[i];
        const struct pi_unit_view *u = pi_meta_unit(m, rg->unit_id);
        if (!rg->addr || !u || rg->site >= u->hdr.nsites)
            continue;
        struct usum *s = &md->us[u - m->units];
        if (!s->site_addr[rg->site])
            s->site_addr[rg->site] = rg->addr;
    }
    return 0;
}

/* The notes a test suite's traces would give each alike: the first is
 * given, the others counted and summed up once the traces are read. */
struct trace_notes {
    size_t not_loaded; /* traces of processes that did not load PROG */
    size_t others;     /* traces with counts of other modules */
    const char **mods; /* those modules, distinct (interned build-id, else path) */
    size_t nmods, cap;
};

/* Count module o among the other modules, once however many traces have it. */
static int other_module(struct trace_notes *tn, const struct pi_trace_module *o)
{
    char key[2 * PI_BUILD_ID_MAX + 1];
    if (o->build_id_len)
        pi_build_id_hex(o->build_id, o->build_id_len, key);
    const char *k = pm_intern(o->build_id_len ? key : o->path);
    for (size_t i = 0; i < tn->nmods; i++)
        if (tn->mods[i] == k)
            return 0;
    if (!k || pi_grow((void **)&tn->mods, &tn->cap, tn->nmods, sizeof *tn->mods))
        return oom();
    tn->mods[tn->nmods++] = k;
    return 0;
}

/* The module of trace t that holds PROG, NULL if none (then nothing of t
 * is counted), or -1 through *refused when t is another build. */
static const struct pi_trace_module *program_module(const struct model *md,
                                                    const struct pi_trace *t, int *refused,
                                                    struct trace_notes *tn)
{
    *refused = 0;
    const struct pi_trace_module *mod = pm_match_module(t, md->m.build_id, md->m.build_id_len);
    if (mod)
        return mod;
    if (!t->nmodules) {
        /* cut short before its first MODULE record: it counted nothing we can see */
        pm_note("%s has no MODULE records: nothing of it is counted", t->path);
        return NULL;
    }
    /* PROG a shared library that this process never loaded (a test suite's
       other programs): nothing of it is counted; a module of PROG's name
       with another build-id is another build, refused below */
    int named = 0;
    for (size_t i = 0; i < t->nmodules && !named; i++)
        named = !strcmp(pm_basename(t->modules[i].path), pm_basename(md->prog));
    if (pm_is_shared_lib(md->prog) && !named && !md->force) {
        if (!tn->not_loaded++)
            pm_note("%s: the process did not load %s (no module of that name): nothing of it is "
                    "counted", t->path, md->prog);
        return NULL;
    }
    const struct pi_trace_module *g = pm_guess_module(t, md->prog);
    char tb[2 * PI_BUILD_ID_MAX + 1] = "(none)";
    if (g->build_id_len)
        pi_build_id_hex(g->build_id, g->build_id_len, tb);
    if (!md->force) {
        pm_error("%s is not a trace of %s: %s has build-id %s, the trace's %s has %s "
                 "(--force reads it anyway)", t->path, md->prog, md->prog, md->bid, g->path, tb);
        *refused = 1;
        return NULL;
    }
    pm_note("%s: reading module %s (build-id %s) as %s (build-id %s) because of --force",
            t->path, g->path, tb, md->prog, md->bid);
    return g;
}

/* The site whose code holds link-time address a (the latest range to
 * start at or before it that covers it); 0 if none. */
static int site_at(const struct pi_meta *m, uint64_t a, const struct pi_unit_view **u, uint32_t *site)
{
    size_t lo = 0, hi = m->nranges;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->ranges[mid].addr <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i-- > 0 && lo - i <= 64;) {
        const struct pi_range *rg = &m->ranges[i];
        if (rg->addr && a - rg->addr < rg->length && (*u = pi_meta_unit(m, rg->unit_id)) &&
            rg->site < (*u)->hdr.nsites) {
            *site = rg->site;
            return 1;
        }
    }
    return 0;
}

/* The threads trace t says were stopped in PROG's code (module mpos). */
static int add_stopped(struct model *md, const struct pi_trace *t, uint32_t mpos)
{
    for (size_t i = 0; i < t->nstopped; i++) {
        const struct pi_rec_stopped *x = &t->stopped[i];
        const struct pi_unit_view *u;
        uint32_t site;
        if (x->module != mpos || !site_at(&md->m, x->pc, &u, &site))
            continue;
        struct usum *s = &md->us[u - md->m.units];
        if (!s->stop && !(s->stop = calloc(u->hdr.nsites, sizeof *s->stop)))
            return oom();
        s->stop[site] += x->count;
    }
    return 0;
}

/* Add trace t's counts of PROG's module into md->us. */
static int add_trace(struct model *md, const struct pi_trace *t, struct trace_notes *tn)
{
    int refused;
    const struct pi_trace_module *mod = program_module(md, t, &refused, tn);
    if (refused)
        return -1;
    size_t others = 0;
    for (size_t i = 0; i < t->nmodules; i++) {
        const struct pi_trace_module *o = &t->modules[i];
        if (o == mod)
            continue;
        int has_counts = 0;
        for (size_t k = 0; k < t->nunits && !has_counts; k++)
            has_counts = t->units[k].module == i;
        if (has_counts && !tn->others && !others)
            pm_note("%s: module %s is not %s (%s): ignored", t->path, o->path, md->prog,
                    !strcmp(pm_basename(o->path), pm_basename(md->prog)) ? "another build-id"
                    : pm_is_shared_lib(o->path) ? "a shared library" : "another program");
        others += has_counts;
        if (has_counts && other_module(tn, o))
            return -1;
    }
    tn->others += others > 0;
    uint32_t mpos = mod ? (uint32_t)(mod - t->modules) : UINT32_MAX;
    for (size_t k = 0; k < t->nunits; k++) {
        const struct pi_trace_unit *tu = &t->units[k];
        if (tu->module != mpos)
            continue;
        const struct pi_unit_view *u = pi_meta_unit(&md->m, tu->unit_id);
        if (!u) {
            pm_note("%s: unit 0x%016llx is not in %s's metadata: ignored", t->path,
                    (unsigned long long)tu->unit_id, md->prog);
            continue;
        }
        uint32_t shorter = tu->ncounters < u->hdr.ncounters ? tu->ncounters : u->hdr.ncounters;
        if (tu->ncounters != u->hdr.ncounters) {
            if (!md->force) {
                pm_error("%s: unit 0x%016llx (%s) has %u counters, but %s says %u", t->path,
                         (unsigned long long)tu->unit_id, pi_unit_str(u, u->hdr.source),
                         tu->ncounters, md->prog, u->hdr.ncounters);
                return -1;
            }
            pm_note("%s: unit 0x%016llx has %u counters, %s says %u: using the first %u",
                    t->path, (unsigned long long)tu->unit_id, tu->ncounters, md->prog,
                    u->hdr.ncounters, shorter);
        }
        struct usum *s = &md->us[u - md->m.units];
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
    if (mod && add_stopped(md, t, mpos))
        return -1;
    return rind_add_trace(md, t, mod);
}

int rep_site_counted(const struct pi_unit_view *u, uint32_t k)
{
    const struct pi_site *s = &u->sites[k];
    return s->counter != PI_NONE || (s->kind == PI_SITE_BLOCK && u->funcs[s->func].narcs);
}

uint64_t rep_site_count(const struct model *md, const struct pi_unit_view *u, uint32_t k)
{
    const struct usum *s = &md->us[u - md->m.units];
    return s->site && k < u->hdr.nsites ? s->site[k] : 0;
}

int rep_solve(const struct pi_unit_view *u, const uint64_t *ctr, uint32_t n, const uint64_t *stop,
              uint64_t **site, uint64_t **arc)
{
    *site = calloc(u->hdr.nsites ? u->hdr.nsites : 1, sizeof **site);
    *arc = calloc(u->hdr.narcs ? u->hdr.narcs : 1, sizeof **arc);
    struct pi_flow_stat st = { 0 };
    if (!*site || !*arc ||
        pi_flow_unit(&u->hdr, u->funcs, u->sites, u->arcs, ctr, n, stop, *site, *arc, &st)) {
        free(*site), free(*arc);
        *site = *arc = NULL;
        return oom();
    }
    if (st.nunsolved)
        pm_note("unit 0x%016llx (%s): %llu block and arc counts do not follow from its counters "
                "(shown as 0)", (unsigned long long)u->hdr.unit_id, pi_unit_str(u, u->hdr.source),
                (unsigned long long)st.nunsolved);
    return 0;
}

/* Every unit's sites' and arcs' counts from the summed counters.  The
 * runtime writes no COUNTS record for a unit that counted nothing, so
 * where the traces counted any unit of PROG, a unit without a record
 * counted 0 (a plan then knows its functions never ran); where they
 * counted none of PROG's units (PERFINST_MODE=off, another program) every
 * unit stays without counts. */
static int solve_counts(struct model *md)
{
    int counted = 0;
    for (size_t i = 0; i < md->m.nunits && !counted; i++)
        counted = md->us[i].sums != NULL;
    for (size_t i = 0; i < md->m.nunits; i++) {
        struct usum *s = &md->us[i];
        if (counted && !s->sums) {
            s->n = md->m.units[i].hdr.ncounters;
            s->sums = calloc(s->n ? s->n : 1, sizeof *s->sums);
            if (!s->sums)
                return oom();
        }
        if (s->sums && rep_solve(&md->m.units[i], s->sums, s->n, s->stop, &s->site, &s->arc))
            return -1;
    }
    return 0;
}

static int read_traces(struct model *md, char **paths)
{
    struct trace_notes tn = { 0 };
    for (int i = 0; i < md->ntraces; i++) {
        struct pi_err err;
        struct pi_trace t;
        pm_progress("reading traces", (size_t)i, (size_t)md->ntraces);
        if (pi_trace_read(paths[i], &t, &err)) {
            pm_error("%s", err.msg);
            free(tn.mods);
            return -1;
        }
        pm_trace_notes(&t);
        int bad = add_trace(md, &t, &tn) || rpages_add_trace(md, &t) || rranges_add_trace(md, &t);
        struct trace_info *in = &md->infos[i];
        in->path = strdup(t.path);
        in->nrecords = t.nrecords;
        in->flags = t.hdr.flags;
        in->finished = t.has_end;
        in->truncated = t.truncated;
        memcpy(in->lost, t.lost, sizeof in->lost);
        pi_trace_free(&t);
        if (bad || !in->path) {
            free(tn.mods);
            return bad ? -1 : oom();
        }
    }
    pm_progress_clear();
    if (tn.not_loaded > 1)
        pm_note("and %zu more traces of processes that did not load %s", tn.not_loaded - 1, md->prog);
    if (tn.others > 1 || tn.nmods > 1)
        pm_note("in all %zu module%s other than %s counted in %zu trace%s: ignored", tn.nmods,
                tn.nmods == 1 ? "" : "s", md->prog, tn.others, tn.others == 1 ? "" : "s");
    free(tn.mods);
    return 0;
}

/* ---------------------------------------------------------------------- */
/* The views                                                                 */
/* ---------------------------------------------------------------------- */

static int cmp_site_row(const void *a, const void *b)
{
    const struct site_row *x = a, *y = b;
    PI_CMP_RET(y->count, x->count);
    int c = strcmp(x->file, y->file);
    if (c)
        return c;
    PI_CMP_RET(x->line, y->line);
    PI_CMP_RET(x->u->hdr.unit_id, y->u->hdr.unit_id);
    return x->site < y->site ? -1 : x->site > y->site;
}

static int cmp_func_row(const void *a, const void *b)
{
    const struct func_row *x = a, *y = b;
    PI_CMP_RET(y->blocks, x->blocks);
    PI_CMP_RET(y->entries, x->entries);
    int c = strcmp(x->name, y->name);
    if (c)
        return c;
    if ((c = strcmp(x->key, y->key)))
        return c;
    PI_CMP_RET(x->u->hdr.unit_id, y->u->hdr.unit_id);
    return x->func < y->func ? -1 : x->func > y->func;
}

/* A function's place in the rows' order: by linkage key, file, line */
static int cmp_fn_place(const char *xkey, const char *xfile, uint32_t xline, const char *ykey, const char *yfile,
                        uint32_t yline)
{
    int c = xkey == ykey ? 0 : strcmp(xkey, ykey);
    if (c || (xfile != yfile && (c = strcmp(xfile, yfile))))
        return c;
    return xline < yline ? -1 : xline > yline;
}

/* Copies of one function together (cmp_fn_place); then by unit. */
static int cmp_copy(const void *a, const void *b)
{
    const struct func_copy *x = a, *y = b;
    int c = cmp_fn_place(x->key, x->file, x->u->funcs[x->func].line, y->key, y->file, y->u->funcs[y->func].line);
    if (c)
        return c;
    PI_CMP_RET(x->part, y->part);
    PI_CMP_RET(x->u->hdr.unit_id, y->u->hdr.unit_id);
    return x->func < y->func ? -1 : x->func > y->func;
}

/* md->copies (sorted by cmp_copy) as rows: one per function. */
static void group_funcs(struct model *md)
{
    size_t n = 0;
    for (size_t i = 0; i < md->ncopies; i++) {
        const struct func_copy *c = &md->copies[i];
        const struct pi_func *fn = &c->u->funcs[c->func];
        struct func_row *row = n ? &md->funcs[n - 1] : NULL;
        if (!row || row->key != c->key || row->file != c->file || row->line != fn->line) {
            row = &md->funcs[n++];
            *row = (struct func_row){ .u = c->u, .func = c->func, .key = c->key,
                                      .name = pm_func_name(c->u, c->func), .file = c->file,
                                      .line = fn->line, .copies = c,
                                      .linkage = pi_unit_str(c->u, fn->name) };
        }
        row->nunits += pm_copy_starts_unit(row->copies, row->ncopies);
        row->ncopies++;
        row->has_entry |= c->has_entry;
        row->entries = pm_sat_add(row->entries, c->entries);
        row->blocks = pm_sat_add(row->blocks, c->blocks);
    }
    md->nfuncs = n;
}

/* count-at=late: an inlined body's entries (a PI_SITE_INLINE site) */
struct inl_entry {
    const struct pi_unit_view *u;
    uint32_t caller;                /* the function it was inlined into */
    const char *key, *linkage, *file;
    uint32_t line;
    uint64_t entries;
};

/* by function: key, file, line (group_funcs' order of rows) */
static int cmp_inl(const void *a, const void *b)
{
    const struct inl_entry *x = a, *y = b;
    return cmp_fn_place(x->key, x->file, x->line, y->key, y->file, y->line);
}

static int cmp_inl_row(const void *a, const void *b)
{
    const struct inl_entry *x = a;
    const struct func_row *y = b;
    return cmp_fn_place(x->key, x->file, x->line, y->key, y->file, y->line);
}

/* Whether GCC's early ipa-split cut the row's function (a copy F.part.N):
 * its inlined bodies are the fronts the split left, which
 * -fprofile-generate, splitting nothing early, does not inline, so gcov
 * counts their entries as the function's own. */
static int has_part(const struct func_row *row)
{
    for (size_t k = 0; k < row->ncopies; k++)
        if (row->copies[k].part)
            return 1;
    return 0;
}

/* The inlined bodies' entries into their functions' rows (md->funcs, in
 * group_funcs' order); a function with no row (inlined everywhere) gets
 * one, inlined_only, after the others. */
static void add_inlined(struct model *md, struct inl_entry *inl, size_t ninl)
{
    if (!ninl)
        return;
    qsort(inl, ninl, sizeof *inl, cmp_inl);
    size_t n0 = md->nfuncs;
    struct func_row *last = NULL;
    for (size_t i = 0; i < ninl; i++) {
        const struct inl_entry *e = &inl[i];
        struct func_row *row = bsearch(e, md->funcs, n0, sizeof *md->funcs, cmp_inl_row);
        if (!row && last && !cmp_inl_row(e, last))
            row = last;
        if (!row) {
            row = last = &md->funcs[md->nfuncs++];
            *row = (struct func_row){ .u = e->u, .func = e->caller, .key = e->key,
                                      .name = pm_fn_name(e->linkage), .file = e->file,
                                      .line = e->line, .linkage = e->linkage, .inlined_only = 1 };
        }
        row->has_entry = 1;
        row->entries = pm_sat_add(row->entries, e->entries);
        if (!has_part(row))
            row->inlined = pm_sat_add(row->inlined, e->entries);
    }
}

static int cmp_line_key(const void *a, const void *b)
{
    const struct line_row *x = a, *y = b;
    int c = strcmp(x->file, y->file);
    if (c)
        return c;
    PI_CMP_RET(x->line, y->line);
    return x->unit_id < y->unit_id ? -1 : x->unit_id > y->unit_id;
}

static int cmp_line_row(const void *a, const void *b)
{
    const struct line_row *x = a, *y = b;
    PI_CMP_RET(y->count, x->count);
    int c = strcmp(x->file, y->file);
    if (c)
        return c;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* Lines: the largest count per (file, line, unit), then the sum over units. */
static void group_lines(struct model *md)
{
    struct line_row *l = md->lines;
    size_t n = 0;
    if (md->nlines)
        qsort(l, md->nlines, sizeof *l, cmp_line_key);
    for (size_t i = 0; i < md->nlines; i++) {
        if (n && !cmp_line_key(&l[n - 1], &l[i])) {
            if (l[i].count > l[n - 1].count)
                l[n - 1].count = l[i].count;
            continue;
        }
        l[n++] = l[i];
    }
    md->nlines = n;
    n = 0;
    for (size_t i = 0; i < md->nlines; i++) {
        if (n && !strcmp(l[n - 1].file, l[i].file) && l[n - 1].line == l[i].line) {
            l[n - 1].count = pm_sat_add(l[n - 1].count, l[i].count);
            continue;
        }
        l[n++] = l[i];
    }
    md->nlines = n;
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
static int has_code(const struct model *md, const struct func_copy *c)
{
    const struct pi_func *fn = &c->u->funcs[c->func];
    const struct usum *s = &md->us[c->u - md->m.units];
    for (uint32_t k = fn->first_site; s->site_addr && k < fn->first_site + fn->nsites; k++)
        if (s->site_addr[k])
            return 1;
    return 0;
}

static int mark_uninstrumented(struct model *md)
{
    size_t candidates = 0;
    for (size_t i = 0; i < md->nfuncs; i++) {
        struct func_row *row = &md->funcs[i];
        int code = row->inlined_only || !row->u->funcs[row->func].nsites;
        for (uint32_t k = 0; k < row->ncopies && !code; k++)
            code = has_code(md, &row->copies[k]);
        row->uninstrumented = code ? 0 : -1; /* -1: a candidate, decided below */
        candidates += !code;
    }
    if (!candidates)
        return 0;
    int fd;
    Elf *e = pm_elf_open(md->prog, &fd);
    struct pm_sym *syms = NULL;
    size_t nsyms = 0;
    int status = e && pm_elf_symbols(e, STT_FUNC, &syms, &nsyms) ? oom() : 0;
    for (size_t i = 0; i < md->nfuncs; i++) {
        struct func_row *row = &md->funcs[i];
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
    pm_elf_close(e, fd);
    return status;
}

static int build_views(struct model *md)
{
    const struct pi_meta *m = &md->m;
    size_t cap_sites = 0, cap_funcs = 0, cap_inl = 0, ninl = 0;
    for (size_t i = 0; i < m->nunits; i++) {
        cap_sites += m->units[i].hdr.nsites;
        cap_funcs += m->units[i].hdr.nfuncs;
        for (uint32_t k = 0; k < m->units[i].hdr.nsites; k++)
            cap_inl += m->units[i].sites[k].kind == PI_SITE_INLINE;
    }
    struct inl_entry *inl = calloc(cap_inl ? cap_inl : 1, sizeof *inl);
    if (!inl)
        return oom();
    cap_funcs += cap_inl; /* (rows of functions inlined everywhere) */
    md->sites = calloc(cap_sites ? cap_sites : 1, sizeof *md->sites);
    md->funcs = calloc(cap_funcs ? cap_funcs : 1, sizeof *md->funcs);
    md->copies = calloc(cap_funcs ? cap_funcs : 1, sizeof *md->copies);
    size_t cap_lines = cap_sites ? cap_sites : 1;
    md->lines = calloc(cap_lines, sizeof *md->lines);
    if (!md->sites || !md->funcs || !md->copies || !md->lines) {
        free(inl);
        return oom();
    }
    for (size_t i = 0; i < m->nunits; i++) {
        const struct pi_unit_view *u = &m->units[i];
        const struct usum *s = &md->us[i];
#define COUNT(k) (s->site ? s->site[k] : 0)
        for (uint32_t k = 0; k < u->hdr.nsites; k++) {
            const struct pi_site *st = &u->sites[k];
            if (!rep_site_counted(u, k))
                continue;
            struct site_row *row = &md->sites[md->nsites++];
            row->u = u;
            row->site = k;
            row->count = COUNT(k);
            row->linkage = pi_unit_str(u, u->funcs[st->func].name);
            row->func = pm_func_name(u, st->func);
            row->file = pm_unit_file(u, st->file);
            row->line = st->line;
            row->addr = s->site_addr ? s->site_addr[k] : 0;
            /* no line from the compiler: ask DWARF (a site with a file and
               line 0 is a block gcov counts on no line: a computed goto's
               dispatch, pass-count.cc block_location) */
            if (!row->line && !st->file && row->addr && md->have_dbg &&
                pi_debug_line(&md->dbg, row->addr, &row->file, &row->line))
                row->file = pm_file(NULL, row->file);
            /* lines: gcov's rule where the arcs give it (rep_gcov_lines) */
            if (row->line && !u->funcs[st->func].narcs)
                md->lines[md->nlines++] = (struct line_row){ .file = row->file, .line = row->line,
                                                           .count = row->count,
                                                           .unit_id = u->hdr.unit_id };
        }
        if (u->hdr.narcs && rep_gcov_lines(md, u, &md->lines, &md->nlines, &cap_lines)) {
            free(inl);
            return -1;
        }
        for (uint32_t f = 0; f < u->hdr.nfuncs; f++) {
            const struct pi_func *fn = &u->funcs[f];
            struct func_copy *row = &md->copies[md->ncopies++];
            row->u = u;
            row->func = f;
            row->key = pm_fn_key(pi_unit_str(u, fn->name));
            row->file = pm_func_file(u, f);
            row->part = !!(fn->directives & PI_FUNC_PART);
            if (fn->nsites && rep_site_counted(u, fn->first_site) && !row->part) {
                row->has_entry = 1;
                row->entries = COUNT(fn->first_site);
            }
            for (uint32_t k = fn->first_site; k < fn->first_site + fn->nsites; k++)
                if (u->sites[k].kind == PI_SITE_BLOCK)
                    row->blocks = pm_sat_add(row->blocks, COUNT(k));
        }
        for (uint32_t k = 0; k < u->hdr.nsites; k++) {
            const struct pi_site *st = &u->sites[k];
            if (st->kind != PI_SITE_INLINE || st->arg >= u->hdr.nsites)
                continue;
            const char *linkage = pi_unit_str(u, st->region);
            inl[ninl++] = (struct inl_entry){ .u = u, .caller = st->func, .key = pm_fn_key(linkage),
                                              .linkage = linkage, .file = pm_unit_file(u, st->file),
                                              .line = st->line, .entries = COUNT(st->arg) };
        }
#undef COUNT
    }
    group_lines(md);
    if (md->ncopies)
        qsort(md->copies, md->ncopies, sizeof *md->copies, cmp_copy);
    group_funcs(md);
    add_inlined(md, inl, ninl);
    free(inl);
    if (mark_uninstrumented(md))
        return -1;
    if (md->nsites)
        qsort(md->sites, md->nsites, sizeof *md->sites, cmp_site_row);
    if (md->nfuncs)
        qsort(md->funcs, md->nfuncs, sizeof *md->funcs, cmp_func_row);
    if (md->nlines)
        qsort(md->lines, md->nlines, sizeof *md->lines, cmp_line_row);
    for (size_t i = 0; i < md->nsites; i++)
        md->total_sites = pm_sat_add(md->total_sites, md->sites[i].count);
    for (size_t i = 0; i < md->nfuncs; i++)
        if (!md->funcs[i].uninstrumented)
            md->total_funcs = pm_sat_add(md->total_funcs, md->funcs[i].blocks);
    for (size_t i = 0; i < md->nlines; i++)
        md->total_lines = pm_sat_add(md->total_lines, md->lines[i].count);
    if (md->hot > 0) { /* hot spots: the shortest prefix of each view with --hot of its total */
        md->nsites = hot_prefix(md->sites, md->nsites, sizeof *md->sites,
                               offsetof(struct site_row, count), md->hot);
        md->nfuncs = hot_prefix(md->funcs, md->nfuncs, sizeof *md->funcs,
                               offsetof(struct func_row, blocks), md->hot);
        md->nlines = hot_prefix(md->lines, md->nlines, sizeof *md->lines,
                               offsetof(struct line_row, count), md->hot);
    }
    if (md->top > 0) {
        size_t top = (size_t)md->top;
        md->nsites = md->nsites < top ? md->nsites : top;
        md->nfuncs = md->nfuncs < top ? md->nfuncs : top;
        md->nlines = md->nlines < top ? md->nlines : top;
    }
    return 0;
}

/* NAME is what the runtime names the trace of another process given
 * PERFINST_OUT=BASE (docs/runtime.md, "File name"): BASE's stem, .PID or
 * .PID.N, then its extension */
static int sibling_name(const char *name, const char *base)
{
    const char *ext = strrchr(base, '.');
    if (!ext || ext == base)
        ext = base + strlen(base);
    size_t stem = (size_t)(ext - base);
    if (strncmp(name, base, stem) || name[stem] != '.')
        return 0;
    const char *q = name + stem;
    for (int part = 0; part < 2 && *q == '.' && q[1] >= '0' && q[1] <= '9'; part++)
        for (q++; *q >= '0' && *q <= '9'; q++)
            ;
    return q > name + stem + 1 && !strcmp(q, ext);
}

struct file_id {
    dev_t dev;
    ino_t ino;
};

static int cmp_file_id(const void *a, const void *b)
{
    const struct file_id *x = a, *y = b;
    PI_CMP_RET(x->dev, y->dev);
    return x->ino < y->ino ? -1 : x->ino > y->ino;
}

/* A note for each trace beside which other processes' traces of the same
 * PERFINST_OUT lie unread: a workload of several processes given one name
 * writes NAME.pit for the first and NAME.PID.pit for the others, and a
 * plan made from NAME.pit alone learns one process. */
static void note_siblings(char **paths, int n)
{
    struct file_id *named = calloc(n > 0 ? (size_t)n : 1, sizeof *named);
    size_t nnamed = 0;
    struct stat st;
    for (int j = 0; named && j < n; j++)
        if (!stat(paths[j], &st))
            named[nnamed++] = (struct file_id){ st.st_dev, st.st_ino };
    if (!named)
        return;
    qsort(named, nnamed, sizeof *named, cmp_file_id);
    for (int i = 0; i < n; i++) {
        const char *base = pm_basename(paths[i]);
        size_t dlen = (size_t)(base - paths[i]);
        char *dir = dlen ? strndup(paths[i], dlen) : strdup(".");
        DIR *d = dir ? opendir(dir) : NULL;
        size_t unread = 0;
        char *example = NULL;
        struct dirent *e;
        while (d && (e = readdir(d))) {
            if (!sibling_name(e->d_name, base))
                continue;
            size_t len = strlen(dir) + strlen(e->d_name) + 2;
            char *path = malloc(len);
            if (!path)
                break;
            snprintf(path, len, "%s/%s", dir, e->d_name);
            if (!stat(path, &st)) {
                struct file_id id = { st.st_dev, st.st_ino };
                if (!bsearch(&id, named, nnamed, sizeof *named, cmp_file_id) && unread++ == 0)
                    example = strdup(e->d_name);
            }
            free(path);
        }
        if (d)
            closedir(d);
        if (unread)
            pm_note("%s: %zu more trace%s of the same name beside it (%s%s), written by other processes "
                    "given the same PERFINST_OUT, not read: name them too", paths[i], unread,
                    unread == 1 ? "" : "s", example ? example : "", unread > 1 ? ", ..." : "");
        free(example);
        free(dir);
    }
    free(named);
}

int model_load(struct model *md, char **traces)
{
    note_siblings(traces, md->ntraces);
    md->infos = calloc(md->ntraces > 0 ? (size_t)md->ntraces : 1, sizeof *md->infos);
    if (!md->infos)
        return oom();
    if (read_program(md, traces) || rind_init(md) || read_traces(md, traces) || solve_counts(md) || build_views(md))
        return -1;
    return 0;
}

void model_free(struct model *md)
{
    if (md->us)
        for (size_t i = 0; i < md->m.nunits; i++) {
            free(md->us[i].sums);
            free(md->us[i].stop);
            free(md->us[i].site);
            free(md->us[i].arc);
            free(md->us[i].site_addr);
        }
    free(md->us);
    for (int i = 0; md->infos && i < md->ntraces; i++)
        free(md->infos[i].path);
    free(md->infos);
    free(md->sites);
    free(md->funcs);
    free(md->copies);
    free(md->lines);
    free_records(md);
    if (md->have_dbg)
        pi_debug_close(&md->dbg);
    pi_meta_free(&md->m);
}

