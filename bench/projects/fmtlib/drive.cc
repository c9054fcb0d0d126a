// bench/projects/fmtlib/drive.cc — bench/projects/fmtlib.sh's workload
// program: fmt-drive MIX N formats a stream of values an xorshift64
// generator seeded by MIX makes (train: seed 1, test: seed 7), N rounds of
// MIX's sections, and prints per section its calls, bytes and FNV-1a hash
// of everything formatted, then the count of fmt::format calls (each one
// call of the library's fmt::vformat, bench/projects/fmtlib.sh's P_SPOT).
//   train: integers, strings, shortest doubles ({}), width, fill and
//          alignment, fmt::format_to into a fmt::memory_buffer
//   test:  {:.17g}, {:.30f}, {:e} of doubles and long doubles over the
//          whole exponent range (Grisu's fallback and the long doubles go
//          through format_dragon's bigint), named arguments, fmt::join,
//          hexadecimal, octal and binary integers, long padded strings
#include <fmt/format.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

static unsigned long long state;
static unsigned long long next()
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}
static unsigned below(unsigned n) { return (unsigned)(next() % n); }
// a double of 53 random bits times 10^e, e in [lo, hi]
static double real(int lo, int hi)
{
    double m = (double)(next() >> 11) / 9007199254740992.0;
    return m * std::pow(10.0, lo + (int)below((unsigned)(hi - lo + 1)));
}

static const char *const words[] = {
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliett",
    "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango",
    "uniform", "victor", "whiskey", "xray", "yankee", "zulu", "", "x", "a somewhat longer word", "ünïcödé",
};
static const char *word() { return words[below(sizeof words / sizeof *words)]; }

struct section {
    const char *name;
    unsigned long long calls = 0, bytes = 0, hash = 1469598103934665603ull;
    explicit section(const char *n) : name(n) {}
    void add(const char *s, size_t n)
    {
        calls++;
        bytes += n;
        for (size_t i = 0; i < n; i++) hash = (hash ^ (unsigned char)s[i]) * 1099511628211ull;
    }
    void add(const std::string &s) { add(s.data(), s.size()); }
    void print() const { printf("%-10s %10llu calls %12llu bytes hash %016llx\n", name, calls, bytes, hash); }
};

static unsigned long long nformat;      // fmt::format calls: fmt::vformat's entries
template <typename... T> static std::string F(fmt::format_string<T...> f, T &&...args)
{
    nformat++;
    return fmt::format(f, std::forward<T>(args)...);
}

// (every argument from the generator in a variable of its own: the order
// in which a call's arguments are evaluated is unspecified)
static void train(unsigned long n)
{
    section ints("ints"), strs("strings"), dbl("shortest"), align("align"), buf("format_to");
    fmt::memory_buffer mb;
    for (unsigned long r = 0; r < n; r++) {
        unsigned long long x = next();
        unsigned sh = below(64);
        ints.add(F("{}", (int)x));
        ints.add(F("{} {}", (long long)x >> sh, (unsigned)(x >> 32)));
        ints.add(F("{}", (short)below(65536)));
        const char *w1 = word(), *w2 = word(), *w3 = word();
        strs.add(F("{}", w1));
        strs.add(F("{}-{}:{}", w2, std::string(w3), r));
        strs.add(F("{}{}", 'c', fmt::string_view(w1)));
        dbl.add(F("{}", real(-8, 8)));
        dbl.add(F("{}", (float)real(-4, 4)));
        dbl.add(F("{}", real(-300, 300)));
        double d1 = (double)(int)below(100000), d2 = real(0, 3);
        dbl.add(F("{} {}", d1, d2));
        int i1 = (int)below(1000000);
        double d3 = real(-2, 2);
        align.add(F("{:>10}|{:<8}|{:^12}", i1, w2, d3));
        int i2 = (int)below(100000), i3 = (int)below(200) - 100, i4 = (int)below(50);
        align.add(F("{:08d} {:+} {: d}", i2, i3, i4));
        unsigned u1 = below(1000);
        align.add(F("{:*^16} {:-<10}", w3, u1));
        align.add(F("{:>{}}", w1, (int)below(24)));
        fmt::format_to(std::back_inserter(mb), "{}={};", w2, x % 100000);
        int i5 = (int)below(1000);
        double d4 = real(-3, 3);
        fmt::format_to(std::back_inserter(mb), "[{:>6}:{}]", i5, d4);
        if (mb.size() > 4096) {
            buf.add(mb.data(), mb.size());
            mb.clear();
        }
    }
    buf.add(mb.data(), mb.size());
    for (auto *s : {&ints, &strs, &dbl, &align, &buf}) s->print();
}

static void test(unsigned long n)
{
    section g17("g17"), f30("fixed30"), e("exp"), named("named"), join("join"), radix("radix"), pad("padding");
    std::vector<int> vi;
    std::vector<double> vd;
    std::string s;
    for (unsigned long r = 0; r < n; r++) {
        g17.add(F("{:.17g}", real(-300, 300)));
        double d1 = real(-20, 20), d2 = real(-5, 5);
        g17.add(F("{:.17g} {:.9g}", d1, d2));
        f30.add(F("{:.30f}", real(-10, 20)));
        f30.add(F("{:.12f}", real(-3, 12)));
        e.add(F("{:e}", real(-307, 307)));
        e.add(F("{:.20e}", real(100, 300)));
        long double l1 = real(-300, 300), l2 = real(-30, 30) * 1e-4000L;
        e.add(F("{:e} {:.25e}", l1, l2));
        const char *w = word();
        double v = real(-3, 6);
        int width = (int)below(20);
        named.add(F("{name}={value:>{w}} ({n})", fmt::arg("name", w), fmt::arg("value", v), fmt::arg("w", width),
                    fmt::arg("n", r)));
        vi.clear();
        vd.clear();
        for (unsigned i = below(12); i > 0; i--) vi.push_back((int)next());
        for (unsigned i = below(6); i > 0; i--) vd.push_back(real(-6, 6));
        join.add(F("[{}]", fmt::join(vi, ", ")));
        join.add(F("({:.3f})", fmt::join(vd, "; ")));
        join.add(F("{:#x}", fmt::join(vi.begin(), vi.end(), "|")));
        unsigned long long x = next();
        unsigned sh = below(64);
        radix.add(F("{:#x} {:o} {:#b}", x, (unsigned)x, (unsigned short)x));
        radix.add(F("{:X} {:#018x} {:b}", (unsigned)(x >> 20), x >> sh, (int)(x >> 40) - (1 << 23)));
        unsigned len = 20 + below(180);
        s.assign(len, "abcdefghijklmnopqrstuvwxyz"[below(26)]);
        s += word();
        pad.add(F("{:*^240}", s));
        int pw = (int)below(300);
        const char *w2 = word();
        pad.add(F("{:>{}}|{:<{}}", s, pw, w2, (int)below(80)));
        pad.add(F("{:.{}}", s, (int)below(60)));
    }
    for (auto *x : {&g17, &f30, &e, &named, &join, &radix, &pad}) x->print();
}

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[1], "train") != 0 && strcmp(argv[1], "test") != 0)) {
        fprintf(stderr, "usage: fmt-drive train|test ROUNDS\n");
        return 2;
    }
    bool is_train = strcmp(argv[1], "train") == 0;
    unsigned long n = strtoul(argv[2], nullptr, 10);
    state = is_train ? 1 : 7;
    for (int i = 0; i < 16; i++) next();
    if (is_train)
        train(n);
    else
        test(n);
    printf("fmt::format calls %llu\n", nformat);
    return 0;
}
