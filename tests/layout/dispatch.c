/* dispatch.c — a tiny bytecode interpreter (tests/layout/t-dispatch.sh).
 * run() is a dispatch loop: a switch of 16 opcodes run once per
 * instruction, 64 instructions per call; once() is a switch of 16 cases run
 * once per call.  Argument 1 (training) uses opcodes 0-3 only, argument 2
 * all 16. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline, noclone)) unsigned long run(const unsigned char *code, int n, unsigned long acc)
{
    for (int pc = 0; pc < n; pc++) {
        switch (code[pc]) {
        case 0: acc += 1; break;
        case 1: acc ^= acc >> 3; break;
        case 2: acc = acc * 3 + 1; break;
        case 3: acc -= 7; break;
        case 4: acc = acc * 0x4404 + 0x4444; break;
        case 5: acc = (acc << 5) ^ 0x5555; break;
        case 6: acc = acc / 3 + 0x6606; break;
        case 7: acc = acc % 1000003 + 0x7707; break;
        case 8: acc = (acc ^ 0x8808) + 8; break;
        case 9: acc = acc * acc % 99991 + 0x9909; break;
        case 10: acc = (acc >> 7) * 0xa0a0; break;
        case 11: acc = acc + (acc >> 11) + 0xb0b0; break;
        case 12: acc = acc * 12 - 0xc0c0; break;
        case 13: acc = (acc ^ 0xd0d0) * 13; break;
        case 14: acc = acc - (acc << 2) + 0xe0e0; break;
        case 15: acc = acc * 15 + 0xf0f0; break;
        default: abort();
        }
    }
    return acc;
}

__attribute__((noinline, noclone)) unsigned long once(unsigned op, unsigned long acc)
{
    switch (op) {
    case 0: return acc + 1;
    case 1: return acc ^ (acc >> 3);
    case 2: return acc * 3 + 1;
    case 3: return acc - 7;
    case 4: return acc * 0x14404 + 0x14444;
    case 5: return (acc << 5) ^ 0x15555;
    case 6: return acc / 3 + 0x16606;
    case 7: return acc % 1000003 + 0x17707;
    case 8: return ~acc + 0x18808;
    case 9: return acc * acc % 99991 + 0x19909;
    case 10: return (acc >> 7) * 0x1a0a0;
    case 11: return acc + (acc >> 11) + 0x1b0b0;
    case 12: return acc * 12 - 0x1c0c0;
    case 13: return (acc ^ 0x1d0d0) * 13;
    case 14: return acc - (acc << 2) + 0x1e0e0;
    case 15: return acc * 15 + 0x1f0f0;
    default: abort();
    }
}

int main(int argc, char **argv)
{
    int mode = argc > 1 ? atoi(argv[1]) : 1;
    unsigned char code[64];
    for (int i = 0; i < 64; i++)
        code[i] = (unsigned char)(mode == 2 ? i * 7 % 16 : i * 7 % 4);
    unsigned long acc = 1;
    for (int r = 0; r < 200; r++) {
        acc = run(code, 64, acc);
        acc = once((unsigned)(mode == 2 ? r % 16 : r % 4), acc);
    }
    printf("%lu\n", acc);
    return 0;
}
