#!/bin/bash
# A fully static program (libc.a) with libperfinst.a: threads, exec and
# signals work when the link pulls in libc.a's own pthread_create,
# pthread_join and execvpe (-Wl,-u,...), since there is no RTLD_NEXT to find them.
. "$PERFINST_TOP/tests/lib.sh"
. "$T/runtime/fixture.sh"

[ -z "${PERFINST_SANITIZE:-}" ] || skip "no fully static sanitizer runtime"
[ -e "$(gcc -print-file-name=libc.a)" ] || skip "no libc.a"
gcc $CFIX -static -pthread -o full "$R/prog.c" "$B/libperfinst.a" \
    -Wl,-u,__pthread_create -Wl,-u,__pthread_join -Wl,-u,__execvpe 2> link.err || { cat link.err >&2; fail "static link"; }
readelf -lW full | grep -q INTERP && fail "not fully static"

./full threads 8 100000
f=$(only_trace "perfinst.full.*")
dump "$f"
assert_contains "threads" "$f.txt" "^counts unit=0xa11ce module=0 ncounters=3 counts=800000,0,0$"
assert_contains "no load bias" "$f.txt" "^module index=0 build_id=[0-9a-f]+ bias=0x0 path=$PWD/full$"
rm -f perfinst.*

./full exec 5 /bin/echo hello > out
assert_contains "exec ran" out "^hello$"
dump "$(only_trace "perfinst.full.*")"
assert_contains "trace before exec" perfinst.full.*.txt "counts=5,0,0$"
rm -f perfinst.*

./full execfail 5 6
dump "$(only_trace "perfinst.full.*")"
assert_contains "execvp failed, counting went on" perfinst.full.*.txt "counts=11,0,0$"
rm -f perfinst.*

st=0
./full segv 3 2> /dev/null || st=$?
assert_eq "died of SIGSEGV" 139 "$st"
dump "$(only_trace "perfinst.full.*")"
assert_contains "signal record" perfinst.full.*.txt "^signal signo=11 code=1 addr=0x10$"
rm -f perfinst.*

# Without the -u options threads cannot start, and the runtime says why.
gcc $CFIX -static -pthread -o bare "$R/prog.c" "$B/libperfinst.a" 2> /dev/null
st=0
./bare threads 1 1 2> err || st=$?
assert_eq "pthread_create failed" 10 "$st"
assert_contains "message" err "^perfinst: pthread_create: libc's is not linked in"

# Through the link stage (perfinst-ld -static), nothing to add: it pulls
# libc.a's functions in itself, and threads start.
rm -f perfinst.*
pi_ld $CFIX -static -pthread -o staged "$R/prog.c" 2> staged.err || { cat staged.err >&2; fail "static link through perfinst-ld"; }
readelf -lW staged | grep -q INTERP && fail "staged: not fully static"
./staged threads 8 100000 2> staged.run || { cat staged.run >&2; fail "staged: threads"; }
assert_eq "staged: the runtime says nothing" "" "$(cat staged.run)"
f=$(only_trace "perfinst.staged.*")
dump "$f"
assert_contains "staged: threads counted" "$f.txt" "^counts unit=0xa11ce module=0 ncounters=3 counts=800000,0,0$"
