#!/bin/bash
# The test runner (tests/run.sh) starts the scripts with python3 being the
# interpreter itself, not a shim in PATH that starts it (pyenv's shim took
# about half a second a start: docs/testing.md "Times and CI").  Here a
# shim of our own comes first in PATH; the runner, run on this script with
# RUNNER_PROBE set, must hand the probe a python3 that is the interpreter's
# own file, whose results are the same; a probe run counts, which shows
# the runner ran it.
. "$PERFINST_TOP/tests/lib.sh"
if [ -n "${RUNNER_PROBE:-}" ]; then
    # the probe: which python3 this script sees, as the shim is not
    echo "probe python3=$(readlink -f "$(command -v python3)")"
    echo "probe executable=$(readlink -f "$(python3 -c 'import sys; print(sys.executable)')")"
    python3 -c 'print("probe sum", sum(range(10)))'
    touch "$RUNNER_PROBE"
    exit 0
fi
real=$(readlink -f "$(python3 -c 'import sys; print(sys.executable)')")
[ -x "$real" ] || skip "python3 names no interpreter file ($real)"
mkdir shim
cat > shim/python3 <<EOF
#!/bin/sh
# a version manager's shim: counts its starts, then runs the interpreter
echo x >> "$PWD/shim.starts"
exec "$real" "\$@"
EOF
chmod +x shim/python3
st=0
PATH=$PWD/shim:$PATH RUNNER_PROBE=$PWD/probe.ran VERBOSE=1 \
    "$PERFINST_TOP/tests/run.sh" -j 1 'unit/t-runner\.sh$' > out 2>&1 || st=$?
cat out
assert_eq "the nested runner's status" 0 "$st"
[ -e probe.ran ] || fail "the probe did not run"
assert_contains "the probe passed" out "^PASS tests/unit/t-runner.sh"
assert_contains "the probe's python3 is the interpreter itself" out "probe python3=$real$"
assert_contains "the same interpreter as the shim's" out "probe executable=$real$"
assert_contains "and it runs" out "probe sum 45$"
# the runner asks the shim once for its interpreter; the probe's three
# starts of python3 go around it
assert_eq "starts through the shim" 1 "$(wc -l < shim.starts)"
ok "python3 under tests/run.sh is $real, not the shim first in PATH"
