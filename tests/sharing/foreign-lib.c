/* Built WITHOUT the plugin (a library the program links): allocates the
 * per-thread counters that foreign.c's instrumented threads then share.
 * Its malloc is not interposed, so no allocation record names them. */
#include <stdlib.h>
#include "foreign.h"

struct pair *lib_make_pair(void)
{
    struct pair *p = aligned_alloc(64, 64); /* a line of its own: the threads' fields share it */
    p->a = p->b = 0;
    return p;
}
