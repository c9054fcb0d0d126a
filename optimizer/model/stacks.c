/* stacks.c — the calling-context tree of sampled stacks, which `pmopt
 * report --tree` (report-tree.c) prints and `pmopt export --flamegraph`
 * and `--folded` draw (export-stacks.c); docs/sampling-stacks.md.
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

/* Frame fr named (stacks.h). */
void stk_frame(struct stk_tree *t, const struct pi_sframe *fr, int innermost, struct stk_frame *out)
{
    char buf[512];
    memset(out, 0, sizeof *out);
    out->file = out->src = "";
    if (fr->obj == PI_SOBJ_NONE) {
        snprintf(buf, sizeof buf, "[0x%llx]", (unsigned long long)fr->addr);
        out->name = pm_intern(buf);
        return;
    }
    const struct pi_sobj *o = &t->ss.objs[fr->obj];
    struct stk_sym *s = &t->syms[fr->obj];
    if (!s->tried) {
        s->tried = 1;
        const char *path = o->path;
        if (t->prog && t->prog_id_len && o->build_id_len == t->prog_id_len &&
            !memcmp(o->build_id, t->prog_id, t->prog_id_len))
            path = t->prog;
        struct pi_err err;
        if (*path && strcmp(path, "linux-vdso.so.1") && !pi_debug_open(path, &s->d, &err)) {
            s->ok = 1;
            pm_names_add(&s->d); /* before any of its names is shown */
        }
    }
    uint64_t a = innermost ? fr->addr : fr->addr - 1;
    const struct pi_dfunc *f = s->ok ? pi_debug_func(&s->d, a) : NULL;
    if (f) {
        out->name = pm_dfunc_name(f); /* interned (names.h) */
        const char *linkage = pm_dfunc_linkage(f);
        out->linkage = linkage ? pm_intern(linkage) : NULL;
        out->file = f->file ? pm_file(NULL, f->file) : "";
        out->line = f->line;
        out->lo = f->lo;
        const char *src;
        /* a function only the symbol table knows has no lines (a lookup
           would find another function's) */
        if (f->from_dwarf && pi_debug_line(&s->d, a, &src, &out->src_line))
            out->src = pm_file(NULL, src);
        return;
    }
    const char *plt = s->ok ? pi_debug_plt(&s->d, a) : NULL;
    if (plt) { /* (a PLT entry: always innermost, it calls nothing) */
        out->name = pm_intern(plt);
        return;
    }
    snprintf(buf, sizeof buf, "[%s+0x%llx]", pm_basename(o->path), (unsigned long long)fr->addr);
    out->name = pm_intern(buf);
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

const char stk_truncated[] = "[truncated]";

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
    t->prog = prog;
    if (prog) {
        struct pi_meta m;
        struct pi_err err;
        if (pi_meta_read(prog, &m, &err)) {
            pm_error("%s", err.msg);
            return -1;
        }
        t->prog_id_len = m.build_id_len;
        memcpy(t->prog_id, m.build_id, m.build_id_len);
        pi_meta_free(&m);
    }
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
        int k = stk_kind(s);
        uint64_t w = k == STK_SAMPLED ? s->weight : 1;
        t->have[k] = 1;
        uint32_t n = 0;
        t->nodes[0].total[k] += w;
        if (s->flags & PI_SF_TRUNCATED) {
            /* the walk stopped short of the outermost frame (code without
               unwind information): under a root of their own, not
               beside _start as if they were whole */
            t->truncated++;
            if (!(n = child(t, 0, stk_truncated, "", 0))) {
                pm_error("out of memory");
                return -1;
            }
            t->nodes[n].total[k] += w;
        }
        for (uint32_t j = s->nframes; j-- > 0;) {
            struct stk_frame fr;
            stk_frame(t, &s->frames[j], j == 0, &fr);
            n = child(t, n, fr.name, fr.file, fr.line);
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
        if (stk_kind(s) != STK_SAMPLED || !s->nframes)
            continue;
        struct stk_frame fr;
        stk_frame(t, &s->frames[0], 1, &fr);
        visit(ctx, fr.name, *fr.src ? fr.src : NULL, fr.src_line, s->weight);
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
    PI_CMP_RET(cy, cx);
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
