/* sharing-regions.c — the process's writable mappings, written with the
 * sharing records (PI_REC_SHARE_REGION, docs/formats.md): what lets pmopt
 * name a shared line that no global and no recorded allocation holds —
 * heap allocated by uninstrumented code (a library's malloc), a thread's
 * stack, a library's data (docs/sharing.md "Explanation").
 *
 * Read from /proc/self/maps with open/read/close and no stdio: the trace
 * may be written from a signal handler. */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "runtime.h"

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* One line of /proc/self/maps: "lo-hi perms offset dev inode   path" */
static void put_region(struct pi_rec_writer *w, const char *s, size_t n)
{
    uint64_t lo = 0, hi = 0;
    size_t i = 0;
    int d;
    while (i < n && (d = hexval(s[i])) >= 0)
        lo = lo << 4 | (uint64_t)d, i++;
    if (i >= n || s[i++] != '-')
        return;
    while (i < n && (d = hexval(s[i])) >= 0)
        hi = hi << 4 | (uint64_t)d, i++;
    if (i + 5 > n || s[i] != ' ' || s[i + 2] != 'w') /* writable mappings only */
        return;
    /* skip perms, offset, dev, inode: four fields */
    for (int f = 0; f < 4 && i < n; f++) {
        while (i < n && s[i] == ' ')
            i++;
        while (i < n && s[i] != ' ')
            i++;
    }
    while (i < n && s[i] == ' ')
        i++;
    const char *path = s + i;
    size_t plen = n - i;
    struct pi_rec_share_region r = {.lo = lo, .hi = hi, .kind = PI_SHARE_REGION_FILE,
                                    .path_len = (uint32_t)plen + 1};
    if (!plen)
        r.kind = PI_SHARE_REGION_ANON;
    else if (plen == 6 && !memcmp(path, "[heap]", 6))
        r.kind = PI_SHARE_REGION_HEAP;
    else if (plen == 7 && !memcmp(path, "[stack]", 7))
        r.kind = PI_SHARE_REGION_STACK;
    else if (path[0] == '[')
        r.kind = PI_SHARE_REGION_OTHER;
    w->begin(PI_REC_SHARE_REGION);
    w->put(&r, sizeof r);
    w->put(path, plen);
    w->put("", 1);
    w->end();
}

void pi_sharing_regions_write(struct pi_rec_writer *w)
{
    if (!pi_sharing_active())
        return;
    int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return; /* no /proc: the lines stay unnamed, as before */
    char buf[8192];
    size_t have = 0;
    for (;;) {
        ssize_t got = read(fd, buf + have, sizeof buf - have);
        if (got <= 0) {
            if (have) /* a last line without its newline */
                put_region(w, buf, have);
            break;
        }
        have += (size_t)got;
        size_t start = 0;
        for (size_t i = 0; i < have; i++)
            if (buf[i] == '\n') {
                put_region(w, buf + start, i - start);
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
}
