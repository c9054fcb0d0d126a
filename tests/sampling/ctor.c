/* ctor.c — samples taken in a library's constructor (tests/sampling/t-stacks.sh).
 * Built twice: with -DCTOR_LIB as libctor.so, which depends on
 * libperfinst.so, so the loader runs its constructor after the runtime's
 * (the timers already run), from _dl_init, called by ld.so's entry code
 * (_start, _dl_start_user), which has no FDE; and as the program, which
 * uses the library.  Every sample of ctor_spin must be complete: the walk
 * ends at the loader's entry code as at a program's _start.
 *   ctor                 prints the library's result
 */
#ifdef CTOR_LIB
volatile unsigned long ctor_sink;

__attribute__((noinline)) void ctor_spin(unsigned long n)
{
    unsigned long x = ctor_sink;
    for (unsigned long i = 0; i < n; i++)
        x = x * 6364136223846793005ul + 1;
    ctor_sink = x;
}

__attribute__((constructor)) static void ctor_init(void)
{
    ctor_spin(60000000); /* tens of ms of CPU: tens of samples at cpu:1ms */
    ctor_sink++;         /* no sibling call: this frame stays */
}

unsigned long ctor_result(void)
{
    return ctor_sink & 1;
}
#else
#include <stdio.h>

unsigned long ctor_result(void);

int main(void)
{
    printf("%lu\n", ctor_result());
    return 0;
}
#endif
