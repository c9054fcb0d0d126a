#!/bin/bash
# A hostile environment (secure execution: t-secure.sh).
# 1. A full file system (a 16 KiB tmpfs filled up): every write fails, the
#    failure is reported once, the program's own output and exit status are
#    what they would have been.  Needs root (mount); else skipped.
# 2. A directory the process may not write (read-only mount; and mode 555
#    for an unprivileged user): reported once, the program runs on.
# 3. A file-size limit (ulimit -f 0): the writes fail with EFBIG instead of
#    SIGXFSZ killing the program; reported once, the program runs on; a
#    write cut short midway leaves no torn file under the trace's name.
. "$PERFINST_TOP/tests/lib.sh"
. "$T/runtime/fixture.sh"
gcc $CFIX -pthread -o secure "$R/secure.c" "$B/libperfinst.a"
user=nobody
root=0; [ "$(id -u)" = 0 ] && root=1
as_user() { setpriv --reuid="$user" --regid=nogroup --clear-groups "$@"; }
# one_line FILE REGEX: FILE has exactly one line, and it matches
one_line() {
    assert_eq "$1: one line" 1 "$(wc -l < "$1")"
    assert_contains "$1: the message" "$1" "$2"
}

can_drop=0
if [ $root = 1 ] && command -v setpriv > /dev/null && id "$user" > /dev/null 2>&1; then
    can_drop=1
    # the scratch directory is root's 0700 one: the user gets its own
    d=$(mktemp -d /tmp/pi-hostile.XXXXXX)
    trap 'umount "$PWD/full" "$PWD/ro" 2>/dev/null; rm -rf "$d"' EXIT
    chmod 1777 "$d"
fi

# ---- 1. a full file system, 2. an unwritable directory ----------------------
if [ $root = 1 ] && mkdir full ro && mount -t tmpfs -o size=16k tmpfs full 2> /dev/null; then
    trap 'umount "$PWD/full" "$PWD/ro" 2>/dev/null; rm -rf "${d:-/nonexistent}"' EXIT
    dd if=/dev/zero of=full/filler bs=4k 2> /dev/null || true   # until ENOSPC
    PERFINST_OUT="$PWD/full/t.pit" ./secure 5 3 7 > out 2> err && st=0 || st=$?
    assert_eq "full: the program's exit status" 7 "$st"
    assert_eq "full: the program's output" "secure=0 write failed write failed write failed done" "$(echo $(cat out))"
    one_line err "^perfinst: cannot write the trace $PWD/full/t\.pit: No space left on device$"
    ls full | grep -q '\.tmp' && fail "a temporary file was left: $(ls full)"
    ok "full: no temporary file left"
    rm full/filler
    PERFINST_OUT="$PWD/full/t2.pit" ./secure 5 0 > out 2> err
    assert_eq "space again: nothing said" "" "$(cat err)"
    dump full/t2.pit
    assert_contains "space again: the trace" full/t2.pit.txt "counts=5$"

    mount -t tmpfs -o ro,size=4k tmpfs ro
    PERFINST_OUT="$PWD/ro/t.pit" ./secure 5 2 3 > out 2> err && st=0 || st=$?
    assert_eq "read-only: the program's exit status" 3 "$st"
    assert_eq "read-only: the program's output" "secure=0 write failed write failed done" "$(echo $(cat out))"
    one_line err "^perfinst: cannot write the trace $PWD/ro/t\.pit: Read-only file system$"
else
    ok "SKIPPED full and read-only file systems: needs root to mount a small tmpfs"
fi

# mode 555: unwritable for anyone but root (who is then dropped to $user)
if [ $can_drop = 1 ]; then
    mkdir "$d/locked"; chmod 555 "$d/locked"
    cp secure "$d/plain2"; chmod 755 "$d/plain2"
    where=$d/locked
    as_user env PERFINST_OUT="$where/t.pit" "$d/plain2" 4 2 0 > out 2> err
elif [ $root = 0 ]; then
    mkdir locked; chmod 555 locked
    where=$PWD/locked
    PERFINST_OUT="$where/t.pit" ./secure 4 2 0 > out 2> err
else
    where=
    ok "SKIPPED unwritable directory: root without setpriv or user $user"
fi
if [ -n "$where" ]; then
    assert_eq "locked: the program's output" "secure=0 write failed write failed done" "$(echo $(cat out))"
    one_line err "^perfinst: cannot write the trace $where/t\.pit: Permission denied$"
fi

# ---- 3. a file-size limit ----------------------------------------------------
# The program's output goes through a pipe (a pipe has no size limit); its
# stderr is a file under the limit too, so the message cannot be written
# either — and must not kill the program.
{ st=0; (ulimit -f 0; PERFINST_OUT="$PWD/lim.pit" exec ./secure 5 3 7) 2> lim.err || st=$?; echo "status=$st"; } | cat > lim.out
assert_eq "size limit: the program's output and exit status (not killed by SIGXFSZ)" \
    "secure=0 write failed write failed write failed done status=7" "$(echo $(cat lim.out))"
assert_eq "size limit: no temporary file left" "" "$(ls lim*.tmp 2>/dev/null)"
# again with stderr through a pipe: the failure is said once
{ (ulimit -f 0; PERFINST_OUT="$PWD/lim.pit" exec ./secure 5 3 7 2>&1 >/dev/null) || true; } | cat > lim.err
one_line lim.err "^perfinst: cannot write the trace $PWD/lim(\.[0-9]+)?\.pit: File too large$"
# a write cut short midway (a 1 KiB limit; a long argument makes the
# trace's PROCESS record longer than that): a trace is whole or absent, so
# nothing is left under the name, and no temporary file
long=$(printf 'x%.0s' $(seq 3000))
PERFINST_OUT="$PWD/whole.pit" ./secure 5 1 7 "$long" > /dev/null 2>&1 || true
size=$(stat -c %s whole.pit)
[ "$size" -gt 2048 ] || fail "the control trace is only $size bytes: the limit would not cut it"
{ (ulimit -f 1; PERFINST_OUT="$PWD/cut.pit" exec ./secure 5 1 7 "$long") 2> cut.err || true; } | cat > cut.out
assert_eq "cut short: the program ran on" "secure=0 write failed done" "$(echo $(cat cut.out))"
assert_eq "cut short: no torn trace, no temporary file" "" "$(ls cut* 2>/dev/null | grep -v '^cut\.\(err\|out\)$')"
