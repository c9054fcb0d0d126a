/* gcovtwice.h — included twice by gcovlines.c, which defines one
 * interpreter under two names at the same line (gawk's interpret.h:
 * r_interpret, h_interpret).  gcov groups functions that start on one line:
 * it counts each one's lines apart, then adds them up.  The plain one's
 * latch (TW_NEXT) is its last block in GCC's numbering, listed under no
 * line; the hooked one, never called, lists a block there: counted
 * together, the line got the hooked one's 0 (tests/count/t-lines-gcov.sh). */
__attribute__((noinline)) long TW_NAME(const int *code, void (*hook)(int))
{
    long acc = 0;
    int pc = 0;
top:
    switch (code[pc]) {
    case 0:
        return acc;
    case 1:
        acc += pc;
        break;
    case 2:
        acc -= 1;
        break;
    default:
        acc *= 2;
        break;
    }
    TW_NEXT;
}
