# C++ objects link with g++'s libraries without --pi-cc: perfinst-ld sees
# the C++ (an object that refers to libstdc++ or the C++ ABI) and runs g++;
# on the flags route the build's own g++ links.  Both count exactly.
. "$PERFINST_TOP/tests/lib.sh"
. "$PERFINST_TOP/tests/adopt/lib-adopt.sh"
need g++
flags="-O2 $PI_CFLAGS -fplugin-arg-perfinst-all=count"
g++ $flags -c "$A/src/sorted.cc" -o sorted.o
gcc $flags -DSTEPS_CXX -c "$A/src/steps.c" -o steps.o
gcc $flags -c "$A/src/walk.c" -o walk.o
"$PILD" --pi-verbose -O2 -o steps steps.o walk.o sorted.o 2> verbose
assert_contains "perfinst-ld linked with g++" verbose 'running g\+\+ '
assert_contains "and says why" verbose 'linking with g\+\+: .*sorted\.o is C\+\+'
PERFINST_OUT=run.pit ./steps 6 > out
assert_eq "output" "steps 6: 207, sorted 10" "$(cat out)"
assert_eq "sorted_sum entered once" 1 "$(function_entries steps run.pit sorted_sum)"
# C objects alone: gcc
"$PILD" --pi-verbose -O2 -o c-only "$A/src/steps.c" walk.o 2> verbose
assert_contains "C alone: gcc" verbose 'running gcc '
# the flags route: g++ links
g++ -O2 $PI_LIBS -o steps2 steps.o walk.o sorted.o
PERFINST_OUT=run2.pit ./steps2 6 > out2
assert_eq "flags route output" "steps 6: 207, sorted 10" "$(cat out2)"
assert_eq "flags route: step entered 18 times" 18 "$(function_entries steps2 run2.pit step)"
