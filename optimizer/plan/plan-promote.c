/* plan-promote.c — indirect calls with a dominant target, for the rebuild
 * loop to promote (docs/layout.md "Promoted indirect calls").
 *
 * The training build (all=count) records every (call site, target) pair of
 * a call through a pointer (ICALL records, runtime/icall.c).  For each call
 * site of a function counted whole whose most frequent target has at least
 * --promote-share percent (75) of the site's calls and at least
 * --promote-min-calls calls (1000), and is a function of PROG (DWARF or
 * the symbol table, at its entry), the plan writes
 *
 *   promote-call fn=NAME src=FILE checksum=0x... block=B call=K target=T
 *                target-file=F calls=C total=N line=L
 *
 * keyed like branch-profile (the caller's assembler name, its unit's
 * source, its CFG checksum); B is the position of the call's block in the
 * function's block sites (pass-count's numbering, the site's arg minus the
 * function's first site), K counts the calls without callee before it in
 * the same block (pass-count adds call sites in statement order), T the
 * target's name, F the file that declares it (the plugin tells a static
 * function from another unit by it), C the target's calls and N the
 * site's.  gcc-plugin/pass-promote.cc applies it; `--advise` prints it.
 */
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "profile.h"

struct site_calls {
    const struct pi_unit_view *u;
    uint32_t site;
    uint64_t total, top, target; /* the site's calls; the top target's calls, address */
};

static int cmp_icall(const void *a, const void *b)
{
    const struct pi_rec_icall *x = a, *y = b;
    PI_CMP_RET(x->unit_id, y->unit_id);
    PI_CMP_RET(x->site, y->site);
    PI_CMP_RET(y->count, x->count);
    return x->target < y->target ? -1 : x->target > y->target;
}

static int cmp_hot(const void *a, const void *b)
{
    const struct site_calls *x = a, *y = b;
    PI_CMP_RET(y->top, x->top);
    PI_CMP_RET(x->u->hdr.unit_id, y->u->hdr.unit_id);
    return x->site < y->site ? -1 : x->site > y->site;
}

int plan_promote(struct plan *p)
{
    const struct model *md = p->md;
    const struct pi_trace *t = rind_combined(md);
    if (!p->promote_share || !t || !t->nicalls)
        return 0;
    if (!md->have_dbg) {
        fprintf(p->out, "promote: no symbols or DWARF in %s: indirect-call targets cannot be named\n",
                md->prog);
        return 0;
    }
    struct pi_rec_icall *ic = malloc(t->nicalls * sizeof *ic);
    struct site_calls *sc = calloc(t->nicalls, sizeof *sc);
    if (!ic || !sc) {
        free(ic);
        free(sc);
        return rep_oom();
    }
    memcpy(ic, t->icalls, t->nicalls * sizeof *ic);
    qsort(ic, t->nicalls, sizeof *ic, cmp_icall);
    size_t ns = 0, nsites = 0, nweak = 0, nfew = 0, nforeign = 0;
    for (size_t i = 0; i < t->nicalls;) {
        size_t j = i;
        uint64_t total = 0;
        while (j < t->nicalls && ic[j].unit_id == ic[i].unit_id && ic[j].site == ic[i].site)
            total = pm_sat_add(total, ic[j++].count);
        const struct pi_unit_view *u = ic[i].site == PI_NONE ? NULL : pi_meta_unit(&md->m, ic[i].unit_id);
        if (u && ic[i].site < u->hdr.nsites && u->sites[ic[i].site].kind == PI_SITE_CALL && total) {
            nsites++;
            /* ic[i]: the site's most frequent target (sorted by count) */
            if ((unsigned __int128)ic[i].count * 100000 < (unsigned __int128)total * (uint64_t)p->promote_share)
                nweak++;
            else if (ic[i].count < p->promote_min)
                nfew++;
            else
                sc[ns++] = (struct site_calls){ u, ic[i].site, total, ic[i].count, ic[i].target };
        }
        i = j;
    }
    qsort(sc, ns, sizeof *sc, cmp_hot);
    size_t nrecs = 0;
    for (size_t i = 0; i < ns; i++) {
        const struct pi_unit_view *u = sc[i].u;
        const struct pi_site *s = &u->sites[sc[i].site];
        const struct pi_dfunc *df = pi_debug_func(&md->dbg, sc[i].target);
        if (s->func >= u->hdr.nfuncs || !df || !df->name || df->lo != sc[i].target) {
            nforeign++; /* a library's function, the runtime's, or not at an entry */
            continue;
        }
        const struct pi_func *fn = &u->funcs[s->func];
        if (!(fn->directives & PI_D_COUNT) || s->arg < fn->first_site ||
            s->arg >= fn->first_site + fn->nsites || u->sites[s->arg].kind != PI_SITE_BLOCK)
            continue;
        uint32_t k = 0;
        for (uint32_t q = fn->first_site; q < sc[i].site; q++) {
            const struct pi_site *o = &u->sites[q];
            if (o->kind == PI_SITE_CALL && o->func == s->func && o->arg == s->arg &&
                !*pi_unit_str(u, o->region))
                k++;
        }
        const char *caller = pi_unit_str(u, fn->name);
        const char *target = pm_fn_key(pm_dfunc_linkage(df)); /* what the plugin matches */
        uint32_t n = plan_begin(p, PIFB_PROMOTE_CALL);
        plan_arg(p, "fn", caller);
        plan_arg_src(p, u);
        plan_arg_cfg(p, fn);
        plan_arg_u64(p, "block", s->arg - fn->first_site);
        plan_arg_u64(p, "call", k);
        plan_arg(p, "target", target);
        if (df->file && *df->file)
            plan_arg(p, "target-file", df->file);
        plan_arg_u64(p, "calls", sc[i].top);
        plan_arg_u64(p, "total", sc[i].total);
        plan_arg_u64(p, "line", s->line);
        plan_end(p);
        plan_advice(p, n, "%s:%u: in %s the call through a pointer went to %s in %.1f%% of %llu "
                    "calls: call %s directly when the pointer holds it (the rebuild promotes it: "
                    "a speculative call, the indirect call kept for the other targets)",
                    pm_unit_file(u, s->file), s->line, pm_func_name(u, s->func),
                    pm_dfunc_name(df), 100.0 * (double)sc[i].top / (double)sc[i].total,
                    (unsigned long long)sc[i].total, pm_dfunc_name(df));
        nrecs++;
    }
    fprintf(p->out, "promote: %zu indirect call sites ran; %zu promoted (a target with >= %ld.%03ld%% "
            "of the calls and >= %llu calls), %zu below the share, %zu below the calls, %zu "
            "target outside the program's functions\n", nsites, nrecs, p->promote_share / 1000,
            p->promote_share % 1000, (unsigned long long)p->promote_min, nweak, nfew, nforeign);
    free(ic);
    free(sc);
    return 0;
}
