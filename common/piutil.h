/* piutil.h — small helpers the readers in common/ share. */
#ifndef PERFINST_PIUTIL_H
#define PERFINST_PIUTIL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Make room in *arr (of *cap elements of size elem) for element n: the
 * capacity doubles (from 16) when n reaches it.  0, or -1 when out of memory
 * (the array and capacity are then unchanged). */
int pi_grow(void **arr, size_t *cap, size_t n, size_t elem);

#ifdef __cplusplus
}
#endif

#endif /* PERFINST_PIUTIL_H */
