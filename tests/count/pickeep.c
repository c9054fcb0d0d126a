/* -fPIC, clean-copies=final (tests/count/t-clean-final.sh): is_rle's
 * call-free loops keep counters in registers that IVOPTs shares with the
 * program's induction variables, so f made of its counting copy's
 * assembly would still read counters through the offset's asm: f is
 * late's (zstd's ZSTD_isRLE). */
#include <stddef.h>
#include <string.h>

__attribute__((noinline)) int is_rle(const unsigned char *src, size_t length)
{
    const unsigned char *ip = src;
    const unsigned char value = ip[0];
    const size_t valueST = (size_t)value * 0x0101010101010101ULL;
    const size_t unrollSize = sizeof(size_t) * 4;
    const size_t prefixLength = length & (unrollSize - 1);
    size_t i;
    if (length == 1)  // expect-count: 200
        return 1;
    if (prefixLength && memcmp(ip, ip + 1, prefixLength - 1) != 0)  // expect-count: 200
        return 0;
    for (i = prefixLength; i != length; i += unrollSize) {  // expect-count: 15683
        size_t u, a;
        for (u = 0; u < unrollSize; u += sizeof(size_t)) {  // expect-count: 77655
            memcpy(&a, ip + i + u, sizeof a);  // expect-count: 62172
            if (a != valueST)  // expect-count: 62172
                return 0;
        }
    }
    return 1;
}

int main(int argc, char **argv)
{
    (void)argv;
    unsigned char b[4096];
    memset(b, argc, sizeof b);
    b[4000] = 9;
    int s = 0;
    for (int k = 0; k < 100; k++)
        s += is_rle(b + k, 4096 - 2 * k) + 2 * is_rle(b + k, 1000 + k);  // expect-count: 100
    return s == 0 ? 0 : s % 250;
}
