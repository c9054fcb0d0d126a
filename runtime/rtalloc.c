/* rtalloc.c — the runtime's own memory: never the program's heap.
 *
 * The runtime allocates while the program runs (its records of modules,
 * units and threads, pthread_create's start block, the sharing tables'
 * extensions).  From malloc, those blocks would move every later object of
 * the program: an instrumented program would place its heap objects
 * elsewhere than the plain build does (a calloc'd array of per-thread
 * structs at +0 of its line in one, +16 in the other), and the sharing
 * verdicts would describe a layout production does not have.  So
 * runtime.h turns the runtime's malloc, calloc, realloc, free and strdup
 * into these functions, which take memory from mmap'ed chunks:
 *
 *   - blocks of up to 4 KiB come from size classes (16, 32, ... 4096 bytes,
 *     a 16-byte header before each), carved from 1 MiB chunks, and go back
 *     to their class's free list;
 *   - larger blocks get a mapping of their own.
 *
 * pi_rt_free and pi_rt_realloc pass a pointer they did not hand out to
 * libc's (realpath(NAME, NULL) allocates with malloc).  A lock guards the
 * lists; fork takes it first (pthread_atfork), so a child never finds it
 * held.  Never called from a signal handler.
 */
#define PI_RT_REAL_MALLOC /* this file calls libc's for pointers it did not hand out */
#include "runtime.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define RT_CHUNK (1u << 20)
#define RT_CLASSES 9            /* 16 << k bytes, k = 0 .. 8: up to 4096 */
#define RT_HDR 16u
#define RT_MAGIC 0x7069727461ull /* "pirta" */

struct rt_hdr {
    uint32_t cls;               /* size class, or RT_CLASSES for a block with its own mapping */
    uint32_t pad;
    uint64_t bytes;             /* own mapping: its length (header included) */
};
_Static_assert(sizeof(struct rt_hdr) == RT_HDR, "the header keeps 16-byte alignment");

struct rt_span {                /* at the start of a chunk, or of a large block's mapping */
    struct rt_span *next;
    uintptr_t lo, hi;
};
#define RT_SPAN 32u             /* the span record, rounded up: blocks stay 16-aligned */
_Static_assert(sizeof(struct rt_span) <= RT_SPAN, "RT_SPAN");

static pthread_mutex_t rt_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t rt_once = PTHREAD_ONCE_INIT;
static struct rt_span *spans;   /* every chunk and large block, newest first */
static char *cur, *end;         /* the chunk being carved */
static void *free_list[RT_CLASSES];

static void rt_prepare(void) { pthread_mutex_lock(&rt_lock); }
static void rt_release(void) { pthread_mutex_unlock(&rt_lock); }
static void rt_setup(void) { pthread_atfork(rt_prepare, rt_release, rt_release); }

static void *rt_map(size_t n)
{
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* The span holding p, or NULL (lock held).  Spans are few: a chunk per MiB
 * of small blocks, one per large block. */
static struct rt_span *span_of(const void *p, struct rt_span ***link)
{
    uintptr_t a = (uintptr_t)p;
    struct rt_span **l = &spans;
    for (struct rt_span *s = spans; s; l = &s->next, s = s->next)
        if (a >= s->lo && a < s->hi) {
            if (link)
                *link = l;
            return s;
        }
    return NULL;
}

static unsigned class_of(size_t n)
{
    unsigned k = 0;
    while ((16u << k) < n)
        k++;
    return k;
}

/* A block of n bytes; *fresh set when its memory comes straight from a
 * mapping, never handed out before (zero already: calloc need not clear
 * it). */
static void *rt_alloc(size_t n, int *fresh)
{
    pthread_once(&rt_once, rt_setup);
    *fresh = 1;
    if (n > SIZE_MAX - RT_HDR - 4096)
        return NULL;
    if (n > (16u << (RT_CLASSES - 1))) { /* its own mapping; the span record at its start */
        size_t bytes = (RT_SPAN + RT_HDR + n + 4095) & ~(size_t)4095;
        char *m = rt_map(bytes);
        if (!m)
            return NULL;
        struct rt_span *s = (struct rt_span *)m;
        s->lo = (uintptr_t)m;
        s->hi = (uintptr_t)m + bytes;
        struct rt_hdr *h = (struct rt_hdr *)(m + RT_SPAN);
        h->cls = RT_CLASSES;
        h->bytes = bytes;
        pthread_mutex_lock(&rt_lock);
        s->next = spans;
        spans = s;
        pthread_mutex_unlock(&rt_lock);
        return (char *)h + RT_HDR;
    }
    unsigned k = class_of(n ? n : 1);
    size_t size = RT_HDR + (16u << k);
    pthread_mutex_lock(&rt_lock);
    char *b = free_list[k];
    if (b) {
        free_list[k] = *(void **)(b + RT_HDR);
        *fresh = 0;
    } else {
        if (!cur || (size_t)(end - cur) < size) {
            char *c = rt_map(RT_CHUNK);
            if (!c) {
                pthread_mutex_unlock(&rt_lock);
                return NULL;
            }
            struct rt_span *s = (struct rt_span *)c;
            s->lo = (uintptr_t)c;
            s->hi = (uintptr_t)c + RT_CHUNK;
            s->next = spans;
            spans = s;
            cur = c + RT_SPAN;
            end = c + RT_CHUNK;
        }
        b = cur;
        cur += size;
    }
    pthread_mutex_unlock(&rt_lock);
    struct rt_hdr *h = (struct rt_hdr *)b;
    h->cls = k;
    h->bytes = size;
    return b + RT_HDR;
}

void *pi_rt_malloc(size_t n)
{
    int fresh;
    return rt_alloc(n, &fresh);
}

/* Fresh memory is not cleared again: a program of many units (BusyBox's
 * 558, 43,000 counters) cleared 345 KB of new pages at its start, a sixth
 * of the runtime's fixed cost in each of its short processes. */
void *pi_rt_calloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    int fresh;
    void *p = rt_alloc(n * size, &fresh);
    if (p && !fresh)
        memset(p, 0, n * size);
    return p;
}

void pi_rt_free(void *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&rt_lock);
    struct rt_span **link;
    struct rt_span *s = span_of(p, &link);
    if (!s) {
        pthread_mutex_unlock(&rt_lock);
        free(p); /* libc's: not one of ours */
        return;
    }
    struct rt_hdr *h = (struct rt_hdr *)((char *)p - RT_HDR);
    if (h->cls == RT_CLASSES) {
        *link = s->next;
        pthread_mutex_unlock(&rt_lock);
        munmap((void *)s->lo, s->hi - s->lo);
        return;
    }
    *(void **)p = free_list[h->cls];
    free_list[h->cls] = h;
    pthread_mutex_unlock(&rt_lock);
}

void *pi_rt_realloc(void *p, size_t n)
{
    if (!p)
        return pi_rt_malloc(n);
    pthread_mutex_lock(&rt_lock);
    int mine = span_of(p, NULL) != NULL;
    pthread_mutex_unlock(&rt_lock);
    if (!mine)
        return realloc(p, n); /* libc's */
    const struct rt_hdr *h = (const struct rt_hdr *)((char *)p - RT_HDR);
    size_t have = h->cls == RT_CLASSES ? h->bytes - RT_SPAN - RT_HDR : (size_t)16 << h->cls;
    if (n <= have && h->cls != RT_CLASSES)
        return p;
    void *q = pi_rt_malloc(n);
    if (!q)
        return NULL;
    memcpy(q, p, have < n ? have : n);
    pi_rt_free(p);
    return q;
}

char *pi_rt_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = pi_rt_malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}
