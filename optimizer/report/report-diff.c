/* report-diff.c — pmopt diff: what changed between two runs, or two
 * builds, of one program (docs/pmopt.md "pmopt diff").
 *
 *   pmopt diff [OPTIONS] PROG BASE.pit NEW.pit
 *   pmopt diff [OPTIONS] BASE_PROG BASE.pit NEW_PROG NEW.pit
 *
 * Each side is loaded as `pmopt report` loads it (model_load: PROG's
 * metadata and debug information, the trace's counts; a trace of another
 * build than its PROG is refused unless --force), and its timer samples
 * as `report --tree` reads them (stk_load).  Then, per function and per
 * source line, the counts and the sampled time before (BASE) and after
 * (NEW), sorted by the size of the change:
 *
 *   functions  matched by the name shown (names.h) and declaration file:
 *              block executions and entries (as `report --by=function`);
 *              the CFG checksum of each side (pi_func.cfg_checksum) says
 *              whether the function's code kept its shape ("same"),
 *              changed ("changed"), or exists on one side only ("new",
 *              "gone"); sampled time is the timer periods whose innermost
 *              frame is in the function (its self time), so functions
 *              that are sampled but not instrumented have rows too;
 *   lines      matched by file and line: the count (as `report --by=line`)
 *              and the timer periods whose sampled pc is on the line.
 *              In a function whose CFG changed, a line may hold other code
 *              than before.
 *
 * --flamegraph=FILE draws NEW's stacks with each frame coloured by how its
 * sampled time changed from BASE's same stack (export_flamegraph_diff).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "report.h"
#include "stacks.h"

static void help(FILE *f)
{
    fprintf(f,
            "usage: pmopt diff [OPTIONS] PROG BASE.pit NEW.pit\n"
            "       pmopt diff [OPTIONS] BASE_PROG BASE.pit NEW_PROG NEW.pit\n"
            "Counts and sampled time per function and per line, before (BASE) and after (NEW),\n"
            "largest change first.  Two builds are matched by function name; the cfg column\n"
            "says whether a function's control flow kept its shape (CFG checksum).\n"
            "  --format=text|json|csv   output format (text)\n"
            "  --by=function|line       one view only (csv: function unless --by=line)\n"
            "  --sort=count|samples     order by the change in counts (default) or in\n"
            "                           sampled time\n"
            "  --top=N                  the N largest changes of each view\n"
            "  --flamegraph=FILE        a differential flame graph of NEW's sampled stacks\n"
            "                           (SVG): red grew, blue shrank since BASE\n"
            "  --normalize              in the flame graph, scale BASE's samples to NEW's total\n"
            "  --force                  read a trace of a different build of its PROG\n");
}

enum { D_FUNC = 1, D_LINE = 2 };

/* One function or one line of either side.  A function's key is its name
 * (file NULL, line 0), a line's its file and line (name NULL). */
struct drow {
    const char *name, *file;     /* interned (names.h) */
    uint32_t line;
    const char *dfile;           /* functions: the declaration, "" when only sampled */
    uint32_t dline;
    int has[2];                  /* counted on that side */
    uint64_t count[2];           /* block executions (functions), the line's count */
    int has_entry[2];
    uint64_t entries[2];
    uint64_t samples[2];         /* timer periods whose innermost frame is here */
    uint64_t cfg[2];             /* functions: CFG checksum when has[] */
};

struct diff {
    struct drow *rows;
    size_t nrows, cap;
    uint32_t *hash;              /* (name, file, line) -> row + 1 */
    size_t hcap;
    int side;                    /* the side being added */
    int sort_samples;
};

static uint64_t row_key(const char *name, const char *file, uint32_t line)
{
    return ((uint64_t)(uintptr_t)name * 0x9e3779b97f4a7c15ull) ^
           ((uint64_t)(uintptr_t)file * 0xff51afd7ed558ccdull) ^ ((uint64_t)line * 0xc4ceb9fe1a85ec53ull);
}

static int grow(struct diff *d)
{
    size_t cap = d->hcap ? 2 * d->hcap : 1024;
    uint32_t *h = calloc(cap, sizeof *h);
    if (!h)
        return -1;
    for (size_t i = 0; i < d->nrows; i++) {
        size_t j = row_key(d->rows[i].name, d->rows[i].file, d->rows[i].line) & (cap - 1);
        while (h[j])
            j = (j + 1) & (cap - 1);
        h[j] = (uint32_t)i + 1;
    }
    free(d->hash);
    d->hash = h;
    d->hcap = cap;
    return 0;
}

/* The row of (name, file, line), made if new; NULL when out of memory. */
static struct drow *row_of(struct diff *d, const char *name, const char *file, uint32_t line)
{
    if (2 * (d->nrows + 1) > d->hcap && grow(d))
        return NULL;
    size_t j = row_key(name, file, line) & (d->hcap - 1);
    for (; d->hash[j]; j = (j + 1) & (d->hcap - 1)) {
        struct drow *r = &d->rows[d->hash[j] - 1];
        if (r->name == name && r->file == file && r->line == line)
            return r;
    }
    if (d->nrows == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 256;
        struct drow *n = realloc(d->rows, cap * sizeof *n);
        if (!n)
            return NULL;
        d->rows = n;
        d->cap = cap;
    }
    struct drow *r = &d->rows[d->nrows];
    memset(r, 0, sizeof *r);
    r->name = name;
    r->file = file;
    r->line = line;
    d->hash[j] = (uint32_t)++d->nrows;
    return r;
}

static int oom_stop;

static void add_leaf(void *ctx, const char *func, const char *file, uint32_t line,
                     uint64_t periods)
{
    struct diff *d = ctx;
    struct drow *f = row_of(d, func, NULL, 0);
    struct drow *l = file && line ? row_of(d, NULL, file, line) : NULL;
    if (!f || (file && line && !l)) {
        oom_stop = 1;
        return;
    }
    if (!f->dfile)
        f->dfile = "";
    f->samples[d->side] += periods;
    if (l)
        l->samples[d->side] += periods;
}

/* One side: PROG and its trace, as report loads them; its stacks kept for
 * the flame graph. */
struct side {
    const char *prog;
    char *trace;
    struct model md;
    struct stk_tree st;
    char bid[2 * PI_BUILD_ID_MAX + 1];
    struct trace_info info;
};

static int add_side(struct diff *d, struct side *s, int force)
{
    struct model *md = &s->md;
    md->prog = s->prog;
    md->ntraces = 1;
    md->force = force;
    if (model_load(md, &s->trace))
        return -1;
    memcpy(s->bid, md->bid, sizeof s->bid);
    s->info = md->infos[0];
    if (!(s->info.path = strdup(s->info.path)))
        return rep_oom();
    for (size_t i = 0; i < md->nfuncs; i++) {
        const struct func_row *fr = &md->funcs[i];
        struct drow *row = row_of(d, fr->name, NULL, 0);
        if (!row)
            return rep_oom();
        if (!row->dfile || !*row->dfile) {
            row->dfile = fr->file;
            row->dline = fr->line;
        }
        if (fr->uninstrumented)
            continue;
        /* static functions of one name in several files: one row, summed */
        if (!row->has[d->side] && !fr->inlined_only)
            row->cfg[d->side] = fr->u->funcs[fr->func].cfg_checksum;
        row->has[d->side] = 1;
        row->count[d->side] = pm_sat_add(row->count[d->side], fr->blocks);
        row->has_entry[d->side] |= fr->has_entry;
        row->entries[d->side] = pm_sat_add(row->entries[d->side], fr->entries);
    }
    for (size_t i = 0; i < md->nlines; i++) {
        struct drow *row = row_of(d, NULL, md->lines[i].file, md->lines[i].line);
        if (!row)
            return rep_oom();
        row->has[d->side] = 1;
        row->count[d->side] = md->lines[i].count;
    }
    /* the stacks, named while this side's program is the names' program */
    if (stk_load(&s->st, s->prog, &s->trace, 1))
        return -1;
    oom_stop = 0;
    stk_sampled_leaves(&s->st, add_leaf, d);
    return oom_stop ? rep_oom() : 0;
}

static int64_t change(const struct drow *r, int samples)
{
    return samples ? (int64_t)(r->samples[1] - r->samples[0]) : (int64_t)(r->count[1] - r->count[0]);
}

static uint64_t mag(int64_t v) { return v < 0 ? -(uint64_t)v : (uint64_t)v; }

static int sort_samples;

static int cmp_rows(const void *a, const void *b)
{
    const struct drow *x = a, *y = b;
    for (int k = 0; k < 2; k++) {
        int samples = sort_samples ? !k : k;
        uint64_t mx = mag(change(x, samples)), my = mag(change(y, samples));
        PI_CMP_RET(my, mx);
    }
    if (x->name != y->name && x->name && y->name)
        return strcmp(x->name, y->name);
    int c = strcmp(x->file ? x->file : "", y->file ? y->file : "");
    if (c)
        return c;
    return x->line < y->line ? -1 : x->line > y->line;
}

static const char *cfg_state(const struct drow *r)
{
    if (r->has[0] && r->has[1])
        return r->cfg[0] == r->cfg[1] ? "same" : "changed";
    return r->has[1] ? "new" : r->has[0] ? "gone" : "-";
}

/* "+12.5%", "new" (nothing before), "" (nothing either side) */
static void pct(char *buf, size_t n, uint64_t before, uint64_t after)
{
    if (!before)
        snprintf(buf, n, "%s", after ? "new" : "");
    else
        snprintf(buf, n, "%+.1f%%", 100.0 * ((double)after - (double)before) / (double)before);
}

static void num(char *buf, size_t n, int has, uint64_t v)
{
    if (has)
        snprintf(buf, n, "%llu", (unsigned long long)v);
    else
        snprintf(buf, n, "-");
}

struct view {
    struct drow *rows;           /* copies, sorted */
    size_t n;
};

static void text_view(const struct view *v, int funcs, int have_samples)
{
    char loc[4096], b[32], a[32], c[32], p[32], sb[32], sa[32], sc[32];
    printf("\n%s, largest change first: %s before and after%s\n", funcs ? "Functions" : "Lines",
           funcs ? "block executions" : "count",
           have_samples ? "; sampled self time in timer periods" : "");
    printf("  %14s %14s %14s %8s", "before", "after", "change", "%");
    if (have_samples)
        printf("  %9s %9s %9s", "samples", "after", "change");
    printf("  %s\n", funcs ? "cfg      function  file:line" : "file:line");
    for (size_t i = 0; i < v->n; i++) {
        const struct drow *r = &v->rows[i];
        num(b, sizeof b, r->has[0], r->count[0]);
        num(a, sizeof a, r->has[1], r->count[1]);
        if (r->has[0] || r->has[1])
            snprintf(c, sizeof c, "%+lld", (long long)change(r, 0));
        else
            snprintf(c, sizeof c, "-");
        pct(p, sizeof p, r->count[0], r->count[1]);
        if (funcs && *r->dfile)
            snprintf(loc, sizeof loc, "%-8s %s  %s:%u", cfg_state(r), r->name, r->dfile, r->dline);
        else if (funcs)
            snprintf(loc, sizeof loc, "%-8s %s", cfg_state(r), r->name);
        else
            snprintf(loc, sizeof loc, "%s:%u", r->file, r->line);
        printf("  %14s %14s %14s %8s", b, a, c, p);
        if (have_samples) {
            snprintf(sb, sizeof sb, "%llu", (unsigned long long)r->samples[0]);
            snprintf(sa, sizeof sa, "%llu", (unsigned long long)r->samples[1]);
            snprintf(sc, sizeof sc, "%+lld", (long long)change(r, 1));
            printf("  %9s %9s %9s", sb, sa, sc);
        }
        printf("  %s\n", loc);
    }
}

static void json_pair(int has0, uint64_t v0, int has1, uint64_t v1)
{
    printf("[");
    if (has0)
        printf("%llu", (unsigned long long)v0);
    else
        printf("null");
    printf(", ");
    if (has1)
        printf("%llu", (unsigned long long)v1);
    else
        printf("null");
    printf("]");
}

static void json_side(const char *what, const struct side *s)
{
    printf("  \"%s\": {\"program\": ", what);
    pm_json_str(stdout, s->prog);
    printf(", \"build_id\": \"%s\", \"trace\": ", s->md.m.build_id_len ? s->bid : "");
    pm_json_str(stdout, s->info.path);
    printf("},\n");
}

static void json_view(const struct view *v, int funcs)
{
    printf(",\n  \"%s\": [", funcs ? "functions" : "lines");
    for (size_t i = 0; i < v->n; i++) {
        const struct drow *r = &v->rows[i];
        printf("%s\n    {", i ? "," : "");
        if (funcs) {
            printf("\"function\": ");
            pm_json_str(stdout, r->name);
            printf(", \"file\": ");
            pm_json_str(stdout, r->dfile);
            printf(", \"line\": %u, \"cfg\": \"%s\", \"blocks\": ", r->dline, cfg_state(r));
            json_pair(r->has[0], r->count[0], r->has[1], r->count[1]);
            printf(", \"entries\": ");
            json_pair(r->has_entry[0], r->entries[0], r->has_entry[1], r->entries[1]);
        } else {
            printf("\"file\": ");
            pm_json_str(stdout, r->file);
            printf(", \"line\": %u, \"count\": ", r->line);
            json_pair(r->has[0], r->count[0], r->has[1], r->count[1]);
        }
        printf(", \"samples\": ");
        json_pair(1, r->samples[0], 1, r->samples[1]);
        printf("}");
    }
    printf("%s]", v->n ? "\n  " : "");
}

static void csv_view(const struct view *v, int funcs)
{
    if (funcs)
        printf("function,file,line,cfg,blocks_before,blocks_after,blocks_change,entries_before,"
               "entries_after,samples_before,samples_after,samples_change\n");
    else
        printf("file,line,count_before,count_after,count_change,samples_before,samples_after,"
               "samples_change\n");
    for (size_t i = 0; i < v->n; i++) {
        const struct drow *r = &v->rows[i];
        char b[32], a[32];
        if (funcs) {
            pm_csv_str(stdout, r->name);
            putchar(',');
            pm_csv_str(stdout, r->dfile);
            printf(",%u,%s,", r->dline, cfg_state(r));
        } else {
            pm_csv_str(stdout, r->file);
            printf(",%u,", r->line);
        }
        num(b, sizeof b, r->has[0], r->count[0]);
        num(a, sizeof a, r->has[1], r->count[1]);
        printf("%s,%s,", r->has[0] ? b : "", r->has[1] ? a : "");
        if (r->has[0] || r->has[1])
            printf("%lld", (long long)change(r, 0));
        if (funcs) {
            num(b, sizeof b, r->has_entry[0], r->entries[0]);
            num(a, sizeof a, r->has_entry[1], r->entries[1]);
            printf(",%s,%s", r->has_entry[0] ? b : "", r->has_entry[1] ? a : "");
        }
        printf(",%llu,%llu,%lld\n", (unsigned long long)r->samples[0],
               (unsigned long long)r->samples[1], (long long)change(r, 1));
    }
}

/* The rows of one view (functions or lines), sorted, cut to top. */
static int make_view(const struct diff *d, int funcs, long top, struct view *v)
{
    v->n = 0;
    v->rows = calloc(d->nrows ? d->nrows : 1, sizeof *v->rows);
    if (!v->rows)
        return rep_oom();
    for (size_t i = 0; i < d->nrows; i++)
        if (!!d->rows[i].name == funcs)
            v->rows[v->n++] = d->rows[i];
    sort_samples = d->sort_samples;
    qsort(v->rows, v->n, sizeof *v->rows, cmp_rows);
    if (top > 0 && v->n > (size_t)top)
        v->n = (size_t)top;
    return 0;
}

int cmd_diff(int argc, char **argv)
{
    static const struct option opts[] = {
        { "format", required_argument, NULL, 'F' },
        { "by", required_argument, NULL, 'b' },
        { "sort", required_argument, NULL, 's' },
        { "top", required_argument, NULL, 't' },
        { "flamegraph", required_argument, NULL, 'g' },
        { "normalize", no_argument, NULL, 'n' },
        { "force", no_argument, NULL, 'f' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    enum fmt fmt = FMT_TEXT;
    int by = 0, force = 0, normalize = 0, c;
    long top = 0;
    const char *flame = NULL;
    struct diff d;
    memset(&d, 0, sizeof d);
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'F':
            if (!strcmp(optarg, "text")) fmt = FMT_TEXT;
            else if (!strcmp(optarg, "json")) fmt = FMT_JSON;
            else if (!strcmp(optarg, "csv")) fmt = FMT_CSV;
            else return pm_usage_error("diff", "--format: '%s' is not text, json or csv", optarg);
            break;
        case 'b':
            if (!strcmp(optarg, "function")) by = D_FUNC;
            else if (!strcmp(optarg, "line")) by = D_LINE;
            else return pm_usage_error("diff", "--by: '%s' is not function or line", optarg);
            break;
        case 's':
            if (!strcmp(optarg, "count")) d.sort_samples = 0;
            else if (!strcmp(optarg, "samples")) d.sort_samples = 1;
            else return pm_usage_error("diff", "--sort: '%s' is not count or samples", optarg);
            break;
        case 't': {
            char *end;
            top = strtol(optarg, &end, 10);
            if (!*optarg || *end || top < 0)
                return pm_usage_error("diff", "--top: '%s' is not a count", optarg);
            break;
        }
        case 'g': flame = optarg; break;
        case 'n': normalize = 1; break;
        case 'f': force = 1; break;
        case 'h': help(stdout); return PM_OK;
        default: return pm_usage_error("diff", "unknown option");
        }
    }
    int nops = argc - optind;
    if (nops != 3 && nops != 4)
        return pm_usage_error("diff", "expected PROG BASE.pit NEW.pit, or BASE_PROG BASE.pit "
                              "NEW_PROG NEW.pit");
    if (!by)
        by = fmt == FMT_CSV ? D_FUNC : D_FUNC | D_LINE;
    struct side s[2];
    memset(s, 0, sizeof s);
    char **op = argv + optind;
    s[0].prog = op[0];
    s[0].trace = op[1];
    s[1].prog = nops == 4 ? op[2] : op[0];
    s[1].trace = op[nops - 1];
    int status = PM_ERROR;
    struct view fv = { 0 }, lv = { 0 };
    for (d.side = 0; d.side < 2; d.side++)
        if (add_side(&d, &s[d.side], force))
            goto out;
    int have_samples = s[0].st.have[STK_SAMPLED] || s[1].st.have[STK_SAMPLED];
    if (flame) {
        static const int w[STK_NKINDS] = { [STK_SAMPLED] = 1 };
        for (int k = 0; k < 2; k++)
            if (!s[k].st.have[STK_SAMPLED]) {
                pm_error("%s has no timer samples for --flamegraph (run %s with "
                         "PERFINST_SAMPLE=cpu:1ms)", s[k].trace, s[k].prog);
                goto out;
            }
        uint64_t all0 = s[0].st.nodes[0].total[STK_SAMPLED], all1 = s[1].st.nodes[0].total[STK_SAMPLED];
        double scale = normalize && all0 ? (double)all1 / (double)all0 : 1;
        FILE *f = pm_create(flame);
        if (!f)
            goto out;
        char title[512];
        snprintf(title, sizeof title, "%s: %s -> %s (red grew, blue shrank)", pm_basename(s[1].prog),
                 pm_basename(s[0].trace), pm_basename(s[1].trace));
        int bad = export_flamegraph_diff(&s[0].st, &s[1].st, w, scale, title, f);
        if (fclose(f) || bad) {
            pm_error("%s: write error", flame);
            goto out;
        }
    }
    if (((by & D_FUNC) && make_view(&d, 1, top, &fv)) || ((by & D_LINE) && make_view(&d, 0, top, &lv)))
        goto out;
    const struct pi_samples *ss = s[1].st.have[STK_SAMPLED] ? &s[1].st.ss : &s[0].st.ss;
    if (fmt == FMT_TEXT) {
        printf("pmopt diff: before %s (build-id %s) %s\n            after  %s (build-id %s) %s\n",
               s[0].prog, s[0].bid, s[0].info.path, s[1].prog, s[1].bid, s[1].info.path);
        if (have_samples && ss->has_stats)
            printf("sampled time in timer periods of %.3f ms (%s clock)\n",
                   ss->stats.period_ns / 1e6, ss->stats.kind == PI_SK_WALL ? "wall" : "cpu");
        if (by & D_FUNC)
            text_view(&fv, 1, have_samples);
        if (by & D_LINE)
            text_view(&lv, 0, have_samples);
    } else if (fmt == FMT_JSON) {
        printf("{\n");
        json_side("base", &s[0]);
        json_side("new", &s[1]);
        printf("  \"sample_period_ns\": ");
        if (have_samples && ss->has_stats)
            printf("%u", ss->stats.period_ns);
        else
            printf("null");
        if (by & D_FUNC)
            json_view(&fv, 1);
        if (by & D_LINE)
            json_view(&lv, 0);
        printf("\n}\n");
    } else {
        csv_view(by & D_FUNC ? &fv : &lv, !!(by & D_FUNC));
    }
    status = PM_OK;
out:
    fflush(stdout);
    free(fv.rows);
    free(lv.rows);
    for (int k = 0; k < 2; k++) {
        free(s[k].info.path);
        model_free(&s[k].md);
        stk_free(&s[k].st);
    }
    free(d.rows);
    free(d.hash);
    return status;
}
