# A stripped program whose debug information is in a file of its own
# (objcopy --only-keep-debug, then --add-gnu-debuglink, as Debian's
# dh_strip and -dbgsym packages do) is named through that file: beside
# the program or in .debug/ beside it, found by its .gnu_debuglink and
# taken only when its CRC matches (a changed file is not used); and a
# shared library's under /usr/lib/debug/.build-id by its build-id (glibc's
# with libc6-dbg installed, where this machine has it).
. "$PERFINST_TOP/tests/lib.sh"
command -v objcopy > /dev/null || skip "objcopy not installed"
gcc -O2 -g -fno-builtin -c "$T/sampling/plt.c" -o plt.o
pi_ld --pi-runtime -O2 -o prog plt.o
PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=s.pit ./prog 30000000 > /dev/null
"$PMOPT" report --tree prog s.pit > full.tree
chain() { grep -oE '(main|work)  \(plt\.c:[0-9]+\)$' "$1" | sort -u; }
[ "$(chain full.tree | wc -l)" = 2 ] || { cat full.tree; fail "the unstripped program: main and work not named"; }
objcopy --only-keep-debug prog prog.debug
objcopy --strip-debug --strip-unneeded prog
objcopy --add-gnu-debuglink=prog.debug prog
! readelf -S prog | grep -q '\.debug_info' || fail "prog still has .debug_info"
! nm prog 2> /dev/null | grep -q ' work$' || fail "prog still has the symbol work"
"$PMOPT" report --tree prog s.pit > link.tree
assert_eq "beside the program: main and work named as unstripped" "$(chain full.tree)" "$(chain link.tree)"
mkdir .debug && mv prog.debug .debug/
"$PMOPT" report --tree prog s.pit > dotdebug.tree
assert_eq "in .debug/: the same names" "$(chain full.tree)" "$(chain dotdebug.tree)"
printf x >> .debug/prog.debug
"$PMOPT" report --tree prog s.pit > stale.tree
assert_eq "a debug file whose CRC differs is not used" "" "$(chain stale.tree)"
assert_contains "its frames by address" stale.tree '\[prog\+0x[0-9a-f]+\]$'
ok "the debug file beside, in .debug/, refused when changed"
libc=$(ldd ./prog | awk '/libc\.so\.6/ { print $3 }')
id=$(readelf -n "$libc" 2> /dev/null | awk '/Build ID:/ { print $3 }')
if [ -n "$id" ] && [ -f "/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug" ]; then
    assert_contains "libc by its build-id: __libc_start_call_main named, with its file" full.tree \
        '^ +[0-9.]+% +[0-9.]+% +[0-9]+ +[0-9]+ +__libc_start_call_main  \(libc_start_call_main\.h:[0-9]+\)$'
    ok "libc's frames named from /usr/lib/debug/.build-id"
else
    echo "libc has no debug file under /usr/lib/debug/.build-id (libc6-dbg): that part not checked"
fi
