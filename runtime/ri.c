/* ri.c — runtime instrumentation (seed 001): control block, collection
 * buffer, program buffer, report groups, processor characteristics.
 *
 * Per thread (struct ri_thread, found through an initial-exec TLS pointer):
 *
 *   controls   struct perfinst_ri_controls: the buffer (roa, rla, rca), the
 *              interval (sf, rsic, mode), the report-group size (rgs) and the
 *              enables, suppression (Y, Z), alert (U, G, L) bits;
 *   CB         a ring of the last cb_size events from instrumented code
 *              (call, return, transfer, emit), each {type, addr, val};
 *   units      instrumented blocks executed since RI was turned on.
 *
 * The plugin's probes (gcc-plugin/pass-ri.cc):
 *
 *   --__perfinst_ri_budget      each block of code marked sample(...): one unit,
 *   __perfinst_ri_unit(N)       inline; the call when the budget runs out: the
 *                               interval counts down (count mode) or the TSC
 *                               deadline is checked (cycles mode)
 *   __perfinst_ri_directed()    a unit that is also a directed sample point
 *   __perfinst_ri_call(ra)      entry of a sample/callret function: CALL
 *   __perfinst_ri_return(ra)    before each return: RETURN
 *   __perfinst_ri_transfer(pc)  on the true edge of a two-way branch: TRANSFER
 *                               from pc (taken just before the branch)
 *   __perfinst_ri_emit(v)       emit(EXPR): EMIT
 *
 * A sample point stores one report group at rca (docs/sampling.md, layout in
 * perfinst-format.h): header, CB records newest first, filler, the SYSINFO
 * extra record (CPU, CPUID signature, microcode, capability), the
 * INSTRUCTION record.  Before storing, the current CPU's characteristics are
 * checked against those recorded when the buffer's BEGIN group was stored:
 * suppress (Y/Z, only when the CPUs differ in capability), halt (another
 * version, an rgs above the CPU's limit, too many migrations) or store.
 * A full buffer drains to the trace (full=drain), calls the alert handler
 * (full=alert), or stops (full=stop).
 *
 * Stored groups reach the trace as PI_REC_RI records: drained buffers and
 * those of finished threads are kept in a list; live threads' buffers are
 * read when the trace is written.
 */
#include "runtime.h"

#include <cpuid.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <x86intrin.h>

#define RI_DEFAULT_BUF (64 * 1024)
#define RI_DEFAULT_CB 32
#define RI_DEFAULT_SF 1000
#define PI_RIB_FINAL 0x80000000u /* drain(): the thread ends (not written) */

struct ri_cb_entry {
    uint8_t type;
    uint64_t addr, val;
};

struct ri_thread {
    struct ri_thread *next;    /* all threads' states, never freed (reused) */
    int used;
    pid_t tid;
    struct perfinst_ri_controls c;
    int valid, altered, on;
    uint8_t *own_buf;          /* the buffer the runtime allocated, or NULL */
    size_t own_size;
    struct ri_cb_entry *cb;    /* cb_size entries */
    uint32_t cb_size, cb_next, cb_count;
    uint64_t units;
    uint64_t deadline;         /* cycles mode: TSC of the next sample point */
    int next_directed;
    int begin_cpu;             /* CPU of the buffer's BEGIN group, -1 none */
    int last_cpu;
    uint32_t migrations_seen;
    uint64_t suppressed, lost;
    uint32_t seq;
    int in_alert;
    int interval_fixed;        /* the interval no longer follows the directives' N */
    int64_t budget_set;        /* what __perfinst_ri_budget was set to */
};

/* One CPU's characteristics. */
struct ri_cpu {
    uint8_t capability;        /* 0 primary, 1 secondary */
    uint8_t max_rgs;
    uint32_t signature, microcode;
};

/* A copied buffer waiting for the trace. */
struct ri_chunk {
    struct ri_chunk *next;
    struct pi_rec_ri hdr;
    uint8_t data[];
};

static struct {
    pthread_once_t once;
    pthread_mutex_t lock;
    int env_on;                /* threads start with RI on (not PERFINST_RI=off, not a bad value) */
    int env_interval;          /* the interval is set (PERFINST_RI every=/cycles=, or a probe's N) */
    struct perfinst_ri_controls dflt;
    size_t buf_size;
    int ncpu;
    struct ri_cpu *cpu;
    int heterogeneous;
    perfinst_ri_handler handler;
    struct ri_thread *threads;
    struct ri_chunk *chunks, **chunks_tail;
    pthread_key_t key;
} ri = {.once = PTHREAD_ONCE_INIT, .lock = PTHREAD_MUTEX_INITIALIZER};

static __thread struct ri_thread *ri_self __attribute__((tls_model("initial-exec")));

/* The unit probe's inline fast path (pass-ri.cc):
 *
 *     if (--__perfinst_ri_budget <= 0) __perfinst_ri_unit(N);
 *
 * The budget is how many units may pass before one can matter: the units
 * left to the next count sample point (rsic), 1 in cycles mode or when a
 * directed point or the first unit is due, "never" while RI is off.  Units
 * that pass inline are counted when the thread next enters the runtime
 * (budget_sync); every change of the controls re-arms the budget. */
PI_EXPORT __thread int64_t __perfinst_ri_budget __attribute__((tls_model("initial-exec")));
#define RI_NEVER (INT64_MAX / 4)
/* The events the thread does not record: PERFINST_RI_C, _R, _B bits.  The
 * plugin calls the call, return and transfer probes only when their bit is
 * clear; 0 (a new thread) calls them, and the first call sets it. */
PI_EXPORT __thread uint32_t __perfinst_ri_skip __attribute__((tls_model("initial-exec")));
#define RI_EVENT_BITS (PERFINST_RI_C | PERFINST_RI_R | PERFINST_RI_B)

/* ---- processor characteristics ------------------------------------------- */

static int read_small(const char *path, char *buf, size_t n)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t k = read(fd, buf, n - 1);
    close(fd);
    if (k < 0)
        return -1;
    buf[k] = 0;
    return 0;
}

/* "0-3,8,10-11" → set bits in mark[] */
static void cpu_list(const char *s, uint8_t *mark, int ncpu)
{
    while (*s) {
        char *e;
        long a = strtol(s, &e, 10), b = a;
        if (e == s)
            break;
        if (*e == '-')
            b = strtol(e + 1, &e, 10);
        for (long i = a; i <= b && i < ncpu; i++)
            if (i >= 0)
                mark[i] = 1;
        s = e;
        if (*s == ',')
            s++;
        else
            break;
    }
}

static uint32_t microcode_of(int cpu)
{
    char path[96], buf[64];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/microcode/version", cpu);
    if (read_small(path, buf, sizeof buf) == 0)
        return (uint32_t)strtoul(buf, NULL, 0);
    return 0;
}

/* /proc/cpuinfo's "microcode" of each processor, for kernels without sysfs. */
static void microcode_cpuinfo(void)
{
    FILE *f = fopen("/proc/cpuinfo", "re");
    if (!f)
        return;
    char line[256];
    int cpu = -1;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "processor", 9))
            cpu = atoi(strchr(line, ':') ? strchr(line, ':') + 1 : "-1");
        else if (!strncmp(line, "microcode", 9) && cpu >= 0 && cpu < ri.ncpu && strchr(line, ':') &&
                 !ri.cpu[cpu].microcode)
            ri.cpu[cpu].microcode = (uint32_t)strtoul(strchr(line, ':') + 1, NULL, 0);
    }
    fclose(f);
}

static void detect_cpus(void)
{
    unsigned a = 0, b, c, d;
    uint32_t sig = __get_cpuid(1, &a, &b, &c, &d) ? a : 0;
    for (int i = 0; i < ri.ncpu; i++) {
        ri.cpu[i].signature = sig;
        ri.cpu[i].microcode = microcode_of(i);
        ri.cpu[i].max_rgs = PI_RI_RGS_MAX;
    }
    microcode_cpuinfo();
    /* hybrid parts: the kernel's core-type PMUs list their CPUs */
    char buf[4096];
    if (read_small("/sys/devices/cpu_atom/cpus", buf, sizeof buf) == 0) {
        uint8_t *mark = calloc((size_t)ri.ncpu, 1);
        if (mark) {
            cpu_list(buf, mark, ri.ncpu);
            for (int i = 0; i < ri.ncpu; i++)
                ri.cpu[i].capability = mark[i];
            free(mark);
        }
        return;
    }
    /* else: the highest maximum frequency is primary, anything lower secondary */
    unsigned long *f = calloc((size_t)ri.ncpu, sizeof *f), top = 0;
    if (!f)
        return;
    for (int i = 0; i < ri.ncpu; i++) {
        char path[96];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq", i);
        if (read_small(path, buf, sizeof buf) == 0)
            f[i] = strtoul(buf, NULL, 10);
        if (f[i] > top)
            top = f[i];
    }
    for (int i = 0; i < ri.ncpu; i++)
        ri.cpu[i].capability = f[i] && f[i] < top;
    free(f);
}

/* A number in C's notation (decimal, 0x hex, 0 octal), nothing else:
 * strtoull alone would take blanks and a sign ("-1" wraps round). */
static int parse_u64(const char *s, uint64_t *out)
{
    char *e;
    errno = 0;
    if (!isdigit((unsigned char)*s))
        return -1;
    unsigned long long v = strtoull(s, &e, 0);
    if (*e || errno)
        return -1;
    *out = v;
    return 0;
}

/* PERFINST_TOPOLOGY=CPUS:CLASS[:SIG[/MICROCODE]][:maxrgs=N],...  CPUS is N
 * or N-M, CLASS primary or secondary.  CPUs not named keep what was
 * detected.  0 on success, -1 (message said) on a malformed entry. */
static int parse_topology(const char *v)
{
    if (!v[strspn(v, ",")]) { /* no entry (empty ones are skipped) */
        pi_say("perfinst: PERFINST_TOPOLOGY=", v, ": no entry; expected "
               "CPUS:primary|secondary[:SIGNATURE[/MICROCODE]][:maxrgs=N],...\n", NULL);
        return -1;
    }
    char *copy = strdup(v), *save = NULL;
    if (!copy)
        return -1;
    int ok = 0;
    for (char *ent = strtok_r(copy, ",", &save); ent; ent = strtok_r(NULL, ",", &save)) {
        char *f[4] = {0};
        int nf = 0, more = 0;
        for (char *p = ent, *q; ; p = q + 1) {
            f[nf++] = p;
            q = strchr(p, ':');
            if (!q)
                break;
            *q = 0;
            if (nf == 4) { /* a fifth field */
                more = 1;
                break;
            }
        }
        char *e = f[0];
        long lo = -1, hi = -1;
        if (isdigit((unsigned char)*f[0])) { /* strtol would take blanks and a sign */
            errno = 0;
            lo = hi = strtol(f[0], &e, 10);
            if (*e == '-' && isdigit((unsigned char)e[1]))
                hi = strtol(e + 1, &e, 10);
            if (errno)
                e = f[0];
        }
        int cap = nf >= 2 && !strcmp(f[1], "primary") ? 0 : nf >= 2 && !strcmp(f[1], "secondary") ? 1 : -1;
        if (e == f[0] || *e || lo < 0 || hi < lo || cap < 0 || more) {
            pi_say("perfinst: PERFINST_TOPOLOGY=", v, ": '", ent,
                   "': expected CPUS:primary|secondary[:SIGNATURE[/MICROCODE]][:maxrgs=N]\n", NULL);
            ok = -1;
            break;
        }
        long sig = -1, uc = -1, maxrgs = -1;
        for (int k = 2; k < nf; k++) {
            uint64_t n = 0;
            if (!strncmp(f[k], "maxrgs=", 7)) {
                if (parse_u64(f[k] + 7, &n) || n > PI_RI_RGS_MAX)
                    ok = -1;
                maxrgs = (long)n;
            } else {
                char *slash = strchr(f[k], '/');
                if (slash)
                    *slash = 0;
                if (parse_u64(f[k], &n) || n > 0xffffffffu)
                    ok = -1;
                sig = (long)n;
                if (slash) {
                    if (parse_u64(slash + 1, &n) || n > 0xffffffffu)
                        ok = -1;
                    uc = (long)n;
                }
            }
        }
        if (ok) {
            pi_say("perfinst: PERFINST_TOPOLOGY=", v, ": '", ent, "': bad signature or maxrgs\n", NULL);
            break;
        }
        for (long i = lo; i <= hi && i < ri.ncpu; i++) {
            ri.cpu[i].capability = (uint8_t)cap;
            if (sig >= 0)
                ri.cpu[i].signature = (uint32_t)sig;
            if (uc >= 0)
                ri.cpu[i].microcode = (uint32_t)uc;
            if (maxrgs >= 0)
                ri.cpu[i].max_rgs = (uint8_t)maxrgs;
        }
    }
    free(copy);
    return ok;
}

/* ---- PERFINST_RI ---------------------------------------------------------- */

/* PERFINST_RI=key=value,...  (docs/sampling.md) */
static int parse_ri_env(const char *v, struct perfinst_ri_controls *c)
{
    char *copy = strdup(v), *save = NULL;
    if (!copy)
        return -1;
    int bad = 0;
    for (char *kv = strtok_r(copy, ",", &save); kv && !bad; kv = strtok_r(NULL, ",", &save)) {
        char *val = strchr(kv, '=');
        uint64_t n = 0;
        if (val)
            *val++ = 0;
        if (!strcmp(kv, "on") && !val)
            continue;
        if (!val) {
            bad = 1;
        } else if (!strcmp(kv, "rgs")) {
            bad = parse_u64(val, &n) || n < PI_RI_RGS_MIN || n > PI_RI_RGS_MAX;
            c->rgs = (uint32_t)n;
        } else if (!strcmp(kv, "every")) {
            bad = parse_u64(val, &n) || !n;
            ri.env_interval = 1;
            c->sf = n, c->mode = PERFINST_RI_M_COUNT;
        } else if (!strcmp(kv, "cycles")) {
            bad = parse_u64(val, &n) || !n;
            ri.env_interval = 1;
            c->sf = n, c->mode = PERFINST_RI_M_CYCLES;
        } else if (!strcmp(kv, "mode")) {
            if (!strcmp(val, "count")) c->mode = PERFINST_RI_M_COUNT;
            else if (!strcmp(val, "cycles")) c->mode = PERFINST_RI_M_CYCLES;
            else if (!strcmp(val, "none") || !strcmp(val, "directed")) c->mode = PERFINST_RI_M_NONE;
            else bad = 1;
        } else if (!strcmp(kv, "start")) {
            bad = parse_u64(val, &n) || !n;
            c->rsic = n;
        } else if (!strcmp(kv, "buf")) {
            bad = parse_u64(val, &n) || n < 64 || n > (1ull << 32);
            ri.buf_size = (size_t)n;
        } else if (!strcmp(kv, "cb")) {
            bad = parse_u64(val, &n) || n < 2 || n > 256;
            c->cb_size = (uint32_t)n;
        } else if (!strcmp(kv, "migrations")) {
            bad = parse_u64(val, &n) || n > 0xffffffffu;
            c->migrations = (uint32_t)n;
        } else if (!strcmp(kv, "events")) {
            c->flags &= ~(PERFINST_RI_C | PERFINST_RI_R | PERFINST_RI_B | PERFINST_RI_E);
            for (char *ev = val, *nx; ev && *ev && !bad; ev = nx) {
                nx = strchr(ev, '+');
                if (nx)
                    *nx++ = 0;
                if (!strcmp(ev, "call")) c->flags |= PERFINST_RI_C;
                else if (!strcmp(ev, "ret")) c->flags |= PERFINST_RI_R;
                else if (!strcmp(ev, "xfer")) c->flags |= PERFINST_RI_B;
                else if (!strcmp(ev, "emit")) c->flags |= PERFINST_RI_E;
                else if (strcmp(ev, "none")) bad = 1;
            }
        } else if (!strcmp(kv, "directed")) {
            if (!strcmp(val, "on")) c->flags |= PERFINST_RI_N;
            else if (!strcmp(val, "off")) c->flags &= ~PERFINST_RI_N;
            else bad = 1;
        } else if (!strcmp(kv, "full")) {
            c->flags &= ~(PERFINST_RI_DRAIN | PERFINST_RI_U);
            if (!strcmp(val, "drain")) c->flags |= PERFINST_RI_DRAIN;
            else if (!strcmp(val, "alert")) c->flags |= PERFINST_RI_U;
            else if (strcmp(val, "stop")) bad = 1;
        } else if (!strcmp(kv, "suppress")) {
            c->flags &= ~(PERFINST_RI_Y | PERFINST_RI_Z);
            if (!strcmp(val, "primary")) c->flags |= PERFINST_RI_Y;
            else if (!strcmp(val, "secondary")) c->flags |= PERFINST_RI_Z;
            else if (!strcmp(val, "all")) c->flags |= PERFINST_RI_Y | PERFINST_RI_Z;
            else if (strcmp(val, "none")) bad = 1;
        } else {
            bad = 1;
        }
        if (bad)
            pi_say("perfinst: PERFINST_RI=", v, ": '", kv, val ? "=" : "", val ? val : "",
                   "' is not understood (docs/sampling.md); runtime instrumentation stays off\n",
                   NULL);
    }
    free(copy);
    return bad ? -1 : 0;
}

static void thread_gone(void *p);

/* The child of a fork: only the forking thread is left; the buffers the
 * parent drained are the parent's (not written again). */
static void ri_after_fork_child(void)
{
    pthread_mutex_init(&ri.lock, NULL);
    ri.chunks = NULL; /* (left to the parent's trace; the memory is not reclaimed) */
    ri.chunks_tail = &ri.chunks;
    for (struct ri_thread *t = ri.threads; t; t = t->next)
        if (t != ri_self)
            PI_STORE(&t->used, 0);
    if (ri_self)
        ri_self->tid = gettid();
}

static void ri_setup(void)
{
    long n = sysconf(_SC_NPROCESSORS_CONF);
    ri.ncpu = n > 0 && n < 65536 ? (int)n : 1;
    ri.cpu = calloc((size_t)ri.ncpu, sizeof *ri.cpu);
    if (!ri.cpu)
        ri.ncpu = 0;
    else
        detect_cpus();
    const char *topo = secure_getenv("PERFINST_TOPOLOGY");
    int topo_ok = !topo || !ri.ncpu || parse_topology(topo) == 0;
    for (int i = 1; i < ri.ncpu; i++)
        if (ri.cpu[i].capability != ri.cpu[0].capability)
            ri.heterogeneous = 1;
    ri.chunks_tail = &ri.chunks;
    pthread_key_create(&ri.key, thread_gone);
    pthread_atfork(NULL, NULL, ri_after_fork_child);

    struct perfinst_ri_controls *c = &ri.dflt;
    c->sf = RI_DEFAULT_SF;
    c->mode = PERFINST_RI_M_COUNT;
    c->rgs = 2;
    c->cb_size = RI_DEFAULT_CB;
    c->flags = PERFINST_RI_C | PERFINST_RI_R | PERFINST_RI_B | PERFINST_RI_E | PERFINST_RI_N |
               PERFINST_RI_DRAIN;
    ri.buf_size = RI_DEFAULT_BUF;
    const char *v = secure_getenv("PERFINST_RI");
    ri.env_on = topo_ok && !(v && !strcmp(v, "off")) && !(v && *v && parse_ri_env(v, c) != 0);
}

static void ri_init_once(void)
{
    pthread_once(&ri.once, ri_setup);
}

/* ---- per-thread state ------------------------------------------------------ */

static int cpu_now(void)
{
    int c = sched_getcpu();
    return c >= 0 && c < ri.ncpu ? c : -1;
}

static const struct ri_cpu *cpu_info(int cpu)
{
    static const struct ri_cpu none = {0, PI_RI_RGS_MAX, 0, 0};
    return cpu >= 0 ? &ri.cpu[cpu] : &none;
}

/* Count the units that passed inline since the budget was set, but the
 * `current` one (the unit now in the runtime, counted by unit()). */
static void budget_sync(struct ri_thread *t, int current)
{
    int64_t used = t->budget_set - __perfinst_ri_budget - current;
    if (used > 0 && t->on && t->valid) {
        t->units += (uint64_t)used;
        if (t->c.mode == PERFINST_RI_M_COUNT)
            t->c.rsic -= (uint64_t)used;
    }
    t->budget_set = __perfinst_ri_budget = 0;
}

static void budget_arm(struct ri_thread *t)
{
    int64_t b;
    if (!t->on || !t->valid)
        b = RI_NEVER;
    else if (t->next_directed || !t->interval_fixed || t->c.mode == PERFINST_RI_M_CYCLES)
        b = 1;
    else if (t->c.mode == PERFINST_RI_M_COUNT)
        b = t->c.rsic > (uint64_t)RI_NEVER ? RI_NEVER : (int64_t)t->c.rsic;
    else
        b = RI_NEVER;
    t->budget_set = __perfinst_ri_budget = b;
    __perfinst_ri_skip = t->on && t->valid ? ~t->c.flags & RI_EVENT_BITS : RI_EVENT_BITS;
}

static struct ri_thread *thread_state(void)
{
    struct ri_thread *t = ri_self;
    if (t)
        return t;
    ri_init_once();
    pthread_mutex_lock(&ri.lock);
    for (t = ri.threads; t; t = t->next)
        if (!t->used)
            break;
    if (!t) {
        t = calloc(1, sizeof *t);
        if (!t) {
            pthread_mutex_unlock(&ri.lock);
            return NULL;
        }
        t->next = ri.threads;
        PI_STORE(&ri.threads, t);
    }
    struct ri_cb_entry *keep = t->cb;
    uint32_t keep_n = t->cb_size;
    uint8_t *keep_buf = t->own_buf;
    size_t keep_size = t->own_size;
    memset((char *)t + offsetof(struct ri_thread, tid), 0,
           sizeof *t - offsetof(struct ri_thread, tid));
    t->cb = keep, t->cb_size = keep_n, t->own_buf = keep_buf, t->own_size = keep_size;
    t->tid = gettid();
    t->begin_cpu = t->last_cpu = -1;
    PI_STORE(&t->used, 1);
    pthread_mutex_unlock(&ri.lock);
    ri_self = t;
    pthread_setspecific(ri.key, t);
    if (ri.env_on && perfinst_ri_load(&ri.dflt) == 0)
        t->on = 1;
    t->interval_fixed = 0;
    budget_arm(t);
    return t;
}

/* ---- the collection buffer ------------------------------------------------ */

static inline void cb_put(struct ri_thread *t, uint8_t type, uint64_t addr, uint64_t val)
{
    struct ri_cb_entry *e = &t->cb[t->cb_next];
    e->type = type, e->addr = addr, e->val = val;
    t->cb_next = t->cb_next + 1 == t->cb_size ? 0 : t->cb_next + 1;
    if (t->cb_count < t->cb_size)
        t->cb_count++;
}

/* ---- report groups ---------------------------------------------------------- */

static void put_ev(struct pi_ri_rec *r, uint8_t type, uint8_t flags, uint64_t addr, uint64_t val)
{
    memset(r, 0, sizeof *r);
    r->type = type;
    r->flags = flags | (addr >> 48 ? PI_RI_EF_MAE : 0);
    pi_ri_put_le(r->a, 6, addr);
    pi_ri_put_le(r->b, 8, val);
}

static struct pi_ri_rec *begin_rec(struct ri_thread *t)
{
    return t->c.rca > t->c.roa ? (struct pi_ri_rec *)(uintptr_t)t->c.roa : NULL;
}

static void alert(struct ri_thread *t, int kind)
{
    perfinst_ri_handler h = __atomic_load_n(&ri.handler, __ATOMIC_ACQUIRE);
    if (!(t->c.flags & PERFINST_RI_U) || !h || t->in_alert)
        return;
    t->in_alert = 1;
    struct perfinst_ri_controls c = t->c;
    h(kind, &c);
    t->in_alert = 0;
    /* presenting the alert clears its pending bit */
    t->c.flags &= ~(kind == PERFINST_RI_ALERT_FULL ? PERFINST_RI_L : PERFINST_RI_G);
}

static void halt(struct ri_thread *t)
{
    struct pi_ri_rec *b = begin_rec(t);
    if (b)
        b->flags |= PI_RI_HF_HALTED;
    t->c.flags |= PERFINST_RI_HALTED | PERFINST_RI_G;
    t->lost++;
    alert(t, PERFINST_RI_ALERT_HALTED);
}

/* Copy the stored groups of t's buffer into the chunk list and rewind. */
static void drain(struct ri_thread *t, uint32_t flags)
{
    /* (an empty buffer is kept only to carry the suppressed and lost counts
       of a thread that ends) */
    if (t->c.rca <= t->c.roa && !(flags & PI_RIB_FINAL && (t->suppressed || t->lost)))
        return;
    flags &= ~PI_RIB_FINAL;
    size_t bytes = (size_t)(t->c.rca - t->c.roa);
    struct ri_chunk *ch = malloc(sizeof *ch + bytes);
    if (ch) {
        memset(&ch->hdr, 0, sizeof ch->hdr);
        ch->next = NULL;
        ch->hdr.tid = (uint32_t)t->tid;
        ch->hdr.seq = t->seq;
        ch->hdr.rgs = t->c.rgs;
        ch->hdr.ngroups = (uint32_t)(bytes / PI_RI_GROUP_BYTES(t->c.rgs));
        ch->hdr.flags = flags | (t->c.flags & PERFINST_RI_HALTED ? PI_RIB_HALTED : 0) |
                        (!(flags & PI_RIB_DRAINED) && (t->c.flags & PERFINST_RI_L) ? PI_RIB_STOPPED : 0);
        ch->hdr.suppressed = t->suppressed;
        ch->hdr.lost = t->lost;
        memcpy(ch->data, (void *)(uintptr_t)t->c.roa, bytes);
        pthread_mutex_lock(&ri.lock);
        PI_STORE(ri.chunks_tail, ch); /* the fatal-signal writer walks the list */
        ri.chunks_tail = &ch->next;
        pthread_mutex_unlock(&ri.lock);
    } else {
        t->lost += bytes / PI_RI_GROUP_BYTES(t->c.rgs);
    }
    t->seq++;
    t->c.rca = t->c.roa;
    t->begin_cpu = -1;
}

static void sample(struct ri_thread *t, uint64_t pc, uint8_t cause)
{
    if (t->c.flags & PERFINST_RI_HALTED) {
        t->lost++;
        /* re-enabled without clearing: the alert is pending again */
        if (t->c.flags & PERFINST_RI_G)
            alert(t, PERFINST_RI_ALERT_HALTED);
        return;
    }
    int cpu = cpu_now();
    const struct ri_cpu *ci = cpu_info(cpu);
    if (t->last_cpu >= 0 && cpu != t->last_cpu)
        t->migrations_seen++;
    t->last_cpu = cpu;

    /* suppression: only in a configuration whose CPUs differ in capability */
    if (ri.heterogeneous &&
        (t->c.flags & (ci->capability ? PERFINST_RI_Z : PERFINST_RI_Y))) {
        t->suppressed++;
        return;
    }
    /* halt: another version than the BEGIN group's, an rgs above this CPU's
     * limit, or more migrations than allowed */
    if (t->c.rgs > ci->max_rgs) {
        halt(t);
        return;
    }
    if (t->begin_cpu >= 0 && begin_rec(t)) {
        const struct ri_cpu *b = cpu_info(t->begin_cpu);
        if (b->signature != ci->signature || b->microcode != ci->microcode ||
            (t->c.migrations && t->migrations_seen > t->c.migrations)) {
            halt(t);
            return;
        }
    }
    uint32_t gbytes = PI_RI_GROUP_BYTES(t->c.rgs);
    if (t->c.rca + gbytes - 1 > t->c.rla) {
        struct pi_ri_rec *b = begin_rec(t);
        if (b)
            b->flags |= PI_RI_HF_STOPPED;
        t->c.flags |= PERFINST_RI_L;
        if (t->c.flags & PERFINST_RI_DRAIN) {
            drain(t, PI_RIB_DRAINED);
            t->c.flags &= ~PERFINST_RI_L;
        } else {
            alert(t, PERFINST_RI_ALERT_FULL);
        }
        if (t->c.rca + gbytes - 1 > t->c.rla || (t->c.flags & PERFINST_RI_HALTED)) {
            t->lost++;
            return;
        }
    }

    /* the group */
    struct pi_ri_rec *g = (struct pi_ri_rec *)(uintptr_t)t->c.rca;
    uint32_t nrec = PI_RI_GROUP_RECORDS(t->c.rgs);
    int first = t->c.rca == t->c.roa;
    uint64_t tod = pi_tod_ns(); /* in order even when the clock is stepped */
    memset(g, 0, gbytes);
    g[0].type = first ? PI_RI_BEGIN : PI_RI_TIMESTAMP;
    g[0].flags = ci->capability ? PI_RI_HF_SECONDARY : 0;
    g[0].a[0] = (uint8_t)t->c.rgs;
    g[0].a[1] = (uint8_t)t->c.mode;
    pi_ri_put_le(g[0].a + 2, 4, first ? 1 : (uint32_t)((t->c.rca - t->c.roa) / gbytes));
    pi_ri_put_le(g[0].b, 8, tod);
    uint32_t body = nrec - PI_RI_NC;
    uint32_t k = 0;
    for (uint32_t i = 0; i < t->cb_count && k < body; i++, k++) {
        uint32_t at = (t->cb_next + t->cb_size - 1 - i) % t->cb_size;
        const struct ri_cb_entry *e = &t->cb[at];
        put_ev(&g[1 + k], e->type, 0, e->addr, e->val);
    }
    /* (the rest of the body is filler: zero) */
    struct pi_ri_rec *x = &g[nrec - 2];
    x->type = PI_RI_EXTRA;
    x->flags = PI_RI_EXTRA_SYSINFO;
    pi_ri_put_le(x->a, 2, (uint16_t)(cpu < 0 ? 0xffff : cpu));
    pi_ri_put_le(x->a + 2, 4, ci->signature);
    pi_ri_put_le(x->b, 4, ci->microcode);
    x->b[4] = ci->capability;
    put_ev(&g[nrec - 1], PI_RI_INSTRUCTION, cause, pc, t->units);
    if (first) {
        t->begin_cpu = cpu < 0 ? 0 : cpu;
        t->migrations_seen = 0;
    } else {
        struct pi_ri_rec *b = begin_rec(t);
        pi_ri_put_le(b->a + 2, 4, pi_ri_nrg(b) + 1);
    }
    t->c.rca += gbytes;
}

/* The first unit with a directive's N sets the thread's interval, unless
 * PERFINST_RI or perfinst_ri_load/modify did. */
static void adopt_interval(struct ri_thread *t, uint64_t every)
{
    t->interval_fixed = 1;
    if (every && !ri.env_interval)
        t->c.sf = t->c.rsic = every;
}

/* The unit probe's work: count, and store a group at a sample point. */
static inline void unit(struct ri_thread *t, uint64_t pc, int directed, uint64_t every)
{
    uint8_t cause = 0;
    t->units++;
    if (__builtin_expect(!t->interval_fixed, 0))
        adopt_interval(t, every);
    if (t->c.mode == PERFINST_RI_M_COUNT) {
        if (--t->c.rsic == 0) {
            cause = PI_RI_IF_COUNT;
            t->c.rsic = t->c.sf;
        }
    } else if (t->c.mode == PERFINST_RI_M_CYCLES) {
        uint64_t now = __rdtsc();
        if (now >= t->deadline) {
            cause = PI_RI_IF_CYCLES;
            t->deadline = now + t->c.sf;
        }
    }
    if ((directed || t->next_directed) && (t->c.flags & PERFINST_RI_N))
        cause |= PI_RI_IF_DIRECTED;
    t->next_directed = 0;
    if (cause)
        sample(t, pc, cause);
}

/* A thread's first probe: its state, on unless PERFINST_RI=off (or bad).
 * The probe's `every` (the directive's N) is the interval when PERFINST_RI
 * named none. */
static struct ri_thread *first_probe(void)
{
    ri_init_once();
    return ri.env_on ? thread_state() : NULL;
}

#define RI_ACTIVE(t, every) ((t) || ((t) = first_probe()))


/* The slow path of a unit: its budget ran out. */
PI_EXPORT void __perfinst_ri_unit(uint64_t every)
{
    struct ri_thread *t = ri_self;
    if (!RI_ACTIVE(t, every)) {
        __perfinst_ri_budget = RI_NEVER;
        __perfinst_ri_skip = RI_EVENT_BITS;
        return;
    }
    budget_sync(t, 1);
    if (t->on && t->valid)
        unit(t, (uint64_t)(uintptr_t)__builtin_return_address(0), 0, every);
    budget_arm(t);
}

/* A directed unit: always a call (no budget taken). */
PI_EXPORT void __perfinst_ri_directed(uint64_t every)
{
    struct ri_thread *t = ri_self;
    if (!RI_ACTIVE(t, every)) {
        __perfinst_ri_budget = RI_NEVER;
        __perfinst_ri_skip = RI_EVENT_BITS;
        return;
    }
    budget_sync(t, 0);
    if (t->on && t->valid)
        unit(t, (uint64_t)(uintptr_t)__builtin_return_address(0), 1, every);
    budget_arm(t);
}

/* A thread's first event probe: its state (and the skip bits set). */
static struct ri_thread *event_thread(void)
{
    struct ri_thread *t = ri_self;
    if (!t && !(t = first_probe())) {
        __perfinst_ri_skip = RI_EVENT_BITS;
        __perfinst_ri_budget = RI_NEVER;
        return NULL;
    }
    return t; /* (thread_state armed the budget and the skip bits) */
}

PI_EXPORT void __perfinst_ri_call(void *ret_addr)
{
    struct ri_thread *t = ri_self ? ri_self : event_thread();
    if (t && t->on && (t->c.flags & PERFINST_RI_C))
        cb_put(t, PI_RI_CALL, (uint64_t)(uintptr_t)ret_addr,
               (uint64_t)(uintptr_t)__builtin_return_address(0));
}

PI_EXPORT void __perfinst_ri_return(void *ret_addr)
{
    struct ri_thread *t = ri_self ? ri_self : event_thread();
    if (t && t->on && (t->c.flags & PERFINST_RI_R))
        cb_put(t, PI_RI_RETURN, (uint64_t)(uintptr_t)__builtin_return_address(0),
               (uint64_t)(uintptr_t)ret_addr);
}

PI_EXPORT void __perfinst_ri_transfer(void *from)
{
    struct ri_thread *t = ri_self ? ri_self : event_thread();
    if (t && t->on && (t->c.flags & PERFINST_RI_B))
        cb_put(t, PI_RI_TRANSFER, (uint64_t)(uintptr_t)from,
               (uint64_t)(uintptr_t)__builtin_return_address(0));
}

static void emit(uint64_t value, uint64_t pc)
{
    struct ri_thread *t = ri_self;
    if (RI_ACTIVE(t, 0) && t->on && (t->c.flags & PERFINST_RI_E) && !(t->c.flags & PERFINST_RI_HALTED))
        cb_put(t, PI_RI_EMIT, pc, value);
}

PI_EXPORT void __perfinst_ri_emit(uint64_t value)
{
    emit(value, (uint64_t)(uintptr_t)__builtin_return_address(0));
}

/* ---- the control instructions -------------------------------------------- */

PI_EXPORT void perfinst_ri_emit(uint64_t value)
{
    emit(value, (uint64_t)(uintptr_t)__builtin_return_address(0));
}

PI_EXPORT void perfinst_ri_next(void)
{
    struct ri_thread *t = thread_state();
    if (t && t->on && !(t->c.flags & PERFINST_RI_HALTED)) {
        budget_sync(t, 0);
        t->next_directed = 1;
        budget_arm(t);
    }
}

static int check(const struct perfinst_ri_controls *c)
{
    if (c->rgs < PI_RI_RGS_MIN || c->rgs > PI_RI_RGS_MAX || c->mode > PERFINST_RI_M_NONE)
        return -1;
    if (c->cb_size && (c->cb_size < 2 || c->cb_size > 256))
        return -1;
    if (c->roa) {
        uint64_t g = PI_RI_GROUP_BYTES(c->rgs);
        if (c->rla < c->roa || c->rla - c->roa + 1 < g || c->roa % 16 ||
            c->rca < c->roa || c->rca > c->rla + 1 || (c->rca - c->roa) % g)
            return -1;
    }
    return 0;
}

static void rewind_buffer(struct ri_thread *t)
{
    t->c.rca = t->c.roa;
    t->begin_cpu = -1;
    t->c.flags &= ~(PERFINST_RI_HALTED | PERFINST_RI_G | PERFINST_RI_L);
}

PI_EXPORT int perfinst_ri_load(const struct perfinst_ri_controls *in)
{
    struct ri_thread *t = thread_state();
    if (!t) {
        errno = ENOMEM;
        return -1;
    }
    budget_sync(t, 0);
    /* what was stored so far goes to the trace first */
    if (t->valid)
        drain(t, 0);
    if (check(in)) {
        t->valid = 0;
        budget_arm(t);
        errno = EINVAL;
        return -1;
    }
    struct perfinst_ri_controls c = *in;
    if (!c.cb_size)
        c.cb_size = RI_DEFAULT_CB;
    if (!c.roa) {
        if (!t->own_buf || t->own_size != ri.buf_size) {
            free(t->own_buf);
            t->own_size = ri.buf_size;
            t->own_buf = aligned_alloc(4096, (t->own_size + 4095) & ~(size_t)4095);
            if (!t->own_buf) {
                t->own_size = 0;
                t->valid = 0;
                return -1;
            }
        }
        c.roa = c.rca = (uint64_t)(uintptr_t)t->own_buf;
        c.rla = c.roa + t->own_size - 1;
    }
    if (c.cb_size != t->cb_size || !t->cb) {
        struct ri_cb_entry *cb = calloc(c.cb_size, sizeof *cb);
        if (!cb) {
            t->valid = 0;
            return -1;
        }
        free(t->cb);
        t->cb = cb;
        t->cb_size = c.cb_size;
    }
    t->cb_next = t->cb_count = 0;
    if (!c.sf)
        c.sf = 1;
    if (!c.rsic)
        c.rsic = c.sf;
    c.flags &= ~(PERFINST_RI_HALTED | PERFINST_RI_L);
    t->c = c;
    t->begin_cpu = -1;
    t->deadline = __rdtsc() + c.rsic;
    t->valid = 1;
    t->altered = 1;
    t->interval_fixed = 1;
    budget_arm(t);
    return 0;
}

PI_EXPORT int perfinst_ri_modify(const struct perfinst_ri_controls *in, uint32_t what)
{
    struct ri_thread *t = thread_state();
    if (!t || !t->valid) {
        errno = EINVAL;
        return -1;
    }
    budget_sync(t, 0);
    struct perfinst_ri_controls c = t->c;
    if (what & PERFINST_RI_SET_BUFFER)
        c.roa = in->roa, c.rla = in->rla, c.rca = in->rca;
    if (what & PERFINST_RI_SET_RCA)
        c.rca = in->rca;
    if (what & PERFINST_RI_SET_SF)
        c.sf = in->sf ? in->sf : 1, c.rsic = in->rsic ? in->rsic : c.sf, c.mode = in->mode;
    if (what & PERFINST_RI_SET_FLAGS)
        c.flags = (in->flags & ~(PERFINST_RI_HALTED | PERFINST_RI_G | PERFINST_RI_L)) |
                  (c.flags & (PERFINST_RI_HALTED | PERFINST_RI_G | PERFINST_RI_L)),
        c.migrations = in->migrations;
    if ((what & PERFINST_RI_SET_RGS) && in->rgs != c.rgs) {
        c.rgs = in->rgs;
        c.rca = c.roa;  /* the groups in the buffer have the old size */
    }
    if (check(&c)) {
        budget_arm(t);
        errno = EINVAL;
        return -1;
    }
    int rewound = c.rca == c.roa && t->c.rca != t->c.roa;
    if (rewound || (what & PERFINST_RI_SET_BUFFER) || c.rgs != t->c.rgs)
        drain(t, 0);
    t->c = c;
    if (c.rca == c.roa)
        rewind_buffer(t); /* RCA = ROA: a new BEGIN group, halt cleared */
    if (what & PERFINST_RI_SET_SF) {
        t->deadline = __rdtsc() + c.rsic;
        t->interval_fixed = 1;
    }
    t->altered = 1;
    budget_arm(t);
    return 0;
}

PI_EXPORT void perfinst_ri_store(struct perfinst_ri_controls *out)
{
    struct ri_thread *t = thread_state();
    if (t) {
        budget_sync(t, 0);
        *out = t->c;
        budget_arm(t);
    } else
        memset(out, 0, sizeof *out);
}

PI_EXPORT int perfinst_ri_test(void)
{
    struct ri_thread *t = thread_state();
    if (!t || !t->valid)
        return 0;
    int r = t->altered ? 2 : 1;
    t->altered = 0;
    return r;
}

PI_EXPORT void perfinst_ri_on(void)
{
    struct ri_thread *t = thread_state();
    if (t && t->valid && !t->on) {
        budget_sync(t, 0);
        t->on = 1;
        /* the countdown starts when RI goes from off to on */
        t->deadline = __rdtsc() + t->c.rsic;
        budget_arm(t);
    }
}

PI_EXPORT void perfinst_ri_off(void)
{
    struct ri_thread *t = thread_state();
    if (t && t->on) {
        budget_sync(t, 0);
        t->on = 0;
        t->cb_next = t->cb_count = 0; /* turning RI off purges the collection buffer */
        budget_arm(t);
    }
}

PI_EXPORT perfinst_ri_handler perfinst_ri_set_handler(perfinst_ri_handler h)
{
    return __atomic_exchange_n(&ri.handler, h, __ATOMIC_ACQ_REL);
}

PI_EXPORT void perfinst_ri_drain(void)
{
    struct ri_thread *t = thread_state();
    if (t && t->valid)
        drain(t, 0);
}

/* A thread ends: its stored groups go to the list, its state is reused. */
static void thread_gone(void *p)
{
    struct ri_thread *t = p;
    if (t->valid)
        drain(t, PI_RIB_FINAL);
    ri_self = NULL;
    t->on = t->valid = 0;
    PI_STORE(&t->used, 0);
}

/* ---- the trace ------------------------------------------------------------ */

void pi_ri_write(struct pi_rec_writer *w)
{
    if (!ri.chunks_tail)
        return; /* never used */
    for (struct ri_chunk *ch = PI_LOAD(&ri.chunks); ch; ch = PI_LOAD(&ch->next)) {
        w->begin(PI_REC_RI);
        w->put(&ch->hdr, sizeof ch->hdr);
        w->put(ch->data, (size_t)ch->hdr.ngroups * PI_RI_GROUP_BYTES(ch->hdr.rgs));
        w->end();
    }
    /* live threads: what their buffers hold now */
    for (struct ri_thread *t = PI_LOAD(&ri.threads); t; t = t->next) {
        if (!PI_LOAD(&t->used) || !t->valid ||
            (t->c.rca <= t->c.roa && !t->suppressed && !t->lost))
            continue;
        struct pi_rec_ri h = {.tid = (uint32_t)t->tid, .seq = t->seq, .rgs = t->c.rgs,
                              .suppressed = t->suppressed, .lost = t->lost};
        h.ngroups = (uint32_t)((t->c.rca - t->c.roa) / PI_RI_GROUP_BYTES(t->c.rgs));
        h.flags = (t->c.flags & PERFINST_RI_HALTED ? PI_RIB_HALTED : 0) |
                  (t->c.flags & PERFINST_RI_L ? PI_RIB_STOPPED : 0);
        w->begin(PI_REC_RI);
        w->put(&h, sizeof h);
        w->put((void *)(uintptr_t)t->c.roa, (size_t)h.ngroups * PI_RI_GROUP_BYTES(h.rgs));
        w->end();
    }
}
