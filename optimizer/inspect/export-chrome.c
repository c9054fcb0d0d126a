/* pmopt export --chrome OUT [PROG] TRACE... — Chrome/Perfetto trace-event
 * JSON (https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU),
 * read by Perfetto (ui.perfetto.dev), chrome://tracing and speedscope.
 *
 * One process per trace (the trace's pid), one track per thread:
 *   - each report group is an instant event named by why it was taken
 *     ("count", "cycles", "directed"), at its TOD relative to the process
 *     start, with the CPU, capability, version, units and the body's
 *     records in args.  Values emitted with emit(EXPR) are also a counter
 *     track ("emit"), at the time of the report group that carried them
 *     (the collection buffer has no time of its own), oldest first.
 *   - the timer samples of each thread (PERFINST_SAMPLE) as a timeline of
 *     complete ("X") events, one per frame and run of consecutive samples
 *     whose stacks share it from the root: a frame starts at the first
 *     such sample and lasts until the first sample without it (or one
 *     period after the last), in microseconds since the trace's first
 *     sample (samples carry CLOCK_MONOTONIC, report groups the TOD: the
 *     two kinds of events are on separate tracks and not aligned).
 * A trace walked record by record (report groups: chrome_record; other
 * record types are skipped; to show another, add a case there); samples
 * through the export's input (export.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "piri.h"

/* ---- Chrome trace-event JSON --------------------------------------------- */

struct chrome {
    FILE *f;
    uint64_t pid, start_ns;
    int nevents;
};

static void event_sep(struct chrome *c)
{
    fputs(c->nevents++ ? ",\n" : "\n", c->f);
}

static double ts_us(const struct chrome *c, uint64_t ns)
{
    return ns >= c->start_ns ? (double)(ns - c->start_ns) / 1000.0 : 0.0;
}

static void chrome_groups(struct chrome *c, const struct pi_trace_rec *rec)
{
    const struct pi_rec_ri *h = &rec->u.ri;
    uint32_t nrec = PI_RI_GROUP_RECORDS(h->rgs);
    event_sep(c);
    fprintf(c->f, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%llu,\"tid\":%u,"
                  "\"args\":{\"name\":\"thread %u\"}}",
            (unsigned long long)c->pid, h->tid, h->tid);
    for (uint32_t g = 0; g < h->ngroups; g++) {
        const uint8_t *grp = rec->groups + (size_t)g * PI_RI_GROUP_BYTES(h->rgs);
        struct pi_ri_rec hd = pi_ri_record(grp, 0), x = pi_ri_record(grp, nrec - 2),
                         in = pi_ri_record(grp, nrec - 1);
        double ts = ts_us(c, pi_ri_val(&hd));
        const char *why = in.flags & PI_RI_IF_DIRECTED ? "directed"
                          : in.flags & PI_RI_IF_CYCLES ? "cycles" : "count";
        event_sep(c);
        fprintf(c->f, "{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"report-group\",\"name\":\"%s\","
                      "\"pid\":%llu,\"tid\":%u,\"ts\":%.3f,\"args\":{",
                why, (unsigned long long)c->pid, h->tid, ts);
        fprintf(c->f, "\"buffer\":%u,\"group\":%u,\"addr\":\"0x%llx\",\"units\":%llu,", h->seq, g,
                (unsigned long long)pi_ri_addr(&in), (unsigned long long)pi_ri_val(&in));
        if (x.type == PI_RI_EXTRA && x.flags == PI_RI_EXTRA_SYSINFO)
            fprintf(c->f, "\"cpu\":%u,\"capability\":\"%s\",\"signature\":\"0x%08x\","
                          "\"microcode\":\"0x%x\",",
                    (unsigned)pi_ri_le(x.a, 2), x.b[4] ? "secondary" : "primary",
                    (unsigned)pi_ri_le(x.a + 2, 4), (unsigned)pi_ri_le(x.b, 4));
        fprintf(c->f, "\"halted\":%s,\"records\":[",
                hd.type == PI_RI_BEGIN && (hd.flags & PI_RI_HF_HALTED) ? "true" : "false");
        int n = 0;
        for (uint32_t i = 1; i + 2 < nrec; i++) {
            struct pi_ri_rec r = pi_ri_record(grp, i);
            if (r.type == PI_RI_FILLER)
                break;
            fprintf(c->f, "%s\"%s 0x%llx %s 0x%llx\"", n++ ? "," : "", pi_ri_rec_name(r.type),
                    (unsigned long long)pi_ri_addr(&r), r.type == PI_RI_EMIT ? "value" : "->",
                    (unsigned long long)pi_ri_val(&r));
        }
        fputs("]}}", c->f);
        /* emitted values, oldest first (the body is newest first) */
        for (uint32_t i = nrec - 3; i >= 1; i--) {
            struct pi_ri_rec r = pi_ri_record(grp, i);
            if (r.type != PI_RI_EMIT)
                continue;
            event_sep(c);
            fprintf(c->f, "{\"ph\":\"C\",\"name\":\"emit\",\"pid\":%llu,\"tid\":%u,\"ts\":%.3f,"
                          "\"args\":{\"value\":%llu}}",
                    (unsigned long long)c->pid, h->tid, ts, (unsigned long long)pi_ri_val(&r));
        }
    }
}

/* One record of the trace as trace events; other types are skipped. */
static void chrome_record(struct chrome *c, const struct pi_trace_rec *r)
{
    switch (r->hdr.type) {
    case PI_REC_RI:
        chrome_groups(c, r);
        break;
    default:
        break;
    }
}

/* The report groups of one trace; 0, or -1 after an error message. */
static int chrome_trace(struct chrome *c, const char *trace)
{
    struct pi_err err;
    struct pi_trace_file tf;
    if (pi_trace_open(trace, &tf, &err)) {
        pm_error("%s", err.msg);
        return -1;
    }
    c->pid = tf.hdr.pid;
    c->start_ns = tf.hdr.start_ns;
    event_sep(c);
    fprintf(c->f, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%llu,\"args\":{\"name\":",
            (unsigned long long)c->pid);
    char name[600];
    snprintf(name, sizeof name, "pid %llu (%s)", (unsigned long long)c->pid, pm_basename(trace));
    pm_json_str(c->f, name);
    fputs("}}", c->f);
    struct pi_trace_rec r;
    int k;
    while ((k = pi_trace_next(&tf, &r, &err)) == 1)
        chrome_record(c, &r);
    if (k < 0)
        pm_error("%s", err.msg);
    else if (tf.warning[0])
        pm_note("%s", tf.warning);
    pi_trace_close(&tf);
    return k < 0 ? -1 : 0;
}

/* ---- timer samples as a timeline ------------------------------------------------ */

static const struct pi_sample *sort_s;

static int by_thread_time(const void *a, const void *b)
{
    const struct pi_sample *x = &sort_s[*(const uint32_t *)a], *y = &sort_s[*(const uint32_t *)b];
    PI_CMP_RET(x->trace, y->trace);
    PI_CMP_RET(x->tid, y->tid);
    PI_CMP_RET(x->ts, y->ts);
    return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

struct open_frame {
    const char *name, *file;
    uint32_t line;
    uint64_t start;
};

/* Close the open frames deeper than keep at time end, callers first
 * (viewers nest events of equal times in file order). */
static void close_frames(struct chrome *c, uint32_t tid, struct open_frame *st, size_t *depth,
                         size_t keep, uint64_t end, uint64_t t0)
{
    for (size_t d = keep; d < *depth; d++) {
        const struct open_frame *o = &st[d];
        event_sep(c);
        fprintf(c->f, "{\"ph\":\"X\",\"cat\":\"sample\",\"name\":");
        pm_json_str(c->f, o->name);
        fprintf(c->f, ",\"pid\":%llu,\"tid\":%u,\"ts\":%.3f,\"dur\":%.3f",
                (unsigned long long)c->pid, tid, (double)(o->start - t0) / 1000.0,
                (double)(end - o->start) / 1000.0);
        if (*o->file) {
            fputs(",\"args\":{\"file\":", c->f);
            pm_json_str(c->f, o->file);
            fprintf(c->f, ",\"line\":%u}", o->line);
        }
        fputc('}', c->f);
    }
    if (*depth > keep)
        *depth = keep;
}

static int chrome_samples(struct chrome *c, struct exp_in *in, const uint64_t *pids)
{
    struct stk_tree *t = &in->t;
    size_t n = 0;
    uint32_t *ix = malloc((t->ss.n ? t->ss.n : 1) * sizeof *ix);
    /* the open frames, and this sample's (one more: stk_truncated) */
    struct open_frame *st = malloc(2 * (PI_SAMPLE_MAX_FRAMES + 1) * sizeof *st);
    struct open_frame *cur = st + PI_SAMPLE_MAX_FRAMES + 1;
    if (!ix || !st) {
        free(ix);
        free(st);
        pm_error("out of memory");
        return -1;
    }
    for (size_t i = 0; i < t->ss.n; i++)
        if (t->ss.s[i].kind == PI_SK_CPU || t->ss.s[i].kind == PI_SK_WALL)
            ix[n++] = (uint32_t)i;
    sort_s = t->ss.s;
    qsort(ix, n, sizeof *ix, by_thread_time);
    uint64_t period = exp_sample_period(in);
    size_t depth = 0;
    uint64_t t0 = 0, last_end = 0;
    for (size_t i = 0; i < n; i++) {
        const struct pi_sample *s = &t->ss.s[ix[i]];
        const struct pi_sample *prev = i ? &t->ss.s[ix[i - 1]] : NULL;
        if (!prev || prev->trace != s->trace || prev->tid != s->tid) {
            if (prev)
                close_frames(c, prev->tid, st, &depth, 0, last_end, t0);
            if (!prev || prev->trace != s->trace) {
                t0 = s->ts;
                c->pid = pids[s->trace];
            }
            event_sep(c);
            fprintf(c->f, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%llu,\"tid\":%u,"
                          "\"args\":{\"name\":\"thread %u (samples)\"}}",
                    (unsigned long long)c->pid, s->tid, s->tid);
        }
        /* the frames root first (a truncated stack under stk_truncated);
           keep the open ones this sample shares */
        size_t nf = 0, keep = 0;
        if (s->flags & PI_SF_TRUNCATED)
            cur[nf++] = (struct open_frame){ stk_truncated, "", 0, s->ts };
        for (uint32_t j = s->nframes; j-- > 0;) {
            struct stk_frame fr;
            stk_frame(t, &s->frames[j], j == 0, &fr);
            cur[nf++] = (struct open_frame){ fr.name, fr.file, fr.line, s->ts };
        }
        while (keep < depth && keep < nf && st[keep].name == cur[keep].name)
            keep++;
        close_frames(c, s->tid, st, &depth, keep, s->ts, t0);
        while (depth < nf)
            st[depth++] = cur[keep++];
        last_end = s->ts + (period ? period * s->weight : 1000);
    }
    if (n)
        close_frames(c, t->ss.s[ix[n - 1]].tid, st, &depth, 0, last_end, t0);
    free(ix);
    free(st);
    return 0;
}

int export_chrome(struct exp_in *in, const char *out)
{
    FILE *f = pm_create(out);
    if (!f)
        return -1;
    struct chrome c = {f, 0, 0, 0};
    uint64_t *pids = calloc((size_t)in->ntraces, sizeof *pids);
    int bad = !pids;
    if (bad)
        pm_error("out of memory");
    fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", f);
    for (int i = 0; i < in->ntraces && !bad; i++) {
        bad = chrome_trace(&c, in->traces[i]) != 0;
        pids[i] = c.pid;
    }
    if (!bad)
        bad = chrome_samples(&c, in, pids) != 0;
    fputs("\n]}\n", f);
    free(pids);
    if (fclose(f) && !bad) {
        pm_error("%s: %m", out);
        bad = 1;
    }
    return bad ? -1 : 0;
}
