/* util.c — messages, memory, and the byte buffer chunks are built in. */
#define _GNU_SOURCE /* vasprintf */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pild.h"

int pild_verbose;

static void vmsg(const char *kind, const char *fmt, va_list ap)
{
    fprintf(stderr, PILD_NAME ": %s", kind);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void pild_err(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg("", fmt, ap);
    va_end(ap);
}

void pild_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg("note: ", fmt, ap);
    va_end(ap);
}

void *pild_xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) {
        pild_err("out of memory");
        exit(1); /* the atexit handler removes the temporary output */
    }
    return p;
}

void *pild_xmalloc(size_t n)
{
    return pild_xrealloc(NULL, n);
}

char *pild_xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(pild_xmalloc(n), s, n);
}

char *pild_xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s;
    int r = vasprintf(&s, fmt, ap);
    va_end(ap);
    if (r < 0) {
        pild_err("out of memory");
        exit(1);
    }
    return s;
}

void pild_buf_add(struct pild_buf *b, const void *data, size_t n)
{
    if (b->len + n > b->cap) {
        b->cap = b->cap * 2 > b->len + n ? b->cap * 2 : b->len + n + 256;
        b->p = pild_xrealloc(b->p, b->cap);
    }
    if (n)
        memcpy(b->p + b->len, data, n);
    b->len += n;
}

size_t pild_chunk_begin(struct pild_buf *b, uint16_t kind)
{
    static const unsigned char zero[8];
    pild_buf_add(b, zero, (8 - b->len % 8) % 8);
    size_t start = b->len;
    struct pi_chunk_hdr h = {.magic = PI_CHUNK_MAGIC, .version = PI_FORMAT_VERSION, .kind = kind};
    pild_buf_add(b, &h, sizeof h);
    return start;
}

int pild_chunk_end(struct pild_buf *b, size_t start, const char *what)
{
    static const unsigned char zero[8];
    pild_buf_add(b, zero, (8 - b->len % 8) % 8);
    if (b->len - start > UINT32_MAX) {
        pild_err("%s: chunk larger than 4 GiB", what);
        return -1;
    }
    struct pi_chunk_hdr h;
    memcpy(&h, b->p + start, sizeof h);
    h.size = (uint32_t)(b->len - start);
    h.hdr_crc = pi_crc32(0, &h, offsetof(struct pi_chunk_hdr, hdr_crc));
    memcpy(b->p + start, &h, sizeof h);
    return 0;
}
