/* An interpreter-like loop for the Ext-TSP block order (t-blockorder.sh):
 * per iteration a dispatch (the one indirect jump: a jump table), a case
 * (ops 5 and 1 run 31 of 32 times), and the join (marker 0x13579) whose
 * back edge returns to the dispatch 63 times in 64.  GCC's bb-reorder
 * (STC) puts the dispatch first and ends the loop with a taken backward
 * jump from the join; Ext-TSP rotates the loop so that the join falls
 * through into the dispatch.  Marker constants: case 5 0x6666, case 1
 * 0x2222, join 0x13579. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noipa)) static long run(const unsigned char *prog, int n, int reps)
{
    long acc = 0, x = 1;
    for (int r = 0; r < reps; r++)
        for (int i = 0; i < n; i++) {
            switch (prog[i]) {
            case 0: acc += 0x1111 * x; break;
            case 1: acc ^= 0x2222 + x; x++; break;
            case 2: acc -= 0x3333; x += acc & 3; break;
            case 3: acc += 0x4444 ^ x; break;
            case 4: acc *= 3; acc += 0x5555; break;
            case 5: acc -= x * 0x6666; break;
            case 6: acc += 0x7777; x ^= acc; break;
            default: acc = acc * 7 + 0x8888; break;
            }
            acc ^= 0x13579;
            if (acc < 0)
                acc = -acc;
        }
    return acc + x;
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 1000;
    unsigned char prog[64];
    for (int i = 0; i < 64; i++)
        prog[i] = (i % 16 == 0) ? (unsigned char)(i / 16) : (i % 2 ? 5 : 1);
    printf("%ld\n", run(prog, 64, reps));
    return 0;
}
