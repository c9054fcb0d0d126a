# clean-copies=final's miss stub (runtime/icall.c __perfinst_icall_stub)
# saves the caller-saved general registers only, then calls pi_icall_miss:
# that C code must change no other register.  So libperfinst.so's
# pi_icall_miss and every function it reaches by direct calls and jumps
# (followed in the disassembly: static functions are in the symbol table)
# are the miss's own (compiled general-regs-only), call nothing else (no
# libc: its functions use vector registers) and nothing through a
# pointer, and use no vector, mask or x87 register or instruction.  The
# stub calls pi_icall_miss before any XSAVE or FXSAVE (which come before
# pi_icall_miss_libc, the miss that calls libc).  tests/count/t-icall-regs.sh
# runs the stub with every register live.
. "$PERFINST_TOP/tests/lib.sh"
[ -z "${PERFINST_SANITIZE:-}" ] || skip "a sanitized runtime's miss calls the sanitizer's runtime: its stub always saves the whole state"
command -v objdump > /dev/null || skip "no objdump"
objdump -d --no-show-raw-insn "$B/libperfinst.so" > lib.s
# fn NAME: NAME's instructions (its symbol's lines)
fn() { awk -v f="$1" '$2 == "<" f ">:" { p = 1; next } p && /^$/ { exit } p' lib.s; }
fn pi_icall_miss > f.pi_icall_miss
[ -s f.pi_icall_miss ] || fail "no pi_icall_miss in $B/libperfinst.so"
# the miss's functions, as GCC may name their copies (.part.N, .isra.N ...)
own='^(pi_icall_miss|icall_add|miss_slow|victim_hit|remember|ref_index)(\.[a-z]+\.[0-9]+)?$'
todo=(pi_icall_miss) seen=" pi_icall_miss "
while [ ${#todo[@]} -gt 0 ]; do
    f=${todo[0]}
    todo=("${todo[@]:1}")
    fn "$f" > "f.$f"
    [ -s "f.$f" ] || fail "no code for $f"
    # indirect calls and jumps: a call of anything
    if grep -E '\s(call|jmp)[a-z]* +\*' "f.$f" > bad; then
        cat bad >&2
        fail "$f calls or jumps through a pointer"
    fi
    # direct calls and jumps to another symbol's start (not to a label
    # inside the function: <f+0x..>)
    for g in $(grep -oE '\s(call|jmp)[a-z]* +[0-9a-f]+ <[^>+]+>' "f.$f" | sed 's/.*<\(.*\)>/\1/' | sort -u); do
        [ "$g" = "$f" ] && continue
        echo "$g" | grep -Eq "$own" || fail "$f calls $g, not a function of the miss's own"
        case "$seen" in *" $g "*) ;; *) seen="$seen$g " todo+=("$g") ;; esac
    done
done
for f in icall_add miss_slow; do # noinline: reached through their calls
    case "$seen" in *" $f "*) ;; *) fail "pi_icall_miss does not reach $f: the walk missed its calls" ;; esac
done
ok "pi_icall_miss reaches only the miss's own functions:$seen"
for f in $seen; do
    # vector (%mm, %xmm, %ymm, %zmm), mask (%k) and x87 (%st) registers;
    # instructions without such an operand: x87 (f...), VEX/EVEX (v...),
    # mask (k...), MXCSR, EMMS, the state saves
    awk '{ sub(/^ *[0-9a-f]+:\t/, ""); print }' "f.$f" > "i.$f"
    if grep -E '%([xyz]?mm[0-9]+|k[0-7]\b|st\b)|^(f|v|k)[a-z0-9]+|mxcsr|^emms|xsave|xrstor' "i.$f" > bad; then
        cat bad >&2
        fail "$f uses a vector, mask or x87 register or instruction"
    fi
    ok "$f: general registers only ($(wc -l < "i.$f") instructions)"
done
# the stub: pi_icall_miss is its first call, before any vector state save
fn __perfinst_icall_stub > stub.s
first_call=$(grep -nE '\scall ' stub.s | head -1)
assert_contains "the stub's first call is pi_icall_miss" <(echo "$first_call") '<pi_icall_miss>$'
save=$(grep -nE '\s(xsave|fxsave)' stub.s | head -1 | cut -d: -f1)
[ -n "$save" ] || fail "no XSAVE or FXSAVE in the stub"
[ "${first_call%%:*}" -lt "$save" ] || fail "the stub saves the vector state before its call of pi_icall_miss"
ok "the stub calls pi_icall_miss (line ${first_call%%:*}) before its first state save (line $save)"
assert_contains "the stub calls pi_icall_miss_libc after the save" <(sed -n "$save,\$p" stub.s) 'call .*<pi_icall_miss_libc>$'
