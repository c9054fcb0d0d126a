// An implicitly defined virtual destructor (t-clean-final.sh): its only
// code is its member's inlined destructor, so it has no site, and no
// switch byte, of its own; clean-copies=final makes its clean copies (the
// deleting and the complete destructor) of their counting copies'
// assembly all the same, each testing the mode register.  Each
// `expect-count: N` is the run with no argument (make's line: once per
// call, as gcov -O0 counts it; gcov -O2 counts it again where the string's
// inlined constructor comes back to it: 80).
#include <cstdio>
#include <string>

struct Base {
    virtual ~Base() {}
    virtual int size() const = 0;
};

struct Named : Base {
    std::string s;
    explicit Named(const char *p) : s(p) {}
    int size() const override { return (int)s.size(); }
};

__attribute__((noinline)) Base *make(int i)
{
    return new Named(i % 2 ? "a name too long for the string's own buffer" : "short"); // expect-count: 40
}

int main()
{
    int r = 0;
    for (int i = 0; i < 40; i++) {
        Base *b = make(i);                       // expect-count: 40
        r += b->size();                          // expect-count: 40
        delete b;                                // expect-count: 40
    }
    std::printf("sum %d\n", r);                  // expect-count: 1
    return 0;
}
