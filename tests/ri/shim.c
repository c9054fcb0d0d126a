/* LD_PRELOAD shim: counts the calls the program makes into the runtime's
 * RI probes (the inline fast paths should make few), forwarding each. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>

static unsigned long n_unit, n_call, n_ret, n_xfer;

#define FWD(name, counter, proto, args)                                   \
    void name proto                                                        \
    {                                                                      \
        static void (*real) proto;                                         \
        if (!real)                                                         \
            real = (void (*) proto)dlsym(RTLD_NEXT, #name);                \
        counter++;                                                         \
        real args;                                                         \
    }
FWD(__perfinst_ri_unit, n_unit, (uint64_t every), (every))
FWD(__perfinst_ri_call, n_call, (void *ra), (ra))
FWD(__perfinst_ri_return, n_ret, (void *ra), (ra))
FWD(__perfinst_ri_transfer, n_xfer, (void *from), (from))

__attribute__((destructor)) static void report(void)
{
    fprintf(stderr, "shim: unit %lu call %lu return %lu transfer %lu\n", n_unit, n_call, n_ret, n_xfer);
}
