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
# start (a plain program, libc's pthread_create first, calling a counted
# library) is made known at its first indirect call's miss.
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
#include <pthread.h>
#include <stdio.h>
int work(int n);
static void *run(void *a) { (void)a; return (void *)(long)work(1000); }
int main(void) {
    pthread_attr_t at; pthread_attr_init(&at);
    pthread_attr_setstacksize(&at, 64 << 20);
    for (int i = 0; i < 4; i++) { pthread_t t; pthread_create(&t, &at, run, 0); pthread_join(t, 0); }
    puts("ok");
    return 0;
}
C
pi_cc -O2 -fPIC -fplugin-arg-perfinst-all=count -c lib.c -o lib.o
pi_ld -shared -o libw.so lib.o
gcc -O2 -pthread -o m main.c -L. -lw -Wl,-rpath,"$PWD"
PERFINST_OUT=w.pit ./m > out || fail "the plain program died ($?)"
assert_eq "work, from 4 threads libc's pthread_create made" 4 "$(function_entries libw.so w.pit work)"
assert_eq "add1" 6016 "$(function_entries libw.so w.pit add1)"
