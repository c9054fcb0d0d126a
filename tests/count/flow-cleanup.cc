// Exceptions through a frame with a destructor to run on the way out
// (t-clean-late.sh, t-clean-final.sh): guarded() holds a Guard while
// twice() throws through it every third call; main catches.  guarded()
// has only a cleanup region, so clean-copies=late and final split it
// after the GIMPLE passes; main, with a catch, right after IPA.  Each
// `expect-count: N` is gcov 12's count of the line (-O0 --coverage).
#include <cstdio>
#include <stdexcept>

static int guards, built;

struct Guard {
    Guard() { built++; }                         // expect-count: 12
    ~Guard() { guards++; }                       // expect-count: 12
};

__attribute__((noinline)) int twice(int i)
{
    if (i % 3 == 2)                              // expect-count: 12
        throw std::runtime_error("every third"); // expect-count: 4
    return 2 * i;                                // expect-count: 8
}

__attribute__((noinline)) int guarded(int i)
{
    Guard g; // (12 at -O0; at -O2 its inlined constructor's line counts)
    int r = twice(i);                            // expect-count: 12
    return r + 1;                                // expect-count: 8
}

int main()
{
    int caught = 0, sum = 0;
    for (int i = 0; i < 12; i++) {               // expect-count: 13
        try {
            sum += guarded(i);                   // expect-count: 12
        } catch (const std::exception &) {
            caught++;                            // expect-count: 4
        }
    }
    std::printf("caught %d sum %d built %d guards %d\n", caught, sum, built, guards);
    return 0;
}
