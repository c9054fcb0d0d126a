// A pool of spin locks allocated by a global object's constructor (before
// main, in C++ static initialisation), each thread taking its own lock:
// false sharing between neighbouring locks (t-verdict.sh).  The
// allocation is operator new[] in an instrumented unit: recorded, named by
// its site, repaired.  Prints a checksum on stdout and, on stderr,
// "addr T<k> <first> <last>" for each thread's lock.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>

struct Spin {
    std::atomic<int> locked{0};
    long taken = 0;
};

struct Pool {
    Spin *locks;
    Pool() { locks = new Spin[4]; }
    ~Pool() { delete[] locks; }
};

Pool pool;

static void worker(int me, long iters)
{
    Spin &s = pool.locks[me];
    for (long i = 0; i < iters; i++) {
        while (s.locked.exchange(1, std::memory_order_acquire))
            ;
        s.taken++;
        s.locked.store(0, std::memory_order_release);
    }
    std::fprintf(stderr, "addr T%d %p %p\n", me, (void *)&s, (void *)((char *)&s + sizeof s - 1));
}

int main(int argc, char **argv)
{
    long iters = argc > 1 ? std::atol(argv[1]) : 200000;
    std::thread t0(worker, 0, iters), t1(worker, 1, iters);
    t0.join();
    t1.join();
    std::printf("taken %ld %ld\n", pool.locks[0].taken, pool.locks[1].taken);
    return 0;
}
