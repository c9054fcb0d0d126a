/* pild.h — the parts of perfinst-ld and how they meet.
 *
 * perfinst-ld is two programs in one binary (docs/perfinst-ld.md):
 *
 *   the link stage   `perfinst-ld --pi-collect2 ARGS`, which gcc's driver runs
 *                    in place of collect2 when perfinst.specs is given
 *                    (`pkg-config --libs perfinst`): it runs the real
 *                    collect2 into a temporary output and adds perfinst's
 *                    sections to what was linked;
 *   the link driver  `perfinst-ld [--pi-OPTION...] GCC-ARGS`: gcc (g++ for
 *                    C++ inputs) with those same flags, so that its links
 *                    go through the link stage like everyone else's.
 *
 *   main.c     the link driver, and the dispatch
 *   cmdline.c  what a gcc link command line says: inputs, final link or not
 *   ldline.c   what a collect2/ld command line says: output, inputs, mode
 *   inputs.c   resolving -l, hashing inputs, reading their .perfinst and
 *              symbols first (units, runtime references, C++, -flto, TLS)
 *   stage.c    the link stage: runtime, temporary output, collect2, checks,
 *              the atomic rename
 *   xlat.c     the XLAT chunk: translation table + shadow-segment template
 *   recipe.c   the LINK chunk: the recorded link recipe
 *   elfout.c   appending non-allocated sections to a linked file (libelf)
 *   util.c     messages, memory, processes, the buffer chunks are built in
 *
 * include/perfinst-format.h describes the bytes.  Every function that can
 * fail prints one message to stderr, starting with "perfinst-ld: " and the
 * file concerned, and returns -1.
 */
#ifndef PERFINST_PILD_H
#define PERFINST_PILD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "perfinst-format.h"
#include "pimeta.h"

#define PILD_NAME "perfinst-ld"
#define PILD_STAGE_FLAG "--pi-collect2" /* argv[1] of the link stage (perfinst.specs) */

/* ---- small helpers (util.c) --------------------------------------------- */

void *pild_xmalloc(size_t n);
void *pild_xrealloc(void *p, size_t n);
char *pild_xstrdup(const char *s);
char *pild_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void pild_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void pild_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void pild_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern int pild_verbose;

/* A NULL-terminated, growable argument vector. */
struct pild_argv {
    char **v;
    size_t n;
};
void pild_argv_push(struct pild_argv *a, const char *s);      /* a copy of s */
void pild_argv_insert(struct pild_argv *a, size_t at, const char *s);

/* "perfinst-ld: running ARGV" on stderr. */
void pild_show_command(char *const argv[]);
/* Exit status of argv: its own, or 128 + the signal that killed it; 127
 * when it cannot be run (said). */
int pild_run(char *const argv[]);
/* stdout of argv (NULL if it could not run or failed), at most 64 KiB;
 * its stderr is dropped. */
char *pild_run_capture(char *const argv[]);
/* The first line of `GCC OPTION`'s output (-print-prog-name=as,
 * -print-file-name=crt1.o: a path), malloc'd; NULL if it printed none. */
char *pild_gcc_print(const char *gcc, const char *option);

/* A growable byte buffer, used to build chunks. */
struct pild_buf {
    unsigned char *p;
    size_t len, cap;
};
void pild_buf_add(struct pild_buf *b, const void *data, size_t n);
/* Start a chunk of the given kind and version (reserves its header);
 * returns its offset. */
size_t pild_chunk_begin(struct pild_buf *b, uint16_t kind, uint16_t version);
/* Zero-pad to 8 and fill in the header's size and CRC.  -1 if over 4 GiB. */
int pild_chunk_end(struct pild_buf *b, size_t start, const char *what);

/* ---- where perfinst's files are (main.c) --------------------------------- */

/* LIBDIR, where libperfinst is: $PERFINST_LIB_DIR; else ../lib beside an
 * installed binary; else the binary's own directory (build/). */
const char *pild_libdir(void);
/* PLUGINDIR, where perfinst.so and perfinst.specs are: ../lib/perfinst
 * beside an installed binary; else the binary's own directory. */
const char *pild_plugindir(void);

/* ---- the options both fronts take (--pi-..., -Wl,--pi-... at the stage) --- */

struct pild_opts {
    const char *cc;         /* the link driver's compiler; NULL: gcc, or g++ for C++ */
    int static_runtime;     /* --pi-static-runtime */
    int force_runtime;      /* --pi-runtime: link the runtime even if nothing uses it */
    uint32_t line_size;     /* --pi-line-size */
};
/* One --pi-OPTION (the stage also gets them as -Wl,--pi-OPTION): 0, or -1
 * after a message for an unknown or bad one.  --pi-cc is the driver's only. */
int pild_opt(const char *a, struct pild_opts *o, int driver);
void pild_usage(FILE *f);

/* ---- inputs ------------------------------------------------------------------ */

enum pild_input_kind {
    PILD_IN_FILE,   /* a file operand: object, archive, shared library, script */
    PILD_IN_LIB,    /* -lNAME / -l NAME / -l:FILE, resolved through the search path */
    PILD_IN_SCRIPT, /* -T FILE */
    PILD_IN_RUNTIME, /* libperfinst, added by the link stage (not in argv) */
};

struct pild_input {
    enum pild_input_kind kind;
    const char *name;   /* the file as given, or the library name after -l */
    uint32_t argi;      /* index in the recorded argv of the argument naming it, or PI_NONE */
    int want_static;    /* -l only: -static / -Bstatic in force (archives only) */
    /* filled by pild_inputs_resolve / pild_inputs_scan: */
    char *path;         /* absolute, resolved; NULL if not found */
    uint64_t size;
    int64_t mtime_ns;
    uint64_t hash;
};

/* What the inputs' relocatable objects (and archive members) say. */
struct pild_unit_seen {
    uint64_t unit_id;
    uint64_t content;   /* hash of the unit's tables */
    char *where;        /* "a.o" or "libx.a(y.o)" */
    int always_linked;  /* an object named on the command line (not an archive member) */
};

struct pild_facts {
    struct pild_unit_seen *units;  /* sorted by unit id after the scan */
    size_t nunits, cap;
    char *uses_runtime;    /* the first input that refers to libperfinst (or has units) */
    char *uses_line_alloc; /* the first input that refers to __perfinst_line_* (a repaired
                              build's allocators: libperfinst-line.a, if nothing else) */
    char *cplusplus;       /* the first input that refers to libstdc++/the C++ ABI */
    char *lto_perfinst;    /* the first -flto object compiled with the plugin: the code
                              lto1 makes of it may refer to the runtime */
    char *lto_instrumented; /* the first of them compiled for more than a feedback
                              rebuild (no -fplugin-arg-perfinst-feedback=, or all=,
                              sharing=): lto1 may add what needs the runtime's wrappers */
    char *tls_exec;        /* the first object named on the command line with perfinst
                              units and executable-only TLS (compiled without -fPIC) */
    char *tls_exec_member; /* the same in an archive member (maybe not linked) */
    int want_tls;          /* look for tls_exec (a -shared link) */
    char *unstaged;        /* the first shared library among the inputs with perfinst units
                              (.perfinst) but no link recipe (.perfinst.link): linked
                              without the link stage (libtool before 2.4.7 drops -specs=
                              from a shared library's link) */
    /* order-align=bolt (falign.c): the first object whose unit asks for the
       ordered functions' alignment (.perfinst.falign "TO:MAX"), and every
       .text.sorted.* input section's name and alignment */
    char *falign;
    uint32_t falign_to, falign_max;
    struct pild_sorted_sec {
        char *name;
        uint64_t align;
    } *sorted;
    size_t nsorted, capsorted;
};

/* gcc's options as it quotes them ('-O2' '-fplugin=…/perfinst.so' …: in
 * COLLECT_GCC_OPTIONS and an -flto object's .gnu.lto_.opts) load perfinst's
 * plugin. */
int pild_options_load_plugin(const char *opts, size_t len);
/* Resolve -l the way ld does: the directories in order, each tried for
 * libNAME.so then libNAME.a (only .a when want_static), -l:FILE exactly;
 * else gcc's own directories when cc is not NULL (`CC -print-search-dirs`,
 * then `CC -print-file-name`).  NULL if not found. */
char *pild_resolve_lib(const struct pild_input *in, char **dirs, size_t ndirs, const char *cc);
/* Size, mtime and pi_hash64 of in->path. */
int pild_stat_and_hash(struct pild_input *in);
/* Read one input (object, archive or anything else: skipped) and add what
 * it says to f.  With check, its .perfinst is read and validated (a corrupt
 * or foreign one is refused naming it); always_linked: named on the command
 * line.  0, or -1 after a message. */
int pild_scan_file(const char *path, const char *shown, int check, struct pild_facts *f);
/* After the scan: unit ids that two objects of the command line define
 * with different contents are refused (-1, named). */
int pild_facts_conflicts(struct pild_facts *f);
/* After the output was refused: print which inputs define a unit twice. */
void pild_facts_explain(const struct pild_facts *f);
void pild_facts_free(struct pild_facts *f);

/* ---- the link driver's command line (cmdline.c) ---------------------------- */

struct pild_cmd {
    struct pild_argv args;  /* the user's arguments, --pi- options removed */
    int final_link;         /* 0: -c, -S, -E, -r, -print-*, ...: run gcc as it is */
    int cplusplus_source;   /* a C++ source file, or -x c++ */
    char **libdirs;         /* -L directories, in order */
    size_t nlibdirs;
    struct pild_input *inputs;  /* file operands and -l libraries */
    size_t ninputs;
};

/* Split the --pi-* options out of argv and analyse the rest as gcc would.
 * Returns 0, 1 when --help/--version was handled, -1 on a bad option
 * (message printed). */
int pild_cmdline_parse(int argc, char **argv, struct pild_opts *o, struct pild_cmd *c);

/* ---- the link stage's command line (ldline.c) ------------------------------ */

struct pild_link {
    struct pild_argv rec;   /* as received: rec.v[0] the real collect2; recorded */
    size_t out_argi;        /* index in rec of the output argument */
    const char *out_prefix; /* "" when the output is a separate argument, else "-o" / "--output=" */
    const char *output;     /* the output as given, or "a.out" */
    int final_link;         /* 0: -r, --version, no input: run collect2 as it is */
    int shared, is_static, has_build_id;
    int lto_plugin;         /* -plugin .../liblto_plugin.so: collect2 may run lto-wrapper */
    size_t runtime_at;      /* index in rec before which the runtime goes */
    size_t after_libc_at;   /* index in rec right after the last -lc, 0 if none */
    int has_libgcc;         /* -lgcc among the arguments (not with -nostdlib unless given) */
    char **libdirs;
    size_t nlibdirs;
    struct pild_input *inputs;
    size_t ninputs;
};

/* keep.c: gcc's temporary objects among L's inputs (a compile-and-link
   command's) copied beside the output, the inputs' paths the copies' */
void pild_keep_temporaries(struct pild_link *l);

/* Parse a collect2 command line (argv[0] the real collect2): output, -L
 * and -l, file operands, -T scripts, the mode; --pi- options go into o.
 * @response files are expanded.  0, or -1 after a message. */
int pild_ldline_parse(int argc, char **argv, struct pild_opts *o, struct pild_link *l);
/* The argv collect2 runs with: rec without the --pi- options, the output
 * replaced by out, with `add` inserted at runtime_at and --build-id if
 * missing. */
char **pild_ldline_argv(const struct pild_link *l, const char *out, char **add, size_t nadd);
/* Add the runtime as an input (argi PI_NONE). */
void pild_ldline_add_runtime(struct pild_link *l, const char *path);

/* ---- the link stage (stage.c) ------------------------------------------------- */

/* argv[1] is PILD_STAGE_FLAG. */
int pild_stage_main(int argc, char **argv);

/* ---- the ordered functions' alignment (falign.c) ------------------------- */

/* The link of argv (pild_ldline_argv(l, tmp, add...)) with f->falign set:
 * collect2 run with a map, the padding before each ordered function
 * computed from it, and collect2 run again with that padding (an object
 * of .text.sorted sections that sort right before their functions); the
 * first link is kept (with a note) when the second does not place every
 * ordered function where the first predicted.  The exit status of the
 * first link (pild_run's), or 1. */
int pild_falign_link(const struct pild_link *l, const struct pild_argv *add,
                     const struct pild_facts *f, const char *tmp, const char *tmpdir);
int pild_sorted_sec_add(struct pild_facts *f, const char *name, uint64_t align);

/* ---- the two sections the link stage writes ------------------------------- */

int pild_xlat_build(const struct pi_meta *m, uint32_t line_size, struct pild_buf *out,
                    const char *output);
/* flags: enum pi_link_flags. */
int pild_recipe_build(const struct pild_link *l, uint32_t flags, struct pild_buf *out);

/* ---- writing them (elfout.c) --------------------------------------------- */

struct pild_section {
    const char *name;
    const void *data;
    size_t size;
};
/* Append non-allocated SHT_PROGBITS sections to the ELF file at path, which
 * must not have sections of these names yet.  `shown` names the file in
 * messages. */
int pild_elf_append(const char *path, const char *shown, const struct pild_section *s, size_t n);

#endif /* PERFINST_PILD_H */
