// A C++20 coroutine (t-coroutine.sh): GCC moves its body into an
// artificial function, count_to's frame .actor, which every resume enters
// (and .destroy).  `./coro N`: count_to(100 * N) yields every i in [0, 100 N)
// that 3 does not divide.
#include <coroutine>
#include <cstdio>
#include <cstdlib>

struct gen {
    struct promise_type {
        int cur = 0;
        gen get_return_object() { return gen{std::coroutine_handle<promise_type>::from_promise(*this)}; }
        std::suspend_always initial_suspend() noexcept { return {}; }
        std::suspend_always final_suspend() noexcept { return {}; }
        std::suspend_always yield_value(int v)
        {
            cur = v;
            return {};
        }
        void return_void() {}
        void unhandled_exception() {}
    };
    std::coroutine_handle<promise_type> h;
    ~gen()
    {
        if (h)
            h.destroy();
    }
    bool next()
    {
        h.resume();
        return !h.done();
    }
};

gen count_to(int n)
{
    for (int i = 0; i < n; i++) // LOOP
        if (i % 3)              // TEST
            co_yield i;         // YIELD
}

int main(int argc, char **argv)
{
    gen g = count_to(100 * (argc > 1 ? atoi(argv[1]) : 1));
    long s = 0;
    while (g.next())
        s += g.h.promise().cur;
    std::printf("%ld\n", s);
}
