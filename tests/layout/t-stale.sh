# A stale profile: trained on branch.c, then work() is edited (a new
# branch: its CFG checksum changes) and the program rebuilt with the old
# plan.  main's profile still applies, work's is skipped; the plugin and
# `pmopt plan --check` both say how much matched (main: 2005 of 5005 block
# executions, 40.1%).
. "$PERFINST_TOP/tests/lib.sh"
. "$T/layout/layout-lib.sh"
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg -c "$T/layout/branch.c" -o train.o
pi_ld -O2 -o train train.o
PERFINST_OUT=train.pit ./train > /dev/null
"$PMOPT" plan -o plan.fb ./train train.pit > /dev/null

sed 's/acc\[3\] -= i;/acc[3] -= i;\n        if (i > 500)\n            acc[3] += 2;/' "$T/layout/branch.c" > branch.c
grep -q 'i > 500' branch.c || fail "the edit did not apply"
# (same source path as the plan's src=: compile the edited copy under the old name)
mkdir -p edited
cp branch.c edited/
pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -c "$T/layout/branch.c" -o same.o 2> same.err
assert_not_contains "unchanged source: no note" same.err "stale"
# (the key of a source compiled as $PWD/edited/branch.c in $PWD: edited/branch.c)
sed "s|src=[^ ]*|src=edited/branch.c|" plan.fb | grep -v '^end' > moved.body
# re-seal the moved plan (its CRC covers the lines)
reseal moved.body moved.fb
pi_cc -O2 -fplugin-arg-perfinst-feedback=moved.fb -c "$PWD/edited/branch.c" -o stale.o 2> stale.err
assert_contains "the plugin, unasked: less than half matched is a warning" stale.err "warning: perfinst: moved.fb: 1 function profiles matched, 1 stale, 0 malformed in edited/branch.c \(40\.1% of the profile.s block executions matched\): the rebuild applies less than half of the profile"
. "$PERFINST_TOP/bench/lib.sh"
plan_missed stale.err > /dev/null || fail "bench/lib.sh plan_missed: less than half matched not found"
ok "bench/suite.sh stops on it (plan_missed)"
# a project's own -Werror (appended after the user's flags, as configure
# does): the warning is -Wmissing-profile's, so -Wno-error=missing-profile
# given before keeps it a warning, and -Wno-missing-profile silences it
assert_contains "the warning's option is named" stale.err "the rebuild applies less than half of the profile \\[-Wmissing-profile\\]"
pi_cc -O2 -fplugin-arg-perfinst-feedback=moved.fb -Werror -c "$PWD/edited/branch.c" -o werror.o 2> werror.err &&
    fail "-Werror: a rebuild applying less than half of the profile compiled"
assert_contains "-Werror: the option that made it an error" werror.err "\\[-Werror=missing-profile\\]"
pi_cc -O2 -fplugin-arg-perfinst-feedback=moved.fb -Wno-error=missing-profile -Wall -Werror -c "$PWD/edited/branch.c" -o werror.o 2> werror.err ||
    fail "-Wno-error=missing-profile before -Werror: the rebuild failed: $(cat werror.err)"
assert_contains "-Wno-error=missing-profile before -Werror: still a warning" werror.err "warning: perfinst: moved.fb: .* \\[-Wmissing-profile\\]"
pi_cc -O2 -fplugin-arg-perfinst-feedback=moved.fb -Wno-missing-profile -Werror -c "$PWD/edited/branch.c" -o werror.o 2> werror.err ||
    fail "-Wno-missing-profile -Werror: the rebuild failed: $(cat werror.err)"
assert_not_contains "-Wno-missing-profile: no warning" werror.err "less than half"
pi_cc -O2 -fplugin-arg-perfinst-feedback=moved.fb -fplugin-arg-perfinst-verbose -c "$PWD/edited/branch.c" -o stale.o 2> stale.err
assert_contains "verbose: names the stale function" stale.err "the profile of .work. is stale \(at cfg: CFG checksum 0x[0-9a-f]{16}, 5 blocks; the profile.s 0x[0-9a-f]{16}, 4 blocks\)"
gcc -O2 -o stale stale.o
./stale > /dev/null || fail "the partly matched rebuild does not run"
ok "the rebuild with a partly stale profile runs"

# pmopt plan --check on an all=count build of the edited program
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg -c "$PWD/edited/branch.c" -o new.o
pi_ld -O2 -o new new.o
"$PMOPT" plan --check=moved.fb ./new > check.out
assert_contains "--check: the summary" check.out "moved.fb: 1 of 2 function profiles match \./new \(40\.1% of the profile.s block executions\); 1 stale \(59\.9%\), 0 missing \(0\.0%\)"
assert_contains "--check: names it" check.out "^  stale   work \(.*edited/branch.c\), 3000 block executions$"
"$PMOPT" plan --check=plan.fb ./new > check2.out
assert_contains "--check: another source is missing" check2.out "0 of 2 function profiles match .* 2 missing \(100\.0%\)"
