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
cd ..

# perfinst-ld as the compiler (CC=perfinst-ld, the plugin in CFLAGS): meson
# knows a compiler by its --version, which must be gcc's after perfinst-ld's
# own line (it said "Unknown compiler(s)" when only perfinst-ld's was there).
"$PILD" --version > version
assert_contains "--version: perfinst-ld's line" version '^perfinst-ld \(perfinst\) '
assert_contains "--version: then the compiler's" version 'Free Software Foundation'
CC=$PILD CFLAGS="-O2 -fplugin=$B/perfinst.so -fplugin-arg-perfinst-all=count" \
    meson setup build-ld proj > setup-ld.log 2>&1 || { cat setup-ld.log; tail -60 build-ld/meson-logs/meson-log.txt; fail "meson setup with CC=perfinst-ld"; }
assert_contains "CC=perfinst-ld: meson knows it as gcc" setup-ld.log 'C compiler for the host machine: .*perfinst-ld \(gcc '
ninja -C build-ld > ninja-ld.log 2>&1 || { cat ninja-ld.log; fail "ninja with CC=perfinst-ld"; }
PERFINST_OUT=run-ld.pit build-ld/steps 5 > out-ld
assert_eq "CC=perfinst-ld: output" "steps 5: 150" "$(cat out-ld)"
assert_eq "CC=perfinst-ld: walk entered 5 times" 5 "$(function_entries build-ld/steps run-ld.pit walk)"
