/* plan-branches.c — the branch and hot/cold planner of `pmopt plan`
 * (seed 004 M21/M22, seed 000's branch marking; docs/layout.md).
 *
 * For every function of PROG that was counted whole (`count` on the
 * function, or all=count) it writes, from the counts summed over the
 * traces:
 *
 *   branch-profile fn=NAME src=FILE checksum=0x... sites=N first=K weight=W
 *                  counts=c,c,... edges=e,e,...
 *       when the function ran and has a block with several successors:
 *       its block counts in site order and the successor counts of its
 *       blocks with two or more successors (profile.c's edge solver), in
 *       chunks of at most CHUNK_CHARS characters (a feedback line is at
 *       most 64 KiB), each its own recommendation;
 *   function-tier fn=NAME src=FILE tier=hot
 *       the hottest functions that together have --tier-hot percent of
 *       all block executions (99 by default): .text.hot;
 *   function-tier fn=NAME src=FILE tier=cold
 *       functions that never ran in any trace: .text.unlikely.
 *
 * An inline or template function of C++ is a COMDAT: every unit that uses
 * it has a copy, and the link keeps one, whose counts are the function's;
 * the copies it discarded never ran.  The rebuild's link may keep another
 * unit's copy (another inlining, another object order), so a discarded
 * copy (no code in PROG) of a function whose kept copy ran is not cold: it
 * gets the kept copy's branch profile and tier under its own unit's key,
 * when its CFG is the kept copy's (as the same source compiled alike
 * gives), and nothing otherwise.
 *
 * The plugin applies them on rebuild (gcc-plugin/pass-feedback.cc).  The
 * plan also prints the layout's dynamic statistics: measured on PROG, and
 * predicted for the layout the branch profile asks for.
 */
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "profile.h"

#define CHUNK_CHARS 40000
#define SKEWED_PERMILLE 900   /* advice: branches that go one way >= 90% */
#define ADVICE_PER_FUNCTION 5

struct fn {
    const struct pi_unit_view *u;
    uint32_t func;
    uint64_t weight;
    int has_counts;          /* the traces counted the function's unit */
    int has_code;            /* some site of it has code in PROG (the link kept it) */
    int hot;                 /* given tier=hot */
    const struct fn *kept;   /* a discarded COMDAT copy: the copy the link kept */
};

static int cmp_fn(const void *a, const void *b)
{
    const struct fn *x = a, *y = b;
    PI_CMP_RET(y->weight, x->weight);
    PI_CMP_RET(x->u->hdr.unit_id, y->u->hdr.unit_id);
    return x->func < y->func ? -1 : x->func > y->func;
}

static const char *fname(const struct fn *f) /* the linkage name: the plan's key */
{
    return pi_unit_str(f->u, f->u->funcs[f->func].name);
}

static const char *shown(const struct fn *f) /* in the advice */
{
    return pm_func_name(f->u, f->func);
}

static int cmp_unit_func(const void *a, const void *b)
{
    const struct fn *x = *(const struct fn *const *)a, *y = *(const struct fn *const *)b;
    PI_CMP_RET((uintptr_t)x->u, (uintptr_t)y->u);
    return x->func < y->func ? -1 : x->func > y->func;
}

static struct fn *find_fn(struct fn **by, size_t n, const struct func_copy *c)
{
    struct fn key = { .u = c->u, .func = c->func }, *kp = &key;
    struct fn **r = bsearch(&kp, by, n, sizeof *by, cmp_unit_func);
    return r ? *r : NULL;
}

/* Each discarded copy's kept copy: the copy of the same linkage name, file
 * and line (a row of the model's) that has code in PROG. */
static int find_kept(const struct model *md, struct fn *fns, size_t n)
{
    struct fn **by = malloc((n ? n : 1) * sizeof *by);
    if (!by)
        return rep_oom();
    for (size_t i = 0; i < n; i++)
        by[i] = &fns[i];
    qsort(by, n, sizeof *by, cmp_unit_func);
    for (size_t r = 0; r < md->nfuncs; r++) {
        const struct func_row *row = &md->funcs[r];
        for (uint32_t i = 0; i < row->ncopies && row->ncopies > 1; i++) {
            struct fn *d = find_fn(by, n, &row->copies[i]);
            if (!d || d->has_code)
                continue;
            for (uint32_t j = 0; j < row->ncopies && !d->kept; j++) {
                struct fn *k = find_fn(by, n, &row->copies[j]);
                if (k && k != d && k->has_code && !strcmp(fname(k), fname(d)))
                    d->kept = k;
            }
        }
    }
    free(by);
    return 0;
}

static void common_args(struct plan *p, const struct fn *f)
{
    plan_arg(p, "fn", fname(f));
    plan_arg_src(p, f->u);
}

static int tier(struct plan *p, const struct fn *f, const char *t, uint64_t total)
{
    const struct pi_func *fn = &f->u->funcs[f->func];
    uint32_t n = plan_begin(p, PIFB_FUNCTION_TIER);
    common_args(p, f);
    plan_arg(p, "tier", t);
    plan_end(p);
    if (!strcmp(t, "cold"))
        plan_advice(p, n, "%s:%u: %s never ran in training: __attribute__((cold)) "
                    "(.text.unlikely)", pm_unit_file(f->u, fn->file), fn->line, shown(f));
    else
        plan_advice(p, n, "%s:%u: %s has %.1f%% of the block executions: "
                    "__attribute__((hot)) (.text.hot)", pm_unit_file(f->u, fn->file), fn->line,
                    shown(f), total ? 100.0 * (double)f->weight / (double)total : 0.0);
    return 0;
}

/* Advice for a function's skewed branches: the hottest first. */
struct skew {
    uint64_t count, top;
    uint32_t block, to;
};

static int cmp_skew(const void *a, const void *b)
{
    const struct skew *x = a, *y = b;
    PI_CMP_RET(y->count, x->count);
    return x->block < y->block ? -1 : x->block > y->block;
}

static void advise_branches(struct plan *p, uint32_t n, const struct fn *f, const struct fprof *pf)
{
    const struct pi_unit_view *u = f->u;
    struct skew *sk = calloc(pf->nblocks ? pf->nblocks : 1, sizeof *sk);
    if (!sk)
        return;
    size_t ns = 0;
    for (uint32_t b = 0; b < pf->nblocks; b++) {
        const struct pi_site *s = &u->sites[pf->first + b];
        /* (branches with under 1% of the function's block executions are noise) */
        if (s->nsucc < 2 || !pf->count[b] || pf->count[b] * 100 < pf->weight)
            continue;
        uint32_t best = 0;
        for (uint32_t j = 1; j < s->nsucc; j++)
            if (pf->edge[pf->eoff[b] + j] > pf->edge[pf->eoff[b] + best])
                best = j;
        uint64_t top = pf->edge[pf->eoff[b] + best];
        if ((unsigned __int128)top * 1000 >= (unsigned __int128)pf->count[b] * SKEWED_PERMILLE)
            sk[ns++] = (struct skew){ pf->count[b], top, b, u->succs[s->succ_first + best] };
    }
    qsort(sk, ns, sizeof *sk, cmp_skew);
    for (size_t i = 0; i < ns && i < ADVICE_PER_FUNCTION; i++) {
        const struct pi_site *s = &u->sites[pf->first + sk[i].block], *t = &u->sites[sk[i].to];
        plan_advice(p, n, "%s:%u: in %s the branch goes on at line %u in %.1f%% of %llu "
                    "executions: make that the expected path (__builtin_expect)",
                    pm_unit_file(u, s->file), s->line, shown(f), t->line,
                    100.0 * (double)sk[i].top / (double)sk[i].count,
                    (unsigned long long)sk[i].count);
    }
    free(sk);
}

/* "c,c,c" appended to a growing buffer. */
struct buf {
    char *s;
    size_t len, cap;
    int oom;
};

static void put_u64(struct buf *b, uint64_t v)
{
    if (b->oom)
        return;
    if (b->len + 24 > b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 4096;
        char *s = realloc(b->s, cap);
        if (!s) {
            b->oom = 1;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
    b->len += (size_t)snprintf(b->s + b->len, 24, "%s%llu", b->len ? "," : "",
                               (unsigned long long)v);
}

/* F's branch profile, from the counts of AS (F itself, or the copy the
 * link kept of the COMDAT F is a discarded copy of: the same CFG) */
static int branch_profile(struct plan *p, const struct fn *f, const struct fn *as)
{
    struct fprof pf;
    if (pf_load(p->md, as->u, as->func, &pf))
        return -1;
    const struct pi_unit_view *u = as->u;
    int multi = 0;
    for (uint32_t b = 0; b < pf.nblocks && !multi; b++)
        multi = u->sites[pf.first + b].nsucc >= 2;
    if (!multi) {
        pf_free(&pf);
        return 0;
    }
    struct buf cs = { 0 }, es = { 0 };
    uint32_t first = 0, first_number = 0;
    for (uint32_t b = 0; b <= pf.nblocks; b++) {
        int flush = b == pf.nblocks || cs.len + es.len > CHUNK_CHARS;
        if (flush && b > first) {
            uint32_t n = plan_begin(p, PIFB_BRANCH_PROFILE);
            if (!first_number)
                first_number = n;
            common_args(p, f);
            plan_arg_cfg(p, &f->u->funcs[f->func]);
            plan_arg_u64(p, "sites", pf.nblocks);
            plan_arg_u64(p, "first", first);
            plan_arg_u64(p, "weight", pf.weight);
            plan_arg(p, "counts", cs.len ? cs.s : "");
            plan_arg(p, "edges", es.len ? es.s : "");
            plan_end(p);
            cs.len = es.len = 0;
            first = b;
        }
        if (b == pf.nblocks)
            break;
        put_u64(&cs, pf.count[b]);
        const struct pi_site *s = &u->sites[pf.first + b];
        if (s->nsucc >= 2)
            for (uint32_t j = 0; j < s->nsucc; j++)
                put_u64(&es, pf.edge[pf.eoff[b] + j]);
    }
    int oom = cs.oom || es.oom;
    free(cs.s);
    free(es.s);
    if (oom) {
        pf_free(&pf);
        return rep_oom();
    }
    /* (the advice once: the kept copy has it) */
    const struct pi_func *fn = &f->u->funcs[f->func];
    if (f == as) {
        plan_advice(p, first_number, "%s:%u: %s: block and edge counts (%llu block executions, "
                    "%u blocks, %u of %u edges estimated) for GCC's block layout and hot/cold split",
                    pm_unit_file(u, fn->file), fn->line, shown(f), (unsigned long long)pf.weight,
                    pf.nblocks, pf.nestimated, pf.nedges);
        advise_branches(p, first_number, f, &pf);
    }
    pf_free(&pf);
    return 0;
}

int plan_branches(struct plan *p)
{
    const struct model *md = p->md;
    const struct pi_meta *m = &md->m;
    size_t cap = 0, n = 0;
    for (size_t i = 0; i < m->nunits; i++)
        cap += m->units[i].hdr.nfuncs;
    struct fn *fns = calloc(cap ? cap : 1, sizeof *fns);
    if (!fns)
        return rep_oom();
    uint64_t total = 0;
    for (size_t i = 0; i < m->nunits; i++) {
        const struct pi_unit_view *u = &m->units[i];
        for (uint32_t f = 0; f < u->hdr.nfuncs; f++) {
            const struct pi_func *fn = &u->funcs[f];
            if (!(fn->directives & PI_D_COUNT) || !fn->nsites)
                continue;
            struct fn *x = &fns[n++];
            x->u = u;
            x->func = f;
            x->has_counts = md->us[i].sums != NULL;
            for (uint32_t k = fn->first_site; k < fn->first_site + fn->nsites; k++) {
                if (u->sites[k].kind == PI_SITE_BLOCK)
                    x->weight = pm_sat_add(x->weight, rep_site_count(md, u, k));
                x->has_code |= md->us[i].site_addr && md->us[i].site_addr[k];
            }
            total = pm_sat_add(total, x->weight);
        }
    }
    qsort(fns, n, sizeof *fns, cmp_fn);
    if (find_kept(md, fns, n)) {
        free(fns);
        return -1;
    }

    struct dynstats before, predicted;
    if (pf_dynstats(md, &before) || pf_dynstats_predicted(md, &predicted)) {
        free(fns);
        return -1;
    }
    pf_dynstats_print(p->out, "dynamic statistics of PROG (measured)", &before);
    pf_dynstats_print(p->out, "dynamic statistics after the plan (predicted: blocks chained "
                      "along their hottest edges)", &predicted);

    /* hot: the shortest prefix with tier_hot thousandths of a percent */
    __extension__ typedef unsigned __int128 u128;
    u128 want = (u128)total * (u128)p->tier_hot;
    uint64_t cum = 0;
    size_t nhot = 0, ncold = 0, nprof = 0;
    uint32_t before_number = p->number;
    size_t ntwins = 0;
    for (size_t i = 0; i < n; i++) {
        struct fn *f = &fns[i];
        const struct fn *k = f->kept;
        if (!f->weight && k && k->weight) { /* (k came first: heavier) */
            if (k->u->funcs[k->func].cfg_checksum != f->u->funcs[f->func].cfg_checksum)
                continue;
            if (k->hot)
                tier(p, f, "hot", total);
            if (branch_profile(p, f, k)) {
                free(fns);
                return -1;
            }
            ntwins++;
            continue;
        }
        if (!f->weight) {
            if (f->has_counts) {
                tier(p, f, "cold", total);
                ncold++;
            }
            continue;
        }
        if ((u128)cum * 100000 < want) {
            tier(p, f, "hot", total);
            f->hot = 1;
            nhot++;
        }
        cum = pm_sat_add(cum, f->weight);
        uint32_t was = p->number;
        if (branch_profile(p, f, f)) {
            free(fns);
            return -1;
        }
        nprof += p->number != was;
    }
    fprintf(p->out, "branches: %zu functions with a branch profile, %zu hot, %zu cold "
            "(never ran), %u recommendations\n", nprof, nhot, ncold, p->number - before_number);
    if (ntwins)
        fprintf(p->out, "branches: %zu copies of COMDAT functions the link discarded take the "
                "kept copy's profile and tier\n", ntwins);
    free(fns);
    return 0;
}

/* ---- how much of a feedback file still matches a program ------------------ */

struct seen {
    const char *fn, *src, *variant;
};

static int already(const struct seen *s, size_t n, const char *fn, const char *src, const char *variant)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(s[i].fn, fn) && !strcmp(s[i].src, src) &&
            !strcmp(s[i].variant ? s[i].variant : "", variant ? variant : ""))
            return 1;
    return 0;
}

int plan_check_branches(const struct pi_meta *m, const struct pifb_file *fb, FILE *out)
{
    struct seen *seen = calloc(fb->nrecs ? fb->nrecs : 1, sizeof *seen);
    if (!seen)
        return rep_oom();
    size_t nseen = 0;
    uint64_t w[3] = { 0, 0, 0 }; /* matched, stale, missing */
    uint32_t n[3] = { 0, 0, 0 };
    for (uint32_t i = 0; i < fb->nrecs; i++) {
        const struct pifb_rec *rec = &fb->recs[i];
        if (strcmp(rec->kind, PIFB_BRANCH_PROFILE))
            continue;
        const char *fn = pifb_get(rec, "fn"), *src = pifb_get(rec, "src");
        uint64_t sum, weight = 0;
        if (!fn || !src || pifb_get_u64(rec, "checksum", &sum)) {
            pm_error("%s:%u: recommendation %u: branch-profile without fn=, src= or checksum=",
                     fb->path, rec->line, rec->number);
            free(seen);
            return -1;
        }
        /* (variant=: one of several units of the key, plan_arg_src) */
        const char *vs = pifb_get(rec, "variant");
        uint64_t variant = 0;
        if (vs && pifb_get_u64(rec, "variant", &variant))
            vs = NULL;
        if (already(seen, nseen, fn, src, vs))
            continue; /* another chunk of the same function */
        seen[nseen++] = (struct seen){ fn, src, vs };
        pifb_get_u64(rec, "weight", &weight);
        const char *at = pifb_get(rec, "at");
        int late = at && !strcmp(at, "late");
        int how = 2;
        for (size_t k = 0; k < m->nunits && how == 2; k++) {
            const struct pi_unit_view *u = &m->units[k];
            if (strcmp(pi_unit_str(u, u->hdr.source), src) || (vs && plan_unit_variant(u) != variant))
                continue;
            for (uint32_t f = 0; f < u->hdr.nfuncs; f++)
                if (!strcmp(pi_unit_str(u, u->funcs[f].name), fn)) {
                    how = u->funcs[f].cfg_checksum == sum &&
                                  !(u->funcs[f].directives & PI_FUNC_LATE) == !late ? 0 : 1;
                    break;
                }
        }
        n[how]++;
        w[how] = pm_sat_add(w[how], weight);
        if (how)
            fprintf(out, "  %s %s (%s), %llu block executions\n", how == 1 ? "stale  " : "missing",
                    pm_fn_name(fn), src, (unsigned long long)weight);
    }
    uint64_t total = w[0] + w[1] + w[2];
    fprintf(out, "%s: %u of %u function profiles match %s (%.1f%% of the profile's block "
            "executions); %u stale (%.1f%%), %u missing (%.1f%%)\n", fb->path, n[0],
            n[0] + n[1] + n[2], m->path, total ? 100.0 * (double)w[0] / (double)total : 0.0, n[1],
            total ? 100.0 * (double)w[1] / (double)total : 0.0, n[2],
            total ? 100.0 * (double)w[2] / (double)total : 0.0);
    free(seen);
    return 0;
}
