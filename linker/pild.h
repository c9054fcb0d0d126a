/* pild.h — the parts of perfinst-ld (the link driver) and how they meet.
 *
 *   main.c     options, the temporary output, running gcc, the atomic rename
 *   cmdline.c  what a gcc link command line says: output, inputs, -l, -L, mode
 *   inputs.c   resolving -l, hashing inputs, reading their .perfinst first
 *   xlat.c     the XLAT chunk: translation table + shadow-segment template
 *   recipe.c   the LINK chunk: the recorded link recipe
 *   elfout.c   appending non-allocated sections to a linked file (libelf)
 *   util.c     messages, memory, the buffer chunks are built in
 *
 * docs/perfinst-ld.md describes the behaviour; include/perfinst-format.h the
 * bytes.  Every function that can fail prints one message to stderr, starting
 * with "perfinst-ld: " and the file concerned, and returns -1.
 */
#ifndef PERFINST_PILD_H
#define PERFINST_PILD_H

#include <stddef.h>
#include <stdint.h>
#include "perfinst-format.h"
#include "pimeta.h"

#define PILD_NAME "perfinst-ld"

/* ---- small helpers (util.c) --------------------------------------------- */

void *pild_xmalloc(size_t n);
void *pild_xrealloc(void *p, size_t n);
char *pild_xstrdup(const char *s);
char *pild_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void pild_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void pild_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern int pild_verbose;

/* A growable byte buffer, used to build chunks. */
struct pild_buf {
    unsigned char *p;
    size_t len, cap;
};
void pild_buf_add(struct pild_buf *b, const void *data, size_t n);
/* Start a chunk of the given kind (reserves its header); returns its offset. */
size_t pild_chunk_begin(struct pild_buf *b, uint16_t kind);
/* Zero-pad to 8 and fill in the header's size and CRC.  -1 if over 4 GiB. */
int pild_chunk_end(struct pild_buf *b, size_t start, const char *what);

/* ---- the command line (cmdline.c) ---------------------------------------- */

enum pild_input_kind {
    PILD_IN_FILE,   /* a file operand: object, archive, shared library, script */
    PILD_IN_LIB,    /* -lNAME / -l NAME / -l:FILE, resolved through the search path */
    PILD_IN_SCRIPT, /* -T FILE */
};

struct pild_input {
    enum pild_input_kind kind;
    const char *name;   /* the file as given, or the library name after -l */
    uint32_t argi;      /* index in the driver argv of the argument naming it */
    int want_static;    /* -l only: -static / -Bstatic in force (archives only) */
    /* filled by pild_inputs_scan: */
    char *path;         /* absolute, resolved; NULL if not found */
    uint64_t size;
    int64_t mtime_ns;
    uint64_t hash;
};

struct pild_cmd {
    /* The driver command line: argv[0] is the compiler, then the user's
     * arguments with the output replaced by the temporary file, then what
     * perfinst-ld adds.  argv[out_argi] is the output argument. */
    char **argv;
    size_t argc;
    size_t out_argi;
    const char *out_prefix; /* "" when the output is a separate argument, else "-o" / "--output=" */
    const char *output;     /* the -o argument as given, or "a.out" */
    int final_link;         /* 0: -c, -S, -E, -r, -print-*, ...: run gcc as it is */
    int is_static;          /* -static / -static-pie */
    int bstatic_at_end;     /* -Wl,-Bstatic still in force after the user's arguments */

    char **libdirs;         /* -L directories, in order */
    size_t nlibdirs;
    struct pild_input *inputs;
    size_t ninputs;
};

struct pild_opts {
    const char *cc;
    int static_runtime;
    uint32_t line_size;
    const char *libdir;     /* where libperfinst is */
};

/* Split perfinst-ld's own --pi-* options out of argv and analyse the rest as
 * gcc would.  Returns 0, 1 when --help/--version was handled, -1 on a bad
 * option (message printed). */
int pild_cmdline_parse(int argc, char **argv, struct pild_opts *o, struct pild_cmd *c);
/* Append what perfinst-ld adds to every final link (build id, runtime). */
void pild_cmdline_finish(struct pild_cmd *c, const struct pild_opts *o);
/* The argument that names the output file, for a given file name. */
char *pild_output_arg(const struct pild_cmd *c, const char *file);

/* ---- inputs (inputs.c) --------------------------------------------------- */

/* A unit seen in an input, kept to explain a conflict found after the link. */
struct pild_unit_seen {
    uint64_t unit_id;
    uint64_t content;   /* hash of the unit's tables */
    char *where;        /* "a.o" or "libx.a(y.o)" */
    int always_linked;  /* an object named on the command line (not an archive member) */
};

struct pild_seen {
    struct pild_unit_seen *v;
    size_t n, cap;
};

/* Resolve, stat and hash every input; read the .perfinst of every
 * relocatable object and archive member and refuse, naming the input, one
 * that is corrupt, foreign or in conflict with another object. */
int pild_inputs_scan(struct pild_cmd *c, const struct pild_opts *o, struct pild_seen *seen);
/* After the output was refused: print which inputs define a unit twice. */
void pild_inputs_explain(const struct pild_seen *seen);

/* ---- the two sections perfinst-ld writes --------------------------------- */

int pild_xlat_build(const struct pi_meta *m, uint32_t line_size, struct pild_buf *out,
                    const char *output);
int pild_recipe_build(const struct pild_cmd *c, struct pild_buf *out);

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
