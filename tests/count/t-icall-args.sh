# An indirect call's inline cache is tested before the call's arguments
# are computed (pass-count.cc, test_may_precede): icallargs.c's call3()
# loads its target and three arguments from memory.  With the test after
# the loads, the three values were live across the miss call and each
# took a call-saved register (a push and a pop on every call of the
# function: gawk's get_field, sc_parse_field, str_lookup); the loads now
# come after the test's compare, and the pairs (site, target) stay exact.
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -fplugin-arg-perfinst-all=count -c "$T/count/icallargs.c" -o icallargs.o
pi_ld -O2 -o icallargs icallargs.o
objdump -d --no-show-raw-insn icallargs.o | awk '/<call3\.count\.[0-9]+>:/,/^$/' > call3.s
cmp_at=$(grep -n 'cmp .*%fs:' call3.s | head -1 | cut -d: -f1)
arg_at=$(grep -n 'mov .*0x10(%r[a-z0-9]*),%rdx' call3.s | head -1 | cut -d: -f1)
[ -n "$cmp_at" ] && [ -n "$arg_at" ] || { cat call3.s >&2; fail "want the cache's compare and the third argument's load in call3's counting copy"; }
[ "$arg_at" -gt "$cmp_at" ] || { cat call3.s >&2; fail "the third argument is loaded (line $arg_at) before the cache's test (line $cmp_at)"; }
ok "the arguments are loaded after the cache's test"
PERFINST_OUT=t.pit ./icallargs > out || fail "icallargs failed"
assert_eq "output" "sum 4527005" "$(cat out)"
"$PMOPT" merge -o m.pit t.pit > /dev/null
"$PMOPT" dump m.pit | grep ' ICALL ' | sed 's/.* target \(0x[0-9a-f]*\) count \([0-9]*\)$/\1 \2/' | sort > got
for fn in f3 g3; do
    eval "$fn=0x\$(nm icallargs | awk '\$3 == \"$fn\" { sub(/^0+/, \"\", \$1); print \$1 }')"
done
printf '%s\n' "$f3 2000" "$g3 1000" | sort > want
diff want got || fail "ICALL pairs: want f3 2000, g3 1000"
ok "f3 2000, g3 1000 calls through one site, exact"
