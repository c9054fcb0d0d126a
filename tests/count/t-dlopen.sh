# A shared library built with the plugin, dlopen'ed three times by an
# uninstrumented program: its counts survive dlclose and add up.
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -g -fPIC -c "$T/count/dl.c" -o dl.o
pi_ld -shared -o libdl.so dl.o
gcc -O2 "$T/count/dlmain.c" -o dlmain -ldl
PERFINST_OUT=dl.pit ./dlmain ./libdl.so
python3 "$T/count/check-counts.py" "$PMOPT" ./libdl.so "$T/count/dl.c" dl.pit > c || { cat c; fail dlopen; }
ok "dlopen: $(tail -1 c)"
