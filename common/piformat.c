/* piformat.c — the one decoder of the chunks, the reserve table and the
 * overlay's lines (piformat.h).  libc only: the runtime links it.
 *
 * The input is untrusted (fuzzed through pimeta.c, the runtime's loader
 * and fnmeta.c, the relink's reserve table): every count is checked
 * against the bytes that hold it before anything is indexed, in 64 bits,
 * and every loop is bounded by the input.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "piformat.h"
#include "piutil.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "perfinst formats are little-endian; this decoder assumes a little-endian host"
#endif

__attribute__((format(printf, 2, 3))) static int bad(struct pi_dec_err *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    return -1;
}

void pi_dec_where(struct pi_dec_err *e, const char *section, uint64_t off)
{
    char pre[80];
    int n = snprintf(pre, sizeof pre, "%s: chunk at offset 0x%llx: ", section,
                     (unsigned long long)off);
    size_t p = n < 0 ? 0 : (size_t)n < sizeof pre ? (size_t)n : sizeof pre - 1;
    size_t len = strnlen(e->msg, sizeof e->msg - 1);
    if (len > sizeof e->msg - 1 - p)
        len = sizeof e->msg - 1 - p;
    memmove(e->msg + p, e->msg, len);
    memcpy(e->msg, pre, p);
    e->msg[p + len] = 0;
}

const char *pi_chunk_kind_name(unsigned kind)
{
    switch (kind) {
    case PI_CHUNK_UNIT: return "UNIT";
    case PI_CHUNK_CODE: return "CODE";
    case PI_CHUNK_XLAT: return "XLAT";
    case PI_CHUNK_LINK: return "LINK";
    }
    return "?";
}

const char *pi_site_kind_name(unsigned kind)
{
    switch (kind) {
    case PI_SITE_BLOCK: return "block";
    case PI_SITE_DATA: return "data";
    case PI_SITE_CALL: return "call";
    case PI_SITE_INLINE: return "inline";
    }
    return NULL;
}

/* ---- the chunk walk ---------------------------------------------------- */

int pi_chunk_next(struct pi_chunk_cursor *cur, struct pi_chunk_hdr *h, uint64_t *off,
                  struct pi_dec_err *e)
{
    while (cur->pos < cur->size) {
        const uint8_t *c = cur->sec + cur->pos;
        uint64_t left = cur->size - cur->pos;
        uint32_t magic = 0;
        *off = cur->pos;
        if (left >= 4)
            memcpy(&magic, c, 4);
        if (left < 8 || magic == 0) {
            /* padding between chunks: a zero magic word, skip 8 bytes */
            uint64_t n = left < 8 ? left : 8;
            for (uint64_t i = 0; i < n; i++)
                if (c[i])
                    return left < 8 ? bad(e, "truncated chunk header (%llu bytes left)",
                                          (unsigned long long)left)
                                    : bad(e, "non-zero bytes in the 8-byte padding that starts "
                                          "with a zero magic word");
            cur->pos += n;
            continue;
        }
        if (left < sizeof *h)
            return bad(e, "truncated chunk header (%llu bytes left)", (unsigned long long)left);
        memcpy(h, c, sizeof *h);
        if (h->magic != PI_CHUNK_MAGIC)
            return bad(e, "bad magic 0x%08x (expected 0x%08x, \"PIT1\")", h->magic,
                       PI_CHUNK_MAGIC);
        /* LINK chunks have their own version (1 is still read) */
        uint16_t known = h->kind == PI_CHUNK_LINK ? PI_LINK_VERSION : PI_FORMAT_VERSION;
        if (h->version != known && !(h->kind == PI_CHUNK_LINK && h->version == 1))
            return bad(e, "version %u (this reader knows %u)", h->version, known);
        uint32_t crc = pi_crc32(0, c, offsetof(struct pi_chunk_hdr, hdr_crc));
        if (!PI_FUZZING && crc != h->hdr_crc)
            return bad(e, "hdr_crc mismatch (stored 0x%08x, computed 0x%08x)", h->hdr_crc, crc);
        if (h->size < sizeof *h || h->size % 8)
            return bad(e, "bad chunk size %u (at least 16, a multiple of 8)", h->size);
        if (h->size > left)
            return bad(e, "truncated chunk: size %u runs past the end of the section (%llu "
                       "bytes left)", h->size, (unsigned long long)left);
        if (h->kind < PI_CHUNK_UNIT || h->kind > PI_CHUNK_LINK)
            return bad(e, "unknown chunk kind %u", h->kind);
        if (!(cur->kinds & PI_CHUNK_BIT(h->kind)))
            return bad(e, "a %s chunk does not belong in this section",
                       pi_chunk_kind_name(h->kind));
        cur->pos += h->size;
        return 1;
    }
    return 0;
}

/* The bytes from `from` to the chunk's end are zero. */
static int zero_tail(const uint8_t *c, uint64_t from, uint32_t size)
{
    for (uint64_t i = from; i < size; i++)
        if (c[i])
            return 0;
    return 1;
}

/* The chunk's own header (pi_unit, pi_code, ...: n bytes after the chunk
 * header) into *hdr, or a message that the chunk is too small for it. */
static int body_header(const uint8_t *c, uint32_t size, void *hdr, size_t n, const char *kind,
                       struct pi_dec_err *e)
{
    if (size < sizeof(struct pi_chunk_hdr) + n)
        return bad(e, "%s chunk is %u bytes, too small for its header", kind, size);
    memcpy(hdr, c + sizeof(struct pi_chunk_hdr), n);
    return 0;
}

/* ---- UNIT -------------------------------------------------------------- */

int pi_unit_decode(const uint8_t *c, uint32_t size, struct pi_unit_ref *v, struct pi_dec_err *e)
{
    struct pi_unit u = { 0 };
    if (body_header(c, size, &u, sizeof u, "UNIT", e))
        return -1;
    unsigned long long id = u.unit_id;
    uint64_t o_funcs = sizeof(struct pi_chunk_hdr) + sizeof u;
    uint64_t o_sites = o_funcs + (uint64_t)u.nfuncs * sizeof(struct pi_func);
    uint64_t o_succs = o_sites + (uint64_t)u.nsites * sizeof(struct pi_site);
    uint64_t o_arcs = o_succs + (uint64_t)u.nsuccs * 4;
    uint64_t o_lines = o_arcs + (uint64_t)u.narcs * sizeof(struct pi_arc);
    uint64_t o_str = o_lines + (uint64_t)u.nlines * sizeof(struct pi_line);
    uint64_t need = o_str + u.strtab_size;
    if (ALIGN8(need) != size)
        return bad(e, "UNIT 0x%016llx: chunk is %u bytes but its tables (%u funcs, %u sites, "
                   "%u succs, %u arcs, %u lines, %u-byte strtab) need %llu", id, size, u.nfuncs,
                   u.nsites, u.nsuccs, u.narcs, u.nlines, u.strtab_size,
                   (unsigned long long)ALIGN8(need));
    if (!zero_tail(c, need, size))
        return bad(e, "UNIT 0x%016llx: non-zero padding at the chunk's end", id);

    const char *str = (const char *)c + o_str;
    uint32_t ss = u.strtab_size;
    if (ss == 0 || str[0] != 0 || str[ss - 1] != 0)
        return bad(e, "UNIT 0x%016llx: string table must start and end with a NUL (%u bytes)",
                   id, ss);
#define STR_OK(field, what, idx)                                                              \
    do {                                                                                      \
        if ((field) >= ss)                                                                    \
            return bad(e, "UNIT 0x%016llx: %s%s: string offset %u out of range (strtab is %u " \
                       "bytes)", id, what, idx, (field), ss);                                 \
    } while (0)
    char where[48];
    where[0] = 0;
    STR_OK(u.source, "source", where);
    STR_OK(u.producer, "producer", where);
    *v = (struct pi_unit_ref){ .hdr = u, .funcs = c + o_funcs, .sites = c + o_sites,
                               .succs = c + o_succs, .arcs = c + o_arcs, .lines = c + o_lines,
                               .strtab = str };

    for (uint32_t i = 0; i < u.nfuncs; i++) {
        struct pi_func f = pi_get_func(v->funcs, i);
        snprintf(where, sizeof where, " %u", i);
        STR_OK(f.name, "function", where);
        STR_OK(f.file, "function", where);
        if ((uint64_t)f.first_site + f.nsites > u.nsites)
            return bad(e, "UNIT 0x%016llx: function %u: sites %u..%llu out of range (%u sites)",
                       id, i, f.first_site, (unsigned long long)f.first_site + f.nsites,
                       u.nsites);
        if ((uint64_t)f.first_arc + f.narcs > u.narcs)
            return bad(e, "UNIT 0x%016llx: function %u: arcs %u..%llu out of range (%u arcs)",
                       id, i, f.first_arc, (unsigned long long)f.first_arc + f.narcs, u.narcs);
        for (uint32_t k = f.first_arc; k < f.first_arc + f.narcs; k++) {
            struct pi_arc a = pi_get_arc(v->arcs, k);
            snprintf(where, sizeof where, " %u", k);
            STR_OK(a.file, "arc", where);
            uint32_t end[2] = { a.src, a.dst };
            for (int j = 0; j < 2; j++)
                if (end[j] != PI_NONE && (end[j] < f.first_site || end[j] - f.first_site >= f.nsites))
                    return bad(e, "UNIT 0x%016llx: arc %u: %s %u is not a site of its function %u "
                               "(%u..%llu)", id, k, j ? "destination" : "source", end[j], i,
                               f.first_site, (unsigned long long)f.first_site + f.nsites);
            if (a.src == PI_NONE && a.dst == PI_NONE)
                return bad(e, "UNIT 0x%016llx: arc %u: from the entry to the exit", id, k);
            if (a.counter != PI_NONE && a.counter >= u.ncounters)
                return bad(e, "UNIT 0x%016llx: arc %u: counter %u out of range (%u counters)", id,
                           k, a.counter, u.ncounters);
            if (a.flags & ~(uint32_t)(PI_ARC_FAKE | PI_ARC_BLOCK | PI_ARC_LAST | PI_ARC_PHI))
                return bad(e, "UNIT 0x%016llx: arc %u: unknown flags 0x%x", id, k, a.flags);
        }
    }
    for (uint32_t i = 0; i < u.nsites; i++) {
        struct pi_site st = pi_get_site(v->sites, i);
        snprintf(where, sizeof where, " %u", i);
        STR_OK(st.file, "site", where);
        STR_OK(st.region, "site", where);
        STR_OK(st.handler, "site", where);
        if (st.func >= u.nfuncs)
            return bad(e, "UNIT 0x%016llx: site %u: function %u out of range (%u functions)", id,
                       i, st.func, u.nfuncs);
        struct pi_func f = pi_get_func(v->funcs, st.func);
        if (i < f.first_site || i - f.first_site >= f.nsites)
            return bad(e, "UNIT 0x%016llx: site %u: not among the sites of its function %u "
                       "(%u..%llu)", id, i, st.func, f.first_site,
                       (unsigned long long)f.first_site + f.nsites);
        if (st.counter != PI_NONE && st.counter >= u.ncounters)
            return bad(e, "UNIT 0x%016llx: site %u: counter %u out of range (%u counters)", id, i,
                       st.counter, u.ncounters);
        if ((uint64_t)st.succ_first + st.nsucc > u.nsuccs)
            return bad(e, "UNIT 0x%016llx: site %u: successors %u..%llu out of range (%u "
                       "entries)", id, i, st.succ_first,
                       (unsigned long long)st.succ_first + st.nsucc, u.nsuccs);
        if (!pi_site_kind_name(st.kind))
            return bad(e, "UNIT 0x%016llx: site %u: unknown site kind %u", id, i, st.kind);
        if ((uint64_t)st.line_first + st.nlines > u.nlines)
            return bad(e, "UNIT 0x%016llx: site %u: lines %u..%llu out of range (%u entries)", id,
                       i, st.line_first, (unsigned long long)st.line_first + st.nlines, u.nlines);
    }
    for (uint32_t i = 0; i < u.nlines; i++) {
        struct pi_line l = pi_get_line(v->lines, i);
        snprintf(where, sizeof where, " %u", i);
        STR_OK(l.file, "line", where);
        if (!l.file && l.line > PI_LINE_VIA)
            return bad(e, "UNIT 0x%016llx: line %u: unknown mark %u (file 0)", id, i, l.line);
        if (!l.file && l.line == PI_LINE_VIA &&
            (i + 1 == u.nlines || !pi_get_line(v->lines, i + 1).file))
            return bad(e, "UNIT 0x%016llx: line %u: a call's line mark without the line", id, i);
    }
#undef STR_OK
    for (uint32_t i = 0; i < u.nsuccs; i++) {
        uint32_t t = pi_get_u32(v->succs, i);
        if (t >= u.nsites)
            return bad(e, "UNIT 0x%016llx: successor entry %u: site %u out of range (%u sites)",
                       id, i, t, u.nsites);
    }
    return 0;
}

/* ---- CODE -------------------------------------------------------------- */

int pi_code_decode(const uint8_t *c, uint32_t size, struct pi_code_ref *k, struct pi_dec_err *e)
{
    struct pi_code code = { 0 };
    if (body_header(c, size, &code, sizeof code, "CODE", e))
        return -1;
    uint64_t need = PI_CODE_RANGE_OFF(code.nranges);
    if (need != size)
        return bad(e, "CODE chunk is %u bytes but its %u ranges need %llu", size, code.nranges,
                   (unsigned long long)need);
    k->nranges = code.nranges;
    k->ranges = c + PI_CODE_RANGE_OFF(0);
    for (uint32_t i = 0; i < code.nranges; i++) {
        struct pi_range r = pi_get_range(k->ranges, i);
        if (r.addr + r.length < r.addr)
            return bad(e, "range %u: address 0x%llx + length %u wraps around", i,
                       (unsigned long long)r.addr, r.length);
    }
    return 0;
}

/* ---- XLAT -------------------------------------------------------------- */

static int is_pow2(uint64_t x) { return x && !(x & (x - 1)); }

int pi_xlat_decode(const uint8_t *c, uint32_t size, struct pi_xlat_ref *v, struct pi_dec_err *e)
{
    struct pi_xlat x = { 0 };
    if (body_header(c, size, &x, sizeof x, "XLAT", e))
        return -1;
    uint64_t o_items = sizeof(struct pi_chunk_hdr) + sizeof x;
    uint64_t o_blocks = o_items + (uint64_t)x.nitems * sizeof(struct pi_shadow_item);
    uint64_t o_refs = o_blocks + (uint64_t)x.nblocks * sizeof(struct pi_xlat_block);
    uint64_t need = o_refs + (uint64_t)x.nrefs * 4;
    if (ALIGN8(need) != size)
        return bad(e, "XLAT chunk is %u bytes but its tables (%u items, %u blocks, %u refs) "
                   "need %llu", size, x.nitems, x.nblocks, x.nrefs,
                   (unsigned long long)ALIGN8(need));
    if (!is_pow2(x.line_size))
        return bad(e, "XLAT line size %u is not a power of two", x.line_size);
    if (x.lo > x.hi)
        return bad(e, "XLAT span [0x%llx, 0x%llx) is reversed", (unsigned long long)x.lo,
                   (unsigned long long)x.hi);
    *v = (struct pi_xlat_ref){ .hdr = x, .items = c + o_items, .blocks = c + o_blocks,
                               .refs = c + o_refs };
    uint64_t prev = 0;
    for (uint32_t i = 0; i < x.nitems; i++) {
        struct pi_shadow_item it = pi_get_item(v->items, i);
        if (i && it.addr < prev)
            return bad(e, "XLAT: item %u: address 0x%llx is below the previous item's (items "
                       "are sorted by address)", i, (unsigned long long)it.addr);
        if (it.addr < x.lo || it.addr + it.length > x.hi || it.addr + it.length < it.addr)
            return bad(e, "XLAT: item %u: [0x%llx, +%u) lies outside the span [0x%llx, 0x%llx)",
                       i, (unsigned long long)it.addr, it.length, (unsigned long long)x.lo,
                       (unsigned long long)x.hi);
        prev = it.addr;
    }
    for (uint32_t i = 0; i < x.nrefs; i++) {
        uint32_t r = pi_get_u32(v->refs, i);
        if (r >= x.nitems)
            return bad(e, "XLAT: ref %u: item %u out of range (%u items)", i, r, x.nitems);
    }
    uint64_t prev_block = 0;
    for (uint32_t i = 0; i < x.nblocks; i++) {
        struct pi_xlat_block b = pi_get_block(v->blocks, i);
        if (i && b.block <= prev_block)
            return bad(e, "XLAT: block %u: block 0x%llx not above the previous one (blocks are "
                       "sorted)", i, (unsigned long long)b.block);
        prev_block = b.block;
        if ((uint64_t)b.first_ref + b.nrefs > x.nrefs)
            return bad(e, "XLAT: block %u: refs %u..%llu out of range (%u refs)", i, b.first_ref,
                       (unsigned long long)b.first_ref + b.nrefs, x.nrefs);
        if (b.block > UINT64_MAX / x.line_size)
            return bad(e, "XLAT: block %u: block number 0x%llx is too large", i,
                       (unsigned long long)b.block);
        uint64_t lo = b.block * x.line_size, hi = lo + x.line_size;
        for (uint32_t k = 0; k < b.nrefs; k++) {
            uint32_t r = pi_get_u32(v->refs, b.first_ref + k);
            struct pi_shadow_item it = pi_get_item(v->items, r);
            if (it.addr >= hi || it.addr + it.length <= lo)
                return bad(e, "XLAT: block %u (0x%llx..0x%llx): item %u [0x%llx, +%u) does not "
                           "overlap the line", i, (unsigned long long)lo, (unsigned long long)hi,
                           r, (unsigned long long)it.addr, it.length);
        }
    }
    return 0;
}

/* ---- LINK -------------------------------------------------------------- */

/* Version 1 (a 24-byte pi_link, a gcc command line) reads as level
 * PI_LINK_DRIVER without environment. */
int pi_link_decode(const uint8_t *c, uint32_t size, struct pi_link_ref *v, struct pi_dec_err *e)
{
    struct pi_link l = { 0 };
    struct pi_chunk_hdr h;
    memcpy(&h, c, sizeof h);
    uint32_t lsize = h.version == 1 ? PI_LINK_V1_SIZE : (uint32_t)sizeof l;
    if (body_header(c, size, &l, lsize, "LINK", e))
        return -1;
    if (h.version == 1)
        l.level = PI_LINK_DRIVER;
    else if (l.level != PI_LINK_COLLECT2)
        return bad(e, "LINK: level %u (this reader knows %u, a collect2 command line)", l.level,
                   PI_LINK_COLLECT2);
    uint64_t o_inputs = sizeof(struct pi_chunk_hdr) + lsize;
    uint64_t o_str = o_inputs + (uint64_t)l.ninputs * sizeof(struct pi_link_input);
    uint64_t need = o_str + l.strtab_size;
    if (ALIGN8(need) != size)
        return bad(e, "LINK chunk is %u bytes but its tables (%u inputs, %u-byte strtab) need "
                   "%llu", size, l.ninputs, l.strtab_size, (unsigned long long)ALIGN8(need));
    const char *str = (const char *)c + o_str;
    uint32_t ss = l.strtab_size;
    if (ss == 0 || str[0] != 0 || str[ss - 1] != 0)
        return bad(e, "LINK: string table must start and end with a NUL (%u bytes)", ss);
    if (l.cwd >= ss || l.output >= ss || l.argv >= ss || (l.nenv && l.env >= ss))
        return bad(e, "LINK: cwd/output/argv/env string offset out of range (strtab is %u "
                   "bytes)", ss);
    /* argc (nenv) consecutive strings from argv (env): each takes at least
       one byte; an environment string has a '='. */
    for (int k = 0; k < 2; k++) {
        uint32_t n = k ? l.nenv : l.argc, p = k ? l.env : l.argv;
        const char *what = k ? "environment string" : "argument";
        if (n > ss - p)
            return bad(e, "LINK: %u %ss cannot fit in the string table", n, what);
        for (uint32_t i = 0; i < n; i++) {
            const char *z = memchr(str + p, 0, ss - p);
            /* z is never NULL: the table ends with a NUL */
            if (k && !memchr(str + p, '=', (size_t)(z - (str + p))))
                return bad(e, "LINK: environment string %u has no '='", i);
            p = (uint32_t)(z - str) + 1;
            if (p >= ss && i + 1 < n)
                return bad(e, "LINK: %s %u runs past the string table", what, i + 1);
        }
    }
    *v = (struct pi_link_ref){ .hdr = l, .inputs = c + o_inputs, .strtab = str };
    for (uint32_t i = 0; i < l.ninputs; i++) {
        struct pi_link_input in = pi_get_input(v->inputs, i);
        if (in.path >= ss || (in.argi != PI_NONE && in.argi >= l.argc))
            return bad(e, "LINK: input %u: path offset %u or argument index %u out of range", i,
                       in.path, in.argi);
    }
    return 0;
}

/* ---- .perfinst.reserve ------------------------------------------------- */

long pi_reserve_decode(const uint8_t *b, size_t size, struct pi_reserve_hdr *h)
{
    if (!b || size < sizeof *h)
        return -1;
    memcpy(h, b, sizeof *h);
    /* the window's end in 64 bits: window + size wrapped in 32 and a
     * window of nearly 4 GiB passed as inside a page */
    if (memcmp(h->magic, PI_RESERVE_MAGIC, 4) || h->version != PI_RESERVE_VERSION ||
        size != sizeof *h + (uint64_t)h->n * sizeof(struct pi_reserve_entry) ||
        !is_pow2(h->page) || h->window >= h->page || (uint64_t)h->window + h->size > h->page)
        return -1;
    long inwin = 0;
    uint64_t end = (uint64_t)h->window + h->size;
    for (uint32_t i = 0; i < h->n; i++) {
        struct pi_reserve_entry r = pi_get_reserve_entry(b + sizeof *h, i);
        uint64_t po = r.addr & (h->page - 1);
        /* len compared with what is left of the window (po + len wrapped
         * for a length near 2^64 and counted it as inside) */
        inwin += po >= h->window && po <= end && r.len <= end - po;
    }
    return inwin;
}

/* ---- overlay lines ----------------------------------------------------- */

int pi_overlay_line(char *p, int want_header, struct pi_overlay_rule *r, const char **why)
{
    char *hash = strchr(p, '#');
    if (hash)
        *hash = 0;
    char *w[4] = { 0 };
    int n = 0;
    for (char *s = p;;) {
        s += strspn(s, " \t\r");
        if (!*s)
            break;
        char *end = s + strcspn(s, " \t\r");
        if (n < 4)
            w[n++] = s;
        else
            n = 5;
        if (!*end)
            break;
        *end = 0;
        s = end + 1;
    }
    if (n == 0)
        return 0;
    if (want_header) {
        /* PI_OVERLAY_HEADER: two words */
        if (n != 2 || strcmp(w[0], "perfinst-overlay") != 0 || strcmp(w[1], "1") != 0)
            return *why = "the first line must be '" PI_OVERLAY_HEADER "'", -1;
        return 1;
    }
    if (n != 3 || (strcmp(w[0], "on") != 0 && strcmp(w[0], "off") != 0))
        return *why = "not a rule", -1;
    char *end;
    errno = 0;
    unsigned long long unit = strtoull(w[1], &end, 16);
    if (errno || *end || end == w[1])
        return *why = "bad unit id", -1;
    uint32_t func = PI_OVERLAY_ALL;
    if (strcmp(w[2], "*") != 0) {
        unsigned long f = strtoul(w[2], &end, 10);
        if (*end || end == w[2] || f >= PI_OVERLAY_ALL)
            return *why = "bad function number", -1;
        func = (uint32_t)f;
    }
    *r = (struct pi_overlay_rule){ unit, func, w[0][1] == 'n' };
    return 1;
}

const char *pi_overlay_rule_line(char *buf, const struct pi_overlay_rule *r)
{
    if (r->func == PI_OVERLAY_ALL)
        snprintf(buf, PI_OVERLAY_LINE_MAX, "%s 0x%016llx *\n", r->on ? "on" : "off",
                 (unsigned long long)r->unit_id);
    else
        snprintf(buf, PI_OVERLAY_LINE_MAX, "%s 0x%016llx %u\n", r->on ? "on" : "off",
                 (unsigned long long)r->unit_id, r->func);
    return buf;
}
