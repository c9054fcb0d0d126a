/* piutil.h — small helpers the readers in common/ share. */
#ifndef PERFINST_PIUTIL_H
#define PERFINST_PIUTIL_H

#include <stddef.h>
#include <stdint.h>

/* Fuzzing builds accept wrong CRCs, so that mutations reach the code
 * behind them.  (clang does not define the macro: each fuzz test's build
 * line does, as OSS-Fuzz does.) */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define PI_FUZZING 1
#else
#define PI_FUZZING 0
#endif

/* In a qsort/bsearch comparator: when keys a and b differ, return their
 * order (-1 or 1).  PI_CMP_RET(y->k, x->k) orders by k descending. */
#define PI_CMP_RET(a, b)                                                                          \
    do {                                                                                          \
        if ((a) != (b))                                                                           \
            return (a) < (b) ? -1 : 1;                                                            \
    } while (0)

/* x rounded up to a multiple of 8 (chunks and records are 8-aligned). */
#define ALIGN8(x) (((x) + 7u) & ~(uint64_t)7u)

#ifdef __cplusplus
extern "C" {
#endif

/* Make room in *arr (of *cap elements of size elem) for element n: the
 * capacity doubles (from 16) when n reaches it.  0, or -1 when out of memory
 * (the array and capacity are then unchanged). */
int pi_grow(void **arr, size_t *cap, size_t n, size_t elem);

/* What follows "PATH: not an ELF file" when PATH is libtool's wrapper
 * script of a program not installed: "; it is libtool's wrapper script,
 * the program is DIR/.libs/NAME" (the script's own words); else "".  A
 * static buffer, overwritten by the next call. */
const char *pi_not_elf_why(const char *path);

/* What a reader says when it refuses its input: a message that names the
 * file and the problem. */
struct pi_err {
    char msg[1024];
};

/* printf-style helper every reader uses to fill a struct pi_err; returns -1. */
int pi_err_set(struct pi_err *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A source path as one spelling: DIR (may be NULL or "") joined in front
 * of a relative PATH, then "//" and "/./" folded and "NAME/.." removed
 * (lexically: a symbolic link to a directory is not followed, as GCC and
 * gcov do not).  A relative result keeps its leading "..".  malloc'ed, or
 * NULL when out of memory.  "lib//compress/../common/mem.h" in /src:
 * "/src/lib/common/mem.h". */
char *pi_path_join_clean(const char *dir, const char *path);

#ifdef __cplusplus
}
#endif

#endif /* PERFINST_PIUTIL_H */
