/* report-sharing.c — pmopt report --sharing PROG TRACE: who fights over
 * which cache lines, true or false sharing, named by variable, struct
 * field, allocation site and source line (docs/sharing.md).
 *
 * The analysis (sh_analyze, also used by `pmopt plan --sharing`):
 *
 *   1. the trace's lines (PI_REC_SHARE_LINE) are mapped to objects, byte
 *      by byte: a byte inside PROG's module (run-time minus load bias) is a
 *      global named by DWARF (pidwarf); a byte inside a recorded heap
 *      object (PI_REC_SHARE_ALLOC, the latest allocation holding it) is that
 *      object, named by its allocation site; anything else is "other";
 *   2. each line touched by more than one thread is a row: its reloads,
 *      true and false (the runtime classified them), per thread and per
 *      area; estimated cost = reloads x --reload-cycles (100: a transfer
 *      between cores' caches), estimated gain of a fix = the false
 *      reloads' cost (true sharing cannot be fixed by layout); rows are
 *      ranked by gain, then cost;
 *   3. prediction (the verdict must not depend on this run's placement):
 *      for every object two or more threads touched, its per-thread byte
 *      footprints (from all its lines, private ones included) are placed
 *      at each 8-byte offset of a line and in 128-byte pairs (adjacent-line
 *      prefetch), and the false sharing each placement would create is
 *      estimated: on a virtual line, each thread's accesses there can
 *      reload falsely at most as often as other threads write bytes of it
 *      that this thread never touches (an upper bound).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report.h"
#include "sharing.h"

/* ---------------------------------------------------------------------- */
/* Analysis                                                                  */
/* ---------------------------------------------------------------------- */

int sh_parse_what(const char *what, char *st, size_t stn, char *field, size_t fn, uint64_t *off, uint64_t *size)
{
    char a[128], b[128];
    unsigned long long o, s;
    if (!what || sscanf(what, "%127s %127s %llu %llu", a, b, &o, &s) != 4)
        return 0; /* (FILE LINE may follow: sh_what_decl) */
    snprintf(st, stn, "%s", a);
    snprintf(field, fn, "%s", b);
    *off = o;
    *size = s;
    return 1;
}

int sh_what_decl(const char *what, char *file, size_t fn, uint32_t *line)
{
    char f[512];
    unsigned l;
    if (!what || sscanf(what, "%*s %*s %*u %*u %511s %u", f, &l) != 2)
        return 0;
    snprintf(file, fn, "%s", f);
    *line = l;
    return 1;
}

void sh_site_where(const struct sh_analysis *a, uint64_t pc, char *buf, size_t n)
{
    const char *file = NULL;
    uint32_t line = 0;
    uint64_t link = pc - a->bias;
    /* the return address is after the call: its line is the call's, almost always */
    if (a->have_dbg && a->mod && pi_debug_line(&a->dbg, link - 1, &file, &line)) {
        const struct pi_dfunc *f = pi_debug_func(&a->dbg, link - 1);
        snprintf(buf, n, "%s:%u (%s)", pm_basename(file), line, f ? pm_dfunc_name(f) : "?");
    } else
        snprintf(buf, n, "pc 0x%llx", (unsigned long long)pc);
}

static int in_module(const struct sh_analysis *a, uint64_t addr, uint64_t *link)
{
    if (!a->mod || addr < a->bias)
        return 0;
    *link = addr - a->bias;
    return a->have_dbg && a->dbg.alloc_hi && *link >= a->dbg.alloc_lo && *link < a->dbg.alloc_hi;
}

static int obj_add(struct sh_analysis *a, const struct sh_object *o, size_t *cap)
{
    if (a->nobjs == *cap) {
        size_t nc = *cap ? 2 * *cap : 16;
        struct sh_object *no = realloc(a->objs, nc * sizeof *no);
        if (!no)
            return -1;
        a->objs = no;
        *cap = nc;
    }
    a->objs[a->nobjs] = *o;
    return (int)a->nobjs++;
}

/* Memory no global of PROG and no recorded allocation holds: named by its
 * line and by the mapping it lies in (PI_REC_SHARE_REGION), one object per
 * line since its extent is unknown. */
static int unrecorded(struct sh_analysis *a, uint64_t b, size_t *cap)
{
    struct sh_object o;
    memset(&o, 0, sizeof o);
    o.kind = SH_OBJ_OTHER;
    o.addr = b / PI_SHARE_LINE * PI_SHARE_LINE;
    o.size = PI_SHARE_LINE;
    unsigned long long lo = o.addr, hi = o.addr + PI_SHARE_LINE - 1;
    uint32_t tag = PI_WATCH_MODULE(b);
    const char *pre = "";
    if (tag == PI_SHARE_HEAP_TAG) { /* a merged trace: heap-relative */
        pre = "heap+";
        lo = PI_WATCH_OFFSET(lo), hi = PI_WATCH_OFFSET(hi);
    }
    const struct pi_share_region_v *g = pi_share_region_of(&a->s, b);
    if (tag && tag != PI_SHARE_HEAP_TAG) { /* a merged trace: another module's data, module-relative */
        const struct pi_trace_module *m = tag - 1 < a->t.nmodules ? &a->t.modules[tag - 1] : NULL;
        snprintf(o.name, sizeof o.name, "data of %s at +0x%llx-0x%llx", m && m->path ? pm_basename(m->path) : "a module",
                 (unsigned long long)PI_WATCH_OFFSET(lo), (unsigned long long)PI_WATCH_OFFSET(hi));
    } else if (!g)
        snprintf(o.name, sizeof o.name, "memory %s0x%llx-0x%llx (not a global, not recorded: heap allocated "
                 "outside instrumented code?)", pre, lo, hi);
    else if (g->rec.kind == PI_SHARE_REGION_HEAP)
        snprintf(o.name, sizeof o.name, "memory %s0x%llx-0x%llx (heap, allocated outside instrumented code)", pre, lo, hi);
    else if (g->rec.kind == PI_SHARE_REGION_ANON)
        snprintf(o.name, sizeof o.name, "memory %s0x%llx-0x%llx (mmap'd heap or a thread's stack, allocated "
                 "outside instrumented code)", pre, lo, hi);
    else if (g->rec.kind == PI_SHARE_REGION_STACK)
        snprintf(o.name, sizeof o.name, "memory %s0x%llx-0x%llx (the main thread's stack)", pre, lo, hi);
    else
        snprintf(o.name, sizeof o.name, "memory %s0x%llx-0x%llx (data of %.60s)", pre, lo, hi,
                 g->path[0] ? pm_basename(g->path) : "an anonymous mapping");
    return obj_add(a, &o, cap);
}

/* The object holding run-time byte b, made on first sight; -1 none/oom. */
static int object_of(struct sh_analysis *a, uint64_t b, size_t *cap)
{
    for (size_t i = 0; i < a->nobjs; i++)
        if (a->objs[i].size && b >= a->objs[i].addr && b - a->objs[i].addr < a->objs[i].size)
            return (int)i;
    struct sh_object o;
    memset(&o, 0, sizeof o);
    uint64_t link;
    if (in_module(a, b, &link)) {
        const struct pi_dvar *v = pi_debug_var(&a->dbg, link, link + 1);
        if (!v || link < v->addr)
            return -1; /* padding between variables */
        o.kind = SH_OBJ_GLOBAL;
        o.var = v;
        o.link = v->addr;
        o.addr = v->addr + a->bias;
        o.size = v->size ? v->size : 1;
        snprintf(o.name, sizeof o.name, "%s", v->name);
        return obj_add(a, &o, cap);
    }
    const struct pi_share_alloc_v *best = NULL;
    for (size_t i = 0; i < a->s.nallocs; i++) {
        const struct pi_share_alloc_v *al = &a->s.allocs[i];
        if (b >= al->rec.addr && b - al->rec.addr < (al->rec.size ? al->rec.size : 1) &&
            (!best || al->rec.seq > best->rec.seq))
            best = al;
    }
    if (!best)
        return unrecorded(a, b, cap);
    o.kind = SH_OBJ_HEAP;
    o.alloc = best;
    o.addr = best->rec.addr;
    o.size = best->rec.size ? best->rec.size : 1;
    uint64_t pc = best->rec.nframes ? best->frames[0] : 0;
    const char *file = NULL;
    uint32_t line = 0;
    uint64_t pl = pc - a->bias - 1;
    if (a->have_dbg && a->mod && pi_debug_line(&a->dbg, pl, &file, &line)) {
        const struct pi_dfunc *f = pi_debug_func(&a->dbg, pl);
        snprintf(o.file, sizeof o.file, "%s", pm_file(NULL, file));
        snprintf(o.func, sizeof o.func, "%s", f ? pm_fn_key(pm_dfunc_linkage(f)) : "?");
        o.line = line;
        snprintf(o.name, sizeof o.name, "heap object from %s:%u (%s)", pm_basename(file), line,
                 f ? pm_dfunc_name(f) : "?");
    } else
        snprintf(o.name, sizeof o.name, "heap object from pc 0x%llx", (unsigned long long)pc);
    return obj_add(a, &o, cap);
}

void sh_name_bytes(const struct sh_analysis *a, const struct sh_line_row *r, int lo, int hi, char *buf, size_t n)
{
    int oi = r->obj[lo];
    uint64_t b = r->addr + (uint64_t)lo;
    if (oi < 0) {
        snprintf(buf, n, "0x%llx", (unsigned long long)b);
        return;
    }
    const struct sh_object *o = &a->objs[oi];
    uint64_t off = b - o->addr;
    if (o->kind == SH_OBJ_GLOBAL) {
        pi_debug_var_name(&a->dbg, o->var, o->link + off, buf, n);
        return;
    }
    /* heap: the field from a site of this line whose bytes cover lo (memory
     * without a recorded object: its start is unknown, so no index) */
    for (size_t i = 0; i < a->s.nsites; i++) {
        const struct pi_share_site_v *s = &a->s.sites[i];
        char st[64], fld[64];
        uint64_t fo, ss;
        if (s->rec.line != r->addr || !((s->rec.mask >> lo) & 1) ||
            !sh_parse_what(s->what, st, sizeof st, fld, sizeof fld, &fo, &ss) || !ss)
            continue;
        if (o->size > ss && o->kind == SH_OBJ_HEAP)
            snprintf(buf, n, "%s[%llu].%s", st, (unsigned long long)(off / ss), fld);
        else
            snprintf(buf, n, "%s.%s", st, fld);
        return;
    }
    if (o->kind == SH_OBJ_HEAP)
        snprintf(buf, n, "heap+0x%llx", (unsigned long long)off);
    else
        snprintf(buf, n, "0x%llx", (unsigned long long)b);
    (void)hi;
}

static int cmp_rows(const void *x, const void *y)
{
    const struct sh_line_row *a = x, *b = y;
    if (a->gain != b->gain)
        return a->gain > b->gain ? -1 : 1;
    if (a->cost != b->cost)
        return a->cost > b->cost ? -1 : 1;
    return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* Per object and thread: the bytes it read and wrote and its counts, per
 * line of the object (object-relative line index). */
struct foot {
    uint32_t thread;
    uint64_t rel;               /* object-relative offset of the line's first byte (may wrap below 0) */
    int64_t start;              /* signed: line start - object start */
    uint64_t r, w, reads, writes;
};

/* Estimated false-sharing reloads if the object started at offset `shift`
 * of a window of `win` bytes (64: a line, 128: a prefetch pair). */
static uint64_t predict(const struct foot *f, size_t nf, uint64_t osize, int shift, int win)
{
    uint64_t total = 0;
    uint64_t nwin = (osize + (uint64_t)shift + (uint64_t)win - 1) / (uint64_t)win;
    if (nwin > 4096)
        nwin = 4096;
    for (uint64_t v = 0; v < nwin; v++) {
        /* per thread in this virtual window: bytes (window-relative bit sets are
         * too small for 128: keep two words) and counts */
        struct {
            uint32_t thread;
            uint64_t r[2], w[2], acc, wr;
        } t[16];
        int nt = 0;
        for (size_t i = 0; i < nf; i++) {
            uint64_t rb[2] = {0, 0}, wb[2] = {0, 0};
            int any = 0;
            for (int k = 0; k < 64; k++) {
                if (!(((f[i].r | f[i].w) >> k) & 1))
                    continue;
                int64_t ob = f[i].start + k; /* object-relative byte */
                if (ob < 0 || (uint64_t)ob >= osize)
                    continue;
                uint64_t pos = (uint64_t)ob + (uint64_t)shift;
                if (pos / (uint64_t)win != v)
                    continue;
                unsigned wp = (unsigned)(pos % (uint64_t)win);
                if ((f[i].r >> k) & 1)
                    rb[wp / 64] |= 1ull << (wp % 64);
                if ((f[i].w >> k) & 1)
                    wb[wp / 64] |= 1ull << (wp % 64);
                any = 1;
            }
            if (!any)
                continue;
            int j;
            for (j = 0; j < nt && t[j].thread != f[i].thread; j++)
                ;
            if (j == nt) {
                if (nt == 16)
                    continue;
                memset(&t[nt], 0, sizeof t[nt]);
                t[nt++].thread = f[i].thread;
            }
            for (int q = 0; q < 2; q++)
                t[j].r[q] |= rb[q], t[j].w[q] |= wb[q];
            t[j].acc += f[i].reads + f[i].writes;
            t[j].wr += f[i].writes;
        }
        for (int u = 0; u < nt; u++) {
            uint64_t other_w = 0;
            for (int x = 0; x < nt; x++) {
                if (x == u || !t[x].wr)
                    continue;
                /* x writes bytes u never touches: u's copy is invalidated for
                 * nothing it uses (if x also writes bytes u uses, that part is
                 * true sharing, and the estimate is an upper bound) */
                int elsewhere = 0;
                for (int q = 0; q < 2; q++)
                    elsewhere |= (t[x].w[q] & ~(t[u].r[q] | t[u].w[q])) != 0;
                if (elsewhere)
                    other_w += t[x].wr;
            }
            total += t[u].acc < other_w ? t[u].acc : other_w;
        }
    }
    return total;
}

static void predict_objects(struct sh_analysis *a)
{
    for (size_t oi = 0; oi < a->nobjs; oi++) {
        struct sh_object *o = &a->objs[oi];
        size_t nf = 0, cap = 0;
        struct foot *f = NULL;
        uint32_t threads[64];
        int nthreads = 0;
        for (size_t li = 0; li < a->s.nlines; li++) {
            const struct pi_share_line_v *l = &a->s.lines[li];
            if (l->rec.addr + PI_SHARE_LINE <= o->addr || l->rec.addr >= o->addr + o->size)
                continue;
            for (uint32_t k = 0; k < l->rec.nthreads; k++) {
                const struct pi_share_thr *th = &l->thr[k];
                if (!(th->rmask | th->wmask))
                    continue;
                if (nf == cap) {
                    cap = cap ? 2 * cap : 16;
                    struct foot *nfp = realloc(f, cap * sizeof *f);
                    if (!nfp) {
                        free(f);
                        return;
                    }
                    f = nfp;
                }
                f[nf++] = (struct foot){.thread = th->thread, .start = (int64_t)(l->rec.addr - o->addr),
                                        .r = th->rmask, .w = th->wmask, .reads = th->reads, .writes = th->writes};
                int j;
                for (j = 0; j < nthreads && threads[j] != th->thread; j++)
                    ;
                if (j == nthreads && nthreads < 64)
                    threads[nthreads++] = th->thread;
            }
        }
        o->analysed = nthreads > 1;
        o->actual_off = (int)(o->addr % PI_SHARE_LINE);
        if (o->analysed) {
            for (int k = 0; k < (int)(PI_SHARE_LINE / 8); k++)
                o->pred[k] = predict(f, nf, o->size, 8 * k, PI_SHARE_LINE);
            for (int k = 0; k < (int)(2 * PI_SHARE_LINE / 8); k++)
                o->pred_pair[k] = predict(f, nf, o->size, 8 * k, 2 * PI_SHARE_LINE);
        }
        free(f);
    }
}

int sh_analyze(struct sh_analysis *a, const char *prog, const char *trace, int force)
{
    struct pi_err err;
    double cycles = a->reload_cycles; /* the caller's --reload-cycles, or 0 */
    memset(a, 0, sizeof *a);
    a->prog = prog;
    a->trace = trace;
    a->reload_cycles = cycles > 0 ? cycles : 100;
    struct pi_meta m;
    if (pi_meta_read(prog, &m, &err)) {
        pm_error("%s", err.msg);
        return -1;
    }
    pi_build_id_hex(m.build_id, m.build_id_len, a->bid);
    if (pi_debug_open(prog, &a->dbg, &err) == 0) {
        a->have_dbg = 1;
        pm_names_program(&m, &a->dbg);
        if (pi_debug_read_vars(&a->dbg, &err))
            pm_note("%s", err.msg);
        if (a->dbg.warning[0])
            pm_note("%s", a->dbg.warning);
    } else
        pm_note("%s: %s (no names)", prog, err.msg);
    if (pi_share_arrays_read(prog, &a->arrays, &a->narrays, &err))
        pm_note("%s", err.msg);
    if (pi_trace_read(trace, &a->t, &err)) {
        pm_error("%s", err.msg);
        pi_meta_free(&m);
        return -1;
    }
    pm_trace_notes(&a->t);
    a->mod = pm_match_module(&a->t, m.build_id, m.build_id_len);
    if (!a->mod && force)
        a->mod = pm_guess_module(&a->t, prog);
    if (!a->mod && !force && a->t.nmodules) {
        pm_error("%s is not a trace of %s (no module with its build-id; --force reads it anyway)", trace, prog);
        pi_meta_free(&m);
        return -1;
    }
    pi_meta_free(&m);
    a->bias = a->mod ? a->mod->load_bias : 0;
    if (a->mod && (a->t.hdr.flags & PI_TF_MERGED)) /* module-relative, tagged (pi_share_add) */
        a->bias = (uint64_t)(a->mod->index + 1) << PI_WATCH_MODULE_SHIFT;
    if (pi_share_read(trace, &a->s, &err)) {
        pm_error("%s", err.msg);
        return -1;
    }
    if (!(a->t.hdr.flags & PI_TF_SHARING))
        pm_note("%s has no sharing records: was %s built with -fplugin-arg-perfinst-sharing=all or a "
                "`sharing` directive?", trace, prog);

    size_t ocap = 0;
    a->rows = calloc(a->s.nlines ? a->s.nlines : 1, sizeof *a->rows);
    if (!a->rows)
        return rep_oom();
    for (size_t i = 0; i < a->s.nlines; i++) {
        const struct pi_share_line_v *l = &a->s.lines[i];
        struct sh_line_row *r = &a->rows[a->nrows];
        r->addr = l->rec.addr;
        for (int b = 0; b < (int)PI_SHARE_LINE; b++) {
            r->obj[b] = -1;
            int touched = 0;
            for (uint32_t k = 0; k < l->rec.nthreads; k++)
                touched |= (int)(((l->thr[k].rmask | l->thr[k].wmask) >> b) & 1);
            if (touched)
                r->obj[b] = object_of(a, r->addr + (uint64_t)b, &ocap);
        }
        for (int b = 0; b < (int)PI_SHARE_LINE; b++) /* untouched bytes: named too, for the heat map */
            if (r->obj[b] < 0) {
                uint64_t link;
                if (in_module(a, r->addr + (uint64_t)b, &link) && pi_debug_var(&a->dbg, link, link + 1))
                    r->obj[b] = object_of(a, r->addr + (uint64_t)b, &ocap);
            }
        r->shared = l->rec.nthreads > 1;
        if (!r->shared)
            continue; /* private lines only feed the prediction */
        r->nthr = (int)l->rec.nthreads;
        r->thr = calloc(l->rec.nthreads, sizeof *r->thr);
        if (!r->thr)
            return rep_oom();
        for (uint32_t k = 0; k < l->rec.nthreads; k++) {
            const struct pi_share_thr *t = &l->thr[k];
            r->thr[k] = (struct sh_thr_row){t->thread, pi_share_tid(&a->s, t->thread), t->cpu, t->rmask, t->wmask,
                                            t->reads, t->writes, t->reloads_true, t->reloads_false};
        }
        r->rt = l->rec.reloads_true;
        r->rf = l->rec.reloads_false;
        memcpy(r->area_true, l->rec.area_true, sizeof r->area_true);
        memcpy(r->area_false, l->rec.area_false, sizeof r->area_false);
        r->cost = (double)(r->rt + r->rf) * a->reload_cycles;
        r->gain = (double)r->rf * a->reload_cycles;
        for (int b = 0; b < (int)PI_SHARE_LINE; b++) {
            int oi = r->obj[b];
            if (oi >= 0 && (b == 0 || r->obj[b - 1] != oi)) {
                a->objs[oi].rt += r->rt;
                a->objs[oi].rf += r->rf;
            }
        }
        a->nrows++;
    }
    /* struct names from the sites' `what`, per object */
    for (size_t i = 0; i < a->s.nsites; i++) {
        const struct pi_share_site_v *s = &a->s.sites[i];
        char st[64], fld[64];
        uint64_t fo, ss;
        if (!sh_parse_what(s->what, st, sizeof st, fld, sizeof fld, &fo, &ss))
            continue;
        for (size_t ri = 0; ri < a->nrows; ri++) {
            struct sh_line_row *r = &a->rows[ri];
            if (r->addr != s->rec.line)
                continue;
            int b = __builtin_ctzll(s->rec.mask ? s->rec.mask : 1);
            if (r->obj[b] >= 0 && !a->objs[r->obj[b]].stype[0]) {
                snprintf(a->objs[r->obj[b]].stype, sizeof a->objs[r->obj[b]].stype, "%s", st);
                a->objs[r->obj[b]].ssize = ss;
            }
        }
    }
    predict_objects(a);
    qsort(a->rows, a->nrows, sizeof *a->rows, cmp_rows);
    return 0;
}

int sh_analyze_traces(struct sh_analysis *a, const char *prog, char **traces, int ntraces, int force)
{
    if (ntraces == 1)
        return sh_analyze(a, prog, traces[0], force);
    /* several: each must be a trace of PROG (as one trace must be), then
     * they are merged into a temporary trace, as `pmopt merge` does */
    struct pi_meta m;
    struct pi_err err;
    if (pi_meta_read(prog, &m, &err)) {
        pm_error("%s", err.msg);
        return -1;
    }
    for (int i = 0; i < ntraces && !force; i++) {
        struct pi_trace t;
        if (pi_trace_read(traces[i], &t, &err)) {
            pm_error("%s", err.msg);
            pi_meta_free(&m);
            return -1;
        }
        int mine = !t.nmodules || pm_match_module(&t, m.build_id, m.build_id_len);
        pi_trace_free(&t);
        if (!mine) {
            pm_error("%s is not a trace of %s (no module with its build-id; --force reads it anyway)", traces[i],
                     prog);
            pi_meta_free(&m);
            return -1;
        }
    }
    pi_meta_free(&m);
    double cycles = a->reload_cycles;
    memset(a, 0, sizeof *a);
    const char *dir = getenv("TMPDIR");
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s/pmopt-sharing.%ld.pit", dir && *dir ? dir : "/tmp", (long)getpid());
    if (pm_merge_files(tmp, traces, ntraces, force, 1) != PM_OK) {
        unlink(tmp);
        return -1;
    }
    size_t len = 0;
    for (int i = 0; i < ntraces; i++)
        len += strlen(traces[i]) + 3;
    char *label = malloc(len + 1);
    if (!label) {
        unlink(tmp);
        return rep_oom();
    }
    label[0] = 0;
    for (int i = 0; i < ntraces; i++)
        strcat(strcat(label, i ? " + " : ""), traces[i]);
    a->reload_cycles = cycles;
    int rc = sh_analyze(a, prog, tmp, force);
    unlink(tmp);
    a->trace = a->trace_label = label;
    return rc;
}

void sh_free(struct sh_analysis *a)
{
    free(a->trace_label);
    free(a->arrays);
    for (size_t i = 0; i < a->nrows; i++)
        free(a->rows[i].thr);
    free(a->rows);
    free(a->objs);
    pi_share_free(&a->s);
    pi_trace_free(&a->t);
    if (a->have_dbg)
        pi_debug_close(&a->dbg);
    memset(a, 0, sizeof *a);
}

/* ---------------------------------------------------------------------- */
/* Views                                                                     */
/* ---------------------------------------------------------------------- */

const char *sh_verdict(uint64_t rt, uint64_t rf)
{
    return rt && rf ? "TRUE and FALSE sharing" : rf ? "FALSE sharing" : rt ? "TRUE sharing" : "shared, no reloads";
}

/* The distinct names of the bytes in mask, comma-separated. */
void sh_names_of(const struct sh_analysis *a, const struct sh_line_row *r, uint64_t mask, char *buf, size_t n)
{
    size_t len = 0;
    char prev[160] = "";
    buf[0] = 0;
    for (int b = 0; b < (int)PI_SHARE_LINE; b++) {
        if (!((mask >> b) & 1))
            continue;
        char nm[160];
        sh_name_bytes(a, r, b, b + 1, nm, sizeof nm);
        if (!strcmp(nm, prev))
            continue;
        /* a name already listed (bytes of one field seen again) */
        int dup = 0;
        for (const char *p = buf; (p = strstr(p, nm)); p += strlen(nm))
            if ((p == buf || p[-1] == ' ') && (p[strlen(nm)] == ',' || !p[strlen(nm)])) {
                dup = 1;
                break;
            }
        snprintf(prev, sizeof prev, "%s", nm);
        if (dup)
            continue;
        if (len < n)
            len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? ", " : "", nm);
    }
}

void sh_objects_of_row(const struct sh_analysis *a, const struct sh_line_row *r, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    for (int b = 0; b < (int)PI_SHARE_LINE; b++) {
        int oi = r->obj[b];
        if (oi < 0 || (b && r->obj[b - 1] == oi))
            continue;
        int seen = 0;
        for (int c = 0; c < b; c++)
            seen |= r->obj[c] == oi;
        if (seen)
            continue;
        const struct sh_object *o = &a->objs[oi];
        int64_t at = (int64_t)o->addr - (int64_t)r->addr;
        if (len < n)
            len += (size_t)snprintf(buf + len, n - len, "%s%s (%s, %llu bytes, %s %lld)", len ? "; " : "", o->name,
                                    o->kind == SH_OBJ_GLOBAL ? "global" : o->kind == SH_OBJ_HEAP ? "heap" : "unrecorded",
                                    (unsigned long long)o->size,
                                    at >= 0 ? "starts at line byte" : "started", (long long)at);
    }
    if (!len)
        snprintf(buf, n, "(memory outside PROG and the recorded heap objects)");
}

/* A line's address as the reader knows it: run-time, or in a merged trace
 * (tagged, module-relative) "0x6340 (link-time, prog)". */
static const char *line_name(const struct sh_analysis *a, uint64_t addr, char *buf, size_t n)
{
    uint32_t tag = PI_WATCH_MODULE(addr);
    const struct pi_trace_module *m = tag && tag != PI_SHARE_HEAP_TAG && tag - 1 < a->t.nmodules ? &a->t.modules[tag - 1] : NULL;
    if (tag == PI_SHARE_HEAP_TAG)
        snprintf(buf, n, "heap+0x%llx", (unsigned long long)PI_WATCH_OFFSET(addr));
    else if (m)
        snprintf(buf, n, "0x%llx (link-time, %s)", (unsigned long long)PI_WATCH_OFFSET(addr),
                 m->path ? pm_basename(m->path) : "?");
    else
        snprintf(buf, n, "0x%llx", (unsigned long long)addr);
    return buf;
}

static void print_row(const struct sh_analysis *a, const struct sh_line_row *r, int rank)
{
    char buf[2048], ln[300];
    printf("#%d  line %s  %s  reloads: %llu true, %llu false  est. cost %.0f cycles, gain of a fix %.0f\n",
           rank, line_name(a, r->addr, ln, sizeof ln), sh_verdict(r->rt, r->rf), (unsigned long long)r->rt,
           (unsigned long long)r->rf, r->cost, r->gain);
    sh_objects_of_row(a, r, buf, sizeof buf);
    printf("    objects: %s\n", buf);
    for (int b = 0; b < (int)PI_SHARE_LINE; b++) { /* heap objects: the allocation's call stack */
        int oi = r->obj[b];
        if (oi < 0 || (b && r->obj[b - 1] == oi) || a->objs[oi].kind != SH_OBJ_HEAP)
            continue;
        const struct pi_share_alloc_v *al = a->objs[oi].alloc;
        printf("    allocated at:");
        for (uint32_t k = 0; k < al->rec.nframes; k++) {
            char where[512];
            sh_site_where(a, al->frames[k], where, sizeof where);
            printf("%s %s", k ? " <-" : "", where);
        }
        printf("\n");
    }
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
    for (size_t i = 0; i < a->s.nsites; i++) {
        const struct pi_share_site_v *s = &a->s.sites[i];
        if (s->rec.line != r->addr)
            continue;
        char where[512], nm[512];
        sh_site_where(a, s->rec.pc, where, sizeof where);
        sh_names_of(a, r, s->rec.mask, nm, sizeof nm);
        printf("    at %s: T%u %s %s: %llu accesses, reloads %llu true, %llu false\n", where, s->rec.thread,
               s->rec.flags & PI_ACCESS_WRITE ? (s->rec.flags & PI_ACCESS_READ ? "reads+writes" : "writes") : "reads",
               nm, (unsigned long long)s->rec.accesses, (unsigned long long)s->rec.reloads_true,
               (unsigned long long)s->rec.reloads_false);
    }
}

static void print_predictions(const struct sh_analysis *a)
{
    int any = 0;
    for (size_t i = 0; i < a->nobjs; i++) {
        const struct sh_object *o = &a->objs[i];
        if (!o->analysed)
            continue;
        int nl = 0;
        for (unsigned k = 0; k < PI_SHARE_LINE / 8; k++)
            nl += o->pred[k] >= SH_PREDICT_MIN;
        for (unsigned k = 0; k < 2 * PI_SHARE_LINE / 8; k++)
            nl += o->pred_pair[k] >= SH_PREDICT_MIN;
        if (!nl && !o->rf)
            continue;
        if (!any++)
            printf("\nPrediction: false sharing of each object two or more threads touched, placed at every\n"
                   "8-byte offset of a line and of a 128-byte pair (adjacent-line prefetch); est. reloads\n");
        int nline = 0, npair = 0;
        for (unsigned k = 0; k < PI_SHARE_LINE / 8; k++)
            nline += o->pred[k] >= SH_PREDICT_MIN;
        for (unsigned k = 0; k < 2 * PI_SHARE_LINE / 8; k++)
            npair += o->pred_pair[k] >= SH_PREDICT_MIN;
        if (!nline && !npair && !o->rf)
            continue; /* safe wherever it is placed: not listed */
        const char *tag = !nline && !npair ? "safe at every placement"
                          : o->rf ? "false sharing (seen in this run)"
                          : nline ? "HIDDEN false sharing: not in this run's placement, at others"
                                  : "false sharing only through adjacent-line prefetch";
        printf("  %s (%s, %llu bytes, at +%d of its line this run): %s\n", o->name,
               o->kind == SH_OBJ_GLOBAL ? "global" : o->kind == SH_OBJ_HEAP ? "heap" : "unrecorded",
               (unsigned long long)o->size, o->actual_off, tag);
        if (nline) {
            printf("    line placements:");
            for (unsigned k = 0; k < PI_SHARE_LINE / 8; k++)
                printf(" +%u:%llu", 8 * k, (unsigned long long)o->pred[k]);
            printf("\n");
        }
        if (npair) {
            printf("    128-byte pair placements:");
            for (unsigned k = 0; k < 2 * PI_SHARE_LINE / 8; k++)
                printf(" +%u:%llu", 8 * k, (unsigned long long)o->pred_pair[k]);
            printf("\n");
        }
    }
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
 * embedded, an <svg> element for an HTML page (pmopt report --html,
 * report-html.c).  The top lines with reloads; 0, or -1 on a write error. */
int sh_heatmap_svg(const struct sh_analysis *a, long top, FILE *f, int embedded)
{
    static const char *const colors[] = {"#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
                                         "#e377c2", "#17becf"};
    size_t nrows = 0;
    while (nrows < a->nrows && nrows < (size_t)top && a->rows[nrows].rt + a->rows[nrows].rf)
        nrows++;
    int cell = 12, left = 150, y = 40, width = left + 64 * cell + 20;
    int height = 60;
    for (size_t i = 0; i < nrows; i++)
        height += 40 + (a->rows[i].nthr) * (cell + 4) + 10;
    if (!embedded)
        fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"pi-heatmap\" width=\"%d\" height=\"%d\" font-family=\"monospace\" "
               "font-size=\"11\">\n<title>perfinst: cache-line heat map of ",
            width, height);
    svg_text(f, a->prog);
    fprintf(f, "</title>\n<text x=\"10\" y=\"20\" font-size=\"14\">Cache lines by estimated gain: per thread, "
               "dark = written, light = read only (hover a byte for its name)</text>\n");
    for (size_t i = 0; i < nrows; i++) {
        const struct sh_line_row *r = &a->rows[i];
        char objs[1024], ln[300];
        sh_objects_of_row(a, r, objs, sizeof objs);
        line_name(a, r->addr, ln, sizeof ln);
        fprintf(f, "<text x=\"10\" y=\"%d\" font-weight=\"bold\">#%zu line ", y + 14, i + 1);
        svg_text(f, ln);
        fprintf(f, ": %s, %llu true / %llu false "
                   "reloads: ",
                sh_verdict(r->rt, r->rf), (unsigned long long)r->rt,
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
            "  --top=N              the N lines with the largest gain (all)\n"
            "  --reload-cycles=C    cost of one reload in cycles (100)\n"
            "  --heatmap=FILE.svg   also a heat map of the lines: bytes each thread reads, writes\n"
            "  --force              read a trace of a different build of PROG\n");
}

int cmd_report_sharing(int argc, char **argv)
{
    static const struct option opts[] = {
        {"sharing", no_argument, NULL, 's'},    {"top", required_argument, NULL, 't'},
        {"heatmap", required_argument, NULL, 'm'}, {"reload-cycles", required_argument, NULL, 'c'},
        {"force", no_argument, NULL, 'f'},      {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    long top = -1;
    double cycles = 100;
    const char *map = NULL;
    int force = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        char *end;
        switch (c) {
        case 's': break;
        case 't':
            top = strtol(optarg, &end, 10);
            if (*end || top <= 0)
                return pm_usage_error("report", "--top: '%s' is not a positive number", optarg);
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
        case 'h': help(stdout); return PM_OK;
        default: return pm_usage_error("report", "unknown option");
        }
    }
    if (argc - optind < 2)
        return pm_usage_error("report", "--sharing needs PROG and at least one TRACE");
    struct sh_analysis a;
    memset(&a, 0, sizeof a);
    a.reload_cycles = cycles;
    if (sh_analyze_traces(&a, argv[optind], argv + optind + 1, argc - optind - 1, force)) {
        sh_free(&a);
        return PM_ERROR;
    }
    uint64_t rt = 0, rf = 0;
    size_t nrel = 0;
    for (size_t i = 0; i < a.nrows; i++) {
        rt += a.rows[i].rt, rf += a.rows[i].rf;
        nrel += a.rows[i].rt + a.rows[i].rf != 0;
    }
    /* lines without reloads (read-shared data) are not listed */
    size_t n = top > 0 && (size_t)top < nrel ? (size_t)top : nrel;
    printf("Cache-line sharing in %s (%zu threads; %zu lines touched by more than one thread, %zu with reloads; "
           "reloads: %llu true, %llu false)\n",
           a.trace, a.s.nthreads, a.nrows, nrel, (unsigned long long)rt, (unsigned long long)rf);
    if (a.s.nthreads && a.s.threads[0].period > 1)
        printf("(sampled: 1 in %u accesses to shared lines, on average, and the next access of its thread judged "
               "(PERFINST_SHARING_PERIOD); access and reload counts on shared lines are estimates, scaled by %u)\n",
               a.s.threads[0].period, a.s.threads[0].period);
    for (size_t i = 0; i < n; i++) {
        printf("\n");
        print_row(&a, &a.rows[i], (int)i + 1);
    }
    print_predictions(&a);
    int rc = map && heatmap(&a, map, top > 0 ? top : 50) ? PM_ERROR : PM_OK;
    sh_free(&a);
    return rc;
}
