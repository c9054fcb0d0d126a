/* stacks.c — the calling-context tree of sampled stacks, and
 * `pmopt report --tree` (docs/sampling-stacks.md, docs/pmopt.md).
 *
 *   pmopt report --tree [--what=sampled|idle|to|from] [PROG] TRACE...
 *
 * Each sample's frames (innermost first, mapped to object + link-time
 * address by pisample) are named through the object's symbols and DWARF
 * (pidwarf: the function holding the address; a return address is looked up
 * one byte back, inside its call) and walked root-first into the tree.  A
 * node counts, per kind (sampled: cpu and wall timer samples weighted by
 * the timer periods they stand for; to-idle; from-idle), its base (the
 * samples that ended there: the seed's base to_idle/from_idle counts) and
 * its cumulative count (base + the children's cumulative counts).
 */
#include "stacks.h"

#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "names.h"
#include "pmopt.h"

struct stk_sym {
    int tried, ok;
    struct pi_debug d;
};

static int is_trace(const char *path)
{
    char magic[8];
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, magic, sizeof magic);
    close(fd);
    return n == 8 && !memcmp(magic, PI_TRACE_MAGIC, 8);
}

void stk_operands(int argc, char **argv, const char **prog, char ***traces, int *ntraces)
{
    *prog = NULL;
    if (argc > 0 && !is_trace(argv[0])) {
        *prog = argv[0];
        argc--;
        argv++;
    }
    *traces = argv;
    *ntraces = argc;
}

/* The name of frame fr (innermost: the interrupted pc, else a return address). */
static void frame_name(struct stk_tree *t, const char *prog, const uint8_t *prog_id,
                       uint32_t prog_id_len, const struct pi_sframe *fr, int innermost,
                       const char **name, const char **file, uint32_t *line)
{
    char buf[512];
    *file = "";
    *line = 0;
    if (fr->obj == PI_SOBJ_NONE) {
        snprintf(buf, sizeof buf, "[0x%llx]", (unsigned long long)fr->addr);
        *name = pm_intern(buf);
        return;
    }
    const struct pi_sobj *o = &t->ss.objs[fr->obj];
    struct stk_sym *s = &t->syms[fr->obj];
    if (!s->tried) {
        s->tried = 1;
        const char *path = o->path;
        if (prog && prog_id_len && o->build_id_len == prog_id_len &&
            !memcmp(o->build_id, prog_id, prog_id_len))
            path = prog;
        struct pi_err err;
        if (*path && strcmp(path, "linux-vdso.so.1") && !pi_debug_open(path, &s->d, &err)) {
            s->ok = 1;
            pm_names_add(&s->d); /* before any of its names is shown */
        }
    }
    uint64_t a = innermost ? fr->addr : fr->addr - 1;
    const struct pi_dfunc *f = s->ok ? pi_debug_func(&s->d, a) : NULL;
    if (f) {
        *name = pm_dfunc_name(f); /* interned (names.h) */
        *file = f->file ? pm_intern(f->file) : "";
        *line = f->line;
        return;
    }
    snprintf(buf, sizeof buf, "[%s+0x%llx]", pm_basename(o->path), (unsigned long long)fr->addr);
    *name = pm_intern(buf);
}

/* ---- the tree --------------------------------------------------------------------------------- */

static uint64_t hkey(uint32_t parent, const char *name)
{
    return ((uint64_t)parent * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)(uintptr_t)name * 0xff51afd7ed558ccdull);
}

static int grow_hash(struct stk_tree *t)
{
    size_t cap = t->hcap ? 2 * t->hcap : 1024;
    uint32_t *h = calloc(cap, sizeof *h);
    if (!h)
        return -1;
    for (size_t i = 1; i < t->nnodes; i++) {
        uint64_t k = hkey(t->nodes[i].parent, t->nodes[i].name);
        size_t j = k & (cap - 1);
        while (h[j])
            j = (j + 1) & (cap - 1);
        h[j] = (uint32_t)i + 1;
    }
    free(t->hash);
    t->hash = h;
    t->hcap = cap;
    return 0;
}

static uint32_t child(struct stk_tree *t, uint32_t parent, const char *name, const char *file,
                      uint32_t line)
{
    if (2 * (t->nnodes + 1) > t->hcap && grow_hash(t))
        return 0;
    size_t j = hkey(parent, name) & (t->hcap - 1);
    for (; t->hash[j]; j = (j + 1) & (t->hcap - 1)) {
        uint32_t n = t->hash[j] - 1;
        if (t->nodes[n].parent == parent && t->nodes[n].name == name)
            return n;
    }
    if (t->nnodes == t->cap) {
        size_t cap = 2 * t->cap;
        struct stk_node *nn = realloc(t->nodes, cap * sizeof *nn);
        if (!nn)
            return 0;
        t->nodes = nn;
        t->cap = cap;
    }
    uint32_t n = (uint32_t)t->nnodes++;
    struct stk_node *nd = &t->nodes[n];
    memset(nd, 0, sizeof *nd);
    nd->parent = parent;
    nd->name = name;
    nd->file = file;
    nd->line = line;
    nd->depth = t->nodes[parent].depth + 1;
    nd->next_sibling = t->nodes[parent].first_child;
    t->nodes[parent].first_child = n;
    t->hash[j] = n + 1;
    return n;
}

int stk_load(struct stk_tree *t, const char *prog, char **traces, int ntraces)
{
    memset(t, 0, sizeof t[0]);
    for (int i = 0; i < ntraces; i++) {
        struct pi_err err;
        char warn[1024];
        if (pi_samples_read(traces[i], &t->ss, warn, sizeof warn, &err)) {
            pm_error("%s", err.msg);
            return -1;
        }
        if (*warn)
            pm_note("%s", warn);
    }
    /* the program's build-id, to prefer PROG's file for its own frames */
    uint8_t prog_id[PI_BUILD_ID_MAX];
    uint32_t prog_id_len = 0;
    if (prog) {
        struct pi_meta m;
        struct pi_err err;
        if (pi_meta_read(prog, &m, &err)) {
            pm_error("%s", err.msg);
            return -1;
        }
        prog_id_len = m.build_id_len;
        memcpy(prog_id, m.build_id, prog_id_len);
        pi_meta_free(&m);
    }
    t->prog = prog;
    t->prog_id_len = prog_id_len;
    memcpy(t->prog_id, prog_id, prog_id_len);
    t->syms = calloc(t->ss.nobjs ? t->ss.nobjs : 1, sizeof *t->syms);
    t->cap = 1024;
    t->nodes = calloc(t->cap, sizeof *t->nodes);
    if (!t->syms || !t->nodes) {
        pm_error("out of memory");
        return -1;
    }
    t->nnodes = 1;
    t->nodes[0].name = "all";
    t->nodes[0].file = "";
    for (size_t i = 0; i < t->ss.n; i++) {
        const struct pi_sample *s = &t->ss.s[i];
        int k = s->kind == PI_SK_IDLE_TO ? STK_TO : s->kind == PI_SK_IDLE_FROM ? STK_FROM
                : STK_SAMPLED;
        uint64_t w = k == STK_SAMPLED ? s->weight : 1;
        t->have[k] = 1;
        if (s->flags & PI_SF_TRUNCATED)
            t->truncated++;
        uint32_t n = 0;
        t->nodes[0].total[k] += w;
        for (uint32_t j = s->nframes; j-- > 0;) {
            const char *name, *file;
            uint32_t line;
            frame_name(t, prog, prog_id, prog_id_len, &s->frames[j], j == 0, &name, &file, &line);
            n = child(t, n, name, file, line);
            if (!n) {
                pm_error("out of memory");
                return -1;
            }
            t->nodes[n].total[k] += w;
        }
        t->nodes[n].self[k] += w;
    }
    return 0;
}

uint32_t stk_find(const struct stk_tree *t, uint32_t parent, const char *name)
{
    if (!t->hcap)
        return 0;
    for (size_t j = hkey(parent, name) & (t->hcap - 1); t->hash[j]; j = (j + 1) & (t->hcap - 1)) {
        uint32_t n = t->hash[j] - 1;
        if (t->nodes[n].parent == parent && t->nodes[n].name == name)
            return n;
    }
    return 0;
}

int stk_sampled_leaves(struct stk_tree *t,
                       void (*visit)(void *ctx, const char *func, const char *file, uint32_t line,
                                     uint64_t periods),
                       void *ctx)
{
    for (size_t i = 0; i < t->ss.n; i++) {
        const struct pi_sample *s = &t->ss.s[i];
        if (s->kind == PI_SK_IDLE_TO || s->kind == PI_SK_IDLE_FROM || !s->nframes)
            continue;
        const struct pi_sframe *fr = &s->frames[0];
        const char *name, *dfile, *file = NULL;
        uint32_t dline, line = 0;
        frame_name(t, t->prog, t->prog_id, t->prog_id_len, fr, 1, &name, &dfile, &dline);
        if (fr->obj != PI_SOBJ_NONE && t->syms[fr->obj].ok &&
            pi_debug_line(&t->syms[fr->obj].d, fr->addr, &file, &line))
            file = pm_file(NULL, file);
        else
            file = NULL, line = 0;
        visit(ctx, name, file, line, s->weight);
    }
    return 0;
}

void stk_free(struct stk_tree *t)
{
    for (size_t i = 0; t->syms && i < t->ss.nobjs; i++)
        if (t->syms[i].ok)
            pi_debug_close(&t->syms[i].d);
    free(t->syms);
    free(t->nodes);
    free(t->hash);
    pi_samples_free(&t->ss);
    memset(t, 0, sizeof *t);
}

uint64_t stk_count(const struct stk_node *n, const int *w, int self)
{
    uint64_t c = 0;
    for (int k = 0; k < STK_NKINDS; k++)
        if (!w || w[k])
            c += self ? n->self[k] : n->total[k];
    return c;
}

static const struct stk_tree *sort_tree;
static const int *sort_w;

static int by_total(const void *a, const void *b)
{
    const struct stk_node *x = &sort_tree->nodes[*(const uint32_t *)a];
    const struct stk_node *y = &sort_tree->nodes[*(const uint32_t *)b];
    uint64_t cx = stk_count(x, sort_w, 0), cy = stk_count(y, sort_w, 0);
    if (cx != cy)
        return cx > cy ? -1 : 1;
    return strcmp(x->name, y->name);
}

uint32_t *stk_children(const struct stk_tree *t, uint32_t n, const int *w, size_t *nout)
{
    size_t k = 0;
    for (uint32_t c = t->nodes[n].first_child; c; c = t->nodes[c].next_sibling)
        k += stk_count(&t->nodes[c], w, 0) > 0;
    uint32_t *v = malloc((k ? k : 1) * sizeof *v);
    if (!v) {
        *nout = 0;
        return NULL;
    }
    k = 0;
    for (uint32_t c = t->nodes[n].first_child; c; c = t->nodes[c].next_sibling)
        if (stk_count(&t->nodes[c], w, 0) > 0)
            v[k++] = c;
    sort_tree = t;
    sort_w = w;
    qsort(v, k, sizeof *v, by_total);
    *nout = k;
    return v;
}

/* ---- report --tree ---------------------------------------------------------------------------------- */

static void print_sampled(const struct stk_tree *t, uint32_t n, const int *w, uint64_t all, double min_pct)
{
    size_t nc;
    uint32_t *c = stk_children(t, n, w, &nc);
    for (size_t i = 0; i < nc; i++) {
        const struct stk_node *nd = &t->nodes[c[i]];
        uint64_t tot = stk_count(nd, w, 0), self = stk_count(nd, w, 1);
        double pct = all ? 100.0 * (double)tot / (double)all : 0;
        if (pct < min_pct)
            continue;
        printf("%6.1f%% %6.1f%% %8llu %8llu  %*s%s", pct, all ? 100.0 * (double)self / (double)all : 0,
               (unsigned long long)tot, (unsigned long long)self, 2 * (int)(nd->depth - 1), "",
               nd->name);
        if (*nd->file)
            printf("  (%s:%u)", pm_basename(nd->file), nd->line);
        putchar('\n');
        print_sampled(t, c[i], w, all, min_pct);
    }
    free(c);
}

static void print_idle(const struct stk_tree *t, uint32_t n, const int *w, uint64_t all, double min_pct)
{
    size_t nc;
    uint32_t *c = stk_children(t, n, w, &nc);
    for (size_t i = 0; i < nc; i++) {
        const struct stk_node *nd = &t->nodes[c[i]];
        uint64_t tot = stk_count(nd, w, 0);
        if (all && 100.0 * (double)tot / (double)all < min_pct)
            continue;
        printf("%8llu %8llu %8llu %8llu  %*s%s", (unsigned long long)nd->self[STK_TO],
               (unsigned long long)nd->total[STK_TO], (unsigned long long)nd->self[STK_FROM],
               (unsigned long long)nd->total[STK_FROM], 2 * (int)(nd->depth - 1), "", nd->name);
        if (*nd->file)
            printf("  (%s:%u)", pm_basename(nd->file), nd->line);
        putchar('\n');
        print_idle(t, c[i], w, all, min_pct);
    }
    free(c);
}

/* Per thread and per CPU (seed 003 R11): the samples of the kinds in w,
 * weighted; the 8 largest threads, every CPU. */
struct tally {
    uint32_t key;
    uint64_t n[STK_NKINDS];
};

static int tally_cmp(const void *a, const void *b)
{
    const struct tally *x = a, *y = b;
    uint64_t cx = x->n[0] + x->n[1] + x->n[2], cy = y->n[0] + y->n[1] + y->n[2];
    if (cx != cy)
        return cx > cy ? -1 : 1;
    return x->key < y->key ? -1 : x->key > y->key;
}

static void print_breakdown(const struct stk_tree *t, const int *w, int idle)
{
    struct tally *th = NULL, *cpu = NULL;
    size_t nth = 0, ncpu = 0;
    for (size_t i = 0; i < t->ss.n; i++) {
        const struct pi_sample *s = &t->ss.s[i];
        int k = s->kind == PI_SK_IDLE_TO ? STK_TO : s->kind == PI_SK_IDLE_FROM ? STK_FROM : STK_SAMPLED;
        if (!w[k])
            continue;
        uint64_t wt = k == STK_SAMPLED ? s->weight : 1;
        for (int pass = 0; pass < 2; pass++) {
            struct tally **v = pass ? &cpu : &th;
            size_t *nv = pass ? &ncpu : &nth;
            uint32_t key = pass ? s->cpu : s->tid;
            size_t j = 0;
            while (j < *nv && (*v)[j].key != key)
                j++;
            if (j == *nv) {
                struct tally *nn = realloc(*v, (*nv + 1) * sizeof *nn);
                if (!nn)
                    goto out;
                *v = nn;
                memset(&nn[j], 0, sizeof nn[j]);
                nn[j].key = key;
                (*nv)++;
            }
            (*v)[j].n[k] += wt;
        }
    }
    qsort(th, nth, sizeof *th, tally_cmp);
    qsort(cpu, ncpu, sizeof *cpu, tally_cmp);
    for (int pass = 0; pass < 2; pass++) {
        struct tally *v = pass ? cpu : th;
        size_t nv = pass ? ncpu : nth, shown = pass ? nv : (nv < 8 ? nv : 8);
        printf("  %s:", pass ? "per CPU" : "per thread");
        for (size_t j = 0; j < shown; j++) {
            if (idle)
                printf("%s %s %u: to %llu, from %llu", j ? ";" : "", pass ? "cpu" : "tid", v[j].key,
                       (unsigned long long)v[j].n[STK_TO], (unsigned long long)v[j].n[STK_FROM]);
            else
                printf("%s %s %u: %llu", j ? ";" : "", pass ? "cpu" : "tid", v[j].key,
                       (unsigned long long)v[j].n[STK_SAMPLED]);
        }
        if (shown < nv)
            printf("; %zu more", nv - shown);
        putchar('\n');
    }
out:
    free(th);
    free(cpu);
}

static void help(FILE *f)
{
    fprintf(f,
            "usage: pmopt report --tree [--what=sampled|idle|to|from] [--min=PCT] [PROG] TRACE...\n"
            "The calling-context tree of the stacks sampled by PERFINST_SAMPLE (timer samples:\n"
            "cumulative and self counts, in timer periods) and by PERFINST_IDLE (idle-transition\n"
            "samples: to-idle and from-idle base and cumulative counts), named through the\n"
            "symbols and DWARF of the sampled objects (PROG's file for PROG's frames).\n"
            "  --what=W    sampled, idle (to and from), to or from (default: what the traces have)\n"
            "  --min=PCT   leave out nodes under PCT percent of the samples (0)\n");
}

int stk_report_main(int argc, char **argv)
{
    static const struct option opts[] = {
        { "tree", no_argument, NULL, 'T' },
        { "what", required_argument, NULL, 'w' },
        { "min", required_argument, NULL, 'm' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *what = NULL;
    double min_pct = 0;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
        switch (c) {
        case 'T': break;
        case 'w': what = optarg; break;
        case 'm': {
            char *end;
            min_pct = strtod(optarg, &end);
            if (end == optarg || *end || min_pct < 0 || min_pct > 100)
                return pm_usage_error("report", "--min=%s: expected a percentage from 0 to 100", optarg);
            break;
        }
        case 'h': help(stdout); return PM_OK;
        default:
            return pm_usage_error("report", "--tree: unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    int show_sampled = 1, show_idle = 1, w_idle[STK_NKINDS] = {0, 1, 1};
    if (what) {
        if (!strcmp(what, "sampled"))
            show_idle = 0;
        else if (!strcmp(what, "idle"))
            show_sampled = 0;
        else if (!strcmp(what, "to"))
            show_sampled = 0, w_idle[STK_FROM] = 0;
        else if (!strcmp(what, "from"))
            show_sampled = 0, w_idle[STK_TO] = 0;
        else
            return pm_usage_error("report", "--what=%s: expected sampled, idle, to or from", what);
    }
    const char *prog;
    char **traces;
    int ntraces;
    stk_operands(argc - optind, argv + optind, &prog, &traces, &ntraces);
    if (!ntraces)
        return pm_usage_error("report", "--tree: no TRACE given");
    struct stk_tree t;
    if (stk_load(&t, prog, traces, ntraces)) {
        stk_free(&t);
        return PM_ERROR;
    }
    int shown = 0;
    if (show_sampled && t.have[STK_SAMPLED]) {
        static const int w[STK_NKINDS] = {1, 0, 0};
        uint64_t all = t.nodes[0].total[STK_SAMPLED];
        const struct pi_rec_sample_stats *s = &t.ss.stats;
        printf("sampled stacks: %s clock, period %.3f ms: %llu samples for %llu periods, "
               "%llu truncated, %llu dropped, %llu threads\n",
               t.ss.has_stats ? pi_sample_kind_name(s->kind) : "?",
               t.ss.has_stats ? s->period_ns / 1e6 : 0.0,
               (unsigned long long)(t.ss.has_stats ? s->taken : 0), (unsigned long long)all,
               (unsigned long long)(t.ss.has_stats ? s->truncated : 0),
               (unsigned long long)(t.ss.has_stats ? s->dropped : 0),
               (unsigned long long)(t.ss.has_stats ? s->threads : 0));
        print_breakdown(&t, w, 0);
        printf("  total%%   self%%    total     self  function\n");
        print_sampled(&t, 0, w, all, min_pct);
        shown = 1;
    }
    if (show_idle && (t.have[STK_TO] || t.have[STK_FROM] || t.ss.has_idle)) {
        const struct pi_rec_idle_stats *s = &t.ss.idle;
        if (shown)
            putchar('\n');
        printf("idle-transition stacks: ticks %llu, idle %llu, busy %llu, skipped %llu, lost %llu "
               "(de-duplicated %llu; restarted calls %llu); to-idle %llu, from-idle %llu; "
               "period %.3f ms, %u CPUs, samplers %s\n",
               (unsigned long long)s->ticks, (unsigned long long)s->idle,
               (unsigned long long)s->busy, (unsigned long long)s->skipped,
               (unsigned long long)s->lost, (unsigned long long)s->dup,
               (unsigned long long)s->eintr, (unsigned long long)t.nodes[0].total[STK_TO],
               (unsigned long long)t.nodes[0].total[STK_FROM], s->period_ns / 1e6, s->ncpus,
               s->fifo ? "SCHED_FIFO" : "SCHED_OTHER");
        print_breakdown(&t, w_idle, 1);
        printf(" to-base   to-cum from-base from-cum  function\n");
        print_idle(&t, 0, w_idle, stk_count(&t.nodes[0], w_idle, 0), min_pct);
        shown = 1;
    }
    if (!shown)
        pm_note("no stack samples in the traces (run with PERFINST_SAMPLE=cpu:1ms or PERFINST_IDLE=both)");
    stk_free(&t);
    return PM_OK;
}
