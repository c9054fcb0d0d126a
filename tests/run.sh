#!/bin/bash
# Run every test script (tests/*/t-*.sh), each in its own scratch directory,
# and finish with the two lines "N skipped" and "N passed, N failed" (the
# last line is the one CI reads).
#   tests/run.sh [-j N] [PATTERN...]     PATTERN filters script paths (grep -E)
# A script passes when it exits 0 and skips when it exits 77 (it cannot run
# here: it says why on a line "SKIP: reason", shown beside its name); a
# skip is never counted as a pass.  Any other status fails, and the
# script's output is shown (always with VERBOSE=1).  Each script gets
# $TEST_TIMEOUT seconds (300), or what a "# timeout: N" line near its top
# asks for, times $TEST_TIMEOUT_SCALE (1; scripts/check-memcheck.sh's
# compiles run under valgrind).  The exit status is 0 when nothing failed and something passed.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
jobs=2
while [ $# -gt 0 ]; do
    case "$1" in
    -j) jobs=$2; shift 2 ;;
    *) break ;;
    esac
done
pattern=$(IFS='|'; echo "${*:-.}")
scripts=$(cd "$top" && ls tests/*/t-*.sh 2>/dev/null | grep -E "$pattern")
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
export PERFINST_TOP="$top"
# python3 the interpreter itself, not a version manager's shim: pyenv's
# shim (a shell script running `pyenv exec`) takes about half a second to
# start Python, and the tests start it thousands of times (t-signal.sh:
# 129 s with the shim, 37 s without, on the development machine).  The same
# interpreter (its sys.executable), through a link first in PATH.
py=$(python3 -c 'import sys; print(sys.executable)' 2> /dev/null) || py=
if [ -n "$py" ] && [ -x "$py" ] && [ "$py" != "$(command -v python3)" ]; then
    mkdir -p "$results/bin" && ln -s "$py" "$results/bin/python3" && PATH=$results/bin:$PATH
fi

run_one() {
    t=$1
    name=$(echo "$t" | sed 's|^tests/||; s|\.sh$||; s|/|-|g')
    work="$results/$name.d"
    mkdir -p "$work"
    start=$(date +%s)
    limit=$(sed -n '1,5s/^# timeout: \([0-9][0-9]*\)$/\1/p' "$top/$t")
    rc=0
    (cd "$work" && timeout $((${limit:-${TEST_TIMEOUT:-300}} * ${TEST_TIMEOUT_SCALE:-1})) bash "$top/$t") > "$results/$name.log" 2>&1 || rc=$?
    case $rc in
    0) status=PASS ;;
    77) status=SKIP ;;
    *) status=FAIL ;;
    esac
    secs=$(( $(date +%s) - start ))
    if [ "$status" = SKIP ]; then
        why=$(grep -m1 '^SKIP: ' "$results/$name.log" | sed 's/^SKIP: //')
        echo "$status $t (${secs}s): ${why:-no reason given}"
    else
        echo "$status $t (${secs}s)"
    fi
    if [ "$status" = FAIL ] || [ "${VERBOSE:-0}" = 1 ]; then
        sed 's/^/    | /' "$results/$name.log" | tail -n 60
    fi
    echo "$status" > "$results/$name.status"
}
export -f run_one
export results top
echo "$scripts" | grep . | xargs -P "$jobs" -I{} bash -c 'run_one {}'
passed=$(cat "$results"/*.status 2>/dev/null | grep -c PASS)
failed=$(cat "$results"/*.status 2>/dev/null | grep -c FAIL)
skipped=$(cat "$results"/*.status 2>/dev/null | grep -c SKIP)
echo "$skipped skipped"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
