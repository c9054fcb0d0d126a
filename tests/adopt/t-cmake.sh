# timeout: 600
# A CMake project with a C and a C++ unit (tests/adopt/cmake), configured as
# a user would: perfinst's flags in CMAKE_C_FLAGS and CMAKE_CXX_FLAGS, the
# link flags in LDFLAGS.  CMake's compiler checks pass (they link through
# the link stage), CMake links the program with the C++ compiler, and the
# program counts exactly in both languages; pmopt relink works on it.
. "$PERFINST_TOP/tests/lib.sh"
. "$PERFINST_TOP/tests/adopt/lib-adopt.sh"
need cmake make g++
flags="-O2 $PI_CFLAGS -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections"
mkdir proj && cp "$A"/cmake/CMakeLists.txt "$A"/src/* proj/
LDFLAGS="$PI_LIBS" cmake -S proj -B build -DCMAKE_BUILD_TYPE= \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" > cmake.log 2>&1 ||
    { cat cmake.log; cat build/CMakeFiles/CMakeError.log 2>/dev/null | tail -40; fail "cmake"; }
assert_contains "C compiler check" cmake.log 'Check for working C compiler: .* - skipped|Detecting C compiler ABI info - done'
assert_contains "C++ compiler check" cmake.log 'Detecting CXX compiler ABI info - done'
make -C build VERBOSE=1 > make.log 2>&1 || { cat make.log; fail "make"; }
assert_contains "linked by the C++ compiler" make.log '(c\+\+|g\+\+) .*-specs=.* -o steps'
cd build
PERFINST_OUT=run.pit ./steps 6 > out
assert_eq "output" "steps 6: 207, sorted 10" "$(cat out)"
assert_eq "walk entered 6 times" 6 "$(function_entries steps run.pit walk)"
assert_eq "step entered 18 times" 18 "$(function_entries steps run.pit step)"
assert_eq "C++: sorted_sum entered once" 1 "$(function_entries steps run.pit sorted_sum)"
"$PMOPT" plan --order=exttsp -o steps.fb steps run.pit > plan.out
"$PMOPT" relink steps --feedback steps.fb -o steps.opt --smoke 6 > relink.out 2>&1 ||
    { cat relink.out; fail "pmopt relink"; }
assert_contains "relink followed the plan" relink.out 'functions in the planned order'
assert_eq "relinked output" "steps 6: 207, sorted 10" "$(PERFINST_OUT=/dev/null ./steps.opt 6)"
