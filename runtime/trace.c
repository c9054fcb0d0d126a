/* trace.c — writing the trace (*.pit, perfinst-format.h).
 *
 * The trace is rewritten in full each time: at exit, on perfinst_write_trace,
 * before exec, and from the fatal-signal handler.  All of it is
 * async-signal-safe: a static buffer, open/write/pwrite/link/rename/close, no
 * malloc, no stdio; the strings it needs were prepared at start-up.  The write
 * lock (an owner thread id, not a mutex) lets a handler see that its own
 * thread is the writer and give up instead of deadlocking.
 *
 * Naming: every write goes to a fresh temporary file beside the trace's
 * name, so a trace is whole or absent.  The first one is then linked to
 * its name (link() fails on an existing file or symlink, which is never
 * clobbered or followed): the name from
 * PERFINST_OUT (a template: %p pid, %e program, %% a percent sign) or
 * perfinst.<program>.<pid>.pit, else <stem>.<pid><ext>, else
 * <stem>.<pid>.<n><ext> (same.pit: same.<pid>.pit, which same's glob *.pit
 * still finds).
 * Later writes are renamed over it.
 * A name that is a character device (PERFINST_OUT=/dev/null: no trace
 * wanted) is opened as it is and written in place each time, never given a
 * file of its own beside it.
 *
 * Counts: a unit's count is its totals (what finished threads and dlclose
 * flushed) plus the live counters of the threads still running.  The calling
 * thread's are read through the unit's tls_get (outside a signal handler),
 * the others' through the addresses recorded in their struct pi_thread.
 */
#include "runtime.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h> /* rename(), a system call: no stdio is used */
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/ucontext.h>
#include <unistd.h>

/* ---- the write lock ------------------------------------------------------------------- */

static pid_t writer; /* thread id of the writer, 0 when free */

void pi_write_lock(void)
{
    pid_t me = gettid(), none = 0;
    while (!__atomic_compare_exchange_n(&writer, &none, me, 0, __ATOMIC_ACQUIRE,
                                        __ATOMIC_RELAXED)) {
        none = 0;
        sched_yield();
    }
}

void pi_write_unlock(void)
{
    __atomic_store_n(&writer, 0, __ATOMIC_RELEASE);
}

int pi_write_trylock_signal(void)
{
    if (__atomic_load_n(&writer, __ATOMIC_ACQUIRE) == gettid())
        return 0;
    pi_write_lock();
    return 1;
}

/* ---- buffered output with self-checking records ------------------------------------------ */

static struct {
    int fd;
    int err;            /* first errno, or 0 */
    uint64_t off;       /* file offset of buf[0] */
    size_t n;
    uint64_t rec_at;    /* file offset of the open record's header */
    uint32_t rec_type;
    uint32_t rec_size;
    uint32_t crc;       /* of the open record's payload so far */
    uint32_t nrecords;
    unsigned char buf[8192];
} out;

static void out_flush(void)
{
    for (size_t done = 0; done < out.n && !out.err;) {
        ssize_t w = write(out.fd, out.buf + done, out.n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            out.err = w < 0 ? errno : ENOSPC;
        else
            done += (size_t)w;
    }
    out.off += out.n;
    out.n = 0;
}

static void out_raw(const void *p, size_t len)
{
    const unsigned char *s = p;
    while (len) {
        if (out.n == sizeof out.buf)
            out_flush();
        size_t k = sizeof out.buf - out.n < len ? sizeof out.buf - out.n : len;
        memcpy(out.buf + out.n, s, k);
        out.n += k;
        s += k;
        len -= k;
    }
}

/* slicing-by-8: COUNTS records are megabytes in big programs (SQLite's
   cost ~5 M instructions a write byte by byte); tables made once, under the
   write lock, when CRC_SMALL bytes have gone byte by byte: making them
   costs about as much as 2 KB byte by byte (15,000 instructions), and
   most short processes' traces (a test suite's, configure's) are a few
   hundred bytes.  Runs of 64 bytes or more go by carry-less
   multiplication where the CPU has it, tables or not. */
#define CRC_SMALL 2048
static uint32_t crc_tab[8][256];
static int crc_tab_ready;
static size_t crc_small_bytes; /* CRC'd byte by byte so far */

static __attribute__((noinline, cold)) void make_crc_tables(void)
{
    pi_crc32_tables8(crc_tab);
    crc_tab_ready = 1;
}

static const uint32_t (*crc_tables(void))[256]
{
    if (!crc_tab_ready)
        make_crc_tables();
    return (const uint32_t(*)[256])crc_tab;
}

/* The CRC register crc after len more bytes at p. */
static uint32_t crc_update(uint32_t crc, const void *p, size_t len)
{
    if (crc_tab_ready)
        return pi_crc32_fast((const uint32_t(*)[256])crc_tab, crc, p, len);
    const unsigned char *s = p;
    crc = pi_crc32_clmul_prefix(crc, &s, &len);
    if (crc_small_bytes + len <= CRC_SMALL) {
        crc_small_bytes += len;
        return pi_crc32(crc, s, len);
    }
    return pi_crc32_8(crc_tables(), crc, s, len);
}

/* Payload bytes of the open record. */
static void out_put(const void *p, size_t len)
{
    out.crc = crc_update(out.crc, p, len);
    out.rec_size += (uint32_t)len;
    out_raw(p, len);
}

/* PI_ZERO_CHUNK zero bytes of payload: a COUNTS chunk of 64 counters that
 * are all 0 (most counters of a big program, every one of a run with
 * PERFINST_MODE=off).  The CRC register after a block of zeros is a linear
 * function of the register before it, so the CRC is 32 column vectors
 * (made once, with the slicing tables) xored by the register's bits
 * instead of three instructions a byte. */
#define PI_ZERO_CHUNK 512
static void out_put_zero_chunk(void)
{
    static const unsigned char zeros[PI_ZERO_CHUNK];
    static uint32_t col[32];
    static int col_ready;
    if (!col_ready) {
        for (unsigned i = 0; i < 32; i++)
            col[i] = ~pi_crc32_8(crc_tables(), ~(1u << i), zeros, sizeof zeros);
        col_ready = 1;
    }
    uint32_t reg = ~out.crc, r = 0;
    for (unsigned i = 0; reg; i++, reg >>= 1)
        if (reg & 1)
            r ^= col[i];
    out.crc = ~r;
    out.rec_size += PI_ZERO_CHUNK;
    out_raw(zeros, sizeof zeros);
}

/* A record header's CRC (its first 12 bytes): pi_crc32_8's result, the
 * last 4 bytes sliced by 4 instead of one by one (a sharing trace has
 * hundreds of thousands of headers). */
static uint32_t hdr_crc(const struct pi_rec_hdr *h)
{
    if (!crc_tab_ready)
        return crc_update(0, h, 12);
    const uint32_t(*t)[256] = (const uint32_t(*)[256])crc_tab;
    uint32_t crc = ~pi_crc32_8(t, 0, h, 8), x;
    memcpy(&x, (const unsigned char *)h + 8, 4);
    x ^= crc;
    crc = t[3][x & 0xffu] ^ t[2][(x >> 8) & 0xffu] ^ t[1][(x >> 16) & 0xffu] ^ t[0][x >> 24];
    return ~crc;
}
_Static_assert(offsetof(struct pi_rec_hdr, hcrc) == 12, "hdr_crc: 12 bytes");

static void rec_begin(uint32_t type)
{
    static const struct pi_rec_hdr zero;
    out.rec_at = out.off + out.n;
    out.rec_type = type;
    out.rec_size = 0;
    out.crc = 0;
    out_raw(&zero, sizeof zero);
}

/* Pad the payload to 8 and fill in the header, in the buffer if it is still
 * there, else in the file. */
static void rec_end(void)
{
    static const unsigned char pad[8];
    if (out.rec_size % 8)
        out_put(pad, 8 - out.rec_size % 8);
    struct pi_rec_hdr h = {.type = out.rec_type, .size = out.rec_size, .crc = out.crc};
    h.hcrc = hdr_crc(&h);
    if (out.rec_at >= out.off) {
        memcpy(out.buf + (out.rec_at - out.off), &h, sizeof h);
    } else {
        /* A header that straddles a flush: its tail is still in the buffer,
         * and the next flush would write the zeros there over a pwrite. */
        size_t gone = out.off - out.rec_at < sizeof h ? (size_t)(out.off - out.rec_at) : sizeof h;
        if (!out.err && pwrite(out.fd, &h, gone, (off_t)out.rec_at) != (ssize_t)gone)
            out.err = errno ? errno : ENOSPC;
        memcpy(out.buf, (const unsigned char *)&h + gone, sizeof h - gone);
    }
    out.nrecords++;
}

/* A whole record whose payload is len bytes at p: the same bytes as
 * rec_begin, out_put and rec_end make, built in the buffer in one pass --
 * one copy, one CRC of the payload with its padding, no header of zeros
 * written first and filled in after.  (A sharing trace is hundreds of
 * thousands of small records: those three calls cost about 470
 * instructions a record, bench/RESULTS.md.) */
static void rec_whole(uint32_t type, const void *p, size_t len)
{
    size_t padded = (len + 7) & ~(size_t)7;
    if (sizeof(struct pi_rec_hdr) + padded > sizeof out.buf) { /* (larger than the buffer: in pieces) */
        rec_begin(type);
        out_put(p, len);
        rec_end();
        return;
    }
    if (out.n + sizeof(struct pi_rec_hdr) + padded > sizeof out.buf)
        out_flush();
    unsigned char *d = out.buf + out.n + sizeof(struct pi_rec_hdr);
    memcpy(d, p, len);
    for (size_t i = len; i < padded; i++)
        d[i] = 0;
    struct pi_rec_hdr h = {.type = type, .size = (uint32_t)padded, .crc = crc_update(0, d, padded)};
    h.hcrc = hdr_crc(&h);
    memcpy(out.buf + out.n, &h, sizeof h);
    out.n += sizeof h + padded;
    out.nrecords++;
}

/* ---- the records -------------------------------------------------------------------------------- */

/* Thread t's block of unit u's counters, unless t is the calling thread
 * whose block (own) is read through the unit's getter: NULL when none. */
static volatile uint64_t *other_block(const struct pi_thread *t, const struct pi_unit_rt *u,
                                      const uint64_t *own)
{
    if (!PI_LOAD(&t->used) || (own && t == pi_self))
        return NULL;
    volatile uint64_t *p = pi_thread_block(t, u);
    return p == own ? NULL : p;
}

/* Counters base..base+k-1 of unit u summed over the threads into v (own:
 * the calling thread's block, read through the unit's getter). */
static void sum_chunk(const struct pi_unit_rt *u, const uint64_t *own, uint32_t base, uint32_t k,
                      uint64_t *v)
{
    for (uint32_t j = 0; j < k; j++)
        v[j] = __atomic_load_n(&u->totals[base + j], __ATOMIC_RELAXED) + (own ? own[base + j] : 0);
    for (struct pi_thread *t = PI_LOAD(&pi.threads); t; t = t->next) {
        volatile uint64_t *p = other_block(t, u, own);
        for (uint32_t j = 0; p && j < k; j++)
            v[j] += p[base + j];
    }
}

/* Whether unit u counted anything: its totals, the calling thread's block
 * (own) or another thread's. */
static int unit_counted(const struct pi_unit_rt *u, const uint64_t *own)
{
    /* (totals that were never added to are 0: BusyBox's 43,000 counters
       were scanned at every exit for the few units that ran) */
    if ((PI_LOAD(&u->counted) && !pi_all_zero(u->totals, u->ncounters)) ||
        (own && !pi_all_zero(own, u->ncounters)))
        return 1;
    for (struct pi_thread *t = PI_LOAD(&pi.threads); t; t = t->next) {
        volatile uint64_t *p = other_block(t, u, own);
        if (p && !pi_all_zero(p, u->ncounters))
            return 1;
    }
    return 0;
}

/* The calling thread's block of unit u where its getter may not run (a
 * signal handler, _exit: the getter may allocate): at the unit's static
 * offset from the thread pointer, or where the counting copies' stub
 * found it in this thread.  The thread's slot may lack it: a unit
 * registered by another thread after this one started (python3 importing
 * an extension module in a worker thread, the main thread calling it).
 * NULL when neither knows (the thread's slot, if any, is read instead). */
static uint64_t *own_block_unlocked(const struct pi_unit_rt *u)
{
    intptr_t off = PI_LOAD(&u->tls_off);
    if (!off)
        off = pi_ctr_base_cached((const void *)PI_LOAD(&u->tls_get));
    return off ? (uint64_t *)pi_tp_address(off) : NULL;
}

/* A unit's COUNTS record; none when all its counters are 0 (a reader takes
 * a unit without one as all 0: docs/formats.md), so that a process of a
 * program of many units writes those it ran, not all of them. */
static void put_counts(struct pi_unit_rt *u, int in_signal)
{
    uint64_t *(*tls_get)(void) = PI_LOAD(&u->tls_get);
    uint64_t *own = !tls_get ? NULL : in_signal ? own_block_unlocked(u) : tls_get();
    if (!unit_counted(u, own))
        return;
    struct pi_rec_counts rc = {.unit_id = u->unit_id, .module = u->module->index,
                               .ncounters = u->ncounters};
    rec_begin(PI_REC_COUNTS);
    out_put(&rc, sizeof rc);
    for (uint32_t base = 0; base < u->ncounters; base += 64) {
        uint64_t v[64], any = 0;
        uint32_t k = u->ncounters - base < 64 ? u->ncounters - base : 64;
        sum_chunk(u, own, base, k, v);
        for (uint32_t j = 0; j < k; j++)
            any |= v[j];
        if (!any && k * sizeof v[0] == PI_ZERO_CHUNK)
            out_put_zero_chunk();
        else
            out_put(v, k * sizeof v[0]);
    }
    rec_end();
}

void pi_lost_write(struct pi_rec_writer *w, uint32_t table, uint64_t capacity, uint64_t lost,
                   uint64_t items, uint32_t flags)
{
    if (!lost)
        return;
    struct pi_rec_lost r = {.table = table, .flags = flags, .capacity = capacity, .lost = lost,
                            .items = items};
    w->begin(PI_REC_LOST);
    w->put(&r, sizeof r);
    w->end();
}

static struct pi_trace_hdr last_hdr; /* the header of the last trace written */
static int last_final;               /* ... and it was final (not PI_TF_PARTIAL) */

static void put_trace(const siginfo_t *si, const void *uc, int in_signal, int final)
{
    struct pi_trace_hdr h = {.version = PI_TRACE_VERSION, .hdr_size = sizeof h,
                             .flags = (pi.mode_off_env ? PI_TF_MODE_OFF : 0u) |
                                      (pi_overlay_active() ? PI_TF_OVERLAY : 0u) |
                                      (pi_sharing_active() ? PI_TF_SHARING : 0u) |
                                      (final ? 0u : PI_TF_PARTIAL),
                             .pid = (uint64_t)pi.pid, .ppid = (uint64_t)pi.ppid,
                             .start_ns = pi.start_ns, .line_size = pi.line_size};
    memcpy(h.magic, PI_TRACE_MAGIC, sizeof h.magic);
    h.hdr_crc = pi_crc32(0, &h, offsetof(struct pi_trace_hdr, hdr_crc));
    out_raw(&h, sizeof h);
    last_hdr = h;

    uint32_t nthreads = pi.threads_flushed;
    for (struct pi_thread *t = PI_LOAD(&pi.threads); t; t = t->next)
        nthreads += PI_LOAD(&t->used) != 0;
    struct pi_rec_process p = {.end_ns = pi_now_ns(), .nthreads = nthreads, .argc = pi.argc};
    rec_begin(PI_REC_PROCESS);
    out_put(&p, sizeof p);
    if (pi.args)
        out_put(pi.args, pi.args_len);
    rec_end();

    for (struct pi_module *m = PI_LOAD(&pi.modules); m; m = m->next) {
        struct pi_rec_module rm = {.index = m->index, .build_id_len = m->build_id_len,
                                   .load_bias = m->bias, .path_len = strlen(m->path) + 1};
        memcpy(rm.build_id, m->build_id, sizeof rm.build_id);
        rec_begin(PI_REC_MODULE);
        out_put(&rm, sizeof rm);
        out_put(m->path, rm.path_len);
        rec_end();
    }

    for (struct pi_unit_rt *u = PI_LOAD(&pi.units); u; u = u->next)
        put_counts(u, in_signal);

    struct pi_rec_writer w = {rec_begin, out_put, rec_end, rec_whole};
    pi_indicators_write(&w);
    pi_ri_write(&w);
    pi_sample_write(&w);
    pi_sharing_write(&w);
    pi_sharing_regions_write(&w);
    pi_pages_write(&w);
    pi_perf_write(&w);
    pi_icall_write(&w);
    pi_ranges_write(&w);

    if (uc) {
        /* where this thread was interrupted: that block was entered and not
           left (a reader counts it as left there, common/piflow.h) */
        uint64_t pc = (uint64_t)((const ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
        for (struct pi_module *m = PI_LOAD(&pi.modules); m; m = m->next)
            if (pc >= m->lo && pc < m->hi) {
                struct pi_rec_stopped st = {.module = m->index, .count = 1, .pc = pc - m->bias};
                rec_begin(PI_REC_STOPPED);
                out_put(&st, sizeof st);
                rec_end();
                break;
            }
    }
    if (si) {
        /* si_addr means something only for a fault the kernel raised */
        int fault = si->si_code > 0 &&
                    (si->si_signo == SIGSEGV || si->si_signo == SIGBUS || si->si_signo == SIGFPE ||
                     si->si_signo == SIGILL || si->si_signo == SIGTRAP);
        struct pi_rec_signal rs = {.signo = si->si_signo, .code = si->si_code,
                                   .addr = fault ? (uint64_t)(uintptr_t)si->si_addr : 0};
        rec_begin(PI_REC_SIGNAL);
        out_put(&rs, sizeof rs);
        rec_end();
    }

    struct pi_rec_end e = {.nrecords = out.nrecords};
    rec_begin(PI_REC_END);
    out_put(&e, sizeof e);
    rec_end();
    out_flush();
}

/* ---- file names --------------------------------------------------------------------------------- */

static char trace_path[PATH_MAX]; /* the file chosen by the first write, "" before */
static int failure_said;

struct name {
    char s[PATH_MAX];
    size_t n;
    int overflow;
};

static void name_add(struct name *nm, const char *s)
{
    while (*s) {
        if (nm->n + 1 >= sizeof nm->s) {
            nm->overflow = 1;
            return;
        }
        nm->s[nm->n++] = *s++;
    }
    nm->s[nm->n] = 0;
}

static void name_add_pid(struct name *nm)
{
    char b[24];
    name_add(nm, pi_fmt_u64(b, (uint64_t)pi.pid, 10));
}

/* The name asked for: PERFINST_OUT expanded, or the default; a relative
 * name is taken in the working directory the process started in. */
static void base_name(struct name *nm)
{
    const char *t = pi.out;
    nm->n = 0;
    nm->s[0] = 0;
    nm->overflow = 0;
    if (pi.secure) { /* only where the root-owned configuration says (core.c) */
        name_add(nm, pi.secure_dir);
        name_add(nm, "/");
        t = NULL;
    } else if ((!t || *t != '/') && pi.cwd) {
        name_add(nm, pi.cwd);
        if (nm->n && nm->s[nm->n - 1] != '/')
            name_add(nm, "/");
    }
    if (!t) {
        name_add(nm, "perfinst.");
        name_add(nm, pi.prog);
        name_add(nm, ".");
        name_add_pid(nm);
        name_add(nm, ".pit");
        return;
    }
    for (; *t; t++) {
        char c[2] = {*t, 0};
        if (t[0] == '%' && t[1] == 'p')
            name_add_pid(nm), t++;
        else if (t[0] == '%' && t[1] == 'e')
            name_add(nm, pi.prog), t++;
        else if (t[0] == '%' && t[1] == '%')
            name_add(nm, "%"), t++;
        else
            name_add(nm, c);
    }
}

static int trace_is_device; /* trace_path is a character device: written in place */
static int trace_is_null;   /* ... and /dev/null: nothing is made (write_trace) */

static int create_excl(const char *path)
{
    return open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, pi.secure ? 0600 : 0666);
}

/* Where a taken name gets its ".<pid>": before the extension, the last '.'
 * of the last component unless that component starts with it (".pit" and
 * "trace" have none, "same.pit" has ".pit"); the end of the name if none. */
static size_t ext_at(const struct name *nm)
{
    for (size_t i = nm->n; i > 0; i--) {
        if (nm->s[i - 1] == '/')
            break;
        if (nm->s[i - 1] == '.')
            return i - 1 > 0 && nm->s[i - 2] != '/' ? i - 1 : nm->n;
    }
    return nm->n;
}

/* The first trace's name as asked for, in first_nm (first_base: where a
 * taken name gets its pid, first_ext: what follows there).  Returns an fd
 * when that name is a character device, written in place; else -1, with
 * errno 0 unless the name is too long. */
static struct name first_nm;
static char first_ext[PATH_MAX];
static size_t first_base;

static int first_name(const char **tried)
{
    struct name *nm = &first_nm;
    base_name(nm);
    *tried = nm->s;
    errno = 0;
    if (nm->overflow) {
        errno = ENAMETOOLONG;
        return -1;
    }
    first_base = ext_at(nm);
    memcpy(first_ext, nm->s + first_base, nm->n - first_base + 1);
    struct stat st;
    if (!lstat(nm->s, &st) && S_ISCHR(st.st_mode)) { /* lstat: async-signal-safe */
        int fd = open(nm->s, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
        if (fd >= 0) {
            trace_is_device = 1;
            /* /dev/null (1, 3): the trace is not made at all (configure's
               and test suites' many short processes) */
            trace_is_null = major(st.st_rdev) == 1 && minor(st.st_rdev) == 3;
            memcpy(trace_path, nm->s, nm->n + 1);
        }
        return fd;
    }
    errno = 0;
    return -1;
}

/* Candidate i of the first trace's name: 0 the name asked for, 1
 * <stem>.<pid><ext>, i > 1 <stem>.<pid>.<i-1><ext>. */
static void first_candidate(int i)
{
    struct name *nm = &first_nm;
    char b[24];
    nm->n = first_base;
    nm->overflow = 0;
    if (i) {
        name_add(nm, ".");
        name_add_pid(nm);
    }
    if (i > 1) {
        name_add(nm, ".");
        name_add(nm, pi_fmt_u64(b, (uint64_t)(i - 1), 10));
    }
    name_add(nm, first_ext);
}

/* Give the first trace, written whole to tmp, its name: the first free
 * candidate (n < 100), taken with link(), which neither replaces an
 * existing file nor follows a symlink; where the file system has no hard
 * links, the name is claimed with O_EXCL and tmp renamed over it.  Sets
 * trace_path; *tried: the name that failed.  tmp is removed either way. */
static int claim_first(const char *tmp, const char **tried)
{
    int r = -1;
    errno = EEXIST;
    for (int i = 0; r < 0 && errno == EEXIST && i < 101; i++) {
        first_candidate(i);
        *tried = first_nm.s;
        if (first_nm.overflow) {
            errno = ENAMETOOLONG;
            break;
        }
        r = link(tmp, first_nm.s);
        if (r < 0 && (errno == EPERM || errno == EOPNOTSUPP)) {
            int fd = create_excl(first_nm.s);
            if (fd >= 0) {
                close(fd);
                r = rename(tmp, first_nm.s);
            }
        }
    }
    int e = errno;
    unlink(tmp);
    if (r < 0) {
        errno = e;
        return -1;
    }
    memcpy(trace_path, first_nm.s, first_nm.n + 1);
    return 0;
}

/* A temporary file beside the file named `beside`, for a write. */
static int create_temp(struct name *tmp, const char *beside)
{
    int fd = -1;
    errno = EEXIST;
    for (int i = 0; fd < 0 && errno == EEXIST && i < 100; i++) {
        char b[24];
        tmp->n = 0;
        tmp->overflow = 0;
        name_add(tmp, beside);
        name_add(tmp, ".tmp");
        if (i) {
            name_add(tmp, ".");
            name_add(tmp, pi_fmt_u64(b, (uint64_t)i, 10));
        }
        fd = tmp->overflow ? (errno = ENAMETOOLONG, -1) : create_excl(tmp->s);
    }
    return fd;
}

static void say_failure(const char *path, int err)
{
    if (failure_said++)
        return;
    char b[24];
    const char *why = strerrordesc_np(err);
    pi_say("perfinst: cannot write the trace ", path, ": ",
           why ? why : pi_fmt_u64(b, (uint64_t)err, 10), "\n", NULL);
}

static int write_trace(const siginfo_t *si, const void *uc, int in_signal, int final);

/* The trace on disk was final, but the process goes on counting (a failed
 * exec, a rewrite about to start): mark it partial in place, so that if
 * the next write fails (a full disk, SIGKILL) it does not read as finished
 * with stale counts.  Its header is rewritten where it is: no new block is
 * needed.  (Async-signal-safe.) */
static void mark_partial(void)
{
    if (!last_final || !trace_path[0] || trace_is_device)
        return;
    struct pi_trace_hdr h = last_hdr;
    h.flags |= PI_TF_PARTIAL;
    h.hdr_crc = pi_crc32(0, &h, offsetof(struct pi_trace_hdr, hdr_crc));
    int fd = open(trace_path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return;
    if (pwrite(fd, &h, sizeof h, 0) == (ssize_t)sizeof h) {
        last_hdr = h;
        last_final = 0;
    }
    close(fd);
}

void pi_trace_mark_partial(void)
{
    pi_write_lock();
    mark_partial();
    pi_write_unlock();
}

/* Write the whole trace (si: the signal the process dies of, or NULL; uc:
 * the context that signal interrupted, or NULL;
 * final: the process will count no more — exit, a signal, exec — else the
 * trace is marked partial).
 * The caller holds the write lock, and pi.lock unless in a signal handler.
 * A file-size limit (ulimit -f) must not kill the program for its trace or
 * for the message about it: SIGXFSZ is held meanwhile and the one a write
 * raised is taken back, so the write just fails with EFBIG, reported once
 * like a full disk.  (All async-signal-safe.) */
int pi_trace_write(const siginfo_t *si, const void *uc, int in_signal, int final)
{
    sigset_t xfsz, old, pend;
    sigemptyset(&xfsz);
    sigaddset(&xfsz, SIGXFSZ);
    pthread_sigmask(SIG_BLOCK, &xfsz, &old);
    sigpending(&pend);
    int before = sigismember(&pend, SIGXFSZ);
    int r = write_trace(si, uc, in_signal, final), e = errno;
    sigpending(&pend);
    if (!before && sigismember(&pend, SIGXFSZ)) {
        struct timespec zero = {0, 0};
        sigtimedwait(&xfsz, NULL, &zero);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = e;
    return r;
}

static int write_trace(const siginfo_t *si, const void *uc, int in_signal, int final)
{
    if (getpid() != pi.pid) { /* a vfork child shares our memory: hands off */
        errno = ECHILD;
        return -1;
    }
    if (pi.secure && !pi.secure_dir) { /* secure execution, no trace-dir: none */
        errno = EPERM;
        return -1;
    }
    static struct name tmp;
    const char *shown = trace_path;
    int first = !trace_path[0], fd = -1;
    if (first) {
        fd = first_name(&shown);
        if (fd < 0 && !errno)
            fd = create_temp(&tmp, first_nm.s); /* shown: the name asked for */
    } else if (trace_is_device)
        fd = open(trace_path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
    else
        mark_partial(), fd = create_temp(&tmp, trace_path), shown = tmp.s;
    if (fd < 0) {
        int e = errno;
        say_failure(shown, e);
        errno = e;
        return -1;
    }

    out.fd = fd;
    out.err = 0;
    out.off = 0;
    out.n = 0;
    out.nrecords = 0;
    if (!trace_is_null) {
        if (!in_signal)
            pi_sharing_modules_locked(pi_note_module_locked);
        put_trace(si, uc, in_signal, final);
    }
    int err = out.err;
    if (close(fd) && !err)
        err = errno;
    if (trace_is_device) {
        shown = trace_path;
    } else if (err) {
        unlink(tmp.s);
    } else if (first) {
        if (claim_first(tmp.s, &shown))
            err = errno;
    } else if (rename(tmp.s, trace_path)) {
        err = errno;
        unlink(tmp.s);
    }
    if (err) {
        say_failure(shown, err);
        errno = err;
        return -1;
    }
    last_final = final;
    if (pi.verbose)
        pi_say("perfinst: trace written to ", trace_path, "\n", NULL);
    return 0;
}

int pi_trace_write_now(int final)
{
    pthread_mutex_lock(&pi.lock);
    pi_write_lock();
    int r = pi_trace_write(NULL, NULL, 0, final), e = errno;
    pi_write_unlock();
    pthread_mutex_unlock(&pi.lock);
    errno = e;
    return r;
}

void pi_trace_after_fork(void)
{
    writer = 0;
    trace_path[0] = 0;
    last_final = 0;
    trace_is_device = 0;
    trace_is_null = 0;
    failure_said = 0;
}
