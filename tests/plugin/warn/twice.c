/* Warnings the program's code deserves, at -O2 -Wall -Wextra: GCC gives
   each once without the plugin, and gave each twice with it (again in the
   counting copy, "In function 'twice.count.0'").  tests/plugin/t-warnings.sh */
#include <string.h>

int probe(int);
int use(const char *);

int twice(int n)
{
    int x;
    if (probe(n))
        x = n * 2;
    if (probe(n + 1))
        return x; /* -Wmaybe-uninitialized */
    return 0;
}

int copy8(const char *in, int n)
{
    char b[4];
    int s = 0;
    for (int i = 0; i < n; i++) {
        memcpy(b, in + i, 8); /* -Warray-bounds */
        s += use(b);
    }
    return s;
}
