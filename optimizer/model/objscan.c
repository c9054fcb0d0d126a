#define _GNU_SOURCE /* asprintf */
/* objscan.c — the sections, symbols, call/data references and CODE ranges
 * of the objects a program was linked from (layout.h).  Function order
 * reads its call graph here (relocations R_X86_64_PLT32/PC32 after a call
 * or jmp opcode, from one function's section to another's), the relink its
 * section sizes and the check that hot functions have sections of their
 * own. */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "pmopt.h"
#include "piout.h"

static const struct {
    const char *prefix;
    int kind, cold;
} prefixes[] = {
    { ".text.unlikely.", OS_TEXT, 1 }, { ".text.exit.", OS_TEXT, 1 },
    { ".text.startup.", OS_TEXT, 0 },  { ".text.hot.", OS_TEXT, 0 },
    { ".text.", OS_TEXT, 0 },
    { ".data.rel.ro.local.", OS_RODATA, 0 }, { ".data.rel.ro.", OS_RODATA, 0 },
    { ".data.rel.local.", OS_DATA, 0 }, { ".data.rel.", OS_DATA, 0 },
    { ".data.", OS_DATA, 0 }, { ".bss.", OS_BSS, 0 }, { ".rodata.", OS_RODATA, 0 },
};

const char *oscan_sym_of(const char *name, int *kind, int *cold)
{
    /* .text.sorted.RANK.NAME: a function the rebuild placed in the plan's
       order (gcc-plugin/pass-feedback.cc); .text.sorted.cRANK.NAME and
       .text.sorted.RANKc.NAME: its cold part (cold-parts=sorted, beside) */
    static const char sorted[] = ".text.sorted.";
    if (!strncmp(name, sorted, sizeof sorted - 1)) {
        const char *p = name + sizeof sorted - 1, *d;
        int c = *p == 'c';
        d = p += c;
        while (*d >= '0' && *d <= '9')
            d++;
        if (d > p && !c && *d == 'c')
            c = 1, d++;
        if (d > p && *d == '.' && d[1]) {
            *kind = OS_TEXT;
            *cold = c;
            return d + 1;
        }
    }
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t l = strlen(prefixes[i].prefix);
        if (!strncmp(name, prefixes[i].prefix, l) && name[l]) {
            /* .rodata.str1.1, .rodata.cst8: merged constants, no symbol */
            if (prefixes[i].kind == OS_RODATA && (!strncmp(name + l, "str", 3) ||
                                                  !strncmp(name + l, "cst", 3)))
                return NULL;
            *kind = prefixes[i].kind;
            *cold = prefixes[i].cold;
            return name + l;
        }
    }
    return NULL;
}

int oscan_cold_part(const struct osec *o)
{
    return o->kind == OS_TEXT && o->cold &&
           (!strncmp(o->name, ".text.unlikely.", 15) || !strncmp(o->name, ".text.sorted.", 13));
}

struct scan_ctx {
    struct oscan *s;
    size_t cap_secs, cap_refs, cap_ranges, cap_cranges, cap_shared, cap_objs, cap_cleans;
    struct pi_err *err;
    /* the COMDAT groups of the objects read so far, by signature: open
       addressing, a power of two (group_discarded) */
    struct group {
        char *sig;
        int certain; /* its first copy was in an object, not an archive */
    } *groups;
    size_t ngroups, cap_groups;
    int in_archive; /* the objects being read are an archive's members */
    int link_lto;   /* the link compiled -flto objects in lto1 (link_ran_lto) */
};

static int oom(struct scan_ctx *c)
{
    pi_err_set(c->err, "out of memory");
    return -1;
}

static uint64_t hash_sig(const char *s)
{
    return pi_hash64(PI_HASH64_INIT, s, strlen(s));
}

/* Is the copy of COMDAT group sig in the object being read one the link
 * discards?  ld keeps a group's first copy in link order, and oscan_read
 * reads the objects in that order; but an archive's member is in the link
 * only when ld pulled it, which the objects do not say, so only a first
 * copy in an object named on the command line is certain to be the kept
 * one.  1 if so (this copy is discarded), else 0 (sig recorded, with
 * whether this copy is certain); -1 when out of memory. */
static int group_discarded(struct scan_ctx *c, const char *sig)
{
    if (2 * (c->ngroups + 1) > c->cap_groups) {
        size_t cap = c->cap_groups ? 2 * c->cap_groups : 1024;
        struct group *t = calloc(cap, sizeof *t);
        if (!t)
            return -1;
        for (size_t i = 0; i < c->cap_groups; i++)
            if (c->groups[i].sig) {
                size_t j = hash_sig(c->groups[i].sig) & (cap - 1);
                while (t[j].sig)
                    j = (j + 1) & (cap - 1);
                t[j] = c->groups[i];
            }
        free(c->groups);
        c->groups = t;
        c->cap_groups = cap;
    }
    size_t j = hash_sig(sig) & (c->cap_groups - 1);
    for (; c->groups[j].sig; j = (j + 1) & (c->cap_groups - 1))
        if (!strcmp(c->groups[j].sig, sig))
            return c->groups[j].certain;
    if (!(c->groups[j].sig = strdup(sig)))
        return -1;
    c->groups[j].certain = !c->in_archive;
    c->ngroups++;
    return 0;
}

/* The sections of e's COMDAT groups that the link discards (an earlier
 * object's copy is kept, group_discarded): gone[i] = 1.  0, or -1 out of
 * memory. */
static int discarded_groups(struct scan_ctx *c, Elf *e, size_t shnum, unsigned char *gone)
{
    for (size_t i = 0; i < shnum; i++) {
        Elf_Scn *scn = elf_getscn(e, i), *symscn;
        GElf_Shdr sh, symsh;
        GElf_Sym sym;
        Elf_Data *d, *symd;
        const char *sig;
        if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_GROUP ||
            !(d = elf_getdata(scn, NULL)) || d->d_size < 4 ||
            !(*(const uint32_t *)d->d_buf & GRP_COMDAT) || !(symscn = elf_getscn(e, sh.sh_link)) ||
            !gelf_getshdr(symscn, &symsh) || !(symd = elf_getdata(symscn, NULL)) ||
            !gelf_getsym(symd, (int)sh.sh_info, &sym) ||
            !(sig = elf_strptr(e, symsh.sh_link, sym.st_name)))
            continue;
        int discarded = group_discarded(c, sig);
        if (discarded < 0)
            return oom(c);
        const uint32_t *m = d->d_buf;
        for (size_t k = 1; discarded && k < d->d_size / 4; k++)
            if (m[k] < shnum)
                gone[m[k]] = 1;
    }
    return 0;
}

/* The n ranges r (in sections shndx) of sections that map keeps, appended
 * to *out as oranges. */
static int add_oranges(struct scan_ctx *c, const struct pi_range *r, const uint32_t *shndx, size_t n,
                       const uint32_t *map, size_t shnum, struct orange **out, size_t *nout,
                       size_t *cap)
{
    for (size_t i = 0; shndx && i < n; i++) {
        if (shndx[i] >= shnum || map[shndx[i]] == UINT32_MAX)
            continue;
        if (pi_grow((void **)out, cap, *nout, sizeof **out))
            return oom(c);
        (*out)[(*nout)++] = (struct orange){ map[shndx[i]], r[i].addr, r[i].unit_id, r[i].site,
                                             r[i].length };
    }
    return 0;
}

static int one(struct pi_meta *m, Elf *e, void *arg)
{
    struct scan_ctx *c = arg;
    struct oscan *s = c->s;
    GElf_Ehdr eh;
    int status = 0;
    size_t shnum, shstr;
    uint32_t *map = NULL;
    unsigned char *gone = NULL;
    if (!gelf_getehdr(e, &eh) || eh.e_type != ET_REL || eh.e_machine != EM_X86_64)
        goto out; /* only x86-64 relocatable objects have sections to order */
    if (elf_getshdrnum(e, &shnum) || elf_getshdrstrndx(e, &shstr)) {
        status = pi_err_set(c->err, "%s: %s", m->path, elf_errmsg(-1));
        goto out;
    }
    if (pi_grow((void **)&s->objs, &c->cap_objs, s->nobjs, sizeof *s->objs) ||
        !(s->objs[s->nobjs] = strdup(m->path))) {
        status = oom(c);
        goto out;
    }
    uint32_t obj = (uint32_t)s->nobjs++;
    map = malloc((shnum ? shnum : 1) * sizeof *map);
    gone = calloc(shnum ? shnum : 1, 1);
    if (!map || !gone) {
        status = oom(c);
        goto out;
    }
    if (discarded_groups(c, e, shnum, gone)) {
        status = -1;
        goto out;
    }
    /* -flto bytecode (.gnu.lto_*): lto1 made this object's code during the
       link, in no object; the code of a fat one (-ffat-lto-objects) is
       not the program's either unless the link said -fno-lto */
    for (size_t i = 0; i < shnum; i++) {
        Elf_Scn *scn = elf_getscn(e, i);
        GElf_Shdr sh;
        const char *name = scn && gelf_getshdr(scn, &sh) ? elf_strptr(e, shstr, sh.sh_name) : NULL;
        if (name && !strncmp(name, ".gnu.lto_", 9)) {
            if (!s->nlto++ && !(s->lto_obj = strdup(m->path)))
                status = oom(c);
            if (status || c->link_lto)
                goto out;
            break;
        }
    }
    Elf_Scn *symscn = NULL;
    for (size_t i = 0; i < shnum; i++) {
        map[i] = UINT32_MAX;
        Elf_Scn *scn = elf_getscn(e, i);
        GElf_Shdr sh;
        if (!scn || !gelf_getshdr(scn, &sh))
            continue;
        if (sh.sh_type == SHT_SYMTAB)
            symscn = scn;
        const char *name = elf_strptr(e, shstr, sh.sh_name);
        if (!(sh.sh_flags & SHF_ALLOC) || (sh.sh_flags & (SHF_TLS | SHF_MERGE)))
            continue; /* TLS stays in its segment; merged constants are no object */
        if (gone[i])
            continue; /* not in the program: its refs, ranges and size with it */
        int kind, cold;
        const char *sym = name ? oscan_sym_of(name, &kind, &cold) : NULL;
        if (!sym)
            continue;
        if (pi_grow((void **)&s->secs, &c->cap_secs, s->nsecs, sizeof *s->secs)) {
            status = oom(c);
            goto out;
        }
        struct osec *o = &s->secs[s->nsecs];
        memset(o, 0, sizeof *o);
        if (!(o->name = strdup(name))) {
            status = oom(c);
            goto out;
        }
        o->sym = o->name + (sym - name);
        o->kind = kind;
        o->cold = cold;
        o->group = (sh.sh_flags & SHF_GROUP) != 0;
        o->size = sh.sh_size;
        o->align = sh.sh_addralign ? sh.sh_addralign : 1;
        o->obj = obj;
        map[i] = (uint32_t)s->nsecs++;
    }
    /* functions in a section that is not their own */
    Elf_Data *symd = symscn ? elf_getdata(symscn, NULL) : NULL;
    GElf_Shdr symsh;
    size_t nsyms = 0;
    if (symd && gelf_getshdr(symscn, &symsh) && symsh.sh_entsize)
        nsyms = symsh.sh_size / symsh.sh_entsize;
    for (size_t k = 0; k < nsyms; k++) {
        GElf_Sym sym;
        if (!gelf_getsym(symd, (int)k, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
            sym.st_shndx == SHN_UNDEF || sym.st_shndx >= shnum || !sym.st_size)
            continue;
        Elf_Scn *scn = elf_getscn(e, sym.st_shndx);
        GElf_Shdr sh;
        const char *sn = scn && gelf_getshdr(scn, &sh) ? elf_strptr(e, shstr, sh.sh_name) : NULL;
        const char *fn = elf_strptr(e, symsh.sh_link, sym.st_name);
        /* a function whose name starts like a tier's prefix: `hot`'s clone
           hot.constprop.0 in .text.hot.constprop.0 is no hot-tier
           constprop.0 (nor `unlikely.part.0` a cold one) */
        struct osec *o = map[sym.st_shndx] != UINT32_MAX ? &s->secs[map[sym.st_shndx]] : NULL;
        if (o && fn && o->kind == OS_TEXT && !strncmp(o->name, ".text.", 6) &&
            !strcmp(o->name + 6, fn) && o->sym != o->name + 6) {
            o->sym = o->name + 6;
            o->cold = 0;
        }
        if (!sn || !fn || strcmp(sn, ".text"))
            continue;
        char *t = NULL;
        if (asprintf(&t, "%s: %s", m->path, fn) < 0 ||
            pi_grow((void **)&s->shared, &c->cap_shared, s->nshared, sizeof *s->shared)) {
            free(t);
            status = oom(c);
            goto out;
        }
        s->shared[s->nshared++] = t;
    }
    /* the clean copies' entries: the `clean` field of each pi_jump_info is
       `.long LABEL - .`, a PC32 relocation against LABEL's text section */
    for (size_t i = 0; i < shnum && nsyms; i++) {
        Elf_Scn *scn = elf_getscn(e, i), *tscn;
        GElf_Shdr sh, tsh;
        const char *tn;
        if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || sh.sh_info >= shnum ||
            !sh.sh_entsize || !(tscn = elf_getscn(e, sh.sh_info)) || !gelf_getshdr(tscn, &tsh) ||
            !(tn = elf_strptr(e, shstr, tsh.sh_name)) || strcmp(tn, PI_JUMPINFO_SECTION))
            continue;
        Elf_Data *rd = elf_getdata(scn, NULL);
        size_t nrel = rd ? sh.sh_size / sh.sh_entsize : 0;
        for (size_t k = 0; k < nrel; k++) {
            GElf_Rela r;
            GElf_Sym sym;
            if (!gelf_getrela(rd, (int)k, &r) || GELF_R_TYPE(r.r_info) != R_X86_64_PC32 ||
                r.r_offset % sizeof(struct pi_jump_info) != offsetof(struct pi_jump_info, clean) ||
                !gelf_getsym(symd, (int)GELF_R_SYM(r.r_info), &sym) || sym.st_shndx == SHN_UNDEF ||
                sym.st_shndx >= shnum || map[sym.st_shndx] == UINT32_MAX ||
                s->secs[map[sym.st_shndx]].kind != OS_TEXT)
                continue;
            if (pi_grow((void **)&s->cleans, &c->cap_cleans, s->ncleans, sizeof *s->cleans)) {
                status = oom(c);
                goto out;
            }
            s->cleans[s->ncleans++] = (struct oclean){ map[sym.st_shndx],
                                                       (uint64_t)((int64_t)sym.st_value + r.r_addend) };
        }
    }
    /* relocations of the sections we keep */
    for (size_t i = 0; i < shnum && nsyms; i++) {
        Elf_Scn *scn = elf_getscn(e, i);
        GElf_Shdr sh;
        if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || sh.sh_info >= shnum ||
            map[sh.sh_info] == UINT32_MAX || !sh.sh_entsize)
            continue;
        uint32_t from = map[sh.sh_info];
        Elf_Scn *tscn = elf_getscn(e, sh.sh_info);
        GElf_Shdr tsh;
        Elf_Data *bytes = tscn && gelf_getshdr(tscn, &tsh) && tsh.sh_type == SHT_PROGBITS
                              ? elf_getdata(tscn, NULL) : NULL;
        Elf_Data *rd = elf_getdata(scn, NULL);
        size_t nrel = rd ? sh.sh_size / sh.sh_entsize : 0;
        for (size_t k = 0; k < nrel; k++) {
            GElf_Rela r;
            GElf_Sym sym;
            if (!gelf_getrela(rd, (int)k, &r))
                continue;
            unsigned type = GELF_R_TYPE(r.r_info);
            if (type != R_X86_64_PLT32 && type != R_X86_64_PC32 &&
                type != R_X86_64_GOTPCRELX && type != R_X86_64_REX_GOTPCRELX &&
                type != R_X86_64_64 && type != R_X86_64_32S && type != R_X86_64_32)
                continue;
            if (!gelf_getsym(symd, (int)GELF_R_SYM(r.r_info), &sym))
                continue;
            int call = 0;
            if ((type == R_X86_64_PLT32 || type == R_X86_64_PC32) && bytes && r.r_offset >= 1 &&
                r.r_offset <= bytes->d_size) {
                unsigned char op = ((unsigned char *)bytes->d_buf)[r.r_offset - 1];
                call = op == 0xe8 || op == 0xe9;
            }
            uint32_t to = UINT32_MAX;
            char *to_name = NULL;
            /* a counting copy's call of another unit's g at g.pi_entry
               (gcc-plugin/pass-tailjump.cc): g.count.N's address, or this
               object's stand-in `jmp g`; either way a call of g */
            const char *sn = elf_strptr(e, symsh.sh_link, sym.st_name);
            size_t snl = sn ? strlen(sn) : 0;
            static const char entry_sfx[] = ".pi_entry";
            if (snl > sizeof entry_sfx - 1 && !strcmp(sn + snl - (sizeof entry_sfx - 1), entry_sfx)) {
                if (!(to_name = strndup(sn, snl - (sizeof entry_sfx - 1)))) {
                    status = oom(c);
                    goto out;
                }
            } else if (sym.st_shndx != SHN_UNDEF && sym.st_shndx < shnum) {
                to = map[sym.st_shndx];
                if (to == UINT32_MAX)
                    continue;
            } else if (sym.st_shndx == SHN_UNDEF) {
                const char *n = elf_strptr(e, symsh.sh_link, sym.st_name);
                if (!n || !*n || !(to_name = strdup(n))) {
                    if (n && *n) {
                        status = oom(c);
                        goto out;
                    }
                    continue;
                }
            } else {
                continue;
            }
            if (to == from) {
                free(to_name);
                continue;
            }
            if (pi_grow((void **)&s->refs, &c->cap_refs, s->nrefs, sizeof *s->refs)) {
                free(to_name);
                status = oom(c);
                goto out;
            }
            s->refs[s->nrefs++] = (struct oref){ from, to, to_name, r.r_offset, call };
        }
    }
    /* CODE ranges, and the clean copies' (.perfinst.clean): offsets
       within their sections */
    if (add_oranges(c, m->ranges, m->range_shndx, m->nranges, map, shnum, &s->ranges, &s->nranges,
                    &c->cap_ranges) ||
        add_oranges(c, m->cranges, m->crange_shndx, m->ncranges, map, shnum, &s->cranges,
                    &s->ncranges, &c->cap_cranges))
        status = -1;
out:
    free(map);
    free(gone);
    pi_meta_free(m);
    return status;
}

static int by_sec_off(const void *a, const void *b)
{
    const struct orange *x = a, *y = b;
    PI_CMP_RET(x->sec, y->sec);
    return x->off < y->off ? -1 : x->off > y->off;
}

static int by_clean(const void *a, const void *b)
{
    const struct oclean *x = a, *y = b;
    PI_CMP_RET(x->sec, y->sec);
    return x->off < y->off ? -1 : x->off > y->off;
}

size_t oscan_first_range(const struct oscan *s, uint32_t sec)
{
    return oscan_first_of(s->ranges, s->nranges, sec);
}

size_t oscan_first_of(const struct orange *r, size_t n, uint32_t sec)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (r[mid].sec < sec)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

uint64_t oscan_range_end(const struct oscan *s, size_t k)
{
    const struct orange *x = &s->ranges[k];
    uint64_t lo = x->off, hi = s->secs[x->sec].size;
    for (size_t m = k + 1; m < s->nranges && s->ranges[m].sec == x->sec; m++)
        if (s->ranges[m].off > lo) {
            hi = s->ranges[m].off;
            break;
        }
    /* the first clean entry after lo */
    size_t a = 0, b = s->ncleans;
    while (a < b) {
        size_t mid = (a + b) / 2;
        const struct oclean *c = &s->cleans[mid];
        if (c->sec < x->sec || (c->sec == x->sec && c->off <= lo))
            a = mid + 1;
        else
            b = mid;
    }
    /* one that starts where the range ends is a body GCC's cross-jumping
       shared between the copies, which the counted code falls into
       (tests/relink/cyclic.c's f1: `jmp *SLOT; addq $1, ctr; nop…`, the
       clean entry the first nop): it runs as counted code too */
    if (a < s->ncleans && s->cleans[a].sec == x->sec && s->cleans[a].off == lo + x->len)
        a++;
    if (a < s->ncleans && s->cleans[a].sec == x->sec && s->cleans[a].off < hi)
        hi = s->cleans[a].off;
    if (hi < lo + x->len)
        hi = lo + x->len;
    return hi;
}

static void free_groups(struct scan_ctx *c)
{
    for (size_t i = 0; i < c->cap_groups; i++)
        free(c->groups[i].sig);
    free(c->groups);
    c->groups = NULL;
    c->ngroups = c->cap_groups = 0;
}

static const struct oscan *name_ctx;
static int by_name(const void *a, const void *b)
{
    const struct osec *x = &name_ctx->secs[*(const uint32_t *)a],
                      *y = &name_ctx->secs[*(const uint32_t *)b];
    int k = strcmp(x->sym, y->sym);
    return k ? k : (*(const uint32_t *)a > *(const uint32_t *)b) - (*(const uint32_t *)a < *(const uint32_t *)b);
}

int oscan_read(struct oscan *s, char *const *paths, size_t n, int link_lto)
{
    memset(s, 0, sizeof *s);
    struct pi_err err;
    struct scan_ctx c = { .s = s, .err = &err, .link_lto = link_lto };
    elf_version(EV_CURRENT);
    for (size_t i = 0; i < n; i++) {
        /* relocatable objects and archives only: shared libraries and
         * linker scripts (libm.so is one) have no sections to order */
        unsigned char h[18] = { 0 };
        FILE *f = fopen(paths[i], "rb");
        pi_input_note(paths[i]);
        size_t got = f ? fread(h, 1, sizeof h, f) : 0;
        if (f)
            fclose(f);
        else if (errno == ENOENT && !s->ngone++ && !(s->gone_obj = strdup(paths[i]))) {
            pm_error("out of memory");
            return -1;
        }
        int is_ar = got >= 8 && !memcmp(h, "!<arch>\n", 8);
        int is_rel = got == sizeof h && !memcmp(h, "\177ELF", 4) && h[5] == 1 /* LSB */ &&
                     h[16] == ET_REL && h[17] == 0;
        if (!is_ar && !is_rel)
            continue;
        c.in_archive = is_ar;
        if (pi_meta_read_each(paths[i], one, &c, &err)) {
            pm_error("%s", err.msg);
            free_groups(&c);
            return -1;
        }
    }
    free_groups(&c);
    if (s->nranges) /* qsort(NULL, 0, ...) is undefined */
        qsort(s->ranges, s->nranges, sizeof *s->ranges, by_sec_off);
    if (s->ncranges)
        qsort(s->cranges, s->ncranges, sizeof *s->cranges, by_sec_off);
    if (s->ncleans)
        qsort(s->cleans, s->ncleans, sizeof *s->cleans, by_clean);
    /* resolve references by global name: the text (or data) section whose
     * symbol is that name (a section named after a global function) */
    uint32_t *idx = malloc((s->nsecs ? s->nsecs : 1) * sizeof *idx);
    if (!idx) {
        pm_error("out of memory");
        return -1;
    }
    for (uint32_t i = 0; i < s->nsecs; i++)
        idx[i] = i;
    name_ctx = s;
    qsort(idx, s->nsecs, sizeof *idx, by_name);
    for (size_t k = 0; k < s->nrefs; k++) {
        struct oref *r = &s->refs[k];
        if (!r->to_name)
            continue;
        size_t lo = 0, hi = s->nsecs;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (strcmp(s->secs[idx[mid]].sym, r->to_name) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (; lo < s->nsecs && !strcmp(s->secs[idx[lo]].sym, r->to_name); lo++)
            if (!s->secs[idx[lo]].cold) {
                r->to = idx[lo];
                break;
            }
    }
    free(idx);
    return 0;
}

void oscan_free(struct oscan *s)
{
    for (size_t i = 0; i < s->nobjs; i++)
        free(s->objs[i]);
    for (size_t i = 0; i < s->nsecs; i++)
        free(s->secs[i].name);
    for (size_t i = 0; i < s->nrefs; i++)
        free(s->refs[i].to_name);
    for (size_t i = 0; i < s->nshared; i++)
        free(s->shared[i]);
    free(s->objs), free(s->secs), free(s->refs), free(s->ranges), free(s->cranges), free(s->shared), free(s->cleans);
    free(s->lto_obj), free(s->gone_obj);
    memset(s, 0, sizeof *s);
}

long oscan_find(const struct oscan *s, int kind, const char *sym)
{
    for (size_t i = 0; i < s->nsecs; i++)
        if (s->secs[i].kind == kind && !s->secs[i].cold && !strcmp(s->secs[i].sym, sym))
            return (long)i;
    return -1;
}

/* Whether the recorded link compiled its -flto objects in lto1: gcc's
 * linker plugin claims every object with LTO bytecode, fat ones too, with or
 * without -flto on the link; only -fno-lto (the last of -flto and -fno-lto
 * in the link's COLLECT_GCC_OPTIONS) links a fat object's own code.  A
 * version 1 recipe has no environment: lto1, as gcc's default. */
static int link_ran_lto(const struct pi_meta *m)
{
    uint32_t off = m->link.env;
    for (uint32_t i = 0; i < m->link.nenv && off < m->link.strtab_size; i++) {
        const char *e = m->link_strtab + off;
        size_t len = strnlen(e, m->link.strtab_size - off);
        off += (uint32_t)len + 1;
        static const char key[] = "COLLECT_GCC_OPTIONS=";
        if (strncmp(e, key, sizeof key - 1))
            continue;
        int lto = 1;
        for (const char *p = e; (p = strstr(p, "'-f")) != NULL; p += 3) {
            if (!strncmp(p, "'-fno-lto'", 10))
                lto = 0;
            else if (!strncmp(p, "'-flto'", 7) || !strncmp(p, "'-flto=", 7))
                lto = 1;
        }
        return lto;
    }
    return 1;
}

int oscan_read_link(struct oscan *s, const struct pi_meta *m)
{
    char **paths = calloc(m->link.ninputs ? m->link.ninputs : 1, sizeof *paths);
    size_t n = 0;
    if (!paths) {
        memset(s, 0, sizeof *s);
        pm_error("out of memory");
        return -1;
    }
    for (uint32_t i = 0; i < m->link.ninputs; i++) {
        uint32_t off = m->inputs[i].path;
        if (off < m->link.strtab_size)
            paths[n++] = m->link_strtab + off;
    }
    int st = oscan_read(s, paths, n, link_ran_lto(m));
    free(paths);
    return st;
}
