/* nocfi.c — leaf code without call-frame information, like glibc's clone
 * and clone3 between their system call and the end of the parent's path
 * (tests/sampling/t-stacks.sh):
 *   nocfi ITERATIONS       main → outer → spin_nocfi: rsp points at the
 *                          return address of a direct call, so the walk
 *                          goes on to main;
 *   nocfi ITERATIONS push  main → outer_push → spin_push, which pushes
 *                          rbp first and counts in it, as -O2 code uses
 *                          rbp: the word at rsp is no return address, rbp
 *                          no frame; the word above is the return address
 *                          of a direct call of spin_push, which the walk
 *                          finds by scanning (as GMP's mpn functions);
 *   nocfi ITERATIONS indirect  main → outer_indirect → spin_push through
 *                          a function pointer: no direct call to check
 *                          the scanned word against, and the walk must
 *                          stop (truncated);
 *   nocfi ITERATIONS alloca  main → outer_alloca → spin_rbx, which
 *                          pushes rbx and counts in it, called by a
 *                          function whose frame is reckoned from rbp (a
 *                          variable-length array): rbp is outer_alloca's,
 *                          valid, so a frame-pointer step alone would skip
 *                          outer_alloca; the scanned return address is the
 *                          nearer frame, and rbp is kept for outer_alloca's;
 *   nocfi ITERATIONS allocapush  main → outer_alloca_push → spin_push:
 *                          the leaf saved the caller's rbp and counts in
 *                          it; the caller's frame is reckoned from rbp,
 *                          found among the words the leaf pushed;
 *   nocfi ITERATIONS frame main → outer_frame → spin_frame, which keeps a
 *                          frame pointer (push rbp; mov rbp, rsp, as
 *                          nasm's functions do) and pushes a register:
 *                          the walk follows rbp to main;
 *   nocfi ITERATIONS call  main → outer_call → call_frame → c_spin: the
 *                          return address into call_frame has no FDE, the
 *                          walk follows its frame pointer.
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
        " push %rbp\n mov %rdi, %rbp\n"
        "1: imul $0x5851f42d, %rax, %rax\n dec %rbp\n jnz 1b\n pop %rbp\n ret\n"
        ".size spin_push, .-spin_push\n"
        ".globl spin_rbx\n.hidden spin_rbx\n.type spin_rbx, @function\n"
        "spin_rbx:\n"
        " push %rbx\n mov %rdi, %rbx\n"
        "1: imul $0x5851f42d, %rax, %rax\n dec %rbx\n jnz 1b\n pop %rbx\n ret\n"
        ".size spin_rbx, .-spin_rbx\n"
        ".globl spin_frame\n.hidden spin_frame\n.type spin_frame, @function\n"
        "spin_frame:\n"
        " push %rbp\n mov %rsp, %rbp\n push %rbx\n mov %rdi, %rbx\n"
        "1: imul $0x5851f42d, %rax, %rax\n dec %rbx\n jnz 1b\n pop %rbx\n pop %rbp\n ret\n"
        ".size spin_frame, .-spin_frame\n"
        ".globl call_frame\n.hidden call_frame\n.type call_frame, @function\n"
        "call_frame:\n"
        " push %rbp\n mov %rsp, %rbp\n push %rbx\n sub $8, %rsp\n"
        " lea c_spin(%rip), %rax\n call *%rax\n"
        " add $8, %rsp\n pop %rbx\n pop %rbp\n ret\n"
        ".size call_frame, .-call_frame\n");
void spin_nocfi(unsigned long n);
void spin_push(unsigned long n);
void spin_frame(unsigned long n);
void spin_rbx(unsigned long n);
void call_frame(unsigned long n);

/* called from call_frame through a register (ff /2) */
__attribute__((noinline, used)) void c_spin(unsigned long n)
{
    unsigned long x = n;
    for (unsigned long i = 0; i < n; i++)
        __asm__ volatile("imul $0x5851f42d, %0, %0" : "+r"(x));
}

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

void (*volatile spin_ptr)(unsigned long) = spin_push;

__attribute__((noinline)) void outer_indirect(unsigned long n)
{
    spin_ptr(n);
    sink++;
}

__attribute__((noinline)) void outer_alloca(unsigned long n)
{
    volatile char buf[(n & 15) + 16]; /* a frame reckoned from rbp */
    buf[0] = 1;
    spin_rbx(n);
    sink += buf[0];
}

__attribute__((noinline)) void outer_alloca_push(unsigned long n)
{
    volatile char buf[(n & 15) + 16]; /* a frame reckoned from rbp */
    buf[0] = 1;
    spin_push(n);
    sink += buf[0];
}

__attribute__((noinline)) void outer_frame(unsigned long n)
{
    spin_frame(n);
    sink++;
}

__attribute__((noinline)) void outer_call(unsigned long n)
{
    call_frame(n);
    sink++;
}

int main(int argc, char **argv)
{
    unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000000;
    if (argc > 2 && !strcmp(argv[2], "push"))
        outer_push(n);
    else if (argc > 2 && !strcmp(argv[2], "allocapush"))
        outer_alloca_push(n);
    else if (argc > 2 && !strcmp(argv[2], "alloca"))
        outer_alloca(n);
    else if (argc > 2 && !strcmp(argv[2], "indirect"))
        outer_indirect(n);
    else if (argc > 2 && !strcmp(argv[2], "frame"))
        outer_frame(n);
    else if (argc > 2 && !strcmp(argv[2], "call"))
        outer_call(n);
    else
        outer(n);
    printf("%lu\n", sink);
    return 0;
}
