/* heapwrap.c — N rounds of 8 allocations through each allocator function
 * libperfinst.so wraps (runtime/heap-wrap.c), freed at once: t-heapwrap.sh
 * counts the wrappers' own instructions per call under callgrind. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    unsigned long sum = 0;
    for (int r = 0; r < n; r++) {
        void *p[8];
        for (int i = 0; i < 8; i++) {
            switch (i % 4) {
            case 0: p[i] = malloc(16 + 8 * (size_t)i); break;
            case 1: p[i] = calloc(2, 8 + 4 * (size_t)i); break;
            case 2: p[i] = realloc(malloc(8), 512); break; /* a new block: moved */
            default: p[i] = aligned_alloc(64, 64); break;
            }
            sum += (unsigned long)p[i] & 1;
        }
        for (int i = 0; i < 8; i++)
            free(p[i]);
    }
    printf("%lu\n", sum);
    return 0;
}
