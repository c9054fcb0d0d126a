#!/bin/bash
# Thread churn, trace writes and dlopen/dlclose all at once: counts stay
# exact and every write leaves a complete trace and no temporary file.
. "$PERFINST_TOP/tests/lib.sh"
. "$T/runtime/fixture.sh"

build_prog stress "$R/stress.c"
gcc $CFIX -fPIC -shared -o lib.so "$R/lib.c"
for p in stress stress.static; do
    for round in 1 2 3; do
        ./$p ./lib.so
        f=$(only_trace "perfinst.$p.*")
        dump "$f"
        assert_contains "$p: program unit (round $round)" "$f.txt" "^counts unit=0xa module=0 ncounters=1 counts=4000000$"
        # dlopen'ed again at another place (as under ASan), the library is a
        # new module: its unit's counts are then split between the modules
        lib=$(awk '/^counts unit=0x11b / { split($5, c, /[=,]/); a += c[2]; b += c[3] } END { print a "," b }' "$f.txt")
        assert_eq "$p: library unit, all its modules (round $round)" "500,50" "$lib"
        rm -f perfinst.*
    done
done
