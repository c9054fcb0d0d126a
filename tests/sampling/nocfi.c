/* nocfi.c — leaf code without call-frame information, like glibc's clone
 * and clone3 between their system call and the end of the parent's path
 * (tests/sampling/t-stacks.sh):
 *   nocfi ITERATIONS       main → outer → spin_nocfi: rsp points at the
 *                          return address of a direct call, so the walk
 *                          goes on to main;
 *   nocfi ITERATIONS push  main → outer_push → spin_push, which pushes a
 *                          register first: the word at rsp is no return
 *                          address and the walk must stop (truncated).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* no .cfi_startproc: no FDE covers these */
__asm__(".text\n"
        ".globl spin_nocfi\n.hidden spin_nocfi\n.type spin_nocfi, @function\n"
        "spin_nocfi:\n"
        "1: imul $0x5851f42d, %rax, %rax\n dec %rdi\n jnz 1b\n ret\n"
        ".size spin_nocfi, .-spin_nocfi\n"
        ".globl spin_push\n.hidden spin_push\n.type spin_push, @function\n"
        "spin_push:\n"
        " push %rbx\n mov %rdi, %rbx\n"
        "1: imul $0x5851f42d, %rax, %rax\n dec %rbx\n jnz 1b\n pop %rbx\n ret\n"
        ".size spin_push, .-spin_push\n");
void spin_nocfi(unsigned long n);
void spin_push(unsigned long n);

volatile unsigned long sink;

__attribute__((noinline)) void outer(unsigned long n)
{
    spin_nocfi(n);
    sink++; /* no sibling call: keep this frame */
}

__attribute__((noinline)) void outer_push(unsigned long n)
{
    spin_push(n);
    sink++;
}

int main(int argc, char **argv)
{
    unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000000;
    if (argc > 2 && !strcmp(argv[2], "push"))
        outer_push(n);
    else
        outer(n);
    printf("%lu\n", sink);
    return 0;
}
