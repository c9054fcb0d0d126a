/* pimeta.c — the one reader of perfinst metadata in ELF files (pimeta.h).
 *
 * What it reads (docs/formats.md has every field):
 *
 *   .perfinst        UNIT and CODE chunks, one or several per input object;
 *                    ld concatenates the inputs' sections, so the reader walks
 *                    chunk by chunk and skips 8-byte zero padding between them
 *   .perfinst.xlat   one XLAT chunk (programs linked by perfinst-ld)
 *   .perfinst.link   one LINK chunk (programs linked by perfinst-ld)
 *
 * In a relocatable object the CODE ranges' addresses are R_X86_64_64
 * relocations against code labels: the reader applies .rela.perfinst so
 * that addr = symbol value + addend (an offset in the label's section) and
 * keeps the section index in range_shndx.
 *
 * The chunks themselves are decoded and checked by common/piformat.c, the
 * one decoder the runtime shares; this file finds the sections (libelf),
 * relocates an object's, copies what the decoder checked, folds a unit
 * that appears twice and cross-checks the whole (pi_meta_validate).
 * The input is untrusted (the readers are fuzzed): the decoder checks
 * every count against the bytes that hold it before anything is copied,
 * so memory is bounded by a small multiple of the input size.  Every
 * message names the file, the section and the chunk.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "piformat.h"
#include "pimeta.h"
#include "piutil.h"
#include "piout.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "perfinst formats are little-endian; this reader assumes a little-endian host"
#endif

/* ---------------------------------------------------------------------- */
/* Names                                                                     */
/* ---------------------------------------------------------------------- */

static const char *const directive_names[] = {
    "count", "types", "trap", "threshold", "cycles", "trace_start", "trace_stop",
    "region_begin", "region_end", "callret", "watch", "sharing", "sample", "emit",
    "dormant", "blocking",
};

const char *pi_directive_names(uint32_t bits, char *buf, size_t size)
{
    size_t n = 0;
    if (!size)
        return buf;
    buf[0] = 0;
    if (!bits) {
        snprintf(buf, size, "-");
        return buf;
    }
    for (unsigned i = 0; i < 32 && n < size; i++) {
        if (!(bits & (1u << i)))
            continue;
        const char *sep = n ? "|" : "";
        int w;
        if (i < sizeof directive_names / sizeof directive_names[0])
            w = snprintf(buf + n, size - n, "%s%s", sep, directive_names[i]);
        else
            w = snprintf(buf + n, size - n, "%s0x%x", sep, 1u << i);
        if (w < 0)
            break;
        n += (size_t)w;
    }
    return buf;
}

const char *pi_itype_name(unsigned t)
{
    static const char *const names[PI_NTYPES] = {
        "branch", "call", "ret", "load", "store", "string", "fp",
    };
    return t < PI_NTYPES ? names[t] : "?";
}

char *pi_build_id_hex(const uint8_t *id, uint32_t len, char *buf)
{
    static const char hex[] = "0123456789abcdef";
    if (len > PI_BUILD_ID_MAX)
        len = PI_BUILD_ID_MAX;
    for (uint32_t i = 0; i < len; i++) {
        buf[2 * i] = hex[id[i] >> 4];
        buf[2 * i + 1] = hex[id[i] & 15];
    }
    buf[2 * len] = 0;
    return buf;
}

const char *pi_unit_str(const struct pi_unit_view *u, uint32_t off)
{
    if (!u || !u->strtab || off >= u->hdr.strtab_size)
        return "";
    return u->strtab + off;
}

/* The chunk walk: common/piformat.c decodes, this reader copies            */
/* ---------------------------------------------------------------------- */

/* A unit while the sections are walked: where it came from, for messages. */
struct unit_tmp {
    struct pi_unit_view v;
    const char *sec;
    uint64_t off;
};

struct range_tmp {
    struct pi_range r;
    uint32_t shndx;
};

/* State of one read: the result being built and what messages need. */
struct reader {
    const char *path;
    struct pi_err *err;
    struct pi_meta *m;
    struct unit_tmp *units;
    size_t nunits, units_cap;
    struct range_tmp *ranges;
    size_t nranges, ranges_cap;
    struct range_tmp *cranges; /* .perfinst.clean's */
    size_t ncranges, cranges_cap;
    /* an object's sections (ET_REL), indexed once: by section index, its
       first relocation section and each one's next for the same target
       (0: none), and the SHT_SYMTAB_SHNDX section whose sh_link it is (a
       symbol table's extended indices; 0: none) — an object compiled with
       -ffunction-sections has thousands of sections, and a scan of them
       per relocation was most of perfinst-ld's time */
    size_t nscn;
    size_t *first_rel, *next_rel, *xndx_of;
};

/* One section being walked. */
struct section {
    const char *name;
    const uint8_t *data;
    uint64_t size;
    const uint32_t *relshndx; /* ET_REL: section index per 8-byte slot, else NULL */
    unsigned kinds;           /* PI_CHUNK_BIT of each kind allowed here */
    int clean;                /* .perfinst.clean: its ranges are the clean copies' */
};

/* The prefix of every chunk message: "path: section: chunk at offset 0x..: " */
#define CHUNK_ERR(rd, sec, off, fmt, ...)                                          \
    pi_err_set((rd)->err, "%s: %s: chunk at offset 0x%llx: " fmt, (rd)->path,     \
               (sec)->name, (unsigned long long)(off), ##__VA_ARGS__)

/* Copy n elements of size sz at p into a fresh array (NULL for n == 0).
 * The decoder has checked that n * sz bytes are there, so n is bounded by
 * the input. */
static void *copy_array(const uint8_t *p, uint64_t n, size_t sz, int *oom)
{
    if (!n)
        return NULL;
    void *a = malloc((size_t)(n * sz));
    if (!a) {
        *oom = 1;
        return NULL;
    }
    memcpy(a, p, (size_t)(n * sz));
    return a;
}

static void unit_view_free(struct pi_unit_view *v)
{
    free(v->funcs);
    free(v->sites);
    free(v->succs);
    free(v->arcs);
    free(v->lines);
    free(v->strtab);
    memset(v, 0, sizeof *v);
}

static int add_unit(struct reader *rd, const struct section *s, uint64_t off,
                    const struct pi_unit_ref *u)
{
    int oom = 0;
    struct pi_unit_view v = { .hdr = u->hdr };
    v.funcs = copy_array(u->funcs, u->hdr.nfuncs, sizeof(struct pi_func), &oom);
    v.sites = copy_array(u->sites, u->hdr.nsites, sizeof(struct pi_site), &oom);
    v.succs = copy_array(u->succs, u->hdr.nsuccs, 4, &oom);
    v.arcs = copy_array(u->arcs, u->hdr.narcs, sizeof(struct pi_arc), &oom);
    v.lines = copy_array(u->lines, u->hdr.nlines, sizeof(struct pi_line), &oom);
    v.strtab = copy_array((const uint8_t *)u->strtab, u->hdr.strtab_size, 1, &oom);
    if (oom || pi_grow((void **)&rd->units, &rd->units_cap, rd->nunits, sizeof *rd->units)) {
        unit_view_free(&v);
        return pi_err_set(rd->err, "%s: out of memory", rd->path);
    }
    rd->units[rd->nunits++] = (struct unit_tmp){ .v = v, .sec = s->name, .off = off };
    return 0;
}

static int add_ranges(struct reader *rd, const struct section *s, uint64_t off,
                      const struct pi_code_ref *k)
{
    for (uint32_t i = 0; i < k->nranges; i++) {
        struct range_tmp t = { .r = pi_get_range(k->ranges, i) };
        if (s->relshndx) /* off and the range's offset are multiples of 8 */
            t.shndx = s->relshndx[(off + PI_CODE_RANGE_OFF(i)) / 8];
        struct range_tmp **v = s->clean ? &rd->cranges : &rd->ranges;
        size_t *n = s->clean ? &rd->ncranges : &rd->nranges;
        if (pi_grow((void **)v, s->clean ? &rd->cranges_cap : &rd->ranges_cap, *n, sizeof **v))
            return pi_err_set(rd->err, "%s: out of memory", rd->path);
        (*v)[(*n)++] = t;
    }
    return 0;
}

static int add_xlat(struct reader *rd, const struct pi_xlat_ref *x)
{
    struct pi_meta *m = rd->m;
    int oom = 0;
    m->items = copy_array(x->items, x->hdr.nitems, sizeof *m->items, &oom);
    m->blocks = copy_array(x->blocks, x->hdr.nblocks, sizeof *m->blocks, &oom);
    m->refs = copy_array(x->refs, x->hdr.nrefs, 4, &oom);
    m->has_xlat = 1; /* (pi_meta_free frees what was copied) */
    m->xlat = x->hdr;
    return oom ? pi_err_set(rd->err, "%s: out of memory", rd->path) : 0;
}

static int add_link(struct reader *rd, const struct pi_link_ref *l)
{
    struct pi_meta *m = rd->m;
    int oom = 0;
    m->inputs = copy_array(l->inputs, l->hdr.ninputs, sizeof *m->inputs, &oom);
    m->link_strtab = copy_array((const uint8_t *)l->strtab, l->hdr.strtab_size, 1, &oom);
    m->has_link = 1;
    m->link = l->hdr;
    return oom ? pi_err_set(rd->err, "%s: out of memory", rd->path) : 0;
}

/* Walk one section's chunks. */
static int walk_section(struct reader *rd, const struct section *s)
{
    struct pi_chunk_cursor cur = { .sec = s->data, .size = s->size, .kinds = s->kinds };
    struct pi_chunk_hdr h;
    struct pi_dec_err e;
    uint64_t off;
    int more;
    while ((more = pi_chunk_next(&cur, &h, &off, &e)) > 0) {
        const uint8_t *c = s->data + off;
        union {
            struct pi_unit_ref u;
            struct pi_code_ref k;
            struct pi_xlat_ref x;
            struct pi_link_ref l;
        } v;
        if (h.kind == PI_CHUNK_XLAT && rd->m->has_xlat)
            return CHUNK_ERR(rd, s, off, "a second XLAT chunk (a module has one translation table)");
        if (h.kind == PI_CHUNK_LINK && rd->m->has_link)
            return CHUNK_ERR(rd, s, off, "a second LINK chunk (a program records one link)");
        int bad = h.kind == PI_CHUNK_UNIT ? pi_unit_decode(c, h.size, &v.u, &e)
                : h.kind == PI_CHUNK_CODE ? pi_code_decode(c, h.size, &v.k, &e)
                : h.kind == PI_CHUNK_XLAT ? pi_xlat_decode(c, h.size, &v.x, &e)
                                          : pi_link_decode(c, h.size, &v.l, &e);
        if (bad)
            return CHUNK_ERR(rd, s, off, "%s", e.msg);
        int r = h.kind == PI_CHUNK_UNIT ? add_unit(rd, s, off, &v.u)
              : h.kind == PI_CHUNK_CODE ? add_ranges(rd, s, off, &v.k)
              : h.kind == PI_CHUNK_XLAT ? add_xlat(rd, &v.x)
                                        : add_link(rd, &v.l);
        if (r)
            return r;
    }
    return more < 0 ? CHUNK_ERR(rd, s, off, "%s", e.msg) : 0;
}

/* ---------------------------------------------------------------------- */
/* Finishing: sort, fold identical duplicates, hand over                     */
/* ---------------------------------------------------------------------- */

static int cmp_unit_tmp(const void *a, const void *b)
{
    const struct unit_tmp *x = a, *y = b;
    PI_CMP_RET(x->v.hdr.unit_id, y->v.hdr.unit_id);
    /* equal ids: keep the order of appearance (for the message) */
    PI_CMP_RET(x->off, y->off);
    return 0;
}

static int cmp_range_tmp(const void *a, const void *b)
{
    const struct range_tmp *x = a, *y = b;
#define CMP(f) if (x->f != y->f) return x->f < y->f ? -1 : 1
    CMP(r.addr);
    CMP(r.unit_id);
    CMP(r.site);
    CMP(shndx);
    CMP(r.length);
#undef CMP
    return 0;
}

static int same_unit(const struct pi_unit_view *a, const struct pi_unit_view *b)
{
    if (memcmp(&a->hdr, &b->hdr, sizeof a->hdr))
        return 0;
#define SAME(f, n, sz) ((n) == 0 || memcmp(a->f, b->f, (size_t)(n) * (sz)) == 0)
    return SAME(funcs, a->hdr.nfuncs, sizeof(struct pi_func)) &&
           SAME(sites, a->hdr.nsites, sizeof(struct pi_site)) &&
           SAME(succs, a->hdr.nsuccs, 4) && SAME(arcs, a->hdr.narcs, sizeof(struct pi_arc)) &&
           SAME(lines, a->hdr.nlines, sizeof(struct pi_line)) && SAME(strtab, a->hdr.strtab_size, 1);
#undef SAME
}

static void reader_free(struct reader *rd)
{
    for (size_t i = 0; i < rd->nunits; i++)
        unit_view_free(&rd->units[i].v);
    free(rd->units);
    free(rd->ranges);
    free(rd->cranges);
    rd->units = NULL;
    rd->ranges = rd->cranges = NULL;
    rd->nunits = rd->nranges = rd->ncranges = 0;
    free(rd->first_rel);
    free(rd->next_rel);
    free(rd->xndx_of);
    rd->first_rel = rd->next_rel = rd->xndx_of = NULL;
    rd->nscn = 0;
}

/* The n ranges t, sorted, into *out (and their sections into *shndx). */
static int hand_ranges(struct reader *rd, struct range_tmp *t, size_t n, int want_shndx,
                       struct pi_range **out, uint32_t **shndx)
{
    if (!n)
        return 0;
    qsort(t, n, sizeof *t, cmp_range_tmp);
    *out = malloc(n * sizeof **out);
    if (want_shndx)
        *shndx = malloc(n * sizeof **shndx);
    if (!*out || (want_shndx && !*shndx))
        return pi_err_set(rd->err, "%s: out of memory", rd->path);
    for (size_t i = 0; i < n; i++) {
        (*out)[i] = t[i].r;
        if (want_shndx)
            (*shndx)[i] = t[i].shndx;
    }
    return 0;
}

static int reader_finish(struct reader *rd, int want_shndx)
{
    struct pi_meta *m = rd->m;
    if (rd->nunits)
        qsort(rd->units, rd->nunits, sizeof *rd->units, cmp_unit_tmp);
    size_t n = 0;
    for (size_t i = 0; i < rd->nunits; i++) {
        if (n && rd->units[n - 1].v.hdr.unit_id == rd->units[i].v.hdr.unit_id) {
            struct unit_tmp *a = &rd->units[n - 1], *b = &rd->units[i];
            if (!same_unit(&a->v, &b->v))
                return pi_err_set(rd->err,
                                  "%s: unit 0x%016llx appears twice with different contents "
                                  "(%s chunk at offset 0x%llx and %s chunk at offset 0x%llx)",
                                  rd->path, (unsigned long long)a->v.hdr.unit_id, a->sec,
                                  (unsigned long long)a->off, b->sec, (unsigned long long)b->off);
            unit_view_free(&b->v); /* an identical copy: fold it */
            continue;
        }
        if (n != i) {
            /* moved down: the slot it leaves owns nothing, so that an
             * error further on (reader_free) frees its arrays once */
            rd->units[n] = rd->units[i];
            memset(&rd->units[i].v, 0, sizeof rd->units[i].v);
        }
        n++;
    }
    rd->nunits = n;
    if (n) {
        m->units = calloc(n, sizeof *m->units);
        if (!m->units)
            return pi_err_set(rd->err, "%s: out of memory", rd->path);
        for (size_t i = 0; i < n; i++)
            m->units[i] = rd->units[i].v;
        m->nunits = n;
        rd->nunits = 0; /* ownership moved */
    }
    if (hand_ranges(rd, rd->ranges, rd->nranges, want_shndx, &m->ranges, &m->range_shndx) ||
        hand_ranges(rd, rd->cranges, rd->ncranges, want_shndx, &m->cranges, &m->crange_shndx))
        return -1;
    m->nranges = rd->nranges;
    m->ncranges = rd->ncranges;
    return 0;
}

void pi_meta_free(struct pi_meta *m)
{
    if (!m)
        return;
    free(m->path);
    for (size_t i = 0; i < m->nunits; i++)
        unit_view_free(&m->units[i]);
    free(m->units);
    free(m->ranges);
    free(m->range_shndx);
    free(m->cranges);
    free(m->crange_shndx);
    free(m->items);
    free(m->blocks);
    free(m->refs);
    free(m->inputs);
    free(m->link_strtab);
    memset(m, 0, sizeof *m);
}

int pi_meta_parse(const char *path, const void *data, size_t size, struct pi_meta *m,
                  struct pi_err *err)
{
    memset(m, 0, sizeof *m);
    struct reader rd = { .path = path, .err = err, .m = m };
    struct section s = {
        .name = PI_SECTION_META,
        .data = data,
        .size = size,
        /* in memory, any chunk kind is accepted (the fuzz harness reaches all) */
        .kinds = PI_CHUNKS_ALL,
    };
    m->path = strdup(path);
    m->elf_type = 0; /* ET_NONE: not from an ELF file */
    int r = m->path ? walk_section(&rd, &s) : pi_err_set(err, "%s: out of memory", path);
    if (!r)
        r = reader_finish(&rd, 0);
    reader_free(&rd);
    if (r)
        pi_meta_free(m);
    return r;
}

/* ---------------------------------------------------------------------- */
/* ELF                                                                       */
/* ---------------------------------------------------------------------- */

#define ELF_ERR(rd, what) \
    pi_err_set((rd)->err, "%s: %s: %s", (rd)->path, what, elf_errmsg(-1))

/* The NT_GNU_BUILD_ID among the notes of d into id: its length, 0 if none. */
static uint32_t read_build_id_notes(uint8_t id[PI_BUILD_ID_MAX], Elf_Data *d)
{
    size_t off = 0, next;
    GElf_Nhdr nh;
    size_t name_off, desc_off;
    while (off < d->d_size && (next = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
        if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
            name_off + 4 <= d->d_size && memcmp((char *)d->d_buf + name_off, "GNU", 4) == 0 &&
            desc_off + nh.n_descsz <= d->d_size && nh.n_descsz > 0) {
            /* longer ids are cut to PI_BUILD_ID_MAX, as the runtime does */
            uint32_t n = nh.n_descsz > PI_BUILD_ID_MAX ? PI_BUILD_ID_MAX : nh.n_descsz;
            memcpy(id, (char *)d->d_buf + desc_off, n);
            return n;
        }
        off = next;
    }
    return 0;
}

uint32_t pi_elf_build_id(struct Elf *elf, uint8_t id[PI_BUILD_ID_MAX])
{
    uint32_t n = 0;
    Elf_Scn *scn = NULL;
    while (!n && (scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh;
        Elf_Data *d;
        if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_NOTE && (d = elf_getdata(scn, NULL)))
            n = read_build_id_notes(id, d);
    }
    return n;
}

/* Read the symbol that a relocation names: value and section index. */
static int reloc_symbol(struct reader *rd, Elf *elf, size_t symtab_ndx, uint64_t symi,
                        uint64_t *value, uint32_t *shndx)
{
    Elf_Scn *scn = elf_getscn(elf, symtab_ndx);
    GElf_Shdr sh;
    if (!scn || !gelf_getshdr(scn, &sh))
        return ELF_ERR(rd, "symbol table of .rela" PI_SECTION_META);
    if (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM)
        return pi_err_set(rd->err, "%s: .rela" PI_SECTION_META ": sh_link %zu is not a symbol "
                          "table", rd->path, symtab_ndx);
    Elf_Data *d = elf_getdata(scn, NULL);
    if (!d)
        return ELF_ERR(rd, "symbol table data");
    GElf_Sym sym;
    Elf32_Word xndx = 0;
    Elf_Data *xd = NULL;
    /* SHT_SYMTAB_SHNDX holds section indices >= SHN_LORESERVE */
    if (symtab_ndx < rd->nscn && rd->xndx_of[symtab_ndx]) {
        Elf_Scn *x = elf_getscn(elf, rd->xndx_of[symtab_ndx]);
        xd = x ? elf_getdata(x, NULL) : NULL;
    }
    if (symi > INT_MAX || !gelf_getsymshndx(d, xd, (int)symi, &sym, &xndx))
        return pi_err_set(rd->err, "%s: .rela" PI_SECTION_META ": symbol %llu: %s", rd->path,
                          (unsigned long long)symi, elf_errmsg(-1));
    uint32_t ndx = sym.st_shndx == SHN_XINDEX ? xndx : sym.st_shndx;
    if (ndx == SHN_UNDEF)
        return pi_err_set(rd->err, "%s: .rela" PI_SECTION_META ": relocation against undefined "
                          "symbol %llu (a range must name a label in this object)", rd->path,
                          (unsigned long long)symi);
    *value = sym.st_value;
    *shndx = ndx;
    return 0;
}

/* Apply the R_X86_64_64 relocations of rela section `rs` to buf. */
static int apply_relocs(struct reader *rd, Elf *elf, Elf_Scn *rs, const GElf_Shdr *rsh,
                        const char *secname, uint8_t *buf, uint64_t size, uint32_t *relshndx)
{
    Elf_Data *d = elf_getdata(rs, NULL);
    if (!d)
        return ELF_ERR(rd, "relocations of " PI_SECTION_META);
    size_t esz = gelf_fsize(elf, ELF_T_RELA, 1, EV_CURRENT);
    if (!esz)
        return ELF_ERR(rd, "gelf_fsize");
    size_t n = d->d_size / esz;
    for (size_t i = 0; i < n; i++) {
        GElf_Rela r;
        if (!gelf_getrela(d, (int)i, &r))
            return ELF_ERR(rd, "gelf_getrela");
        unsigned type = GELF_R_TYPE(r.r_info);
        if (type == R_X86_64_NONE)
            continue;
        if (type != R_X86_64_64)
            return pi_err_set(rd->err, "%s: %s: relocation %zu at offset 0x%llx has type %u; "
                              "only R_X86_64_64 is expected", rd->path, secname, i,
                              (unsigned long long)r.r_offset, type);
        if (r.r_offset > size || size - r.r_offset < 8 || r.r_offset % 8)
            return pi_err_set(rd->err, "%s: %s: relocation %zu at offset 0x%llx is outside the "
                              "section or not 8-aligned", rd->path, secname, i,
                              (unsigned long long)r.r_offset);
        uint64_t value = 0;
        uint32_t shndx = 0;
        if (reloc_symbol(rd, elf, rsh->sh_link, GELF_R_SYM(r.r_info), &value, &shndx))
            return -1;
        uint64_t v = value + (uint64_t)r.r_addend;
        memcpy(buf + r.r_offset, &v, 8);
        relshndx[r.r_offset / 8] = shndx;
    }
    return 0;
}

/* rd's index of ELF's sections (struct reader): one pass */
static int index_sections(struct reader *rd, Elf *elf)
{
    size_t n;
    if (elf_getshdrnum(elf, &n))
        return ELF_ERR(rd, "elf_getshdrnum");
    rd->nscn = n;
    rd->first_rel = calloc(n + 1, sizeof *rd->first_rel);
    rd->next_rel = calloc(n + 1, sizeof *rd->next_rel);
    rd->xndx_of = calloc(n + 1, sizeof *rd->xndx_of);
    if (!rd->first_rel || !rd->next_rel || !rd->xndx_of)
        return pi_err_set(rd->err, "%s: out of memory", rd->path);
    /* (last to first, so that each list is in the sections' order, as the
       scan found them) */
    for (size_t i = n; i-- > 1;) {
        Elf_Scn *x = elf_getscn(elf, i);
        GElf_Shdr sh;
        if (!x || !gelf_getshdr(x, &sh))
            return ELF_ERR(rd, "gelf_getshdr");
        if ((sh.sh_type == SHT_RELA || sh.sh_type == SHT_REL) && sh.sh_info < n) {
            rd->next_rel[i] = rd->first_rel[sh.sh_info];
            rd->first_rel[sh.sh_info] = i;
        } else if (sh.sh_type == SHT_SYMTAB_SHNDX && sh.sh_link < n)
            rd->xndx_of[sh.sh_link] = i; /* (the first one, as the scan took) */
    }
    return 0;
}

int pi_meta_read_elf(const char *path, struct Elf *elf, struct pi_meta *m, struct pi_err *err)
{
    memset(m, 0, sizeof *m);
    struct reader rd = { .path = path, .err = err, .m = m };
    uint8_t *buf = NULL;
    uint32_t *relshndx = NULL;
    int r = -1;

    m->path = strdup(path);
    if (!m->path) {
        pi_err_set(err, "%s: out of memory", path);
        goto out;
    }
    if (elf_kind(elf) != ELF_K_ELF) {
        pi_err_set(err, "%s: %s%s", path, elf_kind(elf) == ELF_K_AR
                   ? "is an ar archive; read its members one by one"
                   : "not an ELF file", elf_kind(elf) == ELF_K_AR ? "" : pi_not_elf_why(path));
        goto out;
    }
    GElf_Ehdr eh;
    if (!gelf_getehdr(elf, &eh)) {
        ELF_ERR(&rd, "gelf_getehdr");
        goto out;
    }
    if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
        eh.e_machine != EM_X86_64) {
        pi_err_set(err, "%s: not a 64-bit little-endian x86-64 ELF file", path);
        goto out;
    }
    if (eh.e_type != ET_REL && eh.e_type != ET_EXEC && eh.e_type != ET_DYN) {
        pi_err_set(err, "%s: ELF type %u is not an object, a program or a shared library", path,
                   eh.e_type);
        goto out;
    }
    m->elf_type = eh.e_type;
    size_t shstrndx;
    if (elf_getshdrstrndx(elf, &shstrndx)) {
        ELF_ERR(&rd, "elf_getshdrstrndx");
        goto out;
    }

    if (eh.e_type == ET_REL && index_sections(&rd, elf))
        goto out;
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh)) {
            ELF_ERR(&rd, "gelf_getshdr");
            goto out;
        }
        if (sh.sh_type == SHT_NOTE && !m->build_id_len) {
            Elf_Data *d = elf_getdata(scn, NULL);
            if (!d) {
                ELF_ERR(&rd, "note section data");
                goto out;
            }
            m->build_id_len = read_build_id_notes(m->build_id, d);
            continue;
        }
        const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
        if (!name) {
            ELF_ERR(&rd, "section name");
            goto out;
        }
        struct section s = { .name = name };
        if (!strcmp(name, PI_SECTION_META))
            s.kinds = PI_CHUNKS_META;
        else if (!strcmp(name, PI_SECTION_XLAT))
            s.kinds = PI_CHUNK_BIT(PI_CHUNK_XLAT);
        else if (!strcmp(name, PI_SECTION_LINK))
            s.kinds = PI_CHUNK_BIT(PI_CHUNK_LINK);
        else if (!strcmp(name, PI_SECTION_CLEAN))
            s.kinds = PI_CHUNK_BIT(PI_CHUNK_CODE), s.clean = 1;
        else
            continue;
        if (sh.sh_type != SHT_PROGBITS) {
            pi_err_set(err, "%s: %s: section type %u, expected SHT_PROGBITS", path, name,
                       sh.sh_type);
            goto out;
        }
        if (sh.sh_flags & SHF_COMPRESSED) {
            pi_err_set(err, "%s: %s: compressed sections are not supported", path, name);
            goto out;
        }
        Elf_Data *d = elf_getdata(scn, NULL);
        if (!d) {
            pi_err_set(err, "%s: %s: %s", path, name, elf_errmsg(-1));
            goto out;
        }
        if (!d->d_buf || !d->d_size)
            continue;
        s.data = d->d_buf;
        s.size = d->d_size;

        if (eh.e_type == ET_REL) {
            /* Relocate a copy: addr = symbol value + addend, per range. */
            size_t ndx = elf_ndxscn(scn);
            buf = malloc(d->d_size);
            relshndx = calloc(d->d_size / 8 + 1, sizeof *relshndx);
            if (!buf || !relshndx) {
                pi_err_set(err, "%s: out of memory", path);
                goto out;
            }
            memcpy(buf, d->d_buf, d->d_size);
            for (size_t ri = ndx < rd.nscn ? rd.first_rel[ndx] : 0; ri; ri = rd.next_rel[ri]) {
                Elf_Scn *rs = elf_getscn(elf, ri);
                GElf_Shdr rsh;
                if (!rs || !gelf_getshdr(rs, &rsh)) {
                    ELF_ERR(&rd, "gelf_getshdr");
                    goto out;
                }
                if (rsh.sh_type == SHT_REL) {
                    pi_err_set(err, "%s: %s: SHT_REL relocations are not supported (x86-64 uses "
                               "RELA)", path, name);
                    goto out;
                }
                if (apply_relocs(&rd, elf, rs, &rsh, name, buf, d->d_size, relshndx))
                    goto out;
            }
            s.data = buf;
            s.relshndx = relshndx;
        }
        if (walk_section(&rd, &s))
            goto out;
        free(buf);
        free(relshndx);
        buf = NULL;
        relshndx = NULL;
    }

    /* No section headers for notes (a stripped program): try PT_NOTE. */
    if (!m->build_id_len) {
        size_t phnum;
        if (elf_getphdrnum(elf, &phnum) == 0) {
            for (size_t i = 0; i < phnum && !m->build_id_len; i++) {
                GElf_Phdr ph;
                if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_NOTE)
                    continue;
                Elf_Data *d = elf_getdata_rawchunk(elf, ph.p_offset, ph.p_filesz,
                                                   ph.p_align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR);
                if (d)
                    m->build_id_len = read_build_id_notes(m->build_id, d);
            }
        }
    }
    r = reader_finish(&rd, eh.e_type == ET_REL);
out:
    free(buf);
    free(relshndx);
    reader_free(&rd);
    if (r)
        pi_meta_free(m);
    return r;
}

/* path opened for reading (an input of the build: pi_input_note) and
 * begun as ELF, its descriptor in *fd; NULL after setting err. */
static Elf *open_input(const char *path, int *fd, struct pi_err *err)
{
    if (elf_version(EV_CURRENT) == EV_NONE) {
        pi_err_set(err, "%s: libelf is out of date: %s", path, elf_errmsg(-1));
        return NULL;
    }
    *fd = open(path, O_RDONLY | O_CLOEXEC);
    if (*fd < 0) {
        pi_err_set(err, "%s: %s", path, strerror(errno));
        return NULL;
    }
    pi_input_note(path);
    Elf *elf = elf_begin(*fd, ELF_C_READ_MMAP, NULL);
    if (!elf) {
        pi_err_set(err, "%s: elf_begin: %s", path, elf_errmsg(-1));
        close(*fd);
    }
    return elf;
}

int pi_meta_read(const char *path, struct pi_meta *m, struct pi_err *err)
{
    memset(m, 0, sizeof *m);
    int fd;
    Elf *elf = open_input(path, &fd, err);
    if (!elf)
        return -1;
    int r = pi_meta_read_elf(path, elf, m, err);
    elf_end(elf);
    close(fd);
    return r;
}

int pi_meta_read_each(const char *path, int (*fn)(struct pi_meta *m, struct Elf *elf, void *arg),
                      void *arg,
                      struct pi_err *err)
{
    int fd;
    Elf *ar = open_input(path, &fd, err);
    if (!ar)
        return -1;
    int r = 0;
    struct pi_meta m;
    if (elf_kind(ar) != ELF_K_AR) {
        r = pi_meta_read_elf(path, ar, &m, err);
        if (!r)
            r = fn(&m, ar, arg);
    } else {
        Elf *e;
        Elf_Cmd cmd = ELF_C_READ_MMAP;
        while (!r && (e = elf_begin(fd, cmd, ar))) {
            Elf_Arhdr *ah = elf_getarhdr(e);
            if (!ah) {
                r = pi_err_set(err, "%s: elf_getarhdr: %s", path, elf_errmsg(-1));
            } else if (elf_kind(e) == ELF_K_ELF && ah->ar_name[0] != '/') {
                size_t n = strlen(path) + strlen(ah->ar_name) + 3;
                char *name = malloc(n);
                if (!name) {
                    r = pi_err_set(err, "%s: out of memory", path);
                } else {
                    snprintf(name, n, "%s(%s)", path, ah->ar_name);
                    r = pi_meta_read_elf(name, e, &m, err);
                    free(name);
                    if (!r)
                        r = fn(&m, e, arg);
                }
            }
            cmd = elf_next(e);
            elf_end(e);
        }
    }
    elf_end(ar);
    close(fd);
    return r;
}

const struct pi_unit_view *pi_meta_unit(const struct pi_meta *m, uint64_t unit_id)
{
    size_t lo = 0, hi = m->nunits;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint64_t id = m->units[mid].hdr.unit_id;
        if (id == unit_id)
            return &m->units[mid];
        if (id < unit_id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* ---------------------------------------------------------------------- */
/* Cross-checks                                                              */
/* ---------------------------------------------------------------------- */

static const struct pi_meta *sort_meta; /* qsort has no context argument */

static int cmp_range_idx(const void *a, const void *b)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    uint32_t si = sort_meta->range_shndx ? sort_meta->range_shndx[i] : 0;
    uint32_t sj = sort_meta->range_shndx ? sort_meta->range_shndx[j] : 0;
    PI_CMP_RET(si, sj);
    return i < j ? -1 : i > j;
}

int pi_meta_validate(const struct pi_meta *m, struct pi_err *err)
{
    const char *path = m->path ? m->path : "?";
    int linked = m->elf_type != ET_REL;

    for (size_t i = 0; i < m->nunits; i++) {
        const struct pi_unit_view *u = &m->units[i];
        for (uint32_t k = 0; k < u->hdr.nsites; k++) {
            const struct pi_site *s = &u->sites[k];
            if (s->func >= u->hdr.nfuncs)
                return pi_err_set(err, "%s: unit 0x%016llx: site %u: function %u out of range",
                                  path, (unsigned long long)u->hdr.unit_id, k, s->func);
            if (s->counter != PI_NONE && s->counter >= u->hdr.ncounters)
                return pi_err_set(err, "%s: unit 0x%016llx: site %u: counter %u out of range "
                                  "(%u counters)", path, (unsigned long long)u->hdr.unit_id, k,
                                  s->counter, u->hdr.ncounters);
            const struct pi_func *f = &u->funcs[s->func];
            for (uint32_t j = 0; j < s->nsucc; j++) {
                uint64_t e = (uint64_t)s->succ_first + j;
                if (e >= u->hdr.nsuccs)
                    return pi_err_set(err, "%s: unit 0x%016llx: site %u: successor list out of "
                                      "range", path, (unsigned long long)u->hdr.unit_id, k);
                uint32_t t = u->succs[e];
                if (t < f->first_site || t - f->first_site >= f->nsites)
                    return pi_err_set(err, "%s: unit 0x%016llx: site %u: successor %u lies "
                                      "outside its function %s", path,
                                      (unsigned long long)u->hdr.unit_id, k, t,
                                      pi_unit_str(u, f->name));
            }
        }
    }

    for (size_t i = 0; i < m->nranges; i++) {
        const struct pi_range *r = &m->ranges[i];
        const struct pi_unit_view *u = pi_meta_unit(m, r->unit_id);
        if (!u) {
            if (!linked)
                continue; /* -flto objects may name units of other objects */
            return pi_err_set(err, "%s: range at 0x%llx names unit 0x%016llx, which is not in "
                              "the file", path, (unsigned long long)r->addr,
                              (unsigned long long)r->unit_id);
        }
        if (r->site >= u->hdr.nsites)
            return pi_err_set(err, "%s: range at 0x%llx names site %u of unit 0x%016llx, which "
                              "has %u sites", path, (unsigned long long)r->addr, r->site,
                              (unsigned long long)r->unit_id, u->hdr.nsites);
    }

    /* Overlaps between units.  Ranges are sorted by address; once no two
     * units overlap so far, every range still open at an address belongs to
     * one unit, so keeping that unit and the furthest end is exact. */
    size_t *idx = NULL;
    if (m->nranges) {
        idx = malloc(m->nranges * sizeof *idx);
        if (!idx)
            return pi_err_set(err, "%s: out of memory", path);
        for (size_t i = 0; i < m->nranges; i++)
            idx[i] = i;
        if (m->range_shndx) { /* ET_REL: addresses are per section */
            sort_meta = m;
            qsort(idx, m->nranges, sizeof *idx, cmp_range_idx);
        }
    }
    int have = 0;
    uint32_t cur_shndx = 0;
    uint64_t cur_end = 0, cur_unit = 0;
    size_t cur_i = 0;
    for (size_t k = 0; k < m->nranges; k++) {
        size_t i = idx[k];
        const struct pi_range *r = &m->ranges[i];
        uint32_t sh = m->range_shndx ? m->range_shndx[i] : 0;
        if (r->length == 0 || (linked && r->addr == 0))
            continue; /* empty, or discarded by the linker */
        if (have && sh == cur_shndx && r->addr < cur_end) {
            if (r->unit_id != cur_unit) {
                const struct pi_range *o = &m->ranges[cur_i];
                free(idx);
                return pi_err_set(err, "%s: range [0x%llx, +%u) of unit 0x%016llx overlaps "
                                  "range [0x%llx, +%u) of unit 0x%016llx", path,
                                  (unsigned long long)r->addr, r->length,
                                  (unsigned long long)r->unit_id, (unsigned long long)o->addr,
                                  o->length, (unsigned long long)o->unit_id);
            }
            if (r->addr + r->length > cur_end) {
                cur_end = r->addr + r->length;
                cur_i = i;
            }
        } else {
            have = 1;
            cur_shndx = sh;
            cur_unit = r->unit_id;
            cur_end = r->addr + r->length;
            cur_i = i;
        }
    }
    free(idx);

    if (m->has_xlat) {
        for (uint32_t i = 0; i < m->xlat.nitems; i++) {
            const struct pi_shadow_item *it = &m->items[i];
            const struct pi_unit_view *u = pi_meta_unit(m, it->unit_id);
            if (!u || it->site >= u->hdr.nsites)
                return pi_err_set(err, "%s: " PI_SECTION_XLAT ": item %u names site %u of unit "
                                  "0x%016llx, which is not in " PI_SECTION_META, path, i,
                                  it->site, (unsigned long long)it->unit_id);
            if (it->counter != u->sites[it->site].counter)
                return pi_err_set(err, "%s: " PI_SECTION_XLAT ": item %u: counter %u but its "
                                  "site %u has counter %u", path, i, it->counter, it->site,
                                  u->sites[it->site].counter);
        }
        if (m->xlat.nunits != m->nunits)
            return pi_err_set(err, "%s: " PI_SECTION_XLAT ": says %u units but " PI_SECTION_META
                              " has %zu", path, m->xlat.nunits, m->nunits);
    }
    return 0;
}
