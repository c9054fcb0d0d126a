# timeout: 900
# GCC's own consistency checks (-fchecking: verify_gimple, the symbol
# table's verifier) pass on what the plugin builds: every count, C++ and
# sharing fixture compiles with -fchecking under all=count (-O2, -O0,
# -fPIC, clean-copies=late) and sharing=all.  Two faults they found: the constructor's and
# destructor's calls shared one getter-address tree, which took a location
# from the function being compiled ("location references block not in
# block tree"), and the late-sized arrays (__perfinst_fnon & co.) were
# finalized with the unreachable-node removal's "body removed" mark
# ("node has body_removed but is definition"): every all=count unit failed.
. "$PERFINST_TOP/tests/lib.sh"
echo 'int main(void){return 0;}' > probe.c
gcc -fchecking -c probe.c -o probe.o 2> probe.err || skip "this gcc refuses -fchecking: $(head -1 probe.err)"
n=0
check() { # CC ARGS... -- SOURCES: each compiles with -fchecking, no error
    local cc=$1; shift
    local args=() f
    while [ "$1" != -- ]; do args+=("$1"); shift; done; shift
    for f in "$@"; do
        case $f in */gentrace.c) continue ;; esac # (a generator: no plugin)
        case $f in */coro.cc) [ "${args[*]}" != "${args[*]/-fcoroutines/}" ] || continue ;; esac # (below)
        $cc -fplugin="$PLUGIN" -I"$PERFINST_TOP/include" -I"$T/sharing" -g -fchecking "${args[@]}" \
            -c "$f" -o x.o 2> err || fail "$(basename "$f") with ${args[*]} -fchecking: $(grep -m3 -E 'error|internal' err)"
        n=$((n + 1))
    done
}
check gcc -O2 -fplugin-arg-perfinst-all=count -- "$T"/count/*.c
check gcc -O0 -fplugin-arg-perfinst-all=count -- "$T"/count/*.c
check gcc -O2 -fPIC -fplugin-arg-perfinst-all=count -- "$T"/count/*.c
# clean-copies=late: the copy compiled nested in f's last GIMPLE pass (f's
# GIMPLE CFG hooks restored after it: "BB_RTL flag not set" before)
check gcc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-clean-copies=late -- "$T"/count/*.c
check g++ -O2 -fplugin-arg-perfinst-all=count -- "$T"/cxx/*.cc
# the bodies GCC makes: OpenMP regions, a coroutine's actor
check gcc -O2 -fopenmp -fplugin-arg-perfinst-all=count -- "$T"/count/omp.c
check g++ -O2 -std=c++20 -fcoroutines -fplugin-arg-perfinst-all=count -- "$T"/cxx/coro.cc
check gcc -O2 -fplugin-arg-perfinst-sharing=all -- "$T"/sharing/*.c
ok "$n compiles pass GCC's -fchecking"
