/* handler.c — time spent in a signal handler (tests/sampling/t-stacks.sh):
 * main → raise(SIGUSR1) → (the kernel's signal frame, glibc's __restore_rt)
 * → on_usr1 → spin.  The unwinder must get from spin through the signal
 * trampoline (whose CFI is DWARF expressions) back to main.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

volatile unsigned long sink;

__attribute__((noinline)) void spin(unsigned long n)
{
    unsigned long x = sink;
    for (unsigned long i = 0; i < n; i++)
        x = x * 2862933555777941757ul + 3037000493ul;
    sink = x;
}

static void on_usr1(int sig)
{
    spin(100000000);
    sink += (unsigned long)sig;
}

int main(void)
{
    signal(SIGUSR1, on_usr1);
    raise(SIGUSR1);
    printf("%lu\n", sink & 1);
    return 0;
}
