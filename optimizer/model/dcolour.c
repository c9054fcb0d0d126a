/* dcolour.c — data colouring shared by the plan and the relink (dcolour.h,
 * docs/layout.md "Data colouring"): the pieces of hot data objects per
 * output section, their packing into a stable part and the reserved sets
 * (rsv_pack, as for code), the linker-script lines that put each piece at
 * its page offset, and the check of the linked program's addresses. */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dcolour.h"
#include "pmopt.h"

int dc_out_of(const char *secname)
{
    if (!strncmp(secname, ".rodata.", 8))
        return DC_RODATA;
    if (!strncmp(secname, ".data.rel.ro", 12))
        return -1; /* relro data keeps its place (docs/layout.md "Data order") */
    if (!strncmp(secname, ".data.", 6))
        return DC_DATA;
    if (!strncmp(secname, ".bss.", 5))
        return DC_BSS;
    return -1;
}

static int in_list(char *const *v, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(v[i], s))
            return 1;
    return 0;
}

/* Is O one of the sections of object SYM's piece in output section OUT? */
static int piece_sec(const struct osec *o, const char *sym, int out)
{
    return o->kind != OS_TEXT && !strcmp(o->sym, sym) && dc_out_of(o->name) == out;
}

int dc_items(const struct oscan *s, char *const *names, size_t n, char *const *ovf, size_t no,
             const uint64_t *w, struct dc_item **out, size_t *nout)
{
    struct dc_item *it = NULL;
    size_t ni = 0, cap = 0;
    for (int k = 0; k < DC_NOUT; k++) {
        for (size_t i = 0; i < n; i++) {
            if (in_list(names, i, names[i]))
                continue; /* a name listed twice is one piece */
            struct dc_item d = { .sym = names[i], .out = k, .align = 1 };
            size_t scap = 0;
            for (size_t j = 0; j < s->nsecs; j++) {
                const struct osec *o = &s->secs[j];
                if (!piece_sec(o, names[i], k))
                    continue;
                int dup = 0;
                for (size_t q = 0; q < d.nsecs && !dup; q++)
                    dup = !strcmp(d.secs[q], o->name);
                if (!dup) {
                    if (pi_grow((void **)&d.secs, &scap, d.nsecs, sizeof *d.secs))
                        goto oom;
                    d.secs[d.nsecs++] = o->name;
                }
                d.size = (d.size + o->align - 1) / o->align * o->align + o->size;
                if (o->align > d.align)
                    d.align = o->align;
                if (w)
                    d.weight = pm_sat_add(d.weight, w[j]);
            }
            if (!d.nsecs)
                continue;
            d.overflow = in_list(ovf, no, names[i]);
            if (pi_grow((void **)&it, &cap, ni, sizeof *it)) {
                free(d.secs);
                goto oom;
            }
            it[ni++] = d;
        }
    }
    *out = it, *nout = ni;
    return 0;
oom:
    dc_items_free(it, ni);
    *out = NULL, *nout = 0;
    return -1;
}

void dc_items_free(struct dc_item *it, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(it[i].secs);
    free(it);
}

int dc_layout(const struct reserve *rv, struct dc_item *it, size_t n, uint64_t *stable_end)
{
    uint64_t *a = calloc(6 * n + 1, sizeof *a), end;
    size_t *ix = malloc((2 * n + 1) * sizeof *ix);
    if (!a || !ix) {
        free(a), free(ix);
        return -1;
    }
    uint64_t *ss = a, *sa = a + n, *os = a + 2 * n, *oa = a + 3 * n, *so = a + 4 * n,
             *oo = a + 5 * n;
    size_t *si = ix, *oi = ix + n, ns = 0, no = 0;
    for (size_t i = 0; i < n; i++) {
        if (it[i].overflow)
            os[no] = it[i].size, oa[no] = it[i].align, oi[no++] = i;
        else
            ss[ns] = it[i].size, sa[ns] = it[i].align, si[ns++] = i;
    }
    rsv_pack(rv, ss, sa, ns, os, oa, no, so, oo, &end);
    *stable_end = 0;
    for (size_t i = 0; i < ns; i++) {
        it[si[i]].off = so[i];
        if (so[i] + ss[i] > *stable_end)
            *stable_end = so[i] + ss[i];
    }
    for (size_t i = 0; i < no; i++)
        it[oi[i]].off = oo[i];
    for (int k = 0; k < DC_NOUT; k++) {
        uint64_t lo = UINT64_MAX;
        for (size_t i = 0; i < n; i++)
            if (it[i].out == k && it[i].off < lo)
                lo = it[i].off;
        lo = lo / rv->page * rv->page;
        for (size_t i = 0; i < n; i++)
            if (it[i].out == k)
                it[i].rel = it[i].off - lo;
    }
    free(a), free(ix);
    return 0;
}

static const char *const out_name[DC_NOUT] = { "rodata", "data", "bss" };

size_t dc_script(FILE *f, int out, const struct dc_item *it, size_t n, const struct reserve *rv)
{
    size_t m = 0, placed = 0;
    for (size_t i = 0; i < n; i++)
        m += it[i].out == out;
    size_t *ix = m ? malloc(m * sizeof *ix) : NULL;
    if (!ix)
        return 0; /* none (or out of memory: the plain data order stands) */
    fprintf(f, "    /* pmopt relink: %zu coloured data objects; the reserved sets are the page "
               "offsets 0x%x-0x%x */\n", m, rv->window, rv->window + rv->size - 1);
    fprintf(f, "    . = ALIGN(0x%x);\n    __perfinst_dcolour_%s = .;\n", rv->page,
            out_name[out]);
    /* in address order: stable and overflow pieces interleave (an
       insertion sort by offset, stable for equal ones: zero-sized pieces) */
    for (size_t i = 0; i < n; i++) {
        if (it[i].out != out)
            continue;
        size_t j = placed++;
        while (j > 0 && it[ix[j - 1]].rel > it[i].rel)
            ix[j] = ix[j - 1], j--;
        ix[j] = i;
    }
    for (size_t q = 0; q < m; q++) {
        const struct dc_item *d = &it[ix[q]];
        fprintf(f, "    . = MAX(., __perfinst_dcolour_%s + 0x%llx);\n    *(", out_name[out],
                (unsigned long long)d->rel);
        for (size_t k = 0; k < d->nsecs; k++)
            fprintf(f, "%s%s", k ? " " : "", d->secs[k]);
        fputs(")\n", f);
    }
    free(ix);
    return m;
}

int dc_verify(const char *prog, const char *shown, const struct dc_item *it, size_t n,
              const struct reserve *rv)
{
    int fd;
    Elf *e = pm_elf_open(prog, &fd);
    struct pm_sym *v = NULL;
    size_t nv = 0;
    int status = 0;
    if (!e) {
        pm_error("%s: cannot read it to check the data colouring: %s", shown, elf_errmsg(-1));
        status = -1;
    } else if (pm_elf_symbols(e, STT_OBJECT, &v, &nv))
        status = -1;
    size_t ovf = 0, ovf_in = 0, st = 0, st_in = 0;
    for (size_t i = 0; i < n && !status; i++) {
        struct pm_sym key = { .name = it[i].sym };
        const struct pm_sym *s = nv ? bsearch(&key, v, nv, sizeof *v, pm_sym_cmp) : NULL;
        if (!s || (s > v && !strcmp(s[-1].name, s->name)) ||
            (s + 1 < v + nv && !strcmp(s[1].name, s->name)))
            continue; /* a static name defined twice: not checked */
        uint64_t po = s->addr & (rv->page - 1), len = s->size ? s->size : it[i].size;
        if (it[i].overflow && it[i].size <= rv->size) {
            ovf++;
            if (po >= rv->window && po + len <= (uint64_t)rv->window + rv->size)
                ovf_in++;
            else
                pm_error("%s: the overflow object %s (0x%llx, %llu bytes) is not in the "
                         "reserved window 0x%x-0x%x: the linker did not follow the script",
                         shown, it[i].sym, (unsigned long long)s->addr,
                         (unsigned long long)len, rv->window, rv->window + rv->size);
        } else if (!it[i].overflow && it[i].size <= rv->window) {
            st++;
            st_in += po + len <= rv->window;
        }
    }
    if (!status) {
        printf("pmopt relink: data colouring: %zu of %zu overflow objects in the reserved window "
               "0x%x-0x%x of each 0x%x-byte page, %zu of %zu stable objects before it\n",
               ovf_in, ovf, rv->window, rv->window + rv->size, rv->page, st_in, st);
        if (ovf_in != ovf)
            status = -1;
    }
    free(v);
    pm_elf_close(e, fd);
    return status;
}

/* ---- the data model: the plan's and the relink's check ----------------------- */

int dc_add_object(struct dc_lines *L, const struct cgeom *g, uint64_t addr, uint64_t size,
                  uint64_t weight, uint32_t region)
{
    if (!size || !weight)
        return 0;
    uint64_t first = addr / g->line, last = (addr + size - 1) / g->line;
    uint64_t nl = last - first + 1, per = weight / nl + (weight % nl != 0);
    for (uint64_t l = first; l <= last; l++) {
        if (pi_grow((void **)&L->v, &L->cap, L->n, sizeof *L->v))
            return -1;
        L->v[L->n++] = (struct cm_line){ l * g->line, per, region };
    }
    return 0;
}

int dc_add_item(struct dc_lines *L, const struct cgeom *g, const struct oscan *s, const uint64_t *w,
                const struct dc_item *d, uint64_t addr, uint32_t region)
{
    uint64_t at = 0;
    for (size_t j = 0; j < s->nsecs; j++) {
        const struct osec *o = &s->secs[j];
        if (!piece_sec(o, d->sym, d->out))
            continue;
        at = (at + o->align - 1) / o->align * o->align;
        if (dc_add_object(L, g, addr + at, o->size, w ? w[j] : 0, region))
            return -1;
        at += o->size;
    }
    return 0;
}

int dc_prog_lines(const char *prog, const struct cgeom *g, const struct dc_item *it, size_t n,
                  struct dc_lines *L)
{
    int fd;
    Elf *e = pm_elf_open(prog, &fd);
    struct pm_sym *ps = NULL;
    size_t nps = 0;
    int status = e && pm_elf_symbols(e, STT_OBJECT, &ps, &nps) ? -1 : 0;
    for (size_t i = 0; i < n && !status; i++) {
        struct pm_sym key = { .name = it[i].sym };
        const struct pm_sym *s = nps ? bsearch(&key, ps, nps, sizeof *ps, pm_sym_cmp) : NULL;
        if (s)
            status = dc_add_object(L, g, s->addr, s->size ? s->size : it[i].size, it[i].weight,
                                   (uint32_t)i);
    }
    free(ps);
    pm_elf_close(e, fd);
    return status;
}

uint64_t dc_cover(struct dc_lines *L)
{
    L->n = cm_fold_lines(L->v, L->n); /* two objects in one line: one line, both weights */
    return cm_cover(L->v, L->n, DC_COVER);
}

int dc_simulate(const struct cgeom *g, struct dc_lines *L, uint64_t min, struct cm_result *r,
                double *che)
{
    size_t k = 0;
    L->n = cm_fold_lines(L->v, L->n);
    for (size_t i = 0; i < L->n; i++)
        if (L->v[i].fetches >= min)
            L->v[k++] = L->v[i];
    L->n = k;
    if (cm_simulate(g, L->v, L->n, r, NULL, NULL, 0))
        return -1;
    return (*che = cm_che_misses(g, L->v, L->n)) < 0 ? -1 : 0;
}
