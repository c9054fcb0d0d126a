/* pidwarf.h — addresses to functions and source lines (libdwarf, libelf).
 *
 * pi_debug_open reads once, up front:
 *   - functions: DW_TAG_subprogram DIEs with code (low_pc/high_pc or
 *     DW_AT_ranges, so a function that GCC split into hot and cold parts
 *     owns both), named by DW_AT_name, or through DW_AT_specification /
 *     DW_AT_abstract_origin; then every STT_FUNC symbol of .symtab (or
 *     .dynsym) whose address no DWARF function covers — so a file without
 *     DWARF, or assembly without debug info, still gets names;
 *   - the line tables of every compilation unit, as sorted rows.
 * Lookups are binary searches afterwards.  Link-time addresses (the ones
 * .perfinst records); for a relocatable object they are section offsets and
 * the lookups mean little — pmopt uses them on programs.
 *
 * A file without DWARF is not an error (has_dwarf = 0); a file whose DWARF
 * libdwarf cannot read is reported in `warning` and the symbol table is
 * used.
 */
#ifndef PERFINST_PIDWARF_H
#define PERFINST_PIDWARF_H

#include <stddef.h>
#include <stdint.h>
#include "pimeta.h" /* struct pi_err */

#ifdef __cplusplus
extern "C" {
#endif

struct pi_dfunc {
    uint64_t lo, hi;     /* [lo, hi) */
    const char *name;    /* owned by the pi_debug */
    const char *file;    /* declaration file, "" if unknown */
    uint32_t line;       /* declaration line, 0 if unknown */
    int from_dwarf;      /* 0: from the ELF symbol table */
};

struct pi_dline {
    uint64_t addr;
    uint32_t file;       /* index into files[] */
    uint32_t line;
    int end_sequence;    /* the row ends a sequence: addr is one past the end */
};

struct pi_debug {
    char *path;
    int has_dwarf;
    size_t nfuncs;
    struct pi_dfunc *funcs;  /* sorted by lo; a function with several ranges
                                appears once per range */
    size_t nlines;
    struct pi_dline *lines;  /* sorted by addr */
    size_t nfiles;
    char **files;
    char warning[1024];      /* "" or why DWARF was (partly) unusable */
    size_t nsections;
    char **section_names;    /* by section index ("" for none) */
    /* private */
    char **strs;
    size_t nstrs, strs_cap;
};

/* -1 only when the file cannot be opened or is not ELF (message in err). */
int pi_debug_open(const char *path, struct pi_debug *d, struct pi_err *err);
/* Symbols and section names only (no DWARF), from an ELF descriptor the
 * caller owns, e.g. an archive member; name is what messages say. */
struct Elf;
int pi_debug_open_elf(const char *name, struct Elf *elf, struct pi_debug *d, struct pi_err *err);
void pi_debug_close(struct pi_debug *d);

/* The function whose range holds addr, or NULL. */
const struct pi_dfunc *pi_debug_func(const struct pi_debug *d, uint64_t addr);
/* The line-table row for addr: 1 and *file, *line set; 0 if none. */
int pi_debug_line(const struct pi_debug *d, uint64_t addr, const char **file, uint32_t *line);

/* The name of section shndx ("" if out of range): for ET_REL addresses. */
const char *pi_debug_section_name(const struct pi_debug *d, uint32_t shndx);

#ifdef __cplusplus
}
#endif

#endif /* PERFINST_PIDWARF_H */
