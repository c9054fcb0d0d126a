/* names.h — how pmopt names functions and source files, in every view
 * (report text/csv/json/html, plan --advise, --tree, flame graph, folded
 * stacks, dump-meta).  docs/pmopt.md "Names of functions and files".
 *
 * Functions are known by their linkage (assembler) name: the .perfinst
 * metadata, feedback files, overlays and HOTSPOT records keep it, and
 * json/csv print it as the key ("linkage").  A person reads the name made
 * of it here:
 *   - clone suffixes dropped: GCC's F.isra.N, F.constprop.N, F.part.N,
 *     F.cold, F.lto_priv.N and perfinst's counting copies F.count.N are
 *     shown as F (their code is F's);
 *   - C++ names demangled and qualified, without parameters
 *     (_ZN7leveldb6DBImpl3GetERKNS_11ReadOptionsE... is leveldb::DBImpl::Get);
 *     when two functions of the program would then read the same (the
 *     overloads store::put(int) and store::put(char const*)), both are
 *     shown with their parameters.
 * The demangler is libiberty's (Debian libiberty-dev), the one GCC, gdb,
 * c++filt and addr2line use: it prints a name without parameters or
 * return type, and its output is the spelling every GNU tool shows.
 *
 * Files are shown in one spelling: a unit's relative names joined to its
 * compilation directory (DW_AT_comp_dir of its DWARF unit), "//", "/./"
 * and "NAME/.." folded (pi_path_join_clean), then relative to the source
 * root — the deepest directory holding every instrumented unit's main
 * source — when under it.  `weird.c` and `/src/weird.c` compiled in /src,
 * `lib//compress/../common/mem.h` and `lib/common/mem.h`, are one file.
 *
 * The state is pmopt's (one program per command): pm_names_program sets
 * it up, every string returned lives until pm_names_free (pmopt.c, at
 * exit).  Returned strings are interned: equal names are equal pointers.
 */
#ifndef PERFINST_NAMES_H
#define PERFINST_NAMES_H

#include <stddef.h>
#include "pidwarf.h"
#include "pimeta.h"

/* The program's function names (its metadata and its debug information:
 * either may be NULL) registered, so that names that would read the same
 * are told apart, and its units' directories and the source root found.
 * Call before printing any name of the program; again for another
 * program replaces the files' part. */
void pm_names_program(const struct pi_meta *m, const struct pi_debug *d);
/* Only the function names of d (another object: a shared library). */
void pm_names_add(const struct pi_debug *d);

/* The length of linkage without clone suffixes ("f.part.0.cold": 1). */
size_t pm_fn_base_len(const char *linkage);
/* linkage without clone suffixes: the function a clone is a copy of. */
const char *pm_fn_key(const char *linkage);
/* The name to show for a linkage name (above). */
const char *pm_fn_name(const char *linkage);
/* The same for a function of the debug information: its linkage name
 * when known, else its DWARF or symbol name. */
const char *pm_dfunc_name(const struct pi_dfunc *f);
/* The linkage name of a function of the debug information (its DWARF
 * name when it has none: C): what metadata and plans call it. */
const char *pm_dfunc_linkage(const struct pi_dfunc *f);

/* Function `func` of unit u: its name to show, its file (pm_file). */
const char *pm_func_name(const struct pi_unit_view *u, uint32_t func);
const char *pm_func_file(const struct pi_unit_view *u, uint32_t func);
/* The function name, the file at offset off of u's string table, shown. */
const char *pm_unit_fname(const struct pi_unit_view *u, uint32_t off);
const char *pm_unit_file(const struct pi_unit_view *u, uint32_t off);

/* A file named by unit u (a function's, a site's file, its source) in
 * one spelling; u NULL: a path from the debug information (already
 * joined to its unit's directory). */
const char *pm_file(const struct pi_unit_view *u, const char *path);
/* The unit's main source, as pm_file shows it. */
const char *pm_unit_source(const struct pi_unit_view *u);
/* The source root files are shown relative to ("" if none). */
const char *pm_source_root(void);
/* A path to open for a file as pm_file shows it: under the root when
 * relative to it (buf holds it), else the path itself. */
const char *pm_source_path(const char *shown, char *buf, size_t n);

/* One copy of each string until pm_names_free: equal strings, equal
 * pointers ("?" when out of memory). */
const char *pm_intern(const char *s);

void pm_names_free(void);

#endif /* PERFINST_NAMES_H */
