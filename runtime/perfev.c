/* perfev.c — optional perf_event counters inside trace regions
 * (PERFINST_PERF; seeds 000/002/004: hardware counters for cycles,
 * instructions and cache misses inside marked code).
 *
 *   PERFINST_PERF=cycles,instructions,cache-misses,task-clock ...
 *
 * At start-up each named event is tried once with perf_event_open on the
 * starting thread (user space only: perf_event_paranoid 2 allows that).
 * One the machine refuses — the hardware events on a VM without a PMU —
 * is left out with one message naming it and the reason; the others are
 * opened in each thread the first time it enters a trace region.
 * __perfinst_trace_start reads them (pi_perf_start), __perfinst_trace_stop
 * reads them again and adds the differences to the start site's slot
 * (pi_perf_stop); the slots become PERF records in the trace.  Reading is a
 * read() per event: meant for regions that run long enough to matter, as
 * trace regions are.
 */
#include "runtime.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* enum pi_perf_event -> perf_event_attr (names: pi_perf_event_name) */
static const struct perf_name {
    uint32_t id;
    uint32_t type;
    uint64_t config;
} perf_names[] = {
    {PI_PERF_CYCLES, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {PI_PERF_INSTRUCTIONS, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
    {PI_PERF_CACHE_MISSES, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
    {PI_PERF_CACHE_REFERENCES, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES},
    {PI_PERF_BRANCHES, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
    {PI_PERF_BRANCH_MISSES, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
    {PI_PERF_TASK_CLOCK, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
    {PI_PERF_CPU_CLOCK, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK},
    {PI_PERF_PAGE_FAULTS, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
    {PI_PERF_CONTEXT_SWITCHES, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    {PI_PERF_CPU_MIGRATIONS, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
};
#define NNAMES (sizeof perf_names / sizeof perf_names[0])

static const struct perf_name *events[PI_PERF_MAX_EVENTS]; /* in force, in PERFINST_PERF's order */
static int nevents;

#define PERF_DEPTH 8          /* nested trace regions measured (indicators.c's depth) */
struct perf_thread {
    int fd[PI_PERF_MAX_EVENTS];
    int open;                 /* 0 not yet, 1 opened, -1 failed */
    uint64_t start[PERF_DEPTH][PI_PERF_MAX_EVENTS];
};
static __thread struct perf_thread *perf_self;

#define PERF_SLOTS 256
struct perf_slot {
    uint64_t unit_id;         /* with site: 0/0 free (claimed with used) */
    uint32_t site;
    int used;                 /* 0 free, 1 being filled, 2 ready */
    uint64_t intervals;
    uint64_t sum[PI_PERF_MAX_EVENTS];
};
static struct perf_slot perf_slots[PERF_SLOTS];

static int perf_open(const struct perf_name *n)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = n->type;
    a.config = n->config;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

/* PERFINST_PERF, parsed once at start-up (pi_init). */
void pi_perf_init(void)
{
    const char *v = secure_getenv("PERFINST_PERF");
    if (!v || !*v)
        return;
    char buf[512];
    size_t len = strlen(v);
    if (len >= sizeof buf) {
        pi_say("perfinst: PERFINST_PERF: too long; no perf events are counted\n", NULL);
        return;
    }
    memcpy(buf, v, len + 1);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        const struct perf_name *n = NULL;
        for (size_t i = 0; i < NNAMES && !n; i++)
            if (!strcmp(tok, pi_perf_event_name(perf_names[i].id)))
                n = &perf_names[i];
        if (!n) {
            pi_say("perfinst: PERFINST_PERF=", v, ": unknown event '", tok,
                   "' (known: cycles, instructions, cache-misses, cache-references, branches, "
                   "branch-misses, task-clock, cpu-clock, page-faults, context-switches, "
                   "cpu-migrations); it is left out\n", NULL);
            continue;
        }
        int dup = 0;
        for (int i = 0; i < nevents; i++)
            dup |= events[i] == n;
        if (dup)
            continue;
        if (nevents == PI_PERF_MAX_EVENTS) {
            pi_say("perfinst: PERFINST_PERF: at most 8 events; '", tok, "' is left out\n", NULL);
            continue;
        }
        int fd = perf_open(n);
        if (fd < 0) {
            int e = errno;
            pi_say("perfinst: PERFINST_PERF: '", tok, "' is not supported on this machine (perf_event_open: ",
                   strerror(e), "); it is not counted\n", NULL);
            continue;
        }
        close(fd);
        events[nevents++] = n;
    }
}

static struct perf_thread *perf_thread(void)
{
    struct perf_thread *t = perf_self;
    if (!t) {
        t = calloc(1, sizeof *t);
        if (!t)
            return NULL;
        perf_self = t;
    }
    if (!t->open) {
        t->open = 1;
        for (int i = 0; i < nevents; i++)
            if ((t->fd[i] = perf_open(events[i])) < 0)
                t->open = -1; /* (say nothing: it worked at start-up) */
    }
    return t->open == 1 ? t : NULL;
}

static void perf_read_all(const struct perf_thread *t, uint64_t *v)
{
    for (int i = 0; i < nevents; i++) {
        uint64_t x = 0;
        if (read(t->fd[i], &x, sizeof x) != (ssize_t)sizeof x)
            x = 0;
        v[i] = x;
    }
}

/* trace_start at nesting depth `depth` (0 = outermost). */
void pi_perf_start(int depth)
{
    if (!nevents || depth < 0 || depth >= PERF_DEPTH)
        return;
    struct perf_thread *t = perf_thread();
    if (t)
        perf_read_all(t, t->start[depth]);
}

static uint64_t perf_lost; /* intervals whose site found no slot */

static struct perf_slot *perf_slot(uint64_t unit_id, uint32_t site)
{
    uint64_t h = (unit_id ^ site * 0x9e3779b97f4a7c15ull) % PERF_SLOTS;
    for (uint32_t i = 0; i < 32; i++) { /* bounded, whatever the fill */
        struct perf_slot *s = &perf_slots[(h + i) % PERF_SLOTS];
        int u = PI_LOAD(&s->used);
        if (u == 0) {
            int zero = 0;
            if (__atomic_compare_exchange_n(&s->used, &zero, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
                s->unit_id = unit_id;
                s->site = site;
                PI_STORE(&s->used, 2);
                return s;
            }
            u = zero;
        }
        while (u == 1)
            u = PI_LOAD(&s->used);
        if (s->unit_id == unit_id && s->site == site)
            return s;
    }
    __atomic_fetch_add(&perf_lost, 1, __ATOMIC_RELAXED);
    return NULL;
}

/* trace_stop of the region that trace_start (unit_id, site) opened at depth. */
void pi_perf_stop(int depth, uint64_t unit_id, uint32_t site)
{
    if (!nevents || depth < 0 || depth >= PERF_DEPTH || !perf_self || perf_self->open != 1)
        return;
    uint64_t now[PI_PERF_MAX_EVENTS];
    perf_read_all(perf_self, now);
    struct perf_slot *s = perf_slot(unit_id, site);
    if (!s)
        return;
    for (int i = 0; i < nevents; i++)
        __atomic_fetch_add(&s->sum[i], now[i] - perf_self->start[depth][i], __ATOMIC_RELAXED);
    __atomic_fetch_add(&s->intervals, 1, __ATOMIC_RELAXED);
}

PI_EXPORT int perfinst_perf_read(uint64_t *values, int max)
{
    pi_init();
    struct perf_thread *t = nevents ? perf_thread() : NULL;
    if (!t)
        return 0;
    uint64_t v[PI_PERF_MAX_EVENTS];
    perf_read_all(t, v);
    int n = nevents < max ? nevents : max;
    for (int i = 0; i < n; i++)
        values[i] = v[i];
    return n;
}

PI_EXPORT const char *perfinst_perf_name(int i)
{
    pi_init();
    return i >= 0 && i < nevents ? pi_perf_event_name(events[i]->id) : NULL;
}

/* PERF records, one per trace_start site measured (async-signal-safe). */
void pi_perf_write(struct pi_rec_writer *w)
{
    for (uint32_t k = 0; k < PERF_SLOTS && nevents; k++) {
        const struct perf_slot *s = &perf_slots[k];
        if (PI_LOAD(&s->used) != 2)
            continue;
        struct pi_rec_perf r = {.unit_id = s->unit_id, .site = s->site, .nevents = (uint32_t)nevents,
                                .intervals = __atomic_load_n(&s->intervals, __ATOMIC_RELAXED)};
        w->begin(PI_REC_PERF);
        w->put(&r, sizeof r);
        for (int i = 0; i < nevents; i++) {
            struct pi_perf_value v = {.event = events[i]->id,
                                      .value = __atomic_load_n(&s->sum[i], __ATOMIC_RELAXED)};
            w->put(&v, sizeof v);
        }
        w->end();
    }
    pi_lost_write(w, PI_LOST_PERF, PERF_SLOTS, __atomic_load_n(&perf_lost, __ATOMIC_RELAXED), 0, 0);
}
