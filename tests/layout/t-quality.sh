# feedback-quality=ipa (docs/layout.md "Profile quality"): the rebuild
# gives GCC the training counts as a read profile's.  quality.c: step() is
# called 100000 times from hot()'s loop and once from main().  With local
# counts (the default) both calls are inlined; with ipa counts the call in
# main() ran once in the program: a cold call, kept (CIF_UNLIKELY_CALL),
# while the hot one is inlined.  Then a mix that GCC must keep consistent:
# hot() edited (its profile stale: guessed counts) and a function the
# profile does not know, called from the read main(); all=count on top; and
# GCC's own -fprofile-use, with which ipa quality is refused.
. "$PERFINST_TOP/tests/lib.sh"
cp "$T/layout/quality.c" quality.c
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg -c "$PWD/quality.c" -o train.o
pi_ld -O2 -o train train.o
PERFINST_OUT=train.pit ./train > /dev/null
"$PMOPT" plan -o plan.fb ./train train.pit > /dev/null
gcc -O2 -o o2 quality.c
want=$(./o2)

# calls OBJ FUNC: the functions FUNC (with its .cold part) calls (relocations
# of its calls), sorted
calls() {
    objdump -dr --no-show-raw-insn "$1" |
        awk -v f="<$2>:" -v c="<$2.cold>:" '$2 == f || $2 == c { on = 1; next } on && /^$/ { on = 0 }
            on && /R_X86_64_PLT32/ { sub(/-0x4$/, "", $NF); print $NF }' |
        sort -u | tr '\n' ' '
}
for q in local ipa; do
    pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-feedback-quality=$q \
        -c "$PWD/quality.c" -o $q.o 2> $q.err || { cat $q.err; fail "feedback-quality=$q does not compile"; }
    assert_not_contains "$q: no diagnostic" $q.err "."
    gcc -O2 -o $q $q.o
    assert_eq "$q: the program's output" "$want" "$(./$q)"
done
assert_eq "local: main calls hot only (step inlined)" "hot printf strtol " "$(calls local.o main)"
assert_eq "ipa: main keeps the cold call to step" "hot printf step strtol " "$(calls ipa.o main)"
# split=3 with ipa counts: a block below GCC's hot-block threshold (the
# plan's largest count / 10000 = 10 here) is warm: main's blocks after its
# first ran once, so its calls but hot's are in main.cold
hotpart() { objdump -dr --no-show-raw-insn "$1" | awk -v f="<$2>:" '$2 == f { on = 1; next } on && /^$/ { on = 0 }
    on && /R_X86_64_PLT32/ { sub(/-0x4$/, "", $NF); print $NF }' | sort -u | tr '\n' ' '; }
assert_eq "ipa: main's hot part calls hot only" "hot " "$(hotpart ipa.o main)"
assert_eq "local: hot calls nothing (step inlined)" "" "$(calls local.o hot)"
assert_eq "ipa: hot calls nothing (the hot call inlined)" "" "$(calls ipa.o hot)"
pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -c "$PWD/quality.c" -o default.o
cmp -s <(objdump -d default.o | tail -n +3) <(objdump -d local.o | tail -n +3) ||
    fail "feedback-quality=local is not the default"
ok "feedback-quality=local is the default"

# a stale function (hot: a new branch) calling one the profile does not
# know (extra), called from the read main: compiled under the trained path
sed -e 's/^__attribute__((noinline)) unsigned hot(unsigned n)$/__attribute__((noinline)) unsigned extra(unsigned x)\n{\n    while (x > 9)\n        x \/= 3;\n    return x;\n}\n\n&/' \
    -e 's/        s += step(i);/        s += i % 7 ? step(i) : extra(i);/' "$T/layout/quality.c" > quality.c
grep -q 'extra(i)' quality.c || fail "the edit did not apply"
gcc -O2 -o o2-edited quality.c
want=$(./o2-edited)
pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-feedback-quality=ipa \
    -c "$PWD/quality.c" -o mixed.o 2> mixed.err || { cat mixed.err; fail "the stale/missing mix does not compile"; }
assert_contains "mixed: main matched, hot stale" mixed.err "plan.fb: 1 function profiles matched, 1 stale, 0 malformed"
assert_not_contains "mixed: no internal error" mixed.err "internal compiler error"
gcc -O2 -o mixed mixed.o
assert_eq "mixed: the program's output" "$want" "$(./mixed)"
pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-feedback-quality=ipa \
    -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg -fplugin-arg-perfinst-sections -c "$PWD/quality.c" -o counted.o 2> counted.err ||
    { cat counted.err; fail "all=count with ipa quality does not compile"; }
pi_ld -O2 -o counted counted.o
assert_eq "all=count + ipa quality: the program's output" "$want" "$(PERFINST_OUT=c.pit ./counted)"

# GCC's own profile: ipa quality is refused with a note (no .gcda: GCC warns too)
pi_cc -O2 -fprofile-use -Wno-missing-profile -fplugin-arg-perfinst-feedback=plan.fb \
    -fplugin-arg-perfinst-feedback-quality=ipa -c "$PWD/quality.c" -o pu.o 2> pu.err ||
    { cat pu.err; fail "-fprofile-use with ipa quality does not compile"; }
assert_contains "-fprofile-use: the note" pu.err "feedback-quality=ipa. is ignored with GCC.s own profile"
expect_fail "a bad quality" pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-feedback-quality=precise -c "$PWD/quality.c" -o bad.o
assert_contains "the error names the values" err "feedback-quality=precise.: expected .local. or .ipa."
