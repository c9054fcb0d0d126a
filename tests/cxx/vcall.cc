// A C++ virtual call whose targets the counting copy profiles
// (t-vcall.sh): drive() calls s->f(i) 10000 times, 9900 of them on an A
// and 100 on a B (every hundredth object), chosen at run time so that GCC
// cannot devirtualize it.
#include <cstdio>
#include <cstdlib>

struct Shape {
    virtual long f(long x) const = 0;
    virtual ~Shape() {}
};
struct A : Shape {
    long f(long x) const override { return 2 * x + 1; }
};
struct B : Shape {
    long f(long x) const override { return x * x - 3; }
};

__attribute__((noinline)) long drive(const Shape *s, long i) { return s->f(i); }

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 10000, every = argc > 2 ? atol(argv[2]) : 100;
    A a;
    B b;
    const Shape *shapes[2] = {&a, &b};
    long sum = 0;
    for (long i = 0; i < n; i++)
        sum += drive(shapes[i % every == every - 1], i);
    printf("sum %ld\n", sum);
    return 0;
}
