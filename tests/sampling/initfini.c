/* initfini.c — samples taken in an object's _init and _fini
 * (tests/sampling/t-stacks.sh).  glibc's crti.o and crtn.o make _init and
 * _fini (DT_INIT, DT_FINI) of the .init and .fini sections, with no FDE:
 * `sub $8,%rsp`, what the objects linked between them put there (calls,
 * as gcrt1.o's call of __gmon_start__ in a -pg build), `add $8,%rsp; ret`.
 * This file puts a call into each.  __libc_start_main calls the program's
 * _init after the runtime's constructor started the timers; _dl_fini calls
 * its _fini (after its .fini_array) before libperfinst.so's destructor
 * writes the trace.  Each spins tens of ms of CPU, every sample with
 * _init or _fini on its stack.
 *   initfini             prints 1 (both spins ran)
 */
#include <stdio.h>

volatile unsigned long initfini_sink;

__attribute__((noinline)) static void spin(unsigned long n)
{
    unsigned long x = initfini_sink;
    for (unsigned long i = 0; i < n; i++)
        x = x * 6364136223846793005ul + 1;
    initfini_sink = x;
}

__attribute__((noinline, used)) void init_spin(void)
{
    spin(60000000);
    initfini_sink |= 1ul << 62; /* no sibling call: this frame stays */
}

__attribute__((noinline, used)) void fini_spin(void)
{
    spin(60000000);
    initfini_sink++;
}

__asm__(".section .init,\"ax\",@progbits\n\tcall init_spin\n\t.previous\n"
        ".section .fini,\"ax\",@progbits\n\tcall fini_spin\n\t.previous\n");

int main(void)
{
    printf("%lu\n", initfini_sink >> 62);
    return 0;
}
