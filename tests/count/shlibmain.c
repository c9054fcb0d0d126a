/* Calls the library of shlib.c from the main thread and from a second
 * thread, 200 times each: linked to it (its TLS in the static block), or
 * with argv[1] = the library, dlopen'ed (TLS the loader allocates per
 * thread).  Prints a checksum, so that a wrong double is seen too. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#ifdef LINKED
int lib_work(int n);
double lib_scale(double x, int k);
int lib_apply(int n);
int lib_jump(int n);
int lib_o0(int n);
#else
static int (*lib_work)(int);
static double (*lib_scale)(double, int);
static int (*lib_apply)(int);
static int (*lib_jump)(int);
static int (*lib_o0)(int);
#endif

static void *calls(void *arg)
{
    double *sum = arg;
    for (int i = 0; i < 200; i++)
        *sum += lib_work(10) + lib_scale(1.5 + i, i % 4) + lib_apply(10) + lib_jump(5) + lib_o0(3);
    return NULL;
}

int main(int argc, char **argv)
{
#ifndef LINKED
    void *h = dlopen(argv[1], RTLD_NOW);
    if (!h) {
        fprintf(stderr, "%s\n", dlerror());
        return 1;
    }
    lib_work = (int (*)(int))dlsym(h, "lib_work");
    lib_scale = (double (*)(double, int))dlsym(h, "lib_scale");
    lib_apply = (int (*)(int))dlsym(h, "lib_apply");
    lib_jump = (int (*)(int))dlsym(h, "lib_jump");
    lib_o0 = (int (*)(int))dlsym(h, "lib_o0");
#endif
    double a = 0, b = 0;
    pthread_t t;
    if (pthread_create(&t, NULL, calls, &b))
        return 1;
    calls(&a);
    pthread_join(t, NULL);
    printf("%.3f %.3f\n", a, b);
#ifndef LINKED
    dlclose(h);
#endif
    (void)argc;
    return 0;
}
