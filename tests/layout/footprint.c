/* Known lines for bench/hot-footprint.py (tests/layout/t-footprint.sh).
 * spin is 64-byte aligned and fills one line: 11 bytes of instructions
 * that run (mov, dec, jnz, test, jz, ret), a ud2 that never runs (2 bytes),
 * 19 bytes of nops (.p2align 5), then never, 16 ud2 that never run (32
 * bytes).  spin(1000, 1) executes 1 + 1000 + 1000 + 1 + 1 + 1 = 2004
 * instructions in that line.  far is 4096 bytes after spin (the same set)
 * and runs 3 instructions a call. */
__asm__(".text\n"
        ".p2align 6\n"
        ".globl spin\n"
        ".type spin, @function\n"
        "spin:\n"
        "  mov %edi, %ecx\n"
        "1: dec %ecx\n"
        "  jnz 1b\n"
        "  test %esi, %esi\n"
        "  jnz 2f\n"
        "  ud2\n"
        "2: ret\n"
        "  .p2align 5\n"
        ".globl never\n"
        ".type never, @function\n"
        "never:\n"
        "  .rept 16\n"
        "  ud2\n"
        "  .endr\n"
        "  .p2align 6\n"
        "  .rept 63\n"
        "  .fill 64, 1, 0xcc\n"
        "  .endr\n"
        ".globl far\n"
        ".type far, @function\n"
        "far:\n"
        "  mov %edi, %eax\n"
        "  add $1, %eax\n"
        "  ret\n");

void spin(int n, int go);
int far(int x);

int main(void)
{
    int s = 0;
    spin(1000, 1);
    for (int i = 0; i < 10; i++)
        s += far(i);
    return s == 55 ? 0 : 1;
}
