/* pifd.h — a file descriptor read to its end.  Compiled into both pmopt
 * and libperfinst (runtime/build.mk), so libc only. */
#ifndef PERFINST_PIFD_H
#define PERFINST_PIFD_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What fd holds up to its end (or to a read error; EINTR is retried), in
 * malloc'ed memory, and its length in *len.  NULL when memory ran out:
 * reading stops there.  fd stays open. */
char *pi_read_fd(int fd, size_t *len);

#ifdef __cplusplus
}
#endif

#endif /* PERFINST_PIFD_H */
