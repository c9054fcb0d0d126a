/* tests/layout/t-relink-statics.sh: run_a always, run_b with a second
 * argument. */
#include <stdio.h>
#include <stdlib.h>
unsigned run_a(unsigned), run_b(unsigned);
int main(int argc, char **argv)
{
    unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 100000;
    printf("%u\n", run_a(n) + (argc > 2 ? run_b(n) : 0));
    return 0;
}
