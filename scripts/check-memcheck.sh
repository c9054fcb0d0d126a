#!/bin/bash
# make check-memcheck: the GCC plugin under valgrind's memcheck.  The plugin
# runs inside cc1 and lto1, which no sanitizer build covers
# (scripts/check-sanitize.sh copies it as it is): here a gcc shim first in
# PATH runs every compile that loads the plugin, and every link with
# -flto (lto1 loads it there), under memcheck, while the test scripts run
# as usual; then any error of the plugin's in the logs fails the run
# (scripts/memcheck-errors.awk: invalid reads, writes and frees anywhere,
# uninitialised values first used in the plugin).
#
#   scripts/check-memcheck.sh [PATTERN...]
#
# PATTERN selects the test scripts as tests/run.sh does (default: every
# script of count/, cxx/, layout/, plugin/ and relink/, about two hours on
# 2 CPUs: a compile under memcheck takes ten seconds or more).  Each
# script's time limit is scaled by 10.  make check runs
# tests/plugin/t-memcheck.sh, three compiles.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
command -v valgrind > /dev/null || { echo "check-memcheck: valgrind is missing (apt-get install valgrind)" >&2; exit 1; }
[ $# -gt 0 ] || set -- count/ cxx/ layout/ plugin/ relink/
make -j2 all > /dev/null || exit 1
dir=$top/build/memcheck
logs=$dir/logs
rm -rf "$dir"
mkdir -p "$dir/shim" "$logs"
for cc in gcc g++; do
    cat > "$dir/shim/$cc" <<SH
#!/bin/sh
# Added by scripts/check-memcheck.sh: a compile with the plugin, or a link
# with -flto, runs under memcheck; anything else as it is.
for a in "\$@"; do
    case "\$a" in
    -fplugin=*perfinst.so|-flto|-flto=*)
        exec "$top/scripts/memcheck-run.sh" "$logs/vg.%p" /usr/bin/$cc "\$@" ;;
    esac
done
exec /usr/bin/$cc "\$@"
SH
    chmod +x "$dir/shim/$cc"
done
ln -sf gcc "$dir/shim/cc"
ln -sf g++ "$dir/shim/c++"
status=0
# (PERFINST_MEMCHECK: t-memcheck.sh, valgrind's own, skips)
PATH="$dir/shim:$PATH" PERFINST_MEMCHECK=1 TEST_TIMEOUT_SCALE=10 tests/run.sh -j 2 "$@" || status=1
n=$(ls "$logs" | wc -l)
if ! awk -f scripts/memcheck-errors.awk /dev/null "$logs"/* > "$dir/errors"; then
    sed 's/^[^:]*: //' "$dir/errors" | sort | uniq -c | sort -rn | head -40
    echo "check-memcheck: errors of the plugin's in $(cut -d: -f1 "$dir/errors" | sort -u | wc -l) of $n processes' logs ($logs)"
    status=1
else
    echo "check-memcheck: no error of the plugin's in $n processes' logs"
fi
exit $status
