/* Known control flow: each `expect-count: N` is the exact count pmopt must
 * report for that source line (the largest block count among the line's
 * blocks); `expect-count: none` means the line has no instrumented block. */
#include <perfinst.h>
#include <stdio.h>
#include <stdlib.h>

#pragma perfinst count
int sum_to(int n)
{
    int s = 0;                        // expect-count: 3
    for (int i = 0; i < n; i++)       // expect-count: 63
        s += i;                       // expect-count: 60
    return s;                         // expect-count: 3
}

PERFINST("count")
int collatz_steps(long n)
{
    int steps = 0;                    // expect-count: 2
    while (n != 1) {                  // expect-count: 121
        if (n % 2)                    // expect-count: 119
            n = 3 * n + 1;            // expect-count: 43
        else
            n = n / 2;                // expect-count: 76
        steps++;
    }
    return steps;                     // expect-count: 2
}

int region(int x)
{
    int r = 0;                        // expect-count: none  expect-count-all: 2
    #pragma perfinst count
    for (int i = 0; i < x; i++) {     // expect-count: 14
        if (i == 7)                   // expect-count: 13
            break;                    // expect-count: none
        r += i;                       // expect-count: 12
    }
    return r;                         // expect-count: none  expect-count-all: 2
}

int early_return(int x)
{
    #pragma perfinst count
    {
        if (x > 2)                    // expect-count: 5
            return 1;                 // expect-count: 2
    }
    return 0;                         // expect-count: none  expect-count-all: 3
}

int main(int argc, char **argv)
{
    long total = 0;
    total += sum_to(10) + sum_to(20) + sum_to(30);
    total += collatz_steps(27) + collatz_steps(6);
    total += region(5) + region(20);
    for (int i = 0; i < 5; i++)
        total += early_return(i);
    printf("%ld\n", total);
    return 0;
}
