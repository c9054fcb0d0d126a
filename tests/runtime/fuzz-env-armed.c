/* fuzz-env-armed.c — runtime/armed.c compiled into tests/runtime/fuzz-env.c's
 * harness, with its environment read from the fuzzer's input: pi_armed_init
 * (PERFINST_DORMANT, PERFINST_COMBINE) runs as at start-up, on any value.
 */
#include <stdlib.h>
const char *fuzz_getenv(const char *name);
#define secure_getenv fuzz_getenv
#include "../../runtime/armed.c"

/* PERFINST_COMBINE=v parsed as at start-up: the number installed. */
int fuzz_armed_init(void)
{
    ncombos = 0;
    dormant_by_handler = 0;
    pi_armed_init();
    return ncombos;
}
