/* phiedge.h — a helper inlined seven times into one function
 * (tests/count/t-lines-gcov.sh) */
#include <stdint.h>
static uint32_t st = 12345;
static inline uint32_t rnd(void)
{
    st = st * 1103515245u + 12345u;
    return st >> 8;
}
static inline uint32_t rnd_n(int max)
{
    return rnd() % max; /* @ret */
}
