/* A counting copy's loop latch copied into the blocks that jump to it
 * (t-latch-copy.sh): run is an interpreter loop over a linked list of
 * instructions; every case that `break`s reaches the latch, `pc =
 * pc->next`, which goes back to the switch.  The empty cases (OP_NOP..)
 * go straight from the switch to the latch: -O2's bb-reorder then copies
 * the latch into the other cases.  In the counting copy that edge's
 * counter has a block of its own in front of the latch, and bb-reorder
 * copies nothing: each case jumps to the latch, the latch to the head,
 * unless the plugin copies the latch first (latch-copy=yes).
 * Known control flow: run executes prog[0..10] N times (OP_JNZ goes back
 * to the start while --n), then OP_MUL and OP_END: 79 instructions, 72
 * of them reach the latch; main calls it CALLS (10) times with N = 7. */
#include <stdio.h>
#include <stdlib.h>

enum { OP_ADD, OP_SUB, OP_MUL, OP_XOR, OP_SHL, OP_SHR, OP_NEG, OP_INC, OP_DEC, OP_JNZ, OP_DUP, OP_SWAP,
       OP_NOP, OP_NOP2, OP_NOP3, OP_NOP4, OP_NOP5, OP_NOP6, OP_NOP7, OP_NOP8, OP_END };

struct insn {
    struct insn *next;
    long arg;
    int op;
};

__attribute__((noinline)) long run(struct insn *pc, long a, long b, int n)  // expect-count: 10
{
    struct insn *start = pc;
    for (;;) {
        switch (pc->op) {             // expect-count: 790
        case OP_ADD:
            a += b + pc->arg;         // expect-count: 70
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
            if (a & 1)                // expect-count: 140
                a++;                  // expect-count: 125
            else
                b++;                  // expect-count: 15
            break;
        case OP_DEC:
            b--;                      // expect-count: 140
            break;
        case OP_JNZ:
            if (--n) {                // expect-count: 70
                pc = start;           // expect-count: 60
                continue;
            }
            break;
        case OP_DUP:
            b = a;                    // expect-count: 0
            break;
        case OP_SWAP: {
            long t = a;               // expect-count: 0
            a = b;
            b = t;
            break;
        }
        case OP_NOP:
        case OP_NOP2:
        case OP_NOP3:
        case OP_NOP4:
        case OP_NOP5:
        case OP_NOP6:
        case OP_NOP7:
        case OP_NOP8:
            break;
        case OP_END:
            return a + b;             // expect-count: 10
        default:
            abort();                  // expect-count: 0
        }
        pc = pc->next;                // expect-count: 720
    }
}

int main(int argc, char **argv)
{
    (void)argv;
    static const int ops[] = {OP_ADD, OP_INC, OP_SHL, OP_XOR, OP_DEC, OP_NOP, OP_SUB, OP_INC, OP_SHR, OP_DEC, OP_JNZ, OP_MUL, OP_END};
    enum { NOPS = sizeof ops / sizeof ops[0] };
    struct insn prog[NOPS];
    for (int i = 0; i < NOPS; i++) {  // expect-count: 14
        prog[i].op = ops[i];          // expect-count: 13
        prog[i].arg = i;
        prog[i].next = i + 1 < NOPS ? &prog[i + 1] : NULL;
    }
    long s = 0;                       // expect-count: 1
    for (int i = 0; i < 9 + argc; i++)  // expect-count: 11
        s += run(prog, i, 3 * i + 100, 7);
    printf("%ld\n", s);
    return 0;
}
