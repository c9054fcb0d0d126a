# Directive diagnostics: every `// expect-error: TEXT` line of the fixtures in
# tests/plugin/diag/ must get an error at exactly that file:line containing
# TEXT, no other line may get one, and the compiler must not crash.
. "$PERFINST_TOP/tests/lib.sh"
for src in "$T"/plugin/diag/*.c; do
    name=$(basename "$src")
    if pi_cc -O2 -c "$src" -o /dev/null 2> "$name.err"; then
        fail "$name compiled without errors"
    fi
    assert_not_contains "$name: no internal compiler error" "$name.err" "internal compiler error|Segmentation"
    expected=$(grep -c "expect-error:" "$src")
    n=0
    while IFS= read -r line; do
        lineno=${line%%:*}
        text=$(echo "$line" | sed 's/.*expect-error: //')
        grep -F ":$lineno:" "$name.err" | grep -F -q -- "$text" ||
            { cat "$name.err" >&2; fail "$name:$lineno: expected an error containing '$text'"; }
        n=$((n + 1))
    done < <(grep -n "expect-error:" "$src")
    # no error on an unmarked line
    grep -E "^[^ ]*$name:[0-9]+:[0-9]+: error" "$name.err" | while IFS=: read -r _ l _; do
        sed -n "${l}p" "$src" | grep -q "expect-error" || { cat "$name.err" >&2; fail "$name:$l: unexpected error"; }
    done
    ok "$name: $n of $expected expected errors at the right lines"
done
# unknown plugin argument and bad values
echo 'int x;' > x.c
expect_fail "unknown plugin argument" pi_cc -fplugin-arg-perfinst-bogus=1 -c x.c -o x.o
assert_contains "unknown argument named" err "unknown argument .-fplugin-arg-perfinst-bogus"
expect_fail "all= other than count" pi_cc -fplugin-arg-perfinst-all=trap -c x.c -o x.o
assert_contains "all= message" err "expected .count. or .sample"
expect_fail "sharing= bad value" pi_cc -fplugin-arg-perfinst-sharing=some -c x.c -o x.o
expect_fail "feedback= missing file" pi_cc -fplugin-arg-perfinst-feedback=/nonexistent -c x.c -o x.o
assert_contains "feedback message names the file" err "/nonexistent"
# the macros compile to nothing without the plugin (and warn about nothing)
cat > m.c <<'X'
#include <perfinst.h>
PERFINST("count") int f(int n) {
    PERFINST_PRAGMA(count)
    for (int i = 0; i < n; i++) n--;
    return n;
}
int main(void) { return f(3) == 1 ? 0 : 1; }
X
gcc -Wall -Werror -I"$PERFINST_TOP/include" m.c -o m.plain && ./m.plain
ok "perfinst.h macros compile without the plugin"
pi_cc -Wall -Werror -c m.c -o m.o
ok "perfinst.h macros compile with the plugin"
# -m32 and -mx32: a perfinst error, not an assembler error on its records
echo 'int f(int x) { return x + 1; }' > narrow.c
for m in -m32 -mx32; do
    expect_fail "$m" pi_cc $m -fplugin-arg-perfinst-all=count -c narrow.c -o narrow.o
    assert_contains "$m: perfinst says why" err "perfinst: x86-64 only: this compilation is for a 32-bit target \\($m\\)"
    assert_not_contains "$m: no assembler error" err "Assembler|relocation"
done
