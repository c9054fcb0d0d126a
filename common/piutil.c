/* piutil.c — small helpers the readers in common/ share.  See piutil.h. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

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
