/* fuzz-env.c — libFuzzer harness for the runtime's parsers of PERFINST_*
 * values (docs/runtime.md), with the oracle of issue 7: a malformed value
 * is reported, never ignored, and nothing crashes.
 *
 * The first byte picks the variable (modulo the table below), the rest is
 * the value (up to its first NUL, as the environment would give it).  The
 * parser is the runtime's own: env.c's (pi_env_*), and for the structured
 * values armed.c's pi_armed_init (PERFINST_COMBINE, PERFINST_DORMANT),
 * ri.c's parse_topology and parse_ri_env, perfev.c's pi_perf_init
 * (PERFINST_PERF), compiled in by the fuzz-env-*.c files, which read the
 * environment through fuzz_getenv below.  pi_say is caught: the harness
 * aborts when
 *   - a value is refused and no message names the variable and the value
 *     ("perfinst: NAME=VALUE: ...");
 *   - a value is taken with a message, or is not in its documented
 *     grammar and range (checked here independently: decimal digits,
 *     powers of two, the suffixes; the plain ones from one table), or is
 *     read as another value than it says;
 *   - a PERFINST_COMBINE segment (';'-separated) is neither installed nor
 *     reported.
 * PERFINST_OVERLAY's file is fuzzed by fuzz-runtime.c.  FUZZ_VERBOSE=1
 * prints the messages and the verdict.  Build and run: t-fuzz-env.sh.
 */
#include "runtime.h"
#include "env.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the rest of the runtime, stubbed -------------------------------------------- */

struct pi_state pi = {.lock = PTHREAD_MUTEX_INITIALIZER};
__thread struct pi_thread *pi_self __attribute__((tls_model("initial-exec")));
void pi_init(void) {}
uint64_t pi_now_ns(void) { return 0; }
uint64_t pi_tod_ns(void) { return 0; }
int pi_fnmeta_failed;
const struct pi_fnmeta *pi_fnmeta_of_locked(struct pi_module *m, const char *what) { (void)m; (void)what; pi_fnmeta_failed = 1; return NULL; }
uint64_t pi_indicators_probe_cost(void) { return 0; }
void pi_indicators_take_stack(struct perfinst_event *ev, uintptr_t pc) { (void)ev; (void)pc; }
void pi_indicators_keep_event(const struct perfinst_event *ev) { (void)ev; }
void pi_lost_write(struct pi_rec_writer *w, uint32_t table, uint64_t capacity, uint64_t lost,
                   uint64_t items, uint32_t flags) { (void)w, (void)table, (void)capacity, (void)lost, (void)items, (void)flags; }

/* the runtime's own number formatting (say.c); its pi_say is replaced below */
#define pi_say pi_say_unused
#include "../../runtime/say.c"
#undef pi_say

/* What the runtime said for this input, and how many times. */
static char said[1 << 20]; /* every message of one value: up to 256 tokens, each echoing the value (< 512 bytes) */
static size_t said_len;
static int nsaid;
void pi_say(const char *s, ...)
{
    va_list ap;
    va_start(ap, s);
    for (const char *p = s; p; p = va_arg(ap, const char *)) {
        size_t n = strlen(p);
        if (n > sizeof said - 1 - said_len)
            n = sizeof said - 1 - said_len;
        memcpy(said + said_len, p, n);
        said_len += n;
    }
    va_end(ap);
    said[said_len] = 0;
    nsaid++;
}

static const char *env_name, *env_value;
const char *fuzz_getenv(const char *name)
{
    return env_name && !strcmp(name, env_name) ? env_value : NULL;
}

int fuzz_armed_init(void);
int fuzz_ri_topology(const char *v);
int fuzz_ri_env(const char *v);
int fuzz_perf_init(void);
int fuzz_perf_known(const char *tok);

static int verbose = -1;

static void fail(const char *name, const char *v, const char *why)
{
    fprintf(stderr, "fuzz-env: %s=%s: %s (said: %s)\n", name, v, why, said);
    abort();
}

/* "perfinst: NAME=VALUE" in what was said. */
static int named(const char *name, const char *v)
{
    char head[64];
    snprintf(head, sizeof head, "perfinst: %s=", name);
    for (const char *p = strstr(said, head); p; p = strstr(p + 1, head))
        if (!strncmp(p + strlen(head), v, strlen(v)))
            return 1;
    return 0;
}

/* The oracle's own reading of a number: digits, no overflow. */
static int digits(const char *v, size_t n, uint64_t *out)
{
    uint64_t x = 0;
    if (!n)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i] < '0' || v[i] > '9' || x > (UINT64_MAX - (uint64_t)(v[i] - '0')) / 10)
            return 0;
        x = x * 10 + (uint64_t)(v[i] - '0');
    }
    *out = x;
    return 1;
}
static int pow2(uint64_t x) { return x && !(x & (x - 1)); }
static int num_in(const char *v, uint64_t lo, uint64_t hi, uint64_t *x)
{
    return digits(v, strlen(v), x) && *x >= lo && *x <= hi;
}
/* N followed by one of the suffixes (ns per unit), in [lo, hi] ns. */
static int period_in(const char *v, const char *const *suf, const uint64_t *mul, uint64_t lo, uint64_t hi,
                     uint64_t *ns)
{
    size_t n = strspn(v, "0123456789");
    uint64_t x;
    if (!digits(v, n, &x))
        return 0;
    for (int i = 0; suf[i]; i++)
        if (!strcmp(v + n, suf[i]))
            return x <= hi / mul[i] && (*ns = x * mul[i]) >= lo && *ns <= hi;
    return 0;
}

/* Check one verdict: rc 0 taken (then `valid` must hold and nothing said),
 * -1 refused (then said, naming the variable and the value). */
static void verdict(const char *name, const char *v, int rc, int valid)
{
    if (rc == 0 && nsaid)
        fail(name, v, "taken, yet a message");
    if (rc == 0 && !valid)
        fail(name, v, "taken, yet not in the documented grammar or range");
    if (rc != 0 && !named(name, v))
        fail(name, v, "refused without a message naming the variable and the value");
    if (rc != 0 && valid)
        fail(name, v, "refused, yet well-formed");
}

/* The values with a plain grammar (env.c): a word of a list, or a number
 * in [lo, hi] (a power of two with pow2).  get calls the parser and gives
 * what it read, in the grammar's terms: the word's index, or the number
 * (bytes, frames, ... as written).  "" is malformed, unless empty says it
 * is the first word (1) or the caller's, never parsed (2). */
struct plain {
    const char *name;
    int (*get)(const char *v, uint64_t *got);
    const char *words[5]; /* NULL-terminated; none: a number */
    uint64_t lo, hi;
    int pow2, empty;
};
/* get_X: pi_env_X into a T, *got = what it read (unit: r).  r starts all
 * ones, so that a parser that takes a value without writing it is caught. */
#define GET(fn, T, unit)                                                                       \
    static int get_##fn(const char *v, uint64_t *got)                                          \
    {                                                                                          \
        T r = (T)-1;                                                                           \
        int rc = pi_env_##fn(v, &r);                                                           \
        *got = (unit);                                                                         \
        return rc;                                                                             \
    }
GET(mode, int, (uint64_t)r) /* 1: off */
GET(icall, int, (uint64_t)r) /* 1: exact */
GET(line_size, unsigned, r)
GET(verbose, int, (uint64_t)r)
GET(flush, unsigned, r)
GET(watch_words, uint32_t, r)
GET(sitestats, uint32_t, r)
GET(events, uint32_t, r)
GET(dormant, int, (uint64_t)r) /* 1: handler */
GET(watch_gran, unsigned, r)
GET(sample_max_mb, uint64_t, r & 0xfffff ? UINT64_MAX : r >> 20) /* bytes */
GET(idle, int, (uint64_t)r)
GET(sharing_lines, uint32_t, r < 64 ? 1ull << r : 0) /* log2 */
GET(sharing_period, uint32_t, r)
GET(sharing_stack, uint32_t, r)
GET(sharing_sample, uint64_t, r)
GET(sharing_private, uint64_t, r)
#undef GET

/* Indexed by the selector (the first byte). */
static const struct plain plain[] = {
    [0] = {"PERFINST_MODE", get_mode, {"on", "off"}},
    [1] = {"PERFINST_LINE_SIZE", get_line_size, {NULL}, 16, 1024, 1},
    [2] = {"PERFINST_VERBOSE", get_verbose, {"0", "1"}, .empty = 1},
    [3] = {"PERFINST_DORMANT", get_dormant, {"auto", "handler"}},
    [5] = {"PERFINST_WATCH_GRAN", get_watch_gran, {NULL}, 1, 4096, 1},
    [8] = {"PERFINST_SAMPLE_MAX_MB", get_sample_max_mb, {NULL}, 1, 1u << 20},
    [9] = {"PERFINST_IDLE", get_idle, {"off", "to", "from", "both"}, .empty = 2},
    [10] = {"PERFINST_SHARING_LINES", get_sharing_lines, {NULL}, 1024, 1u << 28, 1},
    [11] = {"PERFINST_SHARING_PERIOD", get_sharing_period, {NULL}, 1, 1000000},
    [12] = {"PERFINST_SHARING_STACK", get_sharing_stack, {NULL}, 1, 8},
    [13] = {"PERFINST_SHARING_SAMPLE", get_sharing_sample, {NULL}, 0, UINT64_MAX},
    [14] = {"PERFINST_SHARING_PRIVATE", get_sharing_private, {NULL}, 0, UINT64_MAX},
    [19] = {"PERFINST_FLUSH", get_flush, {NULL}, 1, 86400},
    [20] = {"PERFINST_WATCH_WORDS", get_watch_words, {NULL}, 1024, 1u << 28, 1},
    [21] = {"PERFINST_SITESTATS", get_sitestats, {NULL}, 256, 1u << 24, 1},
    [22] = {"PERFINST_EVENTS", get_events, {NULL}, 0, 1u << 24},
    [23] = {"PERFINST_ICALL", get_icall, {"sampled", "exact"}},
};

/* One plain value: its verdict, and a taken one read as the grammar says. */
static int plain_one(const struct plain *t, const char *v)
{
    uint64_t want = 0, got = 0;
    int ok = 0;
    if (t->words[0]) {
        ok = !*v && t->empty == 1;
        for (int i = 0; t->words[i]; i++)
            if (!strcmp(v, t->words[i])) {
                ok = 1;
                want = (uint64_t)i;
            }
    } else {
        ok = num_in(v, t->lo, t->hi, &want) && (!t->pow2 || pow2(want));
    }
    int rc = t->get(v, &got);
    if (!rc && ok && got != want)
        fail(t->name, v, "taken, yet read as another value");
    verdict(t->name, v, rc, ok);
    return rc;
}

static void one(unsigned sel, const char *v)
{
    uint64_t x = 0, y = 0, z = 0;
    int rc = 0, ok = 0;
    const char *name = "";
    if (sel < sizeof plain / sizeof plain[0] && plain[sel].name) {
        if (!*v && plain[sel].empty == 2)
            return; /* the caller's: the default */
        name = plain[sel].name;
        rc = plain_one(&plain[sel], v);
        goto said;
    }
    switch (sel) {
    case 4: {
        name = "PERFINST_THRESH_TABLE";
        uint64_t b[3] = {0};
        rc = pi_env_thresh_table(v, b);
        const char *c1 = strchr(v, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
        ok = c1 && c2 && digits(v, (size_t)(c1 - v), &x) && digits(c1 + 1, (size_t)(c2 - c1 - 1), &y) &&
             digits(c2 + 1, strlen(c2 + 1), &z) && x && y && z;
        if (!rc && ok && (b[0] != x || b[1] != y || b[2] != z))
            fail(name, v, "the wrong table");
        break;
    }
    case 6: {
        name = "PERFINST_IDLE_PERIOD";
        static const char *const suf[] = {"us", "ms", NULL};
        static const uint64_t mul[] = {1000, 1000000};
        rc = pi_env_idle_period(v, &y);
        ok = period_in(v, suf, mul, 100000, 1000000000, &x);
        if (!rc && ok && x != y)
            fail(name, v, "the wrong period");
        break;
    }
    case 7: {
        name = "PERFINST_SAMPLE";
        static const char *const suf[] = {"ns", "us", "ms", "s", NULL};
        static const uint64_t mul[] = {1, 1000, 1000000, 1000000000};
        int kind = 0;
        if (!*v || !strcmp(v, "off"))
            return; /* the caller's: sampling stays off */
        rc = pi_env_sample(v, &kind, &y);
        const char *colon = strchr(v, ':');
        size_t k = colon ? (size_t)(colon - v) : strlen(v);
        ok = ((k == 3 && !strncmp(v, "cpu", 3)) || (k == 4 && !strncmp(v, "wall", 4))) &&
             (!colon || period_in(colon + 1, suf, mul, 10000, 4000000000u, &x));
        if (!rc && ok && (kind != (k == 3 ? PI_SK_CPU : PI_SK_WALL) || y != (colon ? x : 1000000)))
            fail(name, v, "the wrong kind or period");
        break;
    }
    case 15: {
        /* Every ';'-separated combination is installed or reported (one
         * message each, naming the whole value); a last empty one after ';'
         * is nothing. */
        name = env_name = "PERFINST_COMBINE";
        env_value = v;
        int installed = fuzz_armed_init();
        int segs = 1;
        for (const char *p = v; *p; p++)
            segs += *p == ';' && p[1];
        if (installed + nsaid != segs)
            fail(name, v, "a combination neither installed nor reported");
        if (nsaid && !named(name, v))
            fail(name, v, "a message that does not name the variable and the value");
        if (verbose)
            fprintf(stderr, "fuzz-env: %s=%s: %d installed, %d reported\n", name, v, installed, nsaid);
        return;
    }
    case 16:
        name = "PERFINST_TOPOLOGY";
        rc = fuzz_ri_topology(v);
        if (rc == 0 && nsaid)
            fail(name, v, "taken, yet a message");
        if (rc != 0 && !named(name, v))
            fail(name, v, "refused without a message naming the variable and the value");
        goto said;
    case 17:
        name = "PERFINST_RI";
        if (!*v || !strcmp(v, "off"))
            return; /* ri_setup's: defaults, or off */
        rc = fuzz_ri_env(v);
        if (rc == 0 && nsaid)
            fail(name, v, "taken, yet a message");
        if (rc != 0 && !named(name, v))
            fail(name, v, "refused without a message naming the variable and the value");
        goto said;
    default: {
        /* PERFINST_PERF: events the machine has are taken (perf_event_open
         * may refuse them: said); every other name is said as unknown; a
         * value of 512 bytes or more is said too long. */
        name = env_name = "PERFINST_PERF";
        env_value = v;
        int n = fuzz_perf_init();
        if (n < 0 || n > PI_PERF_MAX_EVENTS)
            fail(name, v, "an impossible number of events");
        if (nsaid && !strstr(said, "perfinst: PERFINST_PERF"))
            fail(name, v, "a message that does not name the variable");
        if (strlen(v) >= 512) {
            if (!strstr(said, "PERFINST_PERF: too long"))
                fail(name, v, "too long, not said");
        } else if (*v) {
            char *copy = strdup(v), *save = NULL;
            for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
                char want[600];
                snprintf(want, sizeof want, "unknown event '%s'", tok);
                if (!fuzz_perf_known(tok) && !strstr(said, want))
                    fail(name, v, "an unknown event not said");
            }
            free(copy);
        }
        goto said;
    }
    }
    verdict(name, v, rc, ok);
said:
    if (verbose)
        fprintf(stderr, "fuzz-env: %s=%s: %s%s", name, v, rc ? "refused: " : "taken\n", rc ? said : "");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (verbose < 0)
        verbose = getenv("FUZZ_VERBOSE") != NULL;
    if (size < 1)
        return 0;
    char *v = malloc(size);
    if (!v)
        return 0;
    memcpy(v, data + 1, size - 1);
    v[size - 1] = 0;
    said_len = 0;
    said[0] = 0;
    nsaid = 0;
    env_name = env_value = NULL;
    one(data[0] % 24u, v);
    free(v);
    return 0;
}
