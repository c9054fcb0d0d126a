/* util.c — messages, memory, argument vectors, running programs, and the
 * byte buffer chunks are built in. */
#define _GNU_SOURCE /* vasprintf */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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

void pild_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg("warning: ", fmt, ap);
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

size_t pild_chunk_begin(struct pild_buf *b, uint16_t kind, uint16_t version)
{
    static const unsigned char zero[8];
    pild_buf_add(b, zero, (8 - b->len % 8) % 8);
    size_t start = b->len;
    struct pi_chunk_hdr h = {.magic = PI_CHUNK_MAGIC, .version = version, .kind = kind};
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

void pild_argv_insert(struct pild_argv *a, size_t at, const char *s)
{
    a->v = pild_xrealloc(a->v, (a->n + 2) * sizeof *a->v);
    memmove(a->v + at + 1, a->v + at, (a->n - at) * sizeof *a->v);
    a->v[at] = pild_xstrdup(s);
    a->v[++a->n] = NULL;
}

void pild_argv_push(struct pild_argv *a, const char *s)
{
    pild_argv_insert(a, a->n, s);
}

void pild_show_command(char *const argv[])
{
    fprintf(stderr, PILD_NAME ": running");
    for (size_t i = 0; argv[i]; i++)
        fprintf(stderr, " %s", argv[i]);
    fputc('\n', stderr);
}

int pild_run(char *const argv[])
{
    if (pild_verbose)
        pild_show_command(argv);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        pild_err("fork: %s", strerror(errno));
        return 1;
    }
    if (pid == 0) {
        execvp(argv[0], argv);
        pild_err("cannot run %s: %s", argv[0], strerror(errno));
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) {
            pild_err("waitpid: %s", strerror(errno));
            return 1;
        }
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

char *pild_run_capture(char *const argv[])
{
    int p[2];
    if (pipe(p) != 0)
        return NULL;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]), close(p[1]);
        return NULL;
    }
    if (pid == 0) {
        dup2(p[1], 1);
        close(p[0]), close(p[1]);
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0)
            dup2(devnull, 2);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(p[1]);
    size_t cap = 65536, len = 0;
    char *out = pild_xmalloc(cap + 1);
    ssize_t r;
    while ((r = read(p[0], out + len, cap - len)) > 0 || (r < 0 && errno == EINTR))
        if (r > 0)
            len += (size_t)r;
    close(p[0]);
    out[len] = '\0';
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        free(out);
        return NULL;
    }
    return out;
}

char *pild_gcc_print(const char *gcc, const char *option)
{
    char *argv[] = {(char *)gcc, (char *)option, NULL};
    char *out = pild_run_capture(argv);
    if (out) {
        out[strcspn(out, "\n")] = '\0';
        if (*out)
            return out;
        free(out);
    }
    return NULL;
}
