# A shared library built with the plugin, dlopen'ed three times by an
# uninstrumented program: its counts survive dlclose and add up.
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -g -fPIC -c "$T/count/dl.c" -o dl.o
pi_ld -shared -o libdl.so dl.o
gcc -O2 "$T/count/dlmain.c" -o dlmain -ldl
PERFINST_OUT=dl.pit ./dlmain ./libdl.so
python3 "$T/count/check-counts.py" "$PMOPT" ./libdl.so "$T/count/dl.c" dl.pit > c || { cat c; fail dlopen; }
ok "dlopen: $(tail -1 c)"
# pmopt given the program that ran (uncounted, as python3 running an
# extension module): refused, with the module the trace counted in named
expect_fail "pmopt report of the uncounted program" "$PMOPT" report dlmain dl.pit
assert_contains "says dlmain has no metadata" err '^pmopt: dlmain: no perfinst metadata'
assert_contains "names the module to give" err "^pmopt: note: dl\.pit counted in $(pwd)/libdl\.so: give that as PROG$"
