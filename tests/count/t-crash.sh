# A program that dies of SIGSEGV still leaves a complete, readable trace
# with its counts and the signal; the exit status is the signal's.
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O1 -g -c "$T/count/crash.c" -o crash.o
pi_ld -o crash crash.o
set +e
PERFINST_OUT=crash.pit ./crash 2> /dev/null
status=$?
set -e
assert_eq "exit status of a SIGSEGV death" 139 "$status"
python3 "$T/count/check-counts.py" "$PMOPT" ./crash "$T/count/crash.c" crash.pit > c || { cat c; fail crash; }
ok "counts up to the crash: $(tail -1 c)"
"$PMOPT" report ./crash crash.pit > report.txt 2>&1
assert_contains "report names the signal" report.txt "signal 11|SIGSEGV"

# A build with only sharing=all (no unit counts) dies of SIGABRT: its trace
# is written all the same, with the sharing records and the signal.
pi_cc -O1 -g -fplugin-arg-perfinst-sharing=all -c "$T/count/abort.c" -o abort.o
pi_ld -o abort abort.o -pthread
set +e
PERFINST_OUT=abort.pit ./abort 2> /dev/null
status=$?
set -e
assert_eq "exit status of a SIGABRT death" 134 "$status"
"$PMOPT" dump abort.pit > abort.txt
assert_contains "sharing=all: the signal" abort.txt "SIGNAL signo 6 \(SIGABRT\)"
assert_contains "sharing=all: sharing records" abort.txt "SHARE_LINE"
assert_contains "sharing=all: complete" abort.txt " END "
