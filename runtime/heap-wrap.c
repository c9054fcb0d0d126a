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
 * (WATCHING below).  free is not wrapped: glibc's own frees the
 * blocks ours hand out, and a free forgets nothing (docs/sharing.md).
 *
 * Only in the shared runtime (runtime/build.mk leaves this file out of
 * libperfinst.a: a static link meets libc.a's malloc, which cannot be
 * replaced so), and not in the sanitizer builds (ASan and TSan define
 * malloc themselves, first in the link).
 */
#include "runtime.h"

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)

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
    WRAPPED(__libc_malloc(size), size);
}

static void *calloc_telling(size_t n, size_t size)
{
    WRAPPED(__libc_calloc(n, size), n * size); /* (no overflow: it did not fail) */
}

static void *realloc_telling(void *old, size_t size)
{
    void *p = __libc_realloc(old, size);
    if (p != old) /* (in place: the same object) */
        TELL(p, size);
    return p;
}

/* Where malloc, calloc and realloc go: glibc's functions (relocated when
 * libperfinst.so is loaded, before any call can come here), the telling
 * wrappers once sharing detection watches the heap.  Each wrapper is then
 * `jmp *POINTER(%rip)`. */
static void *(*malloc_to)(size_t) = __libc_malloc;
static void *(*calloc_to)(size_t, size_t) = __libc_calloc;
static void *(*realloc_to)(void *, size_t) = __libc_realloc;

void pi_heap_watch(void)
{
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
    WRAPPED(__libc_memalign(align, size), size);
}

PI_EXPORT void *aligned_alloc(size_t align, size_t size)
{
    WRAPPED(__libc_memalign(align, size), size);
}

PI_EXPORT int posix_memalign(void **out, size_t align, size_t size)
{
    /* glibc's checks: a power of two, a multiple of sizeof (void *) */
    if (align % sizeof(void *) || (align & (align - 1)) || !align)
        return EINVAL;
    int e = errno;
    void *p = __libc_memalign(align, size);
    if (!p) {
        errno = e;
        return ENOMEM;
    }
    TELL(p, size);
    *out = p;
    return 0;
}

PI_EXPORT void *valloc(size_t size)
{
    WRAPPED(__libc_valloc(size), size);
}

PI_EXPORT void *pvalloc(size_t size)
{
    WRAPPED(__libc_pvalloc(size), size);
}

#endif
