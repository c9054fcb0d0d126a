/* jumptab.c — tests/relink/t-jumptab.sh: a switch GCC compiles to a jump
 * table, the only data the hot code reads; with -ffunction-sections the
 * table is in .rodata.classify, and an all=count build's counting copy
 * has its own, .rodata.classify.count.0 (libyaml's yaml_parser_load). */
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) int pick(int c) { return c % 9; }
__attribute__((noinline)) long classify(int n)
{
    long *acc = malloc(2 * sizeof *acc);
    if (!acc)
        return -1;
    acc[0] = acc[1] = 0;
    int i = 0;
    while (1) {
        int k = pick(i++);
        if (k < 0)
            goto error;
        switch (k) {
        case 0: acc[0] += 3; break;
        case 1: acc[1] += 5; break;
        case 2: acc[0] += 7; break;
        case 3: acc[1] -= 11; break;
        case 4: acc[0] ^= 13; break;
        case 5: acc[1] += 17; break;
        case 6: acc[0] *= 3; break;
        case 7: acc[1] -= 23; break;
        default: if (i >= n) goto done; break;
        }
    }
done:;
    long s = acc[0] + acc[1];
    free(acc);
    return s;
error:
    free(acc);
    return -2;
}
int jmain(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    long s = classify(n);
    printf("%ld\n", s);
    return 0;
}
