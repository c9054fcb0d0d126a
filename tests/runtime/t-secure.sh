#!/bin/bash
# Secure execution (AT_SECURE).  A setuid-root copy of an instrumented
# program, run by an unprivileged user who chose its working directory,
# umask (0), argv[0] and PERFINST_* variables:
# 1. without a configuration: no trace anywhere, nothing said, the program
#    runs as it would (its perfinst_write_trace fails), PERFINST_* ignored;
# 2. with perfinst.conf (root's, not writable by others) naming a
#    directory of root's: the trace is there, named after the executable
#    (not argv[0]), owned by root, mode 0600 — never in the caller's
#    directory, never wider than 0600;
# 3. a configuration or a directory others could write: ignored, said once;
# 4. the control: the same binary without the setuid bit obeys PERFINST_*.
# The configuration is put in place inside a private mount namespace (an
# overlay on its directory), so the machine's own /etc is never touched.
# Needs root, setpriv, unshare, overlayfs and the user nobody: else SKIP.
. "$PERFINST_TOP/tests/lib.sh"
. "$T/runtime/fixture.sh"
user=nobody
[ "$(id -u)" = 0 ] || skip "secure execution: needs root to make a setuid copy and run it as $user"
command -v setpriv > /dev/null && command -v unshare > /dev/null ||
    skip "secure execution: needs setpriv and unshare (util-linux)"
id "$user" > /dev/null 2>&1 || skip "secure execution: no user $user"
gcc $CFIX -pthread -o secure "$R/secure.c" "$B/libperfinst.a"
# where this libperfinst reads its configuration (make SYSCONFDIR=...)
conf=$(strings "$B/libperfinst.a" | grep -m1 '^/.*/perfinst\.conf$') ||
    fail "no configuration path in libperfinst.a"
confdir=$(dirname "$conf")
[ -d "$confdir" ] || skip "secure execution: $confdir does not exist to lay an overlay on"
here=$PWD
d=$(mktemp -d /tmp/pi-secure.XXXXXX)
trap 'rm -rf "$d"' EXIT
chmod 755 "$d"
unshare -m --propagation private sh -c "mkdir $d/o $d/w && mount -t overlay overlay -o lowerdir=$confdir,upperdir=$d/o,workdir=$d/w $confdir" 2> /dev/null ||
    skip "secure execution: cannot mount an overlay in a private mount namespace"
rm -rf "$d/o" "$d/w"
cp secure "$d/suid"; chmod 4755 "$d/suid"
cp secure "$d/plain"; chmod 755 "$d/plain"
mkdir -m 1777 "$d/u"          # the user's working directory
mkdir -m 755 "$d/traces"      # root's, for the configuration to name
mkdir -m 1777 "$d/open"       # a directory anyone may write

# run CONF-TEXT CONF-MODE CONF-OWNER PROG ARGS...: PROG as $user from $d/u
# with umask 0, argv[0] "evil.pit" and every PERFINST_* set, CONF-TEXT in
# $conf for this run only ("" for no file); stdout, stderr into run.out,
# run.err.
run() {
    local text=$1 mode=$2 owner=$3
    shift 3
    rm -rf "$d/o" "$d/w"
    mkdir "$d/o" "$d/w"
    if [ -n "$text" ]; then
        printf '%s\n' "$text" > "$d/o/$(basename "$conf")"
        chmod "$mode" "$d/o/$(basename "$conf")"
        chown "$owner" "$d/o/$(basename "$conf")"
    fi
    unshare -m --propagation private sh -c '
        mount -t overlay overlay -o "lowerdir=$1,upperdir=$2/o,workdir=$2/w" "$1" || exit 99
        shift 2
        exec setpriv --reuid=nobody --regid=nogroup --clear-groups env \
            PERFINST_OUT="$PWD/u/out.%p.pit" PERFINST_MODE=off PERFINST_VERBOSE=1 \
            PERFINST_LINE_SIZE=bogus PERFINST_FLUSH=1 PERFINST_OVERLAY=/etc/shadow \
            bash -c "cd \"\$0\"/u && umask 0 && exec -a evil.pit \"\$@\"" "$PWD" "$@"' \
        sh "$confdir" "$d" "$@" > "$here/run.out" 2> "$here/run.err" || true
}

# ---- 1. no configuration: no trace
(cd "$d" && run "" 0 0 "$d/suid" 6 2 0)
assert_eq "no configuration: the program ran as usual" "secure=1 write failed write failed done" "$(echo $(cat run.out))"
assert_eq "no configuration: nothing said" "" "$(cat run.err)"
assert_eq "no configuration: no file anywhere" "" "$(ls -A "$d/u"; ls -A "$d/traces")"

# ---- 2. a configuration of root's: the trace in root's directory, 0600
(cd "$d" && run "# traces of setuid programs
trace-dir = $d/traces" 644 root "$d/suid" 6 1 0)
assert_eq "configured: the program ran as usual" "secure=1 done" "$(echo $(cat run.out))"
assert_eq "configured: nothing said" "" "$(cat run.err)"
assert_eq "configured: nothing in the caller's directory" "" "$(ls "$d/u")"
f=$(cd "$d/traces" && ls) || true
[[ "$f" =~ ^perfinst\.suid\.[0-9]+\.pit$ ]] || fail "configured: expected perfinst.suid.PID.pit (the executable's name, not argv[0]) in $d/traces, found '$f'"
ok "configured: $f, named after the executable"
assert_eq "configured: owned by root, mode 0600 (umask 0)" "600 root" "$(stat -c '%a %U' "$d/traces/$f")"
dump "$d/traces/$f"
assert_contains "configured: PERFINST_MODE=off ignored: counted" "$d/traces/$f.txt" "^counts unit=0x5ec0 module=0 ncounters=1 counts=6$"
assert_contains "configured: the final trace" "$d/traces/$f.txt" "^header version=1 flags=0x0 "
rm -f "$d/traces/"*

# ---- 3. what others could have written is ignored, and said
(cd "$d" && run "trace-dir = $d/traces" 644 "$user" "$d/suid" 6 0 0)
assert_eq "a configuration of $user's: said" \
    "perfinst: $conf: not owned by root, or writable by others; no trace (secure execution)" "$(cat run.err)"
(cd "$d" && run "trace-dir = $d/traces" 666 root "$d/suid" 6 0 0)
assert_eq "a configuration anyone may write: said" \
    "perfinst: $conf: not owned by root, or writable by others; no trace (secure execution)" "$(cat run.err)"
(cd "$d" && run "trace-dir = $d/open" 644 root "$d/suid" 6 0 0)
assert_eq "a directory anyone may write: said" \
    "perfinst: $conf: trace-dir is not owned by root, or writable by others; no trace (secure execution)" "$(cat run.err)"
(cd "$d" && run "trace-dir = traces" 644 root "$d/suid" 6 0 0)
assert_eq "a relative directory: said" \
    "perfinst: $conf: trace-dir is not an absolute name; no trace (secure execution)" "$(cat run.err)"
(cd "$d" && run "out = $d/traces" 644 root "$d/suid" 6 0 0)
assert_eq "another key: said" \
    "perfinst: $conf: a line is not 'trace-dir = /DIR'; no trace (secure execution)" "$(cat run.err)"
assert_eq "none of them wrote a trace" "" "$(ls -A "$d/u"; ls -A "$d/traces"; ls -A "$d/open")"

# ---- 4. the control: not setuid, the same user and environment
(cd "$d" && run "trace-dir = $d/traces" 644 root "$d/plain" 6 0 0)
assert_contains "the control is not secure" run.out "^secure=0$"
assert_contains "the control obeys PERFINST_VERBOSE" run.err "perfinst: trace written to $d/u/out\.[0-9]+\.pit"
assert_contains "the control reports the bad line size" run.err "PERFINST_LINE_SIZE"
f=$(ls "$d"/u/out.*.pit) || fail "the control did not obey PERFINST_OUT"
dump "$f"
assert_contains "the control obeys PERFINST_MODE=off" "$f.txt" "^header version=1 flags=0x2 mode_off=1 "
assert_eq "the control's trace: the caller's, its umask" "666 $user" "$(stat -c '%a %U' "$f")"
