/* pidwarf.h — addresses to functions and source lines (libdwarf, libelf).
 *
 * pi_debug_open reads once, up front:
 *   - functions: DW_TAG_subprogram DIEs with code (low_pc/high_pc or
 *     DW_AT_ranges, so a function that GCC split into hot and cold parts
 *     owns both), named by DW_AT_name, or through DW_AT_specification /
 *     DW_AT_abstract_origin; then every STT_FUNC symbol of .symtab (or
 *     .dynsym) whose address no DWARF function covers — so a file without
 *     DWARF, or assembly without debug info, still gets names;
 *   - the line tables of every compilation unit, as sorted rows, with the
 *     units' names and DW_AT_comp_dir; file names are joined to it and
 *     folded into one spelling (pi_path_join_clean);
 * and, only when asked (pi_debug_read_vars, for pmopt's watch view):
 *   - variables with a fixed address: DW_TAG_variable DIEs whose
 *     DW_AT_location is one DW_OP_addr (globals and statics, also the
 *     -flto copies that name their declaration through
 *     DW_AT_abstract_origin), with their types as far as naming a byte
 *     needs them — arrays (each dimension), structs and unions (members
 *     with DW_AT_data_member_location or, bit-fields, DW_AT_data_bit_offset),
 *     sizes; then every STT_OBJECT symbol no DWARF variable covers;
 *     so that pi_debug_var_name turns an address into `table[2]`,
 *     `recs[1].hot` or `grid[1][0].x`.
 * Lookups are binary searches afterwards.  Link-time addresses (the ones
 * .perfinst records); for a relocatable object they are section offsets and
 * the lookups mean little — pmopt uses them on programs.
 *
 * DWARF compressed by dwz is read as written: partial units and
 * DW_TAG_imported_unit in the file itself, and with dwz -m (Debian's
 * dh_dwz for a package of several programs) DW_FORM_GNU_strp_alt and
 * DW_FORM_GNU_ref_alt into the supplementary file .gnu_debugaltlink
 * names, found as alt_file says (pidwarf.c); without it the names and
 * types it holds are missing, said in `warning`, never another DIE's.
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
    const char *name;    /* owned by the pi_debug: DW_AT_name (bare: "Get"), or the symbol */
    const char *linkage; /* the linkage (assembler) name: DW_AT_linkage_name, else a
                            mangled symbol at lo, else (C) NULL; the symbol for a
                            function only the symbol table names */
    const char *file;    /* declaration file (one spelling: cu_path), "" if unknown */
    uint32_t line;       /* declaration line, 0 if unknown */
    int from_dwarf;      /* 0: from the ELF symbol table */
};

struct pi_dline {
    uint64_t addr;
    uint32_t file;       /* index into files[] */
    uint32_t line;
    uint32_t cu;         /* index into cus[] */
    int end_sequence;    /* the row ends a sequence: addr is one past the end */
};

/* A compilation unit: what it was compiled as, and where. */
struct pi_dcu {
    const char *name;      /* DW_AT_name: the main source as given to the compiler ("" if none) */
    const char *comp_dir;  /* DW_AT_comp_dir, NULL if none */
};

/* A variable with a fixed address (pi_debug_read_vars). */
#define PI_DTYPE_NONE 0xffffffffu
struct pi_dvar {
    uint64_t addr, size;     /* [addr, addr + size); size 0: unknown */
    const char *name;
    uint32_t type;           /* index into types[], or PI_DTYPE_NONE */
    int from_dwarf;          /* 0: an STT_OBJECT symbol */
};

enum pi_dtype_kind { PI_DT_SCALAR, PI_DT_STRUCT, PI_DT_UNION, PI_DT_ARRAY };
/* A type with typedefs and qualifiers looked through.  A multi-dimensional
 * array is an array of arrays. */
struct pi_dtype {
    int kind;                /* enum pi_dtype_kind */
    uint64_t size;           /* bytes; 0: unknown */
    uint32_t elem;           /* ARRAY: element type, or PI_DTYPE_NONE */
    uint64_t count;          /* ARRAY: elements; 0: unknown */
    uint32_t first_member, nmembers; /* STRUCT, UNION: members[first_member ..] */
};
struct pi_dmember {
    const char *name;        /* NULL: an anonymous struct or union member */
    uint64_t offset, size;   /* bytes from the start of the struct; a bit-field:
                                the bytes its bits occupy */
    uint32_t type;
};

struct pi_dplt {             /* a PLT entry (.plt, .plt.sec, .plt.got) */
    uint64_t lo, hi;
    const char *name;        /* "strlen@plt", as objdump names it */
};

struct pi_debug {
    char *path;
    char *debug_path;        /* the separate debug file DWARF and symbols were read from
                                (build-id under /usr/lib/debug, .gnu_debuglink), or NULL */
    char *alt_path;          /* the supplementary file (dwz -m, .gnu_debugaltlink) its
                                DW_FORM_GNU_strp_alt and _ref_alt were read from, or NULL */
    int has_dwarf;
    size_t nfuncs;
    struct pi_dfunc *funcs;  /* sorted by lo; a function with several ranges
                                appears once per range */
    size_t nlines;
    struct pi_dline *lines;  /* sorted by addr */
    size_t nfiles;
    char **files;            /* absolute where DW_AT_comp_dir allowed, "//", "/./",
                                "NAME/.." folded (pi_path_join_clean) */
    size_t ncus;
    struct pi_dcu *cus;
    char warning[1024];      /* "" or why DWARF was (partly) unusable */
    size_t nsections;
    char **section_names;    /* by section index ("" for none) */
    uint64_t alloc_lo, alloc_hi; /* addresses the SHF_ALLOC sections span; 0, 0: none */
    size_t nplt;
    struct pi_dplt *plt;     /* the PLT entries that name their function, sorted by lo */
    /* pi_debug_read_vars */
    int vars_read;
    size_t nvars;
    struct pi_dvar *vars;    /* sorted by addr (DWARF first, then larger first) */
    size_t ntypes;
    struct pi_dtype *types;
    size_t nmembers;
    struct pi_dmember *members;
    /* private */
    char **strs;
    size_t nstrs, strs_cap;
    size_t vars_cap, types_cap, members_cap;
};

/* Where separate debug files are looked for, as gdb's debug-file-directory:
 * DIR[:DIR...], each in place of /usr/lib/debug (DIR/.build-id/xx/….debug,
 * DIR/.dwz/…, DIR/PATH-OF-THE-FILE/DEBUGLINK), then /usr/lib/debug itself;
 * NULL or "" leaves /usr/lib/debug alone.  The string is kept, not copied. */
#define PI_DEBUG_DIR_DEFAULT "/usr/lib/debug"
void pi_debug_set_dirs(const char *dirs);

/* -1 only when the file cannot be opened or is not ELF (message in err). */
int pi_debug_open(const char *path, struct pi_debug *d, struct pi_err *err);
/* Symbols and section names only (no DWARF), from an ELF descriptor the
 * caller owns, e.g. an archive member; name is what messages say. */
struct Elf;
int pi_debug_open_elf(const char *name, struct Elf *elf, struct pi_debug *d, struct pi_err *err);
void pi_debug_close(struct pi_debug *d);

/* The function whose range holds addr, or NULL. */
const struct pi_dfunc *pi_debug_func(const struct pi_debug *d, uint64_t addr);
/* "NAME@plt" when addr is in the PLT entry that jumps to NAME (through its
 * GOT slot, which a relocation names), else NULL: not a function of the
 * program's, so pi_debug_func does not return it. */
const char *pi_debug_plt(const struct pi_debug *d, uint64_t addr);
/* The line-table row for addr: 1 and *file, *line set; 0 if none. */
int pi_debug_line(const struct pi_debug *d, uint64_t addr, const char **file, uint32_t *line);

/* The compilation unit whose line table holds addr, or NULL. */
const struct pi_dcu *pi_debug_cu_at(const struct pi_debug *d, uint64_t addr);

/* Read the variables and their types (see above) from d's file; once, later
 * calls return 0 at once.  -1 only when the file cannot be opened again
 * (message in err); DWARF that cannot be read is said in d->warning. */
int pi_debug_read_vars(struct pi_debug *d, struct pi_err *err);
/* The first variable whose bytes overlap [lo, hi): the one holding lo,
 * else the lowest one starting inside; NULL if none. */
const struct pi_dvar *pi_debug_var(const struct pi_debug *d, uint64_t lo, uint64_t hi);
/* The name of the byte at addr of variable v as C would write it:
 * "counter", "table[2]", "recs[1].hot", "grid[1][0].x"; a symbol without
 * type: "name+0x8".  Always NUL-terminated (cut to n). */
void pi_debug_var_name(const struct pi_debug *d, const struct pi_dvar *v, uint64_t addr, char *buf,
                       size_t n);

/* The name of section shndx ("" if out of range): for ET_REL addresses. */
const char *pi_debug_section_name(const struct pi_debug *d, uint32_t shndx);

#ifdef __cplusplus
}
#endif

#endif /* PERFINST_PIDWARF_H */
