/* pisample.c — the reader of the stack-sampling records (pisample.h). */
#include "pisample.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

const char *pi_sample_kind_name(uint32_t kind)
{
    switch (kind) {
    case PI_SK_CPU: return "cpu";
    case PI_SK_WALL: return "wall";
    case PI_SK_IDLE_TO: return "to-idle";
    case PI_SK_IDLE_FROM: return "from-idle";
    }
    return "?";
}

const char *pi_block_kind_name(uint32_t kind)
{
    static const char *const names[] = {"-", "mutex", "cond", "sem", "join", "sleep", "read", "poll",
                                        "marked"};
    return kind < sizeof names / sizeof names[0] ? names[kind] : "?";
}

static uint64_t word(const uint8_t *p, size_t i)
{
    uint64_t v;
    memcpy(&v, p + 8 * i, 8);
    return v;
}

/* The sample whose header is at word `at` of a SAMPLES record's words w
 * (nwords of them), decoded into *s (all but trace and frames): 0; -1 when
 * its header runs past nwords, -2 when its frames do.  The one reading of
 * the header words (perfinst-format.h). */
static int sample_at(const uint8_t *w, uint64_t nwords, uint64_t at, struct pi_sample *s)
{
    if (at + PI_SAMPLE_HDR_WORDS > nwords)
        return -1;
    uint64_t w1 = word(w, at + 1), w2 = word(w, at + 2);
    s->ts = word(w, at);
    s->nframes = (uint32_t)(w1 & 0xffff);
    s->flags = (uint32_t)(w1 >> 16) & 0xff;
    s->kind = (uint32_t)(w1 >> 24) & 0xff;
    s->cpu = (uint32_t)(w1 >> 32) & 0xffff;
    s->block = (uint32_t)(w1 >> 48);
    s->tid = (uint32_t)w2;
    s->weight = (uint32_t)(w2 >> 32) + 1;
    return at + PI_SAMPLE_HDR_WORDS + s->nframes > nwords ? -2 : 0;
}

/* A run-time map of one trace. */
struct tmap {
    uint64_t lo, hi, bias;
    uint32_t obj;
};

static uint32_t obj_index(struct pi_samples *ss, const char *path, const uint8_t *id, uint32_t idlen)
{
    for (size_t i = 0; i < ss->nobjs; i++)
        if (!strcmp(ss->objs[i].path, path) && ss->objs[i].build_id_len == idlen &&
            !memcmp(ss->objs[i].build_id, id, idlen))
            return (uint32_t)i;
    struct pi_sobj *no = realloc(ss->objs, (ss->nobjs + 1) * sizeof *no);
    if (!no)
        return PI_SOBJ_NONE;
    ss->objs = no;
    struct pi_sobj *o = &ss->objs[ss->nobjs];
    memset(o, 0, sizeof *o);
    o->path = strdup(path);
    o->build_id_len = idlen;
    memcpy(o->build_id, id, idlen);
    return (uint32_t)ss->nobjs++;
}

/* A stats record (SAMPLE_STATS, IDLE_STATS: size bytes, 64-bit counters
 * from offset `counters` to the end) into *acc: the fields before the
 * counters are the latest trace's, the counters are summed over the traces
 * read (*has: acc holds one already).  -1 when the record is too small. */
static int add_stats(const struct pi_trace_rec *r, void *acc, size_t size, size_t counters, int *has)
{
    uint8_t st[128];
    if (r->hdr.size < size || size > sizeof st)
        return -1;
    memcpy(st, r->payload, size);
    for (size_t o = counters; *has && o + 8 <= size; o += 8) {
        uint64_t a, b;
        memcpy(&a, st + o, 8);
        memcpy(&b, (const uint8_t *)acc + o, 8);
        a += b;
        memcpy(st + o, &a, 8);
    }
    memcpy(acc, st, size);
    *has = 1;
    return 0;
}

#define BAD(fmt, ...)                                                                          \
    (pi_err_set(err, "%s: record %u (type %u) at offset 0x%llx: " fmt, path, r.index,          \
                r.hdr.type, (unsigned long long)r.offset, ##__VA_ARGS__),                      \
     -1)

static int read_file(struct pi_trace_file *fp, const char *path, struct pi_samples *ss,
                     char *warning, size_t wlen, struct pi_err *err);

int pi_samples_read(const char *path, struct pi_samples *ss, char *warning, size_t wlen,
                    struct pi_err *err)
{
    struct pi_trace_file f;
    if (pi_trace_open(path, &f, err))
        return -1;
    return read_file(&f, path, ss, warning, wlen, err);
}

int pi_samples_read_mem(const char *path, const void *data, size_t size, struct pi_samples *ss,
                        char *warning, size_t wlen, struct pi_err *err)
{
    struct pi_trace_file f;
    if (pi_trace_open_mem(path, data, size, &f, err))
        return -1;
    return read_file(&f, path, ss, warning, wlen, err);
}

/* Reads f's sampling records into ss; closes f. */
static int read_file(struct pi_trace_file *fp, const char *path, struct pi_samples *ss,
                     char *warning, size_t wlen, struct pi_err *err)
{
    struct pi_trace_file f = *fp;
    struct tmap *maps = NULL;
    size_t nmaps = 0;
    /* Samples come after the maps in a trace; frames are mapped at the end
     * so that the order of the records does not matter. */
    size_t first = ss->n;
    struct pi_trace_rec r;
    int rc = 0, k;
    while ((k = pi_trace_next(&f, &r, err)) > 0) {
        const uint8_t *p = r.payload;
        uint64_t n = r.hdr.size;
        switch (r.hdr.type) {
        case PI_REC_SAMPLE_MAP: {
            struct pi_rec_sample_map m;
            if (n < sizeof m) {
                rc = BAD("%llu bytes, too small for a sample map", (unsigned long long)n);
                goto out;
            }
            memcpy(&m, p, sizeof m);
            if (m.path_len == 0 || m.path_len > n - sizeof m || p[sizeof m + m.path_len - 1] ||
                m.build_id_len > PI_BUILD_ID_MAX || m.hi < m.lo) {
                rc = BAD("a sample map with a bad path, build-id or range");
                goto out;
            }
            struct tmap *nm = realloc(maps, (nmaps + 1) * sizeof *nm);
            if (!nm) {
                rc = BAD("out of memory");
                goto out;
            }
            maps = nm;
            maps[nmaps] = (struct tmap){m.lo, m.hi, m.bias,
                                        obj_index(ss, (const char *)p + sizeof m, m.build_id,
                                                  m.build_id_len)};
            nmaps++;
            break;
        }
        case PI_REC_SAMPLE_STATS:
            if (add_stats(&r, &ss->stats, sizeof ss->stats, offsetof(struct pi_rec_sample_stats, taken),
                          &ss->has_stats)) {
                rc = BAD("%llu bytes, too small", (unsigned long long)n);
                goto out;
            }
            break;
        case PI_REC_IDLE_STATS:
            if (add_stats(&r, &ss->idle, sizeof ss->idle, offsetof(struct pi_rec_idle_stats, ticks),
                          &ss->has_idle)) {
                rc = BAD("%llu bytes, too small", (unsigned long long)n);
                goto out;
            }
            break;
        case PI_REC_SAMPLES: {
            struct pi_rec_samples h;
            if (n < sizeof h) {
                rc = BAD("%llu bytes, too small", (unsigned long long)n);
                goto out;
            }
            memcpy(&h, p, sizeof h);
            if ((uint64_t)h.nwords * 8 > n - sizeof h) {
                rc = BAD("%u words do not fit in %llu bytes", h.nwords, (unsigned long long)n);
                goto out;
            }
            const uint8_t *w = p + sizeof h;
            size_t at = 0;
            for (uint32_t i = 0; i < h.nsamples; i++) {
                struct pi_sample one;
                int got = sample_at(w, h.nwords, at, &one);
                uint32_t nf = one.nframes;
                if (got == -1) {
                    rc = BAD("sample %u runs past the record", i);
                    goto out;
                }
                if (nf > PI_SAMPLE_MAX_FRAMES || got) {
                    rc = BAD("sample %u: %u frames run past the record", i, nf);
                    goto out;
                }
                if (ss->n == ss->cap) {
                    size_t cap = ss->cap ? 2 * ss->cap : 1024;
                    struct pi_sample *ns = realloc(ss->s, cap * sizeof *ns);
                    if (!ns) {
                        rc = BAD("out of memory");
                        goto out;
                    }
                    ss->s = ns;
                    ss->cap = cap;
                }
                struct pi_sample *s = &ss->s[ss->n];
                *s = one;
                s->trace = ss->ntraces;
                s->frames = malloc((nf ? nf : 1) * sizeof *s->frames);
                if (!s->frames) {
                    rc = BAD("out of memory");
                    goto out;
                }
                for (uint32_t j = 0; j < nf; j++)
                    s->frames[j] = (struct pi_sframe){PI_SOBJ_NONE,
                                                      word(w, at + PI_SAMPLE_HDR_WORDS + j)};
                ss->n++;
                at += PI_SAMPLE_HDR_WORDS + nf;
            }
            if (at != h.nwords) {
                rc = BAD("%u words, but its samples end at %zu", h.nwords, at);
                goto out;
            }
            break;
        }
        default:
            break;
        }
    }
    if (k < 0) {
        rc = -1;
        goto out;
    }
    if (warning && wlen) {
        snprintf(warning, wlen, "%s", f.warning);
    }
    /* run-time → (object, link-time) */
    for (size_t i = first; i < ss->n; i++)
        for (uint32_t j = 0; j < ss->s[i].nframes; j++) {
            struct pi_sframe *fr = &ss->s[i].frames[j];
            for (size_t m = 0; m < nmaps; m++)
                if (fr->addr >= maps[m].lo && fr->addr < maps[m].hi) {
                    fr->obj = maps[m].obj;
                    fr->addr -= maps[m].bias;
                    break;
                }
        }
    ss->ntraces++;
out:
    free(maps);
    pi_trace_close(&f);
    return rc;
}

void pi_samples_free(struct pi_samples *ss)
{
    for (size_t i = 0; i < ss->nobjs; i++)
        free(ss->objs[i].path);
    free(ss->objs);
    for (size_t i = 0; i < ss->n; i++)
        free(ss->s[i].frames);
    free(ss->s);
    memset(ss, 0, sizeof *ss);
}

int pi_samples_dump_rec(FILE *f, const struct pi_trace_rec *r)
{
    const uint8_t *p = r->payload;
    uint64_t n = r->hdr.size;
    switch (r->hdr.type) {
    case PI_REC_SAMPLE_MAP: {
        struct pi_rec_sample_map m;
        if (n < sizeof m)
            break;
        memcpy(&m, p, sizeof m);
        fprintf(f, " [0x%llx, 0x%llx) bias 0x%llx, build-id ",
                (unsigned long long)m.lo, (unsigned long long)m.hi, (unsigned long long)m.bias);
        for (uint32_t i = 0; i < m.build_id_len && i < PI_BUILD_ID_MAX; i++)
            fprintf(f, "%02x", m.build_id[i]);
        if (!m.build_id_len)
            fputc('-', f);
        fprintf(f, ", path \"%.*s\"\n", (int)(m.path_len && m.path_len <= n - sizeof m ? m.path_len - 1 : 0),
                (const char *)p + sizeof m);
        return 1;
    }
    case PI_REC_SAMPLE_STATS: {
        struct pi_rec_sample_stats s;
        if (n < sizeof s)
            break;
        memcpy(&s, p, sizeof s);
        fprintf(f, " kind %s, period %u ns, taken %llu, periods %llu, dropped %llu, truncated %llu, "
                   "threads %llu, handler cycles %llu\n", pi_sample_kind_name(s.kind), s.period_ns,
                (unsigned long long)s.taken, (unsigned long long)s.periods,
                (unsigned long long)s.dropped, (unsigned long long)s.truncated,
                (unsigned long long)s.threads, (unsigned long long)s.handler_cycles);
        return 1;
    }
    case PI_REC_IDLE_STATS: {
        struct pi_rec_idle_stats s;
        if (n < sizeof s)
            break;
        memcpy(&s, p, sizeof s);
        fprintf(f, " period %u ns, mode %u, cpus %u, %s, ticks %llu, idle %llu, busy %llu, "
                   "skipped %llu, lost %llu, dup %llu, to %llu, from %llu, eintr %llu\n",
                s.period_ns, s.mode, s.ncpus, s.fifo ? "SCHED_FIFO" : "SCHED_OTHER",
                (unsigned long long)s.ticks, (unsigned long long)s.idle, (unsigned long long)s.busy,
                (unsigned long long)s.skipped, (unsigned long long)s.lost, (unsigned long long)s.dup,
                (unsigned long long)s.to_samples, (unsigned long long)s.from_samples,
                (unsigned long long)s.eintr);
        return 1;
    }
    case PI_REC_SAMPLES: {
        struct pi_rec_samples h;
        if (n < sizeof h)
            break;
        memcpy(&h, p, sizeof h);
        fprintf(f, " nsamples %u, nwords %u\n", h.nsamples, h.nwords);
        const uint8_t *w = p + sizeof h;
        uint64_t avail = (n - sizeof h) / 8, at = 0;
        struct pi_sample s;
        for (uint32_t i = 0; i < h.nsamples && sample_at(w, avail, at, &s) != -1; i++) {
            uint32_t nf = s.nframes;
            fprintf(f, "    [%u] t %llu %s cpu %u tid %llu weight %llu%s%s%s frames %u:", i,
                    (unsigned long long)s.ts, pi_sample_kind_name(s.kind), s.cpu, (unsigned long long)s.tid,
                    (unsigned long long)(uint32_t)(s.weight - 1) + 1 /* 2^32 past uint32 */, s.block ? " blocked in " : "",
                    s.block ? pi_block_kind_name(s.block) : "", (s.flags & PI_SF_TRUNCATED) ? " (truncated)" : "",
                    nf);
            for (uint32_t j = 0; j < nf && at + PI_SAMPLE_HDR_WORDS + j < avail; j++)
                fprintf(f, " 0x%llx", (unsigned long long)word(w, at + PI_SAMPLE_HDR_WORDS + j));
            fputc('\n', f);
            at += PI_SAMPLE_HDR_WORDS + nf;
        }
        return 1;
    }
    default:
        return 0;
    }
    fprintf(f, " type %u, %llu bytes: too small\n", r->hdr.type, (unsigned long long)n);
    return 1;
}
