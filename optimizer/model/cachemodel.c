/* cachemodel.c — the software cache model of the chase-tail plan: the
 * machine's L1i geometry, a set-associative LRU cache fed with the cyclic
 * stream of the hot lines, and the packing of a reserved region (layout.h,
 * docs/layout.md "Chase-tail reserved regions"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "order-sets.h"
#include "pmopt.h"

static int pow2(uint32_t v)
{
    return v && !(v & (v - 1));
}

static long sysfs_num(const char *dir, const char *file)
{
    char p[512], buf[64];
    snprintf(p, sizeof p, "%s/%s", dir, file);
    FILE *f = fopen(p, "r");
    if (!f)
        return -1;
    long v = -1;
    if (fgets(buf, sizeof buf, f)) {
        char *end;
        v = strtol(buf, &end, 10);
        if (*end == 'K')
            v *= 1024;
        else if (*end == 'M')
            v *= 1024 * 1024;
    }
    fclose(f);
    return v;
}

int cm_geometry_type(const char *spec, const char *type_want, struct cgeom *g)
{
    g->size = 32768, g->ways = 8, g->line = 64;
    if (spec) {
        unsigned s, w, l;
        char extra;
        if (sscanf(spec, "%u,%u,%u%c", &s, &w, &l, &extra) != 3 || !pow2(l) || !w ||
            s % (w * l) || !pow2(s / (w * l))) {
            pm_error("--%scache=%s: expected SIZE,WAYS,LINE (bytes; LINE and SIZE/(WAYS*LINE) "
                     "powers of two), e.g. 32768,8,64", strcmp(type_want, "Data") ? "" : "d",
                     spec);
            return -1;
        }
        g->size = s, g->ways = w, g->line = l;
    } else {
        const char *root = getenv("PERFINST_SYSFS_CACHE");
        if (!root)
            root = "/sys/devices/system/cpu/cpu0/cache";
        for (int i = 0; i < 8; i++) {
            char dir[512], type[32] = "";
            snprintf(dir, sizeof dir, "%s/index%d", root, i);
            char p[600];
            snprintf(p, sizeof p, "%s/type", dir);
            FILE *f = fopen(p, "r");
            if (!f)
                continue;
            if (!fgets(type, sizeof type, f))
                type[0] = 0;
            fclose(f);
            if (sysfs_num(dir, "level") != 1 || strncmp(type, type_want, strlen(type_want)))
                continue;
            long s = sysfs_num(dir, "size"), w = sysfs_num(dir, "ways_of_associativity"),
                 l = sysfs_num(dir, "coherency_line_size");
            if (s > 0 && w > 0 && l > 0 && pow2((uint32_t)l) && s % (w * l) == 0 &&
                pow2((uint32_t)(s / (w * l))))
                g->size = (uint32_t)s, g->ways = (uint32_t)w, g->line = (uint32_t)l;
            break;
        }
    }
    g->sets = g->size / (g->ways * g->line);
    return 0;
}

int cm_geometry(const char *spec, struct cgeom *g)
{
    return cm_geometry_type(spec, "Instruction", g);
}

static int by_addr(const void *a, const void *b)
{
    const struct cm_line *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

#define CM_ROUNDS 4

int cm_simulate(const struct cgeom *g, const struct cm_line *lines, size_t n,
                struct cm_result *res, uint64_t *rh, uint64_t *rm, size_t nregions)
{
    memset(res, 0, sizeof *res);
    struct cm_line *v = malloc((n ? n : 1) * sizeof *v);
    uint64_t *tag = malloc((size_t)g->sets * g->ways * sizeof *tag); /* MRU first */
    uint32_t *per = calloc(g->sets, sizeof *per);
    if (!v || !tag || !per) {
        free(v), free(tag), free(per);
        return -1;
    }
    memcpy(v, lines, n * sizeof *v);
    qsort(v, n, sizeof *v, by_addr);
    for (size_t i = 0; i < (size_t)g->sets * g->ways; i++)
        tag[i] = UINT64_MAX;
    for (size_t i = 0; i < n; i++)
        per[(v[i].addr / g->line) % g->sets]++;
    for (uint32_t s = 0; s < g->sets; s++) {
        if (per[s] > g->ways)
            res->overfull_sets++;
        if (per[s] > res->max_per_set)
            res->max_per_set = per[s];
    }
    res->lines = (uint32_t)n;
    if (rh)
        memset(rh, 0, nregions * sizeof *rh), memset(rm, 0, nregions * sizeof *rm);
    for (int round = 0; round < CM_ROUNDS; round++) {
        for (size_t i = 0; i < n; i++) {
            uint64_t ln = v[i].addr / g->line;
            uint64_t *set = tag + (ln % g->sets) * g->ways;
            uint32_t w = 0;
            while (w < g->ways && set[w] != ln)
                w++;
            int hit = w < g->ways;
            if (!hit)
                w = g->ways - 1; /* evict the LRU way */
            memmove(set + 1, set, w * sizeof *set);
            set[0] = ln;
            if (round == 0)
                continue; /* warming up */
            /* a line's fetches are spread over the measured rounds */
            uint64_t f = v[i].fetches;
            res->fetches += f;
            if (hit)
                res->hits += f;
            else
                res->misses += f;
            if (rh && v[i].region < nregions)
                (hit ? rh : rm)[v[i].region] += f;
        }
    }
    /* every measured round counted the full fetches: scale back to one */
    res->fetches /= CM_ROUNDS - 1, res->hits /= CM_ROUNDS - 1, res->misses /= CM_ROUNDS - 1;
    for (size_t i = 0; rh && i < nregions; i++)
        rh[i] /= CM_ROUNDS - 1, rm[i] /= CM_ROUNDS - 1;
    free(v), free(tag), free(per);
    return 0;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return a > 1 ? (v + a - 1) / a * a : v;
}

void rsv_pack(const struct reserve *r, const uint64_t *ssize, const uint64_t *salign, size_t ns,
              const uint64_t *osize, const uint64_t *oalign, size_t no, uint64_t *soff,
              uint64_t *ooff, uint64_t *end)
{
    uint64_t sp = 0;         /* next free byte of the stable windows */
    uint64_t op = r->window; /* next free byte of the reserved windows */
    uint64_t P = r->page, W = r->window, Z = r->size;
    for (size_t i = 0; i < ns; i++) {
        uint64_t at = align_up(sp, salign[i]);
        uint64_t pg = at / P * P;
        /* a piece that does not fit in the rest of this page's stable
         * window starts the next page (unless it could never fit) */
        if (at - pg + ssize[i] > W && ssize[i] <= W)
            at = pg + P;
        soff[i] = at;
        sp = at + ssize[i];
        /* a piece longer than the window runs over the reserved window */
    }
    for (size_t i = 0; i < no; i++) {
        if (osize[i] > Z) {
            ooff[i] = UINT64_MAX;
            continue;
        }
        uint64_t at = align_up(op, oalign[i]);
        uint64_t pg = at / P * P;
        if (at - pg < W)
            at = pg + W;
        if (at - pg - W + osize[i] > Z)
            at = pg + P + W;
        /* never on top of stable code that ran over its window */
        for (size_t k = 0; k < ns; k++)
            if (soff[k] < at + osize[i] && at < soff[k] + ssize[k]) {
                at = (soff[k] + ssize[k] + P - 1) / P * P + W;
                k = (size_t)-1;
            }
        ooff[i] = at;
        op = at + osize[i];
    }
    uint64_t e = sp;
    for (size_t i = 0; i < no; i++)
        if (ooff[i] != UINT64_MAX && ooff[i] + osize[i] > e)
            e = ooff[i] + osize[i];
    for (size_t i = 0; i < no; i++)
        if (ooff[i] == UINT64_MAX) {
            ooff[i] = align_up(e, oalign[i]);
            e = ooff[i] + osize[i];
        }
    *end = e;
}

static int by_line_addr(const void *a, const void *b)
{
    const struct cm_line *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

size_t cm_fold_lines(struct cm_line *v, size_t n)
{
    if (n)
        qsort(v, n, sizeof *v, by_line_addr);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (k && v[k - 1].addr == v[i].addr)
            v[k - 1].fetches = pm_sat_add(v[k - 1].fetches, v[i].fetches);
        else
            v[k++] = v[i];
    }
    return k;
}

double cm_hit_ratio(const struct cm_result *c)
{
    return c->fetches ? (double)c->hits / (double)c->fetches : 1.0;
}

static int by_fetches_desc(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x > y ? -1 : x < y;
}

uint64_t cm_cover(const struct cm_line *v, size_t n, int percent)
{
    uint64_t *f = malloc((n ? n : 1) * sizeof *f), total = 0, cum = 0, t = 1;
    if (!f)
        return 1;
    for (size_t i = 0; i < n; i++)
        f[i] = v[i].fetches, total = pm_sat_add(total, v[i].fetches);
    qsort(f, n, sizeof *f, by_fetches_desc);
    __extension__ typedef unsigned __int128 u128;
    for (size_t i = 0; i < n; i++) {
        cum = pm_sat_add(cum, f[i]);
        t = f[i];
        if ((u128)cum * 100 >= (u128)total * (unsigned)percent)
            break;
    }
    free(f);
    return t ? t : 1;
}

double cm_che_misses(const struct cgeom *g, const struct cm_line *v, size_t n)
{
    size_t *at = calloc((size_t)g->sets + 1, sizeof *at);
    size_t *fill = malloc(((size_t)g->sets + 1) * sizeof *fill);
    uint64_t *f = malloc((n ? n : 1) * sizeof *f);
    double m = -1;
    if (at && fill && f) {
        for (size_t i = 0; i < n; i++)
            at[(v[i].addr / g->line) % g->sets + 1]++;
        for (uint32_t s = 0; s < g->sets; s++)
            at[s + 1] += at[s];
        memcpy(fill, at, ((size_t)g->sets + 1) * sizeof *fill);
        for (size_t i = 0; i < n; i++)
            f[fill[(v[i].addr / g->line) % g->sets]++] = v[i].fetches;
        m = 0;
        for (uint32_t s = 0; s < g->sets; s++)
            m += ord_che_set(f + at[s], at[s + 1] - at[s], g->ways);
    }
    free(at), free(fill), free(f);
    return m;
}

int cm_compare(const struct cm_result *a, double che_a, const struct cm_result *b, double che_b)
{
    return cm_compare_margin(a, che_a, b, che_b, 0);
}

int cm_compare_margin(const struct cm_result *a, double che_a, const struct cm_result *b, double che_b,
                      double margin)
{
    __extension__ typedef unsigned __int128 u128;
    u128 ha = (u128)a->hits * (b->fetches ? b->fetches : 1),
         hb = (u128)b->hits * (a->fetches ? a->fetches : 1);
    if (ha != hb && !(margin > 0 && fabs(cm_hit_ratio(a) - cm_hit_ratio(b)) < margin))
        return ha > hb ? 1 : -1;
    if (che_a > che_b * (1 + 1e-9))
        return -1;
    if (che_a < che_b * (1 - 1e-9))
        return 1;
    return 0;
}

void cm_print_result(const char *what, const char *ratio_name, const char *events,
                     const struct cgeom *g, const struct cm_result *c)
{
    printf("  %-22s %6u hot lines (%llu KiB of %u KiB), %3u of %u sets over %u ways (max %u): "
           "%s %.3f, %llu misses of %llu %s\n",
           what, c->lines, (unsigned long long)c->lines * g->line / 1024, g->size / 1024,
           c->overfull_sets, g->sets, g->ways, c->max_per_set, ratio_name, cm_hit_ratio(c),
           (unsigned long long)c->misses, (unsigned long long)c->fetches, events);
}
