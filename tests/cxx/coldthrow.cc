// coldthrow.cc — tests/cxx/t-rebuild-except.sh: exceptions through the
// rebuild's cold tier.  Trained without an argument, `parse` never runs:
// the rebuild places it with the cold code (.text.unlikely.F), and GCC,
// with no profile of it, still splits its throw path (the ostringstream's
// cleanup) into F.cold.  Run with arguments, it throws through both parts;
// `step` runs hot and throws on every 100th call, from its own cold part.
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <string>

__attribute__((noinline)) void fail(const std::string &m) { throw std::runtime_error(m); }

__attribute__((noinline)) int parse(int v)
{
    if (v > 1) {
        std::ostringstream os;
        os << "bad " << v;
        fail(os.str());
    }
    return v;
}

__attribute__((noinline)) long step(int i)
{
    if (i % 100 == 99) {
        std::ostringstream os;
        os << "step " << i;
        fail(os.str());
    }
    return i * 3L + 1;
}

int main(int argc, char **argv)
{
    long s = 0;
    int caught = 0;
    for (int i = 0; i < 1000; i++) {
        try {
            s += step(i);
        } catch (std::exception &e) {
            caught++;
        }
    }
    for (int a = 1; a < argc; a++) {
        try {
            s += parse(a + 1);
        } catch (std::exception &e) {
            printf("caught: %s\n", e.what());
        }
    }
    printf("%ld %d\n", s, caught);
    return 0;
}
