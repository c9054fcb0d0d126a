# Compiled and linked in one command (linker/keep.c): gcc deletes the
# temporary objects it compiled (TMPDIR/ccXXXXXX.o) once the link is done;
# the link stage keeps each as DIR/.perfinst-objs/BASE.N.o and records the
# copy.  A library and a program built so: the plan's function order
# reads their objects (before: "no function of the objects ... executed a
# counted block"), the relink links them again (before: "input
# /tmp/ccXXXXXX.o is gone since the link"), with the output unchanged; a
# later link of the same output with fewer sources leaves no stale copy.
. "$PERFINST_TOP/tests/lib.sh"
mkdir -p tmp
export TMPDIR=$PWD/tmp
cp "$T/relink/pair-lib.c" lib.c
cp "$T/relink/pair-main.c" main.c
cat > extra.c << 'C'
int unused_extra(int x) { return x + 1; }
C
F="-O2 -fplugin=$PLUGIN -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections"
pi_ld $F -shared -fPIC lib.c -o liblib.so
pi_ld $F main.c extra.c -L. -llib -Wl,-rpath,"$PWD" -o prog
ls -A .perfinst-objs | sort | paste -sd' ' > kept
assert_eq "the temporaries kept beside the outputs" "liblib.so.0.o prog.0.o prog.1.o" "$(cat kept)"
[ -z "$(ls -A tmp)" ] || fail "gcc's temporaries were not deleted: $(ls -A tmp)"
"$PMOPT" dump-meta prog > meta
assert_contains "the recipe records the copy" meta "input [0-9]*: $PWD/\.perfinst-objs/prog\.0\.o "
PERFINST_OUT=t.pit ./prog > out
"$PMOPT" plan --order=exttsp --rebuild -o lib.fb liblib.so t.pit > plan.out 2> plan.err || { cat plan.err; fail "plan of the library"; }
assert_contains "the library's order" lib.fb "order-functions alg=exttsp functions=work,other$"
"$PMOPT" plan --order=exttsp --rebuild -o prog.fb prog t.pit > plan2.out 2> plan2.err || { cat plan2.err; fail "plan of the program"; }
"$PMOPT" relink liblib.so --feedback lib.fb -o liblib.relinked.so > rel.out 2> rel.err || { cat rel.err; fail "relink of the library"; }
assert_contains "the relink placed the order" rel.out "2 functions in the planned order"
"$PMOPT" relink prog --feedback prog.fb -o prog.relinked > rel2.out 2> rel2.err || { cat rel2.err; fail "relink of the program"; }
assert_eq "the relinked program's output" "$(cat out)" "$(./prog.relinked)"
cp liblib.relinked.so liblib.so
assert_eq "the relinked library's output" "$(cat out)" "$(./prog)"
ok "plan and relink of programs compiled and linked in one command"
pi_ld $F main.c -L. -llib -Wl,-rpath,"$PWD" -o prog
assert_eq "linked again from one source: the second copy gone" "liblib.so.0.o prog.0.o" "$(ls -A .perfinst-objs | sort | paste -sd' ')"
# a kept copy deleted: the plan's order names what is gone
PERFINST_OUT=t2.pit ./prog > /dev/null
rm .perfinst-objs/prog.0.o
expect_fail "plan with its object gone" "$PMOPT" plan --order=exttsp --rebuild -o gone.fb prog t2.pit
assert_contains "the error names the object" err "1 of the objects prog was linked from is gone \(.*\.perfinst-objs/prog\.0\.o\)"
# compiled and linked into a device or a FIFO (BusyBox's Makefile.flags
# tries `$(CC) $(CFLAGS) -lcrypt -o /dev/null bb_libtest.c`): no copies,
# and no .perfinst-objs beside the output (it was /dev/.perfinst-objs)
mkdir -p dev
through_fifo dev/out.fifo from-fifo pi_ld $F main.c -L. -llib -Wl,-rpath,"$PWD" -o dev/out.fifo
assert_eq "-o FIFO: exit status" 0 "$fifo_rc"
if null_device dev/nul; then
    pi_ld $F main.c -L. -llib -Wl,-rpath,"$PWD" -o dev/nul
    assert_null_device "-o to a character device" dev/nul
fi
assert_eq "no objects kept beside a device or a FIFO" "" "$(ls -A dev | grep -v -x -e out.fifo -e nul || true)"
