/* keydtor.c — counted code in a pthread key destructor (t-thread-teardown.sh),
 * as an allocator's thread-done hook runs it (mimalloc's _mi_thread_done),
 * after the thread's start routine returned: a direct call and calls
 * through a pointer (runtime/icall.c's inline caches, whose slots lie in the
 * thread's TLS).  Big stacks: glibc unmaps each thread's stack, its TLS
 * with it, at the join (above its 40 MiB cache of stacks). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
static pthread_key_t key;
__attribute__((noinline)) static void visit(int x) { __asm__ volatile("" ::"r"(x)); }
__attribute__((noinline)) static void other(int x) { __asm__ volatile("" ::"r"(x + 1)); }
void (*volatile fp[2])(int) = {visit, other};
static void done(void *v)
{
    visit((int)(long)v);
    for (int i = 0; i < 4; i++)
        fp[i & 1]((int)(long)v);
}
static void *run(void *a)
{
    pthread_setspecific(key, (void *)1);
    return a;
}
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 4;
    pthread_key_create(&key, done);
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setstacksize(&at, 64 << 20);
    for (int i = 0; i < n; i++) {
        pthread_t t;
        pthread_create(&t, &at, run, 0);
        pthread_join(t, 0);
    }
    printf("%d threads\n", n);
    return 0;
}
