/* pagetable.c — the performance page table (seed 004 M31).
 *
 * The seed puts performance indicators, offset ranges, counts and thresholds
 * into page-table entries, consulted through a look-aside buffer (PILAB)
 * whenever a page must be fetched, and interrupts the monitor when a count
 * meets its threshold.  Here:
 *
 *   perfinst_page_range_add(addr, len, N, h)
 *       every 4 KiB page the range covers gets an entry (struct pt_entry)
 *       holding the range's offsets within the page; the page is *armed*:
 *       mprotect(PROT_NONE).
 *   the first access to an armed page faults (SIGSEGV, SEGV_ACCERR): the
 *       handler looks the page up — the calling thread's look-aside buffer
 *       first (16 entries, direct-mapped by page number), else the page
 *       table's hash index — counts a *touch* for the page and for the
 *       range holding the faulting offset, gives the page its protection
 *       back and returns, so the access runs again and succeeds.  When the
 *       range's touches reach N, 2N, 3N ... its handler h runs, there.
 *   perfinst_page_new_epoch()
 *       arms every page again: a page's touches are the epochs in which it
 *       was accessed (the seed's "times the page must be fetched").
 *
 * A fault that is not ours (an address outside the table, a page that is
 * not armed) goes to the handler that was installed before ours — normally
 * the runtime's fatal-signal handler (signal.c), which writes the trace —
 * so a real crash still dies with its trace.  Everything the handler does
 * is async-signal-safe: atomics, mprotect, no locks, no malloc.  The tables
 * are fixed arrays mapped once, whose entries are published with release
 * stores and never move, so the handler and the trace writer read them
 * without a lock; changes (add, remove, epochs) hold pt_lock.
 *
 * One race needs care: two threads fault on the same armed page.  The
 * first moves the entry from ARMED to OPENING (compare-and-swap), counts,
 * restores the protection and stores OPEN; the second waits while it sees
 * OPENING, and on OPEN simply returns (its access then succeeds).  A fault
 * on an OPEN page is retried once (the page may have been opened between
 * the fault and the look); the same address faulting again on an OPEN page
 * in the same epoch is a real fault.
 */
#include "runtime.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PT_PAGE 4096u
#define PT_MAX_PAGES 65536u    /* page entries (256 MiB of watched memory) */
#define PT_HASH (2 * PT_MAX_PAGES)
#define PT_MAX_RANGES 1024u
#define PT_PAGE_RANGES 4       /* offset ranges per page entry */
#define PT_LAB 16              /* look-aside entries per thread */

enum { PT_OPEN = 0, PT_ARMED = 1, PT_OPENING = 2 };

struct pt_range {
    uintptr_t lo, hi;          /* [lo, hi) */
    uint64_t threshold;
    perfinst_page_handler handler;
    uint64_t touches, fired;   /* atomic */
    int live;
};

struct pt_offsets {
    uint16_t lo, last;         /* offsets lo..last of the page, inclusive */
    uint32_t range;
};

struct pt_entry {
    uintptr_t page;
    int indicator;             /* 1: watched; 0: every range of the page was removed */
    int prot;                  /* the protection an opened page gets back */
    int state;                 /* PT_OPEN, PT_ARMED, PT_OPENING (atomic) */
    uint32_t nranges;
    struct pt_offsets off[PT_PAGE_RANGES];
    uint64_t touches, outside; /* atomic */
};

static pthread_mutex_t pt_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pt_entry *pt_entries; /* PT_MAX_PAGES, mapped at the first range */
static uint32_t *pt_index;          /* PT_HASH: entry index + 1 by page number, 0 empty */
static uint32_t pt_npages, pt_nranges;
static struct pt_range pt_ranges[PT_MAX_RANGES];
static uint32_t pt_gen = 1;         /* look-aside entries of another generation are stale */
static uint64_t pt_epoch;           /* 0 until the first range */
static uint64_t pt_hits, pt_misses;
static uint64_t pt_epoch_touches[PI_PAGE_EPOCH_HIST];
static struct sigaction pt_prev;    /* the SIGSEGV action before ours */
static int pt_installed;

struct pt_lab_entry {
    uintptr_t page;
    uint32_t gen, idx;
};
static __thread struct pt_lab_entry pt_lab[PT_LAB] __attribute__((tls_model("initial-exec")));
/* the last address this thread retried on an open page, and in which epoch */
static __thread uintptr_t pt_retried __attribute__((tls_model("initial-exec")));
static __thread uint64_t pt_retried_epoch __attribute__((tls_model("initial-exec")));

static uint32_t pt_hash(uintptr_t page)
{
    uint64_t h = (uint64_t)(page / PT_PAGE) * 0x9e3779b97f4a7c15ull;
    return (uint32_t)(h >> 40) % PT_HASH;
}

/* The entry of page, through the hash index (no lock: entries are
 * published before their index slot). */
static struct pt_entry *pt_walk(uintptr_t page, uint32_t *idx)
{
    if (!PI_LOAD(&pt_index))
        return NULL;
    for (uint32_t h = pt_hash(page), n = 0; n < PT_HASH; h = (h + 1) % PT_HASH, n++) {
        uint32_t v = PI_LOAD(&pt_index[h]);
        if (!v)
            return NULL;
        if (pt_entries[v - 1].page == page) {
            *idx = v - 1;
            return &pt_entries[v - 1];
        }
    }
    return NULL;
}

/* The look-aside buffer, then the table (the seed's PILAB and page walk). */
static struct pt_entry *pt_lookup(uintptr_t page)
{
    struct pt_lab_entry *l = &pt_lab[(page / PT_PAGE) % PT_LAB];
    uint32_t gen = PI_LOAD(&pt_gen);
    if (l->page == page && l->gen == gen) {
        __atomic_fetch_add(&pt_hits, 1, __ATOMIC_RELAXED);
        return &pt_entries[l->idx];
    }
    __atomic_fetch_add(&pt_misses, 1, __ATOMIC_RELAXED);
    uint32_t idx;
    struct pt_entry *e = pt_walk(page, &idx);
    if (e) {
        l->page = page;
        l->gen = gen;
        l->idx = idx;
    }
    return e;
}

/* 1 when the fault was an armed page of ours: counted, opened, retry the
 * access.  0: not ours. */
static int pt_fault(const siginfo_t *si)
{
    if (si->si_code != SEGV_ACCERR || !PI_LOAD(&pt_entries))
        return 0;
    uintptr_t a = (uintptr_t)si->si_addr, page = a & ~(uintptr_t)(PT_PAGE - 1);
    struct pt_entry *e = pt_lookup(page);
    if (!e)
        return 0;
    for (;;) {
        int st = PT_ARMED;
        if (__atomic_compare_exchange_n(&e->state, &st, PT_OPENING, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE))
            break;
        if (st == PT_OPENING)
            continue; /* another thread is opening it: wait, then retry the access */
        /* open: another thread opened it after our fault, or a real fault.
           A page opens once per epoch, so the same address faulting again
           on it in the same epoch is real. */
        uint64_t ep = PI_LOAD(&pt_epoch);
        if (pt_retried == a && pt_retried_epoch == ep)
            return 0;
        pt_retried = a;
        pt_retried_epoch = ep;
        return 1;
    }
    uint64_t epoch = PI_LOAD(&pt_epoch);
    __atomic_fetch_add(&e->touches, 1, __ATOMIC_RELAXED);
    if (epoch && epoch <= PI_PAGE_EPOCH_HIST)
        __atomic_fetch_add(&pt_epoch_touches[epoch - 1], 1, __ATOMIC_RELAXED);
    uint32_t off = (uint32_t)(a - page);
    struct pt_range *r = NULL;
    uint32_t rid = 0;
    for (uint32_t i = 0; i < e->nranges; i++)
        if (off >= e->off[i].lo && off <= e->off[i].last) {
            rid = e->off[i].range;
            r = &pt_ranges[rid];
        }
    uint64_t touches = 0;
    if (r)
        touches = __atomic_add_fetch(&r->touches, 1, __ATOMIC_RELAXED);
    else
        __atomic_fetch_add(&e->outside, 1, __ATOMIC_RELAXED);
    mprotect((void *)page, PT_PAGE, e->prot);
    PI_STORE(&e->state, PT_OPEN);
    if (r && r->threshold && touches % r->threshold == 0) {
        __atomic_fetch_add(&r->fired, 1, __ATOMIC_RELAXED);
        if (r->handler) {
            struct perfinst_page_event ev = {.range = (int)rid, .addr = a, .page = page,
                                             .touches = touches, .threshold = r->threshold,
                                             .epoch = epoch};
            r->handler(&ev);
        }
    }
    return 1;
}

static void pt_on_segv(int sig, siginfo_t *si, void *uc)
{
    int saved = errno;
    int ours = pt_fault(si);
    errno = saved;
    if (ours)
        return;
    /* not ours: what would have happened without the page table */
    if (pt_prev.sa_flags & SA_SIGINFO) {
        pt_prev.sa_sigaction(sig, si, uc);
    } else if (pt_prev.sa_handler != SIG_DFL && pt_prev.sa_handler != SIG_IGN) {
        pt_prev.sa_handler(sig);
    } else {
        /* default: die of it (a fault's SIG_IGN is not honoured either):
           the access runs again and faults with the default action */
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigemptyset(&dfl.sa_mask);
        pi_sigaction_real(sig, &dfl, NULL);
    }
}

static void pt_install_locked(void)
{
    if (pt_installed)
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = pt_on_segv;
    /* a threshold handler may touch watched pages: SIGSEGV stays unblocked
       in ours (everything else is blocked) */
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigfillset(&sa.sa_mask);
    sigdelset(&sa.sa_mask, SIGSEGV);
    pi_sigaction_real(SIGSEGV, &sa, &pt_prev);
    pt_installed = 1;
}

/* The protection of every page of [lo, hi) from /proc/self/maps into
 * prot[] (-1 where unmapped).  -1 if the maps cannot be read. */
static int pt_protections(uintptr_t lo, uintptr_t hi, int *prot)
{
    size_t n = (hi - lo) / PT_PAGE;
    for (size_t i = 0; i < n; i++)
        prot[i] = -1;
    FILE *f = fopen("/proc/self/maps", "re");
    if (!f)
        return -1;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        unsigned long s, e;
        char p[5];
        if (sscanf(line, "%lx-%lx %4s", &s, &e, p) != 3 || e <= lo || s >= hi)
            continue;
        int pr = (p[0] == 'r' ? PROT_READ : 0) | (p[1] == 'w' ? PROT_WRITE : 0) |
                 (p[2] == 'x' ? PROT_EXEC : 0);
        for (uintptr_t pg = s > lo ? s : lo; pg < e && pg < hi; pg += PT_PAGE)
            prot[(pg - lo) / PT_PAGE] = pr;
    }
    fclose(f);
    return 0;
}

/* Arm entries [first, last]: runs of adjacent pages in one mprotect. */
static void pt_arm_locked(uint32_t first, uint32_t last)
{
    uintptr_t run = 0;
    size_t len = 0;
    for (uint32_t i = first; i <= last && i < pt_npages; i++) {
        struct pt_entry *e = &pt_entries[i];
        if (!e->indicator)
            continue;
        int st;
        while ((st = PI_LOAD(&e->state)) == PT_OPENING)
            ; /* a handler is opening it: let it finish */
        PI_STORE(&e->state, PT_ARMED);
        if (len && e->page == run + len) {
            len += PT_PAGE;
            continue;
        }
        if (len)
            mprotect((void *)run, len, PROT_NONE);
        run = e->page;
        len = PT_PAGE;
    }
    if (len)
        mprotect((void *)run, len, PROT_NONE);
}

PI_EXPORT int perfinst_page_range_add(const void *addr, size_t len, uint64_t threshold,
                                      perfinst_page_handler handler)
{
    pi_init();
    uintptr_t lo = (uintptr_t)addr, hi = lo + len;
    if (!len || hi < lo) {
        errno = EINVAL;
        return -1;
    }
    uintptr_t plo = lo & ~(uintptr_t)(PT_PAGE - 1), phi = (hi + PT_PAGE - 1) & ~(uintptr_t)(PT_PAGE - 1);
    size_t npg = (phi - plo) / PT_PAGE;
    int *prot = malloc(npg * sizeof *prot);
    if (!prot) {
        errno = ENOMEM;
        return -1;
    }
    int err = 0, id = -1;
    pthread_mutex_lock(&pt_lock);
    if (!pt_entries) {
        void *e = mmap(NULL, (size_t)PT_MAX_PAGES * sizeof *pt_entries, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        void *x = mmap(NULL, (size_t)PT_HASH * sizeof *pt_index, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (e == MAP_FAILED || x == MAP_FAILED) {
            if (e != MAP_FAILED)
                munmap(e, (size_t)PT_MAX_PAGES * sizeof *pt_entries);
            if (x != MAP_FAILED)
                munmap(x, (size_t)PT_HASH * sizeof *pt_index);
            err = ENOMEM;
            goto out;
        }
        PI_STORE(&pt_index, (uint32_t *)x);
        PI_STORE(&pt_entries, (struct pt_entry *)e);
    }
    if (pt_nranges == PT_MAX_RANGES) {
        err = ENOMEM;
        goto out;
    }
    for (uint32_t i = 0; i < pt_nranges; i++)
        if (pt_ranges[i].live && pt_ranges[i].lo < hi && lo < pt_ranges[i].hi) {
            err = EINVAL; /* overlaps a live range */
            goto out;
        }
    /* Open the pages we already watch while reading the maps, so that their
     * protections read true (an armed page shows as ---p). */
    if (pt_protections(plo, phi, prot)) {
        err = ENOMEM;
        goto out;
    }
    uint32_t fresh = 0;
    for (size_t k = 0; k < npg; k++) {
        uint32_t idx;
        struct pt_entry *e = pt_walk(plo + k * PT_PAGE, &idx);
        if (e) {
            if (e->nranges == PT_PAGE_RANGES) {
                err = ENOSPC;
                goto out;
            }
            prot[k] = e->prot;
        } else {
            if (prot[k] < 0) {
                err = ENOMEM; /* not mapped */
                goto out;
            }
            fresh++;
        }
    }
    if (pt_npages + fresh > PT_MAX_PAGES) {
        err = ENOMEM;
        goto out;
    }
    id = (int)pt_nranges;
    struct pt_range *r = &pt_ranges[id];
    r->lo = lo;
    r->hi = hi;
    r->threshold = threshold;
    r->handler = handler;
    r->touches = r->fired = 0;
    r->live = 1;
    PI_STORE(&pt_nranges, pt_nranges + 1); /* published after the range is filled in */
    if (!pt_epoch)
        PI_STORE(&pt_epoch, 1);
    for (size_t k = 0; k < npg; k++) {
        uintptr_t page = plo + k * PT_PAGE;
        uint32_t idx;
        struct pt_entry *e = pt_walk(page, &idx);
        if (!e) {
            idx = pt_npages;
            e = &pt_entries[idx];
            e->page = page;
            e->prot = prot[k];
            e->state = PT_OPEN;
            uint32_t h = pt_hash(page);
            while (pt_index[h])
                h = (h + 1) % PT_HASH;
            PI_STORE(&pt_npages, pt_npages + 1);
            PI_STORE(&pt_index[h], idx + 1);
        }
        uintptr_t a = lo > page ? lo : page, b = hi < page + PT_PAGE ? hi : page + PT_PAGE;
        struct pt_offsets o = {.lo = (uint16_t)(a - page), .last = (uint16_t)(b - 1 - page),
                               .range = (uint32_t)id};
        e->off[e->nranges] = o;
        PI_STORE(&e->nranges, e->nranges + 1);
        PI_STORE(&e->indicator, 1);
    }
    __atomic_add_fetch(&pt_gen, 1, __ATOMIC_RELEASE);
    pt_install_locked();
    /* arm the new range's pages (only those: other pages may be open in
       this epoch already) */
    for (size_t k = 0; k < npg; k++) {
        uint32_t idx;
        pt_walk(plo + k * PT_PAGE, &idx);
        pt_arm_locked(idx, idx);
    }
out:
    pthread_mutex_unlock(&pt_lock);
    free(prot);
    if (err)
        errno = err;
    return err ? -1 : id;
}

PI_EXPORT int perfinst_page_range_remove(int range)
{
    pi_init();
    pthread_mutex_lock(&pt_lock);
    if (range < 0 || (uint32_t)range >= pt_nranges || !pt_ranges[range].live) {
        pthread_mutex_unlock(&pt_lock);
        errno = EINVAL;
        return -1;
    }
    struct pt_range *r = &pt_ranges[range];
    r->live = 0;
    uintptr_t plo = r->lo & ~(uintptr_t)(PT_PAGE - 1);
    for (uintptr_t page = plo; page < r->hi; page += PT_PAGE) {
        uint32_t idx;
        struct pt_entry *e = pt_walk(page, &idx);
        if (!e)
            continue;
        uint32_t n = 0;
        for (uint32_t i = 0; i < e->nranges; i++)
            if (e->off[i].range != (uint32_t)range)
                e->off[n++] = e->off[i];
        PI_STORE(&e->nranges, n);
        if (!n) {
            PI_STORE(&e->indicator, 0);
            while (PI_LOAD(&e->state) == PT_OPENING)
                ;
            if (PI_LOAD(&e->state) == PT_ARMED)
                mprotect((void *)page, PT_PAGE, e->prot);
            PI_STORE(&e->state, PT_OPEN);
        }
    }
    __atomic_add_fetch(&pt_gen, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&pt_lock);
    return 0;
}

PI_EXPORT uint64_t perfinst_page_new_epoch(void)
{
    pi_init();
    pthread_mutex_lock(&pt_lock);
    uint64_t e = pt_epoch + 1;
    PI_STORE(&pt_epoch, e);
    if (pt_npages)
        pt_arm_locked(0, pt_npages - 1);
    pthread_mutex_unlock(&pt_lock);
    return e;
}

PI_EXPORT uint64_t perfinst_page_range_touches(int range)
{
    if (range < 0 || (uint32_t)range >= PI_LOAD(&pt_nranges))
        return 0;
    return __atomic_load_n(&pt_ranges[range].touches, __ATOMIC_RELAXED);
}

PI_EXPORT uint64_t perfinst_page_touches(const void *addr)
{
    uint32_t idx;
    struct pt_entry *e = pt_walk((uintptr_t)addr & ~(uintptr_t)(PT_PAGE - 1), &idx);
    return e ? __atomic_load_n(&e->touches, __ATOMIC_RELAXED) : 0;
}

PI_EXPORT void perfinst_page_lookaside(uint64_t *hits, uint64_t *misses)
{
    if (hits)
        *hits = __atomic_load_n(&pt_hits, __ATOMIC_RELAXED);
    if (misses)
        *misses = __atomic_load_n(&pt_misses, __ATOMIC_RELAXED);
}

/* The PAGES record, if any range was ever added (async-signal-safe). */
void pi_pages_write(struct pi_rec_writer *w)
{
    uint32_t nranges = PI_LOAD(&pt_nranges), npages = PI_LOAD(&pt_npages);
    if (!nranges)
        return;
    uint64_t epochs = PI_LOAD(&pt_epoch);
    struct pi_rec_pages h = {.epochs = epochs,
                             .lookaside_hits = __atomic_load_n(&pt_hits, __ATOMIC_RELAXED),
                             .lookaside_misses = __atomic_load_n(&pt_misses, __ATOMIC_RELAXED),
                             .page_size = PT_PAGE, .nranges = nranges, .npages = npages,
                             .nepochs = (uint32_t)(epochs < PI_PAGE_EPOCH_HIST ? epochs
                                                                               : PI_PAGE_EPOCH_HIST)};
    w->begin(PI_REC_PAGES);
    w->put(&h, sizeof h);
    for (uint32_t i = 0; i < nranges; i++) {
        const struct pt_range *r = &pt_ranges[i];
        struct pi_page_range pr = {.addr = r->lo, .len = r->hi - r->lo, .threshold = r->threshold,
                                   .touches = __atomic_load_n(&r->touches, __ATOMIC_RELAXED),
                                   .fired = __atomic_load_n(&r->fired, __ATOMIC_RELAXED),
                                   .id = i, .live = (uint32_t)r->live};
        w->put(&pr, sizeof pr);
    }
    for (uint32_t i = 0; i < npages; i++) {
        const struct pt_entry *e = &pt_entries[i];
        struct pi_page_entry pe = {.addr = e->page,
                                   .touches = __atomic_load_n(&e->touches, __ATOMIC_RELAXED),
                                   .outside = __atomic_load_n(&e->outside, __ATOMIC_RELAXED)};
        w->put(&pe, sizeof pe);
    }
    for (uint32_t i = 0; i < h.nepochs; i++) {
        uint64_t v = __atomic_load_n(&pt_epoch_touches[i], __ATOMIC_RELAXED);
        w->put(&v, sizeof v);
    }
    w->end();
}
