/* ownhost.c — an uncounted program for t-signal-own.sh that runs a counted
 * library's code in a thread the runtime has no counters' address of, and
 * dies of SIGTERM in that thread:
 *     ownhost dlopen LIB N   a thread dlopens LIB (its unit registers
 *                            there) and calls own_work(1); then the main
 *                            thread calls own_work(N) and raises SIGTERM
 *                            (python3 importing an extension module in a
 *                            worker thread, the main thread calling it)
 *     ownhost linked N       built with -DOWN_LINKED and linked with the
 *                            library: a thread started by libc's
 *                            pthread_create calls own_work(N) and raises
 *                            SIGTERM */
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long own_work(long n);

static const char *lib;
static long (*work)(long);
static long n;

static void *opener(void *arg)
{
    (void)arg;
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "%s\n", dlerror());
        exit(2);
    }
    work = (long (*)(long))dlsym(h, "own_work");
    work(1);
    return NULL;
}

#ifdef OWN_LINKED
static void *worker(void *arg)
{
    (void)arg;
    own_work(n);
    raise(SIGTERM);
    return NULL;
}
#endif

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    pthread_t t;
    if (!strcmp(argv[1], "dlopen") && argc == 4) {
        lib = argv[2];
        n = atol(argv[3]);
        pthread_create(&t, NULL, opener, NULL);
        pthread_join(t, NULL);
        work(n);
        raise(SIGTERM);
    }
#ifdef OWN_LINKED
    if (!strcmp(argv[1], "linked")) {
        n = atol(argv[2]);
        pthread_create(&t, NULL, worker, NULL);
        pthread_join(t, NULL);
    }
#endif
    return 3;
}
