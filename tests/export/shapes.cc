// The exports' C++ fixture: a member function in a namespace, called ten
// times, so that its name in every export is the demangled, qualified one
// (shapes::Circle::area) and its linkage name the mangled one.
namespace shapes {
struct Circle {
    __attribute__((noinline)) double area(int r) const { return 3.0 * r * r; }
};
} // namespace shapes

int main(int argc, char **)
{
    shapes::Circle c;
    double s = 0;
    for (int i = 0; i < 10; i++)
        s += c.area(i + argc);
    return s > 1e9;
}
