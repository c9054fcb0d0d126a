/* cgoto.c — a threaded interpreter: computed goto through a static table
 * of label addresses, as Lua's luaV_execute and CPython's ceval do
 * (t-cgoto.sh).  A register machine running
 *     r0 = 0; r1 = N; do { r0 += r1; if (r1 odd) r2++; r1--; } while (r1); halt r0 + r2
 */
#include <stdio.h>
#include <stdlib.h>

enum { OP_SET, OP_ADD, OP_DEC, OP_JNZ, OP_ODD, OP_INC, OP_HALT };
#define NEXT() do { if (trace) printf("op %d\n", *pc); op = *pc++; goto *table[op]; } while (0)

__attribute__((noinline)) long run(const int *pc, int trace)
{
    static const void *const table[] = {
        &&do_set, &&do_add, &&do_dec, &&do_jnz, &&do_odd, &&do_inc, &&do_halt,
    };
    long r[4] = {0};
    int op;
    NEXT();
do_set:
    r[pc[0]] = pc[1];
    pc += 2;
    NEXT();
do_add:
    r[pc[0]] += r[pc[1]];
    pc += 2;
    NEXT();
do_dec:
    r[*pc++]--;
    NEXT();
do_jnz:
    if (r[pc[0]] != 0)
        pc += pc[1];
    else
        pc += 2;
    NEXT();
do_odd:
    if (r[pc[0]] & 1)
        pc += 2;
    else
        pc += pc[1];
    NEXT();
do_inc:
    r[*pc++]++;
    NEXT();
do_halt:
    return r[pc[0]] + r[2];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int prog[] = {
        OP_SET, 0, 0, OP_SET, 1, n, OP_SET, 2, 0,
        /* 9: */ OP_ADD, 0, 1,
        /* 12: */ OP_ODD, 1, 4,  /* r1 even: skip the inc (to 17) */
        /* 15: */ OP_INC, 2,
        /* 17: */ OP_DEC, 1,
        /* 19: */ OP_JNZ, 1, -11, /* back to 9 */
        OP_HALT, 0,
    };
    printf("%ld\n", run(prog, 0));
    return 0;
}
