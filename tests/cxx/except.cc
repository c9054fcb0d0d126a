// except.cc — tests/cxx/t-except.sh: C++ exceptions through counted code
// (all=count): thrown, caught, rethrown and unwound past a destructor,
// with a template instantiated twice; each function's entries are known.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

static int dtors;
struct Guard {
    ~Guard() { dtors++; }
};

template <typename T> __attribute__((noinline)) T checked(T v)
{
    if (v % 7 == 3)
        throw std::runtime_error("bad " + std::to_string((long)v));
    return v * 2;
}

__attribute__((noinline)) long layer(int i)
{
    Guard g;
    if (i % 2)
        return checked<long>(i);
    return checked<int>(i);
}

__attribute__((noinline)) long middle(int i)
{
    try {
        return layer(i);
    } catch (const std::runtime_error &) {
        if (i % 5 == 0)
            throw;
        return -1;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    long s = 0, caught = 0;
    for (int i = 0; i < n; i++) {
        try {
            s += middle(i);
        } catch (const std::exception &e) {
            caught++;
        }
    }
    printf("%ld %ld %d\n", s, caught, dtors);
    return 0;
}
