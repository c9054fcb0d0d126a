/* allzero.c — pi_all_zero (runtime/core.c), linked from libperfinst.a,
 * and its SSE2 path alone (the other, AVX2, where the CPU has it): for
 * every length up to 200 counters, a single nonzero counter at any
 * position is found, and counters just outside [p, p+n) are not read as
 * part of it (the tail is tested as the last 32, 16 or 8 counters,
 * overlapping those tested before).  Prints "ok N" or the first miss. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int pi_all_zero(const volatile uint64_t *p, uint32_t n);
int pi_all_zero_sse2(const volatile uint64_t *p, uint32_t n);

int main(void)
{
    static uint64_t buf[1 + 200 + 1];
    uint64_t *p = buf + 1;
    long checks = 0;
    int (*const tests[2])(const volatile uint64_t *, uint32_t) = {pi_all_zero, pi_all_zero_sse2};
    for (int t = 0; t < 2; t++)
        for (uint32_t n = 0; n <= 200; n++) {
            memset(buf, 0, sizeof buf);
            buf[0] = p[n] = 1; /* (just outside) */
            if (!tests[t](p, n)) {
                printf("%s, n=%u: all zero, not said so\n", t ? "sse2" : "any", n);
                return 1;
            }
            checks++;
            for (uint32_t i = 0; i < n; i++) {
                p[i] = (uint64_t)1 << (i % 64);
                if (tests[t](p, n)) {
                    printf("%s, n=%u: counter %u missed\n", t ? "sse2" : "any", n, i);
                    return 1;
                }
                p[i] = 0;
                checks++;
            }
        }
    printf("ok %ld\n", checks);
    return 0;
}
