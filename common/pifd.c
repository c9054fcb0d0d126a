/* pifd.c — a file descriptor read to its end (pifd.h); libc only. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "pifd.h"

char *pi_read_fd(int fd, size_t *len)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            char *t = realloc(buf, cap *= 2);
            if (!t) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = t;
        }
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    *len = n;
    return buf;
}
