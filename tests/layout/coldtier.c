/* coldtier.c — for t-coldtier-c.sh: check() never runs in training (no
 * argument), so the rebuild gives it the cold tier; GCC still splits its
 * error path (a call of the noreturn, cold die()) into check.cold. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noreturn, cold, noinline)) static void die(const char *m, int v)
{
    fprintf(stderr, "%s: %d\n", m, v);
    exit(2);
}

__attribute__((noinline)) int check(int v)
{
    int s = 0;
    for (int i = 0; i < v; i++) {
        if (i > 1000000)
            die("too many", i);
        s += i * v;
    }
    return s;
}

int main(int argc, char **argv)
{
    long sum = 0;
    for (int i = 0; i < 200000; i++)
        sum += i % 7;
    if (argc > 1)
        sum += check(atoi(argv[1]));
    printf("%ld\n", sum);
    return 0;
}
