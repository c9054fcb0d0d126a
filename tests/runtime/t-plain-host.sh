#!/bin/bash
# A plain program (built without perfinst) whose threads call a counted
# shared library: its pthread_create and exec are libc's, found before the
# runtime's, so the runtime points the program's imports of them at its own
# (runtime/gotpatch.c): the threads' calls are counted (they were lost: 0
# where 4 threads ran; a program not built as PIE that takes the
# function's address crashed: its canonical PLT entry, which dlsym gives,
# called the runtime's again; a program's own exported pthread_create is
# still called), an exec writes the trace first (it was lost), and
# the runtime's handler of fatal signals is installed, unseen by the
# program and put back by its SIG_DFL (it was never installed: dlsym's
# RTLD_NEXT from a runtime after libc finds no sigaction).  Through the PLT, lazily bound and with -z now
# (the GOT read-only after relocation), through the GOT (-fno-plt), a
# pointer in data; the library linked in or dlopen'ed after the start, and
# dlclose'd (the runtime stays: a thread started after it runs); C++'s
# std::thread (libstdc++'s import); the runtime preloaded keeps its
# pthread_create first and nothing is patched.
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -g -fPIC -fplugin-arg-perfinst-all=count -c "$T/runtime/plainhost-lib.c" -o lib.o
pi_ld -shared -o libw.so lib.o

# expected: threads 0..3 each call work_linked(100 + i)
check() { # NAME TRACE
    assert_eq "$1: work_linked, once a thread" 4 "$(function_entries libw.so "$2" work_linked)"
    assert_eq "$1: step, 100+101+102+103 calls" 406 "$(function_entries libw.so "$2" step)"
}
run() { # NAME PROG ARGS...: runs it, its trace t-NAME.pit
    local name=$1; shift
    PERFINST_OUT="t-$name.pit" "$@" > out || fail "$name: the program died ($?)"
    assert_eq "$name: its output" "4 threads" "$(cat out)"
    check "$name" "t-$name.pit"
}
gcc -O2 -g -pthread -DLINKED -o lazy "$T/runtime/plainhost.c" -L. -lw -Wl,-rpath,"$PWD"
run lazy ./lazy x 4
gcc -O2 -g -pthread -DLINKED -Wl,-z,relro,-z,now -o now "$T/runtime/plainhost.c" -L. -lw -Wl,-rpath,"$PWD"
run now ./now x 4
gcc -O2 -g -pthread -DLINKED -fno-plt -Wl,-z,relro,-z,now -o noplt "$T/runtime/plainhost.c" -L. -lw -Wl,-rpath,"$PWD"
readelf -rW noplt | grep -q 'R_X86_64_GLOB_DAT.*pthread_create' || fail "-fno-plt: no GOT entry for pthread_create"
run noplt ./noplt x 4
gcc -O2 -g -pthread -no-pie -DLINKED -o nopie "$T/runtime/plainhost.c" -L. -lw -Wl,-rpath,"$PWD"
run nopie ./nopie x 4
# not PIE at all: the pointer in data is the program's canonical PLT entry,
# which dlsym gives too; redirecting to it would call the runtime for ever
for z in lazy now; do
    zf=; [ $z = now ] && zf=-Wl,-z,relro,-z,now
    gcc -O2 -g -pthread -fno-pie -no-pie -DLINKED $zf -o canon-$z "$T/runtime/plainhost.c" -L. -lw -Wl,-rpath,"$PWD"
    readelf -W --dyn-syms canon-$z | grep -Eq '[1-9a-f][0-9a-f]* +0 FUNC +GLOBAL DEFAULT +UND pthread_create' ||
        fail "canon-$z: no canonical PLT entry for pthread_create"
    run canon-$z ./canon-$z x 4
done

gcc -O2 -g -pthread -o dl "$T/runtime/plainhost.c" -ldl
run dl ./dl ./libw.so 4
run dlclose ./dl ./libw.so 4 close
run exec ./lazy x 4 exec
for p in lazy dl; do
    st=0
    PERFINST_OUT="t-$p-signal.pit" ./$p ./libw.so 4 signal > out || st=$?
    assert_eq "$p signal: dies of SIGTERM" 143 "$st"
    assert_eq "$p signal: the program sees the default" "4 threads, SIGTERM default" "$(cat out)"
    check "$p signal" "t-$p-signal.pit"
done
run dlexec ./dl ./libw.so 4 exec

# a program with an exported pthread_create of its own (a wrapper that
# counts and passes the call on): the library's threads go through the
# runtime's and then through the program's, not around it
cat > wrap.c << 'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
int start_threads(int n);
static int wrapped;
int pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*f)(void *), void *arg)
{
    int (*next)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *) =
        (int (*)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *))dlsym(RTLD_NEXT, "pthread_create");
    wrapped++;
    return next(t, a, f, arg);
}
int main(void)
{
    int n = start_threads(4);
    printf("%d threads\n", wrapped == n ? n : -wrapped);
    return 0;
}
C
for pie in -pie -no-pie; do
    gcc -O2 -pthread -rdynamic $pie -o wrap$pie wrap.c -L. -lw -Wl,-rpath,"$PWD" -ldl
    run wrap$pie ./wrap$pie
done

# C++: std::thread starts through libstdc++'s import of pthread_create
cat > cxx.cc << 'C'
#include <cstdio>
#include <thread>
extern "C" int work_linked(int n);
int main()
{
    for (int i = 0; i < 4; i++) {
        std::thread t(work_linked, 100 + i);
        t.join();
    }
    std::puts("4 threads");
}
C
g++ -O2 -pthread -o cxx cxx.cc -L. -lw -Wl,-rpath,"$PWD"
run cxx ./cxx

# the runtime preloaded: its pthread_create comes first, nothing is
# redirected (a redirect to itself would call itself for ever)
run preload env LD_PRELOAD="$B/libperfinst.so" ./lazy x 4
ok "threads a plain program starts are counted: PLT, -z now, -fno-plt, a pointer, dlopen, dlclose, std::thread, exec, a signal, preloaded"
