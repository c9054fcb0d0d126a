/* pimeta.h — the one reader of perfinst metadata in ELF files (libelf).
 *
 * Used by perfinst-ld (to merge and validate what it linked) and by pmopt
 * (dump-meta, report, relink).  It reads the .perfinst, .perfinst.xlat and
 * .perfinst.link sections of a relocatable object, a linked program or a
 * shared library, validates every chunk (magic, version, sizes, CRCs,
 * indices, string offsets) and hands back copies the caller can keep.
 *
 * In a relocatable object the CODE ranges' addresses are not resolved yet
 * (they are relocations against labels); the reader applies the
 * R_X86_64_64 relocations of .rela.perfinst so that addr is the label's
 * offset in its section, and records the section index in range_shndx.
 *
 * Errors: every function that can fail returns -1 and writes one line into
 * err (struct pi_err), always starting with the file name, e.g.
 *   "prog: .perfinst: chunk at offset 0x1c0: version 7 (this pmopt reads 1)".
 */
#ifndef PERFINST_PIMETA_H
#define PERFINST_PIMETA_H

#include <stddef.h>
#include <stdint.h>
#include "perfinst-format.h"
#include "piformat.h"
#include "piutil.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One translation unit's tables (copied out of the file). */
struct pi_unit_view {
    struct pi_unit hdr;
    struct pi_func *funcs;   /* hdr.nfuncs */
    struct pi_site *sites;   /* hdr.nsites */
    uint32_t *succs;         /* hdr.nsuccs */
    struct pi_arc *arcs;     /* hdr.narcs */
    struct pi_line *lines;   /* hdr.nlines */
    char *strtab;            /* hdr.strtab_size bytes, NUL-terminated strings */
};

/* Convenience: a string of a unit's strtab ("" for an out-of-range offset,
 * which validation already refused). */
const char *pi_unit_str(const struct pi_unit_view *u, uint32_t off);

struct pi_meta {
    char *path;
    int elf_type;            /* ET_REL, ET_EXEC or ET_DYN */
    uint8_t build_id[PI_BUILD_ID_MAX];
    uint32_t build_id_len;   /* 0 if the file has no NT_GNU_BUILD_ID note */

    size_t nunits;
    struct pi_unit_view *units;   /* sorted by unit_id; ids are unique */

    size_t nranges;
    struct pi_range *ranges;      /* sorted by (addr, unit_id, site) */
    uint32_t *range_shndx;        /* ET_REL only: section of each range (else NULL) */
    /* .perfinst.clean (objects only): the clean copies' ranges, for the
       layout models (pmopt plan), sorted as ranges; not validated beyond
       their chunks' decoding */
    size_t ncranges;
    struct pi_range *cranges;
    uint32_t *crange_shndx;

    /* .perfinst.xlat (programs linked by perfinst-ld), or has_xlat = 0 */
    int has_xlat;
    struct pi_xlat xlat;
    struct pi_shadow_item *items;  /* xlat.nitems */
    struct pi_xlat_block *blocks;  /* xlat.nblocks */
    uint32_t *refs;                /* xlat.nrefs */

    /* .perfinst.link, or has_link = 0 */
    int has_link;
    struct pi_link link;
    struct pi_link_input *inputs;  /* link.ninputs */
    char *link_strtab;             /* link.strtab_size bytes */
};

/* Read every perfinst section of the ELF file at path (not an archive).
 * A file without a .perfinst section is not an error: nunits = 0. */
int pi_meta_read(const char *path, struct pi_meta *m, struct pi_err *err);

/* The same for .perfinst bytes already in memory (what `path` names in
 * messages); used by the fuzz harness and by tests. */
int pi_meta_parse(const char *path, const void *data, size_t size,
                  struct pi_meta *m, struct pi_err *err);

void pi_meta_free(struct pi_meta *m);

/* Find a unit by id (binary search), or NULL. */
const struct pi_unit_view *pi_meta_unit(const struct pi_meta *m, uint64_t unit_id);

/* Cross-checks a linked program's metadata (perfinst-ld and pmopt both run
 * it): every range names an existing unit and site, ranges of one unit do
 * not overlap other units' ranges at the same address, counters are in
 * range, successor lists point inside their function.  Returns 0, or -1
 * with the first problem in err. */
int pi_meta_validate(const struct pi_meta *m, struct pi_err *err);

/* ---- Added beyond the original interface (pmopt, tests, fuzzing) -------- */

/* Like pi_meta_read, for an ELF descriptor the caller opened (e.g. a member
 * of an archive it walks with elf_next); path is what messages name.  The
 * caller keeps ownership of elf.  elf_version() must have been called. */
struct Elf;
int pi_meta_read_elf(const char *path, struct Elf *elf, struct pi_meta *m,
                     struct pi_err *err);

/* Read path, which may be an ar archive: fn is called once for an ELF
 * file, or once per ELF member of an archive (named "lib.a(member.o)" in
 * m->path and in messages), with metadata the callback must pi_meta_free
 * and the member's ELF descriptor (valid during the call).
 * Members that are not ELF are skipped.  Stops at the first error (of the
 * reader, or a non-zero return of fn, which is returned).  Returns 0, -1 or
 * fn's value. */
int pi_meta_read_each(const char *path,
                      int (*fn)(struct pi_meta *m, struct Elf *elf, void *arg), void *arg,
                      struct pi_err *err);

/* Names of the PI_D_* bits joined by '|' ("count|trap"; unknown bits as
 * hex, "-" for none).  Writes at most size bytes into buf; returns buf. */
const char *pi_directive_names(uint32_t bits, char *buf, size_t size);

/* "branch", "call", ... for enum pi_itype; "?" out of range. */
const char *pi_itype_name(unsigned t);

/* The NT_GNU_BUILD_ID among ELF's note sections, cut to PI_BUILD_ID_MAX
 * (as the metadata reader and the runtime cut it): its length, 0 if none. */
uint32_t pi_elf_build_id(struct Elf *elf, uint8_t id[PI_BUILD_ID_MAX]);

/* Lowercase hex of a build-id; buf needs 2 * PI_BUILD_ID_MAX + 1 bytes.
 * Returns buf ("" for len 0). */
char *pi_build_id_hex(const uint8_t *id, uint32_t len, char *buf);

#ifdef __cplusplus
}
#endif

#endif /* PERFINST_PIMETA_H */
