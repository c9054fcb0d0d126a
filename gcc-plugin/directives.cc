/* directives.cc — parser and placement rules for perfinst directives.
 *
 *   directive := NAME [ "(" args ")" ]  |  "region" ("begin"|"end") "(" IDENT ")"
 *
 *   count | trap | callret | trace_start | trace_stop | watch | sharing | blocking
 *   count(width=8|16|32|64)   (a narrow counter that spills into 64 bits)
 *   types(branch,call,ret,load,store,string,fp)
 *   threshold(count=N[,handler=IDENT])
 *   cycles(>N) | cycles(code=0bXYZ)
 *   sample(every=N) | sample(directed)
 *   emit(EXPR)
 *   dormant(types=T1|T2...[, threshold=N])   (the same type names as types();
 *                             N: the secondary count that turns on level 3)
 *
 * Placement (MISSION.md's table): which declaration or statement each
 * directive may sit on is the table `rules` below.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "directives.h"

struct rule {
    const char *name;
    uint32_t kind;
    unsigned contexts;
};

static const struct rule rules[] = {
    {"count", PI_D_COUNT, PI_CTX_FUNCTION | PI_CTX_STATEMENT},
    {"types", PI_D_TYPES, PI_CTX_FUNCTION},
    {"trap", PI_D_TRAP, PI_CTX_FUNCTION | PI_CTX_STATEMENT},
    {"threshold", PI_D_THRESHOLD, PI_CTX_FUNCTION | PI_CTX_STATEMENT},
    {"cycles", PI_D_CYCLES, PI_CTX_FUNCTION | PI_CTX_STATEMENT},
    {"trace_start", PI_D_TRACE_START, PI_CTX_STATEMENT},
    {"trace_stop", PI_D_TRACE_STOP, PI_CTX_STATEMENT},
    {"region", PI_D_REGION_BEGIN, PI_CTX_STATEMENT}, /* begin or end, see below */
    {"callret", PI_D_CALLRET, PI_CTX_FUNCTION},
    {"watch", PI_D_WATCH, PI_CTX_VARIABLE | PI_CTX_FIELD | PI_CTX_TYPE},
    {"sharing", PI_D_SHARING, PI_CTX_VARIABLE | PI_CTX_FIELD | PI_CTX_TYPE | PI_CTX_FUNCTION},
    {"sample", PI_D_SAMPLE, PI_CTX_FUNCTION | PI_CTX_STATEMENT},
    {"emit", PI_D_EMIT, PI_CTX_STATEMENT},
    {"dormant", PI_D_DORMANT, PI_CTX_FUNCTION},
    {"blocking", PI_D_BLOCKING, PI_CTX_FUNCTION},
};

static const char *const type_names[PI_NTYPES] = {
    "branch", "call", "ret", "load", "store", "string", "fp",
};

const char *pi_directive_name(uint32_t kind)
{
    if (kind == PI_D_REGION_END)
        return "region end";
    if (kind == PI_D_REGION_BEGIN)
        return "region begin";
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (rules[i].kind == kind)
            return rules[i].name;
    return "?";
}

const char *pi_context_name(enum pi_context ctx)
{
    switch (ctx) {
    case PI_CTX_FUNCTION: return "a function";
    case PI_CTX_STATEMENT: return "a statement";
    case PI_CTX_VARIABLE: return "a variable";
    case PI_CTX_FIELD: return "a struct field";
    case PI_CTX_TYPE: return "a type";
    }
    return "?";
}

bool pi_directive_wraps_statement(uint32_t kind)
{
    return (kind & (PI_D_COUNT | PI_D_TRAP | PI_D_THRESHOLD | PI_D_CYCLES | PI_D_SAMPLE)) != 0;
}

/* ---- a small scanner over the directive text ---- */

struct scan {
    const char *p;
    char *err;
    size_t errlen;
    bool failed;
};

static void fail(struct scan *s, const char *fmt, ...)
{
    if (s->failed)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->err, s->errlen, fmt, ap);
    va_end(ap);
    s->failed = true;
}

static void skip_ws(struct scan *s)
{
    while (isspace((unsigned char)*s->p))
        s->p++;
}

static bool peek(struct scan *s, char c)
{
    skip_ws(s);
    return *s->p == c;
}

static bool accept(struct scan *s, char c)
{
    if (!peek(s, c))
        return false;
    s->p++;
    return true;
}

static void expect(struct scan *s, char c, const char *what)
{
    if (!accept(s, c))
        fail(s, "expected '%c' %s", c, what);
}

/* An identifier into buf; false (and an error) if there is none. */
static bool ident(struct scan *s, char *buf, size_t len, const char *what)
{
    skip_ws(s);
    size_t n = 0;
    if (!(isalpha((unsigned char)*s->p) || *s->p == '_')) {
        fail(s, "expected %s", what);
        return false;
    }
    while (isalnum((unsigned char)*s->p) || *s->p == '_') {
        if (n + 1 < len)
            buf[n++] = *s->p;
        s->p++;
    }
    buf[n] = 0;
    return true;
}

/* A positive integer: decimal, 0x hex or 0b binary. */
static bool number(struct scan *s, uint64_t *out, const char *what)
{
    skip_ws(s);
    const char *start = s->p;
    int base = 10;
    if (s->p[0] == '0' && (s->p[1] == 'b' || s->p[1] == 'B')) {
        base = 2;
        s->p += 2;
    } else if (s->p[0] == '0' && (s->p[1] == 'x' || s->p[1] == 'X')) {
        base = 16;
        s->p += 2;
    }
    if (!isxdigit((unsigned char)*s->p)) {
        s->p = start;
        fail(s, "expected a number for %s", what);
        return false;
    }
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s->p, &end, base);
    if (errno == ERANGE) {
        fail(s, "%s: %.*s is out of range (at most 18446744073709551615)", what,
             (int)strspn(start, "0123456789abcdefABCDEFxXbB"), start);
        return false;
    }
    /* accept the GNU/C2x integer suffixes a pragma token may carry */
    while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
        end++;
    if (errno || end == s->p || isalnum((unsigned char)*end)) {
        fail(s, "bad number for %s", what);
        return false;
    }
    s->p = end;
    *out = v;
    return true;
}

/* type list: NAME { (','|'|') NAME } → mask of 1 << PI_T_* */
static uint32_t type_list(struct scan *s, const char *dname)
{
    uint32_t mask = 0;
    do {
        char t[32];
        if (!ident(s, t, sizeof t, "an instruction type"))
            return 0;
        int k;
        for (k = 0; k < PI_NTYPES; k++)
            if (strcmp(t, type_names[k]) == 0)
                break;
        if (k == PI_NTYPES) {
            fail(s, "unknown instruction type '%s' in '%s' (known: branch, call, ret, load, "
                    "store, string, fp)", t, dname);
            return 0;
        }
        mask |= 1u << k;
    } while (accept(s, ',') || accept(s, '|'));
    return mask;
}

static void no_args(struct scan *s, const char *name)
{
    if (peek(s, '('))
        fail(s, "directive '%s' takes no arguments", name);
}

static void parse_one(struct scan *s, struct pi_directive_spec *d)
{
    char name[64];
    memset(d, 0, sizeof *d);
    if (!ident(s, name, sizeof name, "a directive name"))
        return;
    const struct rule *r = NULL;
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (strcmp(rules[i].name, name) == 0)
            r = &rules[i];
    if (!r) {
        fail(s, "unknown directive '%s'", name);
        return;
    }
    d->kind = r->kind;
    switch (r->kind) {
    case PI_D_COUNT:
        /* count | count(width=8|16|32|64): narrow counters spill into 64 bits */
        if (accept(s, '(')) {
            char key[32];
            uint64_t w = 0;
            skip_ws(s);
            if (!isalpha((unsigned char)*s->p)) {
                fail(s, "directive 'count' takes no arguments other than width=8|16|32|64");
                return;
            }
            if (ident(s, key, sizeof key, "'width='") && strcmp(key, "width") != 0)
                fail(s, "'count' takes width=8|16|32|64, not '%s'", key);
            expect(s, '=', "after 'width'");
            if (number(s, &w, "width") && w != 8 && w != 16 && w != 32 && w != 64)
                fail(s, "counter width must be 8, 16, 32 or 64, not %llu", (unsigned long long)w);
            d->arg = (uint32_t)w;
            expect(s, ')', "to close 'count('");
        }
        return;
    case PI_D_TRAP: case PI_D_CALLRET: case PI_D_TRACE_START:
    case PI_D_TRACE_STOP: case PI_D_WATCH: case PI_D_SHARING: case PI_D_BLOCKING:
        no_args(s, name);
        return;
    case PI_D_TYPES:
        expect(s, '(', "after 'types'");
        d->arg = type_list(s, "types");
        expect(s, ')', "to close 'types('");
        return;
    case PI_D_DORMANT: {
        /* dormant(types=T1|T2...[, threshold=N]): a ',' before "threshold"
           ends the type list (types may also be separated by ',') */
        char key[32];
        expect(s, '(', "after 'dormant'");
        if (ident(s, key, sizeof key, "'types='") && strcmp(key, "types") != 0)
            fail(s, "'dormant' takes types=..., not '%s'", key);
        expect(s, '=', "after 'types'");
        if (s->failed)
            return;
        const char *save = s->p;
        const char *thr = strstr(s->p, "threshold"), *close = strchr(s->p, ')');
        if (thr && (!close || thr > close))
            thr = NULL; /* (a threshold directive after this one) */
        char list[128];
        size_t n = thr ? (size_t)(thr - s->p) : 0;
        if (thr && n < sizeof list) {
            /* parse the types before ", threshold" on their own */
            memcpy(list, s->p, n);
            list[n] = 0;
            char *end = list + n;
            while (end > list && isspace((unsigned char)end[-1]))
                end--;
            if (end > list && end[-1] == ',')
                *--end = 0;
            struct scan sub = {list, s->err, s->errlen, false};
            d->arg = type_list(&sub, "dormant");
            skip_ws(&sub);
            if (sub.failed || *sub.p) {
                if (!sub.failed)
                    fail(s, "unexpected '%s' in 'dormant'", sub.p);
                s->failed = true;
                return;
            }
            s->p = thr + strlen("threshold");
            expect(s, '=', "after 'threshold'");
            if (number(s, &d->threshold, "threshold") && d->threshold == 0)
                fail(s, "dormant threshold must be at least 1");
        } else {
            s->p = save;
            d->arg = type_list(s, "dormant");
        }
        expect(s, ')', "to close 'dormant('");
        return;
    }
    case PI_D_THRESHOLD: {
        expect(s, '(', "after 'threshold'");
        bool have_count = false;
        do {
            char key[32];
            if (!ident(s, key, sizeof key, "'count=' or 'handler='"))
                return;
            expect(s, '=', "after the key");
            if (strcmp(key, "count") == 0) {
                if (number(s, &d->threshold, "count") && d->threshold == 0)
                    fail(s, "threshold count must be at least 1");
                have_count = true;
            } else if (strcmp(key, "handler") == 0) {
                ident(s, d->name, sizeof d->name, "a handler function name");
            } else {
                fail(s, "unknown key '%s' in 'threshold' (known: count, handler)", key);
            }
        } while (!s->failed && accept(s, ','));
        if (!s->failed && !have_count)
            fail(s, "'threshold' needs count=N");
        expect(s, ')', "to close 'threshold('");
        return;
    }
    case PI_D_CYCLES:
        expect(s, '(', "after 'cycles'");
        if (accept(s, '>')) {
            if (number(s, &d->threshold, "cycles") && d->threshold == 0)
                fail(s, "cycles threshold must be at least 1");
        } else {
            char key[32];
            uint64_t code = 0;
            if (ident(s, key, sizeof key, "'>N' or 'code=0bXYZ'") && strcmp(key, "code") != 0)
                fail(s, "'cycles' takes >N or code=0bXYZ, not '%s'", key);
            expect(s, '=', "after 'code'");
            if (number(s, &code, "code") && (code == 0 || code > 7))
                fail(s, "cycles code must be a 3-bit value from 0b001 to 0b111");
            d->arg = (uint32_t)code;
        }
        expect(s, ')', "to close 'cycles('");
        return;
    case PI_D_SAMPLE: {
        char key[32];
        expect(s, '(', "after 'sample'");
        if (!ident(s, key, sizeof key, "'every=N' or 'directed'"))
            return;
        if (strcmp(key, "directed") == 0) {
            d->arg = 1;
        } else if (strcmp(key, "every") == 0) {
            expect(s, '=', "after 'every'");
            if (number(s, &d->threshold, "every") && d->threshold == 0)
                fail(s, "sample every=N needs N of at least 1");
        } else {
            fail(s, "'sample' takes every=N or directed, not '%s'", key);
        }
        expect(s, ')', "to close 'sample('");
        return;
    }
    case PI_D_EMIT: {
        /* EXPR: kept as text, parentheses balanced; checked where it is used */
        expect(s, '(', "after 'emit'");
        if (s->failed)
            return;
        skip_ws(s);
        int depth = 0;
        size_t n = 0;
        while (*s->p && !(depth == 0 && *s->p == ')')) {
            if (*s->p == '(')
                depth++;
            if (*s->p == ')')
                depth--;
            if (n + 1 < sizeof d->name)
                d->name[n++] = *s->p;
            s->p++;
        }
        while (n > 0 && isspace((unsigned char)d->name[n - 1]))
            n--;
        d->name[n] = 0;
        if (n == 0)
            fail(s, "'emit' needs an expression");
        expect(s, ')', "to close 'emit('");
        return;
    }
    case PI_D_REGION_BEGIN: {
        char which[16];
        if (!ident(s, which, sizeof which, "'begin' or 'end' after 'region'"))
            return;
        if (strcmp(which, "end") == 0)
            d->kind = PI_D_REGION_END;
        else if (strcmp(which, "begin") != 0) {
            fail(s, "expected 'begin' or 'end' after 'region', not '%s'", which);
            return;
        }
        expect(s, '(', "after 'region begin/end'");
        ident(s, d->name, sizeof d->name, "a region name");
        expect(s, ')', "to close the region name");
        return;
    }
    }
}

int pi_parse_directives(const char *text, struct pi_directive_spec *out, int max,
                        char *err, size_t errlen)
{
    struct scan s = {text, err, errlen, false};
    int n = 0;
    skip_ws(&s);
    if (!*s.p) {
        snprintf(err, errlen, "no directive given");
        return -1;
    }
    while (!s.failed) {
        skip_ws(&s);
        if (!*s.p)
            break;
        if (n == max) {
            fail(&s, "too many directives (at most %d)", max);
            break;
        }
        parse_one(&s, &out[n++]);
        accept(&s, ','); /* "count, trap" reads like "count trap" */
    }
    return s.failed ? -1 : n;
}

int pi_check_context(const struct pi_directive_spec *d, enum pi_context ctx, char *err,
                     size_t errlen)
{
    uint32_t kind = d->kind == PI_D_REGION_END ? PI_D_REGION_BEGIN : d->kind;
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        if (rules[i].kind != kind)
            continue;
        if (rules[i].contexts & ctx)
            return 0;
        char where[160] = "";
        for (unsigned c = 1; c <= PI_CTX_TYPE; c <<= 1)
            if (rules[i].contexts & c) {
                if (where[0])
                    strncat(where, " or ", sizeof where - strlen(where) - 1);
                strncat(where, pi_context_name((enum pi_context)c), sizeof where - strlen(where) - 1);
            }
        snprintf(err, errlen, "directive '%s' cannot apply to %s (it applies to %s)",
                 pi_directive_name(d->kind), pi_context_name(ctx), where);
        return -1;
    }
    snprintf(err, errlen, "unknown directive");
    return -1;
}
