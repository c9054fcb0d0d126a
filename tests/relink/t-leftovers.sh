#!/bin/bash
# Leftovers of killed runs.  A perfinst-ld or pmopt relink killed with
# SIGKILL leaves its temporary directory (.perfinst-ld.PID.XXXXXX,
# .pmopt-relink.PID.XXXXXX) beside the output; the next run that writes
# there removes it — but only the ones whose process is gone: not one whose
# process is alive, not a symbolic link, not one without a pid in its name,
# not another user's.
. "$PERFINST_TOP/tests/lib.sh"
build_hot
PERFINST_OUT=a.pit ./hot 2000 > /dev/null
"$PMOPT" plan --order=c3 -o plan.fb hot a.pit > /dev/null

# a real kill: perfinst-ld killed while its link runs.  The link stage runs
# the first collect2 on gcc's program path (COMPILER_PATH); -B puts one that
# waits there when it links into the temporary directory.
mkdir slowbin
cat > slowbin/collect2 <<'S'
#!/bin/sh
case "$*" in
*/.perfinst-ld.*) echo $$ > "$PWD/linking.tmp"; mv "$PWD/linking.tmp" "$PWD/linking"; exec sleep 600 ;;
esac
exec "$(/usr/bin/gcc -print-prog-name=collect2)" "$@"
S
cat > slowbin/gcc <<S
#!/bin/sh
exec /usr/bin/gcc -B$PWD/slowbin/ "\$@"
S
chmod +x slowbin/collect2 slowbin/gcc
PATH=$PWD/slowbin:$PATH "$PILD" -O2 -o killed hot.o -lm &
ld_pid=$!
while [ ! -e linking ]; do
    kill -0 $ld_pid 2> /dev/null || fail "perfinst-ld finished without running the waiting collect2 (test broken?)"
    sleep 0.1
done
# the link stage is the waiting collect2's parent (gcc's driver runs it)
stage=$(ps -o ppid= -p "$(cat linking)" | tr -d ' ')
tr '\0' ' ' < /proc/$stage/cmdline | grep -q -- --pi-collect2 ||
    fail "the waiting collect2's parent is not the link stage (test broken?)"
kill -KILL $stage
kill "$(cat linking)" 2> /dev/null || true   # its collect2, orphaned
wait $ld_pid 2> /dev/null || true
left=$(ls -d .perfinst-ld.$stage.* 2> /dev/null) || fail "the killed perfinst-ld left no directory (test broken?)"
ok "a killed perfinst-ld left $left"

# and made by hand: a dead pid, a live one, none, a symbolic link
dead=$(sh -c 'echo $$')
mkdir -p ".pmopt-relink.$dead.aBcDeF/sub" ".perfinst-ld.$dead.zYxWvU"
echo x > ".pmopt-relink.$dead.aBcDeF/sub/obj.o"
echo x > ".perfinst-ld.$dead.zYxWvU/prog"
sleep 600 & live=$!
trap 'kill $live 2> /dev/null || true' EXIT
mkdir ".pmopt-relink.$live.qQqQqQ" ".perfinst-ld.$live.wWwWwW"
mkdir .pmopt-relink.OlDsTy                    # no pid: before this rule
mkdir elsewhere && ln -s elsewhere ".pmopt-relink.$dead.LiNkEd"
if [ "$(id -u)" = 0 ] && id nobody > /dev/null 2>&1; then
    mkdir ".perfinst-ld.$dead.oThErS"
    chown nobody ".perfinst-ld.$dead.oThErS"
    others=1
else
    others=0
    echo "SKIPPED another user's directory: needs root and the user nobody"
fi

pi_ld -O2 -o hot2 hot.o -lm
assert_eq "perfinst-ld removed its kind whose process is gone" "" \
    "$(ls -d .perfinst-ld.$stage.* .perfinst-ld.$dead.zYxWvU 2> /dev/null)"
[ -d ".pmopt-relink.$dead.aBcDeF" ] || fail "perfinst-ld removed a relink's directory"
ok "perfinst-ld left the relink's directories alone"
"$PMOPT" relink hot --feedback plan.fb -o hot.rel > /dev/null
assert_eq "relink removed its kind whose process is gone (with what it held)" "" \
    "$(ls -d .pmopt-relink.$dead.aBcDeF 2> /dev/null)"
for d in ".pmopt-relink.$live.qQqQqQ" ".perfinst-ld.$live.wWwWwW" .pmopt-relink.OlDsTy; do
    [ -d "$d" ] || fail "$d was removed"
done
ok "the live process's and the pid-less directories are kept"
[ -L ".pmopt-relink.$dead.LiNkEd" ] && [ -d elsewhere ] || fail "the symbolic link or its target was removed"
ok "a symbolic link is never followed or removed"
if [ $others = 1 ]; then
    [ -d ".perfinst-ld.$dead.oThErS" ] || fail "another user's directory was removed"
    ok "another user's directory is kept"
fi
assert_eq "the outputs were written" "yes yes" "$([ -x hot2 ] && echo yes) $([ -x hot.rel ] && echo yes)"
