/* dispatch-big.c — a bytecode interpreter too large to keep whole under
 * -fplugin-arg-perfinst-dispatch=small (tests/layout/t-dispatch.sh): big()
 * switches once per instruction over 16 opcodes, each a chain of 96 mixing
 * steps (several thousand instructions in all, more than the plugin's
 * limit of 5,461); argument 1 (training) uses opcodes 0-3 only, argument 2
 * all 16. */
#include <stdio.h>
#include <stdlib.h>

#define S(k) acc = (acc * 0x9e3779b1u + (k)) ^ (acc >> 13);
#define S4(k) S(k) S((k) + 1) S((k) + 2) S((k) + 3)
#define S16(k) S4(k) S4((k) + 4) S4((k) + 8) S4((k) + 12)
#define S96(k) S16(k) S16((k) + 16) S16((k) + 32) S16((k) + 48) S16((k) + 64) S16((k) + 80)
#define OP(n) case n: S96(n * 0x1000) break;

__attribute__((noinline, noclone)) unsigned long big(const unsigned char *code, int n, unsigned long acc)
{
    for (int pc = 0; pc < n; pc++) {
        switch (code[pc]) {
        OP(0) OP(1) OP(2) OP(3) OP(4) OP(5) OP(6) OP(7)
        OP(8) OP(9) OP(10) OP(11) OP(12) OP(13) OP(14) OP(15)
        default: abort();
        }
    }
    return acc;
}

int main(int argc, char **argv)
{
    int mode = argc > 1 ? atoi(argv[1]) : 1;
    unsigned char code[64];
    for (int i = 0; i < 64; i++)
        code[i] = (unsigned char)(mode == 2 ? i * 7 % 16 : i * 7 % 4);
    unsigned long acc = 1;
    for (int r = 0; r < 200; r++)
        acc = big(code, 64, acc);
    printf("%lu\n", acc);
    return 0;
}
