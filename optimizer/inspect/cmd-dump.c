/* pmopt dump TRACE — every record of a trace, decoded, one per line (a
 * COUNTS or TRACEREG record is a block: its counters follow, eight to a
 * line; an EVENT's frames follow, four to a line; a WATCH record's words one
 * to a line).
 *
 *   header: version 1, flags 0x0 (-), pid 4242, ppid 1, start_ns 0, line_size 64
 *   #0 @0x30 PROCESS end_ns 0, nthreads 1, argc 2: "./prog" "10"
 *   #1 @0x60 MODULE index 0, build-id 5f3c..., load_bias 0x0, path "/tmp/prog"
 *   #2 @0xb8 COUNTS module 0, unit 0x00000000c0ffee01, ncounters 3
 *       [0] 1 10 10
 *   #3 @0xf0 SITESTAT unit 0x00000000c0ffee01, site 1, kind threshold, count 3, execs 40,
 *       sum 0, min 0, max 0
 *   #4 @0x138 EVENT unit 0x00000000c0ffee01, site 1, kind threshold, value 13, tid 4242,
 *       nframes 2
 *       [0] 0x5555555551a9 0x5555555551e4
 *   #5 @0x178 TRACEREG start unit 0x00000000c0ffee01 site 4, unit 0x00000000c0ffee01,
 *       ncounters 3
 *       [0] 5 0 1
 *   #6 @0x1b8 WATCH word size 8, nwords 2
 *       [0] 0x555555558080: reads 3, writes 3
 *       [1] 0x7ffc3a5e1e60: reads 10, writes 6
 *   #7 @0x200 END nrecords 7
 *
 * A PAGES record (the performance page table) prints its totals, then one
 * line per range and per page, then the page touches per epoch; a PERF
 * record (perf_event counts of a trace region) one event to a line.
 * A WATCH record's words follow one to a line; in a merged trace a word in
 * a module is shown as `module N + 0xLINK` (perfinst-format.h).
 * A trace cut short is printed up to its last complete record, with the
 * reader's warning on stderr (exit 0); a trace the reader refuses exits 1.
 */
#define _GNU_SOURCE /* sigabbrev_np */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "pisample.h"
#include "commands.h"
#include "pmopt.h"

/* PAGES: the page table's totals, then a line per range, per page and the
 * touches per epoch (eight to a line). */
static void dump_pages(const struct pi_trace_rec *r)
{
    const struct pi_rec_pages *h = &r->u.pages;
    printf(" epochs %llu, look-aside hits %llu, misses %llu, page size %u, nranges %u, "
           "npages %u, nepochs %u\n", (unsigned long long)h->epochs,
           (unsigned long long)h->lookaside_hits, (unsigned long long)h->lookaside_misses,
           h->page_size, h->nranges, h->npages, h->nepochs);
    for (uint32_t i = 0; i < h->nranges; i++) {
        struct pi_page_range g;
        memcpy(&g, r->pages + (size_t)i * sizeof g, sizeof g);
        printf("    range %u: 0x%llx, %llu bytes, threshold %llu, touches %llu, fired %llu%s\n",
               g.id, (unsigned long long)g.addr, (unsigned long long)g.len,
               (unsigned long long)g.threshold, (unsigned long long)g.touches,
               (unsigned long long)g.fired, g.live ? "" : " (removed)");
    }
    const uint8_t *pp = r->pages + (size_t)h->nranges * sizeof(struct pi_page_range);
    for (uint32_t i = 0; i < h->npages; i++) {
        struct pi_page_entry e;
        memcpy(&e, pp + (size_t)i * sizeof e, sizeof e);
        printf("    page 0x%llx: touches %llu, outside the ranges %llu\n",
               (unsigned long long)e.addr, (unsigned long long)e.touches,
               (unsigned long long)e.outside);
    }
    const uint8_t *ep = pp + (size_t)h->npages * sizeof(struct pi_page_entry);
    for (uint32_t i = 0; i < h->nepochs; i++) {
        uint64_t v;
        memcpy(&v, ep + (size_t)i * 8, 8);
        if (i % 8 == 0)
            printf("%s    epoch %u:", i ? "\n" : "", i + 1);
        printf(" %llu", (unsigned long long)v);
    }
    if (h->nepochs)
        putchar('\n');
}

static void help(FILE *f)
{
    fprintf(f, "usage: pmopt dump TRACE\n"
               "Print every record of a perfinst trace (*.pit), decoded and checked.\n");
}

static void print_str(const char *s)
{
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            printf("\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f)
            printf("\\x%02x", *p);
        else
            putchar(*p);
    }
    putchar('"');
}

/* A record's counters, eight to a line, each line led by its first index. */
static void print_counts(const struct pi_trace_rec *r, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (i % 8 == 0)
            printf("%s    [%u]", i ? "\n" : "", i);
        printf(" %llu", (unsigned long long)pi_trace_count(r, i));
    }
    if (n)
        putchar('\n');
}

static void flags_str(uint32_t flags, char *buf, size_t n)
{
    static const struct {
        uint32_t bit;
        const char *name;
    } names[] = {{PI_TF_MERGED, "merged"}, {PI_TF_MODE_OFF, "mode_off"}, {PI_TF_OVERLAY, "overlay"},
                 {PI_TF_PARTIAL, "partial"}, {PI_TF_SHARING, "sharing"}};
    size_t len = 0;
    buf[0] = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (flags & names[i].bit) {
            len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s%s", len ? "|" : "", names[i].name);
            flags &= ~names[i].bit;
        }
    if (flags) /* bits of a newer writer */
        len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s0x%x", len ? "|" : "", flags);
    if (!buf[0])
        snprintf(buf, n, "-");
}

/* The sharing records (perfinst-format.h; pishare.c reads them for reports). */
static void dump_share(const struct pi_trace_rec *r)
{
    const uint8_t *p = r->payload;
    size_t n = r->hdr.size;
    if (r->hdr.type == PI_REC_SHARE_LINE && n >= sizeof(struct pi_rec_share_line)) {
        struct pi_rec_share_line l;
        memcpy(&l, p, sizeof l);
        printf(" line 0x%llx, %u threads, reloads %llu true %llu false\n", (unsigned long long)l.addr, l.nthreads,
               (unsigned long long)l.reloads_true, (unsigned long long)l.reloads_false);
        size_t esz = l.flags & PI_SHARE_LINE_EPOCHS ? sizeof(struct pi_share_thr) : PI_SHARE_THR_OLD_SIZE;
        for (uint32_t i = 0; i < l.nthreads && sizeof l + (i + 1) * esz <= n; i++) {
            struct pi_share_thr t = {.epoch_first = PI_SHARE_EPOCH_NONE, .epoch_last = PI_SHARE_EPOCH_NONE};
            memcpy(&t, p + sizeof l + i * esz, esz);
            printf("    T%u cpu %d: read 0x%016llx written 0x%016llx, %llu reads %llu writes, reloads %llu true "
                   "%llu false, epochs %d-%d\n", t.thread, (int)t.cpu, (unsigned long long)t.rmask,
                   (unsigned long long)t.wmask, (unsigned long long)t.reads, (unsigned long long)t.writes,
                   (unsigned long long)t.reloads_true, (unsigned long long)t.reloads_false, (int)t.epoch_first,
                   (int)t.epoch_last);
        }
    } else if (r->hdr.type == PI_REC_SHARE_SITE && n >= sizeof(struct pi_rec_share_site)) {
        struct pi_rec_share_site s;
        memcpy(&s, p, sizeof s);
        printf(" pc 0x%llx, line 0x%llx, T%u, flags %u, %llu accesses, reloads %llu true %llu false%s%.*s\n",
               (unsigned long long)s.pc, (unsigned long long)s.line, s.thread, s.flags,
               (unsigned long long)s.accesses, (unsigned long long)s.reloads_true,
               (unsigned long long)s.reloads_false, s.what_len ? ", what " : "",
               (int)(s.what_len && s.what_len <= n - sizeof s ? s.what_len - 1 : 0), (const char *)p + sizeof s);
    } else if (r->hdr.type == PI_REC_SHARE_THREAD && n >= PI_SHARE_THREAD_OLD_SIZE) {
        struct pi_rec_share_thread t = {.death = PI_SHARE_EPOCH_NONE};
        memcpy(&t, p, n < sizeof t ? PI_SHARE_THREAD_OLD_SIZE : sizeof t);
        printf(" T%u tid %u cpu %u, epochs %d-%d, flags %u\n", t.thread, t.tid, t.cpu, (int)t.birth, (int)t.death,
               t.flags);
    } else if (r->hdr.type == PI_REC_SHARE_STATS && n >= sizeof(struct pi_rec_share_stats)) {
        struct pi_rec_share_stats t;
        memcpy(&t, p, sizeof t);
        printf(" lines %llu lost %llu, sites %llu lost %llu, allocs %llu lost %llu, threads %llu lost %llu, "
               "private %llu dropped %llu, ids recycled %llu, no-fast threads %llu, blocks %llu\n",
               (unsigned long long)t.lines_max, (unsigned long long)t.lines_lost, (unsigned long long)t.sites_max,
               (unsigned long long)t.sites_lost, (unsigned long long)t.allocs_max, (unsigned long long)t.allocs_lost,
               (unsigned long long)t.threads_max, (unsigned long long)t.threads_lost,
               (unsigned long long)t.private_max, (unsigned long long)t.private_dropped,
               (unsigned long long)t.ids_recycled, (unsigned long long)t.nofast_threads,
               (unsigned long long)t.blocks);
    } else if (r->hdr.type == PI_REC_SHARE_ALLOC && n >= sizeof(struct pi_rec_share_alloc)) {
        struct pi_rec_share_alloc a;
        memcpy(&a, p, sizeof a);
        printf(" 0x%llx, %llu bytes, seq %llu, T%u, kind %u%s, %u frames\n", (unsigned long long)a.addr,
               (unsigned long long)a.size, (unsigned long long)a.seq, a.thread, a.kind, a.freed ? " (freed)" : "",
               a.nframes);
    } else if (r->hdr.type == PI_REC_SHARE_REGION && n >= sizeof(struct pi_rec_share_region)) {
        struct pi_rec_share_region g;
        memcpy(&g, p, sizeof g);
        printf(" 0x%llx-0x%llx, kind %u, %.*s\n", (unsigned long long)g.lo, (unsigned long long)g.hi, g.kind,
               (int)(g.path_len && g.path_len <= n - sizeof g ? g.path_len - 1 : 0), (const char *)p + sizeof g);
    } else
        printf(" %u bytes (too short)\n", r->hdr.size);
}

int cmd_dump(int argc, char **argv)
{
    int status;
    const char *path = pm_one_operand(argc, argv, "TRACE", help, &status);
    if (!path)
        return status;

    struct pi_err err;
    struct pi_trace_file f;
    if (pi_trace_open(path, &f, &err)) {
        pm_error("%s", err.msg);
        return PM_ERROR;
    }
    char fl[64];
    flags_str(f.hdr.flags, fl, sizeof fl);
    printf("header: version %u, flags 0x%x (%s), pid %llu, ppid %llu, start_ns %llu, "
           "line_size %u\n", f.hdr.version, f.hdr.flags, fl, (unsigned long long)f.hdr.pid,
           (unsigned long long)f.hdr.ppid, (unsigned long long)f.hdr.start_ns, f.hdr.line_size);

    struct pi_trace_rec r;
    int k, bad_groups = 0;
    while ((k = pi_trace_next(&f, &r, &err)) == 1) {
        printf("#%u @0x%llx %s", r.index, (unsigned long long)r.offset,
               pi_trace_rec_name(r.hdr.type));
        switch (r.hdr.type) {
        case PI_REC_PROCESS: {
            printf(" end_ns %llu, nthreads %u, argc %u%s", (unsigned long long)r.u.process.end_ns,
                   r.u.process.nthreads, r.u.process.argc, r.u.process.argc ? ":" : "");
            const char *s = r.strings;
            for (uint32_t i = 0; i < r.u.process.argc; i++) {
                putchar(' ');
                print_str(s);
                s += strlen(s) + 1;
            }
            putchar('\n');
            break;
        }
        case PI_REC_MODULE: {
            char hex[2 * PI_BUILD_ID_MAX + 1];
            printf(" index %u, build-id %s, load_bias 0x%llx, path ", r.u.module.index,
                   r.u.module.build_id_len
                       ? pi_build_id_hex(r.u.module.build_id, r.u.module.build_id_len, hex)
                       : "(none)",
                   (unsigned long long)r.u.module.load_bias);
            print_str(r.strings);
            putchar('\n');
            break;
        }
        case PI_REC_COUNTS:
            printf(" module %u, unit 0x%016llx, ncounters %u\n", r.u.counts.module,
                   (unsigned long long)r.u.counts.unit_id, r.u.counts.ncounters);
            print_counts(&r, r.u.counts.ncounters);
            break;
        case PI_REC_ICALL:
            if (r.u.icall.site == PI_NONE)
                printf(" %llu indirect calls lost (the runtime's table was full)\n",
                       (unsigned long long)r.u.icall.count);
            else
                printf(" unit 0x%016llx site %u target 0x%llx count %llu%s\n",
                       (unsigned long long)r.u.icall.unit_id, r.u.icall.site,
                       (unsigned long long)r.u.icall.target, (unsigned long long)r.u.icall.count,
                       r.u.icall.flags & PI_ICALL_SAMPLED ? " (sampled: an estimate)" : "");
            break;
        case PI_REC_LOST:
            printf(" table %u (%s), capacity %llu, lost %llu, items %llu%s\n", r.u.lost.table,
                   pi_trace_lost_table_name(r.u.lost.table), (unsigned long long)r.u.lost.capacity,
                   (unsigned long long)r.u.lost.lost, (unsigned long long)r.u.lost.items,
                   r.u.lost.flags & PI_LOST_ESTIMATE ? " (estimated)" : "");
            break;
        case PI_REC_RANGE:
            printf(" \"%s\" module %u [0x%llx, 0x%llx)\n", r.strings, r.u.range.module,
                   (unsigned long long)r.u.range.lo, (unsigned long long)r.u.range.hi);
            break;
        case PI_REC_STOPPED:
            printf(" module %u pc 0x%llx count %u\n", r.u.stopped.module,
                   (unsigned long long)r.u.stopped.pc, r.u.stopped.count);
            break;
        case PI_REC_SIGNAL: {
            const char *name = r.u.signal.signo > 0 && r.u.signal.signo < NSIG
                                   ? sigabbrev_np(r.u.signal.signo) : NULL;
            printf(" signo %d%s%s%s, code %d, addr 0x%llx\n", r.u.signal.signo,
                   name ? " (SIG" : "", name ? name : "", name ? ")" : "", r.u.signal.code,
                   (unsigned long long)r.u.signal.addr);
            break;
        }
        case PI_REC_END:
            printf(" nrecords %u\n", r.u.end.nrecords);
            break;
        case PI_REC_SITESTAT: {
            const struct pi_rec_sitestat *s = &r.u.sitestat;
            printf(" unit 0x%016llx, site %u, kind %s", (unsigned long long)s->unit_id, s->site,
                   pi_trace_stat_kind_name(s->kind));
            if (!strcmp(pi_trace_stat_kind_name(s->kind), "?"))
                printf(" (%u)", s->kind);
            printf(", count %llu, execs %llu, sum %llu, min %llu, max %llu\n",
                   (unsigned long long)s->count, (unsigned long long)s->execs,
                   (unsigned long long)s->sum, (unsigned long long)s->min,
                   (unsigned long long)s->max);
            break;
        }
        case PI_REC_EVENT: {
            const struct pi_rec_event *e = &r.u.event;
            printf(" unit 0x%016llx, site %u, kind %s", (unsigned long long)e->unit_id, e->site,
                   pi_trace_stat_kind_name(e->kind));
            if (!strcmp(pi_trace_stat_kind_name(e->kind), "?"))
                printf(" (%u)", e->kind);
            printf(", value %llu, tid %u, nframes %u\n", (unsigned long long)e->value, e->tid,
                   e->nframes);
            for (uint32_t i = 0; i < e->nframes; i++) {
                if (i % 4 == 0)
                    printf("%s    [%u]", i ? "\n" : "", i);
                printf(" 0x%llx", (unsigned long long)pi_trace_frame(&r, i));
            }
            if (e->nframes)
                putchar('\n');
            break;
        }
        case PI_REC_TRACEREG:
            printf(" start unit 0x%016llx site %u, unit 0x%016llx, ncounters %u\n",
                   (unsigned long long)r.u.tracereg.start_unit, r.u.tracereg.start_site,
                   (unsigned long long)r.u.tracereg.unit_id, r.u.tracereg.ncounters);
            print_counts(&r, r.u.tracereg.ncounters);
            break;
        case PI_REC_WATCH:
            printf(" word size %u, nwords %u\n", r.u.watch.gran, r.u.watch.nwords);
            for (uint32_t i = 0; i < r.u.watch.nwords; i++) {
                struct pi_watch_word w = pi_trace_word(&r, i);
                uint32_t tag = PI_WATCH_MODULE(w.addr);
                if ((f.hdr.flags & PI_TF_MERGED) && tag)
                    printf("    [%u] module %u + 0x%llx", i, tag - 1,
                           (unsigned long long)PI_WATCH_OFFSET(w.addr));
                else
                    printf("    [%u] 0x%llx", i, (unsigned long long)w.addr);
                printf(": reads %llu, writes %llu\n", (unsigned long long)w.reads,
                       (unsigned long long)w.writes);
            }
            break;
        case PI_REC_RI:
            if (pm_ri_dump(&r))
                bad_groups = 1;
            break;
        case PI_REC_SHARE_LINE: case PI_REC_SHARE_SITE: case PI_REC_SHARE_THREAD: case PI_REC_SHARE_ALLOC:
        case PI_REC_SHARE_REGION: case PI_REC_SHARE_STATS:
            dump_share(&r);
            break;
        case PI_REC_HOTSPOT: {
            const struct pi_rec_hotspot *h = &r.u.hotspot;
            printf(" version %u: unit 0x%016llx function %u ", h->version,
                   (unsigned long long)h->unit_id, h->func);
            print_str(r.strings);
            printf(" (cfg 0x%016llx, sites %u..%u), %llu of %llu block executions, threshold "
                   "%u.%03u%%\n", (unsigned long long)h->cfg_checksum, h->first_site,
                   h->first_site + h->nsites - (h->nsites > 0), (unsigned long long)h->blocks,
                   (unsigned long long)h->total, h->threshold / 1000, h->threshold % 1000);
            break;
        }
        case PI_REC_PAGES:
            dump_pages(&r);
            break;
        case PI_REC_PERF:
            printf(" unit 0x%016llx, site %u, intervals %llu, nevents %u\n",
                   (unsigned long long)r.u.perf.unit_id, r.u.perf.site,
                   (unsigned long long)r.u.perf.intervals, r.u.perf.nevents);
            for (uint32_t i = 0; i < r.u.perf.nevents; i++) {
                struct pi_perf_value v = pi_trace_perf_value(&r, i);
                const char *nm = pi_perf_event_name(v.event);
                printf("    %s: %llu\n", nm ? nm : "?", (unsigned long long)v.value);
            }
            break;
        default:
            if (pi_samples_dump_rec(stdout, &r)) /* stack sampling, 30..39 */
                break;
            printf(" type %u, %u bytes (unknown to this pmopt; skipped)\n", r.hdr.type,
                   r.hdr.size);
            break;
        }
    }
    status = PM_OK;
    if (bad_groups) {
        fflush(stdout);
        pm_error("%s: a report group has a wrong layout (BAD above)", path);
        status = PM_ERROR;
    }
    if (k < 0) {
        fflush(stdout);
        pm_error("%s", err.msg);
        status = PM_ERROR;
    } else if (f.warning[0]) {
        fflush(stdout);
        pm_note("%s", f.warning);
    }
    pi_trace_close(&f);
    return status;
}
