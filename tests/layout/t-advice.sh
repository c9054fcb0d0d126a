# pmopt plan --advise: every recommendation of the feedback file printed as
# numbered source advice, with the same numbers as in the file (so that
# -fplugin-arg-perfinst-feedback-only=LIST picks what the advice names).
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg -c "$T/layout/branch.c" -o train.o
pi_ld -O2 -o train train.o
PERFINST_OUT=train.pit ./train > /dev/null
"$PMOPT" plan -o plan.fb ./train train.pit > /dev/null
"$PMOPT" plan --advise ./train train.pit > advice
[ ! -e plan.fb.tmp ] || fail "a temporary file was left"
grep -E '^[0-9]+\. ' advice > numbered
# every recommendation of the file has advice with its number, and no other
awk '/^[0-9]+ / { print $1 }' plan.fb > recs
cut -d. -f1 numbered | sort -un > advised
diff recs advised || fail "advice numbers differ from the file's recommendations"
assert_eq "recommendations" "5" "$(wc -l < recs | tr -d ' ')"
n=$(awk '$2 == "branch-profile" && $3 == "fn=work" { print $1 }' plan.fb)
assert_contains "the skewed branch, with its number" numbered "^$n\. .*branch\.c:10: in work the branch goes on at line 11 in 95\.0% of 1000 executions: make that the expected path \(__builtin_expect\)$"
n=$(awk '$2 == "function-tier" && $3 == "fn=atoi" { print $1 }' plan.fb)
assert_contains "the cold function" numbered "^$n\. .*stdlib\.h:[0-9]+: atoi never ran in training: __attribute__\(\(cold\)\)"
n=$(awk '$2 == "function-tier" && $3 == "fn=work" { print $1 }' plan.fb)
assert_contains "the hot function" numbered "^$n\. .*branch\.c:8: work has 59\.9% of the block executions: __attribute__\(\(hot\)\)"
# the file carries the same advice as comments
grep '^# [0-9]*\. ' plan.fb | sed 's/^# //' > commented
diff numbered commented || fail "the file's comments differ from --advise"
ok "the file's comments are the advice"
