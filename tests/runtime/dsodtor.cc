// dsodtor.cc — tests/runtime/t-dso-dtor.sh: a shared library's static
// object made while the library loads (dynamic initialisation of `g`),
// whose destructor glibc runs from the library's own __cxa_finalize at
// exit, in its .fini_array's crtbeginS entry.  ~S and touched() run then.
struct S {
    int v;
    S() : v(1) {}
    ~S();
};
__attribute__((noinline)) int touched(int x)
{
    asm volatile("" : "+r"(x));
    return x;
}
S::~S() { v = touched(v); }
static S &get()
{
    static S s;
    return s;
}
S &g = get();
extern "C" int use() { return touched(get().v); }
