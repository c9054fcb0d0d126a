#!/bin/bash
# C++ virtual calls are target-profiled like calls through a pointer
# (docs/layout.md "Indirect calls"): drive's s->f(i) in vcall.cc went to
# A::f 9900 times and to B::f 100 times, exactly, as two ICALL pairs of
# the call's site; `pmopt plan --promote-calls` promotes it to A::f and
# the rebuild makes it GCC's speculative call (a compare with the
# vtable's entry, A::f's 2x+1 inlined, the indirect call kept), printing
# what -O2 prints through either target.
source "$PERFINST_TOP/tests/lib.sh"
pi_cc -x c++ -O2 -fplugin-arg-perfinst-all=count -c "$T/cxx/vcall.cc" -o v.o
pi_ld --pi-cc=g++ -O2 -o train v.o
g++ -O2 -o o2 "$T/cxx/vcall.cc"
PERFINST_OUT=t.pit ./train > train.out
assert_eq "output" "sum 3481479900" "$(cat train.out)"
addr() { nm train | awk -v s="$1" '$3 == s { sub(/^0+/, "", $1); print "0x" $1 }'; }
A=$(addr _ZNK1A1fEl) B=$(addr _ZNK1B1fEl)
[ "$A" != 0x ] && [ "$B" != 0x ] || fail "no A::f or B::f in train"
# the ICALL records carry run-time targets; train is a PIE: less the load bias
"$PMOPT" dump t.pit | grep ' ICALL ' | sed 's/.* site \([0-9]*\) target \(0x[0-9a-f]*\) count \([0-9]*\)$/\1 \2 \3/' > pairs
assert_eq "one site, two targets" "1 2" "$(cut -d' ' -f1 pairs | sort -u | wc -l) $(wc -l < pairs)"
bias=$(( $(sort -k3 -n pairs | tail -1 | cut -d' ' -f2) - A ))
got=$(while read -r site t n; do printf '0x%x %s\n' $((t - bias)) "$n"; done < pairs | sort)
assert_eq "A::f 9900, B::f 100" "$(printf '%s 9900\n%s 100\n' "$A" "$B" | sort)" "$got"
"$PMOPT" plan --promote-calls -o fb ./train t.pit > plan.out
assert_contains "plan: the virtual call promoted" plan.out "^promote: 1 indirect call sites ran; 1 promoted"
assert_contains "to A::f, 9900 of 10000" fb "promote-call fn=_Z5drivePK5Shapel .*target=_ZNK1A1fEl calls=9900 total=10000"
pi_cc -x c++ -O2 -fplugin-arg-perfinst-feedback=fb -c "$T/cxx/vcall.cc" -o r.o 2> r.err || { cat r.err; fail "rebuild"; }
assert_contains "the rebuild applied it" r.err "fb: 1 call promotions applied"
g++ -O2 -o reb r.o
objdump -d --no-show-raw-insn r.o | awk '/<_Z5drivePK5Shapel>:/ { on = 1; next } on && /^$/ { exit } on' > drive.s
assert_contains "a compare of two registers" drive.s "cmp +%r[a-z0-9]+,%r[a-z0-9]+"
assert_contains "A::f inlined: 2x+1" drive.s "lea +0x1\(%r[a-z0-9]+,%r[a-z0-9]+,1\)"
assert_contains "the fallback: the indirect call" drive.s "(call|jmp) +\*%r"
for args in "" "10000 2" "5000 1"; do
    assert_eq "output ($args)" "$(./o2 $args)" "$(./reb $args)"
done
