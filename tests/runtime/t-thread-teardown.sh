#!/bin/bash
# Counted code that runs as a thread ends, after its start routine: a
# pthread key destructor (an allocator's thread-done, mimalloc's
# _mi_thread_done, frees the thread's heap there).  The runtime's own key
# destructor sets its key again in each of glibc's rounds but the last,
# flushing what came since: the destructor's calls are counted (they were
# lost: done 0 where gcov counts 4), and the slots of its indirect calls'
# caches, in the thread's TLS, are given back before the TLS goes (the
# process crashed at exit, reading the slots of a thread whose stack glibc
# had unmapped: mimalloc's test-stress).  A thread the runtime did not
# start (a plain program's, started before it dlopen'ed the counted
# library: t-foreign-threads.sh has those started after) is made known at
# its first indirect call's miss.
. "$PERFINST_TOP/tests/lib.sh"
. "$T/adopt/lib-adopt.sh"
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c "$T/runtime/keydtor.c" -o keydtor.o
pi_ld -O2 -pthread -o keydtor keydtor.o
PERFINST_OUT=t.pit ./keydtor 4 > out || fail "the counted program died ($?)"
assert_eq "its output" "4 threads" "$(cat out)"
assert_eq "done, the key destructor, once a thread" 4 "$(function_entries keydtor t.pit done)"
assert_eq "visit: a direct and two indirect calls a thread" 12 "$(function_entries keydtor t.pit visit)"
assert_eq "other: two indirect calls a thread" 8 "$(function_entries keydtor t.pit other)"

# the library's functions called from threads a plain program made
cat > lib.c << 'C'
static int add1(int x) { return x + 1; }
static int add2(int x) { return x + 2; }
int (*volatile fp[2])(int) = {add1, add2};
int work(int n) { int s = 0; for (int i = 0; i < n; i++) s = fp[(i >> 3) & 1](s) + fp[0](i); return s; }
C
cat > main.c << 'C'
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
static pthread_barrier_t go;
static int (*work)(int);
static void *run(void *a) { (void)a; pthread_barrier_wait(&go); return (void *)(long)work(1000); }
int main(void) {
    pthread_attr_t at; pthread_attr_init(&at);
    pthread_attr_setstacksize(&at, 64 << 20);
    pthread_t t[4];
    pthread_barrier_init(&go, 0, 5);
    for (int i = 0; i < 4; i++) pthread_create(&t[i], &at, run, 0);
    /* the threads are running before the library (and the runtime) is loaded */
    void *h = dlopen("./libw.so", RTLD_NOW);
    if (!h || !(work = (int (*)(int))dlsym(h, "work"))) return 2;
    pthread_barrier_wait(&go);
    for (int i = 0; i < 4; i++) pthread_join(t[i], 0);
    puts("ok");
    return 0;
}
C
pi_cc -O2 -fPIC -fplugin-arg-perfinst-all=count -c lib.c -o lib.o
pi_ld -shared -o libw.so lib.o
gcc -O2 -pthread -o m main.c -ldl
PERFINST_OUT=w.pit ./m > out || fail "the plain program died ($?)"
assert_eq "work, from 4 threads started before the runtime was loaded" 4 "$(function_entries libw.so w.pit work)"
assert_eq "add1" 6016 "$(function_entries libw.so w.pit add1)"
