/* view-watch.c — `pmopt report`'s view of the watched data: the WATCH
 * records' words, reads and writes per word, named through PROG's DWARF
 * (`table[2]`, `recs[1].hot`) when the word lies in PROG's module and image,
 * else `heap/stack` with its run-time address (run-dependent); and per data
 * site (PI_SITE_DATA, watch-sites) the watched object as the plugin named it
 * (`table`, `struct point.x`), read or write, and the accesses its
 * PI_STAT_WATCH SITESTAT saw. Its text, JSON and CSV are here together
 * (report-ind.c calls them). */
#include <stdlib.h>
#include <string.h>

#include "report-ind.h"

static int cmp_wword_key(const void *a, const void *b)
{
    const struct wword *x = a, *y = b;
    PI_CMP_RET(x->cls, y->cls);
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int cmp_wword(const void *a, const void *b)
{
    const struct wword *x = a, *y = b;
    uint64_t tx = pm_sat_add(x->reads, x->writes), ty = pm_sat_add(y->reads, y->writes);
    PI_CMP_RET(ty, tx);
    return cmp_wword_key(a, b);
}

static int cmp_wsite(const void *a, const void *b)
{
    const struct wsite *x = a, *y = b;
    PI_CMP_RET(y->accesses, x->accesses);
    const struct pi_site *sx = &x->u->sites[x->site], *sy = &y->u->sites[y->site];
    int c = strcmp(pm_unit_file(x->u, sx->file), pm_unit_file(y->u, sy->file));
    if (c)
        return c;
    PI_CMP_RET(sx->line, sy->line);
    PI_CMP_RET(x->u->hdr.unit_id, y->u->hdr.unit_id);
    return x->site < y->site ? -1 : x->site > y->site;
}

int build_watch(struct report *r)
{
    struct ind_views *iv = r->iv;
    const struct pi_meta *m = &r->md.m;
    /* words: one per key, summed, then named */
    size_t n = 0;
    if (r->md.ir.nwwords)
        qsort(r->md.ir.wwords, r->md.ir.nwwords, sizeof *r->md.ir.wwords, cmp_wword_key);
    for (size_t i = 0; i < r->md.ir.nwwords; i++) {
        struct wword *d = n ? &r->md.ir.wwords[n - 1] : NULL;
        if (d && !cmp_wword_key(d, &r->md.ir.wwords[i])) {
            d->reads = pm_sat_add(d->reads, r->md.ir.wwords[i].reads);
            d->writes = pm_sat_add(d->writes, r->md.ir.wwords[i].writes);
            continue;
        }
        r->md.ir.wwords[n++] = r->md.ir.wwords[i];
    }
    r->md.ir.nwwords = n;
    int have_vars = 0;
    for (size_t i = 0; i < r->md.ir.nwwords && r->md.have_dbg && !have_vars; i++)
        if (r->md.ir.wwords[i].cls == W_PROG) {
            struct pi_err err;
            int had_warning = r->md.dbg.warning[0] != 0;
            if (pi_debug_read_vars(&r->md.dbg, &err))
                pm_note("%s: watched words are not named: %s", r->md.prog, err.msg);
            else
                have_vars = 1;
            if (!had_warning && r->md.dbg.warning[0])
                pm_note("%s", r->md.dbg.warning);
        }
    for (size_t i = 0; i < r->md.ir.nwwords; i++) {
        struct wword *w = &r->md.ir.wwords[i];
        char name[512] = "heap/stack";
        if (w->cls == W_PROG) {
            const struct pi_dvar *v = have_vars ? pi_debug_var(&r->md.dbg, w->addr, w->addr + r->md.ir.wgran)
                                                : NULL;
            if (v) {
                pi_debug_var_name(&r->md.dbg, v, w->addr > v->addr ? w->addr : v->addr, name,
                                  sizeof name);
                w->is_var = 1;
            } else {
                snprintf(name, sizeof name, "?");
            }
        }
        if (!(w->name = strdup(name)))
            return rep_oom();
        iv->wnamed = i + 1;
    }
    if (r->md.ir.nwwords)
        qsort(r->md.ir.wwords, r->md.ir.nwwords, sizeof *r->md.ir.wwords, cmp_wword);

    /* sites: every data site of PROG, with its PI_STAT_WATCH record if any */
    size_t cap = 0;
    for (size_t i = 0; i < m->nunits; i++)
        cap += m->units[i].hdr.nsites;
    iv->wsites = calloc(cap ? cap : 1, sizeof *iv->wsites);
    if (!iv->wsites)
        return rep_oom();
    for (size_t i = 0; i < m->nunits; i++) {
        const struct pi_unit_view *u = &m->units[i];
        for (uint32_t k = 0; k < u->hdr.nsites; k++) {
            if (u->sites[k].kind != PI_SITE_DATA)
                continue;
            struct wsite *ws = &iv->wsites[iv->nwsites++];
            *ws = (struct wsite){ .u = u, .site = k };
            struct pi_rec_sitestat key = { .unit_id = u->hdr.unit_id, .site = k,
                                           .kind = PI_STAT_WATCH };
            const struct pi_rec_sitestat *st =
                r->md.ir.ind.nsitestats ? bsearch(&key, r->md.ir.ind.sitestats, r->md.ir.ind.nsitestats,
                                             sizeof key, pi_sitestat_cmp)
                                   : NULL;
            if (st) {
                ws->accesses = st->execs;
                ws->words = st->count;
            }
        }
    }
    if (iv->nwsites)
        qsort(iv->wsites, iv->nwsites, sizeof *iv->wsites, cmp_wsite);
    return 0;
}

/* A watched word's address as shown: link-time in PROG, run-time outside,
 * "base+0x…" relative to PROG's load address (a merged trace's heap word). */
static void waddr_str(const struct wword *w, char *buf, size_t n)
{
    snprintf(buf, n, "%s0x%llx", w->cls == W_RELATIVE ? "base+" : "", (unsigned long long)w->addr);
}

static const char *waddr_kind(const struct wword *w)
{
    return w->cls == W_PROG ? "link-time" : w->cls == W_RUNTIME ? "run-time" : "module-relative";
}

static const char *access_str(uint32_t arg, int word)
{
    arg &= PI_ACCESS_READ | PI_ACCESS_WRITE;
    if (arg == (PI_ACCESS_READ | PI_ACCESS_WRITE))
        return word ? "read-write" : "RW";
    if (arg == PI_ACCESS_WRITE)
        return word ? "write" : "W";
    if (arg == PI_ACCESS_READ)
        return word ? "read" : "R";
    return word ? "?" : "?";
}

void text_watch(const struct report *r)
{
    if (!r->md.ir.nwwords && !r->by_given)
        return;
    if (!r->md.ir.nwwords) {
        printf("\nWatched data per word\n  (none: no WATCH record for PROG)\n");
        return;
    }
    printf("\nWatched data per %u-byte word, most accessed first (reads and writes as the source "
           "performs them)\n", r->md.ir.wgran);
    char a[64];
    int wn = 6, wa = 7, wr = 5, ww = 6, outside = 0, relative = 0;
    for (size_t i = 0; i < r->md.ir.nwwords; i++) {
        const struct wword *w = &r->md.ir.wwords[i];
        wn = rep_widest(wn, (int)strlen(w->name), 60);
        waddr_str(w, a, sizeof a);
        wa = rep_widest(wa, (int)strlen(a), 24);
        wr = rep_widest(wr, rep_digits(w->reads), 20);
        ww = rep_widest(ww, rep_digits(w->writes), 20);
        outside |= w->cls != W_PROG;
        relative |= w->cls == W_RELATIVE;
    }
    printf("  %-*s  %-*s  %*s  %*s\n", wn, "object", wa, "address", wr, "reads", ww, "writes");
    for (size_t i = 0; i < r->md.ir.nwwords; i++) {
        const struct wword *w = &r->md.ir.wwords[i];
        waddr_str(w, a, sizeof a);
        printf("  %-*s  %-*s  %*llu  %*llu\n", wn, w->name, wa, a, wr, (unsigned long long)w->reads,
               ww, (unsigned long long)w->writes);
    }
    if (outside)
        printf("  (heap/stack: a word outside %s's variables, of a heap or stack object; its address "
               "is where it was in one run (run-time) and changes from run to run%s)\n", r->md.prog,
               relative ? "; base+: from a merged trace, relative to the program's load address"
                        : "");
    printf("  (addresses in %s are link-time addresses; a word is named by its first byte that "
           "belongs to a variable)\n", r->md.prog);
}

void text_watch_sites(const struct report *r)
{
    const struct ind_views *iv = r->iv;
    if (!rep_text_heading(r, iv->nwsites, "Watched data per access site (accesses = executions "
                          "of the access; words = the words they touched)",
                          "PROG has no access to watched data"))
        return;
    char loc[4096];
    int wo = 6, wc = 8, ww = 5, wf = 8;
    for (size_t i = 0; i < iv->nwsites; i++) {
        const struct wsite *ws = &iv->wsites[i];
        const struct pi_site *s = &ws->u->sites[ws->site];
        wo = rep_widest(wo, (int)strlen(pi_unit_str(ws->u, s->region)), 60);
        wc = rep_widest(wc, rep_digits(ws->accesses), 20);
        ww = rep_widest(ww, rep_digits(ws->words), 20);
        wf = rep_widest(wf, (int)strlen(func_name(ws->u, s->func)), 40);
    }
    printf("  %-*s  %-6s  %*s  %*s  %-*s  %s\n", wo, "object", "access", wc, "accesses", ww, "words",
           wf, "function", "file:line");
    for (size_t i = 0; i < iv->nwsites; i++) {
        const struct wsite *ws = &iv->wsites[i];
        const struct pi_site *s = &ws->u->sites[ws->site];
        snprintf(loc, sizeof loc, "%s:%u", pm_unit_file(ws->u, s->file), s->line);
        printf("  %-*s  %-6s  %*llu  %*llu  %-*s  %s\n", wo, pi_unit_str(ws->u, s->region),
               access_str(s->arg, 0), wc, (unsigned long long)ws->accesses, ww,
               (unsigned long long)ws->words, wf, func_name(ws->u, s->func), loc);
    }
}

void json_watch(const struct report *r)
{
    printf(",\n  \"watch_word_size\": ");
    if (r->md.ir.wgran)
        printf("%u", r->md.ir.wgran);
    else
        printf("null");
    printf(",\n  \"watch_words\": [");
    for (size_t i = 0; i < r->md.ir.nwwords; i++) {
        const struct wword *w = &r->md.ir.wwords[i];
        printf("%s\n    {\"object\": ", i ? "," : "");
        pm_json_str(stdout, w->name);
        printf(", \"kind\": \"%s\", \"address\": \"0x%llx\", \"address_is\": \"%s\", "
               "\"reads\": %llu, \"writes\": %llu}",
               w->is_var ? "variable" : w->cls == W_PROG ? "unknown" : "heap/stack",
               (unsigned long long)w->addr, waddr_kind(w), (unsigned long long)w->reads,
               (unsigned long long)w->writes);
    }
    printf("%s]", r->md.ir.nwwords ? "\n  " : "");
}

void csv_watch(const struct report *r)
{
    printf("object,kind,address,address_is,reads,writes\n");
    for (size_t i = 0; i < r->md.ir.nwwords; i++) {
        const struct wword *w = &r->md.ir.wwords[i];
        pm_csv_str(stdout, w->name);
        printf(",%s,0x%llx,%s,%llu,%llu\n",
               w->is_var ? "variable" : w->cls == W_PROG ? "unknown" : "heap/stack",
               (unsigned long long)w->addr, waddr_kind(w), (unsigned long long)w->reads,
               (unsigned long long)w->writes);
    }
}

void json_watch_sites(const struct report *r)
{
    const struct ind_views *iv = r->iv;
    printf(",\n  \"watch_sites\": [");
    for (size_t i = 0; i < iv->nwsites; i++) {
        const struct wsite *ws = &iv->wsites[i];
        const struct pi_site *s = &ws->u->sites[ws->site];
        printf("%s\n    {", i ? "," : "");
        json_where(ws->u, ws->site);
        printf(", \"object\": ");
        pm_json_str(stdout, pi_unit_str(ws->u, s->region));
        printf(", \"access\": \"%s\", \"accesses\": %llu, \"words\": %llu}",
               access_str(s->arg, 1), (unsigned long long)ws->accesses,
               (unsigned long long)ws->words);
    }
    printf("%s]", iv->nwsites ? "\n  " : "");
}

void csv_watch_sites(const struct report *r)
{
    const struct ind_views *iv = r->iv;
    printf("accesses,words,object,access,unit,site,function,file,line\n");
    for (size_t i = 0; i < iv->nwsites; i++) {
        const struct wsite *ws = &iv->wsites[i];
        const struct pi_site *s = &ws->u->sites[ws->site];
        printf("%llu,%llu,", (unsigned long long)ws->accesses, (unsigned long long)ws->words);
        pm_csv_str(stdout, pi_unit_str(ws->u, s->region));
        printf(",%s,0x%016llx,%u,", access_str(s->arg, 1), (unsigned long long)ws->u->hdr.unit_id,
               ws->site);
        pm_csv_str(stdout, func_name(ws->u, s->func));
        putchar(',');
        pm_csv_str(stdout, pm_unit_file(ws->u, s->file));
        printf(",%u\n", s->line);
    }
}
