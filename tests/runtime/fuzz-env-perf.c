/* fuzz-env-perf.c — runtime/perfev.c compiled into tests/runtime/fuzz-env.c's
 * harness: pi_perf_init (PERFINST_PERF) on any value.
 */
#include <stdlib.h>
const char *fuzz_getenv(const char *name);
#define secure_getenv fuzz_getenv
#include "../../runtime/perfev.c"

int fuzz_perf_init(void)
{
    nevents = 0;
    pi_perf_init();
    return nevents;
}
