/* fake-unit.h — what the perfinst plugin generates for one translation unit,
 * written by hand so that the runtime's tests do not need the plugin:
 * per-thread counters, a tls_get function, a mode word, and the
 * constructor/destructor pair of the ABI (include/perfinst.h). */
#ifndef FAKE_UNIT_H
#define FAKE_UNIT_H
#include <stdint.h>
#include "perfinst.h"
#include "perfinst-format.h"

#define FAKE_UNIT(NAME, ID, N)                                                            \
    static __thread uint64_t NAME##_ctr[N];                                               \
    static uint64_t *NAME##_tls_get(void) { return NAME##_ctr; }                          \
    static int NAME##_mode = 1;                                                           \
    __attribute__((constructor)) static void NAME##_ctor(void)                            \
    {                                                                                     \
        __perfinst_register_unit(PI_ABI_VERSION, ID, N, NAME##_tls_get, &NAME##_mode);    \
    }                                                                                     \
    __attribute__((destructor)) static void NAME##_dtor(void)                             \
    {                                                                                     \
        __perfinst_unregister_unit(ID, NAME##_tls_get);                                   \
    }

/* The inline increment: plain, non-atomic, counted only while the mode word is set. */
#define HIT(NAME, I)                                                                      \
    do {                                                                                  \
        if (*(volatile int *)&NAME##_mode)                                                \
            NAME##_ctr[I]++;                                                              \
    } while (0)
#endif
