# bench/lib.sh's apt_install and project_source, by which the benchmarks of
# real projects (bench/projects.sh, warnings.sh, sharing.sh) install the
# Debian packages a project's build needs (P_DEBDEPS of
# bench/projects/NAME.sh) before fetching its source.  dpkg-query, apt-get
# and sudo are stubs on PATH (no package is installed): nothing runs when
# every package is there; only the missing ones are installed; apt-get
# update and a second try when apt does not know one; a package that cannot
# be had is an error naming it, and the source is not fetched then.
. "$PERFINST_TOP/tests/lib.sh"
export STUB=$PWD/stub
mkdir -p stub fake
# installed: the lines of $STUB/installed; apt-get install succeeds when
# every package named is in $STUB/known (after an update: known-after too)
cat > stub/dpkg-query <<'S'
#!/bin/sh
for a; do p=$a; done
grep -qx "$p" "$STUB/installed" 2> /dev/null || exit 1
printf 'install ok installed'
S
cat > stub/apt-get <<'S'
#!/bin/sh
echo "apt-get $*" >> "$STUB/calls"
[ "$1" = update ] && { touch "$STUB/updated"; exit 0; }
for a; do
    case $a in -*|install) continue ;; esac
    grep -qx "$a" "$STUB/known" 2> /dev/null ||
        { [ -f "$STUB/updated" ] && grep -qx "$a" "$STUB/known-after" 2> /dev/null; } ||
        { echo "E: Unable to locate package $a"; exit 100; }
done
for a; do case $a in -*|install) ;; *) echo "$a" >> "$STUB/installed" ;; esac; done
S
cat > stub/sudo <<'S'
#!/bin/sh
exec "$@"
S
cat > fake/fetch-debsrc.sh <<'S'
#!/bin/sh
echo "fetched $*" >> "$STUB/calls"
echo "unpacking"
echo "/src/$1"
S
chmod +x stub/* fake/fetch-debsrc.sh
PATH=$STUB:$PATH
# shellcheck source=/dev/null
. "$PERFINST_TOP/bench/lib.sh"

printf 'libtool\nbison\n' > stub/installed
: > stub/calls
apt_install apt.log libtool bison 2> err || fail "apt_install of installed packages failed: $(cat err)"
[ -s stub/calls ] && fail "apt-get ran for installed packages: $(cat stub/calls)"
ok "every package installed: apt-get not run"

echo flex > stub/known
apt_install apt.log libtool flex 2> err || fail "apt_install flex failed: $(cat err)"
assert_eq "only the missing package installed" "apt-get install -y -q flex" "$(cat stub/calls)"
assert_contains "the script says what it installs" err "installing flex$"

: > stub/calls
echo libonig-dev > stub/known-after
apt_install apt.log libonig-dev 2> err || fail "apt_install after an update failed: $(cat err)"
assert_eq "apt does not know it: update, then install again" \
    "apt-get install -y -q libonig-dev|apt-get update -q|apt-get install -y -q libonig-dev" "$(paste -sd'|' stub/calls)"
grep -qx libonig-dev stub/installed || fail "libonig-dev not installed after the update"
ok "installed after apt-get update"

# project_source: P_DEBDEPS installed, then the source fetched; a package
# that cannot be had stops it before the fetch, naming the package
here=$PWD/fake
: > stub/calls
P_PKG=jq=1.6-2.1 P_DEBDEPS="libtool flex"
src=$(project_source apt.log 2> err) || fail "project_source failed: $(cat err)"
assert_eq "project_source prints the unpacked tree" "/src/jq=1.6-2.1" "$src"
assert_eq "nothing to install: only the fetch" "fetched jq=1.6-2.1" "$(cat stub/calls)"
: > stub/calls
P_DEBDEPS="libtool no-such-package"
if src=$(project_source apt.log 2> err); then
    fail "project_source went on without no-such-package: $src"
fi
assert_contains "the missing package is named" err "cannot install no-such-package \(apt's messages in apt.log\)"
assert_contains "the project is named" err "jq cannot be built without libtool no-such-package"
assert_contains "apt's own message kept" apt.log "Unable to locate package no-such-package"
grep -q '^fetched' stub/calls && fail "the source was fetched although its build cannot run"
ok "no fetch when a package cannot be had"
