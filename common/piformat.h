/* piformat.h — the one decoder of each byte format of perfinst-format.h
 * that more than one program reads: the chunks of the .perfinst sections
 * (UNIT, CODE, XLAT, LINK), the .perfinst.reserve table, and the lines of
 * an overlay file (PERFINST_OVERLAY).
 *
 * Used by the tools (pimeta.c for perfinst-ld and pmopt; pmopt relink) and
 * linked into the runtime (loader.c, fnmeta.c, overlay.c), so: libc only
 * (no libelf: the caller finds the section), no allocation and no state.
 * A decoder checks every count, size, offset and index against the bytes
 * that hold it and hands back a view into the caller's bytes; arrays are
 * read with the getters below, through memcpy, so the bytes need not be
 * aligned.  A refused input gets one message in struct pi_dec_err, without
 * the file and the section, which the caller puts first
 * ("prog: .perfinst: chunk at offset 0x1c0: " + message in pmopt and
 * perfinst-ld, "perfinst: MODULE: ..." in the runtime).  Messages are made
 * with snprintf: not for signal handlers (the runtime reads metadata from
 * ordinary code, on first need).
 */
#ifndef PERFINST_PIFORMAT_H
#define PERFINST_PIFORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "perfinst-format.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Why a decoder refused its input. */
struct pi_dec_err {
    char msg[256];
};

/* Put "SECTION: chunk at offset 0x...: " before e's message (the runtime's
 * form; pmopt and perfinst-ld put the file first too). */
void pi_dec_where(struct pi_dec_err *e, const char *section, uint64_t off);

/* ---- the chunk walk ----------------------------------------------------
 * A section is chunks with 8-byte zero words of padding between them
 * (perfinst-format.h).  pi_chunk_next checks the header at c->pos (magic,
 * version, CRC unless fuzzing, size, kind, that the kind belongs in this
 * section) and returns 1 with the header in *h and the chunk's offset in
 * *off (its bytes are c->sec + *off, h->size of them; c->pos moves past
 * it); 0 at the section's end; -1 with e, *off the offset of the problem. */
#define PI_CHUNK_BIT(kind) (1u << (kind))
#define PI_CHUNKS_META (PI_CHUNK_BIT(PI_CHUNK_UNIT) | PI_CHUNK_BIT(PI_CHUNK_CODE))
#define PI_CHUNKS_ALL (PI_CHUNKS_META | PI_CHUNK_BIT(PI_CHUNK_XLAT) | PI_CHUNK_BIT(PI_CHUNK_LINK))
struct pi_chunk_cursor {
    const uint8_t *sec;
    uint64_t size;
    uint64_t pos;
    unsigned kinds; /* PI_CHUNK_BIT of each kind allowed in this section */
};
int pi_chunk_next(struct pi_chunk_cursor *c, struct pi_chunk_hdr *h, uint64_t *off,
                  struct pi_dec_err *e);

/* "UNIT", "CODE", "XLAT", "LINK"; "?" for another kind. */
const char *pi_chunk_kind_name(unsigned kind);

/* ---- UNIT ----------------------------------------------------------------
 * c: the whole chunk (header included), size bytes.  Checked: the tables
 * fill the chunk exactly (zero padding to 8), the string table starts and
 * ends with a NUL, every string offset, a function's sites and arcs, a
 * site's function, counter, successors, kind and lines, every successor
 * entry, each arc's ends (sites of its function, or PI_NONE for the entry
 * and the exit, not both), counter and flags. */
struct pi_unit_ref {
    struct pi_unit hdr;
    const uint8_t *funcs;  /* hdr.nfuncs struct pi_func */
    const uint8_t *sites;  /* hdr.nsites struct pi_site */
    const uint8_t *succs;  /* hdr.nsuccs uint32_t */
    const uint8_t *arcs;   /* hdr.narcs struct pi_arc */
    const uint8_t *lines;  /* hdr.nlines struct pi_line */
    const char *strtab;    /* hdr.strtab_size bytes, NUL-terminated strings */
};
int pi_unit_decode(const uint8_t *c, uint32_t size, struct pi_unit_ref *u, struct pi_dec_err *e);

/* "block", "data", "call" for enum pi_site_kind; NULL for a kind this
 * decoder does not know (refused). */
const char *pi_site_kind_name(unsigned kind);

/* ---- CODE ------------------------------------------------------------------
 * Checked: the ranges fill the chunk exactly; no range's end wraps around.
 * Range i lies at offset PI_CODE_RANGE_OFF(i) of the chunk. */
#define PI_CODE_RANGE_OFF(i) \
    (sizeof(struct pi_chunk_hdr) + sizeof(struct pi_code) + (uint64_t)(i) * sizeof(struct pi_range))
struct pi_code_ref {
    uint32_t nranges;
    const uint8_t *ranges; /* nranges struct pi_range */
};
int pi_code_decode(const uint8_t *c, uint32_t size, struct pi_code_ref *k, struct pi_dec_err *e);

/* ---- XLAT ------------------------------------------------------------------
 * Checked: the tables fill the chunk (zero padding to 8), the line size is
 * a power of two, the span is not reversed, items are sorted by address
 * and lie in the span, every ref names an item, blocks are sorted, their
 * refs lie in the table and name items that overlap the block's line. */
struct pi_xlat_ref {
    struct pi_xlat hdr;
    const uint8_t *items;  /* hdr.nitems struct pi_shadow_item */
    const uint8_t *blocks; /* hdr.nblocks struct pi_xlat_block */
    const uint8_t *refs;   /* hdr.nrefs uint32_t */
};
int pi_xlat_decode(const uint8_t *c, uint32_t size, struct pi_xlat_ref *x, struct pi_dec_err *e);

/* ---- LINK ------------------------------------------------------------------
 * Checked: the tables fill the chunk, the string table starts and ends
 * with a NUL, cwd/output/argv and argc consecutive arguments lie in it,
 * each input's path and argument index. */
struct pi_link_ref {
    struct pi_link hdr;
    const uint8_t *inputs; /* hdr.ninputs struct pi_link_input */
    const char *strtab;    /* hdr.strtab_size bytes */
};
int pi_link_decode(const uint8_t *c, uint32_t size, struct pi_link_ref *l, struct pi_dec_err *e);

/* ---- getters (the arrays need not be aligned) ------------------------- */
#define PI_DEC_GET(type, name, base)                                                  \
    static inline type name(const uint8_t *base, uint64_t i)                          \
    {                                                                                 \
        type v;                                                                       \
        memcpy(&v, base + i * sizeof v, sizeof v);                                    \
        return v;                                                                     \
    }
PI_DEC_GET(struct pi_func, pi_get_func, p)
PI_DEC_GET(struct pi_site, pi_get_site, p)
PI_DEC_GET(uint32_t, pi_get_u32, p)
PI_DEC_GET(struct pi_arc, pi_get_arc, p)
PI_DEC_GET(struct pi_line, pi_get_line, p)
PI_DEC_GET(struct pi_range, pi_get_range, p)
PI_DEC_GET(struct pi_shadow_item, pi_get_item, p)
PI_DEC_GET(struct pi_xlat_block, pi_get_block, p)
PI_DEC_GET(struct pi_link_input, pi_get_input, p)
PI_DEC_GET(struct pi_reserve_entry, pi_get_reserve_entry, p)
#undef PI_DEC_GET

/* ---- the .perfinst.reserve table ------------------------------------------
 * b: the section's bytes.  Checked: magic, version, a power-of-two page,
 * the window inside the page (in 64 bits), the size says n entries.
 * Returns the number of entries whose whole code lies in the window of its
 * page, with the header in *h and the entries at b + sizeof *h; or -1. */
long pi_reserve_decode(const uint8_t *b, size_t size, struct pi_reserve_hdr *h);

/* ---- overlay lines (PERFINST_OVERLAY, text) --------------------------------
 * One line, NUL-terminated, without its newline; modified in place (the
 * comment cut off, the words split).  want_header: the first line that is
 * not blank must be PI_OVERLAY_HEADER.  Returns 0 for a blank or comment
 * line, 1 for the header (want_header) or a rule in *r, -1 with *why. */
struct pi_overlay_rule {
    uint64_t unit_id;
    uint32_t func; /* or PI_OVERLAY_ALL */
    int on;
};
int pi_overlay_line(char *line, int want_header, struct pi_overlay_rule *r, const char **why);

/* The rule as a line, newline included, into buf (at least
 * PI_OVERLAY_LINE_MAX bytes): "off 0x5c1f0e2a9b3d4c77 *\n". */
#define PI_OVERLAY_LINE_MAX 48
const char *pi_overlay_rule_line(char *buf, const struct pi_overlay_rule *r);

#ifdef __cplusplus
}
#endif

#endif /* PERFINST_PIFORMAT_H */
