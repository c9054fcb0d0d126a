# timeout: 600
# A meson project (tests/adopt/meson) set up as a user would, with
# perfinst's flags in CFLAGS and LDFLAGS: meson's compiler sanity check
# links through the link stage, ninja builds, the program counts exactly.
. "$PERFINST_TOP/tests/lib.sh"
. "$PERFINST_TOP/tests/adopt/lib-adopt.sh"
need meson ninja
mkdir proj && cp "$A"/meson/meson.build "$A"/src/steps.c "$A"/src/walk.c proj/
CFLAGS="-O2 $PI_CFLAGS -fplugin-arg-perfinst-all=count" LDFLAGS="$PI_LIBS" \
    meson setup build proj > setup.log 2>&1 || { cat setup.log; cat build/meson-logs/meson-log.txt | tail -60; fail "meson setup"; }
assert_contains "meson: the C compiler works" setup.log 'C compiler for the host machine: '
ninja -C build -v > ninja.log 2>&1 || { cat ninja.log; fail "ninja"; }
assert_contains "linked with the link flags" ninja.log '-specs=.*perfinst\.specs.* -o steps|-o steps .*-specs=.*perfinst\.specs'
cd build
PERFINST_OUT=run.pit ./steps 5 > out
assert_eq "output" "steps 5: 150" "$(cat out)"
assert_eq "walk entered 5 times" 5 "$(function_entries steps run.pit walk)"
assert_eq "step entered 15 times" 15 "$(function_entries steps run.pit step)"
"$PMOPT" dump-meta steps > meta
assert_contains "translation table and recipe" meta 'translation table, link recipe'
