# cold-inline= (gcc-plugin/pass-feedback.cc, docs/layout.md "Inlining
# where training ran little").  coldinline.c trained once with no argument:
# put() ran at four call sites and never at three (fill's neg branch,
# head's n < 0, main's third argument); report() never ran, called only
# from fill's neg branch.  Plain -O2 inlines put at all seven sites and
# computes report's s / 7 with a multiplication.  With the counts alone
# (cold-inline=profile) the three never-run sites are "unlikely" calls,
# so put stays out of line, called from the cold parts, and report, whose
# only call lies in a block that never ran, is compiled for size (idiv).
# With cold-inline=o2 the rebuild makes -O2's decisions there: put is
# inlined at every site, its copies at the never-run sites in the cold
# parts (the hot parts unchanged), report compiled as -O2 compiles it.
# Outputs are -O2's.
. "$PERFINST_TOP/tests/lib.sh"
cp "$T/layout/coldinline.c" coldinline.c
pi_cc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections -c "$PWD/coldinline.c" -o train.o
pi_ld -O2 -o train train.o
PERFINST_OUT=train.pit ./train > /dev/null
"$PMOPT" plan -o plan.fb ./train train.pit > /dev/null
assert_contains "report is in the cold tier" plan.fb "^[0-9]* function-tier fn=report src=.* tier=cold$"
gcc -O2 -c "$PWD/coldinline.c" -o plain.o
gcc -O2 -o plain plain.o

# funcs OBJ: the functions OBJ defines (their .cold parts left out), sorted
funcs() { nm "$1" | awk '$2 ~ /^[tT]$/ && $3 !~ /\.cold$/ { print $3 }' | sort | tr '\n' ' '; }
# calls PROG FUNC: what FUNC (FUNC.cold with FUNC=NAME.cold) calls, sorted
calls() {
    objdump -d --no-show-raw-insn "$1" |
        awk -v f="<$2>:" '$2 == f { on = 1; next } on && /^$/ { on = 0 }
            on && $2 == "call" { sub(/^</, "", $NF); sub(/(\+0x[0-9a-f]+)?>$/, "", $NF); print $NF }' |
        sort -u | tr '\n' ' '
}
for m in profile o2; do
    pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-cold-inline=$m \
        -fplugin-arg-perfinst-verbose -c "$PWD/coldinline.c" -o $m.o 2> $m.err ||
        { cat $m.err; fail "cold-inline=$m does not compile"; }
    gcc -O2 -o $m $m.o
    for args in "" "50 x" "50 x y"; do
        # shellcheck disable=SC2086
        assert_eq "cold-inline=$m: the output ($args)" "$(./plain $args)" "$(./$m $args)"
    done
done
assert_eq "-O2 inlines put everywhere" "fill grow head main report " "$(funcs plain.o)"
assert_eq "cold-inline=profile: put out of line" "fill grow head main put report " "$(funcs profile.o)"
assert_eq "cold-inline=profile: called from the cold parts" "put strtol@plt " "$(calls profile main.cold)"
assert_eq "cold-inline=o2: the functions are -O2's" "$(funcs plain.o)" "$(funcs o2.o)"
assert_eq "cold-inline=o2: put inlined in main's cold part" "grow strtol@plt " "$(calls o2 main.cold)"
assert_eq "cold-inline=o2: main's hot part calls what it called" "$(calls profile main)" "$(calls o2 main)"
assert_eq "cold-inline=o2: head's hot part calls what it called" "$(calls profile head)" "$(calls o2 head)"
assert_contains "the note" o2.err "cold-inline=o2: 3 call sites given GCC.s estimate for the inliner .0 of them ran in training., 1 functions their frequency back"
# report: for size (its caller's block never ran) or as -O2 compiles it
idivs() { objdump -d --no-show-raw-insn "$1" | awk '/^[0-9a-f]+ <report>:/ { on = 1; next } on && /^$/ { on = 0 } on && /idiv/' | wc -l; }
assert_eq "-O2: s / 7 by multiplication" 0 "$(idivs plain)"
assert_eq "cold-inline=profile: report compiled for size (s / 7, s % 13)" 2 "$(idivs profile)"
assert_eq "cold-inline=o2: report as -O2 compiles it" 0 "$(idivs o2)"
assert_eq "cold-inline=o2: report in the cold tier still" "$(objdump -h o2.o | awk '$2 == ".text.unlikely.report" { print $2 }')" ".text.unlikely.report"

# the default
pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -c "$PWD/coldinline.c" -o default.o
cmp -s <(objdump -d default.o | tail -n +3) <(objdump -d profile.o | tail -n +3) || fail "cold-inline=profile is not the default"
ok "cold-inline=profile is the default"
# feedback-quality=ipa: counts as read ones, left alone
for m in profile o2; do
    pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-feedback-quality=ipa \
        -fplugin-arg-perfinst-cold-inline=$m -c "$PWD/coldinline.c" -o ipa-$m.o
done
cmp -s <(objdump -d ipa-profile.o | tail -n +3) <(objdump -d ipa-o2.o | tail -n +3) ||
    fail "cold-inline=o2 changes a feedback-quality=ipa build"
ok "feedback-quality=ipa: cold-inline changes nothing"
expect_fail "a bad value" pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-cold-inline=size -c "$PWD/coldinline.c" -o bad.o
assert_contains "the error names the values" err "cold-inline=size.: expected .o2. or .profile."
