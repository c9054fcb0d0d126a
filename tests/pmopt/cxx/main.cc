#include <cstdio>
#include <cstdlib>
#include "names.h"

int main(int argc, char **argv)
{
    long spin = argc > 1 ? std::atol(argv[1]) : 0;
    std::printf("%ld\n", run_a(3, spin) + run_b(5, spin));
    return 0;
}
