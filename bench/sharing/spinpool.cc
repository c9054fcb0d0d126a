// spinpool.cc — bench/sharing.sh: a pool of spin locks made by a global
// object's constructor (C++ static initialisation, the pattern of Huron's
// boost spinlock pool), each thread taking its own lock around its work:
// neighbouring locks share lines.
//
//     spinpool [ITERATIONS] [THREADS]
//
// -DHAND_FIXED: the lock struct aligned to a line.  Prints a checksum.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

struct
#ifdef HAND_FIXED
    alignas(64)
#endif
        Spin {
    std::atomic<int> locked{0};
    long taken = 0;
};

struct Pool {
    Spin *locks;
    Pool() { locks = new Spin[16]; }
    ~Pool() { delete[] locks; }
};

static Pool pool;

static void worker(int me, long iters)
{
    Spin &s = pool.locks[me];
    unsigned long x = (unsigned long)me + 1;
    for (long i = 0; i < iters; i++) {
        while (s.locked.exchange(1, std::memory_order_acquire))
            ;
        x = x * 6364136223846793005ul + 1442695040888963407ul;
        s.taken += (long)(x >> 60);
        s.locked.store(0, std::memory_order_release);
    }
}

int main(int argc, char **argv)
{
    long iters = argc > 1 ? std::atol(argv[1]) : 20000000;
    int n = argc > 2 ? std::atoi(argv[2]) : 2;
    std::vector<std::thread> t;
    for (int i = 0; i < n && i < 16; i++)
        t.emplace_back(worker, i, iters);
    for (auto &th : t)
        th.join();
    long s = 0;
    for (int i = 0; i < n && i < 16; i++)
        s = s * 31 + pool.locks[i].taken;
    std::printf("spinpool %ld\n", s);
    return 0;
}
