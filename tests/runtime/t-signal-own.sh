#!/bin/bash
# A thread whose counters' address the runtime never recorded — it ran a
# counted library's code, but registered no unit and was not started by
# the runtime's pthread_create — dies of a signal: the trace the handler
# writes has that thread's counts, found without the unit's getter (which
# may allocate): at the unit's static TLS offset (a library linked at
# start-up), or where the counting copies' stub cached it (a dlopen'ed
# library's per-thread block).  Python imports extension modules in
# whichever thread gets there first; they lost the main thread's counts
# (3 of 53).
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -g -fPIC -fplugin-arg-perfinst-all=count -c "$T/runtime/ownlib.c" -o ownlib.o
pi_ld -O2 -shared -o libown.so ownlib.o
gcc -O2 -pthread "$T/runtime/ownhost.c" -o ownhost -ldl
gcc -O2 -pthread -DOWN_LINKED "$T/runtime/ownhost.c" -o ownlinked -L. -lown -Wl,-rpath,"$PWD"

# entries TRACE FUNCTION: its entry count in libown.so
entries() {
    "$PMOPT" report --by=function --format=csv libown.so "$1" 2> /dev/null | awk -F, -v f="$2" '$4 == f { print $2 }'
}
st=0
PERFINST_OUT=dl.pit ./ownhost dlopen ./libown.so 50 || st=$?
assert_eq "dlopen: died of SIGTERM" 143 "$st"
assert_eq "dlopen: own_work, the opener's call and the main thread's" 2 "$(entries dl.pit own_work)"
assert_eq "dlopen: own_step, 1 + 50" 51 "$(entries dl.pit own_step)"

st=0
PERFINST_OUT=linked.pit ./ownlinked linked 40 || st=$?
assert_eq "linked: died of SIGTERM" 143 "$st"
assert_eq "linked: own_step in libc's thread" 40 "$(entries linked.pit own_step)"
