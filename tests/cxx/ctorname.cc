/* tests/cxx/t-comdat.sh: constructors inlined into their callers, one of a
 * class in an anonymous namespace; with -flto its inlined body kept the
 * name `ns::(anonymous namespace)::(anonymous namespace)(char const*)`
 * (the class gone: its name made after GCC's free_lang_data). */
#include <cstdio>
namespace ns {
struct Node {
    int a, b;
    Node(int x) : a(x), b(x * 2) {}
};
namespace {
struct Lexer {
    const char *p;
    int n;
    Lexer(const char *s) : p(s), n(0) { while (p[n]) n++; }
};
}
}
__attribute__((noinline)) int make(int i) { ns::Node n(i); return n.a + n.b; }
__attribute__((noinline)) int lex(const char *s) { ns::Lexer l(s); return l.n; }
int main()
{
    long s = 0;
    for (int i = 0; i < 1000; i++)
        s += make(i) + lex(i & 1 ? "abc" : "de");
    printf("%ld\n", s);
    return 0;
}
