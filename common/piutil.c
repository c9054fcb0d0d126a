/* piutil.c — small helpers the readers in common/ share.  See piutil.h. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "piutil.h"

int pi_grow(void **arr, size_t *cap, size_t n, size_t elem)
{
    if (n < *cap)
        return 0;
    size_t nc = *cap ? *cap * 2 : 16;
    if (nc > SIZE_MAX / elem)
        return -1;
    void *a = realloc(*arr, nc * elem);
    if (!a)
        return -1;
    *arr = a;
    *cap = nc;
    return 0;
}

int pi_err_set(struct pi_err *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

char *pi_path_join_clean(const char *dir, const char *path)
{
    int join = dir && *dir && path[0] != '/';
    size_t n = (join ? strlen(dir) + 1 : 0) + strlen(path) + 1;
    char *in = malloc(n), *out = malloc(n + 1);
    if (!in || !out) {
        free(in);
        free(out);
        return NULL;
    }
    snprintf(in, n, "%s%s%s", join ? dir : "", join ? "/" : "", path);
    /* components of in, one at a time, onto out; out[0 .. root) is never
       removed: "/" of an absolute path, "../.." a relative one starts with */
    int abs = in[0] == '/';
    size_t len = abs ? 1 : 0, root = len;
    out[0] = '/';
    for (const char *p = in; *p;) {
        while (*p == '/')
            p++;
        const char *e = p;
        while (*e && *e != '/')
            e++;
        size_t k = (size_t)(e - p);
        if (k == 0 || (k == 1 && p[0] == '.')) {
            /* nothing */
        } else if (k == 2 && p[0] == '.' && p[1] == '.') {
            if (len > root) { /* drop the last component */
                while (len > root && out[len - 1] != '/')
                    len--;
                if (len > root)
                    len--; /* its '/' */
            } else if (!abs) { /* "..": kept at the front of a relative path */
                if (len)
                    out[len++] = '/';
                out[len++] = '.';
                out[len++] = '.';
                root = len;
            }
        } else {
            if (len && out[len - 1] != '/')
                out[len++] = '/';
            memcpy(out + len, p, k);
            len += k;
        }
        p = e;
    }
    if (!len)
        out[len++] = '.';
    out[len] = 0;
    free(in);
    return out;
}

const char *pi_not_elf_why(const char *path)
{
    static char why[4200];
    char head[4096];
    static const char mark[] = " - temporary wrapper script for ";
    why[0] = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return why;
    size_t n = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    head[n] = 0;
    const char *m = n > 2 && head[0] == '#' && head[1] == '!' ? strstr(head, mark) : NULL;
    if (!m)
        return why;
    m += sizeof mark - 1;
    size_t l = strcspn(m, "\r\n");
    const char *slash = strrchr(path, '/');
    int dir = slash ? (int)(slash - path + 1) : 0;
    if (l && l < 1024)
        snprintf(why, sizeof why, "; it is libtool's wrapper script, the program is %.*s%.*s", dir, path,
                 (int)l, m);
    return why;
}
