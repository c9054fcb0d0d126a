// Exceptions through counted frames (t-flow.sh): check throws, twice
// passes it on, main catches it in a loop.  Each `expect-count: N` is
// gcov 12's count of the line (an -O0 --coverage build).
#include <cstdio>
#include <stdexcept>

static volatile int sink;

__attribute__((noinline)) int check(int i)
{
    if (i % 3 == 2)                              // expect-count: 12
        throw std::runtime_error("every third"); // expect-count: 4
    return i;                                    // expect-count: 8
}

__attribute__((noinline)) int twice(int i)
{
    int a = check(i);                            // expect-count: 12
    sink += a;                                   // expect-count: 8
    return a * 2;                                // expect-count: 8
}

int main()
{
    int caught = 0, sum = 0;
    for (int i = 0; i < 12; i++) {                   // expect-count: 13
        try {
            sum += twice(i);                     // expect-count: 12
        } catch (const std::exception &) {
            caught++;                            // expect-count: 4
        }
    }
    std::printf("caught %d sum %d\n", caught, sum);
    return 0;
}
