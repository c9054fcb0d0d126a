/* view-callers.c — `pmopt report`'s view of the callers (--callers): the
 * stacks of the threshold events as a tree of arcs `caller → callee  count`,
 * rooted at the marked function. Its text, JSON and CSV are here together
 * (report-ind.c calls them), and its HTML, the call-tree section of
 * report --html's page (report-html.c calls it). */
#include <stdlib.h>
#include <string.h>

#include "report-html.h"
#include "report-ind.h"

/* The callers' tree: a child of `parent` (SIZE_MAX: a root) named name. */
static size_t cnode_get(struct ind_views *iv, size_t parent, const char *name)
{
    size_t *list = parent == SIZE_MAX ? iv->roots : iv->nodes[parent].kids;
    size_t n = parent == SIZE_MAX ? iv->nroots : iv->nodes[parent].nkids;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(iv->nodes[list[i]].name, name))
            return list[i];
    if (iv->nnodes == iv->ncap) {
        size_t nc = iv->ncap ? iv->ncap * 2 : 64;
        struct cnode *a = realloc(iv->nodes, nc * sizeof *a);
        if (!a)
            return SIZE_MAX;
        iv->nodes = a;
        iv->ncap = nc;
    }
    size_t id = iv->nnodes++;
    iv->nodes[id] = (struct cnode){ .name = name };
    size_t **lp = parent == SIZE_MAX ? &iv->roots : &iv->nodes[parent].kids;
    size_t *np = parent == SIZE_MAX ? &iv->nroots : &iv->nodes[parent].nkids;
    size_t *cp = parent == SIZE_MAX ? &iv->rcap : &iv->nodes[parent].kcap;
    if (*np == *cp) {
        size_t nc = *cp ? *cp * 2 : 4;
        size_t *a = realloc(*lp, nc * sizeof *a);
        if (!a)
            return SIZE_MAX;
        *lp = a;
        *cp = nc;
    }
    (*lp)[(*np)++] = id;
    return id;
}

/* A link-time address of PROG as a function name; "?" outside PROG. */
static const char *frame_name(const struct report *r, uint64_t addr)
{
    const struct pi_dfunc *f = addr && r->md.have_dbg ? pi_debug_func(&r->md.dbg, addr) : NULL;
    return f ? pm_dfunc_name(f) : "?";
}

static const struct ind_views *sort_iv; /* qsort has no context argument */

static int cmp_cnode(const void *a, const void *b)
{
    const struct cnode *x = &sort_iv->nodes[*(const size_t *)a];
    const struct cnode *y = &sort_iv->nodes[*(const size_t *)b];
    PI_CMP_RET(y->count, x->count);
    return strcmp(x->name, y->name);
}

int build_callers(struct report *r)
{
    struct ind_views *iv = r->iv;
    for (size_t i = 0; i < r->md.ir.ind.nevents; i++) {
        const struct pi_trace_event *e = &r->md.ir.ind.events[i];
        const struct pi_unit_view *u = rep_prog_unit(&r->md, e->ev.unit_id, e->ev.site);
        if (!u || !e->ev.nframes)
            continue;
        iv->nevents++;
        iv->nevents_other += e->ev.kind != PI_STAT_THRESHOLD;
        /* frames[0]: in the marked code; the others are return addresses,
         * so the call is at the address before (a call may end a function) */
        const char *name = frame_name(r, e->frames[0]);
        if (!strcmp(name, "?"))
            name = pm_func_name(u, u->sites[e->ev.site].func);
        size_t node = cnode_get(iv, SIZE_MAX, name);
        if (node == SIZE_MAX)
            return rep_oom();
        iv->nodes[node].count++;
        const char *prev = name;
        for (uint32_t k = 1; k < e->ev.nframes; k++) {
            const char *n = frame_name(r, e->frames[k] ? e->frames[k] - 1 : 0);
            if (!strcmp(n, "?") && !strcmp(prev, "?"))
                continue; /* frames outside PROG: one "?" for a run of them */
            node = cnode_get(iv, node, n);
            if (node == SIZE_MAX)
                return rep_oom();
            iv->nodes[node].count++;
            prev = n;
        }
    }
    sort_iv = iv;
    if (iv->nroots)
        qsort(iv->roots, iv->nroots, sizeof *iv->roots, cmp_cnode);
    for (size_t i = 0; i < iv->nnodes; i++)
        if (iv->nodes[i].nkids)
            qsort(iv->nodes[i].kids, iv->nodes[i].nkids, sizeof(size_t), cmp_cnode);
    return 0;
}

static void text_cnode(const struct ind_views *iv, size_t id, const char *callee, int depth)
{
    const struct cnode *n = &iv->nodes[id];
    printf("  %*s%s → %s  %llu\n", 2 * depth, "", n->name, callee, (unsigned long long)n->count);
    for (size_t i = 0; i < n->nkids; i++)
        text_cnode(iv, n->kids[i], n->name, depth + 1);
}

void text_callers(const struct report *r)
{
    const struct ind_views *iv = r->iv;
    printf("\nCallers of marked code, from the stacks of %llu threshold event%s (caller → callee  "
           "events)\n", (unsigned long long)iv->nevents, iv->nevents == 1 ? "" : "s");
    if (iv->nevents_other)
        printf("  (of which %llu from counter combinations or dormant classes)\n",
               (unsigned long long)iv->nevents_other);
    if (!iv->nroots)
        printf("  (none: no EVENT record for PROG's sites)\n");
    for (size_t i = 0; i < iv->nroots; i++) {
        const struct cnode *n = &iv->nodes[iv->roots[i]];
        printf("  %s  %llu event%s\n", n->name, (unsigned long long)n->count,
               n->count == 1 ? "" : "s");
        for (size_t k = 0; k < n->nkids; k++)
            text_cnode(iv, n->kids[k], n->name, 1);
    }
}

static void json_cnode(const struct ind_views *iv, size_t id)
{
    const struct cnode *n = &iv->nodes[id];
    printf("{\"function\": ");
    pm_json_str(stdout, n->name);
    printf(", \"count\": %llu, \"callers\": [", (unsigned long long)n->count);
    for (size_t i = 0; i < n->nkids; i++) {
        printf("%s", i ? ", " : "");
        json_cnode(iv, n->kids[i]);
    }
    printf("]}");
}

static void csv_cnode(const struct ind_views *iv, size_t id, const char *callee, const char *root,
                      int depth)
{
    const struct cnode *n = &iv->nodes[id];
    printf("%d,", depth);
    pm_csv_str(stdout, n->name);
    putchar(',');
    pm_csv_str(stdout, callee);
    printf(",%llu,", (unsigned long long)n->count);
    pm_csv_str(stdout, root);
    putchar('\n');
    for (size_t i = 0; i < n->nkids; i++)
        csv_cnode(iv, n->kids[i], n->name, root, depth + 1);
}

/* The callers' tree, depth first: visit(ctx, depth, name, events) with
 * depth 0 for the marked functions, deeper for their callers.  Returns the
 * number of threshold events the tree was made from. */
static void walk_cnode(const struct ind_views *iv, size_t id, int depth,
                       void (*visit)(void *, int, const char *, uint64_t), void *ctx)
{
    const struct cnode *n = &iv->nodes[id];
    visit(ctx, depth, n->name, n->count);
    for (size_t i = 0; i < n->nkids; i++)
        walk_cnode(iv, n->kids[i], depth + 1, visit, ctx);
}

static uint64_t rind_callers_walk(const struct report *r,
                                  void (*visit)(void *, int, const char *, uint64_t), void *ctx)
{
    const struct ind_views *iv = r->iv;
    for (size_t i = 0; iv && i < iv->nroots; i++)
        walk_cnode(iv, iv->roots[i], 0, visit, ctx);
    return iv ? iv->nevents : 0;
}

void json_callers(const struct report *r)
{
    const struct ind_views *iv = r->iv;
    printf(",\n  \"callers\": [");
    for (size_t i = 0; i < iv->nroots; i++) {
        const struct cnode *n = &iv->nodes[iv->roots[i]];
        printf("%s\n    {\"function\": ", i ? "," : "");
        pm_json_str(stdout, n->name);
        printf(", \"events\": %llu, \"callers\": [", (unsigned long long)n->count);
        for (size_t k = 0; k < n->nkids; k++) {
            printf("%s", k ? ", " : "");
            json_cnode(iv, n->kids[k]);
        }
        printf("]}");
    }
    printf("%s]", iv->nroots ? "\n  " : "");
}

void csv_callers(const struct report *r)
{
    const struct ind_views *iv = r->iv;
    printf("depth,caller,callee,count,root\n");
    for (size_t i = 0; i < iv->nroots; i++) {
        const struct cnode *n = &iv->nodes[iv->roots[i]];
        for (size_t k = 0; k < n->nkids; k++)
            csv_cnode(iv, n->kids[k], n->name, n->name, 1);
    }
}

/* The callers' tree in HTML (report --html's call-tree section), as nested
 * <details>. */
struct tree_out {
    FILE *f;
    int depth;              /* of the last node written; -1 before the first */
};

static void tree_node(void *ctx, int depth, const char *name, uint64_t count)
{
    struct tree_out *t = ctx;
    /* close the nodes that are not ancestors of this one */
    for (; t->depth >= depth; t->depth--)
        fputs("</details>\n", t->f);
    fputs("<details open><summary><code>", t->f);
    html_esc(t->f, name);
    fprintf(t->f, "</code> — %llu event%s%s</summary>\n", (unsigned long long)count,
            count == 1 ? "" : "s", depth ? "" : " (marked)");
    t->depth = depth;
}

void html_section_calltree(FILE *f, const struct report *r)
{
    /* rendered into memory first: the section's status depends on it */
    char *body = NULL;
    size_t size = 0;
    FILE *m = open_memstream(&body, &size);
    if (!m) {
        html_section_begin(f, "call-tree", "Call tree", 0);
        html_not_collected(f, "out of memory");
        fputs("</section>\n", f);
        return;
    }
    struct tree_out t = {m, -1};
    uint64_t events = rind_callers_walk(r, tree_node, &t);
    for (; t.depth >= 0; t.depth--)
        fputs("</details>\n", m);
    fclose(m);
    html_section_begin(f, "call-tree", "Call tree (callers of marked code)", size > 0);
    if (size) {
        fprintf(f, "<p>From the stacks of %llu threshold event%s: each marked function, "
                   "then who called it.</p>\n", (unsigned long long)events, events == 1 ? "" : "s");
        fwrite(body, 1, size, f);
    } else {
        html_not_collected(f, "no threshold event with a stack for PROG (mark a function "
                              "threshold(count=N) to see who calls it)");
    }
    free(body);
    fputs("</section>\n", f);
}
