// A noexcept function that calls one that may throw (t-clean-final.sh):
// its exception table says the exception must not leave it, so a throw
// from risky() through sealed() ends in std::terminate, never in main's
// catch.  sealed() has no landing pad (no cold part): clean-copies=final
// makes its clean copy of its counting copy's assembly, exception table
// and all.  Each `expect-count: N` is the run with no argument (n = 5).
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

__attribute__((noinline)) int risky(int i)
{
    if (i == 7)                                  // expect-count: 5
        throw std::runtime_error("seven");       // expect-count: 0
    return i + 1;                                // expect-count: 5
}

__attribute__((noinline)) int sealed(int i) noexcept
{
    return risky(i) * 2;                         // expect-count: 5
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 5, sum = 0;
    try {
        for (int i = 0; i < n; i++)              // expect-count: 6
            sum += sealed(i);                    // expect-count: 5
    } catch (...) {
        std::printf("caught\n");
        return 1;
    }
    std::printf("sum %d\n", sum);
    return 0;
}
