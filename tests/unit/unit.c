/* unit.c — the unit tests' main (unit.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#define UNIT_MAX 256

static struct {
    const char *name;
    void (*fn)(void);
} tests[UNIT_MAX];
static int ntests;
static jmp_buf failed;
static char why[1024];

void unit_add(const char *name, void (*fn)(void))
{
    if (ntests == UNIT_MAX) {
        fprintf(stderr, "unit: more than %d tests\n", UNIT_MAX);
        exit(2);
    }
    tests[ntests].name = name;
    tests[ntests++].fn = fn;
}

void unit_fail(const char *file, int line, const char *fmt, ...)
{
    int n = snprintf(why, sizeof why, "%s:%d: ", file, line);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why + n, sizeof why - (size_t)n, fmt, ap);
    va_end(ap);
    longjmp(failed, 1);
}

void unit_expect_u32s(const char *file, int line, const char *what, const uint32_t *want,
                      size_t nwant, const uint32_t *got, size_t ngot)
{
    if (nwant == ngot && !memcmp(want, got, nwant * sizeof *want))
        return;
    char w[256] = "", g[256] = "";
    for (size_t i = 0, o = 0; i < nwant && o < sizeof w; i++)
        o += (size_t)snprintf(w + o, sizeof w - o, "%s%u", i ? " " : "", want[i]);
    for (size_t i = 0, o = 0; i < ngot && o < sizeof g; i++)
        o += (size_t)snprintf(g + o, sizeof g - o, "%s%u", i ? " " : "", got[i]);
    unit_fail(file, line, "%s: expected [%s], got [%s]", what, w, g);
}

int main(void)
{
    static int nfailed, i; /* static: kept across longjmp */
    for (i = 0; i < ntests; i++) {
        if (setjmp(failed)) {
            printf("FAIL %s: %s\n", tests[i].name, why);
            nfailed++;
            continue;
        }
        tests[i].fn();
        printf("ok %s\n", tests[i].name);
    }
    printf("%d tests, %d failed\n", ntests, nfailed);
    return nfailed != 0;
}
