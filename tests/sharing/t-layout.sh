# An instrumented program lays its heap out as the plain build does: the
# runtime takes its own memory from its own mappings (runtime/rtalloc.c),
# never from the program's heap, so heap objects (allocated before threads
# start, and a worker's) have the same offsets in their pages in both
# builds, with the shared and the static runtime; the sharing verdicts
# judge that placement.  (Globals move with the link: the instrumented
# program imports more functions; `--plain PLAIN` gives pmopt their plain
# placement, t-verdict.sh.)
. "$PERFINST_TOP/tests/lib.sh"
[ -z "${PERFINST_SANITIZE:-}" ] || { echo "SKIP: under AddressSanitizer the runtime uses libc's allocator"; exit 77; }
gcc -O2 -pthread "$T/sharing/layout.c" -o plain
./plain | grep -v '^globals' > plain.out
pi_cc -O2 -g -fplugin-arg-perfinst-sharing=all -c "$T/sharing/layout.c" -o l.o
pi_ld -O2 -o inst l.o
PERFINST_OUT=inst.pit ./inst | grep -v '^globals' > inst.out
diff -u plain.out inst.out || fail "the instrumented program lays its heap out elsewhere"
ok "sharing=all, libperfinst.so: the plain build's heap layout ($(tr '\n' ' ' < inst.out))"
pi_ld -O2 --pi-static-runtime -o inst-static l.o
PERFINST_OUT=st.pit ./inst-static | grep -v '^globals' > st.out
diff -u plain.out st.out || fail "the instrumented program (static runtime) lays its heap out elsewhere"
ok "sharing=all, libperfinst.a: the plain build's heap layout"
