/* directives.h — the directive language of perfinst, parsed in one place.
 *
 * Both spellings reach this parser as text:
 *   #pragma perfinst threshold(count=13, handler=on_hot) count
 *   __attribute__((perfinst("threshold(count=13,handler=on_hot)", "count")))
 * The pragma handler turns its tokens back into text; the attribute's
 * arguments are strings already.  docs/directives.md is the reference.
 */
#ifndef PERFINST_DIRECTIVES_H
#define PERFINST_DIRECTIVES_H

#include <stdint.h>
#include "perfinst-format.h"

/* Where a directive sits. */
enum pi_context {
    PI_CTX_FUNCTION = 1 << 0,
    PI_CTX_STATEMENT = 1 << 1,
    PI_CTX_VARIABLE = 1 << 2,
    PI_CTX_FIELD = 1 << 3,
    PI_CTX_TYPE = 1 << 4,
};

struct pi_directive_spec {
    uint32_t kind;      /* one PI_D_* bit */
    uint64_t threshold; /* threshold(count=N), cycles(>N), sample(every=N) */
    uint32_t arg;       /* types mask (1 << PI_T_*), cycles code, sample: 1 = directed */
    char name[128];     /* handler=, region NAME, emit EXPR */
};

#define PI_MAX_DIRECTIVES 16

/* Parse one directive list ("count trap", "threshold(count=3)").  On
 * success returns the number of directives stored in out[]; on error
 * returns -1 with a message in err. */
int pi_parse_directives(const char *text, struct pi_directive_spec *out, int max,
                        char *err, size_t errlen);

/* 0 if kind may sit in ctx, else -1 with a message in err. */
int pi_check_context(const struct pi_directive_spec *d, enum pi_context ctx,
                     char *err, size_t errlen);

const char *pi_directive_name(uint32_t kind);
const char *pi_context_name(enum pi_context ctx);

/* Directives that bracket the next statement (the pass counts the blocks
 * between a begin and an end marker) versus those that mark a point. */
bool pi_directive_wraps_statement(uint32_t kind);

#endif
