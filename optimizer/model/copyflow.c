/* copyflow.c — how much of each edge of a function falls through in PROG's
 * layout when its blocks have several copies (profile.h, cf_fallthrough;
 * docs/layout.md "Copied blocks").
 *
 * A block's copies are its site's code ranges.  All copies update the
 * site's one counter, so the counts give a block's executions, not each
 * copy's.  Each copy leaves by falling through (its range's end, when a
 * range of a successor begins there, up to PF_PAD_MAX bytes of padding
 * after it) or by the direct jump that ends its range (read from PROG's
 * code: jcc/jmp with an 8- or 32-bit displacement, taken only when its
 * target is the start of a range of a successor); any other way out (code
 * without a site between ranges, an indirect jump) reaches an unknown copy.
 * Per copy we keep an interval of its runs, per (copy, edge) an interval of
 * its flow, and tighten them to a fixed point with what the code and the
 * counts say:
 *
 *   - the copies of a block run count(A) times in all;
 *   - a copy runs at least as often as the copies known to lead into it,
 *     and at most as often as those can, plus whatever reaches the block
 *     by unknown ways (the function's entry, code without a site);
 *   - a copy that leaves only one way (no branch at its end, or an
 *     unconditional jump) has no flow on its other edges;
 *   - the flow of A -> B is the sum over A's copies: a copy's share is at
 *     most its runs, at most the edge's flow less what the other copies
 *     surely carry, at least the edge's flow less what they can carry, and
 *     at least its runs less what its other edges can carry.
 *
 * The lower end of an edge's fall-through is what the statistics count as
 * falling through (the rest is taken); the width is what the counts cannot
 * tell (dynstats.copied).  Without copies everything is exact. */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile.h"

/* ---- PROG's code ---------------------------------------------------------- */

struct cf_text {
    size_t n;
    struct {
        uint64_t lo;
        size_t size;
        unsigned char *bytes;
    } seg[16];
};

struct cf_text *cf_text_load(const char *path)
{
    struct cf_text *t = calloc(1, sizeof *t);
    if (!t || elf_version(EV_CURRENT) == EV_NONE) {
        free(t);
        return NULL;
    }
    int fd;
    Elf *e = pm_elf_open(path, &fd);
    size_t nph = 0;
    if (e && elf_getphdrnum(e, &nph) == 0) {
        for (size_t i = 0; i < nph && t->n < 16; i++) {
            GElf_Phdr ph;
            if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_X) ||
                !ph.p_filesz || ph.p_filesz > ((uint64_t)1 << 32))
                continue;
            unsigned char *b = malloc(ph.p_filesz);
            if (!b || pread(fd, b, ph.p_filesz, (off_t)ph.p_offset) != (ssize_t)ph.p_filesz) {
                free(b);
                continue;
            }
            t->seg[t->n].lo = ph.p_vaddr;
            t->seg[t->n].size = ph.p_filesz;
            t->seg[t->n++].bytes = b;
        }
    }
    pm_elf_close(e, fd);
    return t;
}

void cf_text_free(struct cf_text *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n; i++)
        free(t->seg[i].bytes);
    free(t);
}

/* The n bytes of code before address end, or NULL. */
static const unsigned char *code_before(const struct cf_text *t, uint64_t end, size_t n)
{
    for (size_t i = 0; t && i < t->n; i++)
        if (end >= t->seg[i].lo + n && end <= t->seg[i].lo + t->seg[i].size)
            return t->seg[i].bytes + (end - t->seg[i].lo - n);
    return NULL;
}

static int32_t rel32(const unsigned char *b)
{
    uint32_t v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    return (int32_t)v;
}

/* The direct jumps a range ending at `end` may end with: up to 3
 * candidates (target, unconditional). */
static int jump_candidates(const struct cf_text *t, uint64_t end, uint64_t *target, int *uncond)
{
    int n = 0;
    const unsigned char *b;
    if ((b = code_before(t, end, 6)) && b[0] == 0x0f && (b[1] & 0xf0) == 0x80) {
        target[n] = end + (int64_t)rel32(b + 2);
        uncond[n++] = 0;
    }
    if ((b = code_before(t, end, 5)) && b[0] == 0xe9) {
        target[n] = end + (int64_t)rel32(b + 1);
        uncond[n++] = 1;
    }
    if ((b = code_before(t, end, 2)) && ((b[0] & 0xf0) == 0x70 || b[0] == 0xeb)) {
        target[n] = end + (int64_t)(int8_t)b[1];
        uncond[n++] = b[0] == 0xeb;
    }
    return n;
}

/* ---- the bounds ----------------------------------------------------------- */

enum { V_UNKNOWN, V_FT, V_JUMP };

struct var {               /* copy `from`'s flow on edge entry `edge` */
    uint32_t from;         /* local copy index */
    uint32_t to;           /* the copy it reaches (V_FT, V_JUMP), else UINT32_MAX */
    uint32_t edge, tblock; /* edge entry of p; the target block */
    int kind;
    uint64_t lo, hi;
};

static uint64_t sub0(uint64_t a, uint64_t b)
{
    return a > b ? a - b : 0;
}

static uint64_t min64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

static int set_hi(uint64_t *hi, uint64_t v)
{
    if (v < *hi) {
        *hi = v;
        return 1;
    }
    return 0;
}

static int set_lo(uint64_t *lo, uint64_t v)
{
    if (v > *lo) {
        *lo = v;
        return 1;
    }
    return 0;
}

/* The local copy of site t whose range starts at addr, or UINT32_MAX. */
static uint32_t copy_at(const struct pi_meta *m, const uint32_t *rfirst, const uint32_t *rix,
                        uint32_t base, uint32_t t, uint64_t addr, uint64_t slack)
{
    for (uint32_t q = rfirst[t]; q < rfirst[t + 1]; q++) {
        const struct pi_range *r = &m->ranges[rix[q]];
        if (r->addr >= addr && r->addr - addr <= slack)
            return q - base;
    }
    return UINT32_MAX;
}

int cf_fallthrough(const struct pi_meta *m, const struct fprof *p, const uint32_t *rfirst,
                   const uint32_t *rix, const struct cf_text *text, uint64_t *ftlo,
                   uint64_t *fthi, uint64_t *runlo, uint64_t *runhi)
{
    const struct pi_unit_view *u = p->u;
    uint32_t base = rfirst[p->first], ncopies = rfirst[p->first + p->nblocks] - base;
    memset(ftlo, 0, (p->nedges ? p->nedges : 1) * sizeof *ftlo);
    memset(fthi, 0, (p->nedges ? p->nedges : 1) * sizeof *fthi);
    if (!ncopies)
        return 0;
    uint32_t nv = 0;
    for (uint32_t b = 0; b < p->nblocks; b++)
        nv += (rfirst[p->first + b + 1] - rfirst[p->first + b]) * (p->eoff[b + 1] - p->eoff[b]);
    uint64_t *clo = calloc(ncopies, sizeof *clo), *chi = calloc(ncopies, sizeof *chi);
    uint64_t *inlo = calloc(ncopies, sizeof *inlo), *inhi = calloc(ncopies, sizeof *inhi);
    uint32_t *cblock = calloc(ncopies, sizeof *cblock), *vfirst = calloc(ncopies + 1, sizeof *vfirst);
    uint64_t *unk = calloc(p->nblocks ? p->nblocks : 1, sizeof *unk);
    uint64_t *elo = calloc(p->nedges ? p->nedges : 1, sizeof *elo);
    uint64_t *ehi = calloc(p->nedges ? p->nedges : 1, sizeof *ehi);
    struct var *v = calloc(nv ? nv : 1, sizeof *v);
    int rc = -1;
    if (!clo || !chi || !inlo || !inhi || !cblock || !vfirst || !unk || !elo || !ehi || !v)
        goto done;
    nv = 0;
    for (uint32_t b = 0; b < p->nblocks; b++) {
        const struct pi_site *s = &u->sites[p->first + b];
        uint32_t k0 = rfirst[p->first + b], k1 = rfirst[p->first + b + 1];
        for (uint32_t k = k0; k < k1; k++) {
            uint32_t c = k - base, v0 = nv;
            const struct pi_range *a = &m->ranges[rix[k]];
            uint64_t end = a->addr + a->length;
            cblock[c] = b;
            vfirst[c] = nv;
            clo[c] = k1 - k0 == 1 ? p->count[b] : 0;
            chi[c] = p->count[b];
            /* its jump: a direct one whose target starts a successor's copy */
            int jumps = !!a->ntype[PI_T_BRANCH], uncond = 0, nj = 0;
            uint32_t jedge = UINT32_MAX, jto = UINT32_MAX;
            if (jumps && text) {
                uint64_t tg[3];
                int un[3], n = jump_candidates(text, end, tg, un);
                for (int i = 0; i < n; i++)
                    for (uint32_t j = 0; j < s->nsucc; j++) {
                        uint32_t t = u->succs[s->succ_first + j];
                        uint32_t to = t >= p->first && t < p->first + p->nblocks
                                          ? copy_at(m, rfirst, rix, base, t, tg[i], 0)
                                          : UINT32_MAX;
                        if (to != UINT32_MAX) {
                            nj++;
                            jedge = p->eoff[b] + j;
                            jto = to;
                            uncond = un[i];
                        }
                    }
                if (nj != 1)
                    jedge = UINT32_MAX;
                int all_uncond = n > 0;
                for (int i = 0; i < n; i++)
                    all_uncond &= un[i];
                if (all_uncond)
                    uncond = 1; /* an unconditional jump, wherever it goes */
            }
            /* its fall-through: the successor's copy that starts where it
               ends, the next range(s) in address order */
            int falls = !a->ntype[PI_T_RET] && !uncond;
            size_t j0 = rix[k] + 1;
            while (j0 < m->nranges && m->ranges[j0].addr < end)
                j0++;
            if (j0 == m->nranges || m->ranges[j0].addr - end > PF_PAD_MAX)
                falls = 0;
            uint64_t next = falls ? m->ranges[j0].addr : 0;
            for (uint32_t j = 0; j < s->nsucc; j++) {
                uint32_t e = p->eoff[b] + j, t = u->succs[s->succ_first + j];
                struct var *x = &v[nv++];
                *x = (struct var){ c, UINT32_MAX, e, t - p->first, V_UNKNOWN, 0,
                                   min64(p->edge[e], p->count[b]) };
                if (t < p->first || t >= p->first + p->nblocks) {
                    x->tblock = UINT32_MAX;
                    continue;
                }
                if (e == jedge) {
                    x->kind = V_JUMP;
                    x->to = jto;
                    continue;
                }
                uint32_t to = falls ? copy_at(m, rfirst, rix, base, t, next, 0) : UINT32_MAX;
                if (to != UINT32_MAX) {
                    x->kind = V_FT;
                    x->to = to;
                }
            }
            /* one way out: the other edges carry nothing */
            int ft_known = 0;
            for (uint32_t w = v0; w < nv; w++)
                ft_known |= v[w].kind == V_FT;
            for (uint32_t w = v0; w < nv; w++) {
                int only_ft = !jumps && !a->ntype[PI_T_RET] && ft_known && v[w].kind != V_FT;
                int only_jump = jedge != UINT32_MAX && uncond && v[w].kind != V_JUMP;
                int both = jedge != UINT32_MAX && !uncond && ft_known && v[w].kind == V_UNKNOWN;
                if (only_ft || only_jump || both)
                    v[w].hi = 0;
            }
        }
    }
    vfirst[ncopies] = nv;
    for (int round = 0; round < 1000; round++) {
        int changed = 0;
        /* what leads into each copy, and into each block by unknown ways */
        memset(inlo, 0, ncopies * sizeof *inlo);
        memset(inhi, 0, ncopies * sizeof *inhi);
        memset(unk, 0, (p->nblocks ? p->nblocks : 1) * sizeof *unk);
        memset(elo, 0, (p->nedges ? p->nedges : 1) * sizeof *elo);
        memset(ehi, 0, (p->nedges ? p->nedges : 1) * sizeof *ehi);
        unk[0] = p->count[0]; /* entered from outside: any copy */
        for (uint32_t w = 0; w < nv; w++) {
            struct var *x = &v[w];
            elo[x->edge] = pm_sat_add(elo[x->edge], x->lo);
            ehi[x->edge] = pm_sat_add(ehi[x->edge], x->hi);
            if (x->tblock == UINT32_MAX)
                continue;
            if (x->to != UINT32_MAX) {
                inlo[x->to] = pm_sat_add(inlo[x->to], x->lo);
                inhi[x->to] = pm_sat_add(inhi[x->to], x->hi);
            } else
                unk[x->tblock] = pm_sat_add(unk[x->tblock], x->hi);
        }
        /* the copies' runs */
        for (uint32_t b = 0; b < p->nblocks; b++) {
            uint32_t k0 = rfirst[p->first + b] - base, k1 = rfirst[p->first + b + 1] - base;
            uint64_t sumlo = 0, sumhi = 0, suminlo = 0, c = p->count[b];
            for (uint32_t k = k0; k < k1; k++) {
                sumlo = pm_sat_add(sumlo, clo[k]);
                sumhi = pm_sat_add(sumhi, chi[k]);
                suminlo = pm_sat_add(suminlo, inlo[k]);
            }
            for (uint32_t k = k0; k < k1; k++) {
                /* the other copies' bounds, as summed above */
                uint64_t ohi = sumhi - chi[k], olo = sumlo - clo[k], oin = suminlo - inlo[k];
                changed |= set_lo(&clo[k], sub0(c, ohi));
                changed |= set_lo(&clo[k], min64(inlo[k], c));
                changed |= set_hi(&chi[k], sub0(c, olo));
                changed |= set_hi(&chi[k], sub0(c, oin));
                changed |= set_hi(&chi[k], pm_sat_add(inhi[k], unk[b]));
                if (chi[k] < clo[k])
                    chi[k] = clo[k]; /* counts that do not add up: keep going */
            }
        }
        /* each copy's flow per edge */
        for (uint32_t w = 0; w < nv; w++) {
            struct var *x = &v[w];
            uint32_t b = cblock[x->from], k0 = rfirst[p->first + b] - base,
                     k1 = rfirst[p->first + b + 1] - base;
            uint64_t e = p->edge[x->edge], others_hi = 0, out_hi = 0;
            for (uint32_t k = k0; k < k1; k++)
                if (k != x->from)
                    others_hi = pm_sat_add(others_hi, chi[k]);
            for (uint32_t y = vfirst[x->from]; y < vfirst[x->from + 1]; y++)
                if (y != w)
                    out_hi = pm_sat_add(out_hi, v[y].hi);
            changed |= set_hi(&x->hi, chi[x->from]);
            changed |= set_hi(&x->hi, sub0(e, elo[x->edge] - x->lo));
            changed |= set_lo(&x->lo, min64(sub0(e, others_hi), x->hi));
            changed |= set_lo(&x->lo, min64(sub0(clo[x->from], out_hi), min64(e, x->hi)));
            if (x->hi < x->lo)
                x->hi = x->lo;
        }
        if (!changed)
            break;
    }
    for (uint32_t w = 0; w < nv; w++)
        if (v[w].kind == V_FT) {
            ftlo[v[w].edge] = pm_sat_add(ftlo[v[w].edge], v[w].lo);
            fthi[v[w].edge] = pm_sat_add(fthi[v[w].edge], v[w].hi);
        }
    for (uint32_t e = 0; e < p->nedges; e++) {
        ftlo[e] = min64(ftlo[e], p->edge[e]);
        fthi[e] = min64(fthi[e], p->edge[e]);
        if (fthi[e] < ftlo[e])
            fthi[e] = ftlo[e];
    }
    if (runlo)
        memcpy(runlo, clo, ncopies * sizeof *clo);
    if (runhi)
        memcpy(runhi, chi, ncopies * sizeof *chi);
    rc = 0;
done:
    free(clo), free(chi), free(inlo), free(inhi), free(cblock), free(vfirst), free(unk),
        free(elo), free(ehi), free(v);
    return rc ? rep_oom() : 0;
}
