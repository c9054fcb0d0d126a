/* thread.c — the threads the runtime knows, pthread_create and pthread_join.
 *
 * Each unit's counters are a __thread array, so every thread has its own copy
 * and the runtime must learn where each copy is and add it into the unit's
 * totals before the thread's TLS goes away.  pthread_create is interposed: the
 * new thread starts in pi_thread_main, which records (in a struct pi_thread)
 * the address of every registered unit's array in that thread, and flushes
 * them as the thread ends: a pthread key destructor, for a thread it
 * started (after the start routine returns or pthread_exit) and for those
 * it met another way (the main thread, any thread that registered a unit
 * or took an indirect call's miss: icall.c).  Other keys' destructors
 * (an allocator's thread-done, mimalloc's _mi_thread_done) run counted
 * code after the start routine: the runtime's destructor sets its key
 * again in each of glibc's rounds but the last two, flushing what came since,
 * so that their counts are not lost.  At process exit the recorded
 * addresses let the trace include threads that are still running.
 *
 * The counters live in static TLS, which glibc carves out of each new
 * thread's stack: a program that asks for a small stack (PTHREAD_STACK_MIN,
 * 64 KiB) would get pthread_create's EINVAL, or a thread with no stack
 * left, once the counters outgrow it (libuv's thread_stack_size_explicit:
 * 149 KiB of TLS).  So a stack size the program sets in its attributes is
 * raised by the static TLS the program's modules declare: the thread gets
 * at least the stack it asked for.  Attributes with no stack size keep
 * glibc's default, and a stack the program provides itself is left as it
 * is.
 *
 * pthread_create and pthread_join also tick the sharing detector's
 * fork/join clock (sharing.c): which threads may run at once follows from
 * the program's creates and joins, not from what the scheduler did.
 *
 * When the program's lookup finds libc's pthread_create first (a plain
 * program using a counted library), the modules' imports of it are pointed
 * at ours (gotpatch.c), which then calls the one the lookup found.
 */
#include "runtime.h"

#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdint.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* initial-exec: the signal handler reads it, so it must never allocate. */
__thread struct pi_thread *pi_self __attribute__((tls_model("initial-exec")));

uint64_t *pi_slot_get(const struct pi_thread *t, uint32_t index)
{
    struct pi_slots *s = PI_LOAD(&t->slots);
    return s && index < s->n ? PI_LOAD(&s->p[index]) : NULL;
}

/* Thread t's counters of unit u: at the unit's static TLS offset from the
 * thread's pointer, else where the thread recorded them (a thread starting
 * records only the units whose block is its own: a program of 200 units
 * paid 3,000 instructions a thread for all of them). */
uint64_t *pi_thread_block(const struct pi_thread *t, const struct pi_unit_rt *u)
{
    intptr_t off = PI_LOAD(&u->tls_off);
    uintptr_t tp = PI_LOAD(&t->tp);
    return off && tp ? (uint64_t *)(tp + (uintptr_t)off) : pi_slot_get(t, u->index);
}

/* T's slots made room for INDEX, and p stored there (out of line: the
 * store that each unit's registration and unregistration make saves no
 * register). */
static __attribute__((noinline, cold)) void slot_grow_locked(struct pi_thread *t, uint32_t index,
                                                               uint64_t *p)
{
    struct pi_slots *s = t->slots;
    uint32_t n = s ? s->n : 0, cap = n ? 2 * n : 16;
    while (cap <= index)
        cap *= 2;
    struct pi_slots *ns = calloc(1, sizeof *ns + cap * sizeof ns->p[0]);
    if (!ns)
        return;
    ns->n = cap;
    if (s)
        memcpy(ns->p, s->p, n * sizeof s->p[0]);
    PI_STORE(&ns->p[index], p);
    /* The old array is not freed: a signal handler may be reading it. */
    PI_STORE(&t->slots, ns);
}

void pi_slot_set_locked(struct pi_thread *t, uint32_t index, uint64_t *p)
{
    struct pi_slots *s = t->slots;
    if (s && index < s->n)
        PI_STORE(&s->p[index], p);
    else if (p)
        slot_grow_locked(t, index, p);
}

static void release_locked(struct pi_thread *t)
{
    struct pi_slots *s = t->slots;
    for (uint32_t i = 0; s && i < s->n; i++)
        PI_STORE(&s->p[i], NULL);
    t->tid = 0;
    PI_STORE(&t->used, 0);
}

/* The calling thread's record, made (or reused) on first need. */
struct pi_thread *pi_thread_self_locked(void)
{
    if (pi_self)
        return pi_self;
    struct pi_thread *t;
    for (t = pi.threads; t; t = t->next)
        if (!t->used)
            break;
    if (!t) {
        t = calloc(1, sizeof *t);
        if (!t)
            return NULL;
        t->next = pi.threads;
        PI_STORE(&pi.threads, t);
    }
    t->tid = gettid();
    t->exit_rounds = 0;
    PI_STORE(&t->tp, (uintptr_t)pi_tp_address(0));
    PI_STORE(&t->used, 1);
    pi_self = t;
    pthread_setspecific(pi.key, t);
    pi_altstack_enable(t);
    return t;
}

/* The thread is ending: its counters go into the totals, once. */
static void thread_leave(struct pi_thread *t)
{
    pthread_mutex_lock(&pi.lock);
    /* Under the lock: its first dynamic-TLS access may make glibc free this
     * thread's TLS block of a dlclose'd library, which an unregistering
     * thread reads under the lock (pi_flush_add). */
    pi_indicators_thread_exit();
    pi_icall_thread_exit();
    pi_sharing_thread_exit();
    if (!t || t != pi_self) {
        pthread_mutex_unlock(&pi.lock);
        return;
    }
    pi_flush_self_locked();
    pi.threads_flushed++;
    pi_altstack_disable(t);
    release_locked(t);
    pi_self = NULL;
    pthread_setspecific(pi.key, NULL);
    pthread_mutex_unlock(&pi.lock);
}

/* The thread's counts so far into the totals (its counters, its inline
 * caches' hits): it is ending, but other keys' destructors may still run
 * counted code. */
static void thread_flush(void)
{
    pthread_mutex_lock(&pi.lock);
    pi_icall_thread_exit(); /* (a later miss takes a chunk again) */
    pi_flush_self_locked();
    pthread_mutex_unlock(&pi.lock);
}

static void key_destructor(void *p)
{
    struct pi_thread *t = p;
    /* glibc calls each key's destructor in rounds (PTHREAD_DESTRUCTOR_
       ITERATIONS); one set again during a round runs in the next.  Ours
       comes first in a round as a rule (the runtime's key is made before
       the program's): flush and stay until the round before the last,
       which a sanitizer's runtime keeps for itself (ASan frees its thread
       in the last, and ours, run after it there, faulted) */
    if (t && t == pi_self && ++t->exit_rounds < PTHREAD_DESTRUCTOR_ITERATIONS - 1) {
        thread_flush();
        pthread_setspecific(pi.key, t);
        return;
    }
    thread_leave(t);
}

void pi_thread_setup(void)
{
    pthread_key_create(&pi.key, key_destructor);
    pthread_mutex_lock(&pi.lock);
    pi_thread_self_locked();
    pthread_mutex_unlock(&pi.lock);
}

/* Child after fork: only the forking thread exists. */
void pi_thread_after_fork_locked(void)
{
    for (struct pi_thread *t = pi.threads; t; t = t->next)
        if (t != pi_self && t->used)
            release_locked(t);
    if (pi_self)
        pi_self->tid = gettid();
}

struct pi_start {
    void *(*fn)(void *);
    void *arg;
    uint32_t birth;           /* its fork/join epoch */
};

static void *pi_thread_main(void *p)
{
    struct pi_start s = *(struct pi_start *)p;
    free(p);
    pi_sharing_thread_start(s.birth);
    pthread_mutex_lock(&pi.lock);
    struct pi_thread *t = pi_thread_self_locked();
    for (struct pi_unit_rt *u = pi.units; u && t; u = u->next)
        if (u->tls_get && !PI_LOAD(&u->tls_off))
            pi_slot_set_locked(t, u->index, u->tls_get());
    pthread_mutex_unlock(&pi.lock);
    pi_sample_thread_start();
    /* (the key destructor flushes and forgets the thread: after this
       return, other keys' destructors may still count) */
    return s.fn(s.arg);
}

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

/* In a fully static program (libc.a) there is no RTLD_NEXT: libc.a's own
 * name for the function is the way, when the link pulled it in
 * (-Wl,-u,__pthread_create; docs/runtime.md). */
extern int __pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *)
    __attribute__((weak));

static create_fn real_create(void)
{
    static create_fn real;
    create_fn f = __atomic_load_n(&real, __ATOMIC_RELAXED);
    if (!f) {
        f = (create_fn)pi_imports_next("pthread_create");
        if (!f)
            f = (create_fn)dlsym(RTLD_NEXT, "pthread_create");
        if (!f)
            f = __pthread_create;
        if (!f) {
            pi_say("perfinst: pthread_create: libc's is not linked in (a static program needs "
                   "-Wl,-u,__pthread_create)\n", NULL);
            return NULL;
        }
        __atomic_store_n(&real, f, __ATOMIC_RELAXED);
    }
    return f;
}

/* With every signal blocked: the program's handlers never run in it. */
int pi_thread_create_raw(pthread_t *th, void *(*fn)(void *), void *arg)
{
    create_fn f = real_create();
    if (!f)
        return EAGAIN;
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = f(th, NULL, fn, arg);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}

static int add_tls(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_TLS)
            *(size_t *)data += info->dlpi_phdr[i].p_memsz + info->dlpi_phdr[i].p_align;
    return 0;
}

/* The static TLS of the program's modules (an upper bound: modules loaded
 * later have theirs elsewhere), counted once. */
static size_t static_tls_bytes(void)
{
    static size_t bytes = (size_t)-1;
    size_t b = __atomic_load_n(&bytes, __ATOMIC_RELAXED);
    if (b == (size_t)-1) {
        b = 0;
        dl_iterate_phdr(add_tls, &b);
        b = (b + 4095) & ~(size_t)4095;
        __atomic_store_n(&bytes, b, __ATOMIC_RELAXED);
    }
    return b;
}

/* ATTR with its stack size raised by the static TLS, in *COPY (a shallow
 * copy: glibc's attribute object holds the size by value, its CPU set and
 * signal mask by pointer, shared, and the copy is never destroyed), or
 * ATTR itself when it sets no stack size or names a stack of the
 * program's own. */
static const pthread_attr_t *with_tls_room(const pthread_attr_t *attr, pthread_attr_t *copy)
{
    void *addr = NULL;
    size_t size = 0, tls = static_tls_bytes();
    /* (pthread_attr_getstack: the size set, 0 if none, which leaves glibc's
       default; glibc 2.36 gives a stack address of NULL less the size
       when none was set) */
    if (!attr || !tls || pthread_attr_getstack(attr, &addr, &size) != 0 || size == 0 ||
        (addr && (uintptr_t)addr + size != 0) || size > SIZE_MAX - tls)
        return attr;
    memcpy(copy, attr, sizeof *copy);
    return pthread_attr_setstacksize(copy, size + tls) == 0 ? copy : attr;
}

PI_EXPORT int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                             void *(*start)(void *), void *arg)
{
    create_fn f = real_create();
    if (!f)
        return EAGAIN;
    pi_init();
    pthread_attr_t copy;
    attr = with_tls_room(attr, &copy);
    struct pi_start *s = malloc(sizeof *s);
    if (!s)
        return f(thread, attr, start, arg);
    s->fn = start;
    s->arg = arg;
    s->birth = pi_sharing_fork();
    int rc = f(thread, attr, pi_thread_main, s);
    if (rc)
        free(s);
    return rc;
}

/* (our own definition, whatever the lookup scope says pthread_create is:
   gotpatch.c points other modules' imports at it) */
PI_OWN(pthread_create)

typedef int (*join_fn)(pthread_t, void **);
extern int __pthread_join(pthread_t, void **) __attribute__((weak)); /* libc.a's (-Wl,-u,__pthread_join) */
/* (shared runtime: idle-wrap.c makes it a blocking point) */
int pi_idle_join(pthread_t th, void **ret, int (*real)(pthread_t, void **), uintptr_t ra) __attribute__((weak));

PI_EXPORT int pthread_join(pthread_t th, void **ret)
{
    static join_fn real;
    join_fn f = __atomic_load_n(&real, __ATOMIC_RELAXED);
    if (!f) {
        f = (join_fn)dlsym(RTLD_NEXT, "pthread_join");
        if (!f)
            f = __pthread_join;
        if (!f) {
            pi_say("perfinst: pthread_join: libc's is not linked in (a static program needs "
                   "-Wl,-u,__pthread_join)\n", NULL);
            return EINVAL;
        }
        __atomic_store_n(&real, f, __ATOMIC_RELAXED);
    }
    int rc = pi_idle_join ? pi_idle_join(th, ret, f, (uintptr_t)__builtin_return_address(0)) : f(th, ret);
    if (!rc)
        pi_sharing_joined(th);
    return rc;
}

/* The unit's constructor, for counters of a shared object compiled -fPIC
 * (gcc-plugin/pass-tls.cc): ADDR, the calling thread's copy of the unit's
 * counter array, minus the thread pointer when the array lies in the
 * static TLS block — then every thread has its copy at that same offset
 * from its own thread pointer (the block of a module loaded at start-up, or
 * placed in the static surplus by a dlopen), and the counting code adds to
 * %fs:OFFSET+8*K with no call; else 0, and the counting code takes
 * __tls_get_addr's address as before (a dlopen'ed module whose TLS glibc
 * allocates per thread on first use).  x86-64 glibc keeps the static
 * block right below the thread pointer (TLS variant II): its size less the
 * thread control block (struct pthread) that follows it, as glibc's
 * private _dl_get_tls_static_info and _thread_db_sizeof_pthread say;
 * without them (another libc, a static link) the answer is 0. */
/* The last answer of this thread: the registration asks for a library
 * unit's offset (core.c) and the unit's constructor asks again next. */
static __thread const void *last_addr __attribute__((tls_model("initial-exec")));
static __thread intptr_t last_off __attribute__((tls_model("initial-exec")));

PI_EXPORT intptr_t __perfinst_tls_static_offset(const void *addr)
{
#if defined(__x86_64__) && defined(__GLIBC__)
    /* (an address's answer never changes in a thread: the static block is
       made with the thread) */
    if (addr && addr == last_addr)
        return last_off;
    /* looked up once, not per unit (two dlsym of RTLD_DEFAULT each walked
       every loaded object's symbols: 121,000 instructions at the start of
       libjpeg-turbo's djpeg, a third of its run on a small image) */
    typedef void (*info_fn)(size_t *, size_t *);
    static info_fn info_once;
    static const uint32_t *tcb_once;
    static int looked;
    if (!__atomic_load_n(&looked, __ATOMIC_ACQUIRE)) {
        __atomic_store_n(&info_once, (info_fn)dlsym(RTLD_DEFAULT, "_dl_get_tls_static_info"), __ATOMIC_RELAXED);
        __atomic_store_n(&tcb_once, (const uint32_t *)dlsym(RTLD_DEFAULT, "_thread_db_sizeof_pthread"),
                         __ATOMIC_RELAXED);
        __atomic_store_n(&looked, 1, __ATOMIC_RELEASE);
    }
    info_fn info = __atomic_load_n(&info_once, __ATOMIC_RELAXED);
    const uint32_t *tcb = __atomic_load_n(&tcb_once, __ATOMIC_RELAXED);
    if (!info || !tcb || !addr)
        return 0;
    size_t size = 0, align = 0;
    info(&size, &align);
    uintptr_t tp, a = (uintptr_t)addr;
    __asm__("mov %%fs:0, %0" : "=r"(tp));
    intptr_t off = size <= *tcb || a >= tp || a < tp - (size - *tcb) ? 0 : (intptr_t)(a - tp);
    last_addr = addr;
    last_off = off;
    return off;
#else
    (void)addr;
    return 0;
#endif
}

/* A counting copy's counters' offset where __perfinst_ctr_off is 0: the
 * module's TLS block not in the static block (glibc gives a dlopen'ed
 * module's block to each thread apart, on its first use), or code run
 * before the unit's constructor.  The counting copy asks once per call
 * (gcc-plugin/unit.cc pi_ctr_base_asm_template): one asm that GCC sees
 * change only its output register, whose out-of-line part steps over the
 * red zone, pushes the unit's getter (its counters' address, GCC's TLS
 * model) and the asm's end (for an unwinder), and calls
 * __perfinst_ctr_base_stub through the GOT.  Above the stub's return
 * address:
 *
 *     8(%rsp) the asm's end   16 the getter, where the stub leaves the offset
 *
 * then 128 bytes of red zone and the function's own stack.  The stub saves
 * the caller-saved general registers and looks the getter up in the
 * thread's cache of offsets (pi_ctr_base_cached, general registers only);
 * on a miss it saves the extended state too (PI_STUB_SAVE_EXT: the getter
 * may run __tls_get_addr's allocation, malloc) and calls the getter
 * (pi_ctr_base_libc), which fills the cache.  It returns with `ret $8`,
 * the offset on the top of the stack for the asm to pop.  Its frame
 * description tells an unwinder that it was called from the asm's end with
 * the function's own stack pointer, as __perfinst_icall_stub's does.  A
 * unit that leaves (pi_ctr_base_unit_gone) makes every thread's cached
 * offsets stale: another module may be loaded at its getter's address.
 *
 * Before saving anything the stub tries the getter's own slot of the
 * cache (bits 4-6 of its address: three registers, no call), where
 * pi_ctr_base_cached moves an entry it finds elsewhere: a dlopen'ed
 * module's counted call (every Python extension's) paid ~50 instructions
 * for the saves and the C look-up, ~20 now. */
struct base_slot {
    const void *getter;
    intptr_t off;
    uint64_t gen;
    uint64_t pad; /* 32 bytes: the stub indexes by a shift */
};
#define BASE_SLOTS 8
__attribute__((visibility("hidden"))) __thread struct base_slot pi_ctr_base_slots[BASE_SLOTS]
    __attribute__((tls_model("initial-exec")));
static __thread unsigned base_next __attribute__((tls_model("initial-exec")));
__attribute__((visibility("hidden"))) uint64_t pi_ctr_base_gen = 1;
_Static_assert(sizeof(struct base_slot) == 32, "the stub's slots are 32 bytes");

static unsigned home_slot(const void *getter)
{
    return (unsigned)((uintptr_t)getter >> 4) & (BASE_SLOTS - 1);
}

/* A slot's getter last: a signal handler's counted code in this thread,
 * looking the slot up, never sees a getter with another's offset. */
static void set_slot(struct base_slot *s, const void *getter, intptr_t off, uint64_t gen)
{
    s->getter = NULL;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    s->off = off;
    s->gen = gen;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    s->getter = getter;
}

#pragma GCC push_options
#pragma GCC target("general-regs-only")
__attribute__((visibility("hidden"))) intptr_t pi_ctr_base_cached(const void *getter)
{
    uint64_t gen = __atomic_load_n(&pi_ctr_base_gen, __ATOMIC_ACQUIRE);
    for (unsigned i = 0; i < BASE_SLOTS; i++)
        if (pi_ctr_base_slots[i].getter == getter && pi_ctr_base_slots[i].gen == gen) {
            intptr_t off = pi_ctr_base_slots[i].off;
            unsigned h = home_slot(getter);
            if (i != h) { /* (swapped: two getters of one home both stay) */
                struct base_slot t = pi_ctr_base_slots[h];
                set_slot(&pi_ctr_base_slots[h], getter, off, gen);
                set_slot(&pi_ctr_base_slots[i], t.getter, t.off, t.gen);
            }
            return off;
        }
    return 0;
}
#pragma GCC pop_options

/* Each thread's offset of a dlopen'ed counted module's TLS block, by
 * slot: the module's units' counting copies add their counters' place in
 * the block (@dtpoff) to it, with no call (gcc-plugin/unit.cc
 * pi_ctr_base_asm_template; __perfinst_tls_slot, core.c).  0 until the
 * thread's first stub call for the module fills it.  A slot is given
 * once: a module unloaded keeps its slot's old values in every thread, so
 * its slot is never given again (a ninth module's units use the stub).
 * Static TLS (initial-exec): the same offset from every thread's pointer,
 * and 64 bytes of the surplus glibc keeps for a dlopen'ed runtime. */
#define MOD_SLOTS 8
static __thread intptr_t pi_mod_bases[MOD_SLOTS] __attribute__((tls_model("initial-exec")));
static int mod_slots_given;

intptr_t pi_mod_base_slot(struct pi_module *m)
{
    if (!m->tls_slot && m->tls_modid && mod_slots_given < MOD_SLOTS) {
        PI_STORE(&m->tls_slot, ++mod_slots_given);
        /* the threads' cached offsets go stale: their next stub call fills
           the slot (pi_ctr_base_libc) */
        pi_ctr_base_unit_gone();
    }
    return m->tls_slot ? pi_tp_offset(&pi_mod_bases[m->tls_slot - 1]) : 0;
}

/* The calling thread's block of the module of TLS id *data (glibc tells
 * it once the thread has one), into *data. */
static int tls_block_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    uintptr_t *q = data;
    if (info->dlpi_tls_modid != q[0])
        return 0;
    q[1] = (uintptr_t)info->dlpi_tls_data;
    return 1;
}

/* pi.lock taken by counted code, which may run in a signal handler: not
 * when this thread holds it (glibc records a mutex's owner, pi.lock_alone
 * a one-thread process's registration); another holder is waited for (a
 * trylock alone left threads missing at once unknown).  Whether taken. */
int pi_lock_from_counted(void)
{
    if (__atomic_load_n(&pi.lock_alone, __ATOMIC_RELAXED))
        return 0;
    return pthread_mutex_trylock(&pi.lock) == 0 ||
           (__atomic_load_n(&pi.lock.__data.__owner, __ATOMIC_RELAXED) != gettid() &&
            pthread_mutex_lock(&pi.lock) == 0);
}

/* A counted call of this thread into a dlopen'ed module that missed the
 * stub's cache (the getter's; its block made).  The first into a module
 * with a slot puts the module's block's offset into this thread's slot,
 * and notes the thread's blocks of all the module's units, so that a
 * trace written while the thread lives has them (a thread records only
 * the units registered before it started, pi_thread_main); a thread the
 * runtime does not know yet (started before the runtime was loaded:
 * python's threads started before the import) is made known. */
static void first_in_module(const void *getter, uint64_t *block)
{
    struct pi_module *m;
    for (m = __atomic_load_n(&pi.modules, __ATOMIC_ACQUIRE); m; m = __atomic_load_n(&m->next, __ATOMIC_ACQUIRE))
        if ((uintptr_t)getter >= m->lo && (uintptr_t)getter < m->hi && __atomic_load_n(&m->live, __ATOMIC_RELAXED))
            break;
    if (!m)
        return;
    int k = __atomic_load_n(&m->tls_slot, __ATOMIC_ACQUIRE), first = 0;
    uintptr_t q[2] = {m->tls_modid, 0};
    if (k && !pi_mod_bases[k - 1] && (dl_iterate_phdr(tls_block_cb, q), q[1])) {
        pi_mod_bases[k - 1] = pi_tp_offset((const void *)q[1]);
        first = 1;
    }
    /* (a module without a slot comes here at each miss of the thread's
       cache: the lock only for a thread the runtime does not know yet) */
    if ((!first && pi_self) || !pi_lock_from_counted())
        return;
    struct pi_thread *t = pi_thread_self_locked();
    for (struct pi_unit_rt *u = pi.units; u && t; u = u->next)
        if (u->module == m && u->tls_get)
            pi_slot_set_locked(t, u->index, (const void *)u->tls_get == getter ? block : u->tls_get());
    pthread_mutex_unlock(&pi.lock);
}

__attribute__((visibility("hidden"))) intptr_t pi_ctr_base_libc(const void *getter)
{
    uint64_t *(*get)(void) = (uint64_t * (*)(void)) getter, *block = get();
    intptr_t off = pi_tp_offset(block);
    set_slot(&pi_ctr_base_slots[base_next++ % BASE_SLOTS], getter, off,
             __atomic_load_n(&pi_ctr_base_gen, __ATOMIC_ACQUIRE));
    first_in_module(getter, block);
    return off;
}

intptr_t pi_tp_offset(const void *addr)
{
#if defined(__x86_64__)
    uintptr_t tp;
    __asm__("mov %%fs:0, %0" : "=r"(tp));
    return (intptr_t)((uintptr_t)addr - tp);
#else
    (void)addr;
    return 0;
#endif
}

void *pi_tp_address(intptr_t off)
{
#if defined(__x86_64__)
    uintptr_t tp;
    __asm__("mov %%fs:0, %0" : "=r"(tp));
    return (void *)(tp + (uintptr_t)off);
#else
    (void)off;
    return NULL;
#endif
}

void pi_ctr_base_unit_gone(void)
{
    __atomic_add_fetch(&pi_ctr_base_gen, 1, __ATOMIC_RELEASE);
}

__asm__(".text\n"
        "\t.globl __perfinst_ctr_base_stub\n"
        "\t.type __perfinst_ctr_base_stub, @function\n"
        "\t.p2align 4\n"
        "__perfinst_ctr_base_stub:\n"
        "\t.cfi_startproc\n"
        "\t.cfi_def_cfa_offset 152\n"
        "\t.cfi_offset 16, -144\n" /* the return address: the asm's end */
        "\tendbr64\n"
        /* the getter's own slot: hit with three registers saved */
        "\tpushq %rax\n\t.cfi_adjust_cfa_offset 8\n"
        "\tpushq %rcx\n\t.cfi_adjust_cfa_offset 8\n"
        "\tpushq %rdx\n\t.cfi_adjust_cfa_offset 8\n"
        "\tmovq 40(%rsp), %rax\n"
        "\tmovl %eax, %ecx\n\tshrl $4, %ecx\n\tandl $7, %ecx\n\tshll $5, %ecx\n"
        "\tmovq pi_ctr_base_slots@gottpoff(%rip), %rdx\n"
        "\taddq %rcx, %rdx\n"
        "\tcmpq %rax, %fs:(%rdx)\n"
        "\tjne 5f\n"
        "\tmovq pi_ctr_base_gen(%rip), %rax\n"
        "\tcmpq %rax, %fs:16(%rdx)\n"
        "\tjne 5f\n"
        "\tmovq %fs:8(%rdx), %rax\n"
        "\tmovq %rax, 40(%rsp)\n"
        "\tpopq %rdx\n\t.cfi_adjust_cfa_offset -8\n"
        "\tpopq %rcx\n\t.cfi_adjust_cfa_offset -8\n"
        "\tpopq %rax\n\t.cfi_adjust_cfa_offset -8\n"
        "\tret $8\n"
        "\t.cfi_adjust_cfa_offset 24\n"
        "5:\tpopq %rdx\n\t.cfi_adjust_cfa_offset -8\n"
        "\tpopq %rcx\n\t.cfi_adjust_cfa_offset -8\n"
        "\tpopq %rax\n\t.cfi_adjust_cfa_offset -8\n"
        "\tpushq %rbp\n"
        "\t.cfi_def_cfa_offset 160\n"
        "\t.cfi_offset %rbp, -160\n"
        "\tmovq %rsp, %rbp\n"
        "\t.cfi_def_cfa_register %rbp\n"
        "\tpushq %rax\n\tpushq %rcx\n\tpushq %rdx\n\tpushq %rsi\n\tpushq %rdi\n"
        "\tpushq %r8\n\tpushq %r9\n\tpushq %r10\n\tpushq %r11\n\tpushq %rbx\n"
        "\tandq $-16, %rsp\n"
        "\tmovq 24(%rbp), %rdi\n"
        "\tcall pi_ctr_base_cached\n" /* general registers only */
        "\ttestq %rax, %rax\n"
        "\tjz 7f\n"
        "6:\tmovq %rax, 24(%rbp)\n"
        "\tleaq -80(%rbp), %rsp\n"
        "\tpopq %rbx\n\tpopq %r11\n\tpopq %r10\n\tpopq %r9\n\tpopq %r8\n"
        "\tpopq %rdi\n\tpopq %rsi\n\tpopq %rdx\n\tpopq %rcx\n\tpopq %rax\n"
        "\tpopq %rbp\n"
        "\t.cfi_remember_state\n"
        "\t.cfi_def_cfa %rsp, 152\n"
        "\t.cfi_restore %rbp\n"
        "\tret $8\n"
        /* not cached: the vector state saved, the getter called */
        "\t.cfi_restore_state\n"
        "7:" PI_STUB_SAVE_EXT
        "\tmovq 24(%rbp), %rdi\n"
        "\tcall pi_ctr_base_libc\n"
        "\tmovq %rax, 24(%rbp)\n"
        PI_STUB_RESTORE_EXT("8f")
        "8:\tmovq 24(%rbp), %rax\n"
        "\tjmp 6b\n"
        "\t.cfi_endproc\n"
        "\t.size __perfinst_ctr_base_stub, .-__perfinst_ctr_base_stub\n");
