/* pmopt export --speedscope OUT [PROG] TRACE... — speedscope's file format
 * (https://www.speedscope.app/file-format-schema.json), opened by
 * speedscope (www.speedscope.app, or the npm package's local copy).
 *
 * Profiles, those the input has:
 *   - "cpu" (or "wall") samples of each thread, one sampled profile per
 *     thread and trace, in time order (speedscope's time order view shows
 *     the run), each sample weighted by its periods x the timer period in
 *     nanoseconds;
 *   - "to-idle" and "from-idle" stacks (PERFINST_IDLE), weight 1 each;
 *   - "block executions": PROG's exact counts, one frame per function (the
 *     counts have no stacks; the left heavy and sandwich views list the
 *     functions by their block executions).
 * Frames (shared by the profiles) carry the function's name as pmopt shows
 * it, its file and declaration line.
 */
#include <stdlib.h>
#include <string.h>

#include "export.h"

struct ss_frame {
    const char *name, *file;
    uint32_t line;
};

struct ss {
    FILE *f;
    struct exp_tab ids;            /* (name, file) -> frame + 1 */
    struct ss_frame *frames;
    size_t nframes, cap;
    int nprofiles, oom;
};

static uint32_t ss_frame(struct ss *s, const char *name, const char *file, uint32_t line)
{
    name = pm_intern(name);
    file = pm_intern(file ? file : "");
    uint32_t *id = exp_tab_slot(&s->ids, (uintptr_t)name, (uintptr_t)file);
    if (!id || (!*id && pi_grow((void **)&s->frames, &s->cap, s->nframes, sizeof *s->frames))) {
        s->oom = 1;
        return 0;
    }
    if (!*id) {
        s->frames[s->nframes] = (struct ss_frame){ name, file, line };
        *id = (uint32_t)++s->nframes;
    }
    return *id - 1;
}

static void profile_begin(struct ss *s, const char *name, const char *unit)
{
    fprintf(s->f, "%s\n  {\"type\": \"sampled\", \"name\": ", s->nprofiles++ ? "," : "");
    pm_json_str(s->f, name);
    fprintf(s->f, ", \"unit\": \"%s\", \"startValue\": 0, \"samples\": [", unit);
}

static void profile_end(struct ss *s, const uint64_t *w, size_t n)
{
    uint64_t total = 0;
    fputs("], \"weights\": [", s->f);
    for (size_t i = 0; i < n; i++) {
        fprintf(s->f, "%s%llu", i ? "," : "", (unsigned long long)w[i]);
        total += w[i];
    }
    fprintf(s->f, "], \"endValue\": %llu}", (unsigned long long)total);
}

/* A sample's stack, root first. */
static void ss_stack(struct ss *s, const struct pi_sample *x, struct stk_tree *t, int first)
{
    fputs(first ? "[" : ",[", s->f);
    const char *sep = "";
    if (x->flags & PI_SF_TRUNCATED) { /* under a root of their own, as in the tree */
        fprintf(s->f, "%u", ss_frame(s, stk_truncated, "", 0));
        sep = ",";
    }
    for (uint32_t j = x->nframes; j-- > 0;) {
        struct stk_frame fr;
        stk_frame(t, &x->frames[j], j == 0, &fr);
        fprintf(s->f, "%s%u", sep, ss_frame(s, fr.name, fr.file, fr.line));
        sep = ",";
    }
    fputc(']', s->f);
}

static const struct pi_sample *sort_s;

static int by_thread_time(const void *a, const void *b)
{
    const struct pi_sample *x = &sort_s[*(const uint32_t *)a], *y = &sort_s[*(const uint32_t *)b];
    int kx = stk_kind(x), ky = stk_kind(y);
    PI_CMP_RET(kx, ky);
    if (kx == STK_SAMPLED && x->trace != y->trace)
        return x->trace < y->trace ? -1 : 1;
    if (kx == STK_SAMPLED && x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    PI_CMP_RET(x->ts, y->ts);
    return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

static int ss_samples(struct ss *s, struct exp_in *in)
{
    struct stk_tree *t = &in->t;
    size_t n = t->ss.n;
    uint32_t *ix = malloc((n ? n : 1) * sizeof *ix);
    uint64_t *w = malloc((n ? n : 1) * sizeof *w);
    if (!ix || !w) {
        free(ix), free(w);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        ix[i] = (uint32_t)i;
    sort_s = t->ss.s;
    qsort(ix, n, sizeof *ix, by_thread_time);
    uint64_t period = exp_sample_period(in);
    const char *time = t->ss.stats.kind == PI_SK_WALL ? "wall" : "cpu";
    for (size_t i = 0; i < n;) {
        const struct pi_sample *x = &t->ss.s[ix[i]];
        int k = stk_kind(x);
        char name[600];
        if (k != STK_SAMPLED)
            snprintf(name, sizeof name, "%s stacks", k == STK_TO ? "to-idle" : "from-idle");
        else if (in->ntraces > 1)
            snprintf(name, sizeof name, "%s samples: thread %u (%s)", time, x->tid,
                     pm_basename(in->traces[x->trace]));
        else
            snprintf(name, sizeof name, "%s samples: thread %u", time, x->tid);
        profile_begin(s, name, k != STK_SAMPLED ? "none" : period ? "nanoseconds" : "none");
        size_t j = i, m = 0;
        for (; j < n; j++) {
            const struct pi_sample *y = &t->ss.s[ix[j]];
            int ky = stk_kind(y);
            if (ky != k || (k == STK_SAMPLED && (y->trace != x->trace || y->tid != x->tid)))
                break;
            ss_stack(s, y, t, m == 0);
            w[m++] = k != STK_SAMPLED ? 1 : period ? (uint64_t)y->weight * period : y->weight;
        }
        profile_end(s, w, m);
        i = j;
    }
    free(ix), free(w);
    return 0;
}

static void ss_counts(struct ss *s, const struct model *md)
{
    uint64_t *w = malloc((md->nfuncs ? md->nfuncs : 1) * sizeof *w);
    if (!w) {
        s->oom = 1;
        return;
    }
    profile_begin(s, "block executions (exact counts, per function)", "none");
    size_t m = 0;
    for (size_t i = 0; i < md->nfuncs; i++) {
        const struct func_row *row = &md->funcs[i];
        if (row->uninstrumented || !row->blocks)
            continue;
        fprintf(s->f, "%s[%u]", m ? "," : "", ss_frame(s, row->name, row->file, row->line));
        w[m++] = row->blocks;
    }
    profile_end(s, w, m);
    free(w);
}

int export_speedscope(struct exp_in *in, const char *out)
{
    struct ss s;
    memset(&s, 0, sizeof s);
    s.f = pm_create(out);
    if (!s.f)
        return -1;
    fputs("{\"$schema\": \"https://www.speedscope.app/file-format-schema.json\",\n"
          " \"exporter\": \"pmopt export (perfinst " PERFINST_VERSION ")\", \"name\": ", s.f);
    pm_json_str(s.f, in->prog ? pm_basename(in->prog) : pm_basename(in->traces[0]));
    fputs(", \"activeProfileIndex\": 0,\n \"profiles\": [", s.f);
    if (ss_samples(&s, in))
        s.oom = 1;
    if (in->counts)
        ss_counts(&s, &in->md);
    fputs("\n ],\n \"shared\": {\"frames\": [", s.f);
    for (size_t i = 0; i < s.nframes; i++) {
        fprintf(s.f, "%s\n  {\"name\": ", i ? "," : "");
        const struct ss_frame *fr = &s.frames[i];
        pm_json_str(s.f, fr->name);
        if (*fr->file) {
            fputs(", \"file\": ", s.f);
            pm_json_str(s.f, fr->file);
            if (fr->line)
                fprintf(s.f, ", \"line\": %u", fr->line);
        }
        fputc('}', s.f);
    }
    fputs("\n ]}}\n", s.f);
    int rc = 0;
    if (fclose(s.f)) {
        pm_error("%s: %m", out);
        rc = -1;
    } else if (s.oom) {
        rc = rep_oom();
    }
    free(s.frames);
    exp_tab_free(&s.ids);
    return rc;
}
