#!/bin/bash
# dlopen/dlclose: a library's unit is counted, keeps its counts (and its
# MODULE record) after dlclose, adds up over two dlopens, and collects the
# counts of other threads that used it.
. "$PERFINST_TOP/tests/lib.sh"
. "$T/runtime/fixture.sh"

build_prog prog "$R/prog.c"
gcc $CFIX -fPIC -shared -o lib.so "$R/lib.c" -L"$B" -lperfinst -Wl,-rpath,"$B"
gcc $CFIX -fPIC -shared -o lib-bare.so "$R/lib.c"   # finds the runtime in the program
for run in "prog lib.so" "prog lib-bare.so" "prog.static lib-bare.so"; do
    set -- $run
    ./$1 dlopen "./$2" 100
    f=$(only_trace "perfinst.$1.[0-9]*.pit")
    dump "$f"
    assert_contains "$run: library module" "$f.txt" "^module index=1 build_id=[0-9a-f]+ bias=0x[0-9a-f]+ path=$PWD/$2$"
    assert_contains "$run: counts after two dlclose" "$f.txt" "^counts unit=0x11b module=1 ncounters=2 counts=200,200$"
    assert_contains "$run: program's unit" "$f.txt" "^counts unit=0xa11ce module=0 ncounters=3 counts=1,0,0$"
    rm -f perfinst.*

    ./$1 dlthreads "./$2" 100000
    f=$(only_trace "perfinst.$1.[0-9]*.pit")
    dump "$f"
    assert_contains "$run: threads' counts flushed at dlclose" "$f.txt" "^counts unit=0x11b module=1 ncounters=2 counts=200000,2$"
    rm -f perfinst.*
done
