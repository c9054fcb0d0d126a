/* say.c — the runtime's messages: one line to stderr built from string
 * pieces (pi_say), and numbers as text (pi_fmt_u64, pi_fmt_unit).
 *
 * Async-signal-safe: a buffer on the stack and write(2), no stdio, no
 * malloc, no locale, so the fatal-signal handler, the trace writer and the
 * samplers' handlers can speak as the rest of the runtime does.  The fuzz
 * harnesses of the runtime's parsers include this file with pi_say renamed
 * and catch what is said (tests/runtime/fuzz-env.c).
 */
#include "runtime.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

char *pi_fmt_u64(char buf[24], uint64_t v, int base)
{
    char *p = buf + 23;
    *p = 0;
    do {
        *--p = "0123456789abcdef"[v % (unsigned)base];
        v /= (unsigned)base;
    } while (v);
    return p;
}

/* A unit id as pmopt dump-meta prints it: 16 hex digits, no 0x. */
char *pi_fmt_unit(char buf[24], uint64_t id)
{
    char d[24];
    const char *s = pi_fmt_u64(d, id, 16);
    size_t n = strlen(s), pad = n < 16 ? 16 - n : 0;
    memset(buf, '0', pad);
    memcpy(buf + pad, s, n + 1);
    return buf;
}

/* One line to stderr, built from NULL-terminated string pieces. */
void pi_say(const char *s, ...)
{
    char buf[1024];
    size_t n = 0;
    va_list ap;
    va_start(ap, s);
    for (; s; s = va_arg(ap, const char *))
        while (*s && n < sizeof buf)
            buf[n++] = *s++;
    va_end(ap);
    for (size_t done = 0; done < n;) {
        ssize_t w = write(STDERR_FILENO, buf + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        done += (size_t)w;
    }
}
