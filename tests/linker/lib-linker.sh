# tests/linker/lib-linker.sh — helpers for the perfinst-ld tests, sourced
# after tests/lib.sh.  The tests link against a stub libperfinst built here
# (PERFINST_LIB_DIR=$PWD/rt), so that they test the link driver alone,
# whatever state the real runtime is in.
L=$T/linker
[ -x "$PILD" ] || fail "no $PILD: run make build/perfinst-ld"

# stub_runtime: rt/libperfinst.so and rt/libperfinst.a, each defining
# perfinst_stub_marker_so / perfinst_stub_marker_a so a test can see which
# one was linked.
stub_runtime() {
    mkdir -p rt
    echo 'int perfinst_stub_marker_so(void) { return 1; }' > rt/so.c
    echo 'int perfinst_stub_marker_a(void) { return 2; }' > rt/a.c
    gcc -fPIC -c rt/so.c -o rt/so.o && gcc -shared -Wl,-soname,libperfinst.so -o rt/libperfinst.so rt/so.o
    gcc -fPIC -c rt/a.c -o rt/a.o && ar rcs rt/libperfinst.a rt/a.o
    export PERFINST_LIB_DIR=$PWD/rt
}

# fixture NAME 'JSON': NAME.s, NAME.o (assembled) and NAME.expect.json.
fixture() {
    echo "$2" > "$1.json"
    python3 "$L/gen-fixture.py" "$1.json" "$1.s" "$1.expect.json"
    gcc -c "$1.s" -o "$1.o"
}

# main_calling F...: main.o, whose main() calls each F.
main_calling() {
    { for f in "$@"; do echo "void $f(void);"; done
      echo 'int main(void) {'
      for f in "$@"; do echo "    $f();"; done
      echo '    return 0; }'; } > main.c
    gcc ${MAIN_CFLAGS:-} -c main.c -o main.o
}

check_xlat() { python3 "$L/check.py" xlat "$@"; }
check_link() { python3 "$L/check.py" link "$@"; }
perfinst_sections() { python3 "$L/check.py" sections "$@"; }
