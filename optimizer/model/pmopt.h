/* pmopt.h — what the subcommands of pmopt share (util.c); the commands
 * themselves are in commands.h. */
#ifndef PERFINST_PMOPT_H
#define PERFINST_PMOPT_H

#include <stdint.h>
#include <stdio.h>
#include "pimeta.h"
#include "pitrace.h"

/* Exit statuses (docs/pmopt.md). */
enum { PM_OK = 0, PM_ERROR = 1, PM_USAGE = 2 };

/* "pmopt: ..." on stderr; pm_usage_error also says "try --help", returns PM_USAGE. */
void pm_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void pm_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int pm_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The operand of a command (argv[0]) whose only option is --help and that
 * takes one operand, `what` in messages ("FILE").  NULL when the command
 * is done: *status is PM_OK after --help, PM_USAGE after a usage error. */
const char *pm_one_operand(int argc, char **argv, const char *what, void (*help)(FILE *),
                           int *status);

/* Why a file has no .perfinst.link, for the messages that refuse it: ""
 * when it holds no perfinst units, else that its link did not run
 * perfinst's link stage (libtool before 2.4.7 drops -specs= from a shared
 * library's link); a static string beginning with "; " */
const char *pm_no_link_why(const struct pi_meta *m);
/* The file name part of a path. */
const char *pm_basename(const char *path);
/* Does a path name a shared library (lib*.so, *.so.N)? */
int pm_is_shared_lib(const char *path);

/* The module of trace t that holds PROG (build-id `id`/`len`, file `prog`):
 * the one with that build-id; NULL if none. */
const struct pi_trace_module *pm_match_module(const struct pi_trace *t, const uint8_t *id,
                                              uint32_t len);
/* With --force, the module that stands for the program when no build-id
 * matches: same file name as prog, else the first that is not a shared
 * library, else the first. NULL if the trace has no modules. */
const struct pi_trace_module *pm_guess_module(const struct pi_trace *t, const char *prog);

/* Print what the reader said about a trace (truncation, trailing bytes,
 * unknown records, PERFINST_MODE=off, a fatal signal) as notes. */
void pm_trace_notes(const struct pi_trace *t);
/* fopen(path, "w") for an output not written through piout (exports,
 * HTML, SVG), after refusing one that is an input (pi_out_check); NULL
 * after a message */
FILE *pm_create(const char *path);
/* What a LOST record (a runtime table that could not hold everything)
 * means, in words; a static buffer. */
const char *pm_lost_text(const struct pi_rec_lost *l);
/* "finished", "partial" (PI_TF_PARTIAL: a snapshot of a process that went
 * on counting) or "truncated", for a trace's state line */
const char *pm_trace_state(int finished, uint32_t flags);

/* JSON and CSV strings. */
void pm_json_str(FILE *f, const char *s);
void pm_csv_str(FILE *f, const char *s);

uint64_t pm_sat_add(uint64_t a, uint64_t b);
/* "pmopt: out of memory"; returns -1. */
int rep_oom(void);
/* Text columns: the digits of v; a column's width, have widened to len,
 * at most cap. */
int rep_digits(uint64_t v);
int rep_widest(int have, int len, int cap);
/* "12.5%" of total into buf ("-" when total is 0). */
const char *rep_pct(char *buf, size_t n, uint64_t v, uint64_t total);

/* progress.c: "pmopt: WHAT DONE/TOTAL (P%)" on one line of stderr, only when
 * stderr is a terminal (TOTAL 0: "WHAT…"); pm_progress_clear erases it (the
 * end of the operation; pm_error and pm_note call it). */
void pm_progress(const char *what, size_t done, size_t total);
void pm_progress_clear(void);
/* dump-ri.c: an RI record's report groups, for `pmopt dump`; -1 if a
 * group's layout is wrong (said in the output) */
int pm_ri_dump(const struct pi_trace_rec *r);
/* "90", "99.5", "0.125" -> thousandths of a percent; -1 if not a
 * percentage in (0, 100] with at most three decimals. */
long pm_parse_pct(const char *s);

/* A symbol of an ELF file; the name points into the file's data. */
struct pm_sym {
    const char *name;
    uint64_t addr, size;
    int bind; /* STB_LOCAL, STB_GLOBAL, STB_WEAK */
};
/* Every symbol of type `type` (STT_FUNC, STT_OBJECT) with a non-zero value
 * in e's symbol tables, sorted by name (pm_sym_cmp) into *v (free it); -1
 * when memory ran out (*v NULL, *n 0). */
int pm_elf_symbols(struct Elf *e, int type, struct pm_sym **v, size_t *n);
int pm_sym_cmp(const void *a, const void *b);
/* An ELF file opened for reading: the descriptor in *fd (-1 when the file
 * cannot be opened), the handle returned (NULL when it cannot be opened or
 * read as ELF).  pm_elf_close(e, fd) closes what was opened. */
struct Elf *pm_elf_open(const char *path, int *fd);
void pm_elf_close(struct Elf *e, int fd);

#endif /* PERFINST_PMOPT_H */
