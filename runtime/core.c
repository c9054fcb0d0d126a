/* core.c — start-up, the environment, unit registration, the mode register,
 * fork and the exit-time trace.
 *
 * Plugin-generated code calls, from each instrumented unit's constructor,
 *
 *     __perfinst_register_unit2(PI_ABI_VERSION, UNIT_ID, N, tls_get, &mode_word,
 *                               fnon, nfuncs, jumpinfo_start, jumpinfo_stop);
 *
 * (objects of earlier plugins: __perfinst_register_unit, then
 * __perfinst_register_functions and __perfinst_register_jumps) and from its
 * destructor __perfinst_unregister_unit(UNIT_ID, tls_get).  The
 * counters themselves are the unit's `static __thread uint64_t ctr[N]`,
 * incremented inline; this file only learns where they are and when to add
 * them into the unit's totals (docs/runtime.md).
 */
#include "runtime.h"

#include <immintrin.h>
#include "env.h"
#include "pifd.h"

#include <elf.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/single_threaded.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The configuration a process in secure execution reads (make SYSCONFDIR=). */
#ifndef PI_SECURE_CONF
#define PI_SECURE_CONF "/etc/perfinst.conf"
#endif


struct pi_state pi = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .mode = 1,
};
static pthread_once_t pi_once = PTHREAD_ONCE_INIT;
static int pi_ready;

uint64_t pi_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void pi_start_clock(void)
{
    pi.start_ns = pi_now_ns();
    pi.start_mono_ns = mono_ns();
}

/* The process's start time of day plus the CLOCK_MONOTONIC time since:
 * times that keep the order of what they stamp when the clock is stepped
 * (NTP, date -s) and still read as times of day (report groups' TOD,
 * which pmopt export --chrome places relative to start_ns). */
uint64_t pi_tod_ns(void)
{
    return pi.start_ns + (mono_ns() - pi.start_mono_ns);
}

/* ---- the environment (PERFINST_*, read once) ----------------------------- */

static void parse_env(void)
{
    const char *v;

    v = secure_getenv("PERFINST_OUT");
    if (v && *v)
        pi.out = strdup(v);

    v = secure_getenv("PERFINST_MODE");
    if (v)
        pi_env_mode(v, &pi.mode_off_env);
    pi.mode = !pi.mode_off_env;
    __atomic_store_n(&__perfinst_on, pi.mode, __ATOMIC_RELAXED);

    v = secure_getenv("PERFINST_ICALL");
    if (v)
        pi_env_icall(v, &pi.icall_exact);
    v = secure_getenv("PERFINST_LINE_SIZE");
    if (v)
        pi_env_line_size(v, &pi.line_size);
    v = secure_getenv("PERFINST_VERBOSE");
    if (v)
        pi_env_verbose(v, &pi.verbose);
    v = secure_getenv("PERFINST_FLUSH");
    if (v)
        pi_env_flush(v, &pi.flush_s);
}

/* ---- secure execution --------------------------------------------------------- */

/* A setuid, setgid or file-capability program (AT_SECURE) is run by someone
 * the program's owner does not trust: the caller chooses its working
 * directory, argv[0], umask and environment (PERFINST_* are ignored:
 * secure_getenv).  It writes no trace at all unless PI_SECURE_CONF — a
 * regular file owned by root and writable by nobody else — names a
 * directory for its traces with a line "trace-dir = /ABSOLUTE/DIR", that
 * directory being owned by root and writable by nobody else.  Its traces
 * are then DIR/perfinst.<executable's name>.<pid>.pit, mode 0600 (a umask
 * can only narrow it).  A configuration that exists but fails a check is
 * said once on stderr; no configuration is no trace, and nothing said. */
static int root_only(const struct stat *st)
{
    return st->st_uid == 0 && !(st->st_mode & (S_IWGRP | S_IWOTH));
}

static void secure_conf(void)
{
    const char *conf = PI_SECURE_CONF;
    int fd = open(conf, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return; /* no configuration: no trace */
    struct stat st;
    char text[4096];
    ssize_t n = 0;
    const char *why = NULL;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode))
        why = "not a regular file";
    else if (!root_only(&st))
        why = "not owned by root, or writable by others";
    else if ((n = read(fd, text, sizeof text - 1)) < 0 || n == sizeof text - 1)
        why = "unreadable, or longer than 4095 bytes";
    close(fd);
    text[why ? 0 : n] = 0;
    char *dir = NULL;
    for (char *line = text, *next; !why && *line; line = next) {
        next = line + strcspn(line, "\n");
        if (*next)
            *next++ = 0;
        line += strspn(line, " \t");
        if (!*line || *line == '#')
            continue;
        size_t k = strcspn(line, " \t=");
        char *v = line + k + strspn(line + k, " \t");
        if (k != 9 || strncmp(line, "trace-dir", 9) || *v != '=') {
            why = "a line is not 'trace-dir = /DIR'";
            break;
        }
        v++;
        v += strspn(v, " \t");
        size_t len = strlen(v);
        while (len && (v[len - 1] == ' ' || v[len - 1] == '\t'))
            v[--len] = 0;
        struct stat ds;
        if (*v != '/')
            why = "trace-dir is not an absolute name";
        else if (lstat(v, &ds) || !S_ISDIR(ds.st_mode))
            why = "trace-dir is not a directory";
        else if (!root_only(&ds))
            why = "trace-dir is not owned by root, or writable by others";
        else
            dir = v;
    }
    if (why) {
        pi_say("perfinst: ", conf, ": ", why, "; no trace (secure execution)\n", NULL);
        return;
    }
    if (dir)
        pi.secure_dir = strdup(dir);
}

/* ---- PERFINST_FLUSH: a partial trace every so many seconds ---------------- */

/* A thread of the runtime's own (not one of the program's: it is not in
 * the thread list and runs no handler of the program's) writes a partial
 * trace (PI_TF_PARTIAL) every pi.flush_s seconds, so that a process killed
 * with SIGKILL keeps most of its counts.  It stops once the exit-time
 * trace is out. */
static void *flusher_main(void *arg)
{
    (void)arg;
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    for (;;) {
        next.tv_sec += pi.flush_s;
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
            ;
        pthread_mutex_lock(&pi.lock);
        int done = pi.exit_written;
        if (!done && pi_trace_wanted()) {
            pi_write_lock();
            pi_trace_write(NULL, NULL, 0, 0);
            pi_write_unlock();
        }
        pthread_mutex_unlock(&pi.lock);
        if (done)
            return NULL;
    }
}

static void start_flusher(void)
{
    pthread_t th;
    if (!pi.flush_s)
        return;
    if (pi_thread_create_raw(&th, flusher_main, NULL)) {
        pi_say("perfinst: PERFINST_FLUSH: cannot start the flushing thread; no periodic flush\n",
               NULL);
        return;
    }
    pthread_detach(th);
}

/* ---- the process: pid, argv, names ----------------------------------------- */

static char *read_link(const char *path)
{
    for (size_t cap = 256; cap <= 65536; cap *= 2) {
        char *buf = malloc(cap);
        if (!buf)
            return NULL;
        ssize_t n = readlink(path, buf, cap);
        if (n >= 0 && (size_t)n < cap) {
            buf[n] = 0;
            return buf;
        }
        free(buf);
        if (n < 0)
            return NULL;
    }
    return NULL;
}

/* /proc/self/cmdline, whole: NUL-terminated arguments. */
static char *read_cmdline(size_t *len)
{
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    char *buf = pi_read_fd(fd, len);
    close(fd);
    return buf;
}

/* PROCESS record strings: the executable's path, then argv[1..]. */
static void read_process(void)
{
    pi.pid = getpid();
    pi.ppid = getppid();
    pi_start_clock();
    pi.exe = read_link("/proc/self/exe");
    if (!pi.exe)
        pi.exe = "";
    char cwd[4096]; /* (not getcwd(NULL, 0): libc's malloc, runtime.h) */
    pi.cwd = getcwd(cwd, sizeof cwd) ? strdup(cwd) : NULL;

    size_t clen = 0;
    char *cmd = read_cmdline(&clen);
    if (clen && cmd[clen - 1])
        clen = 0; /* not NUL-terminated: do not trust it */
    size_t a0 = clen ? strlen(cmd) + 1 : 0, exelen = strlen(pi.exe) + 1;
    pi.args = malloc(exelen + clen - a0);
    if (pi.args) {
        memcpy(pi.args, pi.exe, exelen);
        if (clen > a0)
            memcpy(pi.args + exelen, cmd + a0, clen - a0);
        pi.args_len = exelen + clen - a0;
        for (size_t i = 0; i < pi.args_len; i++)
            pi.argc += pi.args[i] == 0;
    }

    /* Trace names use argv[0]'s basename (what the user typed), else the
     * exe's; in secure execution the exe's (the caller chose argv[0]). */
    const char *name = clen && *cmd && !pi.secure ? cmd : pi.exe;
    const char *slash = strrchr(name, '/');
    pi.prog = strdup(slash ? slash + 1 : name);
    if (!pi.prog || !*pi.prog)
        pi.prog = "program";
    free(cmd);
}

/* ---- fork --------------------------------------------------------------------- */

/* The forking thread's signal mask, saved while fork() runs: signals stay
 * blocked from fork_prepare until each side's handler has put the
 * runtime's state back.  A signal the child got before fork_child had run
 * (Redis kills a fresh BGSAVE child with SIGUSR1 at once) met the trace
 * writer's lock still held by the parent's thread: the child's handler
 * waited for it forever, at 100% CPU; a little later, it wrote the
 * parent's counts.  Saved under pi.lock: two threads forking at once take
 * turns. */
static sigset_t fork_mask;

static void fork_prepare(void)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    pthread_mutex_lock(&pi.lock);
    fork_mask = old;
    pi_write_lock();
}

static void fork_parent(void)
{
    sigset_t old = fork_mask;
    pi_write_unlock();
    pthread_mutex_unlock(&pi.lock);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* The child starts a trace of its own: nothing counted before the fork is
 * its, and only the forking thread came along. */
static void fork_child(void)
{
    pthread_mutex_init(&pi.lock, NULL);
    pi_trace_after_fork();
    pi.pid = getpid();
    pi.ppid = getppid();
    pi_start_clock();
    pi.threads_flushed = 0;
    pi.exit_written = 0;
    for (struct pi_unit_rt *u = pi.units; u; u = u->next) {
        memset(u->totals, 0, u->ncounters * sizeof *u->totals);
        u->counted = 0;
        if (u->tls_get)
            memset(u->tls_get(), 0, u->ncounters * sizeof(uint64_t));
    }
    pi_indicators_after_fork();
    pi_icall_after_fork();
    pi_thread_after_fork_locked();
    start_flusher(); /* threads do not survive fork */
    pthread_sigmask(SIG_SETMASK, &fork_mask, NULL); /* (a pending signal is taken now) */
}

/* ---- start-up and exit ------------------------------------------------------------ */

static void init_once(void)
{
    pi.secure = getauxval(AT_SECURE) != 0;
    if (pi.secure)
        secure_conf();
    parse_env();
    if (!pi.line_size)
        pi.line_size = pi_query_line_size();
    read_process();
    pi_indicators_init();
    pi_overlay_init();
    pi_armed_init();
    pi_perf_init();
    pthread_atfork(fork_prepare, fork_parent, fork_child);
    pi_thread_setup();
    pi_imports_setup(); /* (before any thread of the program's: gotpatch.c) */
    pi_signal_setup();
    __atomic_store_n(&pi_ready, 1, __ATOMIC_RELEASE);
    pi_sample_init(); /* after pi_ready: it may start threads */
    start_flusher();
}

void pi_init(void)
{
    if (!__atomic_load_n(&pi_ready, __ATOMIC_ACQUIRE))
        pthread_once(&pi_once, init_once);
}

/* Whether there is anything to write: units registered, or records of the
 * samplers or the sharing detector (async-signal-safe). */
int pi_trace_wanted(void)
{
    return PI_LOAD(&pi.nunits) || pi_sample_active() || pi_sharing_active();
}

__attribute__((constructor(101))) static void pi_ctor(void)
{
    pi_init();
}

/* Priority 101 runs after the default-priority destructors of the same
 * object, so the units of a program linked with libperfinst.a have flushed
 * first; with libperfinst.so the program's destructors run before ours. */
__attribute__((destructor(101))) static void pi_dtor(void)
{
    if (!__atomic_load_n(&pi_ready, __ATOMIC_ACQUIRE) || !pi_trace_wanted())
        return;
    pthread_mutex_lock(&pi.lock);
    pi_overlay_report_unmatched_locked();
    /* The exiting thread's counts go into the totals now, so a library
     * finalised after us finds nothing left to flush unless it counted more. */
    pi_flush_self_locked();
    pi_write_lock();
    pi_trace_write(NULL, NULL, 0, 1);
    pi.exit_written = 1;
    pi_write_unlock();
    pthread_mutex_unlock(&pi.lock);
}

/* ---- modules -------------------------------------------------------------------------- */

struct module_probe {
    uintptr_t addr;
    int found;
    struct pi_module m;
    const char *name;
};

static int probe_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    struct module_probe *pr = data;
    int hit = 0;
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t s = info->dlpi_addr + ph->p_vaddr, e = s + ph->p_memsz;
        hit |= pr->addr >= s && pr->addr < e;
        lo = s < lo ? s : lo;
        hi = e > hi ? e : hi;
    }
    if (!hit)
        return 0;
    pr->found = 1;
    pr->m.bias = info->dlpi_addr;
    pr->m.lo = lo;
    pr->m.hi = hi;
    pr->name = info->dlpi_name ? info->dlpi_name : "";
    pr->m.tls_modid = info->dlpi_tls_modid;
    for (int i = 0; i < info->dlpi_phnum && !pr->m.build_id_len; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_NOTE)
            pr->m.build_id_len = pi_note_build_id(
                (const unsigned char *)(info->dlpi_addr + ph->p_vaddr), ph->p_filesz,
                ph->p_align, pr->m.build_id);
    }
    return 1;
}

/* The module holding code address addr: a live one we know, a dead one with
 * the same identity (dlopen'ed again), or a new record. */
static struct pi_module *module_for_locked(uintptr_t addr)
{
    struct pi_module *m;
    for (m = pi.modules; m; m = m->next)
        if (m->live && addr >= m->lo && addr < m->hi)
            return m;

    struct module_probe pr = {.addr = addr};
    dl_iterate_phdr(probe_cb, &pr);
    int main_prog = pr.found && !*pr.name;
    /* dlopen("./lib.so") leaves a relative name: make it absolute now,
     * before the program changes directory. */
    char real[4096]; /* (not realpath(NAME, NULL): libc's malloc, runtime.h) */
    char *path = !pr.found ? strdup("") : main_prog ? strdup(pi.exe)
               : realpath(pr.name, real) ? strdup(real) : NULL;
    if (!path && pr.found && !main_prog)
        path = strdup(pr.name);
    if (!path)
        return NULL;

    for (m = pi.modules; m; m = m->next)
        if (!m->live && m->bias == pr.m.bias && m->lo == pr.m.lo && !strcmp(m->path, path) &&
            m->build_id_len == pr.m.build_id_len &&
            !memcmp(m->build_id, pr.m.build_id, pr.m.build_id_len)) {
            free(path);
            m->tls_modid = pr.m.tls_modid; /* (its slot went with the last load) */
            return m; /* the same library, dlopen'ed again at the same place */
        }

    m = calloc(1, sizeof *m);
    if (!m) {
        free(path);
        return NULL;
    }
    *m = pr.m;
    m->path = path;
    m->file = main_prog ? "/proc/self/exe" : m->path;
    m->index = pi.nmodules++;
    if (pi.modules_tail)
        PI_STORE(&pi.modules_tail->next, m);
    else
        PI_STORE(&pi.modules, m);
    pi.modules_tail = m;
    return m;
}

/* The sharing records name code by address: its module must be listed. */
void pi_note_module_locked(uintptr_t pc)
{
    for (struct pi_module *m = pi.modules; m; m = m->next)
        if (pc >= m->lo && pc < m->hi)
            return;
    module_for_locked(pc);
}

/* ---- registration ------------------------------------------------------------------- */

/* eight counters at q ORed into one register; whether a register is 0 */
static inline __m128i or4(const __m128i *q)
{
    return _mm_or_si128(_mm_or_si128(_mm_loadu_si128(q), _mm_loadu_si128(q + 1)),
                        _mm_or_si128(_mm_loadu_si128(q + 2), _mm_loadu_si128(q + 3)));
}

static inline int zero128(__m128i x)
{
    return _mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_setzero_si128())) == 0xffff;
}

int pi_all_zero_sse2(const volatile uint64_t *p, uint32_t n)
{
    const __m128i *q = (const __m128i *)p;
    if (n < 8) {
        for (uint32_t i = 0; i < n; i++)
            if (p[i])
                return 0;
        return 1;
    }
    if (n < 16) /* two eights, overlapping */
        return zero128(_mm_or_si128(or4(q), or4((const __m128i *)(p + n - 8))));
    uint32_t i = 0;
    for (; i + 16 <= n; i += 16, q += 8)
        if (!zero128(_mm_or_si128(or4(q), or4(q + 4))))
            return 0;
    /* the rest: the last sixteen, overlapping what was tested (a unit's
       tail was an eight and up to seven one by one: BusyBox's units have
       77 counters on average) */
    q = (const __m128i *)(p + n - 16);
    return i == n || zero128(_mm_or_si128(or4(q), or4(q + 4)));
}

/* sixteen counters at q ORed into one register (AVX2) */
__attribute__((target("avx2"))) static inline __m256i or16(const __m256i *q)
{
    return _mm256_or_si256(_mm256_or_si256(_mm256_loadu_si256(q), _mm256_loadu_si256(q + 1)),
                           _mm256_or_si256(_mm256_loadu_si256(q + 2), _mm256_loadu_si256(q + 3)));
}

/* n >= 16 counters: 32 a step, the rest as the last 32 (or, fewer than 32
 * in all, the first and last sixteen) overlapping; a third of SSE2's
 * instructions (its memory operands need no alignment) */
__attribute__((target("avx2"))) static int all_zero_avx2(const volatile uint64_t *p, uint32_t n)
{
    const __m256i *q = (const __m256i *)p;
    __m256i x;
    if (n < 32) {
        x = _mm256_or_si256(or16(q), or16((const __m256i *)(p + n - 16)));
        return _mm256_testz_si256(x, x);
    }
    uint32_t i = 0;
    for (; i + 32 <= n; i += 32, q += 8) {
        x = _mm256_or_si256(or16(q), or16(q + 4));
        if (!_mm256_testz_si256(x, x))
            return 0;
    }
    if (i == n)
        return 1;
    q = (const __m256i *)(p + n - 32);
    x = _mm256_or_si256(or16(q), or16(q + 4));
    return _mm256_testz_si256(x, x);
}

int pi_all_zero(const volatile uint64_t *p, uint32_t n)
{
    static int avx2 = -1; /* (a race of two first calls writes the same value) */
    if (n >= 16) {
        int has = __atomic_load_n(&avx2, __ATOMIC_RELAXED);
        if (has < 0) {
            __builtin_cpu_init();
            has = __builtin_cpu_supports("avx2") != 0;
            __atomic_store_n(&avx2, has, __ATOMIC_RELAXED);
        }
        if (has)
            return all_zero_avx2(p, n);
    }
    return pi_all_zero_sse2(p, n);
}

/* pi_flush_add of counters not all 0 (out of line: a unit that counted
 * nothing returns without saving a register) */
static __attribute__((noinline)) uint64_t flush_counted(struct pi_unit_rt *u, uint64_t *p)
{
    uint64_t sum = 0;
    uint32_t n = u->ncounters;
    if (!__atomic_load_n(&u->counted, __ATOMIC_RELAXED)) /* (a spill sets it without the lock) */
        PI_STORE(&u->counted, 1); /* (before the totals: a signal handler's trace reads it first) */
    for (uint32_t b = 0; b < n; b += 64) {
        uint32_t end = n - b < 64 ? n : b + 64;
        if (pi_all_zero(p + b, end - b))
            continue;
        for (uint32_t i = b; i < end; i += 8) {
            uint32_t k = end - i < 8 ? end - i : 8;
            if (pi_all_zero(p + i, k))
                continue;
            for (uint32_t j = i; j < i + k; j++) {
                uint64_t v = p[j];
                if (v) {
                    __atomic_fetch_add(&u->totals[j], v, __ATOMIC_RELAXED);
                    p[j] = 0;
                    sum += v;
                }
            }
        }
    }
    return sum;
}

uint64_t pi_flush_add(struct pi_unit_rt *u, uint64_t *p)
{
    /* most counters of a big program are 0 at its exit (every one in the
       off mode), and most units counted nothing: the unit's counters
       tested at once, then 64 at a time, then the eights of a block that
       counted (nginx's 118 units, 1,300 instructions a unit one by one) */
    return pi_all_zero(p, u->ncounters) ? 0 : flush_counted(u, p);
}

/* Each module's span of its units' counters in the static TLS block (the
 * same offsets from every thread's pointer), made again when units came or
 * went, with those units sorted by offset; where the spans are mostly
 * counters (not the program's own large thread-local data between them),
 * a thread's flush tests each span whole, then 512 bytes at a time, and
 * flushes only the units in chunks that counted, and the units outside
 * the spans.  A thread ending flushes three times (thread.c
 * key_destructor: other keys' destructors may count after the first), with
 * every counter 0 after the first, and a thread counts in a few units: a
 * program of 200 units paid 8,000 instructions a flush, one unit at a
 * time. */
#define SPAN_CHUNK 512
static uint32_t spans_units = UINT32_MAX, spans_gen, units_gen; /* (units_gen: units unregistered) */
static struct pi_unit_rt **spanned, **outside;                   /* the live units, in a span by offset, or not */
static uint32_t nspanned, noutside;

static int by_offset(const void *a, const void *b)
{
    intptr_t x = (*(struct pi_unit_rt *const *)a)->tls_off, y = (*(struct pi_unit_rt *const *)b)->tls_off;
    return (x > y) - (x < y);
}

/* (0: no memory; every unit flushed one at a time) */
static int flush_spans_locked(void)
{
    if (spans_units == pi.nunits && spans_gen == units_gen)
        return spanned != NULL;
    spans_units = pi.nunits;
    spans_gen = units_gen;
    free(spanned);
    free(outside);
    spanned = calloc(pi.nunits + 1, sizeof *spanned);
    outside = calloc(pi.nunits + 1, sizeof *outside);
    nspanned = noutside = 0;
    if (!spanned || !outside) {
        free(spanned);
        free(outside);
        spanned = outside = NULL;
        return 0;
    }
    for (struct pi_module *m = pi.modules; m; m = m->next)
        m->tls_lo = m->tls_hi = 0;
    uint64_t bytes = 0, span = 0;
    for (struct pi_unit_rt *u = pi.units; u; u = u->next) {
        intptr_t off = PI_LOAD(&u->tls_off);
        if (!u->tls_get)
            continue;
        if (!off || !u->ncounters) {
            outside[noutside++] = u;
            continue;
        }
        struct pi_module *m = u->module;
        intptr_t end = off + (intptr_t)u->ncounters * 8;
        if (m->tls_lo == m->tls_hi)
            m->tls_lo = off, m->tls_hi = end;
        m->tls_lo = off < m->tls_lo ? off : m->tls_lo;
        m->tls_hi = end > m->tls_hi ? end : m->tls_hi;
        bytes += (uint64_t)u->ncounters * 8;
        spanned[nspanned++] = u;
    }
    for (struct pi_module *m = pi.modules; m; m = m->next)
        span += (uint64_t)(m->tls_hi - m->tls_lo);
    /* (a span twice the counters' size is not tested: the program's
       thread-local data between them) */
    for (struct pi_module *m = pi.modules; m && span > 2 * bytes + 4096; m = m->next)
        m->tls_lo = m->tls_hi = 0;
    /* the units of a module whose span is not tested go outside */
    uint32_t k = 0;
    for (uint32_t i = 0; i < nspanned; i++)
        if (spanned[i]->module->tls_lo != spanned[i]->module->tls_hi)
            spanned[k++] = spanned[i];
        else
            outside[noutside++] = spanned[i];
    nspanned = k;
    qsort(spanned, nspanned, sizeof *spanned, by_offset);
    return 1;
}

/* The calling thread's counters of every live unit into the totals */
void pi_flush_self_locked(void)
{
    if (!flush_spans_locked()) {
        for (struct pi_unit_rt *u = pi.units; u; u = u->next)
            if (u->tls_get)
                pi_flush_add(u, u->tls_get());
        return;
    }
    for (struct pi_module *m = pi.modules; m; m = m->next) {
        if (m->tls_lo == m->tls_hi)
            continue;
        const uint64_t *p = pi_tp_address(m->tls_lo);
        size_t n = (size_t)(m->tls_hi - m->tls_lo) / 8, per = SPAN_CHUNK / 8;
        if (pi_all_zero(p, (uint32_t)n))
            continue; /* (the span whole first: all 0 in a thread's later rounds) */
        for (size_t c = 0; c * per < n; c++) {
            if (pi_all_zero(p + c * per, (uint32_t)(n - c * per < per ? n - c * per : per)))
                continue;
            /* the units with counters in the chunk (one over two chunks
               may come twice: its counters are 0 the second time) */
            intptr_t lo = m->tls_lo + (intptr_t)(c * SPAN_CHUNK), hi = lo + SPAN_CHUNK;
            uint32_t a = 0, b = nspanned;
            while (a < b) { /* the first whose counters end after lo */
                uint32_t h = a + (b - a) / 2;
                if (spanned[h]->tls_off + (intptr_t)spanned[h]->ncounters * 8 <= lo)
                    a = h + 1;
                else
                    b = h;
            }
            for (; a < nspanned && spanned[a]->tls_off < hi; a++)
                if (spanned[a]->tls_get)
                    pi_flush_add(spanned[a], (uint64_t *)pi_tp_address(spanned[a]->tls_off));
        }
    }
    for (uint32_t i = 0; i < noutside; i++) {
        struct pi_unit_rt *u = outside[i];
        intptr_t off = PI_LOAD(&u->tls_off);
        if (u->tls_get)
            pi_flush_add(u, off ? (uint64_t *)pi_tp_address(off) : u->tls_get());
    }
}

/* The units by id: chains in registration order, so that each unit's
 * constructor finds its own registration without walking every unit's
 * (three walks a unit made a program of N units pay N^2 at its start;
 * pi.lock held). */
#define UNIT_BUCKETS 1024
static struct pi_unit_rt *units_by_id[UNIT_BUCKETS];

static struct pi_unit_rt **id_chain(uint64_t unit_id)
{
    return &units_by_id[(unit_id * 0x9e3779b97f4a7c15ull) >> 54];
}

/* A unit's record and its totals, zeroed, carved from chunks that are
 * never freed (nor are the units): a unit's two allocations, each under
 * the allocator's lock, were a sixth of `busybox true`'s 1.2 M
 * instructions (pi.lock held). */
#define UNIT_CHUNK (256u << 10)
static void *unit_mem_locked(size_t bytes)
{
    static char *next, *limit;
    _Static_assert(sizeof(struct pi_unit_rt) % sizeof(uint64_t) == 0, "the totals follow the record");
    bytes = (bytes + 15) & ~(size_t)15;
    if (bytes > UNIT_CHUNK / 8)
        return calloc(1, bytes);
    if ((size_t)(limit - next) < bytes) {
        char *c = calloc(1, UNIT_CHUNK); /* (a mapping of its own: zero, not cleared) */
        if (!c)
            return NULL;
        next = c;
        limit = c + UNIT_CHUNK;
    }
    void *p = next;
    next += bytes;
    return p;
}

/* A unit built for another ABI version: said once for the whole process. */
static int abi_refused(uint32_t abi_version, uint64_t unit_id)
{
    if (abi_version == PI_ABI_VERSION)
        return 0;
    static int said;
    char v[24], id[24];
    if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
        pi_say("perfinst: unit 0x", pi_fmt_unit(id, unit_id), " was built for ABI version ",
               pi_fmt_u64(v, abi_version, 10), " but this libperfinst speaks version 1",
               ": its counters are ignored (rebuild it with the matching plugin)\n", NULL);
    return 1;
}

/* The unit's registration (pi.lock held): its record, or NULL when it is
 * not counted (out of memory, said).  BLOCK: the calling thread's counters
 * (its tls_counters(), called before the lock); *LIB set when the unit is a
 * library's, whose static TLS offset library_tls_off finds after the
 * lock. */
static struct pi_unit_rt *register_locked(uint64_t unit_id, uint32_t ncounters,
                                          uint64_t *(*tls_counters)(void), int *mode,
                                          uint64_t *block, int *lib)
{
    struct pi_unit_rt *u;
    *lib = 0;
    /* (a unit's tls_counters is its own: the same tls_counters is the same id) */
    for (u = *id_chain(unit_id); u; u = u->id_next)
        if (u->tls_get == tls_counters)
            return u; /* registered twice: keep the first */
    struct pi_module *m = module_for_locked((uintptr_t)tls_counters);
    if (!m)
        goto oom;
    if (!m->live)
        pi_imports_rescan_locked(); /* a module's first unit: what was loaded with it (gotpatch.c) */
    for (u = *id_chain(unit_id); u; u = u->id_next)
        if (!u->tls_get && u->module == m && u->unit_id == unit_id && u->ncounters == ncounters)
            break; /* the same unit, dlopen'ed again: keep adding to its totals */
    if (!u) {
        u = unit_mem_locked(sizeof *u + (size_t)(ncounters ? ncounters : 1) * sizeof *u->totals);
        if (!u)
            goto oom;
        u->unit_id = unit_id;
        u->ncounters = ncounters;
        u->module = m;
        u->totals = (uint64_t *)(u + 1);
        u->index = pi.nunits;
        if (pi.units_tail)
            PI_STORE(&pi.units_tail->next, u);
        else
            PI_STORE(&pi.units, u);
        pi.units_tail = u;
        PI_STORE(&pi.nunits, pi.nunits + 1);
        struct pi_unit_rt **c = id_chain(unit_id);
        while (*c)
            c = &(*c)->id_next;
        *c = u;
    }
    u->mode = mode;
    /* The program's TLS block is static: its counters are at one offset
     * from every thread's pointer.  A library's may be (library_tls_off). */
    *lib = m->file == m->path; /* (the program's is "/proc/self/exe": module_for_locked) */
    PI_STORE(&u->tls_off, *lib ? 0 : pi_tp_offset(block));
    PI_STORE(&u->tls_get, tls_counters);
    PI_STORE(&m->live, m->live + 1);
    __atomic_store_n(mode, pi.mode, __ATOMIC_RELAXED);
    struct pi_thread *self = pi_thread_self_locked();
    if (self)
        pi_slot_set_locked(self, u->index, block);
    return u;
oom:
    pi_say("perfinst: out of memory: a unit is not counted\n", NULL);
    return NULL;
}

/* A library unit's offset from the thread pointer, when its counters lie
 * in the static TLS block.  Outside the lock: the first call looks glibc's
 * TLS layout up with dlsym, which takes the loader's lock; a -fPIC unit's
 * constructor makes the same call next. */
static void library_tls_off(struct pi_unit_rt *u, uint64_t *block, int lib)
{
    intptr_t off;
    if (u && lib && (off = __perfinst_tls_static_offset(block)))
        PI_STORE(&u->tls_off, off);
}

PI_EXPORT void __perfinst_register_unit(uint32_t abi_version, uint64_t unit_id,
                                        uint32_t ncounters, uint64_t *(*tls_counters)(void),
                                        int *mode)
{
    /* (an object of an earlier plugin: its functions and jump slots come
       in calls of their own) */
    __perfinst_register_unit2(abi_version, unit_id, ncounters, tls_counters, mode, NULL, 0, NULL, NULL);
}

/* Each function's switch: the mode register and the overlay together. */
void pi_apply_switches_locked(struct pi_unit_rt *u)
{
    /* without an overlay every switch is the mode: no rule lookup per
       function (BusyBox's 7,913 functions: 110,000 instructions at the
       start of every process) */
    int overlay = pi_overlay_active();
    uint8_t mode = pi.mode != 0, *fnon = u->fnon; /* (not reloaded after each byte's store) */
    uint32_t n = fnon ? u->nfuncs : 0;
    if (mode && overlay)
        for (uint32_t f = 0; f < n; f++)
            __atomic_store_n(&fnon[f], (uint8_t)pi_overlay_on(u->unit_id, f), __ATOMIC_RELAXED);
    else
        for (uint32_t f = 0; f < n; f++)
            __atomic_store_n(&fnon[f], mode, __ATOMIC_RELAXED);
    pi_sync_jumps_locked(u);
}

/* The latest registration of a unit id the runtime took, or NULL (pi.lock
 * held). */
struct pi_unit_rt *pi_unit_of_id_locked(uint64_t unit_id)
{
    struct pi_unit_rt *found = NULL;
    for (struct pi_unit_rt *u = *id_chain(unit_id); u; u = u->id_next)
        if (u->unit_id == unit_id && u->tls_get)
            found = u;
    return found;
}

/* The switches of registered unit u (NULL: the runtime did not take the
 * unit, whose functions then count nothing; pi.lock held). */
static void functions_locked(struct pi_unit_rt *u, uint64_t unit_id, uint8_t *fnon, uint32_t nfuncs)
{
    if (u) {
        u->fnon = fnon;
        u->nfuncs = nfuncs;
        pi_overlay_check_unit(unit_id, nfuncs);
        pi_apply_switches_locked(u);
    } else {
        memset(fnon, 0, nfuncs);
    }
}

/* pi.lock for a unit's start and end, which every unit pays once each
 * (through the program's pthread_mutex_lock, the idle wrapper's: about 170
 * of a unit's 690 instructions): not taken while the process has one
 * thread (glibc's __libc_single_threaded, cleared before a second thread
 * starts), where nothing can race the registration; pi.lock_alone marks
 * the section for a signal handler's counted code in this thread, which
 * would have found pi.lock held by its own thread (icall.c).  Returns
 * whether pi.lock was taken. */
static int units_lock(void)
{
    if (__libc_single_threaded) {
        pi.lock_alone = 1;
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        return 0;
    }
    pthread_mutex_lock(&pi.lock);
    return 1;
}

static void units_unlock(int taken)
{
    if (taken) {
        pthread_mutex_unlock(&pi.lock);
        return;
    }
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    pi.lock_alone = 0;
}

/* Called by the unit's constructor right after __perfinst_register_unit. */
PI_EXPORT void __perfinst_register_functions(uint64_t unit_id, uint8_t *fnon, uint32_t nfuncs)
{
    pi_init();
    if (!fnon)
        return;
    int taken = units_lock();
    functions_locked(pi_unit_of_id_locked(unit_id), unit_id, fnon, nfuncs);
    units_unlock(taken);
}

/* What the three calls above do, under one lock: the constructor of a unit
 * of this plugin's makes this one call (the three cost a unit about 600
 * instructions, BusyBox's 558 units a third of `busybox true`'s; old
 * objects keep theirs). */
PI_EXPORT void __perfinst_register_unit2(uint32_t abi_version, uint64_t unit_id,
                                         uint32_t ncounters, uint64_t *(*tls_counters)(void),
                                         int *mode, uint8_t *fnon, uint32_t nfuncs,
                                         void *jumps_start, void *jumps_stop)
{
    pi_init();
    int counted = !abi_refused(abi_version, unit_id) && tls_counters && mode, lib = 0;
    uint64_t *block = counted ? tls_counters() : NULL;
    int taken = units_lock();
    struct pi_unit_rt *u = NULL;
    if (counted)
        u = register_locked(unit_id, ncounters, tls_counters, mode, block, &lib);
    if (fnon)
        functions_locked(u, unit_id, fnon, nfuncs);
    pi_jumps_register_locked(u, jumps_start, jumps_stop);
    units_unlock(taken);
    library_tls_off(u, block, lib);
}

/* -fPIC, a unit whose counters are not in the static TLS block (a
 * dlopen'ed module): the offset from the thread pointer of the slot where
 * each thread keeps its block of the unit's module (pi_mod_bases), or 0
 * (none left, or no TLS block known).  The unit's constructor stores it in
 * __perfinst_ctr_slot after registering (gcc-plugin/unit.cc); its counting
 * copies then take their counters' offset from the slot, with the unit's
 * own offset in the block (@dtpoff), and call the runtime's stub only
 * where the thread's slot is still 0 (pi_ctr_base_libc fills it). */
PI_EXPORT intptr_t __perfinst_tls_slot(uint64_t unit_id, uint64_t *(*tls_counters)(void))
{
    pi_init();
    int taken = units_lock();
    struct pi_unit_rt *u = pi_unit_of_id_locked(unit_id);
    intptr_t slot = u && u->tls_get == tls_counters && u->module ? pi_mod_base_slot(u->module) : 0;
    units_unlock(taken);
    return slot;
}

/* The unit's module is about to be unmapped (dlclose, or exit): collect what
 * the threads counted in it, and forget where its counters were. */
PI_EXPORT void __perfinst_unregister_unit(uint64_t unit_id, uint64_t *(*tls_counters)(void))
{
    if (!tls_counters)
        return;
    int taken = units_lock();
    struct pi_unit_rt *u;
    for (u = *id_chain(unit_id); u; u = u->id_next)
        if (u->tls_get == tls_counters && u->unit_id == unit_id)
            break;
    if (u) {
        pi_icall_unit_gone(unit_id);
        pi_ctr_base_unit_gone();
        uint64_t *own = tls_counters();
        uint64_t added = pi_flush_add(u, own);
        for (struct pi_thread *t = pi.threads; t; t = t->next) {
            uint64_t *p = pi_thread_block(t, u);
            if (p && p != own && t->used)
                added += pi_flush_add(u, p);
            pi_slot_set_locked(t, u->index, NULL);
        }
        PI_STORE(&u->tls_get, NULL);
        units_gen++;
        u->mode = NULL;
        u->fnon = NULL;
        u->jumps = u->jumps_end = NULL;
        PI_STORE(&u->module->live, u->module->live - 1);
        if (!u->module->live)
            PI_STORE(&u->module->tls_slot, 0); /* never given again: threads keep its bases */
        /* A library finalised after the exit-time trace counted more. */
        if (pi.exit_written && added) {
            pi_write_lock();
            pi_trace_write(NULL, NULL, 0, 1);
            pi_write_unlock();
        }
    }
    units_unlock(taken);
}

/* ---- the mode register ------------------------------------------------------------------ */

/* What plugin-generated code tests at the entry of every instrumented
 * function to choose its counting copy (1) or its clean copy (0); see
 * gcc-plugin/pass-split.cc.  Always 0 or 1. */
PI_EXPORT int __perfinst_on = 1;

static void set_mode(int on)
{
    pi_init();
    pthread_mutex_lock(&pi.lock);
    pi.mode = on;
    __atomic_store_n(&__perfinst_on, on, __ATOMIC_RELAXED);
    for (struct pi_unit_rt *u = pi.units; u; u = u->next) {
        if (u->mode)
            __atomic_store_n(u->mode, on, __ATOMIC_RELAXED);
        pi_apply_switches_locked(u);
    }
    pthread_mutex_unlock(&pi.lock);
}

PI_EXPORT int perfinst_mode(void)
{
    pi_init();
    return __atomic_load_n(&pi.mode, __ATOMIC_RELAXED);
}

PI_EXPORT void perfinst_enable(void)
{
    set_mode(1);
}

PI_EXPORT void perfinst_disable(void)
{
    set_mode(0);
}

PI_EXPORT int perfinst_write_trace(void)
{
    pi_init();
    return pi_trace_write_now(0); /* the program goes on: partial */
}
