/* unplaceable.c — t-unplaceable.sh: hot functions with sections of their
 * own (this file, -ffunction-sections) and one, mix(), in a shared .text:
 * compiled with -DUTIL into an object without -ffunction-sections, and as a
 * local function of the same name in a library archive (-DSYS), as a
 * system library's local clones are. */
#ifdef UTIL
__attribute__((noinline)) int mix(int x)
{
    return (x * 2654435761u) >> 7;
}
#elif defined SYS
static __attribute__((noinline, used)) int mix(int x)
{
    return x ^ 0x5a;
}

int sys_value(int x)
{
    return mix(x) & 1;
}
#else
#include <stdio.h>
#include <stdlib.h>

int mix(int x);
int sys_value(int x);

__attribute__((noinline)) int hot_a(int x)
{
    return mix(x) + 1;
}

__attribute__((noinline)) int hot_b(int x)
{
    return hot_a(x) * 3;
}

__attribute__((noinline)) int cold_c(int x)
{
    return x - 1;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    long s = sys_value(n);
    for (int i = 0; i < n; i++)
        s += hot_b(i);
    if (n < 0)
        s += cold_c(n);
    printf("%ld\n", s);
    return 0;
}
#endif
