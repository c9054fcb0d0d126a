/* gcov-lines.c — the model's line counts, by gcov's rule, for the
 * functions whose arcs carry the counters (docs/pmopt.md, "Lines").
 *
 * gcov (GCC's gcov.cc) puts each block on every line it records for it
 * (the plugin records them as GCC does for gcov: pi_site.line_first,
 * gcc-plugin/lines.cc) and lists the block under the largest line of
 * each run of lines of one file (gcov sorts a run's lines, then takes
 * the last: a goto's line after the block's statements is not where the
 * block is listed when it is smaller).  A line that lists blocks counts the arcs
 * that enter them from blocks it does not list, plus the executions of
 * the loops that stay among its blocks (elementary cycles, each counted
 * by its least-taken arc, which it then uses up: Hawick and James's
 * enumeration, in gcov's order); a line that lists none counts the
 * executions of the blocks that pass over it.  gcov's blocks are the
 * sites cut after every call that may not return (the PI_LINE_END marks)
 * and the blocks GCC puts on edges whose goto has a line of its own
 * (PI_ARC_BLOCK); their counts are the solved site and arc counts.  The
 * function's last block in GCC's numbering (PI_LINE_LAST, PI_ARC_LAST)
 * gcov takes for the exit block: it lists it under no line, its lines
 * count it only where they list no block.  Where gcov at -O0 has a call,
 * and the early inliner put the callee's body (PI_LINE_VIA: the call's
 * line on the body's blocks), the body's blocks are the call's line's
 * when entries are counted (not listed, and its loops not the line's), so
 * that the line is not entered again on the way back from the body.  A
 * part GCC's early ipa-split cut off (PI_FUNC_PART) is entered from the
 * lines gcov's whole function is on where the part begins
 * (add_part_entry).
 */
#include <stdlib.h>
#include <string.h>

#include "model.h"

struct garc {
    uint32_t src, dst;      /* gcov blocks; src UINT32_MAX: the function's entry */
    uint64_t count;
    int64_t cs;             /* what cycles have not used up yet */
};

struct gblk {
    uint64_t count;
    int unlisted;           /* GCC's last block: gcov lists it under no line */
    int edge;               /* gcov's block on an edge (PI_ARC_BLOCK) */
    int lined;              /* it has lines (PI_LINE_VIA's too) */
    int part_last;          /* the last block of a part GCC's early ipa-split cut off: in
                               gcov's whole function, on the way to its origin's last */
    uint32_t pred_first, npred, succ_first, nsucc; /* into the arc lists */
};

struct gline {              /* one (file, line) entry of a block */
    uint32_t file, line, block;
    uint32_t grp;           /* its function's index when gcov groups it (below), else UINT32_MAX */
    int last;               /* the largest line of its run of one file: the block is listed there */
    int via;                /* the line of a call whose inlined body the block is part of (PI_LINE_VIA) */
};

struct graph {
    struct gblk *b;
    size_t nb, capb;
    struct garc *a;
    size_t na, capa;
    uint32_t *pred, *succ;  /* arc indices, grouped by block */
    struct gline *l;
    size_t nl, capl;
    struct gline *v;        /* the PI_LINE_VIA entries, apart from the runs */
    size_t nv, capv;
    size_t run;             /* the first entry of the run of lines being added */
    uint32_t grp;           /* the function being added's group key (struct gline) */
};

static int grow(void **p, size_t *cap, size_t n, size_t sz)
{
    if (n < *cap)
        return 0;
    size_t c = *cap ? 2 * *cap : 64;
    void *q = realloc(*p, c * sz);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

static int add_block(struct graph *g, uint64_t count, uint32_t *id)
{
    if (grow((void **)&g->b, &g->capb, g->nb, sizeof *g->b))
        return -1;
    memset(&g->b[g->nb], 0, sizeof *g->b);
    g->b[g->nb].count = count;
    *id = (uint32_t)g->nb++;
    return 0;
}

static int add_arc(struct graph *g, uint32_t src, uint32_t dst, uint64_t count)
{
    if (grow((void **)&g->a, &g->capa, g->na, sizeof *g->a))
        return -1;
    g->a[g->na++] = (struct garc){ src, dst, count, 0 };
    return 0;
}

/* The run of one file's lines that ends here lists its block under its
 * largest line (gcov sorts each run's lines, then lists the block under
 * the last). */
static void end_run(struct graph *g)
{
    size_t top = g->run;
    if (top >= g->nl)
        return;
    for (size_t i = g->run + 1; i < g->nl; i++)
        if (g->l[i].line > g->l[top].line)
            top = i;
    g->l[top].last = 1;
    g->run = g->nl;
}

static int add_line(struct graph *g, uint32_t file, uint32_t line, uint32_t block)
{
    if (grow((void **)&g->l, &g->capl, g->nl, sizeof *g->l))
        return -1;
    /* the previous entry of the block, in another file: it ended a run */
    if (g->nl && g->l[g->nl - 1].block == block && g->l[g->nl - 1].file != file)
        end_run(g);
    g->l[g->nl++] = (struct gline){ file, line, block, g->grp, 0, 0 };
    g->b[block].lined = 1;
    return 0;
}

static int add_via(struct graph *g, uint32_t file, uint32_t line, uint32_t block)
{
    if (grow((void **)&g->v, &g->capv, g->nv, sizeof *g->v))
        return -1;
    g->v[g->nv++] = (struct gline){ file, line, block, g->grp, 0, 1 };
    g->b[block].lined = 1;
    return 0;
}

static void end_lines(struct graph *g, uint32_t block)
{
    if (g->nl && g->l[g->nl - 1].block == block)
        end_run(g);
    g->run = g->nl;
}

/* The lines site k lists in its last gcov block (after its last PI_LINE_END
 * mark; the largest of each run of one file's lines, where gcov lists the
 * block; not the lines of calls its inlined bodies came through; none if it
 * is the function's last, which gcov lists under no line), added to block
 * b, each a run of its own.  Returns how many, or -1. */
static int add_last_lines(struct graph *g, const struct pi_unit_view *u, uint32_t k, uint32_t b)
{
    const struct pi_site *s = &u->sites[k];
    uint32_t from = s->line_first, end = s->line_first + s->nlines;
    int n = 0;
    for (uint32_t i = s->line_first; i < end; i++)
        if (!u->lines[i].file && u->lines[i].line == PI_LINE_END)
            from = i + 1;
    for (uint32_t i = from; i < end; i++)
        if (!u->lines[i].file && u->lines[i].line == PI_LINE_LAST)
            return 0; /* the function's last block: gcov lists it under no line */
    /* the runs as add_function makes them: a file's run ends at another
       file's line or a PI_LINE_RUN mark, not at a call's (PI_LINE_VIA) */
    uint32_t file = 0, top = 0;
    for (uint32_t i = from; i <= end; i++) {
        const struct pi_line *l = i < end ? &u->lines[i] : NULL;
        if (l && !l->file && l->line == PI_LINE_VIA) {
            i++;
            continue;
        }
        if (l && l->file && l->file == file) {
            if (l->line > top)
                top = l->line;
            continue;
        }
        if (file) {
            if (add_line(g, file, top, b))
                return -1;
            end_lines(g, b);
            n++;
        }
        file = l && l->file ? l->file : 0;
        top = l && l->file ? l->line : 0;
    }
    return n;
}

/* The lines gcov's whole function F is on where its part F.part.N (fn)
 * begins: GCC's early ipa-split left a call of the part in a block of F
 * (or of F's front inlined into a caller) that has no code of F's, and
 * gcov's F goes on from the block before it, on that block's lines, into
 * the part's first block.  An entry of the part into a line that block is
 * on is no entry of the line in gcov's F (libuv's uv_timer_stop, a macro
 * whose test stays in F and whose decrement went to the part: timer.c:105
 * counted twice).  The lines go on a block b of their own that no arc
 * enters, from which the part's entry arc then comes; b is UINT32_MAX when
 * no call of the part is found in the unit.  Returns -1 when out of memory. */
static int add_part_entry(struct graph *g, const struct pi_unit_view *u, const struct pi_func *fn, uint32_t *b)
{
    *b = UINT32_MAX;
    const char *name = pi_unit_str(u, fn->name);
    if (!name || !*name)
        return 0;
    for (uint32_t k = 0; k < u->hdr.nsites; k++) {
        const struct pi_site *c = &u->sites[k];
        const char *callee;
        if (c->kind != PI_SITE_CALL || c->arg >= u->hdr.nsites || u->sites[c->arg].kind != PI_SITE_BLOCK ||
            !(callee = pi_unit_str(u, c->region)) || strcmp(callee, name))
            continue;
        uint32_t cb = c->arg;
        const struct pi_func *caller = &u->funcs[u->sites[cb].func];
        if (*b == UINT32_MAX && add_block(g, 0, b))
            return -1;
        int n = add_last_lines(g, u, cb, *b);
        if (n < 0)
            return -1;
        if (n) /* the call's block has code of F's: gcov's F goes on from it */
            continue;
        for (uint32_t a = caller->first_arc; a < caller->first_arc + caller->narcs; a++)
            if (u->arcs[a].dst == cb && u->arcs[a].src != PI_NONE && u->sites[u->arcs[a].src].kind == PI_SITE_BLOCK &&
                add_last_lines(g, u, u->arcs[a].src, *b) < 0)
                return -1;
    }
    return 0;
}

/* gcov's blocks and arcs of function f (which has arcs). */
static int add_function(struct graph *g, const struct pi_unit_view *u, const struct pi_func *fn,
                        const uint64_t *site, const uint64_t *arc)
{
    uint32_t *first = malloc((fn->nsites ? fn->nsites : 1) * sizeof *first);
    uint32_t *last = malloc((fn->nsites ? fn->nsites : 1) * sizeof *last);
    uint32_t part_entry = UINT32_MAX;
    if (!first || !last)
        goto oom;
    if ((fn->directives & PI_FUNC_PART) && add_part_entry(g, u, fn, &part_entry))
        goto oom;
    for (uint32_t k = 0; k < fn->nsites; k++) {
        const struct pi_site *s = &u->sites[fn->first_site + k];
        uint64_t c = site[fn->first_site + k];
        uint32_t b;
        first[k] = last[k] = UINT32_MAX;
        if (s->kind != PI_SITE_BLOCK)
            continue;
        if (add_block(g, c, &b))
            goto oom;
        first[k] = b;
        /* what left the block without an arc (its fake arc's count), taken
           to have left it at its last call that may not return but is not
           its last statement: the last piece runs that much less (exact
           with one such call; a block without successors ends in the call
           that did not return, and every piece ran) */
        uint64_t gone = 0, fake = 0;
        uint32_t nsplit = 0;
        int real_out = 0;
        for (uint32_t i = s->line_first; i < s->line_first + s->nlines; i++)
            nsplit += !u->lines[i].file && u->lines[i].line == PI_LINE_END;
        for (uint32_t a = fn->first_arc; nsplit && a < fn->first_arc + fn->narcs; a++)
            if (u->arcs[a].src == fn->first_site + k) {
                if (u->arcs[a].flags & PI_ARC_FAKE)
                    fake = arc[a];
                else
                    real_out = 1;
            }
        if (real_out)
            gone = fake < c ? fake : c;
        for (uint32_t i = s->line_first; i < s->line_first + s->nlines; i++) {
            const struct pi_line *l = &u->lines[i];
            if (!l->file && l->line == PI_LINE_VIA) {
                if (++i < s->line_first + s->nlines && add_via(g, u->lines[i].file, u->lines[i].line, b))
                    goto oom;
                continue;
            }
            if (l->file) {
                if (add_line(g, l->file, l->line, b))
                    goto oom;
                continue;
            }
            if (l->line == PI_LINE_LAST) {
                g->b[b].unlisted = 1;
                g->b[b].part_last = !!(fn->directives & PI_FUNC_PART);
                continue;
            }
            if (l->line == PI_LINE_RUN) {
                if (g->nl && g->l[g->nl - 1].block == b)
                    end_run(g);
                continue;
            }
            /* a call that may not return ends a gcov block */
            end_lines(g, b);
            uint32_t nb;
            uint64_t nc = --nsplit ? c : c - gone;
            if (add_block(g, nc, &nb) || add_arc(g, b, nb, nc))
                goto oom;
            b = nb;
        }
        /* the part's entry block, where it has no line (the split's own
           block, not in gcov's F): on the lines gcov's F is on there */
        if (k == 0 && part_entry != UINT32_MAX && !g->b[b].lined) {
            size_t n = g->nl;
            for (size_t i = 0; i < n; i++)
                if (g->l[i].block == part_entry) {
                    if (add_line(g, g->l[i].file, g->l[i].line, b))
                        goto oom;
                    end_lines(g, b);
                }
        }
        end_lines(g, b);
        last[k] = b;
    }
    for (uint32_t i = fn->first_arc; i < fn->first_arc + fn->narcs; i++) {
        const struct pi_arc *x = &u->arcs[i];
        uint32_t s = x->src == PI_NONE ? UINT32_MAX : x->src - fn->first_site;
        uint32_t d = x->dst == PI_NONE ? UINT32_MAX : x->dst - fn->first_site;
        if (d == UINT32_MAX || (s != UINT32_MAX && last[s] == UINT32_MAX) || first[d] == UINT32_MAX)
            continue; /* to the exit: no line is entered */
        uint32_t from = s == UINT32_MAX ? part_entry : last[s];
        if (x->flags & PI_ARC_BLOCK) {
            /* gcov's block on the edge; or (PI_ARC_PHI) not gcov's: the
               line of a PHI argument, counted by the edge's executions (a
               block of its own that the function's entry enters that
               often), the arc going straight on, so that no other line
               sees a block between its blocks */
            int phi = !!(x->flags & PI_ARC_PHI);
            uint32_t e;
            if (add_block(g, arc[i], &e) || add_arc(g, phi ? UINT32_MAX : from, e, arc[i]))
                goto oom;
            if (x->line && add_line(g, x->file, x->line, e))
                goto oom;
            g->b[e].unlisted = !!(x->flags & PI_ARC_LAST);
            g->b[e].edge = !phi;
            end_lines(g, e);
            if (!phi)
                from = e;
        }
        if (add_arc(g, from, first[d], arc[i]))
            goto oom;
    }
    free(first);
    free(last);
    return 0;
oom:
    free(first);
    free(last);
    return -1;
}

/* Arcs by destination and by source (counting sort). */
static int index_arcs(struct graph *g)
{
    g->pred = malloc((g->na ? g->na : 1) * sizeof *g->pred);
    g->succ = malloc((g->na ? g->na : 1) * sizeof *g->succ);
    if (!g->pred || !g->succ)
        return -1;
    for (size_t i = 0; i < g->na; i++) {
        if (g->a[i].src != UINT32_MAX)
            g->b[g->a[i].src].nsucc++;
        g->b[g->a[i].dst].npred++;
    }
    uint32_t p = 0, s = 0;
    for (size_t k = 0; k < g->nb; k++) {
        g->b[k].pred_first = p;
        g->b[k].succ_first = s;
        p += g->b[k].npred;
        s += g->b[k].nsucc;
        g->b[k].npred = g->b[k].nsucc = 0;
    }
    for (size_t i = 0; i < g->na; i++) { /* (in arc order: gcov's order of a block's arcs) */
        struct gblk *d = &g->b[g->a[i].dst];
        g->pred[d->pred_first + d->npred++] = (uint32_t)i;
        if (g->a[i].src != UINT32_MAX) {
            struct gblk *o = &g->b[g->a[i].src];
            g->succ[o->succ_first + o->nsucc++] = (uint32_t)i;
        }
    }
    return 0;
}

/* ---- the loops within a line (gcov.cc get_cycles_count) ------------------- */

struct cycles {
    const struct graph *g;
    const uint32_t *line_blocks;    /* the line's blocks, sorted */
    size_t n;
    const uint32_t *anchors;        /* those a loop must pass to be the line's, sorted */
    size_t nanchors;
    uint32_t *path;                 /* arcs */
    size_t npath;
    uint32_t *blocked;              /* blocks, with their lists */
    uint32_t **lists;
    size_t *nlist;
    size_t nblocked;
    int64_t count;
};

static int in_sorted(const uint32_t *v, size_t n, uint32_t b)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < b)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && v[lo] == b;
}

static int on_line(const struct cycles *c, uint32_t b)
{
    return in_sorted(c->line_blocks, c->n, b);
}

/* Does the cycle on the path pass one of the line's anchors? */
static int anchored(const struct cycles *c)
{
    for (size_t i = 0; i < c->npath; i++)
        if (in_sorted(c->anchors, c->nanchors, c->g->a[c->path[i]].dst))
            return 1;
    return 0;
}

static long find_blocked(const struct cycles *c, uint32_t b)
{
    for (size_t i = 0; i < c->nblocked; i++)
        if (c->blocked[i] == b)
            return (long)i;
    return -1;
}

static void unblock(struct cycles *c, uint32_t u)
{
    long i = find_blocked(c, u);
    if (i < 0)
        return;
    uint32_t *list = c->lists[i];
    size_t n = c->nlist[i];
    memmove(&c->blocked[i], &c->blocked[i + 1], (c->nblocked - i - 1) * sizeof *c->blocked);
    memmove(&c->lists[i], &c->lists[i + 1], (c->nblocked - i - 1) * sizeof *c->lists);
    memmove(&c->nlist[i], &c->nlist[i + 1], (c->nblocked - i - 1) * sizeof *c->nlist);
    c->nblocked--;
    for (size_t k = 0; k < n; k++)
        unblock(c, list[k]);
    free(list);
}

static int circuit(struct cycles *c, uint32_t v, uint32_t start)
{
    struct garc *a = c->g->a;
    const struct gblk *bv = &c->g->b[v];
    int found = 0;
    c->blocked[c->nblocked] = v;
    c->lists[c->nblocked] = NULL;
    c->nlist[c->nblocked] = 0;
    c->nblocked++;
    for (uint32_t k = 0; k < bv->nsucc; k++) {
        uint32_t e = c->g->succ[bv->succ_first + k], w = a[e].dst;
        if (w < start || a[e].cs <= 0 || !on_line(c, w))
            continue;
        c->path[c->npath++] = e;
        if (w == start && !anchored(c)) /* a loop inside an inlined body: not the call's line's */
            found = 1;
        else if (w == start) { /* a cycle: its least-taken arc counts it, and is used up */
            int64_t m = INT64_MAX;
            for (size_t i = 0; i < c->npath; i++)
                if (a[c->path[i]].cs < m)
                    m = a[c->path[i]].cs;
            c->count += m;
            for (size_t i = 0; i < c->npath; i++)
                a[c->path[i]].cs -= m;
            found = 1;
        } else {
            int used_up = 0;
            for (size_t i = 0; i < c->npath; i++)
                used_up |= a[c->path[i]].cs <= 0;
            if (!used_up && find_blocked(c, w) < 0)
                found |= circuit(c, w, start);
        }
        c->npath--;
    }
    if (found)
        unblock(c, v);
    else
        for (uint32_t k = 0; k < bv->nsucc; k++) {
            uint32_t e = c->g->succ[bv->succ_first + k], w = a[e].dst;
            if (w < start || a[e].cs <= 0 || !on_line(c, w))
                continue;
            long i = find_blocked(c, w);
            if (i < 0)
                continue;
            int there = 0;
            for (size_t j = 0; j < c->nlist[i]; j++)
                there |= c->lists[i][j] == v;
            if (!there) {
                uint32_t *l = realloc(c->lists[i], (c->nlist[i] + 1) * sizeof *l);
                if (l) {
                    c->lists[i] = l;
                    l[c->nlist[i]++] = v;
                }
            }
        }
    return found;
}

/* Does the arc from block B into block D stay on the line of an inlined
 * call (D or B's way in one of the body's blocks, which the line does not
 * list)?  B is gcov's block on an edge out of the body (its goto's line is
 * the callee's `return`), or a block without lines that only the line's
 * blocks enter (an arm of a `?:` of the call's arguments): through it the
 * line is not entered again. */
static int stays_on_line(const struct cycles *c, uint32_t b, uint32_t d)
{
    const struct graph *g = c->g;
    if (b == UINT32_MAX || !(g->b[b].edge || !g->b[b].lined) || !g->b[b].npred)
        return 0;
    int body = !in_sorted(c->anchors, c->nanchors, d);
    for (uint32_t k = 0; k < g->b[b].npred; k++) {
        uint32_t p = g->a[g->pred[g->b[b].pred_first + k]].src;
        if (p == UINT32_MAX || !on_line(c, p))
            return 0;
        body |= !in_sorted(c->anchors, c->nanchors, p);
    }
    return body && (g->b[b].npred == 1 || !g->b[b].lined);
}

/* The count of the line whose blocks are bl[0..n) (sorted): the arcs that
 * enter them from elsewhere, and the loops among them that pass one of
 * an[0..na) (sorted; the blocks the line lists, not only an inlined
 * body's). */
static uint64_t line_count(struct graph *g, const uint32_t *bl, size_t n, const uint32_t *an, size_t na)
{
    struct cycles c = { .g = g, .line_blocks = bl, .n = n, .anchors = an, .nanchors = na };
    int64_t count = 0;
    for (size_t i = 0; i < n; i++) {
        const struct gblk *b = &g->b[bl[i]];
        for (uint32_t k = 0; k < b->npred; k++) {
            const struct garc *x = &g->a[g->pred[b->pred_first + k]];
            if ((x->src == UINT32_MAX || !on_line(&c, x->src)) && !stays_on_line(&c, x->src, bl[i]))
                count += (int64_t)x->count;
        }
        for (uint32_t k = 0; k < b->nsucc; k++) {
            struct garc *x = &g->a[g->succ[b->succ_first + k]];
            x->cs = (int64_t)x->count;
        }
    }
    /* a path visits each block once: n arcs and n blocked entries at most */
    c.path = malloc((n + 1) * sizeof *c.path);
    c.blocked = malloc((n + 1) * sizeof *c.blocked);
    c.lists = malloc((n + 1) * sizeof *c.lists);
    c.nlist = malloc((n + 1) * sizeof *c.nlist);
    if (c.path && c.blocked && c.lists && c.nlist)
        for (size_t i = 0; i < n; i++) {
            c.npath = c.nblocked = 0;
            circuit(&c, bl[i], bl[i]);
            for (size_t k = 0; k < c.nblocked; k++)
                free(c.lists[k]);
        }
    free(c.path);
    free(c.blocked);
    free(c.lists);
    free(c.nlist);
    count += c.count;
    return count > 0 ? (uint64_t)count : 0;
}

static int cmp_u32(const void *p, const void *q)
{
    uint32_t x = *(const uint32_t *)p, y = *(const uint32_t *)q;
    return x < y ? -1 : x > y;
}

/* Sorts v[0..n) and drops repeats; returns how many are left. */
static size_t sort_unique(uint32_t *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_u32);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!k || v[k - 1] != v[i])
            v[k++] = v[i];
    return k;
}

static int cmp_gline(const void *p, const void *q)
{
    const struct gline *x = p, *y = q;
    PI_CMP_RET(x->file, y->file);
    PI_CMP_RET(x->line, y->line);
    PI_CMP_RET(x->grp, y->grp);
    return x->block < y->block ? -1 : x->block > y->block;
}

/* gcov groups the functions that start on one line of one file (C++
 * template instances, a file included twice to define two functions:
 * gawk's interpret.h, r_interpret and h_interpret): it counts each one's
 * lines apart, by its rule, then adds them up (gcov.cc
 * accumulate_line_counts), where the blocks of other functions on a line
 * are counted together.  Function F's key: F's index in such a group,
 * else UINT32_MAX.  A part GCC's early ipa-split cut off (PI_FUNC_PART,
 * its definition's line) is counted with its origin, the group's function
 * whose name it continues with ".part.". */
static int same_start(const struct pi_func *a, const struct pi_func *b)
{
    return a->file == b->file && a->line == b->line;
}

static uint32_t group_key(const struct pi_unit_view *u, uint32_t f)
{
    const struct pi_func *fn = &u->funcs[f];
    uint32_t n = 0, only = UINT32_MAX;
    for (uint32_t k = 0; k < u->hdr.nfuncs; k++)
        if (u->funcs[k].narcs && !(u->funcs[k].directives & PI_FUNC_PART) && same_start(&u->funcs[k], fn)) {
            n++;
            only = k;
        }
    if (n < 2)
        return UINT32_MAX;
    if (!(fn->directives & PI_FUNC_PART))
        return f;
    const char *name = pi_unit_str(u, fn->name);
    for (uint32_t k = 0; k < u->hdr.nfuncs; k++) {
        const char *o = pi_unit_str(u, u->funcs[k].name);
        size_t len = o ? strlen(o) : 0;
        if (u->funcs[k].narcs && !(u->funcs[k].directives & PI_FUNC_PART) && same_start(&u->funcs[k], fn) &&
            name && len && !strncmp(name, o, len) && !strncmp(name + len, ".part.", 6))
            return k;
    }
    return only;
}

int rep_gcov_lines(const struct model *md, const struct pi_unit_view *u, struct line_row **rows,
                   size_t *nrows, size_t *cap)
{
    const struct usum *s = &md->us[u - md->m.units];
    struct graph g;
    memset(&g, 0, sizeof g);
    uint64_t *none = NULL;
    const uint64_t *site = s->site, *arc = s->arc;
    if (!site || !arc) { /* no trace counted the unit: every count 0 */
        none = calloc((u->hdr.nsites > u->hdr.narcs ? u->hdr.nsites : u->hdr.narcs) + 1, sizeof *none);
        if (!none)
            return rep_oom();
        site = arc = none;
    }
    int status = 0;
    for (uint32_t f = 0; f < u->hdr.nfuncs && !status; f++)
        if (u->funcs[f].narcs) {
            g.grp = group_key(u, f);
            status = add_function(&g, u, &u->funcs[f], site, arc);
        }
    /* the calls' lines, with the others now that the runs are made */
    for (size_t i = 0; !status && i < g.nv; i++) {
        status = grow((void **)&g.l, &g.capl, g.nl, sizeof *g.l);
        if (!status)
            g.l[g.nl++] = g.v[i];
    }
    if (!status && g.nl)
        status = index_arcs(&g);
    uint32_t *bl = NULL, *an = NULL, *pl = NULL;
    if (!status && g.nl) {
        qsort(g.l, g.nl, sizeof *g.l, cmp_gline);
        bl = malloc(g.nl * sizeof *bl);
        an = malloc(g.nl * sizeof *an);
        pl = malloc(g.nl * sizeof *pl);
        status = !bl || !an || !pl;
    }
    for (size_t i = 0; !status && i < g.nl;) {
        size_t j = i;
        uint64_t total = 0;
        while (j < g.nl && g.l[j].file == g.l[i].file && g.l[j].line == g.l[i].line) {
            /* one function of a group, or the rest (struct gline's grp) */
            size_t n = 0, na = 0, np = 0, nv = 0;
            uint32_t grp = g.l[j].grp;
            uint64_t spans = 0; /* (a line with no block of its own) */
            /* a split part's last block, where its origin's last block has
               the line too (the function's closing brace): gcov's whole
               function has one, which every call runs through, the
               origin's; the part's would count its runs again */
            int origin_last = 0;
            for (size_t k = j; k < g.nl && g.l[k].file == g.l[i].file && g.l[k].line == g.l[i].line && g.l[k].grp == grp; k++)
                origin_last |= g.b[g.l[k].block].unlisted && !g.b[g.l[k].block].part_last;
            /* bl: the blocks the line lists (an), then the inlined
               bodies of its calls (PI_LINE_VIA: at -O0 the call, one
               statement of the line), and where it lists none, the
               blocks that pass over it (pl) */
            for (; j < g.nl && g.l[j].file == g.l[i].file && g.l[j].line == g.l[i].line && g.l[j].grp == grp; j++) {
                uint32_t b = g.l[j].block;
                if (g.l[j].via) {
                    bl[nv++] = b;
                    continue;
                }
                if (!(origin_last && g.b[b].part_last))
                    spans = pm_sat_add(spans, g.b[b].count);
                if (!np || pl[np - 1] != b)
                    pl[np++] = b;
                if (g.l[j].last && !g.b[b].unlisted && (!na || an[na - 1] != b))
                    an[na++] = b;
            }
            if (!nv) {
                memcpy(bl, an, na * sizeof *bl);
                total = pm_sat_add(total, na ? line_count(&g, bl, na, an, na) : spans);
                continue;
            }
            if (!na) { /* (the blocks that pass over it anchor its loops) */
                memcpy(an, pl, np * sizeof *an);
                na = np;
            }
            memcpy(bl + nv, an, na * sizeof *bl);
            n = sort_unique(bl, nv + na);
            total = pm_sat_add(total, line_count(&g, bl, n, an, na));
        }
        if (grow((void **)rows, cap, *nrows, sizeof **rows)) {
            status = -1;
            break;
        }
        (*rows)[(*nrows)++] = (struct line_row){ .file = pm_unit_file(u, g.l[i].file),
                                                 .line = g.l[i].line,
                                                 .count = total,
                                                 .unit_id = u->hdr.unit_id };
        i = j;
    }
    free(bl);
    free(an);
    free(pl);
    free(none);
    free(g.b);
    free(g.a);
    free(g.pred);
    free(g.succ);
    free(g.l);
    free(g.v);
    return status ? rep_oom() : 0;
}
