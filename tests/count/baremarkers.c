/* A counting copy's block that holds only a site marker (t-bare-markers.sh):
 * run's switch has enough cases that GCC's estimate calls each case cold,
 * so bb-reorder does not copy the block the cases' `break`s reach (the
 * switch's exit, before the loop goes round) into them; with its marker
 * kept, each case jumps to it and it jumps to the loop's head.  OP_INC's
 * if/else joins before its break.  Known control flow: run executes
 * code[0..9] N times (OP_JNZ goes back while --n), then OP_MUL and OP_END;
 * main calls it CALLS (10) times with N = 7. */
#include <stdio.h>
#include <stdlib.h>

enum { OP_ADD, OP_SUB, OP_MUL, OP_XOR, OP_SHL, OP_SHR, OP_NEG, OP_INC, OP_DEC, OP_JNZ, OP_DUP, OP_SWAP, OP_END };

__attribute__((noinline)) long run(const unsigned char *code, long a, long b, int n)
{
    int pc = 0;                       // expect-count: 10
    for (;;) {
        unsigned char op = code[pc++];  // expect-count: 720
        switch (op) {
        case OP_ADD:
            a += b;                   // expect-count: 70
            break;
        case OP_SUB:
            a -= b;                   // expect-count: 70
            break;
        case OP_MUL:
            a *= b | 1;               // expect-count: 10
            break;
        case OP_XOR:
            a ^= b;                   // expect-count: 70
            break;
        case OP_SHL:
            a <<= 1;                  // expect-count: 70
            break;
        case OP_SHR:
            a >>= 1;                  // expect-count: 70
            break;
        case OP_NEG:
            a = -a;                   // expect-count: 0
            break;
        case OP_INC:
            if (pc & 1)               // expect-count: 140
                a++;                  // expect-count: 70
            else
                b++;                  // expect-count: 70
            break;
        case OP_DEC:
            b--;                      // expect-count: 140
            break;
        case OP_JNZ:
            if (--n)                  // expect-count: 70
                pc = 0;               // expect-count: 60
            break;
        case OP_DUP:
            b = a;                    // expect-count: none
            break;
        case OP_SWAP: {
            long t = a;               // expect-count: 0
            a = b;
            b = t;
            break;
        }
        case OP_END:
            return a + b;             // expect-count: 10
        default:
            abort();                  // expect-count: 0
        }
    }
}

int main(int argc, char **argv)
{
    (void)argv;
    static const unsigned char code[] = {OP_ADD, OP_INC, OP_SHL, OP_XOR, OP_DEC, OP_SUB, OP_INC, OP_SHR, OP_DEC, OP_JNZ, OP_MUL, OP_END};
    long s = 0;                       // expect-count: 1
    for (int i = 0; i < 9 + argc; i++)  // expect-count: 11
        s += run(code, i, 3 * i + 100, 7);
    printf("%ld\n", s);
    return 0;
}
