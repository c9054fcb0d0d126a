// comdat-main.cc — for t-comdat-relink.sh: a main that pulls comdat-b.cc's
// sum_b and comdat-cold.cc's rare_twice out of an archive, so that the
// link keeps the copy of twice() of the member it pulls first.
#include <cstdio>
int sum_b(const int *v, int n);
int rare_twice(int x);

int main(int argc, char **argv)
{
    int v[4] = {1, 2, 3, 4};
    int s = sum_b(v, 4);
    if (argc > 5)
        s += rare_twice(argc);
    std::printf("%d\n", s);
    return argv[0] ? 0 : 1;
}
