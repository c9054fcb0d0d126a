/* ctrslots.c — a dlopen'ed module's counters through the runtime's slot of
 * its TLS block (t-ctr-base.sh): a thread started before the runtime was
 * loaded and threads started after each dlopen, a ninth module (no slot
 * left: the stub), and a module unloaded and loaded again while a thread
 * that filled its slot lives on.  Each module: 1000 calls of fa from each
 * of three threads; the first again: 1000 more from two. */
#include <dlfcn.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

typedef long (*fn)(long);
static fn cur;
static sem_t go, done;

static long calls(fn f, long n)
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s += f(i);
    return s;
}

/* a thread started before any module: 1000 calls of cur each time it is told */
static void *early(void *p)
{
    (void)p;
    for (;;) {
        sem_wait(&go);
        if (!cur)
            return NULL;
        calls(cur, 1000);
        sem_post(&done);
    }
}

static void *late(void *p)
{
    calls((fn)p, 1000);
    return NULL;
}

static fn load(const char *path, void **h)
{
    *h = dlopen(path, RTLD_NOW);
    return *h ? (fn)dlsym(*h, "fa") : NULL;
}

int main(int argc, char **argv)
{
    pthread_t e, l;
    sem_init(&go, 0, 0);
    sem_init(&done, 0, 0);
    pthread_create(&e, NULL, early, NULL);
    void *h[16];
    /* modules 1..N: main 1000 calls each, the early thread 1000, a late thread 1000 */
    for (int i = 1; i < argc; i++) {
        fn f = load(argv[i], &h[i]);
        if (!f)
            return 2;
        calls(f, 1000);
        cur = f;
        sem_post(&go);
        sem_wait(&done);
        pthread_create(&l, NULL, late, (void *)f);
        pthread_join(l, NULL);
    }
    /* the first module unloaded and loaded again: the early thread calls it
       before and after */
    dlclose(h[1]);
    fn f = load(argv[1], &h[1]);
    if (!f)
        return 3;
    cur = f;
    sem_post(&go);
    sem_wait(&done);
    calls(f, 1000);
    cur = NULL;
    sem_post(&go);
    pthread_join(e, NULL);
    puts("done");
    return 0;
}
