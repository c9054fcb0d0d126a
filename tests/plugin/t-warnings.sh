#!/bin/bash
# Instrumentation adds no warning of its own (gcc-plugin/pass-uninit.cc,
# docs/adopting.md "Warnings"): each fixture in tests/plugin/warn compiled
# with -Wall -Wextra, without the plugin and with it under all=count, gives
# the same warnings (sorted: the plugin compiles functions in another
# order), line for line, and a -Werror build succeeds or fails
# alike.
#   twice.c (-O2): the program's own warnings (-Wmaybe-uninitialized,
#     -Warray-bounds) once each, under the function's name — GCC gave each
#     again in the counting copy ("In function 'twice.count.0'"), which
#     exists (nm) and is still counted.
#   errcode.c (-O1, reduced from zstd's legacy decoder): no warning without
#     the plugin; with it (both copies in one function, the counter updates
#     between the error check and the use) GCC said "'data' may be used
#     uninitialized", and a -Werror build failed.  The function is counted.
#   -Wuninitialized (a use on every path) stays in a counted function.
#   twice.c with clean-copies=all (above: the copies split after IPA);
#     with final, the default, twice's body keeps its counters through the
#     GIMPLE passes and is quieted: its -Wmaybe-uninitialized is not given.
#   errcode.c again with clean-copies=none (one counting body, updates as
#     asm statements: the same warning at -O1 until pass-uninit quieted it),
#     and with clean-copies=late (that body through the GIMPLE passes).
source "$PERFINST_TOP/tests/lib.sh"
W=$T/plugin/warn
warnings() { grep -E ': warning: ' "$1" | sed 's|^.*/||' | sort || true; }

# same_warnings WHAT FILE FLAGS...: the warnings with and without the plugin
same_warnings() {
    local what=$1 f=$2; shift 2
    gcc -c -Wall -Wextra "$@" "$f" -o plain.o 2> plain.err || true
    pi_cc -c -Wall -Wextra -fplugin-arg-perfinst-all=count ${PI_EXTRA:-} "$@" "$f" -o pi.o 2> pi.err || true
    warnings plain.err > plain.w
    warnings pi.err > pi.w
    if ! cmp -s plain.w pi.w; then
        echo "without the plugin:" >&2; cat plain.err >&2
        echo "with it:" >&2; cat pi.err >&2
        fail "$what: the warnings differ"
    fi
    assert_not_contains "$what: no internal copy named" pi.err '\.count\.[0-9]'
    # -Werror: the same outcome
    local p=0 q=0
    gcc -c -Wall -Wextra -Werror "$@" "$f" -o /dev/null 2> /dev/null || p=$?
    pi_cc -c -Wall -Wextra -Werror -fplugin-arg-perfinst-all=count ${PI_EXTRA:-} "$@" "$f" -o /dev/null 2> /dev/null || q=$?
    assert_eq "$what: -Werror gives the same status" "$p" "$q"
    ok "$what: $(wc -l < plain.w) warnings, the same"
}

PI_EXTRA=-fplugin-arg-perfinst-clean-copies=all same_warnings "twice.c -O2, clean-copies=all" "$W/twice.c" -O2
cp plain.w twice-plain.w
assert_eq "twice.c: two warnings" 2 "$(wc -l < pi.w)"
assert_contains "the maybe-uninitialized one" pi.w "twice.c:15:16: warning: .x. may be used uninitialized"
assert_contains "the array-bounds one" pi.w "twice.c:24:9: warning: .memcpy. .* \[-Warray-bounds\]"
assert_contains "given in twice, the function written" pi.err "In function .twice.:"
nm pi.o > syms
assert_contains "the counting copy exists" syms ' twice\.count\.0$'
assert_contains "and counts" syms ' copy8\.count\.0$'
# clean-copies=final (the default): twice keeps its counters through the
# GIMPLE passes, as a body kept whole, and is quieted as such (its
# -Wmaybe-uninitialized from the plain build only: docs/adopting.md); no
# warning of the plugin's own, the -Warray-bounds once
pi_cc -c -Wall -Wextra -O2 -fplugin-arg-perfinst-all=count "$W/twice.c" -o fin.o 2> fin.err || fail "twice.c (final) did not compile"
warnings fin.err > fin.w
assert_eq "twice.c, clean-copies=final: no warning the plain build lacks" "" "$(comm -13 twice-plain.w fin.w)"
assert_contains "twice.c, clean-copies=final: the array-bounds one" fin.w "twice.c:24:9: warning: .memcpy. .* \[-Warray-bounds\]"
assert_not_contains "twice.c, clean-copies=final: no internal copy named" fin.err '\.count\.[0-9]'

same_warnings "errcode.c -O1" "$W/errcode.c" -O1
assert_eq "errcode.c -O1: no warning" 0 "$(wc -l < pi.w)"
pi_cc -c -O1 -fplugin-arg-perfinst-all=count -fdump-tree-optimized=opt.txt "$W/errcode.c" -o pi.o
sed -n '/^;; Function decode_all /,/^;; Function /p' opt.txt > decode_all.txt
assert_contains "decode_all holds its counter updates" decode_all.txt "__perfinst_ctr\\["
same_warnings "errcode.c -Og" "$W/errcode.c" -Og
# one counting body (clean-copies=none: its updates asm statements, which
# tangle the paths at -O1 as GCC's did) is quieted too
for O in -O1 -O2; do
    PI_EXTRA=-fplugin-arg-perfinst-clean-copies=none same_warnings "errcode.c $O, clean-copies=none" "$W/errcode.c" $O
done
# the same body split only after the GIMPLE passes (clean-copies=late)
PI_EXTRA=-fplugin-arg-perfinst-clean-copies=late same_warnings "errcode.c -O2, clean-copies=late" "$W/errcode.c" -O2

# a use on every path: -Wuninitialized stays, at -O1 (both copies in one
# function) and -O2 (the counting copy)
cat > always.c << 'C'
int always(int n)
{
    int x;
    for (int i = 0; i < n; i++)
        n -= i;
    return x + n;
}
C
for O in -O1 -O2; do
    same_warnings "always.c $O" always.c $O
    assert_contains "always.c $O: is used uninitialized" pi.w "always.c:6:14: warning: .x. is used uninitialized"
done
