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

/* 1 when tok names an event PERFINST_PERF knows. */
int fuzz_perf_known(const char *tok)
{
    for (size_t i = 0; i < NNAMES; i++)
        if (!strcmp(tok, pi_perf_event_name(perf_names[i].id)))
            return 1;
    return 0;
}
