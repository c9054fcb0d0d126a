/* pmopt export --lcov OUT PROG TRACE... — an lcov tracefile (the .info
 * format of lcov's geninfo(1)), read by genhtml and lcov.
 *
 * Per source file (SF: absolute where it can be found, so that genhtml
 * finds the source):
 *   FN, FNDA   each function (its linkage name without clone suffixes, as
 *              gcov names it; genhtml --demangle-cpp demangles) at its
 *              declaration line, and its entries
 *   BRDA       each block with two or more successors: one branch per
 *              successor, taken as often as the edge ran ("-" when the
 *              block never ran); edge counts are exact where the flow
 *              equations determine them (docs/layout.md "The profile")
 *   DA         each line with a counted block: the largest count among
 *              the line's blocks of one unit, added over units, as `pmopt
 *              report --by=line` shows it (and gcov: a `for` line has its
 *              test's count)
 * and the summaries FNF/FNH, BRF/BRH, LF/LH.  Only the exact counts go
 * here (stack samples have no place in lcov).  The records are collected
 * by exp_coverage (export.h), which gcovr's JSON shares (export-gcovr.c).
 */
#include <stdlib.h>
#include <string.h>

#include "export.h"

static struct exp_cov_rec *lc_add(struct exp_cov *l, const char *shown_file, int kind, uint32_t line)
{
    if (pi_grow((void **)&l->v, &l->cap, l->n, sizeof *l->v)) {
        l->oom = 1;
        return NULL;
    }
    struct exp_cov_rec *r = &l->v[l->n++];
    memset(r, 0, sizeof *r);
    r->file = exp_open_path(shown_file);
    r->kind = kind;
    r->line = line;
    return r;
}

static int by_file(const void *a, const void *b)
{
    const struct exp_cov_rec *x = a, *y = b;
    int c = x->file == y->file ? 0 : strcmp(x->file, y->file);
    if (c)
        return c;
    PI_CMP_RET(x->kind, y->kind);
    PI_CMP_RET(x->line, y->line);
    PI_CMP_RET(x->block, y->block);
    PI_CMP_RET(x->branch, y->branch);
    return x->name && y->name ? strcmp(x->name, y->name) : 0;
}

/* The branches of one function copy. */
static int lc_branches(struct exp_cov *l, const struct model *md, const struct func_copy *c,
                       uint32_t *block)
{
    struct fprof p;
    if (pf_load(md, c->u, c->func, &p))
        return -1;
    for (uint32_t b = 0; b < p.nblocks && !l->oom; b++) {
        if (p.eoff[b + 1] - p.eoff[b] < 2)
            continue;
        const struct pi_site *st = &c->u->sites[p.first + b];
        if (!st->line)
            continue;
        ++*block;
        for (uint32_t e = p.eoff[b]; e < p.eoff[b + 1]; e++) {
            struct exp_cov_rec *x = lc_add(l, pm_unit_file(c->u, st->file), COV_BRANCH, st->line);
            if (!x)
                break;
            x->block = *block;
            x->branch = e - p.eoff[b];
            x->ran = p.count[b] > 0;
            x->count = p.edge[e];
        }
    }
    pf_free(&p);
    return 0;
}

static void lc_write(const struct exp_cov *l, FILE *f)
{
    for (size_t i = 0; i < l->n;) {
        const char *file = l->v[i].file;
        size_t end = i;
        while (end < l->n && l->v[end].file == file)
            end++;
        fprintf(f, "TN:\nSF:%s\n", file);
        uint64_t nf = 0, hf = 0, nb = 0, hb = 0, nl = 0, hl = 0;
        for (size_t k = i; k < end; k++)
            if (l->v[k].kind == COV_FN)
                fprintf(f, "FN:%u,%s\n", l->v[k].line, l->v[k].name);
        for (size_t k = i; k < end; k++)
            if (l->v[k].kind == COV_FN) {
                fprintf(f, "FNDA:%llu,%s\n", (unsigned long long)l->v[k].count, l->v[k].name);
                nf++, hf += l->v[k].count > 0;
            }
        fprintf(f, "FNF:%llu\nFNH:%llu\n", (unsigned long long)nf, (unsigned long long)hf);
        for (size_t k = i; k < end; k++) {
            const struct exp_cov_rec *x = &l->v[k];
            if (x->kind != COV_BRANCH)
                continue;
            if (x->ran)
                fprintf(f, "BRDA:%u,%u,%u,%llu\n", x->line, x->block, x->branch,
                        (unsigned long long)x->count);
            else
                fprintf(f, "BRDA:%u,%u,%u,-\n", x->line, x->block, x->branch);
            nb++, hb += x->ran && x->count > 0;
        }
        if (nb)
            fprintf(f, "BRF:%llu\nBRH:%llu\n", (unsigned long long)nb, (unsigned long long)hb);
        for (size_t k = i; k < end; k++)
            if (l->v[k].kind == COV_LINE) {
                fprintf(f, "DA:%u,%llu\n", l->v[k].line, (unsigned long long)l->v[k].count);
                nl++, hl += l->v[k].count > 0;
            }
        fprintf(f, "LF:%llu\nLH:%llu\nend_of_record\n", (unsigned long long)nl,
                (unsigned long long)hl);
        i = end;
    }
}

int exp_coverage(struct exp_in *in, const char *out, struct exp_cov *cov)
{
    memset(cov, 0, sizeof *cov);
    if (!in->counts) {
        pm_error("%s: coverage holds counts: give PROG and traces that count "
                 "(built with the plugin, run with counting on)", out);
        return -1;
    }
    const struct model *md = &in->md;
    struct exp_cov *l = cov;
    for (size_t i = 0; i < md->nfuncs && !l->oom; i++) {
        const struct func_row *row = &md->funcs[i];
        if (row->uninstrumented || !row->has_entry)
            continue;
        struct exp_cov_rec *x = lc_add(l, row->file, COV_FN, row->line);
        if (x) {
            x->name = row->key;
            x->count = row->entries;
        }
    }
    for (size_t i = 0; i < md->nlines && !l->oom; i++) {
        struct exp_cov_rec *x = lc_add(l, md->lines[i].file, COV_LINE, md->lines[i].line);
        if (x)
            x->count = md->lines[i].count;
    }
    /* one numbering of branching blocks for the whole file: unique in each source too */
    uint32_t block = 0;
    for (size_t i = 0; i < md->ncopies && !l->oom; i++)
        if (lc_branches(l, md, &md->copies[i], &block)) {
            free(l->v);
            return -1;
        }
    if (l->oom) {
        free(l->v);
        return rep_oom();
    }
    if (l->n)
        qsort(l->v, l->n, sizeof *l->v, by_file);
    return 0;
}

int export_lcov(struct exp_in *in, const char *out)
{
    struct exp_cov l;
    if (exp_coverage(in, out, &l))
        return -1;
    FILE *f = pm_create(out);
    int rc = f ? 0 : -1;
    if (f) {
        lc_write(&l, f);
        if (fclose(f)) {
            pm_error("%s: %m", out);
            rc = -1;
        }
    }
    free(l.v);
    return rc;
}
