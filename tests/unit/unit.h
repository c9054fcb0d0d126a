/* unit.h — the driver of the unit tests (tests/unit/): small, exact
 * checks of the pure algorithms, in C, beside the end-to-end scripts.
 *
 *     TEST(c3_joins_the_heaviest_caller)
 *     {
 *         ...
 *         EXPECT_EQ(3, n);
 *     }
 *
 * Each TEST registers itself (a constructor); unit.c's main runs them in
 * the order written and prints one line each, "ok NAME" or
 * "FAIL NAME: FILE:LINE: WHAT", then "N tests, M failed"; the exit status
 * is 1 when one failed.  A failed check ends its test.  tests/unit/t-unit.sh
 * builds and runs every C file of tests/unit/ but the driver.
 */
#ifndef PERFINST_UNIT_H
#define PERFINST_UNIT_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

void unit_add(const char *name, void (*fn)(void));
void unit_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), noreturn));

#define TEST(name)                                                                  \
    static void name(void);                                                         \
    __attribute__((constructor)) static void unit_register_##name(void)              \
    {                                                                               \
        unit_add(#name, name);                                                      \
    }                                                                               \
    static void name(void)

/* Integers (any width, compared as unsigned 64-bit and printed so). */
#define EXPECT_EQ(expected, actual)                                                 \
    do {                                                                            \
        unsigned long long e_ = (unsigned long long)(expected);                     \
        unsigned long long a_ = (unsigned long long)(actual);                       \
        if (e_ != a_)                                                               \
            unit_fail(__FILE__, __LINE__, "%s: expected %llu, got %llu", #actual, e_, a_); \
    } while (0)

/* Doubles within an absolute tolerance. */
#define EXPECT_NEAR(expected, actual, tol)                                          \
    do {                                                                            \
        double e_ = (expected), a_ = (actual);                                      \
        if (!(e_ - a_ <= (tol) && a_ - e_ <= (tol)))                                \
            unit_fail(__FILE__, __LINE__, "%s: expected %.9g, got %.9g", #actual, e_, a_); \
    } while (0)

/* Strings. */
#define EXPECT_STR(expected, actual)                                                \
    do {                                                                            \
        const char *e_ = (expected), *a_ = (actual);                                \
        if (strcmp(e_, a_) != 0)                                                    \
            unit_fail(__FILE__, __LINE__, "%s: expected \"%s\", got \"%s\"", #actual, e_, a_); \
    } while (0)

#define EXPECT_TRUE(cond)                                                           \
    do {                                                                            \
        if (!(cond))                                                                \
            unit_fail(__FILE__, __LINE__, "%s is false", #cond);                    \
    } while (0)

/* An array of n uint32_t against a list: EXPECT_ORDER(out, n, 0, 2, 1). */
#define EXPECT_ORDER(arr, n, ...)                                                   \
    do {                                                                            \
        const uint32_t w_[] = { __VA_ARGS__ };                                      \
        unit_expect_u32s(__FILE__, __LINE__, #arr, w_, sizeof w_ / sizeof w_[0], (arr), (n)); \
    } while (0)
void unit_expect_u32s(const char *file, int line, const char *what, const uint32_t *want,
                      size_t nwant, const uint32_t *got, size_t ngot);

#endif
