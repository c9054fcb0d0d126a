#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    for (int round = 0; round < 3; round++) {
        void *h = dlopen(argv[1], RTLD_NOW);
        if (!h) { fprintf(stderr, "%s\n", dlerror()); return 1; }
        int (*f)(int) = (int (*)(int))dlsym(h, "lib_work");
        for (int i = 0; i < 10; i++)
            f(100);
        dlclose(h);
    }
    return 0;
}
