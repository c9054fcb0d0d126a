# timeout: 300
# clean-copies=final: tail calls in f (gcc-plugin/finalcopy.cc, "tail
# calls").  finaltails.c's functions that -O2 ends with a jump to their
# callee: f ends so too (the counting copy's epilogue, then `jmp`), its
# counting copy keeps the call and the count after it; where a local the
# callee sees is live after the call (escape) or arguments go on the stack
# (stackargs: marked on GIMPLE, unmarked after expansion), f keeps the
# call; where the copy frees stack arguments late by pops into registers
# free after its call (freedlate), f's jump keeps its arguments in them.
# A frame that only kept the stack aligned for calls goes with them.
# Exact counts, the off mode's output, with and without -g, and with
# -maccumulate-outgoing-args (stack arguments stored into the frame).
. "$PERFINST_TOP/tests/lib.sh"
FINAL="-fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-clean-copies=final"
src=$T/count/finaltails.c
gcc -O2 -I"$PERFINST_TOP/include" -c "$src" -o ref.o && pi_ld -O2 -o ref ref.o
want=$(./ref)
[ -n "$want" ] || fail "ref: no output"
# code NAME PROG: NAME's instructions (objdump), the mnemonic and operand
code() { objdump -d --no-show-raw-insn "$2" | awk -v f="<$1>:" '$2 == f { on = 1; next } on && /^$/ { exit } on' |
    awk -F'\t' 'NF >= 2 { i = $2; sub(/ *#.*/, "", i); gsub(/[0-9a-f]+ </, "<", i); gsub(/ +/, " ", i); print i }'; }
must="direct:<step> indirect:\\* voidtail:<bump> ping:<pong> pong:<ping> last:<bye> flagged:<full> item:<locate> freedlate:<quad>"
for f in $must; do
    assert_contains "-O2 ends ${f%%:*} with a jump to its callee" <(code "${f%%:*}" ref) "^jmp ${f#*:}"
done
for v in g nog acc; do
    case $v in g) x=-g ;; nog) x="" ;; acc) x="-g -maccumulate-outgoing-args" ;; esac
    # shellcheck disable=SC2086
    pi_cc -O2 $x $FINAL -c "$src" -o "$v.o"
    pi_ld -O2 -o "$v" "$v.o"
    run_exact "$v" "$src" "$want" "$v"
    assert_eq "$v: PERFINST_MODE=off output" "$want" "$(PERFINST_MODE=off PERFINST_OUT="$v-off.pit" ./"$v")"
    for f in $must; do
        n=${f%%:*}
        code "$n" "$v" > "$n.$v"
        code "$n.count.0" "$v" > "$n.count.$v"
        [ -s "$n.$v" ] && [ -s "$n.count.$v" ] || fail "$v: $n or $n.count.0 not found"
        assert_contains "$v: $n (f) ends with a jump to its callee" "$n.$v" "^jmp ${f#*:}"
        [ "$n" = freedlate ] || assert_eq "$v: $n (f) calls nothing" "" "$(grep '^call' "$n.$v")"
        # (its callee's counting copy where it has one: copy-calls=direct)
        c=$(echo "${f#*:}" | sed 's/>$/(\\.count\\.0)?>/')
        assert_contains "$v: $n.count.0 calls its callee" "$n.count.$v" "^call $c"
    done
    argregs='^pop %(rdi|rsi|rdx|rcx|r8|r9)$'
    [ $v = acc ] || # (stack arguments stored into the frame: nothing to free)
        assert_contains "$v: freedlate.count.0 frees the stack by pops into free registers" freedlate.count.$v "$argregs"
    assert_eq "$v: freedlate (f) pops into no argument register" "" "$(grep -E "$argregs" freedlate.$v)"
    # the frame the copy kept for the stack's alignment at its calls
    for n in direct voidtail ping pong last flagged item; do
        assert_eq "$v: $n (f) has no frame" "" "$(grep '%rsp' "$n.$v")"
    done
    code escape "$v" > escape.$v
    code stackargs "$v" > stackargs.$v
    assert_eq "$v: escape (f) calls peek twice (a is live after each)" 2 "$(grep -c '^call <peek>' escape.$v)"
    assert_eq "$v: escape (f) jumps to no callee" "" "$(grep '^jmp <peek>' escape.$v)"
    assert_contains "$v: stackargs (f) calls many (two arguments on the stack)" stackargs.$v '^call <many>'
    assert_eq "$v: stackargs (f) jumps to no callee" "" "$(grep '^jmp <many>' stackargs.$v)"
done
