# Promoted indirect calls (docs/layout.md "Promoted indirect calls"): the
# training build records the targets of drive's call through o->fn (twice
# 9900, other 100 of 10000) and far's (hidden, 10000); `pmopt plan
# --promote-calls` writes one promote-call for each (none by default); the rebuild of promote.c turns drive's call
# into GCC's speculative call (a compare with twice's address, twice
# inlined, the indirect call kept) and skips far's (hidden is static in
# promote-b.c) with a message; apply's call, inlined into hot_user and
# cold_user, is promoted only in hot_user (cold_user never ran); the output stays byte-identical, with
# every call sent to the fallback too.  A missing target, a changed caller
# and a malformed recommendation are skipped and counted, never an ICE.
. "$PERFINST_TOP/tests/lib.sh"
a=$T/layout/promote.c b=$T/layout/promote-b.c
# function sections: the relink step at the end orders functions (without
# them its plan had only main's .text.startup to order)
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg -ffunction-sections -c "$a" -o ta.o
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg -ffunction-sections -c "$b" -o tb.o
pi_ld -O2 -o train ta.o tb.o
PERFINST_OUT=t.pit ./train > train.out
gcc -O2 -o o2 "$a" "$b"
./o2 > o2.out
./o2 10000 x > o2x.out
./o2 10000 x y > o2xy.out
cmp o2.out train.out || fail "the training build prints something else"

"$PMOPT" plan -o fbdef ./train t.pit > def.out
assert_not_contains "by default: no promote-call" fbdef "promote-call"
"$PMOPT" plan --promote-calls -o fb ./train t.pit > plan.out
assert_contains "plan: three sites, three promoted" plan.out "^promote: 3 indirect call sites ran; 3 promoted \(a target with >= 75\.000% of the calls and >= 1000 calls\), 0 below the share, 0 below the calls, 0 target outside"
grep ' promote-call ' fb | sed 's/^[0-9]* //; s/ src=[^ ]*//; s/ checksum=[^ ]*//; s/ target-file=[^ ]*//' > recs
assert_eq "drive's: block 4, call 0, twice 9900 of 10000" \
    "promote-call fn=drive block=4 call=0 target=twice calls=9900 total=10000 line=34" "$(grep fn=drive recs)"
assert_eq "far's: hidden 10000 of 10000" \
    "promote-call fn=far block=1 call=0 target=hidden calls=10000 total=10000 line=43" "$(grep fn=far recs)"
"$PMOPT" plan --promote-calls --advise ./train t.pit > advise.out
assert_contains "--advise: the same as advice" advise.out "promote\.c:34: in drive the call through a pointer went to twice in 99\.0% of 10000 calls"
"$PMOPT" plan --promote-calls --promote-share=99.5 -o fb995 ./train t.pit > p995.out
assert_contains "--promote-share=99.5: drive's below" p995.out "3 indirect call sites ran; 2 promoted .*, 1 below the share, 0 below the calls"
"$PMOPT" plan --promote-calls --promote-min-calls=10001 -o fbmin ./train t.pit > pmin.out
assert_contains "--promote-min-calls=10001: all below" pmin.out "3 indirect call sites ran; 0 promoted .*, 0 below the share, 3 below the calls"
"$PMOPT" plan --promote-calls --no-promote-calls -o fbno ./train t.pit > /dev/null
assert_not_contains "--no-promote-calls: none" fbno "promote-call"
expect_fail "--promote-share=0" "$PMOPT" plan --promote-calls --promote-share=0 -o x ./train t.pit
expect_fail "--promote-min-calls=x" "$PMOPT" plan --promote-min-calls=x -o x ./train t.pit

# drive's disassembly: the compare with twice's address, twice's body
# inlined (2x+1: lea 0x1(%r,%r,1)), the indirect call kept
dis() { objdump -d --no-show-raw-insn "$1" | awk '/<drive>:/ { on = 1; next } on && /^$/ { exit } on'; }
rebuild() { # FB OUT: both units rebuilt with FB, linked to OUT; promote.c's messages in OUT.err
    pi_cc -O2 -fplugin-arg-perfinst-feedback="$1" -c "$a" -o "$2-a.o" 2> "$2.err" || { cat "$2.err"; fail "rebuild with $1"; }
    pi_cc -O2 -fplugin-arg-perfinst-feedback="$1" -c "$b" -o "$2-b.o" 2> "$2-b.err" || { cat "$2-b.err"; fail "rebuild of promote-b.c with $1"; }
    gcc -O2 -o "$2" "$2-a.o" "$2-b.o"
    assert_not_contains "$2: no internal error" "$2.err" "internal compiler error"
}
rebuild fb reb
assert_contains "the count: 2 applied (drive, hot_user's copy of apply), cold_user's copy left, 1 skipped (hidden)" reb.err "fb: 2 call promotions applied \(2 call edges, 1 cold ones left indirect\), 1 skipped \(0 stale, 1 target not usable, 0 site not found, 0 malformed, 0 gone before IPA, 0 function not in the unit\) in .*promote\.c"
fl=$(grep -n ' promote-call fn=far ' fb | cut -d: -f1)
fn=$(sed -n "${fl}p" fb | cut -d' ' -f1)
assert_contains "the skipped one, by file:line" reb.err "fb:$fl: recommendation $fn: the call in .far. to .hidden. is not promoted: no function of that name in this unit"
assert_not_contains "promote-b.c: nothing to say (no recommendation for its functions)" reb-b.err "promot"
dis reb-a.o > drive.s
assert_contains "the compare's operand: twice's address" drive.s "lea .*<twice>"
assert_contains "a compare of two registers" drive.s "cmp +%r[a-z0-9]+,%r[a-z0-9]+"
assert_contains "twice inlined: 2x+1" drive.s "lea +0x1\(%r[a-z0-9]+,%r[a-z0-9]+,1\)"
assert_not_contains "no direct call of twice (inlined)" drive.s "call .*<twice>"
assert_contains "the fallback: the indirect call" drive.s "call +\*%r"
./reb > reb.out
./reb 10000 x > rebx.out
./reb 10000 x y > rebxy.out
cmp o2.out reb.out || fail "the promoted build prints something else"
cmp o2x.out rebx.out || fail "the promoted build prints something else through the fallback"
cmp o2xy.out rebxy.out || fail "the promoted build prints something else in cold_user"
hot=$(objdump -d --no-show-raw-insn reb-a.o | awk '/<hot_user>:/ { on = 1; next } on && /^$/ { exit } on' | grep -c '<twice>' || true)
cold=$(objdump -d --no-show-raw-insn reb-a.o | awk '/<cold_user>:/ { on = 1; next } on && /^$/ { exit } on' | grep -c '<twice>' || true)
[ "$hot" -ge 1 ] && [ "$cold" = 0 ] || fail "twice should be named in hot_user ($hot) and not in cold_user ($cold)"
ok "hot_user's copy promoted, cold_user's left indirect"
ok "byte-identical output, the dominant target and the fallback"
# the same rebuild without the promotion: no twice in drive (the check can fail)
rebuild fbno noprom
dis noprom-a.o > drive-no.s
assert_not_contains "not promoted: drive does not name twice" drive-no.s "<twice>"
assert_not_contains "not promoted: no promotion note" noprom.err "call promotions"

mkfb() { # OUT LINE...: a well-formed feedback file with these recommendations
    python3 - "$@" <<'PY'
import sys, zlib
out, lines = sys.argv[1], sys.argv[2:]
body = "perfinst-feedback 1\n" + "".join("%d %s\n" % (i + 1, l) for i, l in enumerate(lines))
open(out, "w").write(body + "end %d 0x%08x\n" % (len(lines), zlib.crc32(body.encode())))
PY
}
drv=$(grep ' promote-call fn=drive ' fb | sed 's/^[0-9]* //')
mkfb missing.fb "${drv/target=twice/target=nosuch}"
rebuild missing.fb miss
assert_contains "a missing target: skipped with a message" miss.err "missing\.fb:2: recommendation 1: the call in .drive. to .nosuch. is not promoted: no function of that name in this unit"
assert_contains "a missing target: counted" miss.err "0 call promotions applied \(0 call edges, 0 cold ones left indirect\), 1 skipped \(0 stale, 1 target not usable"
dis miss-a.o > drive-miss.s
assert_not_contains "a missing target: nothing promoted" drive-miss.s "<twice>"
./miss > miss.out && cmp o2.out miss.out || fail "the build with a missing target prints something else"
mkfb stale.fb "$(echo "$drv" | sed 's/checksum=0x[0-9a-f]*/checksum=0x1234/')"
rebuild stale.fb stale
assert_contains "a changed caller: stale, counted" stale.err "0 call promotions applied \(0 call edges, 0 cold ones left indirect\), 1 skipped \(1 stale, 0 target not usable"
mkfb nosite.fb "${drv/call=0/call=3}"
rebuild nosite.fb nosite
assert_contains "no such call in the block: a message" nosite.err "nosite\.fb:2: recommendation 1: .drive. has no call 3 through a pointer in block 4; not promoted"
assert_contains "no such call in the block: counted" nosite.err "1 skipped \(0 stale, 0 target not usable, 1 site not found"
mkfb bad.fb "$(echo "$drv" | sed 's/ block=[0-9]*//')" "${drv/calls=9900/calls=99999}"
rebuild bad.fb bad
assert_contains "no block=: refused at file:line" bad.err "bad\.fb:2: recommendation 1 \(.promote-call.\): malformed \(it needs checksum=, block=, call=, target=, calls= and total=, calls at most total\); ignored"
assert_contains "calls > total: refused at file:line" bad.err "bad\.fb:3: recommendation 2 \(.promote-call.\): malformed"
assert_contains "malformed: counted" bad.err "0 call promotions applied \(0 call edges, 0 cold ones left indirect\), 2 skipped \(0 stale, 0 target not usable, 0 site not found, 2 malformed"

# the counted rebuild (all=count with the same plan) promotes too and counts right
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg -fplugin-arg-perfinst-feedback=fb -c "$a" -o ca.o 2> ca.err
assert_contains "counted rebuild: promoted" ca.err "2 call promotions applied \(2 call edges, 1 cold ones left indirect\), 1 skipped"
pi_ld -O2 -o counted ca.o tb.o
PERFINST_OUT=c.pit ./counted > counted.out
cmp o2.out counted.out || fail "the counted rebuild prints something else"
"$PMOPT" dump c.pit | grep ' ICALL ' | awk '{ print $NF }' | sort -n | tr '\n' ' ' > c.icall
assert_eq "counted rebuild: the probes still see every target (100, 9900, 10000, 10000)" "100 9900 10000 10000 " "$(cat c.icall)"
# pmopt relink accepts the kind (the rebuild loop's)
"$PMOPT" plan --promote-calls --order=exttsp --rebuild -o fbo ./train t.pit > /dev/null
"$PMOPT" relink ./train --feedback fbo -o relinked > relink.out 2>&1 || { cat relink.out; fail "relink"; }
assert_contains "relink: promote-call is the rebuild loop's" relink.out "recommendations of the rebuild loop \(branch-profile, function-tier, promote-call\) skipped"
