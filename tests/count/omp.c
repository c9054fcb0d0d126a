/* OpenMP regions (t-openmp.sh): GCC outlines each region's body into a
 * function of its own (main._omp_fn.N, artificial), run by every thread of
 * the team; all=count counts them as the program's code.  `./omp N`:
 * a parallel loop of N iterations over 4 threads, a region of 3 threads,
 * and a dynamic loop of N iterations over 2 threads that calls work for
 * every third.  Known counts: work N + ceil(N/3) entries; the first loop's
 * body N; each region's function as many entries as its team has threads. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

static int work(int i) { return (i * 7) % 13; }

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    long s = 0;
#pragma omp parallel for reduction(+ : s) num_threads(4)
    for (int i = 0; i < n; i++)
        s += work(i); /* the first loop's body */
    int team = 0;
#pragma omp parallel num_threads(3)
    {
#pragma omp atomic
        team++;
    }
#pragma omp parallel for schedule(dynamic, 7) reduction(+ : s) num_threads(2)
    for (int i = 0; i < n; i++)
        if (i % 3 == 0)
            s += work(i);
    printf("%ld %d\n", s, team);
    return 0;
}
