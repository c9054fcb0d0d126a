/* env.c — the parsers of the PERFINST_* values with a plain grammar (env.h).
 *
 * Read once at start-up by the file that owns each setting (core.c,
 * indicators.c, armed.c, sample.c, idle.c, sharing.c), which passes the
 * value here and keeps the result.  The structured values keep their
 * parsers beside their state — PERFINST_COMBINE (armed.c), PERFINST_RI and
 * PERFINST_TOPOLOGY (ri.c), PERFINST_PERF (perfev.c), PERFINST_OVERLAY's
 * file (overlay.c) — and report the same way.  All of them run under
 * libFuzzer in make check (tests/runtime/fuzz-env.c), which checks that a
 * refused value is said, naming the variable and the value, and that an
 * accepted one is in its documented range.
 *
 * Numbers were read with strtoul, which also takes leading blanks, a sign
 * and wraps a negative number round ("-1" was 2^64 - 1, " 8" was 8): the
 * grammar is decimal digits, and anything else is reported.
 */
#include "runtime.h"
#include "env.h"

#include <string.h>

/* "perfinst: NAME=VALUE: expected WHAT; FALLBACK" */
static int bad(const char *name, const char *v, const char *what)
{
    pi_say("perfinst: ", name, "=", v, ": expected ", what, "\n", NULL);
    return -1;
}

/* The first len bytes of v as a decimal number (leading zeros are fine,
 * however many: "0000000000000000000001" is 1). */
static int u64n(const char *v, size_t len, uint64_t *out)
{
    uint64_t n = 0;
    if (!len)
        return -1;
    for (size_t i = 0; i < len; i++) {
        if (v[i] < '0' || v[i] > '9')
            return -1;
        unsigned d = (unsigned)(v[i] - '0');
        if (n > (UINT64_MAX - d) / 10)
            return -1;
        n = n * 10 + d;
    }
    *out = n;
    return 0;
}

int pi_env_u64(const char *v, uint64_t *out)
{
    return u64n(v, strlen(v), out);
}

/* A number and a suffix from the table (the first that matches): ns. */
struct unit {
    const char *suffix;
    uint64_t ns;
};
static int period(const char *v, const struct unit *units, uint64_t lo, uint64_t hi, uint64_t *ns)
{
    size_t digits = strspn(v, "0123456789");
    uint64_t n;
    if (u64n(v, digits, &n))
        return -1;
    for (const struct unit *u = units; u->suffix; u++)
        if (!strcmp(v + digits, u->suffix)) {
            if (n > hi / u->ns || n * u->ns < lo || n * u->ns > hi)
                return -1;
            *ns = n * u->ns;
            return 0;
        }
    return -1;
}

int pi_env_mode(const char *v, int *off)
{
    if (!strcmp(v, "on") || !strcmp(v, "off")) {
        *off = v[1] == 'f';
        return 0;
    }
    return bad("PERFINST_MODE", v, "on or off; counting is on");
}

int pi_env_icall(const char *v, int *exact)
{
    if (!strcmp(v, "sampled") || !strcmp(v, "exact")) {
        *exact = v[0] == 'e';
        return 0;
    }
    return bad("PERFINST_ICALL", v, "sampled or exact; sampled");
}

int pi_env_line_size(const char *v, unsigned *bytes)
{
    uint64_t n;
    if (!pi_env_u64(v, &n) && n >= 16 && n <= 1024 && !(n & (n - 1))) {
        *bytes = (unsigned)n;
        return 0;
    }
    return bad("PERFINST_LINE_SIZE", v, "a power of two from 16 to 1024; ignored");
}

int pi_env_flush(const char *v, unsigned *seconds)
{
    uint64_t n;
    if (!pi_env_u64(v, &n) && n >= 1 && n <= 86400) {
        *seconds = (unsigned)n;
        return 0;
    }
    return bad("PERFINST_FLUSH", v, "a number of seconds from 1 to 86400; no periodic flush");
}

int pi_env_verbose(const char *v, int *on)
{
    if (!*v || !strcmp(v, "0") || !strcmp(v, "1")) {
        *on = *v == '1';
        return 0;
    }
    return bad("PERFINST_VERBOSE", v, "0 or 1; ignored");
}

int pi_env_dormant(const char *v, int *by_handler)
{
    if (!strcmp(v, "auto") || !strcmp(v, "handler")) {
        *by_handler = *v == 'h';
        return 0;
    }
    return bad("PERFINST_DORMANT", v, "auto or handler; using auto");
}

int pi_env_thresh_table(const char *v, uint64_t bits[3])
{
    uint64_t b[3];
    const char *p = v;
    for (int k = 0; k < 3; k++) {
        size_t len = k < 2 ? strcspn(p, ",") : strlen(p);
        if ((k < 2 && p[len] != ',') || u64n(p, len, &b[k]) || !b[k])
            goto no;
        p += len + 1;
    }
    memcpy(bits, b, sizeof b);
    return 0;
no:
    return bad("PERFINST_THRESH_TABLE", v, "three positive cycle counts a,b,c; using 10,50,100");
}

int pi_env_watch_gran(const char *v, unsigned *bytes)
{
    uint64_t g;
    if (!pi_env_u64(v, &g) && g >= 1 && g <= 4096 && !(g & (g - 1))) {
        *bytes = (unsigned)g;
        return 0;
    }
    return bad("PERFINST_WATCH_GRAN", v, "a power of two from 1 to 4096; using 8");
}

/* A table size: a power of two in [lo, hi] (0 also, with zero_ok). */
static int table_size(const char *v, uint64_t lo, uint64_t hi, int zero_ok, uint32_t *n)
{
    uint64_t x;
    if (pi_env_u64(v, &x) || x > hi || (x < lo && !(zero_ok && !x)) || (x & (x - 1)))
        return -1;
    *n = (uint32_t)x;
    return 0;
}

int pi_env_watch_words(const char *v, uint32_t *n)
{
    if (!table_size(v, 1024, 1u << 28, 0, n))
        return 0;
    return bad("PERFINST_WATCH_WORDS", v, "a power of two from 1024 to 268435456; using 65536");
}

int pi_env_sitestats(const char *v, uint32_t *n)
{
    if (!table_size(v, 256, 1u << 24, 0, n))
        return 0;
    return bad("PERFINST_SITESTATS", v, "a power of two from 256 to 16777216; using 4096");
}

int pi_env_events(const char *v, uint32_t *n)
{
    uint64_t x;
    if (!pi_env_u64(v, &x) && x <= (1u << 24)) {
        *n = (uint32_t)x;
        return 0;
    }
    return bad("PERFINST_EVENTS", v, "0 to 16777216 events; using 4096");
}

int pi_env_idle_period(const char *v, uint64_t *ns)
{
    static const struct unit u[] = {{"us", 1000}, {"ms", 1000000}, {NULL, 0}};
    if (!period(v, u, 100000, 1000000000, ns))
        return 0;
    return bad("PERFINST_IDLE_PERIOD", v, "100us to 1000ms (e.g. 1ms); using 1ms");
}

int pi_env_sample(const char *v, int *kind, uint64_t *ns)
{
    static const struct unit u[] = {
        {"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000}, {NULL, 0}};
    const char *colon = strchr(v, ':');
    size_t klen = colon ? (size_t)(colon - v) : strlen(v);
    int k = klen == 3 && !strncmp(v, "cpu", 3) ? PI_SK_CPU : klen == 4 && !strncmp(v, "wall", 4) ? PI_SK_WALL : 0;
    uint64_t n = 1000000;
    if (k && (!colon || !period(colon + 1, u, 10000, 4000000000u, &n))) {
        *kind = k;
        *ns = n;
        return 0;
    }
    return bad("PERFINST_SAMPLE", v,
               "cpu[:PERIOD] or wall[:PERIOD] with PERIOD from 10us to 4s (e.g. cpu:1ms); not sampling");
}

int pi_env_sample_max_mb(const char *v, uint64_t *bytes)
{
    uint64_t n;
    if (!pi_env_u64(v, &n) && n >= 1 && n <= (1ull << 20)) {
        *bytes = n << 20;
        return 0;
    }
    return bad("PERFINST_SAMPLE_MAX_MB", v, "a number of MiB from 1 to 1048576; using 512");
}

int pi_env_idle(const char *v, int *mode)
{
    static const char *const names[] = {"off", "to", "from", "both"};
    for (int m = 0; m < 4; m++)
        if (!strcmp(v, names[m])) {
            *mode = m;
            return 0;
        }
    return bad("PERFINST_IDLE", v, "off, to, from or both; off");
}

int pi_env_sharing_lines(const char *v, uint32_t *bits)
{
    uint64_t n;
    if (!pi_env_u64(v, &n) && n >= 1024 && n <= (1ul << 28) && !(n & (n - 1))) {
        *bits = (uint32_t)__builtin_ctzll(n);
        return 0;
    }
    return bad("PERFINST_SHARING_LINES", v, "a power of two from 1024 to 268435456; using 4194304");
}

int pi_env_sharing_period(const char *v, uint32_t *n)
{
    uint64_t x;
    if (!pi_env_u64(v, &x) && x >= 1 && x <= 1000000) {
        *n = (uint32_t)x;
        return 0;
    }
    return bad("PERFINST_SHARING_PERIOD", v, "1 to 1000000; using 1024");
}

int pi_env_sharing_stack(const char *v, uint32_t *n)
{
    uint64_t x;
    if (!pi_env_u64(v, &x) && x >= 1 && x <= 8) { /* sharing.c's SH_MAX_FRAMES */
        *n = (uint32_t)x;
        return 0;
    }
    return bad("PERFINST_SHARING_STACK", v, "1 to 8 frames; using 4");
}

int pi_env_sharing_sample(const char *v, uint64_t *n)
{
    if (!pi_env_u64(v, n))
        return 0;
    return bad("PERFINST_SHARING_SAMPLE", v, "a number of accesses; using 64");
}

int pi_env_sharing_sites(const char *v, uint32_t *n)
{
    uint64_t x;
    if (!pi_env_u64(v, &x) && x >= 1024 && x <= (1ul << 28)) {
        *n = (uint32_t)x;
        return 0;
    }
    return bad("PERFINST_SHARING_SITES", v, "1024 to 268435456; using 16777216");
}

int pi_env_sharing_allocs(const char *v, uint32_t *n)
{
    uint64_t x;
    if (!pi_env_u64(v, &x) && x >= 1024 && x <= (1ul << 26)) {
        *n = (uint32_t)x;
        return 0;
    }
    return bad("PERFINST_SHARING_ALLOCS", v, "1024 to 67108864; using 65536");
}

int pi_env_sharing_threads(const char *v, uint32_t *n)
{
    uint64_t x;
    if (!pi_env_u64(v, &x) && x >= 16 && x <= (1ul << 20)) {
        *n = (uint32_t)x;
        return 0;
    }
    return bad("PERFINST_SHARING_THREADS", v, "16 to 1048576; using 4096");
}

int pi_env_sharing_private(const char *v, uint64_t *n)
{
    if (!pi_env_u64(v, n))
        return 0;
    return bad("PERFINST_SHARING_PRIVATE", v, "a number of lines; using 65536");
}
