# timeout: 600
# A real autotools project (tests/adopt/auto) built as a user would, with
# perfinst's flags added to CFLAGS and LDFLAGS only: autoreconf, ./configure
# (whose test links, and the test program it runs, go through the link
# stage), make.  The program counts exactly, carries the translation table
# and recipe, and pmopt relink reorders what make linked.
. "$PERFINST_TOP/tests/lib.sh"
. "$PERFINST_TOP/tests/adopt/lib-adopt.sh"
need autoreconf autoconf automake make
# the project: its build files and the sources
mkdir src && cp "$A"/auto/* "$A"/src/steps.c "$A"/src/walk.c src/
cd src
autoreconf -i > autoreconf.log 2>&1 || { cat autoreconf.log; fail "autoreconf"; }
./configure CFLAGS="-O2 $PI_CFLAGS -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections" \
    LDFLAGS="$PI_LIBS" > configure.log 2>&1 || { cat configure.log; tail -60 config.log; fail "configure"; }
assert_contains "configure: the C compiler works" configure.log 'checking whether the C compiler works\.\.\. yes'
assert_contains "configure: a library check links" configure.log 'checking for cos in -lm\.\.\. yes'
assert_contains "configure: a function check links" configure.log 'checking for strndup\.\.\. yes'
assert_contains "configure: its test program ran" configure.log 'checking whether we are cross compiling\.\.\. no'
make > make.log 2>&1 || { cat make.log; fail "make"; }
PERFINST_OUT=run.pit ./steps 7 > out
assert_eq "output" "steps 7: 273" "$(cat out)"
assert_eq "walk entered 7 times" 7 "$(function_entries steps run.pit walk)"
assert_eq "step entered 21 times" 21 "$(function_entries steps run.pit step)"
readelf -dW steps > steps.d
assert_contains "the runtime linked" steps.d 'NEEDED.*\[libperfinst\.so\]'
"$PMOPT" dump-meta steps > meta
assert_contains "translation table and recipe" meta 'translation table, link recipe'

# the layout loop on what make linked
"$PMOPT" plan --order=exttsp -o steps.fb steps run.pit > plan.out
order=$(sed -n 's/^[0-9]* order-functions alg=[a-z0-9]* functions=//p' steps.fb)
[ -n "$order" ] || { cat steps.fb; fail "no order-functions in the plan"; }
"$PMOPT" relink steps --feedback steps.fb -o steps.opt --smoke 7 > relink.out 2>&1 ||
    { cat relink.out; fail "pmopt relink"; }
assert_contains "relink followed the plan" relink.out 'functions in the planned order'
got=$(nm -n steps.opt | awk '$2 ~ /^[tT]$/ {print $3}' | grep -xE "$(echo "$order" | tr , '|')" | paste -sd,)
assert_eq "nm order of the relinked program" "$order" "$got"
assert_eq "relinked output" "steps 7: 273" "$(PERFINST_OUT=/dev/null ./steps.opt 7)"
