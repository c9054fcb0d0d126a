/* line-alloc.c — the allocators a repaired program calls (align-alloc,
 * docs/sharing.md "Repair"): the plugin turns the realloc call at a planned
 * site into __perfinst_line_realloc (libc has no aligned realloc), and a
 * calloc call that ends its basic block into __perfinst_line_calloc, whose
 * object starts a cache line and owns whole lines.  (A planned malloc, and
 * any other calloc, becomes aligned_alloc in the program itself;
 * __perfinst_line_malloc stays for programs built before.)
 *
 * Nothing else of the runtime: besides libperfinst this file alone makes
 * libperfinst-line.a, which the link stage links into a program that refers
 * to these and to nothing else of perfinst (a repaired build without
 * detection), so that the repair adds no runtime -- no start-up, no
 * interposed pthread_create -- to the program it repairs.
 *
 * In a build with sharing detection too (the full runtime linked), the
 * object is recorded at the program's call site, as the recording twins
 * record theirs (pi_sharing_line_alloc, sharing.c: a weak reference, 0 in
 * libperfinst-line.a alone). */
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfinst-format.h"
#include "perfinst.h"

/* (not runtime.h: its malloc is the runtime's own allocator; these are
 * the program's heap) */
#define PI_EXPORT __attribute__((visibility("default")))

extern void pi_sharing_line_alloc(void *p, size_t size, void *old, uint32_t kind, uint64_t pc)
    __attribute__((weak, visibility("hidden")));
#define PC ((uint64_t)(uintptr_t)__builtin_return_address(0))
#define NOTE(p, size, old, kind)                                                              \
    do {                                                                                     \
        if (pi_sharing_line_alloc)                                                           \
            pi_sharing_line_alloc((p), (size), (old), (kind), PC);                           \
    } while (0)

/* The repair (align-alloc): the object starts a line and owns whole lines. */
static size_t whole_lines(size_t n)
{
    return n ? (n + PI_SHARE_LINE - 1) / PI_SHARE_LINE * PI_SHARE_LINE : PI_SHARE_LINE;
}

static void *line_malloc(size_t size)
{
    if (size > SIZE_MAX - PI_SHARE_LINE) {
        errno = ENOMEM;
        return NULL;
    }
    return aligned_alloc(PI_SHARE_LINE, whole_lines(size));
}

PI_EXPORT void *__perfinst_line_malloc(size_t size)
{
    void *p = line_malloc(size);
    NOTE(p, size, NULL, 1);
    return p;
}

PI_EXPORT void *__perfinst_line_calloc(size_t n, size_t size)
{
    if (size && n > (SIZE_MAX - PI_SHARE_LINE) / size) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = line_malloc(n * size);
    if (p)
        memset(p, 0, whole_lines(n * size));
    NOTE(p, n * size, NULL, 2);
    return p;
}

PI_EXPORT void *__perfinst_line_realloc(void *old, size_t size)
{
    void *p = NULL;
    if (!old)
        p = line_malloc(size);
    else if (!size)
        free(old);
    else if ((p = line_malloc(size))) {
        size_t had = malloc_usable_size(old);
        memcpy(p, old, had < size ? had : size);
        free(old);
    }
    NOTE(p, size, p || !size ? old : NULL, 3); /* (failed: the old block stays) */
    return p;
}
