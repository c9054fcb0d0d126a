/* plan-copies.c — `pmopt plan --copy-map=FILE`: a profile per inlined copy
 * (gcc-plugin/pass-copyprof.cc; docs/layout.md "Inlined copies";
 * experimental).
 *
 * FILE holds one line per counter of an inlined copy, appended by the
 * training build's compilations (-fplugin-arg-perfinst-copy-map=FILE):
 *
 *   UNIT COPY-COUNTER CALLEE COUNTER FN CHAIN
 *
 * COPY-COUNTER counted the executions of CALLEE's COUNTER in the copy of
 * CALLEE that FN's body holds through the inlined calls CHAIN.  For each
 * copy (UNIT, FN, CHAIN, CALLEE) this solves CALLEE's flow on the copy's
 * counters (a counter the copy does not hold, its code gone, counts 0) and
 * writes
 *
 *   copy-profile fn=FN src=FILE callee=CALLEE chain=CHAIN weight=W counts=c,c,...
 *
 * CALLEE's block counts in that copy, in site order (as branch-profile's).
 * A copy that never ran has its zeros too: its
 * call may have run, and the scaled counts would not be zero.  Lines of units PROG does not have are skipped: the file
 * collects every build's lines, the same build's again when it is built again. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "piflow.h"

#define LINE_MAX_CHARS 40000

struct ent {
    uint64_t unit;
    uint32_t twin, k;
    char *callee, *fn, *chain;
};

static int cmp_ent(const void *a, const void *b)
{
    const struct ent *x = a, *y = b;
    int c;
    PI_CMP_RET(x->unit, y->unit);
    if ((c = strcmp(x->fn, y->fn)) || (c = strcmp(x->chain, y->chain)) || (c = strcmp(x->callee, y->callee)))
        return c;
    PI_CMP_RET(x->k, y->k);
    return x->twin < y->twin ? -1 : x->twin > y->twin;
}

static int same_copy(const struct ent *x, const struct ent *y)
{
    return x->unit == y->unit && !strcmp(x->fn, y->fn) && !strcmp(x->chain, y->chain) &&
           !strcmp(x->callee, y->callee);
}

int plan_copies(struct plan *p, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        pm_error("%s: %s", path, strerror(errno));
        return -1;
    }
    struct ent *e = NULL;
    size_t n = 0, cap = 0;
    char line[8192];
    int rc = -1;
    while (fgets(line, sizeof line, f)) {
        char callee[2048], fn[2048], chain[4096];
        unsigned long long unit;
        unsigned twin, k;
        if (sscanf(line, "%llx %u %2047s %u %2047s %4095s", &unit, &twin, callee, &k, fn, chain) != 6) {
            pm_error("%s: a line that is not UNIT COPY-COUNTER CALLEE COUNTER FN CHAIN: %.60s", path, line);
            goto out;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 1024;
            struct ent *x = realloc(e, cap * sizeof *e);
            if (!x) {
                rc = rep_oom();
                goto out;
            }
            e = x;
        }
        e[n++] = (struct ent){ unit, twin, k, strdup(callee), strdup(fn), strdup(chain) };
        if (!e[n - 1].callee || !e[n - 1].fn || !e[n - 1].chain) {
            rc = rep_oom();
            goto out;
        }
    }
    qsort(e, n, sizeof *e, cmp_ent);
    const struct model *md = p->md;
    uint32_t written = 0, ran = 0, copies = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && same_copy(&e[i], &e[j]))
            j++;
        const struct pi_unit_view *u = NULL;
        size_t ui = 0;
        for (; ui < md->m.nunits; ui++)
            if (md->m.units[ui].hdr.unit_id == e[i].unit) {
                u = &md->m.units[ui];
                break;
            }
        const struct usum *us = u ? &md->us[ui] : NULL;
        int32_t fi = -1;
        for (uint32_t x = 0; u && x < u->hdr.nfuncs && fi < 0; x++)
            if (!strcmp(pi_unit_str(u, u->funcs[x].name), e[i].callee))
                fi = (int32_t)x;
        copies += u != NULL;
        if (!u || !us->sums || fi < 0) {
            i = j;
            continue;
        }
        const struct pi_func *pf = &u->funcs[fi];
        uint64_t *ctr = calloc(us->n ? us->n : 1, sizeof *ctr);
        uint64_t *sc = calloc(u->hdr.nsites ? u->hdr.nsites : 1, sizeof *sc);
        uint64_t *ac = calloc(u->hdr.narcs ? u->hdr.narcs : 1, sizeof *ac);
        char *buf = malloc(LINE_MAX_CHARS + 32);
        if (!ctr || !sc || !ac || !buf) {
            free(ctr), free(sc), free(ac), free(buf);
            rc = rep_oom();
            goto out;
        }
        for (size_t x = i; x < j; x++)
            if (e[x].k < us->n && e[x].twin < us->n &&
                (x == i || e[x].k != e[x - 1].k || e[x].twin != e[x - 1].twin)) /* (a build's line again) */
                ctr[e[x].k] = pm_sat_add(ctr[e[x].k], us->sums[e[x].twin]);
        struct pi_flow_stat st = { 0 };
        pi_flow_func(pf, u->sites, u->arcs, ctr, us->n, NULL, sc, ac, &st);
        uint32_t nb = 0;
        while (nb < pf->nsites && u->sites[pf->first_site + nb].kind == PI_SITE_BLOCK)
            nb++;
        uint64_t w = 0;
        size_t len = 0;
        for (uint32_t b = 0; b < nb && len < LINE_MAX_CHARS; b++) {
            w = pm_sat_add(w, sc[pf->first_site + b]);
            len += (size_t)snprintf(buf + len, 32, "%s%llu", b ? "," : "",
                                    (unsigned long long)sc[pf->first_site + b]);
        }
        ran += w != 0;
        if (len < LINE_MAX_CHARS) {
            plan_begin(p, PIFB_COPY_PROFILE);
            plan_arg(p, "fn", e[i].fn);
            plan_arg_src(p, u);
            plan_arg(p, "callee", e[i].callee);
            plan_arg(p, "chain", e[i].chain);
            plan_arg_u64(p, "weight", w);
            plan_arg(p, "counts", buf);
            plan_end(p);
            written++;
        }
        free(ctr), free(sc), free(ac), free(buf);
        i = j;
    }
    fprintf(p->out, "copies: %u inlined copies of PROG's units in %s, %u ran: %u copy-profile recommendations\n", copies, path,
            ran, written);
    rc = 0;
out:
    for (size_t i = 0; i < n; i++)
        free(e[i].callee), free(e[i].fn), free(e[i].chain);
    free(e);
    fclose(f);
    return rc;
}
