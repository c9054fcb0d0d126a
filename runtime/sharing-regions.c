/* sharing-regions.c — the process's writable mappings, written with the
 * sharing records (PI_REC_SHARE_REGION, docs/formats.md): what lets pmopt
 * name a shared line that no global and no recorded allocation holds —
 * heap allocated by uninstrumented code (a library's malloc), a thread's
 * stack, a library's data (docs/sharing.md "Explanation").
 *
 * Read from /proc/self/maps through maps.c (no stdio: the trace may be
 * written from a signal handler). */
#include <string.h>

#include "runtime.h"

/* One line of /proc/self/maps: "lo-hi perms offset dev inode   path" */
static int put_region(const char *s, size_t n, void *arg)
{
    struct pi_rec_writer *w = arg;
    uint64_t lo, hi;
    size_t i = pi_maps_range(s, n, &lo, &hi);
    if (!i || i + 5 > n || s[i + 2] != 'w') /* writable mappings only */
        return 0;
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
    return 0;
}

void pi_sharing_regions_write(struct pi_rec_writer *w)
{
    if (pi_sharing_active())
        pi_maps_each(put_region, w); /* no /proc: the lines stay unnamed, as before */
}
