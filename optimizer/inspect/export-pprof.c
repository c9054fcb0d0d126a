/* pmopt export --pprof OUT [PROG] TRACE... — a gzip'ed profile.proto
 * (github.com/google/pprof/blob/main/proto/profile.proto), the format of
 * pprof, Pyroscope, Parca and the OpenTelemetry profiles signal.
 *
 * Sample types, those the input has, in this order:
 *   executions/count   block executions: one sample per counted block site,
 *                      one frame (the block's first address, line, function)
 *   entries/count      function entries: the entry block's sample
 *   calls/count        call arcs: a two-frame sample per call site with a
 *                      known callee, [callee's entry block, the call site]
 *   samples/count      timer samples (PERFINST_SAMPLE) in periods, with
 *   cpu|wall/nanoseconds  periods x the timer period; identical stacks summed
 *   to-idle/count, idle/nanoseconds (to-idle samples x the idle tick),
 *   from-idle/count    idle-transition samples (PERFINST_IDLE)
 * A sample holds values of one kind and zeros in the others' columns.
 *
 * Mappings: PROG first, then every other sampled object, each with its
 * executable segment's link-time address range and file offset, its path
 * and its build-id (hex): addresses are link-time addresses (a sample's
 * return address one byte back, inside its call), so pprof symbolizes a
 * PIE's profile again from the file (-symbolize=force, PPROF_BINARY_PATH
 * by build-id).  Functions carry the name as pmopt shows it (demangled),
 * the linkage name as system_name, the file and the declaration line.
 *
 * The encoder is hand-written (a few dozen lines: varints, lengths,
 * packed repeated fields); gzip is zlib's.  docs/exports.md says why not
 * protobuf-c.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gelf.h>
#include <libelf.h>
#include <zlib.h>

#include "export.h"
#include "piutil.h"

/* ---- protocol buffers: the wire format, encoding only ---------------------------- */

struct pb {
    uint8_t *p;
    size_t n, cap;
    int oom;
};

static void pb_put(struct pb *b, const void *d, size_t n)
{
    if (b->oom)
        return;
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n)
            cap *= 2;
        uint8_t *p = realloc(b->p, cap);
        if (!p) {
            b->oom = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, d, n);
    b->n += n;
}

static void pb_varint(struct pb *b, uint64_t v)
{
    uint8_t x[10];
    size_t n = 0;
    do {
        x[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    pb_put(b, x, n);
}

enum { WT_VARINT = 0, WT_LEN = 2 };

static void pb_key(struct pb *b, unsigned field, unsigned wt)
{
    pb_varint(b, (uint64_t)field << 3 | wt);
}

/* A varint field; 0 is the default and is left out. */
static void pb_u64(struct pb *b, unsigned field, uint64_t v)
{
    if (v) {
        pb_key(b, field, WT_VARINT);
        pb_varint(b, v);
    }
}

static void pb_bytes(struct pb *b, unsigned field, const void *d, size_t n)
{
    pb_key(b, field, WT_LEN);
    pb_varint(b, n);
    pb_put(b, d, n);
}

/* Submessage m as field `field` of b; m is emptied for the next one. */
static void pb_msg(struct pb *b, unsigned field, struct pb *m)
{
    b->oom |= m->oom;
    pb_bytes(b, field, m->p, m->n);
    m->n = 0;
}

/* A packed repeated varint field (location_id, value). */
static void pb_packed(struct pb *b, unsigned field, const uint64_t *v, size_t n, struct pb *tmp)
{
    for (size_t i = 0; i < n; i++)
        pb_varint(tmp, v[i]);
    pb_msg(b, field, tmp);
}

/* profile.proto's field numbers */
enum {
    P_SAMPLE_TYPE = 1, P_SAMPLE = 2, P_MAPPING = 3, P_LOCATION = 4, P_FUNCTION = 5,
    P_STRING_TABLE = 6, P_TIME_NANOS = 9, P_PERIOD_TYPE = 11, P_PERIOD = 12, P_COMMENT = 13,
    P_DEFAULT_SAMPLE_TYPE = 14,
    VT_TYPE = 1, VT_UNIT = 2,
    S_LOCATION_ID = 1, S_VALUE = 2,
    M_ID = 1, M_START = 2, M_LIMIT = 3, M_OFFSET = 4, M_FILENAME = 5, M_BUILD_ID = 6,
    M_HAS_FUNCTIONS = 7, M_HAS_FILENAMES = 8, M_HAS_LINE_NUMBERS = 9,
    L_ID = 1, L_MAPPING_ID = 2, L_ADDRESS = 3, L_LINE = 4,
    LN_FUNCTION_ID = 1, LN_LINE = 2,
    F_ID = 1, F_NAME = 2, F_SYSTEM_NAME = 3, F_FILENAME = 4, F_START_LINE = 5,
};

/* ---- the profile ------------------------------------------------------------------------ */

enum { V_EXEC, V_ENTRIES, V_CALLS, V_SAMPLES, V_TIME, V_TO, V_IDLE_NS, V_FROM, NV };

struct prof {
    struct exp_in *in;
    struct pb samples, mappings, locations, functions, strings, m, m2, tmp;
    struct exp_tab strtab, functab, loctab;
    uint32_t nstr, nfunc, nloc;
    int col[NV];            /* column of each value, -1: not in this profile */
    int ncols;
    uint32_t prog_mapping;  /* PROG's mapping id (0: none) */
    uint32_t *obj_mapping;  /* per sampled object */
};

/* The string table's index of s (interned by pm_intern: equal strings,
 * equal pointers). */
static uint64_t str(struct prof *p, const char *s)
{
    if (!s || !*s)
        return 0;
    s = pm_intern(s);
    uint32_t *id = exp_tab_slot(&p->strtab, (uintptr_t)s, 0);
    if (!id) {
        p->strings.oom = 1;
        return 0;
    }
    if (!*id) {
        *id = ++p->nstr;
        pb_bytes(&p->strings, P_STRING_TABLE, s, strlen(s));
    }
    return *id;
}

static uint32_t function(struct prof *p, const char *name, const char *linkage, const char *file,
                         uint32_t line)
{
    name = pm_intern(name);
    file = pm_intern(file ? file : "");
    uint32_t *id = exp_tab_slot(&p->functab, (uintptr_t)name, (uintptr_t)file);
    if (!id) {
        p->functions.oom = 1;
        return 0;
    }
    if (!*id) {
        *id = ++p->nfunc;
        struct pb *m = &p->m;
        pb_u64(m, F_ID, *id);
        pb_u64(m, F_NAME, str(p, name));
        pb_u64(m, F_SYSTEM_NAME, str(p, linkage ? linkage : name));
        pb_u64(m, F_FILENAME, str(p, file));
        pb_u64(m, F_START_LINE, line);
        pb_msg(&p->functions, P_FUNCTION, m);
    }
    return *id;
}

/* A location with one line; key (ka, kb) identifies it (0 id: new). */
static uint32_t location(struct prof *p, uint64_t ka, uint64_t kb, uint32_t mapping, uint64_t addr,
                         uint32_t func, uint32_t line)
{
    uint32_t *id = exp_tab_slot(&p->loctab, ka, kb);
    if (!id) {
        p->locations.oom = 1;
        return 0;
    }
    if (!*id) {
        *id = ++p->nloc;
        struct pb *m = &p->m;
        pb_u64(m, L_ID, *id);
        pb_u64(m, L_MAPPING_ID, mapping);
        pb_u64(m, L_ADDRESS, addr);
        pb_u64(&p->m2, LN_FUNCTION_ID, func);
        pb_u64(&p->m2, LN_LINE, line);
        pb_msg(m, L_LINE, &p->m2);
        pb_msg(&p->locations, P_LOCATION, m);
    }
    return *id;
}

static void sample(struct prof *p, const uint64_t *locs, size_t nlocs, int v, uint64_t value,
                   int v2, uint64_t value2)
{
    uint64_t vals[NV] = {0};
    vals[p->col[v]] = value;
    if (v2 >= 0)
        vals[p->col[v2]] = value2;
    struct pb *m = &p->m;
    pb_packed(m, S_LOCATION_ID, locs, nlocs, &p->tmp);
    pb_packed(m, S_VALUE, vals, (size_t)p->ncols, &p->tmp);
    pb_msg(&p->samples, P_SAMPLE, m);
}

/* The executable segment of ELF file path: link-time start, end and file
 * offset; 0 if it cannot be read. */
static int exec_segment(const char *path, uint64_t *start, uint64_t *limit, uint64_t *offset)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    size_t n = 0;
    int found = 0;
    if (e && elf_kind(e) == ELF_K_ELF && !elf_getphdrnum(e, &n))
        for (size_t i = 0; i < n && !found; i++) {
            GElf_Phdr ph;
            if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD && (ph.p_flags & PF_X)) {
                *start = ph.p_vaddr;
                *limit = ph.p_vaddr + ph.p_memsz;
                *offset = ph.p_offset;
                found = 1;
            }
        }
    if (e)
        elf_end(e);
    close(fd);
    return found;
}

static uint32_t mapping(struct prof *p, uint32_t id, const char *path, const uint8_t *bid,
                        uint32_t bidlen)
{
    uint64_t start = 0, limit = 0, offset = 0;
    exec_segment(path, &start, &limit, &offset);
    char hex[2 * PI_BUILD_ID_MAX + 1] = "";
    if (bidlen)
        pi_build_id_hex(bid, bidlen, hex);
    struct pb *m = &p->m;
    pb_u64(m, M_ID, id);
    pb_u64(m, M_START, start);
    pb_u64(m, M_LIMIT, limit);
    pb_u64(m, M_OFFSET, offset);
    pb_u64(m, M_FILENAME, str(p, path));
    pb_u64(m, M_BUILD_ID, str(p, hex));
    pb_u64(m, M_HAS_FUNCTIONS, 1);
    pb_u64(m, M_HAS_FILENAMES, 1);
    pb_u64(m, M_HAS_LINE_NUMBERS, 1);
    pb_msg(&p->mappings, P_MAPPING, m);
    return id;
}

static void mappings(struct prof *p)
{
    struct exp_in *in = p->in;
    uint32_t next = 1;
    if (in->prog) {
        const uint8_t *bid = in->counts ? in->md.m.build_id : in->t.prog_id;
        uint32_t len = in->counts ? in->md.m.build_id_len : in->t.prog_id_len;
        p->prog_mapping = mapping(p, next++, in->prog, bid, len);
    }
    for (size_t i = 0; i < in->t.ss.nobjs; i++) {
        const struct pi_sobj *o = &in->t.ss.objs[i];
        if (p->prog_mapping && o->build_id_len && o->build_id_len == in->t.prog_id_len &&
            !memcmp(o->build_id, in->t.prog_id, o->build_id_len))
            p->obj_mapping[i] = p->prog_mapping;
        else
            p->obj_mapping[i] = mapping(p, next++, o->path, o->build_id, o->build_id_len);
    }
}

/* ---- the counts: one sample per block site, per call arc ------------------------------- */

static uint32_t site_location(struct prof *p, const struct pi_unit_view *u, uint32_t k)
{
    const struct model *md = &p->in->md;
    const struct pi_site *st = &u->sites[k];
    const struct usum *us = &md->us[u - md->m.units];
    const struct pi_func *fn = &u->funcs[st->func];
    uint32_t f = function(p, pm_func_name(u, st->func), pi_unit_str(u, fn->name),
                          pm_func_file(u, st->func), fn->line);
    uint64_t addr = us->site_addr ? us->site_addr[k] : 0;
    if (!addr && st->kind == PI_SITE_CALL && st->arg < u->hdr.nsites && us->site_addr)
        addr = us->site_addr[st->arg];
    return location(p, (uint64_t)(uintptr_t)u << 2, k, p->prog_mapping, addr, f, st->line);
}

static void counts(struct prof *p)
{
    const struct model *md = &p->in->md;
    for (size_t i = 0; i < md->nsites; i++) {
        const struct site_row *row = &md->sites[i];
        if (!row->count)
            continue;
        const struct pi_site *st = &row->u->sites[row->site];
        const struct pi_func *fn = &row->u->funcs[st->func];
        uint64_t loc = site_location(p, row->u, row->site);
        int entry = fn->nsites && fn->first_site == row->site;
        sample(p, &loc, 1, V_EXEC, row->count, entry ? V_ENTRIES : -1, row->count);
    }
    for (size_t i = 0; i < p->in->narcs; i++) {
        const struct call_arc *a = &p->in->arcs[i];
        if (!a->count || !*a->callee)
            continue;
        uint64_t locs[2];
        const struct func_row *callee = exp_func_by_key(p->in, pm_fn_key(a->callee));
        const struct pi_func *cf = callee ? &callee->u->funcs[callee->func] : NULL;
        if (cf && cf->nsites)
            locs[0] = site_location(p, callee->u, cf->first_site);
        else /* not instrumented (a library's): its name only */
            locs[0] = location(p, (uint64_t)(uintptr_t)pm_intern(a->callee) << 2 | 2, 0, 0, 0,
                               function(p, pm_fn_name(a->callee), a->callee, "", 0), 0);
        locs[1] = site_location(p, a->u, a->site);
        sample(p, locs, 2, V_CALLS, a->count, -1, 0);
    }
}

/* ---- the stack samples: identical stacks summed ------------------------------------------ */

static const struct pi_sample *sort_s;

static int by_stack(const void *a, const void *b)
{
    const struct pi_sample *x = &sort_s[*(const uint32_t *)a], *y = &sort_s[*(const uint32_t *)b];
    int kx = stk_kind(x), ky = stk_kind(y);
    PI_CMP_RET(kx, ky);
    PI_CMP_RET(x->flags & PI_SF_TRUNCATED, y->flags & PI_SF_TRUNCATED);
    PI_CMP_RET(x->nframes, y->nframes);
    for (uint32_t j = 0; j < x->nframes; j++) {
        const struct pi_sframe *f = &x->frames[j], *g = &y->frames[j];
        PI_CMP_RET(f->obj, g->obj);
        PI_CMP_RET(f->addr, g->addr);
    }
    return 0;
}

static uint64_t frame_location(struct prof *p, const struct pi_sframe *fr, int innermost)
{
    uint64_t addr = innermost || !fr->addr ? fr->addr : fr->addr - 1;
    uint32_t id = exp_tab_get(&p->loctab, (uint64_t)fr->obj << 2 | 1, addr);
    if (id)
        return id;
    struct stk_frame sf;
    stk_frame(&p->in->t, fr, innermost, &sf);
    uint32_t f = function(p, sf.name, sf.linkage, sf.file, sf.line);
    uint32_t map = fr->obj == PI_SOBJ_NONE ? 0 : p->obj_mapping[fr->obj];
    return location(p, (uint64_t)fr->obj << 2 | 1, addr, map, addr, f, sf.src_line);
}

static int stacks(struct prof *p)
{
    const struct pi_samples *ss = &p->in->t.ss;
    if (!ss->n)
        return 0;
    uint32_t *ix = malloc(ss->n * sizeof *ix);
    uint64_t *locs = malloc((PI_SAMPLE_MAX_FRAMES + 1) * sizeof *locs);
    if (!ix || !locs) {
        free(ix);
        free(locs);
        return -1;
    }
    for (size_t i = 0; i < ss->n; i++)
        ix[i] = (uint32_t)i;
    sort_s = ss->s;
    qsort(ix, ss->n, sizeof *ix, by_stack);
    uint64_t period = exp_sample_period(p->in), idle = exp_idle_period(p->in);
    for (size_t i = 0; i < ss->n;) {
        const struct pi_sample *s = &ss->s[ix[i]];
        uint64_t w = 0;
        size_t j = i;
        for (; j < ss->n && !by_stack(&ix[i], &ix[j]); j++)
            w += stk_kind(&ss->s[ix[j]]) ? 1 : ss->s[ix[j]].weight;
        size_t n = s->nframes < PI_SAMPLE_MAX_FRAMES ? s->nframes : PI_SAMPLE_MAX_FRAMES;
        for (size_t k = 0; k < n; k++)
            locs[k] = frame_location(p, &s->frames[k], k == 0);
        if (s->flags & PI_SF_TRUNCATED) /* outermost, as the tree's root of its own */
            locs[n++] = location(p, (uint64_t)(uintptr_t)stk_truncated << 2 | 2, 0, 0, 0,
                                 function(p, stk_truncated, stk_truncated, "", 0), 0);
        switch (stk_kind(s)) {
        case STK_SAMPLED: sample(p, locs, n, V_SAMPLES, w, V_TIME, w * period); break;
        case STK_TO: sample(p, locs, n, V_TO, w, V_IDLE_NS, w * idle); break;
        default: sample(p, locs, n, V_FROM, w, -1, 0); break;
        }
        i = j;
    }
    free(ix);
    free(locs);
    return 0;
}

/* ---- the file ------------------------------------------------------------------------- */

static void value_type(struct prof *p, struct pb *b, unsigned field, const char *type,
                       const char *unit)
{
    struct pb *m = &p->m2;
    pb_u64(m, VT_TYPE, str(p, type));
    pb_u64(m, VT_UNIT, str(p, unit));
    pb_msg(b, field, m);
}

static int gzip_write(const struct pb *b, const char *out)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        pm_error("%s: zlib: %s", out, z.msg ? z.msg : "deflateInit2 failed");
        return -1;
    }
    uLong cap = deflateBound(&z, (uLong)b->n);
    uint8_t *gz = malloc(cap);
    if (!gz) {
        deflateEnd(&z);
        return rep_oom();
    }
    z.next_in = b->p;
    z.avail_in = (uInt)b->n;
    z.next_out = gz;
    z.avail_out = (uInt)cap;
    int rc = deflate(&z, Z_FINISH);
    size_t n = z.total_out;
    deflateEnd(&z);
    if (rc != Z_STREAM_END) {
        free(gz);
        pm_error("%s: zlib could not compress the profile", out);
        return -1;
    }
    FILE *f = pm_create(out);
    int bad = !f;
    if (f) {
        bad = fwrite(gz, 1, n, f) != n;
        if (fclose(f))
            bad = 1;
        if (bad)
            pm_error("%s: %m", out);
    }
    free(gz);
    return bad ? -1 : 0;
}

int export_pprof(struct exp_in *in, const char *out)
{
    struct prof p;
    memset(&p, 0, sizeof p);
    p.in = in;
    p.obj_mapping = calloc(in->t.ss.nobjs + 1, sizeof *p.obj_mapping);
    if (!p.obj_mapping)
        return rep_oom();
    pb_bytes(&p.strings, P_STRING_TABLE, "", 0); /* string 0 is "" */
    int sampled = in->t.have[STK_SAMPLED], idle = in->t.have[STK_TO] || in->t.have[STK_FROM];
    static const char *const names[NV][2] = {
        {"executions", "count"}, {"entries", "count"}, {"calls", "count"},
        {"samples", "count"}, {"cpu", "nanoseconds"},
        {"to-idle", "count"}, {"idle", "nanoseconds"}, {"from-idle", "count"},
    };
    const char *time_name = in->t.ss.stats.kind == PI_SK_WALL ? "wall" : "cpu";
    struct pb head = {0};
    for (int v = 0; v < NV; v++) {
        int have = v <= V_CALLS ? in->counts : v <= V_TIME ? sampled : idle;
        p.col[v] = have ? p.ncols++ : -1;
        if (have)
            value_type(&p, &head, P_SAMPLE_TYPE, v == V_TIME ? time_name : names[v][0],
                       names[v][1]);
    }
    /* a value of a kind the profile lacks never happens; a column for it keeps sample() simple */
    for (int v = 0; v < NV; v++)
        if (p.col[v] < 0)
            p.col[v] = p.ncols;
    mappings(&p);
    if (in->counts)
        counts(&p);
    if (stacks(&p))
        p.samples.oom = 1;
    /* the profile's header fields */
    struct pi_err err;
    struct pi_trace_file tf;
    if (in->ntraces && !pi_trace_open(in->traces[0], &tf, &err)) {
        pb_u64(&head, P_TIME_NANOS, tf.hdr.start_ns);
        pi_trace_close(&tf);
    }
    if (sampled) {
        value_type(&p, &head, P_PERIOD_TYPE, time_name, "nanoseconds");
        pb_u64(&head, P_PERIOD, exp_sample_period(in));
    }
    char comment[600];
    snprintf(comment, sizeof comment, "perfinst %s: pmopt export --pprof%s%s", PERFINST_VERSION,
             in->prog ? " " : "", in->prog ? in->prog : "");
    pb_u64(&head, P_COMMENT, str(&p, comment));
    pb_u64(&head, P_DEFAULT_SAMPLE_TYPE,
           str(&p, in->counts ? "executions" : sampled ? time_name : "to-idle"));
    struct pb all = {0};
    struct pb *parts[] = { &head, &p.samples, &p.mappings, &p.locations, &p.functions, &p.strings };
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        all.oom |= parts[i]->oom;
        pb_put(&all, parts[i]->p, parts[i]->n);
    }
    int rc = all.oom || p.m.oom || p.m2.oom || p.tmp.oom ? rep_oom() : gzip_write(&all, out);
    struct pb *bufs[] = { &all, &head, &p.samples, &p.mappings, &p.locations, &p.functions,
                          &p.strings, &p.m, &p.m2, &p.tmp };
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        free(bufs[i]->p);
    exp_tab_free(&p.strtab);
    exp_tab_free(&p.functab);
    exp_tab_free(&p.loctab);
    free(p.obj_mapping);
    return rc;
}
