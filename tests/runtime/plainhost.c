/* plainhost.c — a plain program's threads calling a counted library
 * (t-plain-host.sh): the program is built without perfinst, so its
 * pthread_create is libc's unless the runtime redirects it.  Each way a
 * program can reach pthread_create: its PLT, its GOT (-fno-plt), a pointer
 * in data; the library linked in, or dlopen'ed after the program started;
 * an exec or a death by a signal after the threads. */
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int (*work)(int);
static void on_term(int sig)
{
    (void)sig;
}

static void *nop(void *a)
{
    return a;
}
static void *run(void *a)
{
    return (void *)(long)work((int)(long)a);
}

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
create_fn volatile by_pointer = pthread_create;

#ifdef LINKED
int work_linked(int n);
#endif

int main(int argc, char **argv)
{
    int n = argc > 2 ? atoi(argv[2]) : 4;
#ifdef LINKED
    work = work_linked;
    (void)argv;
#else
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!h || !(work = (int (*)(int))dlsym(h, "work_linked"))) {
        fprintf(stderr, "%s\n", dlerror());
        return 2;
    }
#endif
    for (int i = 0; i < n; i++) {
        pthread_t t;
        int rc = (i & 1 ? by_pointer : pthread_create)(&t, NULL, run, (void *)(long)(100 + i));
        if (rc || pthread_join(t, NULL))
            return 3;
    }
    if (argc > 3 && !strcmp(argv[3], "signal")) {
        /* the program never sees the runtime's handler, and SIG_DFL put
           back after its own is the runtime's again: it dies of SIGTERM
           with a trace */
        struct sigaction old;
        sigaction(SIGTERM, NULL, &old);
        printf("%d threads, SIGTERM %s\n", n, old.sa_handler == SIG_DFL ? "default" : "handled");
        fflush(stdout);
        signal(SIGTERM, on_term);
        signal(SIGTERM, SIG_DFL);
        raise(SIGTERM);
        return 5;
    }
    if (argc > 3 && !strcmp(argv[3], "exec")) {
        /* the image ends: the trace is written first */
        printf("%d threads\n", n);
        fflush(stdout);
        execl("/bin/true", "true", (char *)NULL);
        return 4;
    }
#ifndef LINKED
    if (argc > 3 && !strcmp(argv[3], "close")) {
        dlclose(h);
        /* the runtime stays: threads started after still work */
        pthread_t t;
        if (pthread_create(&t, NULL, nop, NULL) == 0)
            pthread_join(t, NULL);
    }
#endif
    printf("%d threads\n", n);
    return 0;
}
