/* dispatch-tails.c — a threaded interpreter (tests/layout/t-dispatch-tails.sh).
 * run() dispatches with a computed goto, as Lua's luaV_execute does: each of
 * its 15 opcodes ends in the same tail NEXT (a hook test, the fetch, the
 * jump through the table), which GCC's cross-jumping can merge into one.
 * Argument 1 (training) runs opcodes 0-3, argument 2 all 15; a program is
 * 64 instructions and a halt, run 20,000 times; the hook runs once. */
#include <stdio.h>
#include <stdlib.h>

static volatile int hooks;

__attribute__((noinline, noclone)) int hook(const unsigned *pc)
{
    hooks++;
    return pc[0] == 0xffffffffu;
}

#define NEXT                                  \
    do {                                      \
        if (__builtin_expect(trap, 0))        \
            trap = hook(pc);                  \
        i = *pc++;                            \
        goto *tab[i & 15];                    \
    } while (0)

__attribute__((noinline, noclone)) unsigned long run(const unsigned *pc, unsigned long acc, int trap)
{
    static void *const tab[16] = {&&op0, &&op1, &&op2, &&op3, &&op4, &&op5, &&op6, &&op7,
                                  &&op8, &&op9, &&op10, &&op11, &&op12, &&op13, &&op14, &&halt};
    unsigned i = *pc++;
    goto *tab[i & 15];
op0: acc += i >> 4; NEXT;
op1: acc ^= acc >> 3; NEXT;
op2: acc = acc * 3 + (i >> 4); NEXT;
op3: acc -= 7; NEXT;
op4: acc = acc * 0x4404 + 0x4444; NEXT;
op5: acc = (acc << 5) ^ 0x5555; NEXT;
op6: acc = acc / 3 + 0x6606; NEXT;
op7: acc = acc % 1000003 + 0x7707; NEXT;
op8: acc = (acc ^ 0x8808) + 8; NEXT;
op9: acc = acc * acc % 99991 + 0x9909; NEXT;
op10: acc = (acc >> 7) * 0xa0a0; NEXT;
op11: acc = acc + (acc >> 11) + 0xb0b0; NEXT;
op12: acc = acc * 12 - 0xc0c0; NEXT;
op13: acc = (acc ^ 0xd0d0) * 13; NEXT;
op14: acc = acc - (acc << 2) + 0xe0e0; NEXT;
halt:
    return acc;
}

int main(int argc, char **argv)
{
    unsigned ops = argc > 1 && atoi(argv[1]) == 2 ? 15 : 4;
    unsigned code[65];
    for (int k = 0; k < 64; k++)
        code[k] = (unsigned)((k * 7 + k / 5) % ops) | (unsigned)k << 4;
    code[64] = 15;
    unsigned long acc = 1;
    for (int r = 0; r < 20000; r++)
        acc = run(code, acc, r == 0);
    printf("%lu %d\n", acc, hooks);
    return 0;
}
