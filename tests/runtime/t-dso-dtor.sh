# A shared library's static objects destroyed at exit (dsodtor.cc): glibc
# runs their destructors from the library's .fini_array (crtbeginS's
# entry, __cxa_finalize), and the unit's own destructor, which hands its
# counts to the runtime, must run after them: it has a priority
# (gcc-plugin/unit.cc), so it comes before every unprioritised entry in
# the array, which runs last to first.  Before, ~S ran in a unit already
# gone and its calls were lost: ~S 0 where gcov counts 1, touched 1 of 2.
. "$PERFINST_TOP/tests/lib.sh"
. "$T/adopt/lib-adopt.sh"
command -v g++ > /dev/null || skip "g++ is not installed"
g++ -O2 -fPIC -fplugin="$PLUGIN" -fplugin-arg-perfinst-all=count -c "$T/runtime/dsodtor.cc" -o lib.o
pi_ld -shared -o libdsodtor.so lib.o
readelf -SW lib.o > secs
assert_contains "the unit's destructor is prioritised" secs " \.fini_array\.00102 "
echo 'int use(void); int main(void) { return use() - 1; }' > main.c
gcc -O2 -c main.c -o main.o
gcc -o m main.o -L. -ldsodtor -Wl,-rpath,"$PWD"
PERFINST_OUT=t.pit ./m || fail "the program"
assert_eq "S::~S, run from the library's __cxa_finalize" 1 "$(function_entries libdsodtor.so t.pit 'S::~S()')"
assert_eq "touched: from use() and from ~S" 2 "$(function_entries libdsodtor.so t.pit touched)"
ok "a shared library's static destructors counted"
