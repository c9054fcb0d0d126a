# -flto: objects compiled with the plugin and -flto get their code at link
# time, in lto1.  With the plugin on the link line (pkg-config --libs has
# it; perfinst-ld adds it) their counts are exact; a link that gives gcc
# only perfinst.specs, without the plugin, is refused with what to add —
# never a program that silently lost its code ranges.
. "$PERFINST_TOP/tests/lib.sh"
. "$PERFINST_TOP/tests/adopt/lib-adopt.sh"
CFLAGS="-O2 -flto $PI_CFLAGS -fplugin-arg-perfinst-all=count"
gcc $CFLAGS -c "$A/src/walk.c" -o walk.o
gcc $CFLAGS -c "$A/src/steps.c" -o steps.o
expect_fail "-flto link without the plugin" gcc -O2 -flto -specs="$B/perfinst.specs" -o bad steps.o walk.o
assert_contains "names the object and the plugin to add" err "^perfinst-ld: (steps|walk)\.o: compiled with -flto and the perfinst plugin, but this link runs without the plugin: .*-fplugin=$B/perfinst\.so"
[ ! -e bad ] || fail "bad was written"
gcc -O2 -flto $PI_LIBS -o steps steps.o walk.o
PERFINST_OUT=run.pit ./steps 3 > out
assert_eq "output" "steps 3: 63" "$(cat out)"
assert_eq "flags route: walk entered 3 times" 3 "$(function_entries steps run.pit walk)"
assert_eq "flags route: step entered 9 times" 9 "$(function_entries steps run.pit step)"
"$PILD" -O2 -flto -o steps2 steps.o walk.o
PERFINST_OUT=run2.pit ./steps2 3 > out
assert_eq "perfinst-ld: step entered 9 times" 9 "$(function_entries steps2 run2.pit step)"
# -flto objects compiled with the plugin but nothing to count (as in a
# feedback rebuild): whether lto1's code refers to the runtime is known only
# after the link, so it is linked as needed: no DT_NEEDED.
gcc -O2 -flto $PI_CFLAGS -c "$A/src/walk.c" -o plain-walk.o
gcc -O2 -flto $PI_CFLAGS -c "$A/src/steps.c" -o plain-steps.o
gcc -O2 -flto $PI_LIBS -o plain plain-steps.o plain-walk.o
readelf -dW plain > plain.d
assert_not_contains "nothing counted: no DT_NEEDED libperfinst" plain.d 'NEEDED.*libperfinst'
assert_eq "same output" "steps 3: 63" "$(./plain 3)"
