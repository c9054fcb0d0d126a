#!/bin/bash
# bench/debpkg.sh [--gcov] SRC[=VERSION] PROG [ARGS...] — a Debian source
# package built as its maintainer builds it, with perfinst's counting flags
# added, and analysed as it is packaged.
#
#   1. bench/fetch-debsrc.sh SRC; the tree copied to $CACHE/debpkg/SRC/;
#   2. dpkg-buildpackage -us -uc -B with DEB_CFLAGS_APPEND="$(pkg-config
#      --cflags perfinst) -fplugin-arg-perfinst-all=count" (and
#      DEB_CXXFLAGS_APPEND, the same: a C++ package's CXXFLAGS) and
#      DEB_LDFLAGS_APPEND="$(pkg-config --libs perfinst)" (build/'s
#      perfinst-uninstalled.pc): the package's own flags (hardening,
#      -ffile-prefix-map), its test suite (dh_auto_test, traces in pits/),
#      dh_dwz and dh_strip as they are; the test summaries printed
#      (automake's, CTest's, DejaGnu's); every trace read back (pmopt dump);
#   3. every .deb, the -dbgsym ones too, extracted into root/ (dpkg-deb -x);
#   4. PROG (a path in the package, usr/bin/xz) run from root/ with ARGS,
#      its libraries from root/ (LD_LIBRARY_PATH), writing run.pit (PROG
#      `-`: a library package with no program, only steps 1-3);
#   5. for each module of run.pit inside root/ (the program, its library):
#      pmopt --debug-file-directory=root/usr/lib/debug report of the
#      stripped file compared with pmopt report of the unstripped file of
#      the same build-id in the build tree (neither stripped nor compressed
#      by dwz): "same" when every line after the heading agrees;
#   6. with --gcov, the exact-count check on the package's own test suite:
#      perfinst's function counts over the traces of step 2 (every program
#      and library of the build tree they name: projects/pi-entries.py)
#      against gcov's of the package built again at the same path with
#      DEB_CFLAGS_APPEND=--coverage and its tests run again
#      (projects/gcov-entries.py; the counted tree set aside meanwhile,
#      the .debs of $WORK then the coverage build's); compared by
#      projects/entries-cmp.py, as bench/projects.sh does.  A test that
#      feeds the programs random or time-dependent data differs between
#      the two runs (gzip's: gcov's own counts differ from run to run).
#
#   CACHE   as bench/fetch-debsrc.sh (default /work/cache if it exists)
#   WORK    where the package is built (default $CACHE/debpkg/SRC; emptied)
#   PERFINST_BUILD  perfinst's build directory (default build/)
#
# bench/debpkg.sh xz-utils=5.4.1-1+deb12u2 usr/bin/xz -k -c -6 FILE
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
gcov=0
[ "${1:-}" != --gcov ] || { gcov=1; shift; }
[ $# -ge 2 ] || { sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
spec=$1 prog=$2
shift 2
B=${PERFINST_BUILD:-$top/build}
PMOPT=$B/pmopt
CACHE=${CACHE:-$([ -d /work/cache ] && echo /work/cache || echo "$here/.cache")}
for t in dpkg-buildpackage dh dwz pkg-config; do
    command -v $t > /dev/null || { echo "debpkg: $t is missing (apt-get install dpkg-dev debhelper dwz pkg-config)" >&2; exit 1; }
done
src=$(CACHE=$CACHE "$here/fetch-debsrc.sh" "$spec")
name=${spec%%=*}
work=${WORK:-$CACHE/debpkg/$name}
rm -rf "$work"
mkdir -p "$work/pits" "$work/root"
cp -a "$src" "$work/"
tree=$work/$(basename "$src")
export PKG_CONFIG_PATH=$B
DEB_CFLAGS_APPEND="$(pkg-config --cflags perfinst) -fplugin-arg-perfinst-all=count"
DEB_CXXFLAGS_APPEND=$DEB_CFLAGS_APPEND
DEB_LDFLAGS_APPEND="$(pkg-config --libs perfinst)"
export DEB_CFLAGS_APPEND DEB_CXXFLAGS_APPEND DEB_LDFLAGS_APPEND
echo "debpkg: building $(basename "$tree") in $work (log: $work/build.log)"
(cd "$tree" && PERFINST_OUT="$work/pits/%e.%p.pit" nice dpkg-buildpackage -us -uc -B) > "$work/build.log" 2>&1 ||
    { tail -20 "$work/build.log" >&2; echo "debpkg: dpkg-buildpackage failed" >&2; exit 1; }
{ grep -E '^# (TOTAL|PASS|SKIP|XFAIL|FAIL|XPASS|ERROR):' "$work/build.log" || true; } | tr -s ' ' | paste -sd' ' |
    sed 's/ # TOTAL/\n# TOTAL/g' | sed 's/^# /debpkg: test suite: /'
# other harnesses' summaries: old automake's, CTest's, DejaGnu's
grep -E '^(All [0-9]+ tests passed|[0-9]+ of [0-9]+ tests failed|[0-9]+% tests passed, [0-9]+ tests failed out of [0-9]+|# of (expected|unexpected) (passes|failures))' \
    "$work/build.log" | sed 's/^/debpkg: test suite: /' || true
# every trace the build and its tests left must read (a test killed by its
# harness, a crash, a fork's child: each leaves a whole trace)
bad=0
for f in "$work"/pits/*.pit; do
    [ -e "$f" ] || continue
    "$PMOPT" dump "$f" > /dev/null 2> "$work/dump.err" ||
        { bad=$((bad + 1)); echo "debpkg: unreadable trace $f: $(head -1 "$work/dump.err")"; }
done
echo "debpkg: $(ls "$work/pits" | wc -l) traces of the build and its tests in $work/pits, $bad unreadable"
status=0
[ $bad -eq 0 ] || status=1
for deb in "$work"/*.deb; do dpkg-deb -x "$deb" "$work/root"; done
if [ "$prog" != - ]; then
    libs=$(find "$work/root" -path "$work/root/usr/lib/debug" -prune -o -name '*.so*' -type f -printf '%h\n' | sort -u | paste -sd:)
    LD_LIBRARY_PATH=$libs PERFINST_OUT="$work/run.pit" "$work/root/$prog" "$@" > "$work/run.out"
    for mod in $("$PMOPT" dump "$work/run.pit" | sed -n 's/.* MODULE .*path "\(.*\)"$/\1/p' | grep "^$work/root/" | sort -u); do
        id=$(readelf -n "$mod" | awk '/Build ID:/ { print $3 }')
        built=
        while IFS= read -r f; do
            if [ "$(readelf -n "$f" 2> /dev/null | awk '/Build ID:/ { print $3 }')" = "$id" ] && readelf -S "$f" | grep -q '\.debug_info'; then
                built=$f
                break
            fi
        done < <(find "$tree" -path "$tree/debian/*/usr" -prune -o -type f -perm -u+x -print -o -type f -name '*.so.*' -print)
        [ -n "$built" ] || { echo "debpkg: ${mod#"$work"/}: no unstripped file of build-id $id in the build tree"; continue; }
        "$PMOPT" --debug-file-directory="$work/root/usr/lib/debug" report "$mod" "$work/run.pit" 2> /dev/null | sed 1,2d > "$work/pkg.report"
        "$PMOPT" report "$built" "$work/run.pit" 2> /dev/null | sed 1,2d > "$work/built.report"
        if cmp -s "$work/pkg.report" "$work/built.report"; then
            echo "debpkg: ${mod#"$work"/}: report through its -dbgsym the same as ${built#"$work"/}'s ($(wc -l < "$work/pkg.report") lines)"
        else
            echo "debpkg: ${mod#"$work"/}: report DIFFERS from ${built#"$work"/}'s (diff $work/pkg.report $work/built.report)"
            status=1
        fi
    done
fi
[ $gcov -eq 1 ] || exit $status
python3 "$here/projects/pi-entries.py" "$PMOPT" "$tree" "$work"/pits/*.pit > "$work/pi.entries"
mv "$tree" "$tree.count"
cp -a "$src" "$work/"
echo "debpkg: building $(basename "$tree") again with --coverage (log: $work/build-cov.log)"
(cd "$tree" && DEB_CFLAGS_APPEND=--coverage DEB_CXXFLAGS_APPEND=--coverage DEB_LDFLAGS_APPEND=--coverage \
    nice dpkg-buildpackage -us -uc -B) \
    > "$work/build-cov.log" 2>&1 || { echo "debpkg: the --coverage build failed" >&2; status=1; }
python3 "$here/projects/gcov-entries.py" "$tree" > "$work/gcov.entries"
mv "$tree" "$tree.cov"
mv "$tree.count" "$tree"
read -r same both own _ < <(python3 "$here/projects/entries-cmp.py" "$work/gcov.entries" "$work/pi.entries" 2> "$work/entries.diff")
echo "debpkg: function counts of the test suite = gcov's: $same of $both ($own less their inlined bodies)"
sed 's/^/debpkg:   /' "$work/entries.diff"
exit $status
