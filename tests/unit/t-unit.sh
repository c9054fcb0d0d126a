#!/bin/bash
# The unit tests (tests/unit/*.c, driver unit.h): the pure algorithms in C,
# each file a program of exact checks that runs in milliseconds.  Each is
# built here against the objects make built (pmopt's but its main, the
# common readers, the runtime's headers) and run; every check's line is
# shown, and any FAIL fails this script.
. "$PERFINST_TOP/tests/lib.sh"
U=$T/unit
mk() { make -s --no-print-directory -C "$PERFINST_TOP" "print-$1"; }
libs="$B/libpicommon.a $(mk PMOPT_LDLIBS)"
inc=$(for d in $(mk PMOPT_DIRS); do printf ' -I%s/%s' "$PERFINST_TOP" "$d"; done)
# the objects the build links into pmopt (not a stale one of a moved file), but pmopt.o
objs=$(for o in $(mk PMOPT_OBJS); do o=$B/${o#*/}; [ "$o" = "$B/optimizer/pmopt.o" ] || echo "$o"; done)
[ -n "$objs" ] || fail "no objects in $B/optimizer: run make first"
status=0
for src in "$U"/*.c; do
    name=$(basename "$src" .c)
    [ "$name" = unit ] && continue
    gcc -std=gnu11 -O1 -g -Wall -Wextra -Wno-unused-parameter -I"$PERFINST_TOP/include" \
        -I"$PERFINST_TOP/common" $inc -I"$PERFINST_TOP/runtime" -I"$U" \
        "$src" "$U/unit.c" $objs $libs -o "$name" || fail "$name: does not build"
    echo "== $name"
    ./"$name" || status=1
done
[ $status = 0 ] || fail "a unit test failed"
ok "every unit test passed"
