/* pidwarf.c — functions and line tables from DWARF (libdwarf), with the ELF
 * symbol table (libelf) as the fallback for names.  See pidwarf.h. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>

#include "pidwarf.h"
#include "pimeta.h"
#include "piutil.h"
#include "piout.h"

#define MAX_DIE_DEPTH 64 /* nesting of namespaces, classes, lexical blocks */

/* Keep a copy of s for the life of d. */
static const char *keep(struct pi_debug *d, const char *s)
{
    if (pi_grow((void **)&d->strs, &d->strs_cap, d->nstrs, sizeof *d->strs))
        return NULL;
    char *c = strdup(s ? s : "");
    if (!c)
        return NULL;
    d->strs[d->nstrs++] = c;
    return c;
}

static void warn(struct pi_debug *d, const char *fmt, ...)
{
    if (d->warning[0])
        return; /* the first problem is the interesting one */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->warning, sizeof d->warning, fmt, ap);
    va_end(ap);
}

enum { WANT_FUNCS = 1, WANT_VARS = 2 };

struct type_slot {           /* DIE offset -> index into d->types */
    Dwarf_Off off_plus1;     /* 0: free */
    uint32_t type;
};

struct dctx {
    struct pi_debug *d;
    Dwarf_Debug dbg;
    int want;                /* WANT_* */
    size_t funcs_cap, lines_cap, files_cap;
    struct type_slot *tmap;  /* open addressing, a power of two */
    size_t tmap_cap, tmap_n;
    /* current CU */
    Dwarf_Half version;
    Dwarf_Half addr_size;
    Dwarf_Addr cu_base;
    char **srcfiles;
    Dwarf_Signed nsrcfiles;
    const char *comp_dir;    /* DW_AT_comp_dir, NULL if none */
    uint32_t cu;             /* its index in d->cus */
    size_t cus_cap;
    Dwarf_Off last_die;      /* the walk's last DIE offset: preorder only grows */
    int bad_tree;            /* a link went backwards: the CU's walk stopped */
    Dwarf_Debug alt;         /* the supplementary file (dwz -m), or 0 */
    int in_alt;              /* the DIE at hand is the supplementary file's */
};

/* A DIE reference (attr_ref) into the supplementary file has this bit:
 * its offsets are that file's .debug_info's, and would name another DIE
 * of ours. */
#define ALT_REF ((Dwarf_Off)1 << 63)

static void dwarf_warn(struct dctx *c, const char *what, Dwarf_Error e)
{
    warn(c->d, "%s: DWARF: %s: %s", c->d->path, what, e ? dwarf_errmsg(e) : "failed");
    if (e)
        dwarf_dealloc_error(c->dbg, e);
}

/* A DIE link went backwards: say so once, and stop reading the unit. */
static void tree_broken(struct dctx *c)
{
    if (!c->bad_tree)
        warn(c->d, "%s: DWARF: a malformed DIE tree (a sibling link points back); "
             "the rest of the unit is not read", c->d->path);
    c->bad_tree = 1;
}

/* dwarf_siblingof_b that only goes forward: a DW_AT_sibling pointing at or
 * before die would make a loop over siblings run forever. */
static int next_sibling(struct dctx *c, Dwarf_Die die, Dwarf_Die *next, Dwarf_Error *e)
{
    Dwarf_Off here = 0, there = 0;
    int res = dwarf_siblingof_b(c->dbg, die, 1, next, e);
    if (res != DW_DLV_OK)
        return res;
    if (dwarf_dieoffset(die, &here, e) == DW_DLV_OK && dwarf_dieoffset(*next, &there, e) == DW_DLV_OK &&
        there > here)
        return DW_DLV_OK;
    if (*e) {
        dwarf_dealloc_error(c->dbg, *e);
        *e = 0;
    }
    tree_broken(c);
    dwarf_dealloc_die(*next);
    *next = 0;
    return DW_DLV_NO_ENTRY;
}

/* *die replaced by its next sibling (the old one freed): next_sibling's
 * result. */
static int to_sibling(struct dctx *c, Dwarf_Die *die, Dwarf_Error *e)
{
    Dwarf_Die next = 0;
    int res = next_sibling(c, *die, &next, e);
    dwarf_dealloc_die(*die);
    *die = next;
    return res;
}

static int add_func(struct pi_debug *d, size_t *cap, uint64_t lo, uint64_t hi, const char *name,
                    const char *linkage, const char *file, uint32_t line, int from_dwarf)
{
    if (hi <= lo)
        return 0;
    if (pi_grow((void **)&d->funcs, cap, d->nfuncs, sizeof *d->funcs))
        return -1;
    d->funcs[d->nfuncs++] = (struct pi_dfunc){ .lo = lo, .hi = hi, .name = name,
                                               .linkage = linkage,
                                               .file = file ? file : "", .line = line,
                                               .from_dwarf = from_dwarf };
    return 0;
}

/* A file name of the current CU as one spelling: joined to the CU's
 * DW_AT_comp_dir when relative, "//", "/./" and "NAME/.." folded
 * (pi_path_join_clean), so that "weird.c" and "/src/weird.c" of two units
 * are one file.  malloc'ed, NULL when out of memory. */
static char *cu_path(struct dctx *c, const char *name)
{
    return pi_path_join_clean(c->comp_dir, name);
}

static const char *keep_path(struct dctx *c, const char *name)
{
    char *p = cu_path(c, name);
    const char *k = keep(c->d, p ? p : name);
    free(p);
    return k;
}

static uint32_t intern_file(struct dctx *c, const char *raw)
{
    struct pi_debug *d = c->d;
    char *name = cu_path(c, raw);
    if (!name)
        return 0;
    /* files repeat from CU to CU in a small program; the list stays short */
    for (size_t i = d->nfiles; i-- > 0;)
        if (!strcmp(d->files[i], name)) {
            free(name);
            return (uint32_t)i;
        }
    if (pi_grow((void **)&d->files, &c->files_cap, d->nfiles, sizeof *d->files)) {
        free(name);
        return 0;
    }
    d->files[d->nfiles] = name;
    return (uint32_t)d->nfiles++;
}

static void read_lines(struct dctx *c, Dwarf_Die cu)
{
    Dwarf_Error e = 0;
    Dwarf_Unsigned lversion = 0;
    Dwarf_Small ntables = 0;
    Dwarf_Line_Context ctx = 0;
    int res = dwarf_srclines_b(cu, &lversion, &ntables, &ctx, &e);
    if (res == DW_DLV_NO_ENTRY)
        return;
    if (res != DW_DLV_OK) {
        dwarf_warn(c, "dwarf_srclines_b", e);
        return;
    }
    Dwarf_Line *rows = 0;
    Dwarf_Signed nrows = 0;
    if (dwarf_srclines_from_linecontext(ctx, &rows, &nrows, &e) != DW_DLV_OK) {
        dwarf_warn(c, "dwarf_srclines_from_linecontext", e);
        dwarf_srclines_dealloc_b(ctx);
        return;
    }
    /* file numbers of this table -> our file index (names are looked up once) */
    Dwarf_Unsigned last_fileno = (Dwarf_Unsigned)-1;
    uint32_t last_file = 0;
    for (Dwarf_Signed i = 0; i < nrows; i++) {
        Dwarf_Addr addr;
        Dwarf_Unsigned lineno = 0, fileno = 0;
        Dwarf_Bool endseq = 0;
        if (dwarf_lineaddr(rows[i], &addr, &e) != DW_DLV_OK ||
            dwarf_lineno(rows[i], &lineno, &e) != DW_DLV_OK ||
            dwarf_lineendsequence(rows[i], &endseq, &e) != DW_DLV_OK ||
            dwarf_line_srcfileno(rows[i], &fileno, &e) != DW_DLV_OK) {
            dwarf_warn(c, "line table row", e);
            break;
        }
        if (fileno != last_fileno) {
            char *src = 0;
            if (dwarf_linesrc(rows[i], &src, &e) != DW_DLV_OK) {
                dwarf_warn(c, "dwarf_linesrc", e);
                break;
            }
            last_file = intern_file(c, src);
            dwarf_dealloc(c->dbg, src, DW_DLA_STRING);
            last_fileno = fileno;
        }
        if (pi_grow((void **)&c->d->lines, &c->lines_cap, c->d->nlines, sizeof *c->d->lines))
            break;
        c->d->lines[c->d->nlines++] = (struct pi_dline){
            .addr = addr, .file = last_file, .line = (uint32_t)lineno, .cu = c->cu,
            .end_sequence = !!endseq };
    }
    dwarf_srclines_dealloc_b(ctx);
}

static Dwarf_Die die_origin(struct dctx *c, Dwarf_Die die, int k);
static int has_attr(struct dctx *c, Dwarf_Die die, Dwarf_Half at);
static int attr_ref(struct dctx *c, Dwarf_Die die, Dwarf_Half at, Dwarf_Off *off);
static Dwarf_Die ref_die(struct dctx *c, Dwarf_Off ref);

/* A string attribute of die: DW_AT_name through dwarf_diename (which
 * also reads DW_FORM_strx), others through dwarf_formstring. */
static int die_string(struct dctx *c, Dwarf_Die die, Dwarf_Half at, char **s, Dwarf_Error *e)
{
    int res;
    if (at == DW_AT_name) {
        res = dwarf_diename(die, s, e);
    } else {
        Dwarf_Attribute a = 0;
        res = dwarf_attr(die, at, &a, e);
        if (res != DW_DLV_OK)
            return res;
        res = dwarf_formstring(a, s, e);
        dwarf_dealloc_attribute(a);
    }
    /* a string of the supplementary file when it is missing: libdwarf
       gives "<DW_FORM_GNU_strp_alt-no-tied-file>" as if it were the name */
    if (res == DW_DLV_OK && *s && (!strncmp(*s, "<DW_FORM_GNU_strp_alt", 21) ||
                                   !strncmp(*s, "<DW_FORM_strp_sup", 17)))
        return DW_DLV_NO_ENTRY;
    return res;
}

/* Attribute `at` (DW_AT_name, DW_AT_linkage_name) of die, or of the DIE
 * that DW_AT_abstract_origin or DW_AT_specification points to (clones,
 * out-of-line inline instances, member functions defined outside their
 * class); NULL if none has it. */
static const char *die_attr_str(struct dctx *c, Dwarf_Die die, Dwarf_Half at, int depth)
{
    Dwarf_Error e = 0;
    char *name = 0;
    int res = die_string(c, die, at, &name, &e);
    if (res == DW_DLV_OK)
        return keep(c->d, name);
    if (res == DW_DLV_ERROR) {
        dwarf_warn(c, at == DW_AT_name ? "dwarf_diename" : "DW_AT_linkage_name", e);
        return NULL;
    }
    if (depth > 4)
        return NULL;
    for (int k = 0; k < 2; k++) {
        int was = c->in_alt;
        Dwarf_Die o = die_origin(c, die, k);
        if (!o)
            continue;
        const char *n = die_attr_str(c, o, at, depth + 1);
        dwarf_dealloc_die(o);
        c->in_alt = was;
        if (n)
            return n;
    }
    return NULL;
}

static const char *die_name(struct dctx *c, Dwarf_Die die, int depth)
{
    return die_attr_str(c, die, DW_AT_name, depth);
}

/* DW_AT_linkage_name (DW_AT_MIPS_linkage_name before DWARF 4), through
 * the same links; NULL for C, and for C++ functions GCC gives none
 * (static ones, those of an anonymous namespace): the symbol table names
 * those (read_symtab). */
static const char *die_linkage(struct dctx *c, Dwarf_Die die)
{
    const char *l = die_attr_str(c, die, DW_AT_linkage_name, 0);
    return l ? l : die_attr_str(c, die, DW_AT_MIPS_linkage_name, 0);
}

/* An unsigned attribute, 0 if absent (an unreadable one is reported). */
static uint64_t die_udata(struct dctx *c, Dwarf_Die die, Dwarf_Half at)
{
    Dwarf_Error e = 0;
    Dwarf_Attribute a = 0;
    Dwarf_Unsigned v = 0;
    int res = dwarf_attr(die, at, &a, &e);
    if (res != DW_DLV_OK) {
        if (res == DW_DLV_ERROR)
            dwarf_warn(c, "dwarf_attr", e);
        return 0;
    }
    /* DWARF 5 abbreviations may give the value itself (DW_FORM_implicit_const,
     * which GCC 12 uses for DW_AT_decl_file and friends); this libdwarf's
     * dwarf_formudata refuses that form, dwarf_formsdata reads it. */
    Dwarf_Half form = 0;
    if (dwarf_whatform(a, &form, &e) != DW_DLV_OK) {
        dwarf_warn(c, "dwarf_whatform", e);
        v = 0;
    } else if (form == DW_FORM_implicit_const) {
        Dwarf_Signed sv = 0;
        if (dwarf_formsdata(a, &sv, &e) != DW_DLV_OK) {
            dwarf_warn(c, "dwarf_formsdata", e);
            sv = 0;
        }
        v = sv < 0 ? 0 : (Dwarf_Unsigned)sv;
    } else if (dwarf_formudata(a, &v, &e) != DW_DLV_OK) {
        dwarf_warn(c, "dwarf_formudata", e);
        v = 0;
    }
    dwarf_dealloc_attribute(a);
    return v;
}

/* The DIE that die's DW_AT_abstract_origin (k = 0) or DW_AT_specification
 * (k = 1) points to, or 0; c->in_alt then says whose it is (the caller
 * restores it once done with the DIE). */
static Dwarf_Die die_origin(struct dctx *c, Dwarf_Die die, int k)
{
    static const Dwarf_Half refs[] = { DW_AT_abstract_origin, DW_AT_specification };
    Dwarf_Off off;
    return attr_ref(c, die, refs[k], &off) ? ref_die(c, off) : 0;
}

/* The DIE at reference ref (attr_ref), or 0; c->in_alt set to whose it
 * is.  One in the supplementary file when there is none: 0. */
static Dwarf_Die ref_die(struct dctx *c, Dwarf_Off ref)
{
    Dwarf_Debug dbg = ref & ALT_REF ? c->alt : c->dbg;
    Dwarf_Error e = 0;
    Dwarf_Die o = 0;
    if (!dbg)
        return 0;
    if (dwarf_offdie_b(dbg, ref & ~ALT_REF, 1, &o, &e) != DW_DLV_OK) {
        if (e)
            dwarf_warn(c, "a DIE reference", e);
        return 0;
    }
    c->in_alt = !!(ref & ALT_REF);
    return o;
}

/* die_udata of die, or of the DIE its abstract origin or specification is
 * (a concrete instance of an inline function, a clone, a member function
 * defined outside its class keep DW_AT_decl_file and DW_AT_decl_line there). */
static uint64_t die_udata_origin(struct dctx *c, Dwarf_Die die, Dwarf_Half at, int depth)
{
    if (has_attr(c, die, at) || depth > 4)
        return die_udata(c, die, at);
    for (int k = 0; k < 2; k++) {
        int was = c->in_alt;
        Dwarf_Die o = die_origin(c, die, k);
        if (!o)
            continue;
        /* (a file number of the supplementary file's DIE is one of its
           own line tables', not of the unit's: unknown) */
        uint64_t v = c->in_alt && at == DW_AT_decl_file ? 0 : die_udata_origin(c, o, at, depth + 1);
        dwarf_dealloc_die(o);
        c->in_alt = was;
        return v;
    }
    return 0;
}

/* Add one function per address range of a DW_AT_ranges attribute. */
static void add_ranges(struct dctx *c, Dwarf_Die die, Dwarf_Attribute a, const char *name,
                       const char *linkage, const char *file, uint32_t line)
{
    Dwarf_Error e = 0;
    Dwarf_Half form = 0;
    if (dwarf_whatform(a, &form, &e) != DW_DLV_OK) {
        dwarf_warn(c, "DW_AT_ranges form", e);
        return;
    }
    if (c->version >= 5) {
        Dwarf_Unsigned val = 0;
        int res = form == DW_FORM_rnglistx ? dwarf_formudata(a, &val, &e)
                                           : dwarf_global_formref(a, (Dwarf_Off *)&val, &e);
        if (res != DW_DLV_OK) {
            dwarf_warn(c, "DW_AT_ranges value", e);
            return;
        }
        Dwarf_Rnglists_Head head = 0;
        Dwarf_Unsigned count = 0, goff = 0;
        if (dwarf_rnglists_get_rle_head(a, form, val, &head, &count, &goff, &e) != DW_DLV_OK) {
            dwarf_warn(c, "dwarf_rnglists_get_rle_head", e);
            return;
        }
        for (Dwarf_Unsigned i = 0; i < count; i++) {
            unsigned len = 0, code = 0;
            Dwarf_Unsigned r1, r2, lo, hi;
            Dwarf_Bool unavailable = 0;
            if (dwarf_get_rnglists_entry_fields_a(head, i, &len, &code, &r1, &r2, &unavailable,
                                                  &lo, &hi, &e) != DW_DLV_OK) {
                dwarf_warn(c, "dwarf_get_rnglists_entry_fields_a", e);
                break;
            }
            if (unavailable || code == DW_RLE_end_of_list || code == DW_RLE_base_address ||
                code == DW_RLE_base_addressx)
                continue;
            add_func(c->d, &c->funcs_cap, lo, hi, name, linkage, file, line, 1);
        }
        dwarf_dealloc_rnglists_head(head);
        return;
    }
    Dwarf_Off off = 0, real = 0;
    if (dwarf_global_formref(a, &off, &e) != DW_DLV_OK) {
        Dwarf_Unsigned u = 0;
        if (e)
            dwarf_dealloc_error(c->dbg, e);
        e = 0;
        if (dwarf_formudata(a, &u, &e) != DW_DLV_OK) {
            dwarf_warn(c, "DW_AT_ranges offset", e);
            return;
        }
        off = u;
    }
    Dwarf_Ranges *r = 0;
    Dwarf_Signed n = 0;
    Dwarf_Unsigned bytes = 0;
    if (dwarf_get_ranges_b(c->dbg, off, die, &real, &r, &n, &bytes, &e) != DW_DLV_OK) {
        dwarf_warn(c, "dwarf_get_ranges_b", e);
        return;
    }
    Dwarf_Addr base = c->cu_base;
    for (Dwarf_Signed i = 0; i < n; i++) {
        if (r[i].dwr_type == DW_RANGES_END)
            break;
        if (r[i].dwr_type == DW_RANGES_ADDRESS_SELECTION) {
            base = r[i].dwr_addr2;
            continue;
        }
        add_func(c->d, &c->funcs_cap, base + r[i].dwr_addr1, base + r[i].dwr_addr2, name, linkage,
                 file, line, 1);
    }
    dwarf_ranges_dealloc(c->dbg, r, n);
}

static void subprogram(struct dctx *c, Dwarf_Die die)
{
    Dwarf_Error e = 0;
    Dwarf_Addr lo = 0, hi = 0;
    Dwarf_Attribute ranges = 0;
    int res = dwarf_lowpc(die, &lo, &e);
    if (res == DW_DLV_ERROR) {
        dwarf_warn(c, "dwarf_lowpc", e);
        return;
    }
    int has_pc = res == DW_DLV_OK;
    if (!has_pc) {
        res = dwarf_attr(die, DW_AT_ranges, &ranges, &e);
        if (res == DW_DLV_ERROR)
            dwarf_warn(c, "dwarf_attr", e);
        if (res != DW_DLV_OK)
            return; /* a declaration or an abstract instance: no code */
    }
    const char *name = die_name(c, die, 0);
    if (!name)
        name = keep(c->d, "?");
    const char *linkage = die_linkage(c, die);
    const char *file = "";
    uint64_t fi = die_udata_origin(c, die, DW_AT_decl_file, 0);
    /* DWARF 5 numbers files from 0, earlier versions from 1 */
    if (c->version < 5)
        fi = fi ? fi - 1 : (uint64_t)-1;
    if (fi < (uint64_t)c->nsrcfiles)
        file = keep_path(c, c->srcfiles[fi]);
    uint32_t line = (uint32_t)die_udata_origin(c, die, DW_AT_decl_line, 0);
    if (has_pc) {
        Dwarf_Half form = 0;
        enum Dwarf_Form_Class cls = DW_FORM_CLASS_UNKNOWN;
        if (dwarf_highpc_b(die, &hi, &form, &cls, &e) != DW_DLV_OK) {
            dwarf_warn(c, "dwarf_highpc_b", e);
            return;
        }
        if (cls == DW_FORM_CLASS_CONSTANT)
            hi += lo;
        add_func(c->d, &c->funcs_cap, lo, hi, name, linkage, file, line, 1);
    } else {
        add_ranges(c, die, ranges, name, linkage, file, line);
        dwarf_dealloc_attribute(ranges);
    }
}

/* ---- variables and their types (WANT_VARS) ------------------------------ */

#define MAX_TYPE_DEPTH 32 /* typedefs, nested structs and arrays */

/* A constant attribute (data forms, udata, sdata, implicit_const): 1 and
 * *v; 0 when absent or of another class (a DWARF expression, a reference:
 * a variable-length array's bound). */
static int attr_const(struct dctx *c, Dwarf_Die die, Dwarf_Half at, int64_t *v)
{
    Dwarf_Error e = 0;
    Dwarf_Attribute a = 0;
    if (dwarf_attr(die, at, &a, &e) != DW_DLV_OK) {
        if (e)
            dwarf_dealloc_error(c->dbg, e);
        return 0;
    }
    Dwarf_Half form = 0;
    int ok = 0;
    if (dwarf_whatform(a, &form, &e) == DW_DLV_OK) {
        if (form == DW_FORM_sdata || form == DW_FORM_implicit_const) {
            Dwarf_Signed sv = 0;
            ok = dwarf_formsdata(a, &sv, &e) == DW_DLV_OK;
            *v = sv;
        } else if (form == DW_FORM_data1 || form == DW_FORM_data2 || form == DW_FORM_data4 ||
                   form == DW_FORM_data8 || form == DW_FORM_udata) {
            Dwarf_Unsigned uv = 0;
            ok = dwarf_formudata(a, &uv, &e) == DW_DLV_OK;
            *v = (int64_t)uv;
        }
    }
    if (e)
        dwarf_dealloc_error(c->dbg, e);
    dwarf_dealloc_attribute(a);
    return ok;
}

/* The bytes of an expression attribute (exprloc or block forms): 1, with
 * the length and bytes set (owned by libdwarf; free_block frees *blk). */
static int attr_expr(struct dctx *c, Dwarf_Attribute a, Dwarf_Unsigned *len, const uint8_t **data,
                     Dwarf_Block **blk)
{
    Dwarf_Error e = 0;
    Dwarf_Half form = 0;
    *blk = NULL;
    int ok = 0;
    if (dwarf_whatform(a, &form, &e) == DW_DLV_OK) {
        if (form == DW_FORM_exprloc) {
            Dwarf_Ptr p = 0;
            ok = dwarf_formexprloc(a, len, &p, &e) == DW_DLV_OK;
            *data = p;
        } else if (form == DW_FORM_block1 || form == DW_FORM_block2 || form == DW_FORM_block4 ||
                   form == DW_FORM_block) {
            ok = dwarf_formblock(a, blk, &e) == DW_DLV_OK;
            if (ok) {
                *len = (*blk)->bl_len;
                *data = (*blk)->bl_data;
            }
        }
    }
    if (e)
        dwarf_dealloc_error(c->dbg, e);
    return ok;
}

static void free_block(struct dctx *c, Dwarf_Block *blk)
{
    if (blk)
        dwarf_dealloc(c->dbg, blk, DW_DLA_BLOCK);
}

/* A reference attribute as a .debug_info offset, ALT_REF added when it
 * is the supplementary file's (DW_FORM_GNU_ref_alt, or any reference of
 * a DIE of that file); 1 if present and usable (ref_die reads it). */
static int attr_ref(struct dctx *c, Dwarf_Die die, Dwarf_Half at, Dwarf_Off *off)
{
    Dwarf_Error e = 0;
    Dwarf_Attribute a = 0;
    Dwarf_Half form = 0;
    if (dwarf_attr(die, at, &a, &e) != DW_DLV_OK) {
        if (e)
            dwarf_dealloc_error(c->dbg, e);
        return 0;
    }
    int ok = dwarf_whatform(a, &form, &e) == DW_DLV_OK && dwarf_global_formref(a, off, &e) == DW_DLV_OK &&
             !(*off & ALT_REF);
    if (e)
        dwarf_dealloc_error(c->dbg, e);
    dwarf_dealloc_attribute(a);
    if (ok && (c->in_alt || form == DW_FORM_GNU_ref_alt || form == DW_FORM_ref_sup4 ||
               form == DW_FORM_ref_sup8))
        *off |= ALT_REF;
    return ok;
}

static int has_attr(struct dctx *c, Dwarf_Die die, Dwarf_Half at)
{
    Dwarf_Error e = 0;
    Dwarf_Bool b = 0;
    if (dwarf_hasattr(die, at, &b, &e) != DW_DLV_OK) {
        if (e)
            dwarf_dealloc_error(c->dbg, e);
        return 0;
    }
    return !!b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

static uint32_t *tmap_find(struct dctx *c, Dwarf_Off off)
{
    if (!c->tmap_cap)
        return NULL;
    size_t mask = c->tmap_cap - 1;
    for (size_t i = (size_t)(off * 0x9e3779b97f4a7c15ull) & mask;; i = (i + 1) & mask) {
        if (!c->tmap[i].off_plus1)
            return NULL;
        if (c->tmap[i].off_plus1 == off + 1)
            return &c->tmap[i].type;
    }
}

static void tmap_put(struct dctx *c, Dwarf_Off off, uint32_t type)
{
    if ((c->tmap_n + 1) * 2 > c->tmap_cap) {
        size_t nc = c->tmap_cap ? c->tmap_cap * 2 : 256;
        struct type_slot *m = calloc(nc, sizeof *m);
        if (!m)
            return; /* not cached: looked up again next time */
        for (size_t i = 0; i < c->tmap_cap; i++) {
            if (!c->tmap[i].off_plus1)
                continue;
            size_t k = (size_t)((c->tmap[i].off_plus1 - 1) * 0x9e3779b97f4a7c15ull) & (nc - 1);
            while (m[k].off_plus1)
                k = (k + 1) & (nc - 1);
            m[k] = c->tmap[i];
        }
        free(c->tmap);
        c->tmap = m;
        c->tmap_cap = nc;
    }
    size_t mask = c->tmap_cap - 1;
    size_t i = (size_t)(off * 0x9e3779b97f4a7c15ull) & mask;
    while (c->tmap[i].off_plus1 && c->tmap[i].off_plus1 != off + 1)
        i = (i + 1) & mask;
    if (!c->tmap[i].off_plus1)
        c->tmap_n++;
    c->tmap[i] = (struct type_slot){ off + 1, type };
}

static uint32_t new_type(struct dctx *c, struct pi_dtype t)
{
    struct pi_debug *d = c->d;
    if (d->ntypes >= PI_DTYPE_NONE ||
        pi_grow((void **)&d->types, &d->types_cap, d->ntypes, sizeof *d->types))
        return PI_DTYPE_NONE;
    d->types[d->ntypes] = t;
    return (uint32_t)d->ntypes++;
}

static int reserve_members(struct pi_debug *d, size_t n)
{
    while (d->nmembers + n > d->members_cap)
        if (d->members_cap > SIZE_MAX / 2 / sizeof *d->members ||
            pi_grow((void **)&d->members, &d->members_cap, d->members_cap, sizeof *d->members))
            return -1;
    return d->nmembers + n > UINT32_MAX ? -1 : 0;
}

static uint64_t type_size(const struct pi_debug *d, uint32_t t)
{
    return t < d->ntypes ? d->types[t].size : 0;
}

static uint32_t type_at(struct dctx *c, Dwarf_Off off, int depth);

/* The type DW_AT_type of die names, or PI_DTYPE_NONE. */
static uint32_t type_of_die(struct dctx *c, Dwarf_Die die, int depth)
{
    Dwarf_Off off;
    return attr_ref(c, die, DW_AT_type, &off) ? type_at(c, off, depth + 1) : PI_DTYPE_NONE;
}

/* A struct's or union's members, appended to d->members in one run. */
static void read_members(struct dctx *c, Dwarf_Die sdie, uint32_t type, int depth)
{
    Dwarf_Error e = 0;
    Dwarf_Die m = 0;
    struct pi_dmember *tmp = NULL;
    size_t n = 0, cap = 0;
    int res = dwarf_child(sdie, &m, &e);
    while (res == DW_DLV_OK) {
        Dwarf_Half tag = 0;
        if (dwarf_tag(m, &tag, &e) == DW_DLV_OK && tag == DW_TAG_member &&
            !has_attr(c, m, DW_AT_declaration)) { /* a C++ static member has no bytes here */
            struct pi_dmember x = { .type = type_of_die(c, m, depth) };
            Dwarf_Error ne = 0;
            char *name = 0;
            if (die_string(c, m, DW_AT_name, &name, &ne) == DW_DLV_OK)
                x.name = keep(c->d, name);
            else if (ne)
                dwarf_dealloc_error(c->dbg, ne);
            int64_t v = 0, bits = 0;
            x.size = type_size(c->d, x.type);
            if (attr_const(c, m, DW_AT_data_bit_offset, &v) && v >= 0) { /* DWARF 4+ bit-field */
                attr_const(c, m, DW_AT_bit_size, &bits);
                x.offset = (uint64_t)v / 8;
                x.size = ((uint64_t)v % 8 + (uint64_t)(bits > 0 ? bits : 1) + 7) / 8;
            } else if (attr_const(c, m, DW_AT_data_member_location, &v)) {
                x.offset = v > 0 ? (uint64_t)v : 0;
            } else {
                /* DWARF 2: an expression DW_OP_plus_uconst N; a union member: absent */
                Dwarf_Attribute a = 0;
                if (dwarf_attr(m, DW_AT_data_member_location, &a, &ne) == DW_DLV_OK) {
                    Dwarf_Unsigned len = 0;
                    const uint8_t *p = NULL;
                    Dwarf_Block *blk = NULL;
                    if (attr_expr(c, a, &len, &p, &blk) && len >= 2 && p[0] == DW_OP_plus_uconst) {
                        uint64_t u = 0;
                        unsigned sh = 0;
                        for (Dwarf_Unsigned i = 1; i < len && sh < 64; i++, sh += 7) {
                            u |= (uint64_t)(p[i] & 0x7f) << sh;
                            if (!(p[i] & 0x80))
                                break;
                        }
                        x.offset = u;
                    }
                    free_block(c, blk);
                    dwarf_dealloc_attribute(a);
                } else if (ne) {
                    dwarf_dealloc_error(c->dbg, ne);
                }
            }
            if (attr_const(c, m, DW_AT_byte_size, &v) && v > 0 && !has_attr(c, m, DW_AT_bit_size))
                x.size = (uint64_t)v;
            if (pi_grow((void **)&tmp, &cap, n, sizeof *tmp) == 0)
                tmp[n++] = x;
        }
        res = to_sibling(c, &m, &e);
    }
    if (res == DW_DLV_ERROR && e)
        dwarf_dealloc_error(c->dbg, e);
    struct pi_debug *d = c->d;
    if (n && reserve_members(d, n) == 0 && type < d->ntypes) {
        d->types[type].first_member = (uint32_t)d->nmembers;
        d->types[type].nmembers = (uint32_t)n;
        memcpy(d->members + d->nmembers, tmp, n * sizeof *tmp);
        d->nmembers += n;
    }
    free(tmp);
}

/* The type whose DIE is at .debug_info offset off (cached), with typedefs
 * and qualifiers looked through. */
static uint32_t type_at(struct dctx *c, Dwarf_Off off, int depth)
{
    uint32_t *cached = tmap_find(c, off);
    if (cached)
        return *cached;
    if (depth > MAX_TYPE_DEPTH)
        return PI_DTYPE_NONE;
    Dwarf_Error e = 0;
    int was = c->in_alt;
    Dwarf_Die die = ref_die(c, off);
    if (!die)
        return PI_DTYPE_NONE;
    Dwarf_Half tag = 0;
    if (dwarf_tag(die, &tag, &e) != DW_DLV_OK) {
        if (e)
            dwarf_dealloc_error(c->dbg, e);
        dwarf_dealloc_die(die);
        c->in_alt = was;
        return PI_DTYPE_NONE;
    }
    uint32_t t = PI_DTYPE_NONE;
    int64_t v = 0;
    switch (tag) {
    case DW_TAG_typedef:
    case DW_TAG_const_type:
    case DW_TAG_volatile_type:
    case DW_TAG_restrict_type:
    case DW_TAG_atomic_type:
    case DW_TAG_shared_type:
        t = type_of_die(c, die, depth);
        break;
    case DW_TAG_structure_type:
    case DW_TAG_class_type:
    case DW_TAG_union_type: {
        struct pi_dtype x = { .kind = tag == DW_TAG_union_type ? PI_DT_UNION : PI_DT_STRUCT,
                              .elem = PI_DTYPE_NONE };
        if (attr_const(c, die, DW_AT_byte_size, &v) && v > 0)
            x.size = (uint64_t)v;
        t = new_type(c, x);
        if (t != PI_DTYPE_NONE) {
            tmap_put(c, off, t); /* before the members: a member may point back */
            read_members(c, die, t, depth);
        }
        break;
    }
    case DW_TAG_array_type: {
        uint32_t elem = type_of_die(c, die, depth);
        uint64_t counts[16];
        int ndims = 0;
        Dwarf_Die sr = 0;
        int res = dwarf_child(die, &sr, &e);
        while (res == DW_DLV_OK) {
            Dwarf_Half st = 0;
            if (dwarf_tag(sr, &st, &e) == DW_DLV_OK &&
                (st == DW_TAG_subrange_type || st == DW_TAG_enumeration_type) && ndims < 16) {
                int64_t lo = 0, hi = 0, cnt = 0;
                uint64_t n = 0;
                attr_const(c, sr, DW_AT_lower_bound, &lo);
                if (attr_const(c, sr, DW_AT_count, &cnt) && cnt > 0)
                    n = (uint64_t)cnt;
                else if (attr_const(c, sr, DW_AT_upper_bound, &hi) && hi >= lo &&
                         hi - lo < INT64_MAX)
                    n = (uint64_t)(hi - lo) + 1;
                counts[ndims++] = n;
            }
            res = to_sibling(c, &sr, &e);
        }
        if (res == DW_DLV_ERROR && e)
            dwarf_dealloc_error(c->dbg, e);
        if (!ndims)
            counts[ndims++] = 0;
        /* a[2][3]: an array of 2 arrays of 3, built from the inside out */
        t = elem;
        for (int k = ndims - 1; k >= 0; k--)
            t = new_type(c, (struct pi_dtype){ .kind = PI_DT_ARRAY, .elem = t, .count = counts[k],
                                               .size = sat_mul(counts[k], type_size(c->d, t)) });
        if (attr_const(c, die, DW_AT_byte_size, &v) && v > 0 && t != PI_DTYPE_NONE)
            c->d->types[t].size = (uint64_t)v;
        break;
    }
    default: { /* base, pointer, enumeration, function, ... */
        struct pi_dtype x = { .kind = PI_DT_SCALAR, .elem = PI_DTYPE_NONE };
        if (attr_const(c, die, DW_AT_byte_size, &v) && v > 0)
            x.size = (uint64_t)v;
        else if (tag == DW_TAG_pointer_type || tag == DW_TAG_reference_type ||
                 tag == DW_TAG_rvalue_reference_type || tag == DW_TAG_ptr_to_member_type)
            x.size = c->addr_size;
        t = new_type(c, x);
        break;
    }
    }
    dwarf_dealloc_die(die);
    c->in_alt = was;
    if (t != PI_DTYPE_NONE && !tmap_find(c, off))
        tmap_put(c, off, t);
    return t;
}

/* The DIE's type, or its declaration's (DW_AT_abstract_origin in -flto
 * output, DW_AT_specification for a definition after an extern). */
static uint32_t var_type(struct dctx *c, Dwarf_Die die, int depth)
{
    Dwarf_Off off;
    if (attr_ref(c, die, DW_AT_type, &off))
        return type_at(c, off, 0);
    if (depth > 4)
        return PI_DTYPE_NONE;
    static const Dwarf_Half refs[] = { DW_AT_abstract_origin, DW_AT_specification };
    for (size_t k = 0; k < 2; k++) {
        int was = c->in_alt;
        Dwarf_Die o = attr_ref(c, die, refs[k], &off) ? ref_die(c, off) : 0;
        if (!o)
            continue;
        uint32_t t = var_type(c, o, depth + 1);
        dwarf_dealloc_die(o);
        c->in_alt = was;
        if (t != PI_DTYPE_NONE)
            return t;
    }
    return PI_DTYPE_NONE;
}

/* A DW_TAG_variable with a fixed address: DW_AT_location = DW_OP_addr A. */
static void variable(struct dctx *c, Dwarf_Die die)
{
    Dwarf_Error e = 0;
    Dwarf_Attribute a = 0;
    if (dwarf_attr(die, DW_AT_location, &a, &e) != DW_DLV_OK) {
        if (e)
            dwarf_dealloc_error(c->dbg, e);
        return;
    }
    Dwarf_Unsigned len = 0;
    const uint8_t *p = NULL;
    Dwarf_Block *blk = NULL;
    uint64_t addr = 0;
    int ok = attr_expr(c, a, &len, &p, &blk) && c->addr_size >= 1 && c->addr_size <= 8 &&
             len == 1u + c->addr_size && p[0] == DW_OP_addr;
    for (unsigned i = 0; ok && i < c->addr_size; i++)
        addr |= (uint64_t)p[1 + i] << (8 * i);
    free_block(c, blk);
    dwarf_dealloc_attribute(a);
    if (!ok || !addr) /* not one fixed address; 0: discarded by the linker */
        return;
    const char *name = die_name(c, die, 0);
    if (!name)
        return;
    uint32_t t = var_type(c, die, 0);
    struct pi_debug *d = c->d;
    if (pi_grow((void **)&d->vars, &d->vars_cap, d->nvars, sizeof *d->vars))
        return;
    d->vars[d->nvars++] = (struct pi_dvar){ .addr = addr, .size = type_size(d, t), .name = name,
                                            .type = t, .from_dwarf = 1 };
}

/* Visit die and its siblings, and their children, to MAX_DIE_DEPTH. */
static void walk(struct dctx *c, Dwarf_Die die, int depth)
{
    Dwarf_Error e = 0;
    while (die) {
        /* In a well-formed unit each DIE of a preorder walk lies after the
         * one before; a DW_AT_sibling that points back would loop forever. */
        Dwarf_Off off = 0;
        if (dwarf_dieoffset(die, &off, &e) != DW_DLV_OK || off <= c->last_die) {
            if (e)
                dwarf_dealloc_error(c->dbg, e);
            tree_broken(c);
            dwarf_dealloc_die(die);
            return;
        }
        c->last_die = off;
        Dwarf_Half tag = 0;
        if (dwarf_tag(die, &tag, &e) != DW_DLV_OK) {
            dwarf_warn(c, "dwarf_tag", e);
            dwarf_dealloc_die(die);
            return;
        }
        if (tag == DW_TAG_subprogram && (c->want & WANT_FUNCS))
            subprogram(c, die);
        else if (tag == DW_TAG_variable && (c->want & WANT_VARS))
            variable(c, die);
        Dwarf_Die child = 0;
        int cres = depth < MAX_DIE_DEPTH ? dwarf_child(die, &child, &e) : DW_DLV_NO_ENTRY;
        if (cres == DW_DLV_OK)
            walk(c, child, depth + 1);
        else if (cres == DW_DLV_ERROR)
            dwarf_warn(c, "dwarf_child", e);
        if (c->bad_tree) {
            dwarf_dealloc_die(die);
            return;
        }
        Dwarf_Die next = 0;
        int res = dwarf_siblingof_b(c->dbg, die, 1, &next, &e);
        dwarf_dealloc_die(die);
        if (res == DW_DLV_ERROR) {
            dwarf_warn(c, "dwarf_siblingof_b", e);
            return;
        }
        die = res == DW_DLV_OK ? next : 0;
    }
}

/* The relocations in a SHT_REL/SHT_RELA section's data rd, or -1 when its
 * sh_entsize is not the entry's size: libdwarf then reads entries of the
 * right size all the same (a fuzzed entsize of 0x72613c210018 made the
 * checks below see no relocation while libdwarf applied one into a
 * .debug_rnglists header: the double free again). */
static size_t rel_count(Elf *elf, const GElf_Shdr *rh, Elf_Data *rd)
{
    size_t want = gelf_fsize(elf, rh->sh_type == SHT_RELA ? ELF_T_RELA : ELF_T_REL, 1, EV_CURRENT);
    if (!want || rh->sh_entsize != want)
        return (size_t)-1;
    return rd ? rd->d_size / want : 0;
}

/* Whether the bytes [lo, lo + 8) of a .debug_rnglists/.debug_loclists
 * section (b, n: already walked by lists_bad) touch a table header. */
static int in_list_header(const unsigned char *b, uint64_t n, uint64_t lo)
{
    for (uint64_t pos = 0; pos < n;) {
        uint32_t l32;
        uint64_t len, hdr = 4;
        memcpy(&l32, b + pos, 4);
        len = l32;
        if (l32 == 0xffffffffu) {
            memcpy(&len, b + pos + 4, 8);
            hdr = 12;
        }
        if (lo < pos + hdr + 8 && lo + 8 > pos)
            return 1;
        pos += hdr + len;
    }
    return 0;
}

/* Whether libdwarf may read the file (fd).  libdwarf 20210528 (Debian 12)
 * frees a .debug_rnglists/.debug_loclists
 * table header it cannot read and then keeps it: a double free as soon as
 * dwarf_next_cu_header_d loads the lists (found by tests/pmopt/
 * fuzz-tools.c).  So the headers are checked here first, as libdwarf reads
 * them: each table's unit length (32-bit, or 0xffffffff and 64-bit) within
 * the section, version 5, address size 2, 4 or 8, the 12-byte header
 * inside the table.  NULL, or the section that fails.  A compressed
 * section is left to libdwarf. */
static const char *lists_bad(int fd)
{
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    size_t shstrndx;
    const char *bad = NULL;
    if (!elf || elf_getshdrstrndx(elf, &shstrndx)) {
        if (elf)
            elf_end(elf);
        return NULL; /* dwarf_init_b says what is wrong */
    }
    /* libdwarf's own ELF reader allocates the section header table and
     * each section it loads by the sizes the headers say, unchecked (a
     * fuzzed file asked for 1.7 TB): both must lie in the file */
    struct stat st;
    GElf_Ehdr eh;
    size_t shnum;
    if (fstat(fd, &st) || !gelf_getehdr(elf, &eh) || elf_getshdrnum(elf, &shnum) ||
        eh.e_shoff > (uint64_t)st.st_size ||
        (uint64_t)shnum * eh.e_shentsize > (uint64_t)st.st_size - eh.e_shoff)
        bad = "section header table";
    for (Elf_Scn *scn = NULL; !bad && (scn = elf_nextscn(elf, scn));) {
        GElf_Shdr sh;
        if (gelf_getshdr(scn, &sh) && sh.sh_type != SHT_NOBITS &&
            (sh.sh_offset > (uint64_t)st.st_size || sh.sh_size > (uint64_t)st.st_size - sh.sh_offset))
            bad = "section (past the end of the file)";
    }
    for (Elf_Scn *scn = NULL; !bad && (scn = elf_nextscn(elf, scn));) {
        GElf_Shdr sh;
        const char *name;
        if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name))) {
            /* libelf wants an SHT_STRTAB, libdwarf takes any type */
            bad = "section name table";
            break;
        }
        if ((strcmp(name, ".debug_rnglists") && strcmp(name, ".debug_loclists")) ||
            (sh.sh_flags & SHF_COMPRESSED) || sh.sh_type == SHT_NOBITS || !sh.sh_size)
            continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        const unsigned char *b = data ? data->d_buf : NULL;
        uint64_t n = data && b ? data->d_size : 0, pos = 0;
        /* bad: a static string (name dies with elf) */
        name = strcmp(name, ".debug_rnglists") ? ".debug_loclists table header"
                                                 : ".debug_rnglists table header";
        if (!b || n != sh.sh_size)
            bad = name;
        while (!bad && pos < n) {
            uint32_t l32;
            uint64_t len, hdr = 4;
            if (n - pos < 4) {
                bad = name;
                break;
            }
            memcpy(&l32, b + pos, 4);
            len = l32;
            if (l32 == 0xffffffffu) {
                if (n - pos < 12) {
                    bad = name;
                    break;
                }
                memcpy(&len, b + pos + 4, 8);
                hdr = 12;
            } else if (l32 >= 0xfffffff0u) {
                bad = name;
                break;
            }
            if (len < 8 || len > n - pos - hdr) {
                bad = name;
                break;
            }
            uint16_t version;
            memcpy(&version, b + pos + hdr, 2);
            unsigned asize = b[pos + hdr + 2];
            if (version != 5 || (asize != 2 && asize != 4 && asize != 8))
                bad = name;
            pos += hdr + len;
        }
        /* libdwarf applies an object's relocations to the section first:
         * none may write into a table header (nor outside the section) */
        size_t idx = elf_ndxscn(scn);
        for (Elf_Scn *rs = NULL; !bad && (rs = elf_nextscn(elf, rs));) {
            GElf_Shdr rh;
            if (!gelf_getshdr(rs, &rh) || (rh.sh_type != SHT_RELA && rh.sh_type != SHT_REL) ||
                rh.sh_info != idx)
                continue;
            Elf_Data *rd = elf_getdata(rs, NULL);
            size_t nr = rel_count(elf, &rh, rd);
            if (nr == (size_t)-1) {
                bad = name;
                break;
            }
            for (size_t k = 0; k < nr && !bad; k++) {
                GElf_Rela ra;
                GElf_Rel rl;
                uint64_t off;
                if (rh.sh_type == SHT_RELA ? !gelf_getrela(rd, (int)k, &ra) : !gelf_getrel(rd, (int)k, &rl))
                    break;
                off = rh.sh_type == SHT_RELA ? ra.r_offset : rl.r_offset;
                if (off >= n || in_list_header(b, n, off))
                    bad = name;
            }
        }
    }
    elf_end(elf);
    return bad;
}

/* ---- .debug_line headers, checked before libdwarf reads them ----------------
 * libdwarf 20210528 trusts a DWARF 5 line table header: dwarf_srcfiles and
 * dwarf_linesrc index the directory table with a file's directory index
 * checked only against the count (index == count, or any index into an
 * empty table, reads past the array: a crash found by tests/pmopt/
 * fuzz-tools.c, seen only when the heap held the wrong bytes); it
 * allocates 8 * a directory count that a ULEB gives (wrapping, or asking
 * for gigabytes), and makes one entry per file the count says even when an
 * entry has no field (2^64 of them).  So .debug_line is walked here first,
 * as libdwarf reads it, and a CU's line table is handed to libdwarf only
 * when its DW_AT_stmt_list names a table that passed: versions 2 to 4 as
 * they are (libdwarf's own index check is right for them), version 5 with
 * its directory and file entries read (every count within the bytes left,
 * an entry has a field, every file's directory index below the directory
 * count), and in an object, no relocation into the table's length and
 * version nor, for version 5, into its header but at a string offset
 * field.  A compressed section is read decompressed; a split-DWARF package
 * (.debug_cu_index, where libdwarf adds offsets of its own) has none. */
struct line_tables {
    uint64_t *off;           /* the tables that passed, ascending */
    size_t n, cap;
};

/* A ULEB128 at *p (before end), at most 64 bits. */
static int uleb(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
    uint64_t x = 0;
    for (unsigned shift = 0; *p < end; shift += 7) {
        unsigned char b = *(*p)++;
        if (shift >= 64 ? (b & 0x7f) != 0 : shift == 63 && (b & 0x7e))
            return -1;
        if (shift < 64)
            x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = x;
            return 0;
        }
    }
    return -1;
}

/* One value of `form` at *p (before end), skipped: a constant's value in
 * *v; *stroff set when it is a string offset field (os bytes). */
static int line_form(const unsigned char **p, const unsigned char *end, uint64_t form, unsigned os,
                     uint64_t *v, int *stroff)
{
    uint64_t k;
    *stroff = 0;
    *v = 0;
    switch (form) {
    case DW_FORM_string: {
        const unsigned char *z = memchr(*p, 0, (size_t)(end - *p));
        if (!z)
            return -1;
        *p = z + 1;
        return 0;
    }
    case DW_FORM_udata: case DW_FORM_strx: case DW_FORM_GNU_str_index:
        return uleb(p, end, v);
    case DW_FORM_block:
        if (uleb(p, end, &k) || k > (uint64_t)(end - *p))
            return -1;
        *p += k;
        return 0;
    case DW_FORM_line_strp: case DW_FORM_strp: case DW_FORM_strp_sup: case DW_FORM_sec_offset:
    case DW_FORM_GNU_strp_alt:
        *stroff = 1;
        k = os;
        break;
    case DW_FORM_data1: case DW_FORM_strx1: k = 1; break;
    case DW_FORM_data2: case DW_FORM_strx2: k = 2; break;
    case DW_FORM_strx3: k = 3; break;
    case DW_FORM_data4: case DW_FORM_strx4: k = 4; break;
    case DW_FORM_data8: k = 8; break;
    case DW_FORM_data16: k = 16; break;
    default:
        return -1; /* (libdwarf takes no other form here) */
    }
    if (k > (uint64_t)(end - *p))
        return -1;
    for (unsigned i = 0; i < k && i < 8; i++)
        *v |= (uint64_t)(*p)[i] << (8 * i);
    *p += k;
    return 0;
}

/* Relocations allowed in one table: [pos, forbid_end) is closed to them
 * but for the string offset fields so[] (os bytes each). */
struct line_span {
    uint64_t pos, forbid_end;
    unsigned os;
};

/* A version 5 header: p just after the version, end the table's end, sec
 * the section.  0 when it passes, with *hend its header's end and its
 * string offset fields' section offsets appended to so. */
static int line5_ok(const unsigned char *sec, const unsigned char *p, const unsigned char *end, unsigned os,
                    uint64_t *hend, uint64_t **so, size_t *nso, size_t *socap)
{
    uint64_t hlen = 0, count[2], fmt[2][2 * 255];
    if ((uint64_t)(end - p) < 2u + os)
        return -1;
    p += 2; /* address size, segment selector size */
    for (unsigned i = 0; i < os; i++)
        hlen |= (uint64_t)p[i] << (8 * i);
    p += os;
    if (hlen > (uint64_t)(end - p) || hlen < 6)
        return -1;
    end = p + hlen;
    *hend = (uint64_t)(end - sec);
    unsigned opcode_base = p[5];
    p += 6;
    if (!opcode_base || opcode_base - 1u > (uint64_t)(end - p))
        return -1;
    p += opcode_base - 1u;
    for (int t = 0; t < 2; t++) { /* the directories, then the files */
        if (p >= end)
            return -1;
        unsigned nfmt = *p++;
        for (unsigned j = 0; j < nfmt; j++)
            if (uleb(&p, end, &fmt[t][2 * j]) || uleb(&p, end, &fmt[t][2 * j + 1]))
                return -1;
        /* an entry takes a byte at least */
        if (uleb(&p, end, &count[t]) || count[t] > (uint64_t)(end - p) || (count[t] && !nfmt))
            return -1;
        for (uint64_t e = 0; e < count[t]; e++) {
            uint64_t dir = 0; /* a file without a directory index is in directory 0 */
            for (unsigned j = 0; j < nfmt; j++) {
                uint64_t v;
                int s;
                if (!t && fmt[t][2 * j] != DW_LNCT_path)
                    return -1;
                if (line_form(&p, end, fmt[t][2 * j + 1], os, &v, &s))
                    return -1;
                if (t && fmt[t][2 * j] == DW_LNCT_directory_index)
                    dir = v;
                if (s) {
                    if (pi_grow((void **)so, socap, *nso, sizeof **so))
                        return -1;
                    (*so)[(*nso)++] = (uint64_t)(p - os - sec);
                }
            }
            if (t && dir >= count[0])
                return -1;
        }
    }
    return 0;
}

/* Bytes an x86-64 relocation writes (8, the safe side, for the others). */
static unsigned rel_size(int x86, uint64_t type)
{
    if (x86 && (type == R_X86_64_32 || type == R_X86_64_32S || type == R_X86_64_PC32))
        return 4;
    return 8;
}

/* The tables of one .debug_line section (b, n: its bytes) that pass. */
static void line_walk(Elf *elf, Elf_Scn *scn, const unsigned char *b, uint64_t n, struct line_tables *lt)
{
    struct line_span *sp = NULL;
    uint64_t *so = NULL; /* ascending */
    size_t nsp = 0, spcap = 0, nso = 0, socap = 0;
    for (uint64_t pos = 0; pos < n;) {
        uint32_t l32;
        uint64_t len, hdr = 4;
        unsigned os = 4;
        if (n - pos < 4)
            break;
        memcpy(&l32, b + pos, 4);
        len = l32;
        if (l32 == 0xffffffffu) {
            if (n - pos < 12)
                break;
            memcpy(&len, b + pos + 4, 8);
            hdr = 12;
            os = 8;
        } else if (l32 >= 0xfffffff0u) {
            break;
        }
        if (len < 2 || len > n - pos - hdr)
            break;
        uint16_t version;
        memcpy(&version, b + pos + hdr, 2);
        uint64_t hend = pos + hdr + 2; /* versions 2-4: the length and version closed */
        if (version < 2 || version > 5 ||
            (version == 5 && line5_ok(b, b + pos + hdr + 2, b + pos + hdr + len, os, &hend, &so, &nso, &socap)) ||
            pi_grow((void **)&sp, &spcap, nsp, sizeof *sp))
            break;
        sp[nsp++] = (struct line_span){pos, hend, os};
        pos += hdr + len;
    }
    /* an object's relocations of the section */
    GElf_Ehdr eh;
    int x86 = gelf_getehdr(elf, &eh) && eh.e_machine == EM_X86_64;
    size_t idx = elf_ndxscn(scn);
    for (Elf_Scn *rs = NULL; nsp && (rs = elf_nextscn(elf, rs));) {
        GElf_Shdr rh;
        if (!gelf_getshdr(rs, &rh) || (rh.sh_type != SHT_RELA && rh.sh_type != SHT_REL) || rh.sh_info != idx)
            continue;
        Elf_Data *rd = elf_getdata(rs, NULL);
        size_t nr = rel_count(elf, &rh, rd);
        if (nr == (size_t)-1) {
            nsp = 0; /* no table is read */
            break;
        }
        for (size_t k = 0; k < nr; k++) {
            GElf_Rela ra;
            GElf_Rel rl;
            if (rh.sh_type == SHT_RELA ? !gelf_getrela(rd, (int)k, &ra) : !gelf_getrel(rd, (int)k, &rl))
                break;
            uint64_t off = rh.sh_type == SHT_RELA ? ra.r_offset : rl.r_offset;
            unsigned size = rel_size(x86, GELF_R_TYPE(rh.sh_type == SHT_RELA ? ra.r_info : rl.r_info));
            /* the first table that the relocation may touch */
            size_t lo = 0, hi = nsp;
            while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                if (sp[mid].forbid_end <= off)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            if (lo == nsp || off >= UINT64_MAX - size || off + size <= sp[lo].pos)
                continue; /* in a line program (addresses) or past the tables */
            /* into a closed header: only a string offset field, whole */
            size_t a = 0, z = nso;
            while (a < z) {
                size_t mid = (a + z) / 2;
                if (so[mid] < off)
                    a = mid + 1;
                else
                    z = mid;
            }
            if (a < nso && so[a] == off && size <= sp[lo].os && off >= sp[lo].pos)
                continue;
            nsp = lo; /* this table and the ones after it are not read */
            break;
        }
    }
    for (size_t i = 0; i < nsp; i++) {
        if (pi_grow((void **)&lt->off, &lt->cap, lt->n, sizeof *lt->off))
            break;
        lt->off[lt->n++] = sp[i].pos;
    }
    free(sp);
    free(so);
}

/* The line tables of the file (fd) that libdwarf may read. */
static void line_tables(int fd, struct line_tables *lt)
{
    memset(lt, 0, sizeof *lt);
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    size_t shstrndx;
    Elf_Scn *line = NULL;
    int nline = 0;
    GElf_Ehdr eh;
    /* (a big-endian file: libdwarf would read the numbers otherwise) */
    if (!elf || elf_getshdrstrndx(elf, &shstrndx) || !gelf_getehdr(elf, &eh) ||
        eh.e_ident[EI_DATA] != ELFDATA2LSB) {
        if (elf)
            elf_end(elf);
        return;
    }
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
        GElf_Shdr sh;
        const char *name;
        if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)))
            continue;
        if (!strcmp(name, ".debug_cu_index") || !strcmp(name, ".debug_tu_index"))
            nline = 2; /* split DWARF: not read */
        else if (!strcmp(name, ".debug_line") && sh.sh_type != SHT_NOBITS) {
            line = scn;
            nline++;
        }
    }
    if (nline == 1) {
        GElf_Shdr sh;
        Elf_Data *data;
        if (gelf_getshdr(line, &sh) && (!(sh.sh_flags & SHF_COMPRESSED) || elf_compress(line, 0, 0) >= 0) &&
            (data = elf_getdata(line, NULL)) && data->d_buf)
            line_walk(elf, line, data->d_buf, data->d_size, lt);
    }
    elf_end(elf);
}

/* Whether the CU's line table (its DW_AT_stmt_list) is one that passed;
 * no line table at all is fine (libdwarf finds none either). */
static int cu_lines_ok(struct dctx *c, Dwarf_Die cu, const struct line_tables *lt)
{
    Dwarf_Error e = 0;
    Dwarf_Attribute a = 0;
    Dwarf_Half form = 0;
    Dwarf_Off off = 0;
    int res = dwarf_attr(cu, DW_AT_stmt_list, &a, &e);
    if (res == DW_DLV_NO_ENTRY)
        return 1;
    if (res != DW_DLV_OK) {
        dwarf_warn(c, "DW_AT_stmt_list", e);
        return 0;
    }
    if (dwarf_whatform(a, &form, &e) == DW_DLV_OK &&
        (form == DW_FORM_data4 || form == DW_FORM_data8 || form == DW_FORM_sec_offset) &&
        dwarf_global_formref(a, &off, &e) == DW_DLV_OK) {
        dwarf_dealloc_attribute(a);
        size_t lo = 0, hi = lt->n;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (lt->off[mid] < off)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < lt->n && lt->off[lo] == off)
            return 1;
    } else {
        if (e)
            dwarf_dealloc_error(c->dbg, e);
        dwarf_dealloc_attribute(a);
    }
    warn(c->d, "%s: DWARF: a malformed .debug_line table header (the unit's lines and file names are "
         "not read: libdwarf cannot read it safely)", c->d->path);
    return 0;
}

/* The CU's DW_AT_comp_dir (c->comp_dir), and with the functions and lines
 * its name into d->cus (c->cu its index); -1 when out of memory. */
static int add_cu(struct dctx *c, Dwarf_Die cu)
{
    struct pi_debug *d = c->d;
    Dwarf_Error e = 0;
    char *s = 0;
    const char *dir = NULL, *name = "";
    if (die_string(c, cu, DW_AT_comp_dir, &s, &e) == DW_DLV_OK)
        dir = keep(d, s);
    else if (e)
        dwarf_warn(c, "DW_AT_comp_dir", e);
    c->comp_dir = dir && *dir ? dir : NULL;
    if (!(c->want & WANT_FUNCS))
        return 0; /* pi_debug_read_vars: the units were read before */
    if (pi_grow((void **)&d->cus, &c->cus_cap, d->ncus, sizeof *d->cus))
        return -1;
    e = 0;
    if (die_string(c, cu, DW_AT_name, &s, &e) == DW_DLV_OK)
        name = keep(d, s);
    else if (e)
        dwarf_warn(c, "the unit's DW_AT_name", e);
    c->cu = (uint32_t)d->ncus;
    d->cus[d->ncus++] = (struct pi_dcu){ .name = name ? name : "", .comp_dir = c->comp_dir };
    return 0;
}

static char *alt_file(const char *dpath, Elf *elf, int *missing, char *name, size_t n);

/* The supplementary file of the DWARF in fd (alt_file), opened as
 * c->dbg's tied file (libdwarf then reads DW_FORM_GNU_strp_alt from it;
 * ref_die follows DW_FORM_GNU_ref_alt); its descriptor, or -1 (none, or
 * not found: said in d->warning). */
static int open_alt(struct dctx *c, int fd)
{
    struct pi_debug *d = c->d;
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    if (!elf)
        return -1;
    int missing = 0;
    char name[1024];
    char *path = elf_kind(elf) == ELF_K_ELF
                     ? alt_file(d->debug_path ? d->debug_path : d->path, elf, &missing, name, sizeof name)
                     : NULL;
    elf_end(elf);
    if (missing)
        warn(d, "%s: DWARF: its supplementary file %s (.gnu_debugaltlink, made by dwz) was not found "
             "(--debug-file-directory names where it is): the names and types it holds are not read",
             d->debug_path ? d->debug_path : d->path, *name ? name : "(unnamed)");
    if (!path)
        return -1;
    Dwarf_Error e = 0;
    int afd = open(path, O_RDONLY | O_CLOEXEC);
    const char *bad = afd < 0 ? NULL : lists_bad(afd);
    if (afd < 0 || bad || dwarf_init_b(afd, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL, NULL, &c->alt, &e) != DW_DLV_OK ||
        dwarf_set_tied_dbg(c->dbg, c->alt, &e) != DW_DLV_OK) {
        warn(d, "%s: DWARF: %s", path, bad ? "a malformed list table (not read)"
                                   : e ? dwarf_errmsg(e) : afd < 0 ? strerror(errno) : "cannot be read");
        if (e)
            dwarf_dealloc_error(c->alt ? c->alt : c->dbg, e);
        if (c->alt)
            dwarf_finish(c->alt, &e);
        c->alt = 0;
        if (afd >= 0)
            close(afd);
        free(path);
        return -1;
    }
    pi_input_note(path);
    free(d->alt_path);
    d->alt_path = path;
    return afd;
}

static void read_dwarf(struct pi_debug *d, int fd, size_t *funcs_cap, int want)
{
    struct dctx c = { .d = d, .want = want };
    Dwarf_Error e = 0;
    const char *bad = lists_bad(fd);
    if (bad) {
        warn(d, "%s: DWARF: a malformed %s (not read: libdwarf cannot read it safely)",
             d->path, bad);
        return;
    }
    int res = dwarf_init_b(fd, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL, NULL, &c.dbg, &e);
    if (res == DW_DLV_NO_ENTRY)
        return;
    if (res != DW_DLV_OK) {
        warn(d, "%s: DWARF: %s", d->path, e ? dwarf_errmsg(e) : "dwarf_init_b failed");
        if (e)
            dwarf_dealloc_error(c.dbg, e);
        return;
    }
    int afd = open_alt(&c, fd);
    struct line_tables lt;
    line_tables(fd, &lt);
    for (;;) {
        Dwarf_Unsigned hlen = 0, typeoff = 0, next = 0;
        Dwarf_Half version = 0, asize = 0, lsize = 0, esize = 0, cu_type = 0;
        Dwarf_Off abbrev = 0;
        Dwarf_Sig8 sig;
        res = dwarf_next_cu_header_d(c.dbg, 1, &hlen, &version, &abbrev, &asize, &lsize, &esize,
                                     &sig, &typeoff, &next, &cu_type, &e);
        if (res == DW_DLV_NO_ENTRY)
            break;
        if (res != DW_DLV_OK) {
            dwarf_warn(&c, "dwarf_next_cu_header_d", e);
            break;
        }
        Dwarf_Die cu = 0;
        if (dwarf_siblingof_b(c.dbg, NULL, 1, &cu, &e) != DW_DLV_OK) {
            dwarf_warn(&c, "CU DIE", e);
            break;
        }
        d->has_dwarf = 1; /* at least one compilation unit (not just .eh_frame) */
        c.version = version;
        c.addr_size = asize;
        c.cu_base = 0;
        if (dwarf_lowpc(cu, &c.cu_base, &e) != DW_DLV_OK) {
            if (e)
                dwarf_dealloc_error(c.dbg, e);
            e = 0;
            c.cu_base = 0;
        }
        c.srcfiles = 0;
        c.nsrcfiles = 0;
        if (add_cu(&c, cu))
            break;
        int lines_ok = cu_lines_ok(&c, cu, &lt);
        if (lines_ok && dwarf_srcfiles(cu, &c.srcfiles, &c.nsrcfiles, &e) != DW_DLV_OK) {
            if (e)
                dwarf_dealloc_error(c.dbg, e);
            e = 0;
            c.srcfiles = 0;
            c.nsrcfiles = 0;
        }
        if ((want & WANT_FUNCS) && lines_ok)
            read_lines(&c, cu);
        Dwarf_Die child = 0;
        int cres = dwarf_child(cu, &child, &e);
        c.last_die = 0;
        c.bad_tree = 0;
        if (cres == DW_DLV_OK)
            walk(&c, child, 1);
        else if (cres == DW_DLV_ERROR)
            dwarf_warn(&c, "dwarf_child", e);
        for (Dwarf_Signed i = 0; i < c.nsrcfiles; i++)
            dwarf_dealloc(c.dbg, c.srcfiles[i], DW_DLA_STRING);
        if (c.srcfiles)
            dwarf_dealloc(c.dbg, c.srcfiles, DW_DLA_LIST);
        dwarf_dealloc_die(cu);
    }
    if (funcs_cap)
        *funcs_cap = c.funcs_cap;
    free(lt.off);
    free(c.tmap);
    if (dwarf_finish(c.dbg, &e) != DW_DLV_OK)
        warn(d, "%s: DWARF: dwarf_finish failed", d->path);
    if (c.alt && dwarf_finish(c.alt, &e) != DW_DLV_OK)
        warn(d, "%s: DWARF: dwarf_finish failed", d->alt_path);
    if (afd >= 0)
        close(afd);
}

static int cmp_func(const void *a, const void *b)
{
    const struct pi_dfunc *x = a, *y = b;
    PI_CMP_RET(x->lo, y->lo);
    PI_CMP_RET(x->hi, y->hi);
    return y->from_dwarf - x->from_dwarf; /* DWARF first */
}

/* Sort rows by address; at one address, end-of-sequence rows first (the
 * next sequence may start there), then in table order. */
struct line_sort {
    struct pi_dline l;
    size_t order;
};
static int cmp_line(const void *a, const void *b)
{
    const struct line_sort *x = a, *y = b;
    PI_CMP_RET(x->l.addr, y->l.addr);
    if (x->l.end_sequence != y->l.end_sequence)
        return y->l.end_sequence - x->l.end_sequence;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* The symbol table, else the dynamic one, else NULL; NULL with *broken
 * set when a section header cannot be read (elf_errmsg says why). */
static Elf_Scn *symbol_section(Elf *elf, int *broken)
{
    Elf_Scn *scn = NULL, *use = NULL, *dyn = NULL;
    while ((scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh)) {
            *broken = 1;
            return NULL;
        }
        if (sh.sh_type == SHT_SYMTAB)
            use = scn;
        else if (sh.sh_type == SHT_DYNSYM)
            dyn = scn;
    }
    return use ? use : dyn;
}

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    PI_CMP_RET(*x, *y);
    return 0;
}

/* Where a function symbol without a size ends (hand-written assembly
 * without .size, as libsodium's sandy2x ladder.S): at the next function
 * symbol's address (starts[0..n), sorted), else at the end of its
 * section, else one byte on. */
static uint64_t unsized_end(Elf *elf, const GElf_Sym *sym, const uint64_t *starts, size_t n)
{
    uint64_t lo = sym->st_value;
    size_t a = 0, b = n;
    while (a < b) {
        size_t m = a + (b - a) / 2;
        if (starts[m] <= lo)
            a = m + 1;
        else
            b = m;
    }
    Elf_Scn *scn = sym->st_shndx < SHN_LORESERVE ? elf_getscn(elf, sym->st_shndx) : NULL;
    GElf_Shdr sh;
    uint64_t end = scn && gelf_getshdr(scn, &sh) && lo >= sh.sh_addr && lo < sh.sh_addr + sh.sh_size
                       ? sh.sh_addr + sh.sh_size : lo + 1;
    return a < n && starts[a] < end ? starts[a] : end;
}

/* The functions' starts, the n symbols' of data and d's first ndwarf
 * (DWARF's), sorted, for those without a size (unsized_end); NULL if out
 * of memory. */
static uint64_t *func_starts(const struct pi_debug *d, Elf_Data *data, size_t n, size_t ndwarf,
                             size_t *nstarts)
{
    uint64_t *starts = malloc((n + ndwarf + 1) * sizeof *starts);
    *nstarts = 0;
    for (size_t i = 0; starts && i < n; i++) {
        GElf_Sym sym;
        int type;
        if (gelf_getsym(data, (int)i, &sym) && sym.st_shndx != SHN_UNDEF &&
            ((type = GELF_ST_TYPE(sym.st_info)) == STT_FUNC || type == STT_GNU_IFUNC))
            starts[(*nstarts)++] = sym.st_value;
    }
    for (size_t i = 0; starts && i < ndwarf; i++)
        starts[(*nstarts)++] = d->funcs[i].lo;
    if (*nstarts)
        qsort(starts, *nstarts, sizeof *starts, cmp_u64);
    return starts;
}

/* STT_FUNC symbols for addresses no DWARF function covers, and the
 * linkage names DWARF did not give. */
static void read_symtab(struct pi_debug *d, Elf *elf, size_t *funcs_cap)
{
    size_t ndwarf = d->nfuncs;
    int broken = 0;
    Elf_Scn *use = symbol_section(elf, &broken);
    if (broken)
        warn(d, "%s: gelf_getshdr: %s", d->path, elf_errmsg(-1));
    if (!use)
        return;
    GElf_Shdr sh;
    Elf_Data *data = elf_getdata(use, NULL);
    if (!gelf_getshdr(use, &sh) || !data) {
        warn(d, "%s: symbol table: %s", d->path, elf_errmsg(-1));
        return;
    }
    size_t esz = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
    size_t n = esz ? data->d_size / esz : 0;
    uint64_t *starts = NULL; /* made at the first symbol without a size */
    size_t nstarts = 0;
    int made = 0;
    for (size_t i = 0; i < n; i++) {
        GElf_Sym sym;
        if (!gelf_getsym(data, (int)i, &sym))
            break;
        int type = GELF_ST_TYPE(sym.st_info);
        if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym.st_shndx == SHN_UNDEF)
            continue;
        if (!sym.st_size && !made++)
            starts = func_starts(d, data, n, ndwarf, &nstarts);
        uint64_t lo = sym.st_value,
                 hi = sym.st_size ? lo + sym.st_size : starts ? unsized_end(elf, &sym, starts, nstarts) : lo + 1;
        /* covered by DWARF already? (DWARF entries are sorted at this point) */
        size_t a = 0, b = ndwarf;
        while (a < b) {
            size_t m = a + (b - a) / 2;
            if (d->funcs[m].lo <= lo)
                a = m + 1;
            else
                b = m;
        }
        const char *name = elf_strptr(elf, sh.sh_link, sym.st_name);
        if (a > 0 && lo < d->funcs[a - 1].hi) {
            /* a C++ function DWARF gave no linkage name (static, in an
               anonymous namespace): its symbol says its scope; one DWARF
               gave no name at all (its string in a dwz supplementary file
               that is missing): its symbol names it */
            for (size_t k = a; k > 0 && d->funcs[k - 1].lo == lo; k--) {
                struct pi_dfunc *f = &d->funcs[k - 1];
                if (!f->linkage && name && !strncmp(name, "_Z", 2))
                    f->linkage = keep(d, name);
                if (!strcmp(f->name, "?") && name && *name)
                    f->name = keep(d, name);
            }
            continue;
        }
        if (!name || !*name)
            continue;
        const char *k = keep(d, name);
        if (k)
            add_func(d, funcs_cap, lo, hi, k, k, "", 0, 0);
    }
    free(starts);
}

/* ---- PLT entries ------------------------------------------------------------ */

struct got_name {
    uint64_t slot;
    const char *name;
};

static int cmp_got(const void *a, const void *b)
{
    const struct got_name *x = a, *y = b;
    PI_CMP_RET(x->slot, y->slot);
    return 0;
}

static int cmp_plt(const void *a, const void *b)
{
    const struct pi_dplt *x = a, *y = b;
    PI_CMP_RET(x->lo, y->lo);
    return 0;
}

/* The GOT slots the relocations of the dynamic symbol table name
 * (.rela.plt's JUMP_SLOTs, .rela.dyn's GLOB_DATs), sorted; NULL if none. */
static struct got_name *got_names(struct pi_debug *d, Elf *elf, size_t *n)
{
    struct got_name *v = NULL;
    size_t cap = 0;
    *n = 0;
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh, symsh;
        Elf_Scn *symscn;
        Elf_Data *data, *syms;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || !(symscn = elf_getscn(elf, sh.sh_link)) ||
            !gelf_getshdr(symscn, &symsh) || symsh.sh_type != SHT_DYNSYM || !(data = elf_getdata(scn, NULL)) ||
            !(syms = elf_getdata(symscn, NULL)))
            continue;
        size_t esz = gelf_fsize(elf, ELF_T_RELA, 1, EV_CURRENT);
        for (size_t i = 0; esz && i < data->d_size / esz; i++) {
            GElf_Rela r;
            GElf_Sym sym;
            const char *name;
            if (!gelf_getrela(data, (int)i, &r) || !GELF_R_SYM(r.r_info) ||
                !gelf_getsym(syms, (int)GELF_R_SYM(r.r_info), &sym) ||
                !(name = elf_strptr(elf, symsh.sh_link, sym.st_name)) || !*name)
                continue;
            if (pi_grow((void **)&v, &cap, *n, sizeof *v))
                break;
            v[(*n)++] = (struct got_name){r.r_offset, keep(d, name)};
        }
    }
    if (*n)
        qsort(v, *n, sizeof *v, cmp_got);
    return v;
}

/* Each entry of .plt, .plt.sec and .plt.got that jumps through a named GOT
 * slot (`jmp *D(%rip)`, ff 25, bnd-prefixed or not): "NAME@plt".  The
 * first entry of a lazy .plt (the resolver's) and those that only push
 * their index and jump back to it (.plt when .plt.sec holds the jumps)
 * name nothing. */
static void read_plt(struct pi_debug *d, Elf *elf)
{
    size_t shstrndx, ngot, cap = 0;
    if (elf_getshdrstrndx(elf, &shstrndx))
        return;
    struct got_name *got = got_names(d, elf, &ngot);
    Elf_Scn *scn = NULL;
    while (got && (scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh;
        const char *sname;
        Elf_Data *data;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_EXECINSTR) ||
            !(sname = elf_strptr(elf, shstrndx, sh.sh_name)) ||
            (strcmp(sname, ".plt") && strcmp(sname, ".plt.sec") && strcmp(sname, ".plt.got")) ||
            !(data = elf_getdata(scn, NULL)) || !data->d_buf)
            continue;
        uint64_t step = sh.sh_entsize ? sh.sh_entsize : strcmp(sname, ".plt.got") ? 16 : 8;
        const uint8_t *b = data->d_buf;
        for (uint64_t off = 0; off + step <= data->d_size; off += step)
            for (uint64_t k = off; k + 6 <= off + step; k++) {
                if (b[k] != 0xff || b[k + 1] != 0x25)
                    continue;
                int32_t disp = (int32_t)((uint32_t)b[k + 2] | (uint32_t)b[k + 3] << 8 | (uint32_t)b[k + 4] << 16 |
                                         (uint32_t)b[k + 5] << 24);
                struct got_name key = {sh.sh_addr + k + 6 + (uint64_t)(int64_t)disp, NULL};
                const struct got_name *g = bsearch(&key, got, ngot, sizeof *got, cmp_got);
                char buf[512];
                if (g && (size_t)snprintf(buf, sizeof buf, "%s@plt", g->name) < sizeof buf &&
                    !pi_grow((void **)&d->plt, &cap, d->nplt, sizeof *d->plt))
                    d->plt[d->nplt++] = (struct pi_dplt){sh.sh_addr + off, sh.sh_addr + off + step, keep(d, buf)};
                break;
            }
    }
    free(got);
    if (d->nplt)
        qsort(d->plt, d->nplt, sizeof *d->plt, cmp_plt);
}

const char *pi_debug_plt(const struct pi_debug *d, uint64_t addr)
{
    size_t a = 0, b = d->nplt;
    while (a < b) {
        size_t m = a + (b - a) / 2;
        if (d->plt[m].lo <= addr)
            a = m + 1;
        else
            b = m;
    }
    return a > 0 && addr < d->plt[a - 1].hi ? d->plt[a - 1].name : NULL;
}

static void read_section_names(struct pi_debug *d, Elf *elf)
{
    size_t n, shstrndx;
    if (elf_getshdrnum(elf, &n) || elf_getshdrstrndx(elf, &shstrndx)) {
        warn(d, "%s: section headers: %s", d->path, elf_errmsg(-1));
        return;
    }
    d->section_names = calloc(n ? n : 1, sizeof *d->section_names);
    if (!d->section_names)
        return;
    d->nsections = n;
    for (size_t i = 0; i < n; i++) {
        Elf_Scn *scn = elf_getscn(elf, i);
        GElf_Shdr sh;
        const char *name = NULL;
        if (scn && gelf_getshdr(scn, &sh)) {
            name = elf_strptr(elf, shstrndx, sh.sh_name);
            /* the extent of the image (TLS templates are not where TLS lives) */
            if ((sh.sh_flags & SHF_ALLOC) && !(sh.sh_flags & SHF_TLS) && sh.sh_size &&
                sh.sh_addr + sh.sh_size > sh.sh_addr) {
                if (d->alloc_lo == d->alloc_hi || sh.sh_addr < d->alloc_lo)
                    d->alloc_lo = sh.sh_addr;
                if (sh.sh_addr + sh.sh_size > d->alloc_hi)
                    d->alloc_hi = sh.sh_addr + sh.sh_size;
            }
        }
        d->section_names[i] = (char *)keep(d, name ? name : "");
    }
}

const char *pi_debug_section_name(const struct pi_debug *d, uint32_t shndx)
{
    return shndx < d->nsections && d->section_names[shndx] ? d->section_names[shndx] : "";
}

/* ---- separate debug files ---------------------------------------------------- */

static Elf_Scn *section_named(Elf *elf, const char *want, GElf_Shdr *sh)
{
    size_t shstrndx;
    if (elf_getshdrstrndx(elf, &shstrndx))
        return NULL;
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn))) {
        const char *name;
        if (gelf_getshdr(scn, sh) && (name = elf_strptr(elf, shstrndx, sh->sh_name)) && !strcmp(name, want))
            return scn;
    }
    return NULL;
}

/* ELF's GNU build-id as lowercase hex into hex (2 * PI_BUILD_ID_MAX + 1), or 0 */
static int build_id_hex(Elf *elf, char *hex)
{
    uint8_t id[PI_BUILD_ID_MAX];
    uint32_t n = pi_elf_build_id(elf, id);
    if (n < 2) /* (a directory of its first byte, a file of the rest) */
        return 0;
    pi_build_id_hex(id, n, hex);
    return 1;
}

static int file_crc(const char *path, uint32_t *crc)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    uint8_t buf[65536];
    ssize_t n;
    *crc = 0;
    while ((n = read(fd, buf, sizeof buf)) > 0)
        *crc = pi_crc32(*crc, buf, (size_t)n);
    close(fd);
    return n < 0 ? -1 : 0;
}

/* The directories that hold debug files, as gdb's debug-file-directory:
 * colon-separated, those pi_debug_set_dirs named (the usr/lib/debug of a
 * -dbgsym package extracted, not installed), then /usr/lib/debug, where
 * the system's are (libc6-dbg). */
static const char *debug_dirs = "";

void pi_debug_set_dirs(const char *dirs)
{
    debug_dirs = dirs ? dirs : "";
}

/* The i-th debug directory into buf (n bytes, without a trailing '/', ""
 * for an empty entry); 0 past the last. */
static int debug_dir(size_t i, char *buf, size_t n)
{
    const char *s = *debug_dirs ? debug_dirs : NULL;
    for (; i && s; i--)
        s = strchr(s, ':') ? strchr(s, ':') + 1 : NULL;
    if (!s && i == 0) /* past the user's: the system's */
        s = PI_DEBUG_DIR_DEFAULT;
    else if (!s)
        return 0;
    size_t len = strcspn(s, ":");
    while (len > 1 && s[len - 1] == '/')
        len--;
    if (len >= n)
        len = 0; /* (skipped: an empty entry) */
    memcpy(buf, s, len);
    buf[len] = 0;
    return 1;
}

/* Whether the ELF file p has the build-id hex. */
static int has_build_id(const char *p, const char *hex)
{
    int fd = open(p, O_RDONLY | O_CLOEXEC);
    Elf *e = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ_MMAP, NULL);
    char hex2[2 * PI_BUILD_ID_MAX + 1];
    int same = e && elf_kind(e) == ELF_K_ELF && build_id_hex(e, hex2) && !strcmp(hex, hex2);
    if (e)
        elf_end(e);
    if (fd >= 0)
        close(fd);
    return same;
}

/* DIR/.build-id/xx/rest.debug of build-id hex, for each debug directory,
 * if it is there with that build-id.  malloc'ed, or NULL. */
static char *by_build_id(const char *hex)
{
    char dir[4096], p[4096 + 2 * PI_BUILD_ID_MAX + 32];
    for (size_t i = 0; debug_dir(i, dir, sizeof dir); i++)
        if (*dir && (size_t)snprintf(p, sizeof p, "%s/.build-id/%.2s/%s.debug", dir, hex, hex + 2) < sizeof p &&
            has_build_id(p, hex))
            return strdup(p);
    return NULL;
}

/* Where PATH's DWARF is when PATH has none (a stripped program or library
 * whose debug information went into a file of its own, as Debian's
 * -dbgsym packages and `objcopy --only-keep-debug` do): under each debug
 * directory's .build-id by its build-id, else by its .gnu_debuglink
 * beside it, in .debug/ beside it or under each debug directory, where
 * gdb looks; a file only when its build-id or CRC is PATH's.  malloc'ed,
 * or NULL. */
static char *debug_file(const char *path, Elf *elf)
{
    GElf_Shdr sh;
    Elf_Scn *info = section_named(elf, ".debug_info", &sh);
    if (info && sh.sh_type != SHT_NOBITS && sh.sh_size)
        return NULL;
    char hex[2 * PI_BUILD_ID_MAX + 1], p[8192 + 256];
    char *found = build_id_hex(elf, hex) ? by_build_id(hex) : NULL;
    if (found)
        return found;
    Elf_Scn *link = section_named(elf, ".gnu_debuglink", &sh);
    Elf_Data *data = link ? elf_getdata(link, NULL) : NULL;
    if (!data || !data->d_buf || data->d_size < 8)
        return NULL;
    const char *name = data->d_buf;
    size_t len = strnlen(name, data->d_size);
    size_t at = (len + 4) & ~(size_t)3; /* the CRC follows the name's NUL, 4-aligned */
    if (!len || len == data->d_size || at + 4 > data->d_size || strchr(name, '/'))
        return NULL;
    const uint8_t *c = (const uint8_t *)data->d_buf + at;
    uint32_t want = elf_getident(elf, NULL)[EI_DATA] == ELFDATA2MSB
                        ? (uint32_t)c[0] << 24 | (uint32_t)c[1] << 16 | (uint32_t)c[2] << 8 | c[3]
                        : (uint32_t)c[3] << 24 | (uint32_t)c[2] << 16 | (uint32_t)c[1] << 8 | c[0];
    const char *slash = strrchr(path, '/');
    char dir[4096], real[4096];
    if ((size_t)snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path + (slash == path)) : 1,
                         slash ? path : ".") >= sizeof dir)
        return NULL;
    int have_real = realpath(dir, real) != NULL;
    char ddir[4096];
    for (size_t i = 0; i < 2 || (have_real && debug_dir(i - 2, ddir, sizeof ddir)); i++) {
        uint32_t crc;
        size_t k = i == 0 ? (size_t)snprintf(p, sizeof p, "%s/%.*s", dir, (int)len, name)
                 : i == 1 ? (size_t)snprintf(p, sizeof p, "%s/.debug/%.*s", dir, (int)len, name)
                          : (size_t)snprintf(p, sizeof p, "%s%s/%.*s", ddir, real, (int)len, name);
        if (k < sizeof p && (i < 2 || *ddir) && strcmp(p, path) && !file_crc(p, &crc) && crc == want)
            return strdup(p);
    }
    return NULL;
}

/* The supplementary file (dwz -m) whose strings and DIEs the DWARF of
 * elf (read from dpath) refers to with DW_FORM_GNU_strp_alt and
 * DW_FORM_GNU_ref_alt: .gnu_debugaltlink names it (Debian's dh_dwz:
 * /usr/lib/debug/.dwz/ARCH/PACKAGE.debug) and gives its build-id.  Looked
 * for as named (a relative name beside dpath), under each debug directory
 * in place of /usr/lib/debug, and by its build-id under each; a file only
 * when its build-id is the one named.  NULL when elf has no such link;
 * *missing then says whether it has one that was not found, and *name
 * (nbytes) its name. */
static char *alt_file(const char *dpath, Elf *elf, int *missing, char *name, size_t n)
{
    *missing = 0;
    *name = 0;
    GElf_Shdr sh;
    Elf_Scn *scn = section_named(elf, ".gnu_debugaltlink", &sh);
    Elf_Data *data = scn && sh.sh_type != SHT_NOBITS ? elf_getdata(scn, NULL) : NULL;
    if (!data || !data->d_buf || !data->d_size)
        return NULL;
    const char *link = data->d_buf;
    size_t len = strnlen(link, data->d_size), idlen = len < data->d_size ? data->d_size - len - 1 : 0;
    *missing = 1;
    snprintf(name, n, "%.*s", (int)len, link);
    if (!len || idlen < 2 || idlen > PI_BUILD_ID_MAX)
        return NULL;
    char hex[2 * PI_BUILD_ID_MAX + 1], p[8192 + 256], dir[4096];
    pi_build_id_hex((const uint8_t *)link + len + 1, (uint32_t)idlen, hex);
    const char *slash = strrchr(dpath, '/');
    if ((size_t)(name[0] == '/' ? snprintf(p, sizeof p, "%s", name)
                                : snprintf(p, sizeof p, "%.*s%s", slash ? (int)(slash - dpath + 1) : 0,
                                           dpath, name)) < sizeof p &&
        has_build_id(p, hex)) {
        *missing = 0;
        return strdup(p);
    }
    static const char usr_debug[] = PI_DEBUG_DIR_DEFAULT "/";
    if (!strncmp(name, usr_debug, sizeof usr_debug - 1))
        for (size_t i = 0; debug_dir(i, dir, sizeof dir); i++)
            if (*dir && (size_t)snprintf(p, sizeof p, "%s/%s", dir, name + sizeof usr_debug - 1) < sizeof p &&
                has_build_id(p, hex)) {
                *missing = 0;
                return strdup(p);
            }
    char *found = by_build_id(hex);
    *missing = !found;
    return found;
}

int pi_debug_open(const char *path, struct pi_debug *d, struct pi_err *err)
{
    memset(d, 0, sizeof *d);
    d->path = strdup(path);
    if (!d->path)
        return pi_err_set(err, "%s: out of memory", path);
    if (elf_version(EV_CURRENT) == EV_NONE) {
        pi_err_set(err, "%s: libelf is out of date: %s", path, elf_errmsg(-1));
        goto bad;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        pi_err_set(err, "%s: %s", path, strerror(errno));
        goto bad;
    }
    pi_input_note(path);
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    if (!elf || elf_kind(elf) != ELF_K_ELF) {
        pi_err_set(err, "%s: not an ELF file%s%s%s", path, elf ? "" : ": ",
                   elf ? "" : elf_errmsg(-1), pi_not_elf_why(path));
        if (elf)
            elf_end(elf);
        close(fd);
        goto bad;
    }
    read_section_names(d, elf);
    size_t funcs_cap = 0;
    /* DWARF and the full symbol table from the separate debug file, if any
       (its .plt holds no bytes: the PLT from PATH) */
    d->debug_path = debug_file(path, elf);
    int dfd = d->debug_path ? open(d->debug_path, O_RDONLY | O_CLOEXEC) : -1;
    Elf *delf = dfd >= 0 ? elf_begin(dfd, ELF_C_READ_MMAP, NULL) : NULL;
    int sep = delf && elf_kind(delf) == ELF_K_ELF;
    if (sep) {
        pi_input_note(d->debug_path);
    } else { /* (pi_debug_read_vars reads PATH too) */
        free(d->debug_path);
        d->debug_path = NULL;
    }
    read_dwarf(d, sep ? dfd : fd, &funcs_cap, WANT_FUNCS);
    if (d->nfuncs)
        qsort(d->funcs, d->nfuncs, sizeof *d->funcs, cmp_func);
    read_symtab(d, sep ? delf : elf, &funcs_cap);
    read_plt(d, elf);
    if (delf)
        elf_end(delf);
    if (dfd >= 0)
        close(dfd);
    elf_end(elf);
    close(fd);
    if (d->nfuncs)
        qsort(d->funcs, d->nfuncs, sizeof *d->funcs, cmp_func);
    if (d->nlines) {
        struct line_sort *ls = malloc(d->nlines * sizeof *ls);
        if (ls) {
            for (size_t i = 0; i < d->nlines; i++)
                ls[i] = (struct line_sort){ d->lines[i], i };
            qsort(ls, d->nlines, sizeof *ls, cmp_line);
            for (size_t i = 0; i < d->nlines; i++)
                d->lines[i] = ls[i].l;
            free(ls);
        }
    }
    return 0;
bad:
    pi_debug_close(d);
    return -1;
}

int pi_debug_open_elf(const char *name, struct Elf *elf, struct pi_debug *d, struct pi_err *err)
{
    memset(d, 0, sizeof *d);
    d->path = strdup(name);
    if (!d->path)
        return pi_err_set(err, "%s: out of memory", name);
    if (elf_kind(elf) != ELF_K_ELF) {
        pi_err_set(err, "%s: not an ELF file%s", name, pi_not_elf_why(name));
        pi_debug_close(d);
        return -1;
    }
    size_t funcs_cap = 0;
    read_section_names(d, elf);
    read_symtab(d, elf, &funcs_cap);
    read_plt(d, elf);
    if (d->nfuncs)
        qsort(d->funcs, d->nfuncs, sizeof *d->funcs, cmp_func);
    return 0;
}

void pi_debug_close(struct pi_debug *d)
{
    free(d->path);
    free(d->debug_path);
    free(d->alt_path);
    free(d->funcs);
    free(d->lines);
    free(d->cus);
    for (size_t i = 0; i < d->nfiles; i++)
        free(d->files[i]);
    free(d->files);
    for (size_t i = 0; i < d->nstrs; i++)
        free(d->strs[i]);
    free(d->strs);
    free(d->section_names);
    free(d->plt);
    free(d->vars);
    free(d->types);
    free(d->members);
    memset(d, 0, sizeof *d);
}

const struct pi_dfunc *pi_debug_func(const struct pi_debug *d, uint64_t addr)
{
    size_t a = 0, b = d->nfuncs;
    while (a < b) {
        size_t m = a + (b - a) / 2;
        if (d->funcs[m].lo <= addr)
            a = m + 1;
        else
            b = m;
    }
    /* the candidates start at or before addr; look back over a few that
     * share a start or nest (the innermost is usually the last) */
    for (size_t k = 0; a > 0 && k < 16; k++, a--)
        if (addr < d->funcs[a - 1].hi)
            return &d->funcs[a - 1];
    return NULL;
}

/* The line-table row that holds addr, or NULL. */
static const struct pi_dline *line_at(const struct pi_debug *d, uint64_t addr)
{
    size_t a = 0, b = d->nlines;
    while (a < b) {
        size_t m = a + (b - a) / 2;
        if (d->lines[m].addr <= addr)
            a = m + 1;
        else
            b = m;
    }
    return a == 0 || d->lines[a - 1].end_sequence ? NULL : &d->lines[a - 1];
}

int pi_debug_line(const struct pi_debug *d, uint64_t addr, const char **file, uint32_t *line)
{
    const struct pi_dline *l = line_at(d, addr);
    if (!l)
        return 0;
    *file = l->file < d->nfiles ? d->files[l->file] : "";
    *line = l->line;
    return 1;
}

const struct pi_dcu *pi_debug_cu_at(const struct pi_debug *d, uint64_t addr)
{
    const struct pi_dline *l = line_at(d, addr);
    return l && l->cu < d->ncus ? &d->cus[l->cu] : NULL;
}

/* ---- variables ------------------------------------------------------------ */

static int cmp_var(const void *a, const void *b)
{
    const struct pi_dvar *x = a, *y = b;
    PI_CMP_RET(x->addr, y->addr);
    if (x->from_dwarf != y->from_dwarf)
        return y->from_dwarf - x->from_dwarf; /* DWARF first */
    PI_CMP_RET(y->size, x->size);
    return strcmp(x->name, y->name);
}

/* The last variable starting at or before addr among vars[0 .. n), or n. */
static size_t var_floor(const struct pi_dvar *vars, size_t n, uint64_t addr)
{
    size_t a = 0, b = n;
    while (a < b) {
        size_t m = a + (b - a) / 2;
        if (vars[m].addr <= addr)
            a = m + 1;
        else
            b = m;
    }
    return a ? a - 1 : n;
}

/* STT_OBJECT symbols: the size of DWARF variables whose type has none, and
 * variables of their own where no DWARF variable is. */
static void read_objects(struct pi_debug *d, Elf *elf)
{
    size_t ndwarf = d->nvars;
    int broken = 0;
    Elf_Scn *use = symbol_section(elf, &broken);
    if (broken)
        return;
    GElf_Shdr sh;
    Elf_Data *data = use ? elf_getdata(use, NULL) : NULL;
    if (!data || !gelf_getshdr(use, &sh))
        return;
    size_t esz = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
    size_t n = esz ? data->d_size / esz : 0;
    for (size_t i = 0; i < n; i++) {
        GElf_Sym sym;
        if (!gelf_getsym(data, (int)i, &sym))
            break;
        if (GELF_ST_TYPE(sym.st_info) != STT_OBJECT || sym.st_shndx == SHN_UNDEF ||
            !sym.st_value || !sym.st_size)
            continue;
        size_t k = var_floor(d->vars, ndwarf, sym.st_value);
        int covered = 0;
        for (size_t j = k; j < ndwarf && !covered; j--) { /* a few share a start */
            struct pi_dvar *v = &d->vars[j];
            if (v->addr == sym.st_value && !v->size)
                v->size = sym.st_size;
            covered = sym.st_value < v->addr + (v->size ? v->size : 1);
            if (j == 0 || k - j >= 16)
                break;
        }
        if (covered)
            continue;
        const char *name = elf_strptr(elf, sh.sh_link, sym.st_name);
        if (!name || !*name || !(name = keep(d, name)) ||
            pi_grow((void **)&d->vars, &d->vars_cap, d->nvars, sizeof *d->vars))
            continue;
        d->vars[d->nvars++] = (struct pi_dvar){ .addr = sym.st_value, .size = sym.st_size,
                                                .name = name, .type = PI_DTYPE_NONE };
    }
}

int pi_debug_read_vars(struct pi_debug *d, struct pi_err *err)
{
    if (d->vars_read)
        return 0;
    d->vars_read = 1;
    if (elf_version(EV_CURRENT) == EV_NONE)
        return pi_err_set(err, "%s: libelf is out of date: %s", d->path, elf_errmsg(-1));
    /* (the separate debug file's symbols are the program's, at its addresses) */
    const char *from = d->debug_path ? d->debug_path : d->path;
    int fd = open(from, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return pi_err_set(err, "%s: %s", from, strerror(errno));
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    if (!elf || elf_kind(elf) != ELF_K_ELF) {
        if (elf)
            elf_end(elf);
        close(fd);
        return pi_err_set(err, "%s: not an ELF file%s", d->path, pi_not_elf_why(d->path));
    }
    read_dwarf(d, fd, NULL, WANT_VARS);
    if (d->nvars)
        qsort(d->vars, d->nvars, sizeof *d->vars, cmp_var);
    read_objects(d, elf);
    elf_end(elf);
    close(fd);
    if (d->nvars)
        qsort(d->vars, d->nvars, sizeof *d->vars, cmp_var);
    return 0;
}

const struct pi_dvar *pi_debug_var(const struct pi_debug *d, uint64_t lo, uint64_t hi)
{
    size_t k = var_floor(d->vars, d->nvars, lo);
    /* the candidates start at or before lo; a few may share a start */
    for (size_t j = k, seen = 0; j < d->nvars && seen < 16; j--, seen++) {
        const struct pi_dvar *v = &d->vars[j];
        if (lo - v->addr < (v->size ? v->size : 1))
            return v;
        if (j == 0)
            break;
    }
    size_t next = k < d->nvars ? k + 1 : 0;
    return next < d->nvars && d->vars[next].addr < hi ? &d->vars[next] : NULL;
}

void pi_debug_var_name(const struct pi_debug *d, const struct pi_dvar *v, uint64_t addr, char *buf,
                       size_t n)
{
    if (!n)
        return;
    uint64_t off = addr > v->addr ? addr - v->addr : 0;
    size_t len = (size_t)snprintf(buf, n, "%s", v->name);
#define PUT(...)                                                                            \
    do {                                                                                    \
        if (len < n)                                                                        \
            len += (size_t)snprintf(buf + len, n - len, __VA_ARGS__);                      \
    } while (0)
    if (v->type == PI_DTYPE_NONE) {
        if (off)
            PUT("+0x%llx", (unsigned long long)off);
        return;
    }
    uint32_t t = v->type;
    for (int depth = 0; t < d->ntypes && depth < 64; depth++) {
        const struct pi_dtype *ty = &d->types[t];
        if (ty->kind == PI_DT_ARRAY) {
            uint64_t es = type_size(d, ty->elem);
            if (!es || (ty->count && off / es >= ty->count))
                break;
            PUT("[%llu]", (unsigned long long)(off / es));
            off %= es;
            t = ty->elem;
        } else if (ty->kind == PI_DT_STRUCT || ty->kind == PI_DT_UNION) {
            const struct pi_dmember *m = NULL;
            for (uint32_t i = 0; i < ty->nmembers && !m; i++) {
                const struct pi_dmember *x = &d->members[ty->first_member + i];
                if (off >= x->offset && off - x->offset < (x->size ? x->size : 1))
                    m = x;
            }
            if (!m)
                break; /* padding */
            if (m->name)
                PUT(".%s", m->name);
            off -= m->offset;
            t = m->type;
        } else {
            break;
        }
    }
#undef PUT
}
