/* maps.c — /proc/self/maps read line by line with open/read/close: no
 * stdio, no allocation (the trace may be written from a signal handler,
 * and the runtime never takes memory from the program's heap, whose layout
 * the sharing verdicts judge: tests/sharing/t-layout.sh).  Its users: the
 * writable mappings of the sharing records (sharing-regions.c) and the
 * calling thread's stack (unwind.c, pi_stack_from). */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "runtime.h"

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

size_t pi_maps_range(const char *s, size_t n, uint64_t *lo, uint64_t *hi)
{
    size_t i = 0;
    int d;
    *lo = *hi = 0;
    while (i < n && (d = hexval(s[i])) >= 0)
        *lo = *lo << 4 | (uint64_t)d, i++;
    if (i == 0 || i >= n || s[i++] != '-')
        return 0;
    size_t h = i;
    while (i < n && (d = hexval(s[i])) >= 0)
        *hi = *hi << 4 | (uint64_t)d, i++;
    return i > h && i < n && s[i] == ' ' ? i : 0;
}

int pi_maps_each(int (*line)(const char *s, size_t n, void *arg), void *arg)
{
    int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    char buf[8192];
    size_t have = 0;
    int stop = 0;
    while (!stop) {
        ssize_t got = read(fd, buf + have, sizeof buf - have);
        if (got <= 0) {
            if (have) /* a last line without its newline */
                line(buf, have, arg);
            break;
        }
        have += (size_t)got;
        size_t start = 0;
        for (size_t i = 0; i < have && !stop; i++)
            if (buf[i] == '\n') {
                stop = line(buf + start, i - start, arg);
                start = i + 1;
            }
        if (start == 0 && have == sizeof buf) /* a line longer than the buffer: dropped */
            have = 0;
        else {
            memmove(buf, buf + start, have - start);
            have -= start;
        }
    }
    close(fd);
    return 0;
}
