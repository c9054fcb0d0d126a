/* pitrace.c — the one reader and writer of perfinst traces (pitrace.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pitrace.h"
#include "piutil.h"
#include "piout.h"

const char *pi_trace_rec_name(uint32_t type)
{
    switch (type) {
    case PI_REC_PROCESS: return "PROCESS";
    case PI_REC_MODULE: return "MODULE";
    case PI_REC_COUNTS: return "COUNTS";
    case PI_REC_SIGNAL: return "SIGNAL";
    case PI_REC_END: return "END";
    case PI_REC_SITESTAT: return "SITESTAT";
    case PI_REC_EVENT: return "EVENT";
    case PI_REC_TRACEREG: return "TRACEREG";
    case PI_REC_WATCH: return "WATCH";
    case PI_REC_RI: return "RI";
    case PI_REC_SAMPLE_MAP: return "SAMPLE_MAP";
    case PI_REC_SAMPLES: return "SAMPLES";
    case PI_REC_SAMPLE_STATS: return "SAMPLE_STATS";
    case PI_REC_IDLE_STATS: return "IDLE_STATS";
    case PI_REC_SHARE_LINE: return "SHARE_LINE";
    case PI_REC_SHARE_SITE: return "SHARE_SITE";
    case PI_REC_SHARE_THREAD: return "SHARE_THREAD";
    case PI_REC_SHARE_ALLOC: return "SHARE_ALLOC";
    case PI_REC_SHARE_REGION: return "SHARE_REGION";
    case PI_REC_SHARE_STATS: return "SHARE_STATS";
    case PI_REC_HOTSPOT: return "HOTSPOT";
    case PI_REC_PAGES: return "PAGES";
    case PI_REC_PERF: return "PERF";
    case PI_REC_ICALL: return "ICALL";
    case PI_REC_RANGE: return "RANGE";
    case PI_REC_STOPPED: return "STOPPED";
    case PI_REC_LOST: return "LOST";
    }
    return "?";
}

const char *pi_trace_lost_table_name(uint32_t table)
{
    switch (table) {
    case PI_LOST_WATCH: return "watch";
    case PI_LOST_SITESTAT: return "sitestat";
    case PI_LOST_EVENTS: return "events";
    case PI_LOST_TRACE_DEPTH: return "trace-depth";
    case PI_LOST_PERF: return "perf";
    case PI_LOST_FUNCTIONS: return "functions";
    }
    return "?";
}

const char *pi_trace_stat_kind_name(uint32_t kind)
{
    switch (kind) {
    case PI_STAT_TRAP: return "trap";
    case PI_STAT_THRESHOLD: return "threshold";
    case PI_STAT_CYCLES: return "cycles";
    case PI_STAT_TRACE: return "trace";
    case PI_STAT_WATCH: return "watch";
    case PI_STAT_COMBINE: return "combine";
    case PI_STAT_HOT: return "hot";
    case PI_STAT_SECONDARY: return "secondary";
    case PI_STAT_TERTIARY: return "tertiary";
    case PI_STAT_SPILL: return "spill";
    }
    return "?";
}

uint64_t pi_trace_count(const struct pi_trace_rec *r, uint32_t i)
{
    uint64_t v;
    memcpy(&v, r->counts + (size_t)i * 8, 8);
    return v;
}

uint64_t pi_trace_frame(const struct pi_trace_rec *r, uint32_t i)
{
    uint64_t v;
    memcpy(&v, r->frames + (size_t)i * 8, 8);
    return v;
}

struct pi_watch_word pi_trace_word(const struct pi_trace_rec *r, uint32_t i)
{
    struct pi_watch_word w;
    memcpy(&w, r->words + (size_t)i * sizeof w, sizeof w);
    return w;
}

void pi_trace_pages(const struct pi_trace_rec *r, struct pi_page_range *ranges,
                    struct pi_page_entry *pages, uint64_t *epoch_touches)
{
    const struct pi_rec_pages *h = &r->u.pages;
    const uint8_t *p = r->pages;
    size_t nr = (size_t)h->nranges * sizeof *ranges, np = (size_t)h->npages * sizeof *pages;
    if (ranges && nr)
        memcpy(ranges, p, nr);
    if (pages && np)
        memcpy(pages, p + nr, np);
    if (epoch_touches && h->nepochs)
        memcpy(epoch_touches, p + nr + np, (size_t)h->nepochs * 8);
}

struct pi_perf_value pi_trace_perf_value(const struct pi_trace_rec *r, uint32_t i)
{
    struct pi_perf_value v;
    memcpy(&v, r->perf + (size_t)i * sizeof v, sizeof v);
    return v;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a + b < a ? UINT64_MAX : a + b;
}

void pi_trace_lost_add(struct pi_rec_lost *d, const struct pi_rec_lost *s)
{
    d->table = s->table;
    d->flags |= s->flags;
    d->capacity = s->capacity > d->capacity ? s->capacity : d->capacity;
    d->lost = sat_add(d->lost, s->lost);
    d->items = sat_add(d->items, s->items);
}

/* ---------------------------------------------------------------------- */
/* Record by record                                                          */
/* ---------------------------------------------------------------------- */

static int check_header(struct pi_trace_file *f, struct pi_err *err)
{
    const char *path = f->path;
    if (f->size == 0)
        return pi_err_set(err, "%s: not a perfinst trace (empty file)", path);
    if (f->size < sizeof f->hdr)
        return pi_err_set(err, "%s: not a perfinst trace (%zu bytes, shorter than the %zu-byte "
                          "header)", path, f->size, sizeof f->hdr);
    memcpy(&f->hdr, f->data, sizeof f->hdr);
    if (memcmp(f->hdr.magic, PI_TRACE_MAGIC, 8))
        return pi_err_set(err, "%s: not a perfinst trace (bad magic)", path);
    if (f->hdr.version != PI_TRACE_VERSION)
        return pi_err_set(err, "%s: trace version %u (this reader knows %u)", path,
                          f->hdr.version, PI_TRACE_VERSION);
    if (f->hdr.hdr_size != sizeof f->hdr)
        return pi_err_set(err, "%s: trace header size %u (version %u has %zu)", path,
                          f->hdr.hdr_size, PI_TRACE_VERSION, sizeof f->hdr);
    uint32_t crc = pi_crc32(0, f->data, offsetof(struct pi_trace_hdr, hdr_crc));
    if (!PI_FUZZING && crc != f->hdr.hdr_crc)
        return pi_err_set(err, "%s: trace header CRC mismatch (stored 0x%08x, computed 0x%08x)",
                          path, f->hdr.hdr_crc, crc);
    f->off = sizeof f->hdr;
    return 0;
}

int pi_trace_open_mem(const char *path, const void *data, size_t size, struct pi_trace_file *f,
                      struct pi_err *err)
{
    memset(f, 0, sizeof *f);
    f->path = strdup(path);
    if (!f->path)
        return pi_err_set(err, "%s: out of memory", path);
    f->data = data;
    f->size = size;
    if (check_header(f, err)) {
        pi_trace_close(f);
        return -1;
    }
    return 0;
}

int pi_trace_open(const char *path, struct pi_trace_file *f, struct pi_err *err)
{
    memset(f, 0, sizeof *f);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return pi_err_set(err, "%s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st)) {
        pi_err_set(err, "%s: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return pi_err_set(err, "%s: not a regular file", path);
    }
    pi_input_note(path);
    void *map = NULL;
    if (st.st_size > 0) {
        map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (map == MAP_FAILED) {
            pi_err_set(err, "%s: mmap: %s", path, strerror(errno));
            close(fd);
            return -1;
        }
    }
    close(fd);
    int r = pi_trace_open_mem(path, map ? map : "", (size_t)st.st_size, f, err);
    if (r) {
        if (map)
            munmap(map, (size_t)st.st_size);
        return -1;
    }
    f->map = map;
    f->map_size = (size_t)st.st_size;
    return 0;
}

void pi_trace_close(struct pi_trace_file *f)
{
    if (f->map)
        munmap(f->map, f->map_size);
    free(f->path);
    memset(f, 0, sizeof *f);
}

static int stop(struct pi_trace_file *f, uint64_t off, const char *why)
{
    f->stopped = 1;
    f->stop_offset = off;
    snprintf(f->warning, sizeof f->warning,
             "%s: truncated after %u complete records (offset 0x%llx%s%s): the program may have "
             "crashed", f->path, f->nrecords, (unsigned long long)off, why ? ": " : "",
             why ? why : "");
    return 0;
}

/* Decode a record whose CRCs are right.  Inconsistent contents are a hard
 * error: the writer produced them, no crash did. */
static int decode(struct pi_trace_file *f, struct pi_trace_rec *r, struct pi_err *err)
{
    const uint8_t *p = r->payload;
    uint64_t n = r->hdr.size;
#define BAD(fmt, ...)                                                                       \
    pi_err_set(err, "%s: record %u (%s) at offset 0x%llx: " fmt, f->path, r->index,         \
               pi_trace_rec_name(r->hdr.type), (unsigned long long)r->offset, ##__VA_ARGS__)
    switch (r->hdr.type) {
    case PI_REC_PROCESS: {
        if (n < sizeof r->u.process)
            return BAD("%llu bytes, too small", (unsigned long long)n);
        memcpy(&r->u.process, p, sizeof r->u.process);
        uint64_t o = sizeof r->u.process;
        if (r->u.process.argc > n - o)
            return BAD("%u arguments cannot fit in %llu bytes", r->u.process.argc,
                       (unsigned long long)n);
        r->strings = (const char *)p + o;
        for (uint32_t i = 0; i < r->u.process.argc; i++) {
            const uint8_t *z = o < n ? memchr(p + o, 0, n - o) : NULL;
            if (!z)
                return BAD("argument %u is not NUL-terminated inside the record", i);
            o = (uint64_t)(z - p) + 1;
        }
        if (ALIGN8(o) != n)
            return BAD("%llu bytes, but its strings end at %llu", (unsigned long long)n,
                       (unsigned long long)o);
        return 0;
    }
    case PI_REC_MODULE: {
        struct pi_rec_module *m = &r->u.module;
        if (n < sizeof *m)
            return BAD("%llu bytes, too small", (unsigned long long)n);
        memcpy(m, p, sizeof *m);
        if (m->build_id_len > PI_BUILD_ID_MAX)
            return BAD("build-id length %u (at most %u)", m->build_id_len, PI_BUILD_ID_MAX);
        if (m->path_len == 0 || ALIGN8(sizeof *m + (uint64_t)m->path_len) != n ||
            p[sizeof *m + m->path_len - 1] != 0)
            return BAD("path of %u bytes does not fit the record (%llu bytes) or lacks its NUL",
                       m->path_len, (unsigned long long)n);
        r->strings = (const char *)p + sizeof *m;
        return 0;
    }
    case PI_REC_COUNTS:
        if (n < sizeof r->u.counts)
            return BAD("%llu bytes, too small", (unsigned long long)n);
        memcpy(&r->u.counts, p, sizeof r->u.counts);
        if (sizeof r->u.counts + (uint64_t)r->u.counts.ncounters * 8 != n)
            return BAD("%u counters need %llu bytes, the record has %llu",
                       r->u.counts.ncounters,
                       (unsigned long long)(sizeof r->u.counts + (uint64_t)r->u.counts.ncounters * 8),
                       (unsigned long long)n);
        r->counts = p + sizeof r->u.counts;
        return 0;
    case PI_REC_SIGNAL:
        if (n != sizeof r->u.signal)
            return BAD("%llu bytes, expected %zu", (unsigned long long)n, sizeof r->u.signal);
        memcpy(&r->u.signal, p, sizeof r->u.signal);
        return 0;
    case PI_REC_END:
        if (n != sizeof r->u.end)
            return BAD("%llu bytes, expected %zu", (unsigned long long)n, sizeof r->u.end);
        memcpy(&r->u.end, p, sizeof r->u.end);
        if (r->u.end.nrecords != r->index)
            return BAD("says %u records came before it, but %u did", r->u.end.nrecords,
                       r->index);
        return 0;
    case PI_REC_SITESTAT:
        if (n != sizeof r->u.sitestat)
            return BAD("%llu bytes, expected %zu", (unsigned long long)n, sizeof r->u.sitestat);
        memcpy(&r->u.sitestat, p, sizeof r->u.sitestat);
        return 0;
    case PI_REC_EVENT:
        if (n < sizeof r->u.event)
            return BAD("%llu bytes, too small", (unsigned long long)n);
        memcpy(&r->u.event, p, sizeof r->u.event);
        if (sizeof r->u.event + (uint64_t)r->u.event.nframes * 8 != n)
            return BAD("%u frames need %llu bytes, the record has %llu", r->u.event.nframes,
                       (unsigned long long)(sizeof r->u.event + (uint64_t)r->u.event.nframes * 8),
                       (unsigned long long)n);
        r->frames = p + sizeof r->u.event;
        return 0;
    case PI_REC_TRACEREG:
        if (n < sizeof r->u.tracereg)
            return BAD("%llu bytes, too small", (unsigned long long)n);
        memcpy(&r->u.tracereg, p, sizeof r->u.tracereg);
        if (sizeof r->u.tracereg + (uint64_t)r->u.tracereg.ncounters * 8 != n)
            return BAD("%u counters need %llu bytes, the record has %llu",
                       r->u.tracereg.ncounters,
                       (unsigned long long)(sizeof r->u.tracereg +
                                            (uint64_t)r->u.tracereg.ncounters * 8),
                       (unsigned long long)n);
        r->counts = p + sizeof r->u.tracereg;
        return 0;
    case PI_REC_WATCH: {
        const struct pi_rec_watch *w = &r->u.watch;
        if (n < sizeof *w)
            return BAD("%llu bytes, too small", (unsigned long long)n);
        memcpy(&r->u.watch, p, sizeof *w);
        if (w->gran == 0 || w->gran > PI_WATCH_GRAN_MAX || (w->gran & (w->gran - 1)))
            return BAD("word size %u is not a power of two from 1 to %u", w->gran,
                       PI_WATCH_GRAN_MAX);
        uint64_t need = sizeof *w + (uint64_t)w->nwords * sizeof(struct pi_watch_word);
        if (need != n)
            return BAD("%u words need %llu bytes, the record has %llu", w->nwords,
                       (unsigned long long)need, (unsigned long long)n);
        r->words = p + sizeof *w;
        return 0;
    }
    case PI_REC_RI: {
        const struct pi_rec_ri *ri = &r->u.ri;
        if (n < sizeof *ri)
            return BAD("%llu bytes, too small", (unsigned long long)n);
        memcpy(&r->u.ri, p, sizeof *ri);
        if (ri->rgs < PI_RI_RGS_MIN || ri->rgs > PI_RI_RGS_MAX)
            return BAD("report-group size rgs %u is outside %u..%u", ri->rgs, PI_RI_RGS_MIN,
                       PI_RI_RGS_MAX);
        uint64_t need = sizeof *ri + (uint64_t)ri->ngroups * PI_RI_GROUP_BYTES(ri->rgs);
        if (need != n)
            return BAD("%u report groups need %llu bytes, the record has %llu", ri->ngroups,
                       (unsigned long long)need, (unsigned long long)n);
        r->groups = p + sizeof *ri;
        break;
    }
    case PI_REC_HOTSPOT: {
        struct pi_rec_hotspot *h = &r->u.hotspot;
        if (n < sizeof *h)
            return BAD("%llu bytes, too small", (unsigned long long)n);
        memcpy(h, p, sizeof *h);
        if (h->name_len == 0 || ALIGN8(sizeof *h + (uint64_t)h->name_len) != n ||
            p[sizeof *h + h->name_len - 1] != 0)
            return BAD("name of %u bytes does not fit the record (%llu bytes) or lacks its NUL",
                       h->name_len, (unsigned long long)n);
        r->strings = (const char *)p + sizeof *h;
        break;
    }
    case PI_REC_PAGES: {
        const struct pi_rec_pages *h = &r->u.pages;
        if (n < sizeof *h)
            return BAD("%llu bytes, too small", (unsigned long long)n);
        memcpy(&r->u.pages, p, sizeof *h);
        uint64_t need = sizeof *h + (uint64_t)h->nranges * sizeof(struct pi_page_range) +
                        (uint64_t)h->npages * sizeof(struct pi_page_entry) + (uint64_t)h->nepochs * 8;
        if (need != n)
            return BAD("%u ranges, %u pages and %u epochs need %llu bytes, the record has %llu",
                       h->nranges, h->npages, h->nepochs, (unsigned long long)need,
                       (unsigned long long)n);
        if (h->nepochs > h->epochs || h->nepochs > PI_PAGE_EPOCH_HIST)
            return BAD("%u per-epoch counts for %llu epochs (at most %u kept)", h->nepochs,
                       (unsigned long long)h->epochs, PI_PAGE_EPOCH_HIST);
        r->pages = p + sizeof *h;
        return 0;
    }
    case PI_REC_PERF: {
        const struct pi_rec_perf *h = &r->u.perf;
        if (n < sizeof *h)
            return BAD("%llu bytes, too small", (unsigned long long)n);
        memcpy(&r->u.perf, p, sizeof *h);
        if (h->nevents > PI_PERF_MAX_EVENTS ||
            sizeof *h + (uint64_t)h->nevents * sizeof(struct pi_perf_value) != n)
            return BAD("%u events (at most %u) do not fit %llu bytes", h->nevents,
                       PI_PERF_MAX_EVENTS, (unsigned long long)n);
        r->perf = p + sizeof *h;
        return 0;
    }
    case PI_REC_ICALL:
        if (n != sizeof r->u.icall)
            return BAD("%llu bytes, expected %zu", (unsigned long long)n, sizeof r->u.icall);
        memcpy(&r->u.icall, p, sizeof r->u.icall);
        return 0;
    case PI_REC_LOST:
        if (n != sizeof r->u.lost)
            return BAD("%llu bytes, expected %zu", (unsigned long long)n, sizeof r->u.lost);
        memcpy(&r->u.lost, p, sizeof r->u.lost);
        if (!r->u.lost.table)
            return BAD("table 0");
        return 0;
    case PI_REC_STOPPED:
        if (n != sizeof r->u.stopped)
            return BAD("%llu bytes, expected %zu", (unsigned long long)n, sizeof r->u.stopped);
        memcpy(&r->u.stopped, p, sizeof r->u.stopped);
        return 0;
    case PI_REC_RANGE: {
        struct pi_rec_range *g = &r->u.range;
        if (n < sizeof *g)
            return BAD("%llu bytes, too small", (unsigned long long)n);
        memcpy(g, p, sizeof *g);
        if (g->name_len < 2 || g->name_len > PI_RANGE_NAME_MAX ||
            ALIGN8(sizeof *g + (uint64_t)g->name_len) != n || p[sizeof *g + g->name_len - 1] != 0 ||
            strlen((const char *)p + sizeof *g) != g->name_len - 1)
            return BAD("name of %u bytes (2..%u, NUL included) does not fit the record (%llu "
                       "bytes) or is not one NUL-terminated string", g->name_len,
                       PI_RANGE_NAME_MAX, (unsigned long long)n);
        if (g->lo >= g->hi)
            return BAD("range \"%s\" is empty or reversed: lo 0x%llx, hi 0x%llx",
                       (const char *)p + sizeof *g, (unsigned long long)g->lo,
                       (unsigned long long)g->hi);
        r->strings = (const char *)p + sizeof *g;
        return 0;
    }
    }
#undef BAD
    return 0; /* unknown type: the caller skips it */
}

int pi_trace_next(struct pi_trace_file *f, struct pi_trace_rec *r, struct pi_err *err)
{
    if (f->end_seen || f->stopped)
        return 0;
    memset(r, 0, sizeof *r);
    uint64_t off = f->off;
    uint64_t left = f->size - off;
    if (left == 0)
        return stop(f, off, "no END record");
    if (left < sizeof r->hdr)
        return stop(f, off, NULL);
    memcpy(&r->hdr, f->data + off, sizeof r->hdr);
    if (!PI_FUZZING && pi_crc32(0, f->data + off, offsetof(struct pi_rec_hdr, hcrc)) != r->hdr.hcrc)
        return stop(f, off, "record header CRC mismatch");
    if (r->hdr.size % 8)
        return pi_err_set(err, "%s: record %u at offset 0x%llx: payload size %u is not a "
                          "multiple of 8", f->path, f->nrecords, (unsigned long long)off,
                          r->hdr.size);
    if (r->hdr.size > left - sizeof r->hdr)
        return stop(f, off, NULL);
    const uint8_t *payload = f->data + off + sizeof r->hdr;
    if (!PI_FUZZING && pi_crc32(0, payload, r->hdr.size) != r->hdr.crc)
        return stop(f, off, "payload CRC mismatch");
    r->index = f->nrecords;
    r->offset = off;
    r->payload = payload;
    if (decode(f, r, err))
        return -1;
    f->nrecords++;
    f->off = off + sizeof r->hdr + r->hdr.size;
    if (r->hdr.type == PI_REC_END) {
        f->end_seen = 1;
        if (f->off < f->size)
            snprintf(f->warning, sizeof f->warning,
                     "%s: %llu bytes after the END record (offset 0x%llx) ignored", f->path,
                     (unsigned long long)(f->size - f->off), (unsigned long long)f->off);
    }
    return 1;
}

/* ---------------------------------------------------------------------- */
/* As a whole                                                                */
/* ---------------------------------------------------------------------- */

void pi_trace_free(struct pi_trace *t)
{
    if (!t)
        return;
    free(t->path);
    for (uint32_t i = 0; i < t->argc && t->argv; i++)
        free(t->argv[i]);
    free(t->argv);
    for (size_t i = 0; i < t->nmodules; i++)
        free(t->modules[i].path);
    free(t->modules);
    for (size_t i = 0; i < t->nunits; i++)
        free(t->units[i].counts);
    free(t->units);
    free(t->sitestats);
    for (size_t i = 0; i < t->nevents; i++)
        free(t->events[i].frames);
    free(t->events);
    for (size_t i = 0; i < t->ntraceregs; i++)
        free(t->traceregs[i].counts);
    free(t->traceregs);
    free(t->words);
    free(t->page_ranges);
    free(t->page_entries);
    free(t->epoch_touches);
    free(t->perfs);
    free(t->icalls);
    for (size_t i = 0; i < t->nranges; i++)
        free(t->ranges[i].name);
    free(t->ranges);
    free(t->stopped);
    memset(t, 0, sizeof *t);
}

/* ---- the indicators' records ---------------------------------------------- */

int pi_sitestat_cmp(const void *a, const void *b)
{
    const struct pi_rec_sitestat *x = a, *y = b;
    PI_CMP_RET(x->unit_id, y->unit_id);
    PI_CMP_RET(x->site, y->site);
    return x->kind < y->kind ? -1 : x->kind > y->kind;
}

#define CMP_FIELD(f)                                                                        \
    do {                                                                                    \
        if (x->f != y->f)                                                                   \
            return x->f < y->f ? -1 : 1;                                                    \
    } while (0)

static int cmp_event(const void *a, const void *b)
{
    const struct pi_trace_event *x = a, *y = b;
    CMP_FIELD(ev.unit_id);
    CMP_FIELD(ev.site);
    CMP_FIELD(ev.kind);
    CMP_FIELD(ev.value);
    CMP_FIELD(ev.tid);
    CMP_FIELD(ev.nframes);
    for (uint32_t i = 0; i < x->ev.nframes; i++)
        CMP_FIELD(frames[i]);
    return 0;
}

static int cmp_tracereg(const void *a, const void *b)
{
    const struct pi_trace_tracereg *x = a, *y = b;
    CMP_FIELD(start_unit);
    CMP_FIELD(start_site);
    CMP_FIELD(unit_id);
    return 0;
}

static int cmp_word(const void *a, const void *b)
{
    const struct pi_watch_word *x = a, *y = b;
    CMP_FIELD(addr);
    return 0;
}
#undef CMP_FIELD

/* Combine y into x (same unit, site and kind).  The min of a record that
 * measured nothing (execs 0) does not count, unless none measured anything;
 * so the result does not depend on the order. */
static void sitestat_add(struct pi_rec_sitestat *x, const struct pi_rec_sitestat *y)
{
    if (!x->execs == !y->execs)
        x->min = y->min < x->min ? y->min : x->min;
    else if (y->execs)
        x->min = y->min;
    x->max = y->max > x->max ? y->max : x->max;
    x->count = sat_add(x->count, y->count);
    x->execs = sat_add(x->execs, y->execs);
    x->sum = sat_add(x->sum, y->sum);
}

static int cmp_icall(const void *a, const void *b)
{
    const struct pi_rec_icall *x = a, *y = b;
    PI_CMP_RET(x->unit_id, y->unit_id);
    PI_CMP_RET(x->site, y->site);
    return x->target < y->target ? -1 : x->target > y->target;
}

static void fold_icalls(struct pi_trace *t)
{
    if (t->nicalls)
        qsort(t->icalls, t->nicalls, sizeof *t->icalls, cmp_icall);
    size_t n = 0;
    for (size_t i = 0; i < t->nicalls; i++) {
        if (n && !cmp_icall(&t->icalls[n - 1], &t->icalls[i])) {
            t->icalls[n - 1].count = sat_add(t->icalls[n - 1].count, t->icalls[i].count);
            t->icalls[n - 1].flags |= t->icalls[i].flags;
        } else
            t->icalls[n++] = t->icalls[i];
    }
    t->nicalls = n;
}

static int fold(struct pi_trace *t, const char *name, struct pi_err *err)
{
    fold_icalls(t);
    size_t n = 0;
    if (t->nsitestats)
        qsort(t->sitestats, t->nsitestats, sizeof *t->sitestats, pi_sitestat_cmp);
    for (size_t i = 0; i < t->nsitestats; i++) {
        if (n && !pi_sitestat_cmp(&t->sitestats[n - 1], &t->sitestats[i]))
            sitestat_add(&t->sitestats[n - 1], &t->sitestats[i]);
        else
            t->sitestats[n++] = t->sitestats[i];
    }
    t->nsitestats = n;

    if (t->nevents)
        qsort(t->events, t->nevents, sizeof *t->events, cmp_event);

    if (t->ntraceregs)
        qsort(t->traceregs, t->ntraceregs, sizeof *t->traceregs, cmp_tracereg);
    n = 0;
    int bad = 0;
    for (size_t i = 0; i < t->ntraceregs; i++) {
        struct pi_trace_tracereg *u = &t->traceregs[i];
        struct pi_trace_tracereg *d = n ? &t->traceregs[n - 1] : NULL;
        if (!d || cmp_tracereg(d, u)) {
            t->traceregs[n++] = *u;
            continue;
        }
        if (d->ncounters != u->ncounters && !bad) {
            pi_err_set(err, "%s: trace region of site %u of unit 0x%016llx: unit 0x%016llx has "
                       "TRACEREG records with %u and %u counters", name, u->start_site,
                       (unsigned long long)u->start_unit, (unsigned long long)u->unit_id,
                       d->ncounters, u->ncounters);
            bad = 1;
        }
        for (uint32_t c = 0; c < d->ncounters && c < u->ncounters; c++)
            d->counts[c] = sat_add(d->counts[c], u->counts[c]);
        free(u->counts);
    }
    t->ntraceregs = n;

    if (t->nwords)
        qsort(t->words, t->nwords, sizeof *t->words, cmp_word);
    n = 0;
    for (size_t i = 0; i < t->nwords; i++) {
        struct pi_watch_word *d = n ? &t->words[n - 1] : NULL;
        if (d && d->addr == t->words[i].addr) {
            d->reads = sat_add(d->reads, t->words[i].reads);
            d->writes = sat_add(d->writes, t->words[i].writes);
            continue;
        }
        t->words[n++] = t->words[i];
    }
    t->nwords = n;
    return bad ? -1 : 0;
}

int pi_trace_fold_indicators(struct pi_trace *t, struct pi_err *err)
{
    return fold(t, t->path ? t->path : "trace", err);
}

const struct pi_trace_module *pi_trace_module_of(const struct pi_trace *t, uint64_t addr)
{
    const struct pi_trace_module *best = NULL;
    for (size_t i = 0; i < t->nmodules; i++) {
        const struct pi_trace_module *m = &t->modules[i];
        if (m->load_bias <= addr && (!best || m->load_bias > best->load_bias))
            best = m;
    }
    return best;
}

/* Make room for n more elements after *len in *arr (exact size). */
static int reserve(void **arr, size_t len, size_t n, size_t elem)
{
    if (!n)
        return 0;
    if (len + n < len || len + n > SIZE_MAX / elem)
        return -1;
    void *a = realloc(*arr, (len + n) * elem);
    if (!a)
        return -1;
    *arr = a;
    return 0;
}

int pi_trace_add_indicators(struct pi_trace *dst, const struct pi_trace *src, int link_frames,
                            struct pi_err *err)
{
    const char *name = src->path ? src->path : "trace";
    if (reserve((void **)&dst->sitestats, dst->nsitestats, src->nsitestats,
                sizeof *dst->sitestats) ||
        reserve((void **)&dst->events, dst->nevents, src->nevents, sizeof *dst->events) ||
        reserve((void **)&dst->traceregs, dst->ntraceregs, src->ntraceregs,
                sizeof *dst->traceregs))
        return pi_err_set(err, "%s: out of memory", name);
    for (size_t i = 0; i < src->nsitestats; i++)
        dst->sitestats[dst->nsitestats++] = src->sitestats[i];
    int convert = link_frames && !(src->hdr.flags & PI_TF_MERGED);
    for (size_t i = 0; i < src->nevents; i++) {
        const struct pi_trace_event *e = &src->events[i];
        struct pi_trace_event *d = &dst->events[dst->nevents];
        d->ev = e->ev;
        d->frames = NULL;
        if (e->ev.nframes) {
            d->frames = malloc((size_t)e->ev.nframes * sizeof *d->frames);
            if (!d->frames)
                return pi_err_set(err, "%s: out of memory", name);
            memcpy(d->frames, e->frames, (size_t)e->ev.nframes * sizeof *d->frames);
        }
        dst->nevents++;
        if (!convert || !e->ev.nframes)
            continue;
        /* the module of the event's unit, else the one frames[0] is in */
        const struct pi_trace_module *home = NULL;
        for (size_t k = 0; k < src->nunits && !home; k++)
            if (src->units[k].unit_id == e->ev.unit_id)
                home = &src->modules[src->units[k].module];
        if (!home)
            home = pi_trace_module_of(src, e->frames[0]);
        for (uint32_t k = 0; k < e->ev.nframes; k++) {
            const struct pi_trace_module *m = pi_trace_module_of(src, d->frames[k]);
            uint64_t off = d->frames[k] - (home ? home->load_bias : 0);
            d->frames[k] = home && m == home && off < PI_TRACE_MODULE_SPAN ? off : 0;
        }
    }
    for (size_t i = 0; i < src->ntraceregs; i++) {
        const struct pi_trace_tracereg *r = &src->traceregs[i];
        struct pi_trace_tracereg *d = &dst->traceregs[dst->ntraceregs];
        *d = *r;
        d->counts = NULL;
        if (r->ncounters) {
            d->counts = malloc((size_t)r->ncounters * sizeof *d->counts);
            if (!d->counts)
                return pi_err_set(err, "%s: out of memory", name);
            memcpy(d->counts, r->counts, (size_t)r->ncounters * sizeof *d->counts);
        }
        dst->ntraceregs++;
    }
    if (reserve((void **)&dst->icalls, dst->nicalls, src->nicalls, sizeof *dst->icalls))
        return pi_err_set(err, "%s: out of memory", name);
    for (size_t i = 0; i < src->nicalls; i++) {
        struct pi_rec_icall c = src->icalls[i];
        if (convert && c.site != PI_NONE) {
            const struct pi_trace_module *home = NULL;
            for (size_t k = 0; k < src->nunits && !home; k++)
                if (src->units[k].unit_id == c.unit_id)
                    home = &src->modules[src->units[k].module];
            const struct pi_trace_module *m = pi_trace_module_of(src, c.target);
            if (!home || m != home || c.target - home->load_bias >= PI_TRACE_MODULE_SPAN)
                continue; /* another module (libc, a shared library): no arc */
            c.target -= home->load_bias;
        }
        dst->icalls[dst->nicalls++] = c;
    }
    for (uint32_t i = 1; i < PI_LOST_NTABLES; i++)
        if (src->lost[i].table)
            pi_trace_lost_add(&dst->lost[i], &src->lost[i]);
    if (fold(dst, name, err)) {
        /* say which input disagreed with what came before */
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        return pi_err_set(err, "%s (in this or an earlier input)", msg);
    }
    return 0;
}

static int cmp_stopped(const void *a, const void *b)
{
    const struct pi_rec_stopped *x = a, *y = b;
    PI_CMP_RET(x->module, y->module);
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

void pi_trace_fold_stopped(struct pi_trace *t)
{
    if (!t->nstopped)
        return;
    qsort(t->stopped, t->nstopped, sizeof *t->stopped, cmp_stopped);
    size_t n = 0;
    for (size_t i = 0; i < t->nstopped; i++) {
        if (n && !cmp_stopped(&t->stopped[n - 1], &t->stopped[i])) {
            uint32_t c = t->stopped[n - 1].count + t->stopped[i].count;
            t->stopped[n - 1].count = c < t->stopped[i].count ? UINT32_MAX : c;
            continue;
        }
        t->stopped[n++] = t->stopped[i];
    }
    t->nstopped = n;
}

/* The module with file index `index` (modules sorted by index), or NULL. */
static const struct pi_trace_module *find_module_index(const struct pi_trace *t, uint32_t index)
{
    size_t lo = 0, hi = t->nmodules;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->modules[mid].index < index)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->nmodules && t->modules[lo].index == index ? &t->modules[lo] : NULL;
}

const struct pi_trace_module *pi_trace_watch_module(const struct pi_trace *t, uint64_t addr,
                                                    uint64_t *link)
{
    *link = addr;
    if (t->hdr.flags & PI_TF_MERGED) {
        uint32_t tag = PI_WATCH_MODULE(addr);
        const struct pi_trace_module *m = tag ? find_module_index(t, tag - 1) : NULL;
        if (m)
            *link = PI_WATCH_OFFSET(addr);
        return m;
    }
    const struct pi_trace_module *m = pi_trace_module_of(t, addr);
    if (!m || addr - m->load_bias >= PI_TRACE_MODULE_SPAN)
        return NULL;
    *link = addr - m->load_bias;
    return m;
}

/* The same module as merge sees it: the build-id, else (none) the path. */
static int same_module(const struct pi_trace_module *x, const struct pi_trace_module *y)
{
    if (x->build_id_len != y->build_id_len || memcmp(x->build_id, y->build_id, x->build_id_len))
        return 0;
    return x->build_id_len || !strcmp(x->path ? x->path : "", y->path ? y->path : "");
}

int pi_trace_add_watch(struct pi_trace *dst, const struct pi_trace *src, size_t *dropped,
                       struct pi_err *err)
{
    const char *name = src->path ? src->path : "trace";
    if (!src->nwords)
        return 0;
    if (dst->watch_gran && dst->watch_gran != src->watch_gran)
        return pi_err_set(err, "%s: watched words of %u bytes, but an earlier input has %u-byte "
                          "words (PERFINST_WATCH_GRAN differed)", name, src->watch_gran,
                          dst->watch_gran);
    if (reserve((void **)&dst->words, dst->nwords, src->nwords, sizeof *dst->words))
        return pi_err_set(err, "%s: out of memory", name);
    dst->watch_gran = src->watch_gran;
    for (size_t i = 0; i < src->nwords; i++) {
        struct pi_watch_word w = src->words[i];
        uint64_t link;
        const struct pi_trace_module *m = pi_trace_watch_module(src, w.addr, &link);
        size_t pos = 0;
        if (m)
            while (pos < dst->nmodules && !same_module(&dst->modules[pos], m))
                pos++;
        if (m ? pos >= dst->nmodules || pos + 1 > 0xff || PI_WATCH_MODULE(link)
              : PI_WATCH_MODULE(w.addr) != 0) {
            if (dropped)
                (*dropped)++;
            continue;
        }
        if (m)
            w.addr = (uint64_t)(pos + 1) << PI_WATCH_MODULE_SHIFT | link;
        dst->words[dst->nwords++] = w;
    }
    return fold(dst, name, err);
}

static int cmp_module(const void *a, const void *b)
{
    const struct pi_trace_module *x = a, *y = b;
    return x->index < y->index ? -1 : x->index > y->index;
}

static int cmp_unit(const void *a, const void *b)
{
    const struct pi_trace_unit *x = a, *y = b;
    PI_CMP_RET(x->module, y->module);
    PI_CMP_RET(x->unit_id, y->unit_id);
    return 0;
}

/* A copy of n 64-bit values of a record (n is bounded by the record's size,
 * already checked); *out = NULL for n = 0.  -1 when out of memory. */
static int copy_u64(uint64_t **out, const void *src, uint32_t n)
{
    *out = NULL;
    if (!n)
        return 0;
    *out = malloc((size_t)n * 8);
    if (!*out)
        return -1;
    memcpy(*out, src, (size_t)n * 8);
    return 0;
}

static int read_records(struct pi_trace_file *f, struct pi_trace *t, struct pi_err *err)
{
    size_t mcap = 0, ucap = 0, scap = 0, ecap = 0, rcap = 0, wcap = 0, icap = 0, gcap = 0, tcap = 0;
    struct pi_trace_rec r;
    int k;
    /* counts[] hold the file's module index until the end, then a position */
    while ((k = pi_trace_next(f, &r, err)) == 1) {
        switch (r.hdr.type) {
        case PI_REC_PROCESS: {
            if (t->has_process)
                return pi_err_set(err, "%s: record %u at offset 0x%llx: a second PROCESS record",
                                  t->path, r.index, (unsigned long long)r.offset);
            t->has_process = 1;
            t->end_ns = r.u.process.end_ns;
            t->nthreads = r.u.process.nthreads;
            if (r.u.process.argc) {
                t->argv = calloc(r.u.process.argc, sizeof *t->argv);
                if (!t->argv)
                    return pi_err_set(err, "%s: out of memory", t->path);
            }
            const char *s = r.strings;
            for (uint32_t i = 0; i < r.u.process.argc; i++) {
                t->argv[i] = strdup(s);
                if (!t->argv[i])
                    return pi_err_set(err, "%s: out of memory", t->path);
                t->argc = i + 1;
                s += strlen(s) + 1;
            }
            break;
        }
        case PI_REC_MODULE: {
            if (pi_grow((void **)&t->modules, &mcap, t->nmodules, sizeof *t->modules))
                return pi_err_set(err, "%s: out of memory", t->path);
            struct pi_trace_module *m = &t->modules[t->nmodules];
            memset(m, 0, sizeof *m);
            m->index = r.u.module.index;
            m->build_id_len = r.u.module.build_id_len;
            memcpy(m->build_id, r.u.module.build_id, m->build_id_len);
            m->load_bias = r.u.module.load_bias;
            m->path = strdup(r.strings);
            if (!m->path)
                return pi_err_set(err, "%s: out of memory", t->path);
            t->nmodules++;
            break;
        }
        case PI_REC_COUNTS: {
            if (pi_grow((void **)&t->units, &ucap, t->nunits, sizeof *t->units))
                return pi_err_set(err, "%s: out of memory", t->path);
            struct pi_trace_unit *u = &t->units[t->nunits];
            u->unit_id = r.u.counts.unit_id;
            u->module = r.u.counts.module;
            u->ncounters = r.u.counts.ncounters;
            if (copy_u64(&u->counts, r.counts, u->ncounters) < 0)
                return pi_err_set(err, "%s: out of memory", t->path);
            t->nunits++;
            break;
        }
        case PI_REC_SITESTAT:
            if (pi_grow((void **)&t->sitestats, &scap, t->nsitestats, sizeof *t->sitestats))
                return pi_err_set(err, "%s: out of memory", t->path);
            t->sitestats[t->nsitestats++] = r.u.sitestat;
            break;
        case PI_REC_EVENT: {
            if (pi_grow((void **)&t->events, &ecap, t->nevents, sizeof *t->events))
                return pi_err_set(err, "%s: out of memory", t->path);
            struct pi_trace_event *e = &t->events[t->nevents];
            e->ev = r.u.event;
            if (copy_u64(&e->frames, r.frames, e->ev.nframes) < 0)
                return pi_err_set(err, "%s: out of memory", t->path);
            t->nevents++;
            break;
        }
        case PI_REC_TRACEREG: {
            if (pi_grow((void **)&t->traceregs, &rcap, t->ntraceregs, sizeof *t->traceregs))
                return pi_err_set(err, "%s: out of memory", t->path);
            struct pi_trace_tracereg *g = &t->traceregs[t->ntraceregs];
            g->start_unit = r.u.tracereg.start_unit;
            g->start_site = r.u.tracereg.start_site;
            g->ncounters = r.u.tracereg.ncounters;
            g->unit_id = r.u.tracereg.unit_id;
            if (copy_u64(&g->counts, r.counts, g->ncounters) < 0)
                return pi_err_set(err, "%s: out of memory", t->path);
            t->ntraceregs++;
            break;
        }
        case PI_REC_WATCH: {
            const struct pi_rec_watch *w = &r.u.watch;
            if (t->watch_gran && w->gran != t->watch_gran)
                return pi_err_set(err, "%s: record %u at offset 0x%llx: WATCH records with %u-byte "
                                  "and %u-byte words", t->path, r.index,
                                  (unsigned long long)r.offset, t->watch_gran, w->gran);
            t->watch_gran = w->gran;
            for (uint32_t i = 0; i < w->nwords; i++) { /* bounded by the record */
                if (pi_grow((void **)&t->words, &wcap, t->nwords, sizeof *t->words))
                    return pi_err_set(err, "%s: out of memory", t->path);
                t->words[t->nwords++] = pi_trace_word(&r, i);
            }
            break;
        }
        case PI_REC_PAGES: {
            const struct pi_rec_pages *h = &r.u.pages;
            free(t->page_ranges);
            free(t->page_entries);
            free(t->epoch_touches);
            t->page_ranges = calloc(h->nranges ? h->nranges : 1, sizeof *t->page_ranges);
            t->page_entries = calloc(h->npages ? h->npages : 1, sizeof *t->page_entries);
            t->epoch_touches = calloc(h->nepochs ? h->nepochs : 1, sizeof *t->epoch_touches);
            if (!t->page_ranges || !t->page_entries || !t->epoch_touches)
                return pi_err_set(err, "%s: out of memory", t->path);
            pi_trace_pages(&r, t->page_ranges, t->page_entries, t->epoch_touches);
            t->pages = *h;
            t->has_pages = 1;
            break;
        }
        case PI_REC_PERF: {
            struct pi_trace_perf *a = realloc(t->perfs, (t->nperfs + 1) * sizeof *a);
            if (!a)
                return pi_err_set(err, "%s: out of memory", t->path);
            t->perfs = a;
            memset(&a[t->nperfs], 0, sizeof *a);
            a[t->nperfs].h = r.u.perf;
            for (uint32_t i = 0; i < r.u.perf.nevents; i++)
                a[t->nperfs].v[i] = pi_trace_perf_value(&r, i);
            t->nperfs++;
            break;
        }
        case PI_REC_ICALL:
            if (pi_grow((void **)&t->icalls, &icap, t->nicalls, sizeof *t->icalls))
                return pi_err_set(err, "%s: out of memory", t->path);
            t->icalls[t->nicalls++] = r.u.icall;
            break;
        case PI_REC_LOST:
            if (r.u.lost.table >= PI_LOST_NTABLES)
                t->nunknown++; /* a table of a newer runtime */
            else
                pi_trace_lost_add(&t->lost[r.u.lost.table], &r.u.lost);
            break;
        case PI_REC_RANGE: {
            if (pi_grow((void **)&t->ranges, &gcap, t->nranges, sizeof *t->ranges))
                return pi_err_set(err, "%s: out of memory", t->path);
            struct pi_trace_range *g = &t->ranges[t->nranges];
            g->module = r.u.range.module;
            g->lo = r.u.range.lo;
            g->hi = r.u.range.hi;
            g->name = strdup(r.strings);
            if (!g->name)
                return pi_err_set(err, "%s: out of memory", t->path);
            t->nranges++;
            break;
        }
        case PI_REC_STOPPED:
            if (pi_grow((void **)&t->stopped, &tcap, t->nstopped, sizeof *t->stopped))
                return pi_err_set(err, "%s: out of memory", t->path);
            t->stopped[t->nstopped++] = r.u.stopped;
            break;
        case PI_REC_SIGNAL:
            if (!t->has_signal) {
                t->has_signal = 1;
                t->signal = r.u.signal;
            }
            break;
        case PI_REC_END:
            t->has_end = 1;
            break;
        case PI_REC_RI:
            t->alone |= PI_TRACE_ALONE_RI;
            break; /* report groups: read record by record (piri.h), not summed */
        case PI_REC_SAMPLE_MAP:
        case PI_REC_SAMPLES:
        case PI_REC_SAMPLE_STATS:
        case PI_REC_IDLE_STATS:
            t->alone |= PI_TRACE_ALONE_SAMPLES;
            break; /* stack sampling: read by pisample.c, not kept here */
        case PI_REC_SHARE_LINE: case PI_REC_SHARE_SITE: case PI_REC_SHARE_THREAD: case PI_REC_SHARE_ALLOC:
        case PI_REC_SHARE_REGION: case PI_REC_SHARE_STATS:
            break; /* common/pishare.c reads them */
        case PI_REC_HOTSPOT: /* (pmopt report reads them record by record) */
            t->alone |= PI_TRACE_ALONE_HOTSPOT;
            break;
        default:
            t->nunknown++;
            break;
        }
    }
    if (k < 0)
        return -1;
    t->nrecords = f->nrecords;
    t->truncated = f->stopped;
    snprintf(t->warning, sizeof t->warning, "%s", f->warning);

    /* modules: unique indices, sorted */
    if (t->nmodules)
        qsort(t->modules, t->nmodules, sizeof *t->modules, cmp_module);
    for (size_t i = 1; i < t->nmodules; i++)
        if (t->modules[i].index == t->modules[i - 1].index)
            return pi_err_set(err, "%s: two MODULE records with index %u", t->path,
                              t->modules[i].index);
    /* a merged trace's words name their module */
    for (size_t i = 0; (t->hdr.flags & PI_TF_MERGED) && i < t->nwords; i++) {
        uint32_t tag = PI_WATCH_MODULE(t->words[i].addr);
        if (tag && !find_module_index(t, tag - 1))
            return pi_err_set(err, "%s: watched word 0x%llx names module %u, which has no MODULE "
                              "record", t->path, (unsigned long long)t->words[i].addr, tag - 1);
    }
    /* runtime ranges: module index -> position */
    for (size_t i = 0; i < t->nranges; i++) {
        const struct pi_trace_module *m = find_module_index(t, t->ranges[i].module);
        if (!m)
            return pi_err_set(err, "%s: RANGE \"%s\" names module %u, which has no MODULE "
                              "record", t->path, t->ranges[i].name, t->ranges[i].module);
        t->ranges[i].module = (uint32_t)(m - t->modules);
    }
    /* where threads stopped: module index -> position, sorted, summed */
    for (size_t i = 0; i < t->nstopped; i++) {
        const struct pi_trace_module *m = find_module_index(t, t->stopped[i].module);
        if (!m)
            return pi_err_set(err, "%s: STOPPED at 0x%llx names module %u, which has no MODULE "
                              "record", t->path, (unsigned long long)t->stopped[i].pc,
                              t->stopped[i].module);
        t->stopped[i].module = (uint32_t)(m - t->modules);
    }
    pi_trace_fold_stopped(t);
    /* counts: module index -> position, then sum duplicates */
    for (size_t i = 0; i < t->nunits; i++) {
        struct pi_trace_unit *u = &t->units[i];
        const struct pi_trace_module *mod = find_module_index(t, u->module);
        if (!mod)
            return pi_err_set(err, "%s: COUNTS of unit 0x%016llx name module %u, which has no "
                              "MODULE record", t->path, (unsigned long long)u->unit_id,
                              u->module);
        u->module = (uint32_t)(mod - t->modules);
    }
    if (t->nunits)
        qsort(t->units, t->nunits, sizeof *t->units, cmp_unit);
    size_t n = 0;
    for (size_t i = 0; i < t->nunits; i++) {
        struct pi_trace_unit *u = &t->units[i];
        if (n && !cmp_unit(&t->units[n - 1], u)) {
            struct pi_trace_unit *d = &t->units[n - 1];
            if (d->ncounters != u->ncounters)
                return pi_err_set(err, "%s: unit 0x%016llx of module %s has COUNTS records "
                                  "with %u and %u counters", t->path,
                                  (unsigned long long)u->unit_id, t->modules[u->module].path,
                                  d->ncounters, u->ncounters);
            for (uint32_t c = 0; c < u->ncounters; c++)
                d->counts[c] = d->counts[c] + u->counts[c] < d->counts[c]
                                   ? UINT64_MAX : d->counts[c] + u->counts[c];
            free(u->counts);
            u->counts = NULL;
            continue;
        }
        t->units[n++] = *u;
    }
    t->nunits = n;
    return fold(t, t->path, err);
}

static int read_all(struct pi_trace_file *f, struct pi_trace *t, struct pi_err *err)
{
    t->hdr = f->hdr;
    int r = read_records(f, t, err);
    pi_trace_close(f);
    if (r)
        pi_trace_free(t);
    return r;
}

int pi_trace_read(const char *path, struct pi_trace *t, struct pi_err *err)
{
    memset(t, 0, sizeof *t);
    struct pi_trace_file f;
    if (pi_trace_open(path, &f, err))
        return -1;
    t->path = strdup(path);
    if (!t->path) {
        pi_trace_close(&f);
        return pi_err_set(err, "%s: out of memory", path);
    }
    return read_all(&f, t, err);
}

int pi_trace_parse(const char *path, const void *data, size_t size, struct pi_trace *t,
                   struct pi_err *err)
{
    memset(t, 0, sizeof *t);
    struct pi_trace_file f;
    if (pi_trace_open_mem(path, data, size, &f, err))
        return -1;
    t->path = strdup(path);
    if (!t->path) {
        pi_trace_close(&f);
        return pi_err_set(err, "%s: out of memory", path);
    }
    return read_all(&f, t, err);
}

const struct pi_trace_module *pi_trace_find_module(const struct pi_trace *t,
                                                   const uint8_t *build_id, uint32_t len)
{
    if (!len)
        return NULL;
    for (size_t i = 0; i < t->nmodules; i++)
        if (t->modules[i].build_id_len == len && !memcmp(t->modules[i].build_id, build_id, len))
            return &t->modules[i];
    return NULL;
}

const struct pi_trace_unit *pi_trace_find_unit(const struct pi_trace *t, uint32_t module,
                                               uint64_t unit_id)
{
    struct pi_trace_unit key = { .unit_id = unit_id, .module = module };
    return bsearch(&key, t->units, t->nunits, sizeof *t->units, cmp_unit);
}

/* ---------------------------------------------------------------------- */
/* Writer                                                                    */
/* ---------------------------------------------------------------------- */

#define PI_TRACE_WATCH_CHUNK ((size_t)1 << 20) /* words per WATCH record: well below 4 GiB */

struct writer {
    FILE *fp;
    uint32_t nrecords;
    int failed;
};

static void put(struct writer *w, const void *p, size_t n)
{
    if (!w->failed && n && fwrite(p, 1, n, w->fp) != n)
        w->failed = 1;
}

/* A record from up to three pieces, zero-padded to 8. */
static void put_record(struct writer *w, uint32_t type, const void *a, size_t na, const void *b,
                       size_t nb, const void *c, size_t nc)
{
    static const uint8_t zero[8];
    size_t n = na + nb + nc, pad = (size_t)(ALIGN8(n) - n);
    uint32_t crc = pi_crc32(0, a, na);
    crc = pi_crc32(crc, b, nb);
    crc = pi_crc32(crc, c, nc);
    crc = pi_crc32(crc, zero, pad);
    struct pi_rec_hdr h = { .type = type, .size = (uint32_t)(n + pad), .crc = crc };
    h.hcrc = pi_crc32(0, &h, offsetof(struct pi_rec_hdr, hcrc));
    put(w, &h, sizeof h);
    put(w, a, na);
    put(w, b, nb);
    put(w, c, nc);
    put(w, zero, pad);
    w->nrecords++;
}

int pi_trace_write(const char *path, const struct pi_trace *t, struct pi_err *err)
{
    struct pi_out o;
    if (pi_out_begin(&o, path, ".pitrace.", err))
        return -1;
    struct writer w = { .fp = fopen(o.tmp, "wbx") };
    if (!w.fp) {
        pi_err_set(err, "%s: %s", o.tmp, strerror(errno));
        pi_out_end(&o);
        return -1;
    }

    struct pi_trace_hdr h = t->hdr;
    memcpy(h.magic, PI_TRACE_MAGIC, 8);
    h.version = PI_TRACE_VERSION;
    h.hdr_size = sizeof h;
    h.hdr_crc = pi_crc32(0, &h, offsetof(struct pi_trace_hdr, hdr_crc));
    put(&w, &h, sizeof h);

    if (t->has_process) {
        struct pi_rec_process p = { .end_ns = t->end_ns, .nthreads = t->nthreads,
                                    .argc = t->argc };
        size_t sl = 0;
        for (uint32_t i = 0; i < t->argc; i++)
            sl += strlen(t->argv[i]) + 1;
        char *s = malloc(sl ? sl : 1), *q = s;
        if (!s) {
            w.failed = 1;
        } else {
            for (uint32_t i = 0; i < t->argc; i++) {
                size_t n = strlen(t->argv[i]) + 1;
                memcpy(q, t->argv[i], n);
                q += n;
            }
            put_record(&w, PI_REC_PROCESS, &p, sizeof p, s, sl, NULL, 0);
            free(s);
        }
    }
    for (size_t i = 0; i < t->nmodules; i++) {
        const struct pi_trace_module *m = &t->modules[i];
        const char *mp = m->path ? m->path : "";
        struct pi_rec_module r = { .index = (uint32_t)i, .load_bias = m->load_bias,
                                   .path_len = (uint32_t)strlen(mp) + 1 };
        r.build_id_len = m->build_id_len > PI_BUILD_ID_MAX ? PI_BUILD_ID_MAX : m->build_id_len;
        memcpy(r.build_id, m->build_id, r.build_id_len);
        put_record(&w, PI_REC_MODULE, &r, sizeof r, mp, r.path_len, NULL, 0);
    }
    for (size_t i = 0; i < t->nunits; i++) {
        const struct pi_trace_unit *u = &t->units[i];
        struct pi_rec_counts c = { .unit_id = u->unit_id, .module = u->module,
                                   .ncounters = u->ncounters };
        put_record(&w, PI_REC_COUNTS, &c, sizeof c, u->counts, (size_t)u->ncounters * 8, NULL, 0);
    }
    for (size_t i = 0; i < t->nsitestats; i++)
        put_record(&w, PI_REC_SITESTAT, &t->sitestats[i], sizeof t->sitestats[i], NULL, 0, NULL,
                   0);
    for (size_t i = 0; i < t->nevents; i++) {
        const struct pi_trace_event *e = &t->events[i];
        put_record(&w, PI_REC_EVENT, &e->ev, sizeof e->ev, e->frames,
                   (size_t)e->ev.nframes * 8, NULL, 0);
    }
    for (size_t i = 0; i < t->ntraceregs; i++) {
        const struct pi_trace_tracereg *g = &t->traceregs[i];
        struct pi_rec_tracereg r = { .start_unit = g->start_unit, .start_site = g->start_site,
                                     .ncounters = g->ncounters, .unit_id = g->unit_id };
        put_record(&w, PI_REC_TRACEREG, &r, sizeof r, g->counts, (size_t)g->ncounters * 8, NULL,
                   0);
    }
    for (size_t i = 0; i < t->nwords; i += PI_TRACE_WATCH_CHUNK) {
        size_t n = t->nwords - i < PI_TRACE_WATCH_CHUNK ? t->nwords - i : PI_TRACE_WATCH_CHUNK;
        struct pi_rec_watch r = { .gran = t->watch_gran, .nwords = (uint32_t)n };
        put_record(&w, PI_REC_WATCH, &r, sizeof r, &t->words[i], n * sizeof *t->words, NULL, 0);
    }
    for (size_t i = 0; i < t->nicalls; i++)
        put_record(&w, PI_REC_ICALL, &t->icalls[i], sizeof t->icalls[i], NULL, 0, NULL, 0);
    for (uint32_t i = 1; i < PI_LOST_NTABLES; i++)
        if (t->lost[i].table)
            put_record(&w, PI_REC_LOST, &t->lost[i], sizeof t->lost[i], NULL, 0, NULL, 0);
    for (size_t i = 0; i < t->nranges; i++) {
        const struct pi_trace_range *g = &t->ranges[i];
        struct pi_rec_range r = { .module = g->module, .lo = g->lo, .hi = g->hi,
                                  .name_len = (uint32_t)strlen(g->name) + 1 };
        put_record(&w, PI_REC_RANGE, &r, sizeof r, g->name, r.name_len, NULL, 0);
    }
    for (size_t i = 0; i < t->nstopped; i++)
        put_record(&w, PI_REC_STOPPED, &t->stopped[i], sizeof t->stopped[i], NULL, 0, NULL, 0);
    for (size_t i = 0; i < t->nextra; i++)
        put_record(&w, t->extra[i].type, t->extra[i].a, t->extra[i].na, t->extra[i].b, t->extra[i].nb,
                   NULL, 0);
    if (t->has_signal)
        put_record(&w, PI_REC_SIGNAL, &t->signal, sizeof t->signal, NULL, 0, NULL, 0);
    struct pi_rec_end e = { .nrecords = w.nrecords };
    put_record(&w, PI_REC_END, &e, sizeof e, NULL, 0, NULL, 0);

    int bad = w.failed;
    int saved = errno;
    if (fclose(w.fp) != 0 && !bad) {
        bad = 1;
        saved = errno;
    }
    if (bad)
        pi_err_set(err, "%s: cannot write the trace: %s", path, strerror(saved));
    else if (pi_out_commit(&o, err))
        bad = 1;
    pi_out_end(&o);
    return bad ? -1 : 0;
}
