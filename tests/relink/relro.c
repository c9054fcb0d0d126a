/* Hot read-only pointer tables (t-relro.sh): in a PIE, a const array of
 * pointers needs relocations, so GCC puts it in .data.rel.ro (one section
 * each with -fdata-sections), which pmopt relink leaves where the default
 * script puts it.  step reads six such tables and one writable counter,
 * so the plan's order-data is mostly relro tables, as Lua's is (its
 * luaL_Reg arrays). */
#include <stdio.h>
#include <stdlib.h>

const char *const names_a[] = { "sq", "twice", "neg" };
const char *const names_b[] = { "twice", "neg", "sq" };
const char *const names_c[] = { "neg", "sq", "twice" };
const char *const names_d[] = { "one", "two", "three" };
const char *const names_e[] = { "four", "five", "six" };
const char *const names_f[] = { "seven", "eight", "nine" };
long total;

__attribute__((noinline)) void step(long i)
{
    int k = i % 3;
    total += names_a[k][0] + names_b[k][0] + names_c[k][0] + names_d[k][1] + names_e[k][1] +
             names_f[k][1];
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 30000;
    for (long i = 0; i < n; i++)
        step(i);
    printf("%ld\n", total);
    return 0;
}
