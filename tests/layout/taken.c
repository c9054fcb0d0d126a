/* Known control flow for bench/taken-branches.py (tests/layout/t-taken.sh).
 * work(100000): i % 20 != 0 holds for 95% of the iterations; HOT_HINT says
 * whether __builtin_expect tells GCC so (1: the hot arm is the fall-through)
 * or the opposite (0: plain -O2 puts the hot arm out of line, reached by a
 * taken jump).  Every 1000th iteration calls rare(), a cold function, from
 * a block GCC moves to work's .cold part (a jump to another symbol's first
 * instruction, which callgrind records as a call); one in 4 of those calls
 * tail-calls leaf() (a jmp to a function's entry); copy() runs a rep movsb
 * (a loop to itself under valgrind, no branch). */
#include <stdlib.h>

#ifndef HOT_HINT
#define HOT_HINT 1
#endif

volatile int sink;

__attribute__((noinline)) int leaf(int i) { sink += i; return i; }

__attribute__((noinline, cold)) int rare(int i)
{
    sink += 7;
    if ((i / 1000) % 4 == 0)
        return leaf(i);         /* tail call: jmp leaf */
    return 0;
}

__attribute__((noinline)) void copy(char *d, const char *s, unsigned long n)
{
    __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

__attribute__((noinline)) void work(int n)
{
    for (int i = 0; i < n; i++) {
        if (__builtin_expect(i % 20 != 0, HOT_HINT))
            sink += 1;
        else
            sink += 3;
        if (i % 1000 == 999)
            sink += rare(i);
    }
}

int main(int argc, char **argv)
{
    char a[64] = "0123456789", b[64];
    copy(b, a, 64);
    work(argc > 1 ? atoi(argv[1]) : 100000);
    return b[3] == '3' ? 0 : 1;
}
