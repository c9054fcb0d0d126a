/* pmopt plan --expand-callers[=K] — seed 000's recursive caller selection
 * (claims 5/10/15): the callers that threshold events found become the
 * functions the next run counts.
 *
 * The functions of PROG already selected ("on") are
 *   - with a trace that ran under an overlay (PI_TF_OVERLAY): every
 *     function that executed a block in the traces, plus every function
 *     whose threshold fired;
 *   - otherwise: the functions whose threshold fired.
 * For each threshold event the stack frames[0] (the marked code), frames[1]
 * (its caller), ... is followed outwards while its functions are on; the
 * next K functions of the stack beyond the selected ones are added (K = 1
 * by default): one level per iteration, so that repeating run → plan →
 * run climbs main → A → B → C one caller at a time.
 *
 * An overlay only switches instrumentation the plugin already compiled in:
 * a caller is added only if it is a function of one of PROG's units (built
 * with -fplugin-arg-perfinst-all=count, or marked); one that is not is
 * named in a note and the walk stops there.  Frames are named through
 * PROG's DWARF or symbols (pmopt report --callers does the same).
 *
 * The overlay turns every unit off, then the selected and the added
 * functions on, each after a comment; --advise prints the choice.
 */
#include <stdlib.h>
#include <string.h>

#include "plan.h"

struct sel {
    uint8_t on;        /* selected before this plan */
    uint8_t added;     /* added by this plan */
    uint64_t events;   /* events whose stack reached it as an added caller */
    const char *callee;
};

/* The function of PROG's units named name: the first (unit, func) in unit
 * order; *more says whether another unit has one of that name too. */
static int find_func(const struct pi_meta *m, const char *name, size_t *ui, uint32_t *fi, int *more)
{
    int found = 0;
    *more = 0;
    for (size_t i = 0; i < m->nunits; i++) {
        const struct pi_unit_view *u = &m->units[i];
        for (uint32_t f = 0; f < u->hdr.nfuncs; f++)
            if (!strcmp(pi_unit_str(u, u->funcs[f].name), name)) {
                if (found) {
                    *more = 1;
                    return 1;
                }
                *ui = i;
                *fi = f;
                found = 1;
            }
    }
    return found;
}

static const char *fname(const struct pi_meta *m, size_t ui, uint32_t fi)
{
    return pm_func_name(&m->units[ui], fi);
}

static void comment_str(FILE *f, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        fputc(*p < 0x20 || *p == 0x7f ? '?' : *p, f);
}

int plan_expand_callers(struct model *md, int levels, int advise, char **text, size_t *len)
{
    const struct pi_meta *m = &md->m;
    const struct pi_trace_event *ev;
    size_t nev = rind_events(md, &ev);
    if (!md->have_dbg) {
        pm_error("%s: neither DWARF nor a symbol table: the callers in the events' stacks "
                 "cannot be named", md->prog);
        return -1;
    }
    struct sel **s = calloc(m->nunits ? m->nunits : 1, sizeof *s);
    if (!s)
        return rep_oom();
    int status = 0;
    for (size_t i = 0; i < m->nunits && !status; i++)
        if (!(s[i] = calloc(m->units[i].hdr.nfuncs ? m->units[i].hdr.nfuncs : 1, sizeof **s)))
            status = rep_oom();
    int overlay = 0;
    for (int i = 0; i < md->ntraces; i++)
        overlay |= (md->infos[i].flags & PI_TF_OVERLAY) != 0;
    uint64_t nthr = 0;
    for (size_t i = 0; i < nev && !status; i++) {
        const struct pi_unit_view *u = pi_meta_unit(m, ev[i].ev.unit_id);
        if (!u || ev[i].ev.site >= u->hdr.nsites || ev[i].ev.kind != PI_STAT_THRESHOLD)
            continue;
        s[u - m->units][u->sites[ev[i].ev.site].func].on = 1;
        nthr++;
    }
    if (overlay)
        for (size_t i = 0; i < md->ncopies; i++)
            if (md->copies[i].blocks)
                s[md->copies[i].u - m->units][md->copies[i].func].on = 1;
    if (!nthr && !status) {
        pm_error("the traces hold no threshold event of %s: no stack to take callers from "
                 "(mark a function threshold(count=N))", md->prog);
        status = -1;
    }
    /* the stacks, outwards from the marked code */
    size_t unnamed = 0;
    const char *missing = NULL;
    for (size_t i = 0; i < nev && !status; i++) {
        const struct pi_unit_view *u = pi_meta_unit(m, ev[i].ev.unit_id);
        if (!u || ev[i].ev.site >= u->hdr.nsites || ev[i].ev.kind != PI_STAT_THRESHOLD)
            continue;
        size_t cu = u - m->units;
        uint32_t cf = u->sites[ev[i].ev.site].func;
        int added = 0;
        for (uint32_t k = 1; k < ev[i].ev.nframes && added < levels; k++) {
            uint64_t a = ev[i].frames[k] ? ev[i].frames[k] - 1 : 0;
            const struct pi_dfunc *df = a ? pi_debug_func(&md->dbg, a) : NULL;
            if (!df) {
                unnamed++;
                break; /* outside PROG (libc's start, a library) */
            }
            size_t ui;
            uint32_t fi;
            int more;
            if (!find_func(m, pm_fn_key(pm_dfunc_linkage(df)), &ui, &fi, &more)) {
                missing = pm_dfunc_name(df);
                break;
            }
            if (more)
                pm_note("several units of %s have a function %s: the first is chosen",
                        md->prog, pm_dfunc_name(df));
            if (ui == cu && fi == cf)
                continue; /* recursion, or the marked function's own frames */
            struct sel *x = &s[ui][fi];
            if (!x->on) {
                if (!x->added)
                    x->callee = fname(m, cu, cf);
                x->added = 1;
                x->events++;
                added++;
            }
            cu = ui;
            cf = fi;
        }
    }
    if (missing)
        pm_note("%s calls marked or selected code but is not instrumented in %s: an overlay "
                "only switches functions the plugin compiled in (build with "
                "-fplugin-arg-perfinst-all=count or mark it)", missing, md->prog);
    (void)unnamed;
    size_t non = 0, nadd = 0;
    for (size_t i = 0; i < m->nunits; i++)
        for (uint32_t f = 0; f < m->units[i].hdr.nfuncs; f++) {
            non += s[i][f].on;
            nadd += s[i][f].added;
        }
    FILE *f = NULL;
    char rule[PI_OVERLAY_LINE_MAX];
    if (!status && !(f = advise ? stdout : open_memstream(text, len)))
        status = rep_oom();
    if (!status) {
        if (!advise) {
            fprintf(f, PI_OVERLAY_HEADER "\n# pmopt plan --expand-callers=%d ", levels);
            comment_str(f, md->prog);
            fprintf(f, " (build-id %s), %d trace%s, %llu threshold events\n", md->bid, md->ntraces,
                    md->ntraces == 1 ? "" : "s", (unsigned long long)nthr);
            fprintf(f, "# %zu function%s selected before, %zu caller%s added\n", non,
                    non == 1 ? "" : "s", nadd, nadd == 1 ? "" : "s");
            for (size_t i = 0; i < m->nunits; i++)
                fputs(pi_overlay_rule_line(rule, &(struct pi_overlay_rule){
                                               m->units[i].hdr.unit_id, PI_OVERLAY_ALL, 0 }), f);
        } else {
            printf("pmopt plan --expand-callers=%d: %s (build-id %s), %d trace%s, %llu "
                   "threshold events\n", levels, md->prog, md->bid, md->ntraces,
                   md->ntraces == 1 ? "" : "s", (unsigned long long)nthr);
            printf("%zu function%s selected before, %zu caller%s added:\n", non,
                   non == 1 ? "" : "s", nadd, nadd == 1 ? "" : "s");
        }
        for (int pass = 0; pass < 2; pass++)
            for (size_t i = 0; i < m->nunits; i++)
                for (uint32_t fi = 0; fi < m->units[i].hdr.nfuncs; fi++) {
                    const struct sel *x = &s[i][fi];
                    if (pass == 0 ? !x->on : !x->added)
                        continue;
                    const char *name = fname(m, i, fi);
                    if (advise) {
                        printf("  %-8s %-24s unit 0x%016llx function %u", pass ? "added" : "selected",
                               name, (unsigned long long)m->units[i].hdr.unit_id, fi);
                        if (pass)
                            printf("  (caller of %s, %llu events)", x->callee,
                                   (unsigned long long)x->events);
                        printf("\n");
                        continue;
                    }
                    fputs("# ", f);
                    comment_str(f, name);
                    if (pass) {
                        fputs("  caller of ", f);
                        comment_str(f, x->callee);
                        fprintf(f, ", %llu events", (unsigned long long)x->events);
                    } else {
                        fputs("  selected", f);
                    }
                    fputc('\n', f);
                    fputs(pi_overlay_rule_line(rule, &(struct pi_overlay_rule){
                                                   m->units[i].hdr.unit_id, fi, 1 }), f);
                }
        if (!nadd && !missing)
            pm_note("no new caller: every function on the events' stacks in %s is selected "
                    "already", md->prog);
        if (!advise && (fclose(f) || !*text))
            status = rep_oom();
    }
    for (size_t i = 0; i < m->nunits; i++)
        free(s[i]);
    free(s);
    return status;
}
