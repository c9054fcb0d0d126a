/* walkinit.c — the unwinder stepping out of _init and _fini at each of their
 * instructions (tests/sampling/t-stacks.sh).  Linked with libperfinst.a,
 * it calls the walk itself (pi_unwind) on a made-up interrupted context:
 * pc = _init or _fini + OFF, rsp at a fake stack that holds MARK where the
 * return address is at that instruction (rsp + DEPTH: 8 between the
 * crti/crtn `sub $8,%rsp` and `add $8,%rsp`, the script reads that from the
 * disassembly) and JUNK everywhere else.  A right step's second frame is
 * MARK (no object holds it: the walk stops there).
 *   walkinit init|fini:OFF:DEPTH...   prints "init+OFF frames N second 0x..." each
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#include "sample.h"

extern void _init(void), _fini(void);

#define MARK 0x7e5700ul
#define JUNK 0x1111ul

int main(int argc, char **argv)
{
    pi_unwind_refresh();
    static uint64_t st[64];
    for (int i = 1; i < argc; i++) {
        char fn[8];
        unsigned long off, depth;
        if (sscanf(argv[i], "%7[a-z]:%lx:%lu", fn, &off, &depth) != 3 || depth % 8 || depth > 64) {
            fprintf(stderr, "walkinit: bad argument %s\n", argv[i]);
            return 2;
        }
        for (int k = 0; k < 64; k++)
            st[k] = JUNK;
        st[16 + depth / 8] = MARK;
        ucontext_t uc;
        memset(&uc, 0, sizeof uc);
        uintptr_t base = (uintptr_t)(strcmp(fn, "fini") ? _init : _fini);
        uc.uc_mcontext.gregs[REG_RIP] = (greg_t)(base + off);
        uc.uc_mcontext.gregs[REG_RSP] = (greg_t)(uintptr_t)&st[16];
        uint64_t frames[8] = {0};
        int complete;
        int n = pi_unwind(&uc, (uintptr_t)st, (uintptr_t)(st + 64), frames, 8, &complete, NULL);
        printf("%s+%lx frames %d second 0x%lx\n", fn, off, n, n > 1 ? (unsigned long)frames[1] : 0ul);
    }
    return 0;
}
