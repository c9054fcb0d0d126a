/* heap-wrap.c — every allocation of the process, for sharing detection's
 * heap reuse (docs/sharing.md, "Heap reuse"): libperfinst.so defines
 * malloc, calloc, realloc, memalign, aligned_alloc, posix_memalign, valloc
 * and pvalloc, so that a program linked with it — and glibc itself, whose
 * own allocations (strdup's, fopen's buffer, a library's malloc) go through
 * the global symbols — calls ours, which calls glibc's allocator
 * (__libc_malloc & co., the same heap: glibc's free releases the block)
 * and, while sharing detection runs, tells sharing.c the block's bytes
 * (pi_sharing_heap_reused): what the line records hold of them was done
 * to an earlier object and is forgotten, as for an allocation instrumented
 * code makes.  Allocations the plugin sent to sharing.c's recording twins
 * are told there, not here (the twin marks itself for its own call).
 *
 * Cost without sharing detection: malloc, calloc and realloc are one
 * indirect jump each to glibc's function (the pointers below, which
 * pi_heap_watch turns to the wrappers that tell when sharing detection
 * starts watching), one instruction over a plain malloc — a load, a test,
 * a branch and a jump through the PLT were 4 more, 1 M instructions of
 * gawk's 416 M counting the fields workload (bench/RESULTS.md, 2026-11-30
 * "gawk fields' counting"); the rarer allocators still test the flag
 * (WATCHING below).  free is not wrapped: the allocator's own frees the
 * blocks ours hand out, and a free forgets nothing (docs/sharing.md).
 *
 * The allocator is the next one after libperfinst.so in the lookup scope
 * (dlsym RTLD_NEXT, looked up at the first call): glibc's as a rule, but
 * another that replaces malloc and free when libperfinst.so comes before
 * it — LD_PRELOAD=libperfinst.so (sampling a plain program) in a program
 * linked with mimalloc, jemalloc or tcmalloc, or preloaded before one.
 * Wrapping glibc's there handed the program glibc's blocks, which the
 * other allocator's free was then given (a crash, or its heap corrupted:
 * tests/runtime/t-heapwrap-next.sh).
 *
 * Only in the shared runtime (runtime/build.mk leaves this file out of
 * libperfinst.a: a static link meets libc.a's malloc, which cannot be
 * replaced so), and not in the sanitizer builds (ASan and TSan define
 * malloc themselves, first in the link).
 */
#include "runtime.h"

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)

#include <dlfcn.h>
#include <errno.h>

/* runtime.h turns malloc & co. into the runtime's own allocator */
#undef malloc
#undef calloc
#undef realloc
#undef free

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void *__libc_memalign(size_t align, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);
extern void __libc_free(void *p);

/* glibc's posix_memalign over __libc_memalign (glibc exports no
 * __libc_posix_memalign): its checks, a power of two and a multiple of
 * sizeof (void *) */
static int posix_memalign_glibc(void **out, size_t align, size_t size)
{
    if (align % sizeof(void *) || (align & (align - 1)) || !align)
        return EINVAL;
    int e = errno;
    void *p = __libc_memalign(align, size);
    if (!p) {
        errno = e;
        return ENOMEM;
    }
    *out = p;
    return 0;
}

/* The first call of each: the allocator looked up (heap_next), then the
 * call made through it. */
static void *malloc_first(size_t size);
static void *calloc_first(size_t n, size_t size);
static void *realloc_first(void *old, size_t size);
static void *memalign_first(size_t align, size_t size);
static void *aligned_alloc_first(size_t align, size_t size);
static int posix_memalign_first(void **out, size_t align, size_t size);
static void *valloc_first(size_t size);
static void *pvalloc_first(size_t size);

/* The allocator wrapped: glibc's, or the next one in the lookup scope
 * when its free is not glibc's; until the first call, its look-up. */
static struct {
    void *(*malloc)(size_t);
    void *(*calloc)(size_t, size_t);
    void *(*realloc)(void *, size_t);
    void *(*memalign)(size_t, size_t);
    void *(*aligned_alloc)(size_t, size_t);
    int (*posix_memalign)(void **, size_t, size_t);
    void *(*valloc)(size_t);
    void *(*pvalloc)(size_t);
} next = {malloc_first, calloc_first, realloc_first, memalign_first,
          aligned_alloc_first, posix_memalign_first, valloc_first, pvalloc_first};
static __thread int next_looking __attribute__((tls_model("initial-exec")));

/* Where malloc, calloc and realloc go: the allocator's functions (the
 * look-up's until the first call), the telling wrappers once sharing
 * detection watches the heap.  Each wrapper is then `jmp *POINTER(%rip)`. */
static void *(*malloc_to)(size_t) = malloc_first;
static void *(*calloc_to)(size_t, size_t) = calloc_first;
static void *(*realloc_to)(void *, size_t) = realloc_first;

/* NAME's next definition after libperfinst.so, else DFLT */
static void *next_of(const char *name, void *dflt)
{
    void *f = dlsym(RTLD_NEXT, name);
    return f ? f : dflt;
}

/* The allocator after libperfinst.so in the lookup scope, looked up at
 * the first call (threads racing look up the same).  Returns 0 while the
 * calling thread looks (dlsym's own allocations then go to glibc's). */
__attribute__((noinline)) static int heap_next(void)
{
    if (next_looking)
        return 0;
    if (__atomic_load_n(&next.malloc, __ATOMIC_ACQUIRE) != malloc_first)
        return 1;
    next_looking = 1;
    void *f = dlsym(RTLD_NEXT, "free");
    int other = f && f != (void *)__libc_free;
#define NEXT(field, name, glibc) \
    __atomic_store_n(&next.field, other ? next_of(name, (void *)(glibc)) : (void *)(glibc), __ATOMIC_RELAXED)
    NEXT(calloc, "calloc", __libc_calloc);
    NEXT(realloc, "realloc", __libc_realloc);
    NEXT(memalign, "memalign", __libc_memalign);
    NEXT(aligned_alloc, "aligned_alloc", __libc_memalign);
    NEXT(posix_memalign, "posix_memalign", posix_memalign_glibc);
    NEXT(valloc, "valloc", __libc_valloc);
    NEXT(pvalloc, "pvalloc", __libc_pvalloc);
    void *m = other ? next_of("malloc", (void *)__libc_malloc) : (void *)__libc_malloc;
    __atomic_store_n(&next.malloc, m, __ATOMIC_RELEASE); /* (last: the others are known once this is) */
#undef NEXT
    /* the wrappers' pointers, unless sharing detection turned them meanwhile */
    void *(*f1)(size_t) = malloc_first;
    __atomic_compare_exchange_n(&malloc_to, &f1, next.malloc, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
    void *(*f2)(size_t, size_t) = calloc_first;
    __atomic_compare_exchange_n(&calloc_to, &f2, next.calloc, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
    void *(*f3)(void *, size_t) = realloc_first;
    __atomic_compare_exchange_n(&realloc_to, &f3, next.realloc, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
    next_looking = 0;
    return 1;
}

static void *malloc_first(size_t size) { return heap_next() ? next.malloc(size) : __libc_malloc(size); }
static void *calloc_first(size_t n, size_t size)
{
    return heap_next() ? next.calloc(n, size) : __libc_calloc(n, size);
}
static void *realloc_first(void *old, size_t size)
{
    return heap_next() ? next.realloc(old, size) : __libc_realloc(old, size);
}
static void *memalign_first(size_t align, size_t size)
{
    return heap_next() ? next.memalign(align, size) : __libc_memalign(align, size);
}
static void *aligned_alloc_first(size_t align, size_t size)
{
    return heap_next() ? next.aligned_alloc(align, size) : __libc_memalign(align, size);
}
static int posix_memalign_first(void **out, size_t align, size_t size)
{
    return heap_next() ? next.posix_memalign(out, align, size) : posix_memalign_glibc(out, align, size);
}
static void *valloc_first(size_t size) { return heap_next() ? next.valloc(size) : __libc_valloc(size); }
static void *pvalloc_first(size_t size) { return heap_next() ? next.pvalloc(size) : __libc_pvalloc(size); }

/* Is sharing detection watching the heap?  When not (every run but a
 * sharing run's), each wrapper is a tail jump to glibc's function: GCC
 * keeps the call out of the frame only when it is the branch's return. */
#define WATCHING __builtin_expect(pi_sharing_heap_watch, 0)
#define PC ((uint64_t)(uintptr_t)__builtin_return_address(0))
#define TELL(p, size)                                                                        \
    do {                                                                                     \
        if (WATCHING && (p))                                                                 \
            pi_sharing_heap_reused((p), (size), PC);                                         \
    } while (0)
/* The body of a wrapper that returns CALL's block of SIZE bytes. */
#define WRAPPED(call, size)                                                                  \
    do {                                                                                     \
        if (!WATCHING)                                                                       \
            return call;                                                                     \
        void *p_ = call;                                                                     \
        TELL(p_, size);                                                                      \
        return p_;                                                                           \
    } while (0)

static void *malloc_telling(size_t size)
{
    WRAPPED(next.malloc(size), size);
}

static void *calloc_telling(size_t n, size_t size)
{
    WRAPPED(next.calloc(n, size), n * size); /* (no overflow: it did not fail) */
}

static void *realloc_telling(void *old, size_t size)
{
    void *p = next.realloc(old, size);
    if (p != old) /* (in place: the same object) */
        TELL(p, size);
    return p;
}

void pi_heap_watch(void)
{
    heap_next();
    __atomic_store_n(&malloc_to, malloc_telling, __ATOMIC_RELEASE);
    __atomic_store_n(&calloc_to, calloc_telling, __ATOMIC_RELEASE);
    __atomic_store_n(&realloc_to, realloc_telling, __ATOMIC_RELEASE);
}

PI_EXPORT void *malloc(size_t size)
{
    return malloc_to(size);
}

PI_EXPORT void *calloc(size_t n, size_t size)
{
    return calloc_to(n, size);
}

PI_EXPORT void *realloc(void *old, size_t size)
{
    return realloc_to(old, size);
}

PI_EXPORT void *memalign(size_t align, size_t size)
{
    WRAPPED(next.memalign(align, size), size);
}

PI_EXPORT void *aligned_alloc(size_t align, size_t size)
{
    WRAPPED(next.aligned_alloc(align, size), size);
}

PI_EXPORT int posix_memalign(void **out, size_t align, size_t size)
{
    int r = next.posix_memalign(out, align, size);
    if (r == 0)
        TELL(*out, size);
    return r;
}

PI_EXPORT void *valloc(size_t size)
{
    WRAPPED(next.valloc(size), size);
}

PI_EXPORT void *pvalloc(size_t size)
{
    WRAPPED(next.pvalloc(size), size);
}

#endif
