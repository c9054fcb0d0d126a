/* plt.c — a loop whose calls go through the PLT (strlen@plt,
 * memcpy@plt): a timer sample often lands in a PLT entry, whose CFA is a
 * DWARF expression (tests/sampling/t-plt.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char buf[64], src[64] = "x";

__attribute__((noinline)) static size_t work(long n)
{
    size_t s = 0;
    for (long i = 0; i < n; i++) {
        memcpy(buf, src, (size_t)(i & 7));
        s += strlen(src);
    }
    return s;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    printf("%zu\n", work(n));
    return 0;
}
