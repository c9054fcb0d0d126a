// lambda.cc — lambdas and perfinst's directives, for t-lambda.sh.
#include <cstdio>
#include <perfinst.h>

// count on a function: the lambdas written in it are counted with it
#pragma perfinst count
int marked(const int *v, int n)
{
    auto add = [&](int k) {
        int s = 0;
        for (int i = 0; i < k; i++)
            s += v[i];
        return s;
    };
    return add(n) + add(2);
}

// a directive on the lambda itself
int unmarked(int n)
{
    auto triple = [](int x) __attribute__((perfinst("count"))) { return x * 3; };
    int s = 0;
    for (int i = 0; i < n; i++)
        s += triple(i);
    return s;
}

// a statement directive inside a lambda's body
int stmt(int n)
{
    auto tri = [](int x) {
        int r = 0;
#pragma perfinst count
        for (int i = 0; i < x; i++)
            r += i; // LOOP BODY
        return r;
    };
    return tri(n) + tri(2);
}

// not marked: not counted
int plain(int n)
{
    auto sq = [](int x) { return x * x; };
    return sq(n);
}

int main()
{
    int v[6] = {1, 2, 3, 4, 5, 6};
    std::printf("%d %d %d %d\n", marked(v, 6), unmarked(4), stmt(5), plain(3));
    return 0;
}
