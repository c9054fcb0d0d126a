/* export-stacks.c — the calling-context tree as folded stacks and as a
 * flame graph SVG (docs/sampling-stacks.md).
 *
 * Folded stacks (Brendan Gregg's format, what flamegraph.pl, speedscope and
 * inferno read): one line per distinct stack, root first, frames joined by
 * ';', a space and the count:
 *
 *     main;mid_a;mid_b;leaf_spin 385
 *
 * The flame graph is a self-contained SVG 1.1 file: one <g> per node with a
 * <title> (the tooltip a browser shows: name, count, percentage) and a
 * <rect> whose width is the node's cumulative count; the root ("all") at
 * the bottom, callees above their callers, siblings sorted by name (as
 * flamegraph.pl does, so that the same stacks always give the same
 * picture).  Text is XML-escaped.
 */
#define _GNU_SOURCE /* qsort_r */
#include "stacks.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pmopt.h"

/* ---- folded ---------------------------------------------------------------------------------- */

static int fold(const struct stk_tree *t, uint32_t n, const int *w, char *path, size_t len,
                size_t cap, FILE *f)
{
    const struct stk_node *nd = &t->nodes[n];
    size_t at = len;
    if (n) {
        size_t k = strlen(nd->name);
        if (len + k + 2 >= cap)
            return -1;
        if (len)
            path[at++] = ';';
        for (size_t i = 0; i < k; i++) /* ';' and ' ' would break the format */
            path[at++] = nd->name[i] == ';' || nd->name[i] == ' ' ? '_' : nd->name[i];
        path[at] = 0;
        uint64_t self = stk_count(nd, w, 1);
        if (self)
            fprintf(f, "%s %llu\n", path, (unsigned long long)self);
    }
    size_t nc;
    uint32_t *c = stk_children(t, n, w, &nc);
    int rc = 0;
    for (size_t i = 0; i < nc && !rc; i++)
        rc = fold(t, c[i], w, path, at, cap, f);
    free(c);
    return rc;
}

int export_folded(const struct stk_tree *t, const int *w, FILE *f)
{
    size_t cap = 1 << 20;
    char *path = malloc(cap);
    if (!path)
        return -1;
    path[0] = 0;
    int rc = fold(t, 0, w, path, 0, cap, f);
    free(path);
    return rc;
}

/* ---- flame graph --------------------------------------------------------------------------------- */

#define FG_WIDTH 1200.0
#define FG_PAD 10.0
#define FG_FRAME 16.0
#define FG_TOP 40.0

static void xml_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default: /* control bytes and non-ASCII (symbols are ASCII): '?', so the file always parses */
            if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
                fputc('?', f);
            else
                fputc(*s, f);
        }
    }
}

static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static int by_name_tree_cmp(const void *a, const void *b, void *ctx)
{
    const struct stk_tree *t = ctx;
    return strcmp(t->nodes[*(const uint32_t *)a].name, t->nodes[*(const uint32_t *)b].name);
}

struct fg {
    const struct stk_tree *t;
    const int *w;
    const struct stk_tree *base; /* a differential graph: the tree compared with */
    double base_scale;           /* base's counts times this */
    double maxdelta;             /* the largest |new - base| of a frame drawn */
    double scale;               /* pixels per sample */
    uint32_t maxdepth;
    double height;
    uint64_t all;
    FILE *f;
};

static uint32_t max_depth(const struct stk_tree *t, const int *w, uint32_t n)
{
    uint32_t d = t->nodes[n].depth;
    for (uint32_t c = t->nodes[n].first_child; c; c = t->nodes[c].next_sibling)
        if (stk_count(&t->nodes[c], w, 0)) {
            uint32_t k = max_depth(t, w, c);
            d = k > d ? k : d;
        }
    return d;
}

/* The node of g->base on the same path of names as node n of g->t (whose
 * parent's is bp), UINT32_MAX if none. */
static uint32_t base_node(const struct fg *g, uint32_t n, uint32_t bp)
{
    if (!n)
        return 0;
    if (bp == UINT32_MAX)
        return UINT32_MAX;
    uint32_t b = stk_find(g->base, bp, g->t->nodes[n].name);
    return b ? b : UINT32_MAX;
}

static double base_count(const struct fg *g, uint32_t bn)
{
    return bn == UINT32_MAX ? 0 : (double)stk_count(&g->base->nodes[bn], g->w, 0) * g->base_scale;
}

/* The largest change of a frame that will be drawn. */
static void max_delta(struct fg *g, uint32_t n, uint32_t bn)
{
    double cnt = (double)stk_count(&g->t->nodes[n], g->w, 0);
    if (cnt * g->scale < 0.1)
        return;
    double d = fabs(cnt - base_count(g, bn));
    if (n && d > g->maxdelta)
        g->maxdelta = d;
    for (uint32_t c = g->t->nodes[n].first_child; c; c = g->t->nodes[c].next_sibling)
        max_delta(g, c, base_node(g, c, bn));
}

static void fg_node(struct fg *g, uint32_t n, double x, uint32_t bn)
{
    const struct stk_node *nd = &g->t->nodes[n];
    uint64_t cnt = stk_count(nd, g->w, 0);
    double wpx = (double)cnt * g->scale;
    if (wpx < 0.1)
        return;
    double y = g->height - FG_PAD - FG_FRAME * (nd->depth + 1);
    uint32_t h = name_hash(nd->name);
    int r = 205 + (int)(h % 50), gr = 60 + (int)((h >> 8) % 150), b = 40 + (int)((h >> 16) % 40);
    double before = 0, delta = 0;
    if (g->base) { /* red grew, blue shrank, white the same */
        before = base_count(g, bn);
        delta = (double)cnt - before;
        int v = 245 - (int)(g->maxdelta > 0 ? 200.0 * fabs(delta) / g->maxdelta : 0);
        r = delta > 0 ? 255 : v, gr = v, b = delta < 0 ? 255 : v;
    }
    if (n == 0)
        r = 200, gr = 200, b = 200;
    fprintf(g->f, "<g>\n<title>");
    xml_text(g->f, nd->name);
    if (*nd->file) {
        fprintf(g->f, " (");
        xml_text(g->f, pm_basename(nd->file));
        fprintf(g->f, ":%u)", nd->line);
    }
    if (g->base && before > 0)
        fprintf(g->f, ": %.0f samples before, %llu after, %+.0f (%+.1f%%)</title>\n", before,
                (unsigned long long)cnt, delta, 100.0 * delta / before);
    else if (g->base)
        fprintf(g->f, ": 0 samples before, %llu after (new)</title>\n", (unsigned long long)cnt);
    else
        fprintf(g->f, ": %llu samples, %.2f%%</title>\n", (unsigned long long)cnt,
                g->all ? 100.0 * (double)cnt / (double)g->all : 0.0);
    fprintf(g->f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"rgb(%d,%d,%d)\" "
                  "rx=\"2\" ry=\"2\"/>\n", x, y, wpx, FG_FRAME - 1, r, gr, b);
    /* as many characters as fit (about 7 px each at 12 px) */
    size_t fit = wpx > 21 ? (size_t)((wpx - 6) / 7) : 0;
    if (fit >= 3) {
        size_t len = strlen(nd->name);
        char buf[256];
        if (len <= fit && len < sizeof buf)
            snprintf(buf, sizeof buf, "%s", nd->name);
        else {
            size_t k = fit - 2 < sizeof buf - 3 ? fit - 2 : sizeof buf - 3;
            memcpy(buf, nd->name, k);
            strcpy(buf + k, "..");
        }
        fprintf(g->f, "<text x=\"%.2f\" y=\"%.1f\">", x + 3, y + FG_FRAME - 5);
        xml_text(g->f, buf);
        fprintf(g->f, "</text>\n");
    }
    fprintf(g->f, "</g>\n");
    size_t nc;
    uint32_t *c = stk_children(g->t, n, g->w, &nc);
    if (!c)
        return;
    qsort_r(c, nc, sizeof *c, by_name_tree_cmp, (void *)g->t);
    for (size_t i = 0; i < nc; i++) {
        fg_node(g, c[i], x, g->base ? base_node(g, c[i], bn) : UINT32_MAX);
        x += (double)stk_count(&g->t->nodes[c[i]], g->w, 0) * g->scale;
    }
    free(c);
}

static int flamegraph(const struct stk_tree *t, const struct stk_tree *base, double base_scale,
                      const int *w, const char *title, FILE *f, int embedded);

int export_flamegraph(const struct stk_tree *t, const int *w, const char *title, FILE *f)
{
    return export_flamegraph_svg(t, w, title, f, 0);
}

int export_flamegraph_svg(const struct stk_tree *t, const int *w, const char *title, FILE *f, int embedded)
{
    return flamegraph(t, NULL, 1, w, title, f, embedded);
}

int export_flamegraph_diff(const struct stk_tree *base, const struct stk_tree *t, const int *w,
                           double base_scale, const char *title, FILE *f)
{
    return flamegraph(t, base, base_scale, w, title, f, 0);
}

/* The one flame graph writer: a standalone file (with the XML declaration)
 * or, with embedded, an <svg> element for an HTML page (pmopt report
 * --html, report-tree.c); with base, coloured by the change from base
 * (pmopt diff).  Its style rules are scoped to svg.pi-flame, so that inside
 * a page they style this picture only. */
static int flamegraph(const struct stk_tree *t, const struct stk_tree *base, double base_scale,
                      const int *w, const char *title, FILE *f, int embedded)
{
    struct fg g = {.t = t, .w = w, .f = f, .base = base, .base_scale = base_scale};
    g.all = stk_count(&t->nodes[0], w, 0);
    g.maxdepth = max_depth(t, w, 0);
    g.height = FG_TOP + FG_FRAME * (g.maxdepth + 1) + 2 * FG_PAD;
    g.scale = g.all ? (FG_WIDTH - 2 * FG_PAD) / (double)g.all : 0;
    if (!embedded)
        fputs("<?xml version=\"1.0\" standalone=\"no\"?>\n", f);
    fprintf(f, "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" class=\"pi-flame\" "
               "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n",
            FG_WIDTH, g.height, FG_WIDTH, g.height);
    fprintf(f, "<style>svg.pi-flame text { font-family: monospace; font-size: 12px; fill: #000; } "
               "svg.pi-flame g:hover rect { stroke: #000; stroke-width: 1; }</style>\n");
    fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#f8f8f0\"/>\n", FG_WIDTH,
            g.height);
    fprintf(f, "<text x=\"%.0f\" y=\"24\" text-anchor=\"middle\" style=\"font-size:17px\">",
            FG_WIDTH / 2);
    xml_text(f, title);
    fprintf(f, "</text>\n");
    if (base && g.all)
        max_delta(&g, 0, 0);
    if (g.all)
        fg_node(&g, 0, FG_PAD, 0);
    fprintf(f, "</svg>\n");
    return ferror(f) ? -1 : 0;
}
