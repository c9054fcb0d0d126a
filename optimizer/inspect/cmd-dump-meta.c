/* pmopt dump-meta FILE — the perfinst metadata of an object or a program.
 *
 * Per unit a header, its functions, then the seed's offset/length/flags
 * table (seed 002, Fig. 16): one row per CODE range, in address order —
 *
 *   address             where          length  flags  site  function  file:line   insns  br call ...
 *   0x0000000000001139  work+0x11          14  count     1  work      prog.c:8        4   1    0 ...
 *
 * "where" is the function that holds the address (DWARF, else the symbol
 * table) and the offset from its start; in a relocatable object it is the
 * section and the offset in it.  Sites without code (deleted by the
 * optimiser) are listed after the table.  Then ranges of units that are not
 * in the file (an -flto object), the translation table and the link recipe
 * when perfinst-ld wrote them.  The metadata is cross-checked last
 * (pi_meta_validate); a problem makes the exit status 1.
 */
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "pidwarf.h"
#include "names.h"
#include "commands.h"
#include "pmopt.h"

static void help(FILE *f)
{
    fprintf(f, "usage: pmopt dump-meta FILE\n"
               "Print the .perfinst, .perfinst.xlat and .perfinst.link metadata of an object,\n"
               "a program or a shared library.\n");
}

static const char *etype_name(int t)
{
    switch (t) {
    case ET_REL: return "relocatable object";
    case ET_EXEC: return "program";
    case ET_DYN: return "shared object or PIE";
    }
    return "metadata bytes";
}

static void where(const struct pi_meta *m, const struct pi_debug *d, size_t ri, char *buf,
                  size_t n)
{
    const struct pi_range *r = &m->ranges[ri];
    if (m->range_shndx) {
        const char *sec = d ? pi_debug_section_name(d, m->range_shndx[ri]) : "";
        if (*sec)
            snprintf(buf, n, "%s+0x%llx", sec, (unsigned long long)r->addr);
        else
            snprintf(buf, n, "[%u]+0x%llx", m->range_shndx[ri], (unsigned long long)r->addr);
        return;
    }
    if (!r->addr) {
        snprintf(buf, n, "(discarded)");
        return;
    }
    const struct pi_dfunc *f = d ? pi_debug_func(d, r->addr) : NULL;
    if (f)
        snprintf(buf, n, "%s+0x%llx", pm_dfunc_name(f), (unsigned long long)(r->addr - f->lo));
    else
        snprintf(buf, n, "?");
}

static void table_header(void)
{
    printf("  %-18s  %-24s  %6s  %-16s  %5s  %-20s  %-24s  %5s", "address", "where", "length",
           "flags", "site", "function", "file:line", "insns");
    for (unsigned t = 0; t < PI_NTYPES; t++)
        printf(" %6s", pi_itype_name(t));
    putchar('\n');
}

static void range_row(const struct pi_meta *m, const struct pi_debug *d, size_t ri,
                      const struct pi_unit_view *u)
{
    const struct pi_range *r = &m->ranges[ri];
    char w[256], fl[256], loc[512];
    where(m, d, ri, w, sizeof w);
    const char *fn = "?";
    if (u && r->site < u->hdr.nsites) {
        const struct pi_site *s = &u->sites[r->site];
        pi_directive_names(s->directives, fl, sizeof fl);
        fn = pm_func_name(u, s->func);
        snprintf(loc, sizeof loc, "%s:%u", pi_unit_str(u, s->file), s->line);
    } else {
        snprintf(fl, sizeof fl, "?");
        snprintf(loc, sizeof loc, "unit 0x%016llx", (unsigned long long)r->unit_id);
    }
    printf("  0x%016llx  %-24s  %6u  %-16s  %5u  %-20s  %-24s  %5u",
           (unsigned long long)r->addr, w, r->length, fl, r->site, fn, loc, r->ninsns);
    for (unsigned t = 0; t < PI_NTYPES; t++)
        printf(" %6u", r->ntype[t]);
    /* the compiler's line table should agree with the site's line */
    const char *dfile;
    uint32_t dline;
    if (d && u && r->site < u->hdr.nsites && !m->range_shndx && r->addr && r->length &&
        pi_debug_line(d, r->addr, &dfile, &dline)) {
        const struct pi_site *s = &u->sites[r->site];
        if (dline != s->line || strcmp(pm_basename(dfile), pm_basename(pi_unit_str(u, s->file))))
            printf("  (DWARF: %s:%u)", dfile, dline);
    }
    putchar('\n');
}

static void dump_unit(const struct pi_meta *m, const struct pi_debug *d,
                      const struct pi_unit_view *u)
{
    const struct pi_unit *h = &u->hdr;
    char fl[256];
    printf("\nunit 0x%016llx  source %s\n", (unsigned long long)h->unit_id,
           pi_unit_str(u, h->source));
    printf("  producer \"%s\", line size %u\n", pi_unit_str(u, h->producer), h->line_size);
    printf("  %u functions, %u sites, %u counters, %u successor entries, %u arcs, %u lines, "
           "%u-byte string table\n", h->nfuncs, h->nsites, h->ncounters, h->nsuccs, h->narcs,
           h->nlines, h->strtab_size);
    for (uint32_t i = 0; i < h->nfuncs; i++) {
        const struct pi_func *f = &u->funcs[i];
        const char *linkage = pi_unit_str(u, f->name), *shown = pm_func_name(u, i);
        printf("  function %u %s%s%s%s (%s:%u): sites %u..%u, directives %s, %s%scfg 0x%016llx\n", i,
               shown, strcmp(shown, linkage) ? " [" : "", strcmp(shown, linkage) ? linkage : "",
               strcmp(shown, linkage) ? "]" : "", pi_unit_str(u, f->file), f->line, f->first_site,
               f->first_site + f->nsites - (f->nsites ? 1 : 0),
               pi_directive_names(f->directives & ~(PI_FUNC_LATE | PI_FUNC_PART), fl, sizeof fl),
               f->directives & PI_FUNC_LATE ? "after the early inliner, " : "",
               f->directives & PI_FUNC_PART ? "a part the early ipa-split cut off, " : "",
               (unsigned long long)f->cfg_checksum);
        for (uint32_t a = f->first_arc; a < f->first_arc + f->narcs; a++) {
            const struct pi_arc *x = &u->arcs[a];
            printf("    arc %u: ", a);
            if (x->src == PI_NONE)
                printf("entry");
            else
                printf("%u", x->src);
            printf(" -> ");
            if (x->dst == PI_NONE)
                printf("exit");
            else
                printf("%u", x->dst);
            if (x->counter != PI_NONE)
                printf(", counter %u", x->counter);
            if (x->flags & PI_ARC_FAKE)
                printf(", fake");
            if (x->flags & PI_ARC_BLOCK)
                printf(", %s %s:%u%s", x->flags & PI_ARC_PHI ? "PHI line" : "gcov block",
                       x->line ? pi_unit_str(u, x->file) : "-", x->line, x->flags & PI_ARC_LAST ? " (last)" : "");
            putchar('\n');
        }
    }
    for (uint32_t i = 0; i < h->nsites; i++) {
        const struct pi_site *s = &u->sites[i];
        printf("  site %u: %s, %s:%u:%u, bb %u, counter ", i, pi_site_kind_name(s->kind),
               pi_unit_str(u, s->file), s->line, s->column, s->bb);
        if (s->counter == PI_NONE)
            printf("-");
        else
            printf("%u%s", s->counter, s->arg & PI_SITE_COUNTER_AT_END ? " at end" : "");
        printf(", %s", pi_directive_names(s->directives, fl, sizeof fl));
        if (s->threshold)
            printf(", threshold %llu", (unsigned long long)s->threshold);
        if (s->arg)
            printf(", arg 0x%x", s->arg);
        if (*pi_unit_str(u, s->region))
            printf(", region %s", pi_unit_str(u, s->region));
        if (*pi_unit_str(u, s->handler))
            printf(", handler %s", pi_unit_str(u, s->handler));
        printf(", successors");
        if (!s->nsucc)
            printf(" -");
        for (uint32_t k = 0; k < s->nsucc; k++)
            printf(" %u", u->succs[s->succ_first + k]);
        if (s->nlines) {
            printf(", lines");
            const char *file = NULL;
            for (uint32_t k = s->line_first; k < s->line_first + s->nlines; k++) {
                const struct pi_line *l = &u->lines[k];
                if (!l->file && l->line == PI_LINE_VIA && k + 1 < s->line_first + s->nlines) {
                    l = &u->lines[++k]; /* (validated: a line follows) */
                    printf(" (via %s:%u)", pi_unit_str(u, l->file), l->line);
                    continue;
                }
                if (!l->file) {
                    printf(l->line == PI_LINE_LAST ? " (last)" : l->line == PI_LINE_RUN ? " /" : " |");
                    file = NULL;
                } else if (!file || strcmp(file, pi_unit_str(u, l->file))) {
                    file = pi_unit_str(u, l->file);
                    printf(" %s:%u", file, l->line);
                } else
                    printf(" %u", l->line);
            }
        }
        putchar('\n');
    }

    /* the ranges of this unit, in address order, and which sites have none */
    uint8_t *has = calloc(h->nsites ? h->nsites : 1, 1);
    size_t n = 0;
    for (size_t i = 0; i < m->nranges; i++) {
        if (m->ranges[i].unit_id != h->unit_id)
            continue;
        if (!n++)
            table_header();
        range_row(m, d, i, u);
        if (has && m->ranges[i].site < h->nsites)
            has[m->ranges[i].site] = 1;
    }
    if (!n)
        printf("  no code ranges\n");
    size_t missing = 0;
    for (uint32_t i = 0; has && i < h->nsites; i++) {
        if (has[i] || u->sites[i].kind != PI_SITE_BLOCK) /* data and call sites have no code */
            continue;
        const struct pi_site *s = &u->sites[i];
        if (!missing++)
            printf("  sites without code (optimised away):\n");
        printf("    site %u (%s, %s:%u)\n", i, pm_func_name(u, s->func),
               pi_unit_str(u, s->file), s->line);
    }
    free(has);
}

/* Print one file's (or archive member's) metadata; 1 if its cross-checks
 * fail (the error is printed). */
static int dump_one(struct pi_meta *mp, struct Elf *elf, void *arg)
{
    const char *file = arg; /* the path given: members of an archive differ */
    struct pi_meta m = *mp;
    struct pi_err err;
    struct pi_debug dbg;
    int have_dbg = !strcmp(m.path, file) ? pi_debug_open(file, &dbg, &err) == 0
                                         : pi_debug_open_elf(m.path, elf, &dbg, &err) == 0;
    if (have_dbg && dbg.warning[0])
        pm_note("%s", dbg.warning);
    pm_names_program(&m, have_dbg ? &dbg : NULL);
    const char *path = m.path;
    char bid[2 * PI_BUILD_ID_MAX + 1];
    printf("%s: %s, build-id %s, %zu units, %zu code ranges%s%s\n", path, etype_name(m.elf_type),
           m.build_id_len ? pi_build_id_hex(m.build_id, m.build_id_len, bid) : "none", m.nunits,
           m.nranges, m.has_xlat ? ", translation table" : "", m.has_link ? ", link recipe" : "");
    if (!m.nunits && !m.nranges && !m.has_xlat && !m.has_link)
        printf("  no perfinst metadata (no %s section)\n", PI_SECTION_META);

    for (size_t i = 0; i < m.nunits; i++)
        dump_unit(&m, have_dbg ? &dbg : NULL, &m.units[i]);

    size_t foreign = 0;
    for (size_t i = 0; i < m.nranges; i++) {
        if (pi_meta_unit(&m, m.ranges[i].unit_id))
            continue;
        if (!foreign++) {
            printf("\nranges of units that are not in this file\n");
            table_header();
        }
        range_row(&m, have_dbg ? &dbg : NULL, i, NULL);
    }

    if (m.has_xlat) {
        const struct pi_xlat *x = &m.xlat;
        printf("\ntranslation table (%s): line size %u, %u items, %u blocks, %u refs, %u units, "
               "span [0x%llx, 0x%llx)\n", PI_SECTION_XLAT, x->line_size, x->nitems, x->nblocks,
               x->nrefs, x->nunits, (unsigned long long)x->lo, (unsigned long long)x->hi);
    }
    if (m.has_link) {
        const struct pi_link *l = &m.link;
        const char *st = m.link_strtab;
        printf("\nlink recipe (%s, %s): cwd %s, output %s, %u inputs%s%s\n  argv:",
               PI_SECTION_LINK,
               l->level == PI_LINK_COLLECT2 ? "collect2 command line"
                                            : "version 1, a gcc command line",
               st + l->cwd, st + l->output, l->ninputs,
               l->flags & PI_LF_RUNTIME ? ", runtime linked" : "",
               l->flags & PI_LF_STATIC_RUNTIME ? " (static)" : "");
        uint32_t p = l->argv;
        for (uint32_t i = 0; i < l->argc; i++) {
            printf(" %s", st + p);
            p += (uint32_t)strlen(st + p) + 1;
        }
        putchar('\n');
        p = l->env;
        for (uint32_t i = 0; i < l->nenv; i++) {
            printf("  env %s\n", st + p);
            p += (uint32_t)strlen(st + p) + 1;
        }
        for (uint32_t i = 0; i < l->ninputs; i++) {
            const struct pi_link_input *in = &m.inputs[i];
            printf("  input %u: %s", i, st + in->path);
            if (in->argi != PI_NONE)
                printf(" (argv[%u])", in->argi);
            printf(", %llu bytes, mtime %lld.%09lld, hash 0x%016llx\n",
                   (unsigned long long)in->size, (long long)(in->mtime_ns / 1000000000),
                   (long long)(in->mtime_ns % 1000000000), (unsigned long long)in->hash);
        }
    }

    int status = 0;
    if (pi_meta_validate(&m, &err)) {
        fflush(stdout);
        pm_error("%s", err.msg);
        status = 1;
    }
    if (have_dbg)
        pi_debug_close(&dbg);
    pi_meta_free(mp);
    return status;
}

int cmd_dump_meta(int argc, char **argv)
{
    int status;
    const char *path = pm_one_operand(argc, argv, "FILE", help, &status);
    if (!path)
        return status;

    struct pi_err err;
    int r = pi_meta_read_each(path, dump_one, (void *)path, &err);
    if (r < 0)
        pm_error("%s", err.msg);
    return r ? PM_ERROR : PM_OK;
}
