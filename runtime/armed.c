/* armed.c — counter combinations (seed 004 M24) and dormant classes with
 * secondary metrics (seed 004 M25), behind the function probes that
 * gcc-plugin/pass-fnprobe.cc puts into functions built with
 * combine=marked|all or marked dormant(...):
 *
 *   t0 = __perfinst_fn_enter(U, S, TYPES, N)   before the entry block's counter update
 *   __perfinst_fn_exit(U, S, t0)               before every return
 *
 * (U, S) — the unit and the function's entry site — name the function.  On
 * its first entry the runtime looks the function up in its module's
 * metadata (fnmeta.c: name, sites, counters, static instruction counts) and
 * keeps it in a fixed table; after that a probe of a function no
 * combination names and whose dormant class is off returns after one hash
 * lookup.
 *
 * Per thread and per function the probes keep cumulative metrics:
 *   count   entries
 *   cycles  rdtsc from entry to exit, less the probe pair's cost, callees
 *           included, but not more than the thread's CPU time in TSC ticks
 *           (outermost invocation only, under recursion)
 *   insns   Σ over the function's sites of (static instructions per
 *           execution) × (executions of the site in the invocation): the
 *           function's counters are copied at entry and compared at exit
 *   branch … fp  the same per instruction type
 * A combination Σ K·metric(F) > N is evaluated, in the thread, whenever
 * one of its metrics changes (count at entry, the others at exit); when it
 * fires, the handler runs with the stack, the event is kept for the trace
 * and the combination restarts from zero in that thread (like threshold's
 * reset), and the function it fired in is flagged hot.
 *
 * Dormant classes: level 1 counts nothing; a primary threshold in the
 * function (__perfinst_threshold at its entry site, or a combination)
 * flags it hot and turns on level 2, effective from its next entry: the
 * instructions of the class (types × block executions) are counted,
 * globally and per type.  When they reach the directive's threshold the
 * function goes to level 3 (its cycles are measured per invocation) and
 * the SECONDARY vector runs.
 *
 * The trace gets SITESTAT records at the function's entry site: COMBINE,
 * HOT, SECONDARY, TERTIARY (perfinst-format.h), and an EVENT per firing.
 */
#include "runtime.h"
#include "env.h"
#include "piformat.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#define PI_MAX_FNS 256       /* functions the probes know */
#define PI_FN_HASH 1024      /* 2^10 (fn_slot), > 2 * PI_MAX_FNS */
#define PI_MAX_COMBOS 32
#define PI_MAX_TERMS 8
#define PI_NMETRICS (3 + PI_NTYPES)
enum { M_COUNT = 0, M_CYCLES = 1, M_INSNS = 2, M_TYPE0 = 3 };
static const char *const metric_names[PI_NMETRICS] = {
    "count", "cycles", "insns", "branch", "call", "ret", "load", "store", "string", "fp",
};

struct term {
    int64_t mult;
    int metric;
    int fn;                  /* index in fns[], or -1 until the function is met */
    char func[128];
};

struct combo {
    char name[64];
    char text[256];
    int nterms, ge;
    struct term terms[PI_MAX_TERMS];
    int64_t threshold;
    perfinst_handler h;
    uint64_t hits, evals;
    int said;                /* an unresolved function was reported */
};
static struct combo combos[PI_MAX_COMBOS];
static int ncombos;

struct fn {
    uint64_t unit_id;
    uint32_t site;           /* entry site */
    int ready;               /* filled in (release) */
    char name[128];
    struct pi_unit_rt *u;    /* NULL: unknown unit (nothing measured) */
    uint32_t nsites;
    uint32_t *counter;       /* per site: its counter index */
    uint32_t *insns;         /* per site: static instructions per execution */
    uint32_t (*ntype)[PI_NTYPES];
    uint64_t *mask;          /* per site: a narrow counter's bits (the difference wraps) */
    int has_meta;
    uint32_t combos_enter, combos_exit; /* combinations to evaluate (bit i: combos[i]) */
    int need_snap, need_cycles;         /* some combination needs them */
    int need_types;                     /* some combination has a per-type term */
    uint32_t dormant_types;
    uint64_t dormant_threshold;
    int level;               /* 0: not dormant; 1, 2, 3 */
    int armed;               /* a combination names it, or level >= 2: the enter probe's fast test */
    int armed_exit;          /* the exit has work: a combination on cycles/insns/types, or level >= 2 */
    uint64_t hot, invocations, secondary, types_count[PI_NTYPES];
    uint64_t tinv, tcyc, tmin, tmax;
    uint64_t fired, evals;
    int64_t fired_sum;
};
static struct fn fns[PI_MAX_FNS];
static uint32_t nfns;
static uint16_t fn_hash[PI_FN_HASH]; /* 1 + index, 0 free */
static pthread_mutex_t armed_lock = PTHREAD_MUTEX_INITIALIZER;
static perfinst_handler vec_combine, vec_secondary;
static int dormant_by_handler; /* PERFINST_DORMANT=handler: the runtime does not arm level 2 */
static int table_full_said;
static uint64_t fns_lost; /* entries into functions the full table could not take (LOST) */

/* ---- per thread ------------------------------------------------------------ */

struct thr_fn {
    uint32_t depth;
    int measuring;           /* what the outermost entry started: 1 snapshot, 2 cycles, 4 level 2, 8 level 3 */
    uint64_t *snap;          /* nsites */
    uint64_t cpu0;           /* thread CPU time at entry, ns (when timing) */
    int64_t cum[PI_NMETRICS];
};
struct thr_state {
    struct thr_fn fn[PI_MAX_FNS];
    int64_t base[PI_MAX_COMBOS][PI_MAX_TERMS];
};
/* initial-exec: no __tls_get_addr on the probes' path (a pointer: it fits
 * glibc's static TLS reserve when libperfinst is dlopen'ed, as pi_self does) */
static __thread struct thr_state *ts __attribute__((tls_model("initial-exec")));

static struct thr_state *thread_state(void)
{
    if (!ts)
        ts = calloc(1, sizeof *ts);
    return ts;
}

/* ---- combinations: the text ------------------------------------------------ */

struct cscan {
    const char *p, *start;
    char *err;
    size_t errlen;
};

static int cfail(struct cscan *s, const char *what)
{
    if (s->err && s->errlen)
        snprintf(s->err, s->errlen, "at column %d: %s", (int)(s->p - s->start) + 1, what);
    return -1;
}

static void cws(struct cscan *s)
{
    while (*s->p == ' ' || *s->p == '\t')
        s->p++;
}

static int cint(struct cscan *s, int64_t *out)
{
    cws(s);
    if (!isdigit((unsigned char)*s->p))
        return cfail(s, "expected a number");
    errno = 0;
    char *end;
    long long v = strtoll(s->p, &end, 10);
    if (errno)
        return cfail(s, "number out of range");
    s->p = end;
    *out = v;
    return 0;
}

static int cident(struct cscan *s, char *buf, size_t n)
{
    cws(s);
    size_t k = 0;
    if (!(isalpha((unsigned char)*s->p) || *s->p == '_'))
        return -1;
    while (isalnum((unsigned char)*s->p) || *s->p == '_' || *s->p == '.' || *s->p == '$') {
        if (k + 1 >= n)
            return cfail(s, "name too long");
        buf[k++] = *s->p++;
    }
    buf[k] = 0;
    return 0;
}

/* One combination from s->p up to ';' or the end. */
static int parse_combo(struct cscan *s, struct combo *c)
{
    memset(c, 0, sizeof *c);
    const char *begin = s->p;
    cws(s);
    /* NAME: (optional) */
    const char *colon = strchr(s->p, ':'), *semi = strchr(s->p, ';');
    if (colon && (!semi || colon < semi)) {
        if (cident(s, c->name, sizeof c->name) < 0)
            return cfail(s, "expected a name before ':'");
        cws(s);
        if (*s->p != ':')
            return cfail(s, "expected ':' after the name");
        s->p++;
    }
    int sign = 1;
    cws(s);
    if (*s->p == '-' || *s->p == '+')
        sign = *s->p++ == '-' ? -1 : 1;
    for (;;) {
        if (c->nterms == PI_MAX_TERMS)
            return cfail(s, "too many terms (at most 8)");
        struct term *t = &c->terms[c->nterms];
        t->fn = -1;
        int64_t k = 1;
        cws(s);
        if (isdigit((unsigned char)*s->p)) {
            if (cint(s, &k))
                return -1;
            cws(s);
            if (*s->p != '*')
                return cfail(s, "expected '*' after a multiplier");
            s->p++;
        }
        char m[32];
        cws(s);
        const char *mstart = s->p;
        if (cident(s, m, sizeof m) < 0)
            return cfail(s, "expected a metric (count, cycles, insns, branch, call, ret, load, "
                            "store, string, fp)");
        if (!strcmp(m, "instructions"))
            strcpy(m, "insns");
        t->metric = -1;
        for (int i = 0; i < PI_NMETRICS; i++)
            if (!strcmp(m, metric_names[i]))
                t->metric = i;
        if (t->metric < 0 && (s->p = mstart))
            return cfail(s, "unknown metric (known: count, cycles, insns, branch, call, ret, "
                            "load, store, string, fp)");
        cws(s);
        if (*s->p != '(')
            return cfail(s, "expected '(' and a function name after the metric");
        s->p++;
        if (cident(s, t->func, sizeof t->func) < 0)
            return cfail(s, "expected a function name");
        cws(s);
        if (*s->p != ')')
            return cfail(s, "expected ')' after the function name");
        s->p++;
        t->mult = sign * k;
        c->nterms++;
        cws(s);
        if (*s->p == '+' || *s->p == '-') {
            sign = *s->p++ == '-' ? -1 : 1;
            continue;
        }
        break;
    }
    if (*s->p != '>')
        return cfail(s, "expected '+', '-', '>' or '>='");
    s->p++;
    if (*s->p == '=') {
        c->ge = 1;
        s->p++;
    }
    cws(s);
    int neg = 0;
    if (*s->p == '-') {
        neg = 1;
        s->p++;
    }
    if (cint(s, &c->threshold))
        return -1;
    if (neg)
        c->threshold = -c->threshold;
    cws(s);
    if (*s->p && *s->p != ';')
        return cfail(s, "unexpected text after the threshold");
    size_t n = (size_t)(s->p - begin);
    if (n >= sizeof c->text)
        n = sizeof c->text - 1;
    memcpy(c->text, begin, n);
    while (n && (c->text[n - 1] == ' ' || c->text[n - 1] == '\t'))
        n--;
    c->text[n] = 0;
    return 0;
}

/* Bind combination ci's terms to the function fi if they name it (lock held). */
static void bind_locked(int ci, uint32_t fi)
{
    struct combo *c = &combos[ci];
    struct fn *f = &fns[fi];
    for (int k = 0; k < c->nterms; k++) {
        struct term *t = &c->terms[k];
        if (t->fn >= 0 || strcmp(t->func, f->name))
            continue;
        if (t->metric != M_COUNT && (!f->has_meta || !f->u) && t->metric != M_CYCLES) {
            char why[256];
            snprintf(why, sizeof why, "perfinst: combination %s: %s(%s): the function's "
                     "metadata could not be read; its instruction counts are 0\n", c->name,
                     metric_names[t->metric], f->name);
            pi_say(why, NULL);
        }
        PI_STORE(&t->fn, (int)fi);
        if (t->metric == M_COUNT)
            __atomic_or_fetch(&f->combos_enter, 1u << ci, __ATOMIC_RELEASE);
        else
            __atomic_or_fetch(&f->combos_exit, 1u << ci, __ATOMIC_RELEASE);
        if (t->metric == M_CYCLES)
            PI_STORE(&f->need_cycles, 1);
        if (t->metric >= M_INSNS)
            PI_STORE(&f->need_snap, 1);
        if (t->metric >= M_TYPE0)
            PI_STORE(&f->need_types, 1);
        if (t->metric != M_COUNT)
            PI_STORE(&f->armed_exit, 1);
        PI_STORE(&f->armed, 1);
    }
}

/* The combination at text (columns in messages count from base). */
static int add_combo_locked(const char *text, const char *base, perfinst_handler h, char *err,
                            size_t errlen, const char **rest)
{
    struct cscan s = {text, base, err, errlen};
    struct combo c;
    if (parse_combo(&s, &c))
        return -1;
    *rest = s.p;
    if (ncombos == PI_MAX_COMBOS) {
        snprintf(err, errlen, "too many combinations (at most %d)", PI_MAX_COMBOS);
        return -1;
    }
    int ci = ncombos;
    if (!c.name[0])
        snprintf(c.name, sizeof c.name, "c%d", ci);
    c.h = h;
    combos[ci] = c;
    PI_STORE(&ncombos, ci + 1);
    for (uint32_t i = 0; i < nfns; i++)
        if (PI_LOAD(&fns[i].ready))
            bind_locked(ci, i);
    return ci;
}

PI_EXPORT int perfinst_combine_add(const char *spec, perfinst_handler h, char *err, size_t errlen)
{
    pi_init();
    char dummy[8];
    if (!err || !errlen) {
        err = dummy;
        errlen = sizeof dummy;
    }
    if (!spec) {
        snprintf(err, errlen, "no combination given");
        return -1;
    }
    pthread_mutex_lock(&armed_lock);
    const char *rest;
    int id = add_combo_locked(spec, spec, h, err, errlen, &rest);
    if (id >= 0 && *rest) {
        snprintf(err, errlen, "one combination at a time (';' at column %d)", (int)(rest - spec) + 1);
        PI_STORE(&ncombos, ncombos - 1);
        id = -1;
    }
    pthread_mutex_unlock(&armed_lock);
    return id;
}

PI_EXPORT uint64_t perfinst_combine_hits(int id)
{
    if (id < 0 || id >= PI_LOAD(&ncombos))
        return 0;
    return __atomic_load_n(&combos[id].hits, __ATOMIC_RELAXED);
}

/* PERFINST_COMBINE=SPEC{;SPEC}: each malformed one is reported and not installed.
 * PERFINST_DORMANT=auto|handler: who turns on level 2 when a primary fires. */
void pi_armed_init(void)
{
    const char *d = secure_getenv("PERFINST_DORMANT");
    if (d)
        pi_env_dormant(d, &dormant_by_handler);
    const char *v = secure_getenv("PERFINST_COMBINE");
    if (!v)
        return;
    pthread_mutex_lock(&armed_lock);
    const char *p = v;
    if (!*p)
        pi_say("perfinst: PERFINST_COMBINE=: an empty value; no combination installed\n", NULL);
    while (*p) {
        char err[256];
        const char *rest = p;
        if (add_combo_locked(p, v, NULL, err, sizeof err, &rest) < 0) {
            char col[24];
            pi_say("perfinst: PERFINST_COMBINE=", v, ": ", err, " (in the combination that starts "
                   "at column ", pi_fmt_u64(col, (uint64_t)(p - v) + 1, 10),
                   "; expected [NAME:] [K*]METRIC(FUNC) {+|- [K*]METRIC(FUNC)} >|>= N); it is not "
                   "installed\n", NULL);
            const char *semi = strchr(p, ';');
            if (!semi)
                break;
            p = semi + 1;
            continue;
        }
        p = rest;
        if (*p == ';')
            p++;
    }
    pthread_mutex_unlock(&armed_lock);
}

/* ---- the function table ------------------------------------------------------ */

static inline uint32_t fn_slot(uint64_t unit_id, uint32_t site)
{
    return ((uint32_t)unit_id ^ site * 0x9e3779b1u) * 0x9e3779b1u >> (32 - 10); /* PI_FN_HASH */
}

static inline struct fn *fn_find(uint64_t unit_id, uint32_t site)
{
    for (uint32_t i = fn_slot(unit_id, site), k = 0; k < PI_FN_HASH; k++, i = (i + 1) & (PI_FN_HASH - 1)) {
        uint32_t x = __atomic_load_n(&fn_hash[i], __ATOMIC_ACQUIRE);
        if (!x)
            return NULL;
        struct fn *f = &fns[x - 1];
        if (f->unit_id == unit_id && f->site == site)
            return f;
    }
    return NULL;
}

static void fill_locked(struct fn *f)
{
    struct pi_unit_rt *u = NULL;
    for (struct pi_unit_rt *v = pi.units; v; v = v->next)
        if (v->unit_id == f->unit_id && v->tls_get)
            u = v;
    snprintf(f->name, sizeof f->name, "?%u", f->site);
    f->u = u;
    const struct pi_fnmeta *fm =
        u && u->module ? pi_fnmeta_of_locked(u->module, "counter combinations and dormant classes") : NULL;
    const struct pi_fnmeta_unit *mu = NULL;
    for (uint32_t i = 0; fm && i < fm->nunits; i++)
        if (fm->units[i].unit_id == f->unit_id)
            mu = &fm->units[i];
    const struct pi_func *fn = NULL;
    for (uint32_t i = 0; mu && i < mu->nfuncs; i++)
        if (mu->funcs[i].first_site == f->site && mu->funcs[i].nsites)
            fn = &mu->funcs[i];
    if (!fn || mu->ncounters != u->ncounters || !u->ncounters)
        return;
    snprintf(f->name, sizeof f->name, "%s", mu->strtab + fn->name);
    f->nsites = fn->nsites;
    f->counter = calloc(fn->nsites, sizeof *f->counter);
    f->insns = calloc(fn->nsites, sizeof *f->insns);
    f->ntype = calloc(fn->nsites, sizeof *f->ntype);
    f->mask = calloc(fn->nsites, sizeof *f->mask);
    if (!f->counter || !f->insns || !f->ntype || !f->mask) {
        f->nsites = 0;
        return;
    }
    for (uint32_t i = 0; i < fn->nsites; i++) {
        uint32_t s = fn->first_site + i;
        const struct pi_fnmeta_code *c = &mu->code[s];
        f->counter[i] = mu->sites[s].counter;
        /* a narrow counter (its width, the sharing blocks' too): differences modulo 2^N */
        uint32_t bits = PI_SITE_COUNTER_BITS(mu->sites[s].arg);
        f->mask[i] = bits && bits < 64 ? (1ull << bits) - 1 : ~0ull;
        /* per execution: a site copied n times (unrolled, duplicated) runs
           one copy per execution; the copies' mean (rounded) */
        uint32_t n = c->nranges ? c->nranges : 1;
        f->insns[i] = (c->insns + n / 2) / n;
        for (int t = 0; t < PI_NTYPES; t++)
            f->ntype[i][t] = (c->ntype[t] + n / 2) / n;
        if (f->counter[i] == PI_NONE) { /* (no counter: weighs nothing) */
            f->counter[i] = 0;
            f->insns[i] = 0;
            memset(f->ntype[i], 0, sizeof f->ntype[i]);
        }
    }
    f->has_meta = 1;
}

/* The function (U, S), found or made on its first entry. */
static struct fn *fn_get(uint64_t unit_id, uint32_t site, uint32_t dtypes, uint64_t dthr)
{
    struct fn *f = fn_find(unit_id, site);
    if (f)
        return PI_LOAD(&f->ready) ? f : NULL;
    if (PI_LOAD(&table_full_said)) {
        __atomic_fetch_add(&fns_lost, 1, __ATOMIC_RELAXED);
        return NULL;
    }
    pthread_mutex_lock(&armed_lock);
    f = fn_find(unit_id, site);
    if (!f && nfns == PI_MAX_FNS) {
        __atomic_fetch_add(&fns_lost, 1, __ATOMIC_RELAXED);
        if (!table_full_said)
            pi_say("perfinst: more than 256 functions with function probes were entered: the "
                   "others are not measured for combinations or dormant classes\n", NULL);
        PI_STORE(&table_full_said, 1);
    } else if (!f) {
        uint32_t fi = nfns++;
        f = &fns[fi];
        f->unit_id = unit_id;
        f->site = site;
        f->dormant_types = dtypes;
        f->dormant_threshold = dthr;
        f->level = dtypes ? 1 : 0;
        f->tmin = UINT64_MAX;
        fill_locked(f);
        for (int ci = 0; ci < ncombos; ci++)
            bind_locked(ci, fi);
        PI_STORE(&f->ready, 1);
        uint32_t i = fn_slot(unit_id, site);
        while (fn_hash[i])
            i = (i + 1) & (PI_FN_HASH - 1);
        __atomic_store_n(&fn_hash[i], (uint16_t)(fi + 1), __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&armed_lock);
    return f && PI_LOAD(&f->ready) ? f : NULL;
}

static struct fn *fn_by_name_locked(const char *name)
{
    for (uint32_t i = 0; i < nfns; i++)
        if (!strcmp(fns[i].name, name))
            return &fns[i];
    return NULL;
}

/* ---- firing ------------------------------------------------------------------ */

/* A primary threshold fired in f: flagged hot; a dormant class goes to level 2. */
static void flag_hot(struct fn *f)
{
    __atomic_fetch_add(&f->hot, 1, __ATOMIC_RELAXED);
    int one = 1;
    if (!dormant_by_handler &&
        __atomic_compare_exchange_n(&f->level, &one, 2, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
        PI_STORE(&f->armed_exit, 1);
        PI_STORE(&f->armed, 1);
    }
}

void pi_armed_primary(uint64_t unit_id, uint32_t site)
{
    struct fn *f = fn_find(unit_id, site);
    if (f && PI_LOAD(&f->ready))
        flag_hot(f);
}

static int64_t metric_of(struct thr_state *t, const struct term *tm)
{
    int fi = PI_LOAD(&tm->fn);
    return fi < 0 ? 0 : t->fn[fi].cum[tm->metric];
}

static void evaluate(struct thr_state *t, struct fn *f, uint32_t mask, uintptr_t pc)
{
    int n = PI_LOAD(&ncombos);
    for (int ci = 0; ci < n; ci++) {
        if (!(mask & (1u << ci)))
            continue;
        struct combo *c = &combos[ci];
        __int128 v = 0;
        for (int k = 0; k < c->nterms; k++)
            v += (__int128)c->terms[k].mult * (metric_of(t, &c->terms[k]) - t->base[ci][k]);
        __atomic_fetch_add(&c->evals, 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&f->evals, 1, __ATOMIC_RELAXED);
        if (c->ge ? v < c->threshold : v <= c->threshold)
            continue;
        for (int k = 0; k < c->nterms; k++)
            t->base[ci][k] = metric_of(t, &c->terms[k]); /* restart from zero */
        int64_t val = v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : (int64_t)v;
        __atomic_fetch_add(&c->hits, 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&f->fired, 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&f->fired_sum, val, __ATOMIC_RELAXED);
        flag_hot(f);
        struct perfinst_event ev = {.kind = PERFINST_EV_COMBINE, .site = f->site,
                                    .unit_id = f->unit_id, .value = (uint64_t)val};
        pi_indicators_take_stack(&ev, pc);
        pi_indicators_keep_event(&ev);
        perfinst_handler h = c->h ? c->h : __atomic_load_n(&vec_combine, __ATOMIC_ACQUIRE);
        if (h)
            h(&ev);
    }
}

perfinst_handler pi_armed_set_handler(int kind, perfinst_handler h)
{
    return __atomic_exchange_n(kind == PERFINST_EV_COMBINE ? &vec_combine : &vec_secondary, h,
                               __ATOMIC_ACQ_REL);
}

/* ---- the probes ---------------------------------------------------------------- */

static inline uint64_t tsc(void)
{
    _mm_lfence();
    return __rdtsc();
}

/* rdtsc counts time the thread was switched out too; the thread's CPU time
 * does not.  An invocation's cycles are the smaller of its rdtsc difference
 * and its CPU time in TSC ticks (calibrated once against CLOCK_MONOTONIC
 * over 2 ms): the first when it ran undisturbed (finer), the second when it
 * was preempted (a hardware cycle counter of the thread would not have
 * counted that time either). */
static volatile double tsc_per_ns; /* (a benign race: every thread computes about the same) */

static uint64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static double tsc_rate(void)
{
    double r = tsc_per_ns;
    if (r > 0)
        return r;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    uint64_t t0 = tsc(), ns;
    do {
        clock_gettime(CLOCK_MONOTONIC, &b);
        ns = (uint64_t)(b.tv_sec - a.tv_sec) * 1000000000u + (uint64_t)b.tv_nsec - (uint64_t)a.tv_nsec;
    } while (ns < 2000000);
    r = (double)(tsc() - t0) / (double)ns;
    tsc_per_ns = r;
    return r;
}

static __attribute__((noinline)) uint64_t enter_slow(uint64_t unit_id, uint32_t site, uint32_t dtypes,
                                                     uint64_t dthr, uintptr_t pc);

/* The fast path: a function met before and not armed returns at once. */
PI_EXPORT uint64_t __perfinst_fn_enter(uint64_t unit_id, uint32_t site, uint32_t dtypes, uint64_t dthr)
{
    struct fn *f = fn_find(unit_id, site);
    if (f && PI_LOAD(&f->ready) && !PI_LOAD(&f->armed))
        return 0;
    return enter_slow(unit_id, site, dtypes, dthr, (uintptr_t)__builtin_return_address(0));
}

static uint64_t enter_slow(uint64_t unit_id, uint32_t site, uint32_t dtypes, uint64_t dthr, uintptr_t pc)
{
    struct fn *f = fn_get(unit_id, site, dtypes, dthr);
    if (!f)
        return 0;
    uint32_t ce = PI_LOAD(&f->combos_enter), cx = PI_LOAD(&f->combos_exit);
    int level = PI_LOAD(&f->level);
    if (!ce && !cx && level < 2)
        return 0; /* compiled in, off */
    struct thr_state *t = thread_state();
    if (!t)
        return 0;
    struct thr_fn *tf = &t->fn[f - fns];
    tf->cum[M_COUNT]++;
    if (ce)
        evaluate(t, f, ce, pc);
    if (!cx && level < 2)
        return 0; /* nothing for the exit to measure (its fast path returns) */
    if (tf->depth++)
        return 0; /* recursion: the outermost invocation measures */
    tf->measuring = 0;
    if ((PI_LOAD(&f->need_snap) || level >= 2) && f->nsites && f->u && f->u->tls_get) {
        if (!tf->snap)
            tf->snap = calloc(f->nsites, sizeof *tf->snap);
        if (tf->snap) {
            const uint64_t *c = f->u->tls_get();
            for (uint32_t i = 0; i < f->nsites; i++)
                tf->snap[i] = c[f->counter[i]];
            tf->measuring |= 1;
        }
    }
    if (level >= 2)
        tf->measuring |= 4;
    if (PI_LOAD(&f->need_cycles) || level >= 3) {
        tf->measuring |= level >= 3 ? 8 | 2 : 2;
        tsc_rate();
        (void)pi_indicators_probe_cost(); /* measured once, before any t0 */
        tf->cpu0 = cpu_ns();
        return tsc();
    }
    return 0;
}

static __attribute__((noinline)) void exit_slow(struct fn *f, uint64_t t0, uint64_t t1, uintptr_t pc);

PI_EXPORT void __perfinst_fn_exit(uint64_t unit_id, uint32_t site, uint64_t t0)
{
    uint64_t t1 = t0 ? tsc() : 0; /* (t0 is 0 unless the entry started timing) */
    struct fn *f = fn_find(unit_id, site);
    if (!f || !PI_LOAD(&f->ready) || !PI_LOAD(&f->armed_exit))
        return; /* off, or nothing to measure at exit */
    exit_slow(f, t0, t1, (uintptr_t)__builtin_return_address(0));
}

static void exit_slow(struct fn *f, uint64_t t0, uint64_t t1, uintptr_t pc)
{
    struct thr_state *t = ts;
    if (!t)
        return;
    struct thr_fn *tf = &t->fn[f - fns];
    if (!tf->depth || --tf->depth)
        return;
    int m = tf->measuring;
    tf->measuring = 0;
    if (!m)
        return;
    uint64_t d[PI_NMETRICS] = {0};
    if (m & 2) {
        uint64_t c = t1 - t0, cost = pi_indicators_probe_cost();
        uint64_t cpu = (uint64_t)((double)(cpu_ns() - tf->cpu0) * tsc_rate());
        c = c > cost ? c - cost : 0;
        d[M_CYCLES] = cpu < c ? cpu : c;
    }
    if ((m & 1) && f->u && f->u->tls_get) {
        const uint64_t *c = f->u->tls_get();
        int types = (m & 4) || PI_LOAD(&f->need_types);
        for (uint32_t i = 0; i < f->nsites; i++) {
            uint64_t n = (c[f->counter[i]] - tf->snap[i]) & f->mask[i];
            if (!n)
                continue;
            d[M_INSNS] += n * f->insns[i];
            for (int k = 0; types && k < PI_NTYPES; k++)
                d[M_TYPE0 + k] += n * f->ntype[i][k];
        }
    }
    for (int k = M_CYCLES; k < PI_NMETRICS; k++)
        tf->cum[k] += (int64_t)d[k];
    if (m & 4) {
        uint64_t sec = 0;
        for (int k = 0; k < PI_NTYPES; k++)
            if (f->dormant_types & (1u << k)) {
                sec += d[M_TYPE0 + k];
                __atomic_fetch_add(&f->types_count[k], d[M_TYPE0 + k], __ATOMIC_RELAXED);
            }
        __atomic_fetch_add(&f->invocations, 1, __ATOMIC_RELAXED);
        uint64_t total = __atomic_add_fetch(&f->secondary, sec, __ATOMIC_RELAXED);
        int two = 2;
        if (f->dormant_threshold && total >= f->dormant_threshold &&
            __atomic_compare_exchange_n(&f->level, &two, 3, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
            struct perfinst_event ev = {.kind = PERFINST_EV_SECONDARY, .site = f->site,
                                        .unit_id = f->unit_id, .value = total};
            pi_indicators_take_stack(&ev, pc);
            pi_indicators_keep_event(&ev);
            perfinst_handler h = __atomic_load_n(&vec_secondary, __ATOMIC_ACQUIRE);
            if (h)
                h(&ev);
        }
    }
    if (m & 8) {
        __atomic_fetch_add(&f->tinv, 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&f->tcyc, d[M_CYCLES], __ATOMIC_RELAXED);
        uint64_t v = d[M_CYCLES], x = __atomic_load_n(&f->tmin, __ATOMIC_RELAXED);
        while (v < x && !__atomic_compare_exchange_n(&f->tmin, &x, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            ;
        x = __atomic_load_n(&f->tmax, __ATOMIC_RELAXED);
        while (v > x && !__atomic_compare_exchange_n(&f->tmax, &x, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            ;
    }
    uint32_t cx = PI_LOAD(&f->combos_exit);
    if (cx)
        evaluate(t, f, cx, pc);
}

/* ---- the API ----------------------------------------------------------------- */

PI_EXPORT int perfinst_dormant_read(const char *func, struct perfinst_dormant *out)
{
    if (!func || !out)
        return -1;
    pthread_mutex_lock(&armed_lock);
    struct fn *f = fn_by_name_locked(func);
    if (f) {
        memset(out, 0, sizeof *out);
        out->level = PI_LOAD(&f->level);
        out->types = f->dormant_types;
        out->flagged_hot = __atomic_load_n(&f->hot, __ATOMIC_RELAXED);
        out->invocations = __atomic_load_n(&f->invocations, __ATOMIC_RELAXED);
        out->secondary = __atomic_load_n(&f->secondary, __ATOMIC_RELAXED);
        for (int k = 0; k < PI_NTYPES && k < 7; k++)
            out->types_count[k] = __atomic_load_n(&f->types_count[k], __ATOMIC_RELAXED);
        out->tertiary_invocations = __atomic_load_n(&f->tinv, __ATOMIC_RELAXED);
        out->tertiary_cycles = __atomic_load_n(&f->tcyc, __ATOMIC_RELAXED);
    }
    pthread_mutex_unlock(&armed_lock);
    return f ? 0 : -1;
}

PI_EXPORT int perfinst_dormant_set(const char *func, int level)
{
    if (!func || level < 1 || level > 3)
        return -1;
    pthread_mutex_lock(&armed_lock);
    struct fn *f = fn_by_name_locked(func);
    if (f && f->dormant_types) {
        PI_STORE(&f->level, level);
        PI_STORE(&f->armed_exit, level >= 2 || f->combos_exit);
        PI_STORE(&f->armed, level >= 2 || f->combos_enter || f->combos_exit);
    }
    pthread_mutex_unlock(&armed_lock);
    return f && f->dormant_types ? 0 : -1;
}

/* ---- the trace ------------------------------------------------------------------ */

static void put_stat(struct pi_rec_writer *w, const struct fn *f, uint32_t kind, uint64_t count,
                     uint64_t execs, uint64_t sum, uint64_t min, uint64_t max)
{
    struct pi_rec_sitestat r = {.unit_id = f->unit_id, .site = f->site, .kind = kind,
                                .count = count, .execs = execs, .sum = sum, .min = min, .max = max};
    w->begin(PI_REC_SITESTAT);
    w->put(&r, sizeof r);
    w->end();
}

void pi_armed_write(struct pi_rec_writer *w, int in_signal)
{
    uint32_t n = PI_LOAD(&nfns);
    for (uint32_t i = 0; i < n; i++) {
        const struct fn *f = &fns[i];
        if (!PI_LOAD(&f->ready))
            continue;
        uint64_t evals = __atomic_load_n(&f->evals, __ATOMIC_RELAXED);
        if (evals)
            put_stat(w, f, PI_STAT_COMBINE, __atomic_load_n(&f->fired, __ATOMIC_RELAXED), evals,
                     (uint64_t)__atomic_load_n(&f->fired_sum, __ATOMIC_RELAXED), 0, 0);
        int level = PI_LOAD(&f->level);
        uint64_t hot = __atomic_load_n(&f->hot, __ATOMIC_RELAXED);
        if (hot || f->dormant_types)
            put_stat(w, f, PI_STAT_HOT, hot, 0, 0, 0, (uint64_t)(level ? level : 1));
        if (f->dormant_types)
            put_stat(w, f, PI_STAT_SECONDARY, __atomic_load_n(&f->secondary, __ATOMIC_RELAXED),
                     __atomic_load_n(&f->invocations, __ATOMIC_RELAXED), 0, 0, 0);
        uint64_t tinv = __atomic_load_n(&f->tinv, __ATOMIC_RELAXED);
        if (tinv) {
            uint64_t mn = __atomic_load_n(&f->tmin, __ATOMIC_RELAXED);
            put_stat(w, f, PI_STAT_TERTIARY, tinv, tinv, __atomic_load_n(&f->tcyc, __ATOMIC_RELAXED),
                     mn == UINT64_MAX ? 0 : mn, __atomic_load_n(&f->tmax, __ATOMIC_RELAXED));
        }
    }
    /* a combination that names a function never entered through its probes
       measured nothing: said once, in normal context */
    int nc = PI_LOAD(&ncombos);
    for (int ci = 0; ci < nc && !in_signal; ci++) {
        struct combo *c = &combos[ci];
        for (int k = 0; k < c->nterms && !c->said; k++)
            if (PI_LOAD(&c->terms[k].fn) < 0) {
                c->said = 1;
                pi_say("perfinst: combination ", c->name, ": ", c->terms[k].func,
                       " was never entered through a function probe, so its terms stayed 0 (is it "
                       "built with -fplugin-arg-perfinst-combine=marked|all, and called?",
                       pi_fnmeta_failed ? " Function names come from the metadata, which could not be read" : "",
                       ")\n", NULL);
            }
    }
    pi_lost_write(w, PI_LOST_FUNCTIONS, PI_MAX_FNS, __atomic_load_n(&fns_lost, __ATOMIC_RELAXED), 0, 0);
}
