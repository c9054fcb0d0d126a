/* pmopt export — a trace in formats other tools read.
 *
 *   pmopt export --chrome OUT.json TRACE     Chrome/Perfetto trace-event JSON
 *   pmopt export --flamegraph OUT.svg | --folded OUT [PROG] TRACE...
 *                                            stack samples (cmd-export-stacks.c)
 *
 * Several format options may be given at once; each writes its own file.
 *
 * How this file is built (and how to add a format):
 *
 *   - formats[] maps each option to a writer
 *         int writer(const char *trace, const char *out)   0, or -1 (said)
 *     A new format is one line in formats[] and its writer in its own file
 *     (export-FORMAT.c), declared in pmopt.h.  The option dispatch below
 *     needs no change: every entry is a `--NAME FILE` option.
 *   - The Chrome writer is here.  It walks the trace record by record and
 *     turns each record type it knows into trace events (chrome_record);
 *     other record types are skipped.  To show another record type in
 *     Chrome (samples, say), add a case to chrome_record.
 *
 * Chrome trace events (https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU):
 * one process (the trace's pid), one track per thread; each report group
 * is an instant event named by why it was taken ("count", "cycles",
 * "directed"), at its TOD relative to the process start, with the CPU,
 * capability, version, units and the body's records in args.  Values
 * emitted with emit(EXPR) are also a counter track ("emit"), at the time
 * of the report group that carried them (the collection buffer has no
 * time of its own), oldest first.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "piri.h"
#include "pmopt.h"

static int write_chrome(const char *trace, const char *out);

static const struct {
    const char *name;   /* the option: --NAME FILE */
    int (*write)(const char *trace, const char *out);
    const char *what;
} formats[] = {
    { "chrome", write_chrome, "Chrome/Perfetto trace-event JSON (report groups)" },
};
#define NFORMATS (sizeof formats / sizeof formats[0])

static void help(FILE *f)
{
    fprintf(f, "usage: pmopt export --FORMAT OUT [--FORMAT OUT...] TRACE\n"
               "Write a perfinst trace (*.pit) in other tools' formats:\n");
    for (size_t i = 0; i < NFORMATS; i++)
        fprintf(f, "  --%-12s FILE  %s\n", formats[i].name, formats[i].what);
    fprintf(f, "   or: pmopt export (--flamegraph OUT.svg | --folded OUT) [--what=W] [PROG] TRACE...\n"
               "Stack samples (PERFINST_SAMPLE, PERFINST_IDLE) as a flame graph or folded stacks;\n"
               "`pmopt export --flamegraph x --help` for its options.\n");
}

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

static int write_chrome(const char *trace, const char *out)
{
    struct pi_err err;
    struct pi_trace_file tf;
    if (pi_trace_open(trace, &tf, &err)) {
        pm_error("%s", err.msg);
        return -1;
    }
    FILE *f = pm_create(out);
    if (!f) {
        pi_trace_close(&tf);
        return -1;
    }
    struct chrome c = {f, tf.hdr.pid, tf.hdr.start_ns, 0};
    fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", f);
    event_sep(&c);
    fprintf(f, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%llu,\"args\":{\"name\":\"pid %llu\"}}",
            (unsigned long long)c.pid, (unsigned long long)c.pid);
    struct pi_trace_rec r;
    int k;
    while ((k = pi_trace_next(&tf, &r, &err)) == 1)
        chrome_record(&c, &r);
    fputs("\n]}\n", f);
    int bad = k < 0;
    if (bad)
        pm_error("%s", err.msg);
    else if (tf.warning[0])
        pm_note("%s", tf.warning);
    if (fclose(f) && !bad) {
        pm_error("%s: %m", out);
        bad = 1;
    }
    pi_trace_close(&tf);
    return bad ? -1 : 0;
}

/* ---- the command ------------------------------------------------------------ */

int cmd_export(int argc, char **argv)
{
    struct option opts[NFORMATS + 2];
    const char *outs[NFORMATS] = {0};
    for (size_t i = 0; i < NFORMATS; i++)
        opts[i] = (struct option){ formats[i].name, required_argument, NULL, (int)(256 + i) };
    opts[NFORMATS] = (struct option){ "help", no_argument, NULL, 'h' };
    opts[NFORMATS + 1] = (struct option){ NULL, 0, NULL, 0 };
    int c, any = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'h') {
            help(stdout);
            return PM_OK;
        }
        if (c < 256 || c >= 256 + (int)NFORMATS)
            return pm_usage_error(argv[0], "unknown option");
        outs[c - 256] = optarg;
        any = 1;
    }
    if (!any)
        return pm_usage_error(argv[0], "nothing to export: no format given (--chrome OUT, "
                                       "--flamegraph OUT or --folded OUT)");
    if (argc - optind != 1)
        return pm_usage_error(argv[0], "expected one TRACE");
    int status = PM_OK;
    for (size_t i = 0; i < NFORMATS; i++)
        if (outs[i] && formats[i].write(argv[optind], outs[i]))
            status = PM_ERROR;
    return status;
}
