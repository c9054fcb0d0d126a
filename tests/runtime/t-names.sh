#!/bin/bash
# Trace file names: PERFINST_OUT templates, never clobbering an existing
# file or following a symlink, rewriting in place, and an unwritable place
# reported once without changing the program's exit status.
. "$PERFINST_TOP/tests/lib.sh"
. "$T/runtime/fixture.sh"

build_prog prog "$R/prog.c"

PERFINST_OUT='out.%p.pit' ./prog count 2
f=$(only_trace "out.*.pit")
dump "$f"
assert_eq "%p is the pid" "out.$(pid_of "$f.txt").pit" "$f"
PERFINST_OUT='%e-%p-100%%.pit' ./prog.static count 2
f=$(only_trace "prog.static-*-100%.pit")
dump "$f"
assert_eq "%e and %%" "prog.static-$(pid_of "$f.txt")-100%.pit" "$f"
mkdir sub
PERFINST_OUT="$PWD/sub/abs.pit" ./prog count 2
dump sub/abs.pit
ok "absolute plain name used as is"

# An existing file keeps its contents; the trace goes to <stem>.<pid><ext>,
# which the user's glob *.pit finds (and pmopt merge *.pit reads).
echo precious > keep.pit
PERFINST_OUT=keep.pit ./prog count 2
assert_eq "existing file untouched" precious "$(cat keep.pit)"
f=$(only_trace "keep.*.pit")
dump "$f"
assert_eq "<stem>.<pid>.pit" "keep.$(pid_of "$f.txt").pit" "$f"
assert_eq "*.pit finds it" "keep.$(pid_of "$f.txt").pit" "$(ls *.pit | grep '^keep\.[0-9]')"
# No extension (or only a leading dot): .<pid> at the end.
echo precious > plain
PERFINST_OUT=plain ./prog count 2
f=$(only_trace "plain.*")
dump "$f"
assert_eq "<name>.<pid> without an extension" "plain.$(pid_of "$f.txt")" "$f"
mkdir dot.d
echo precious > dot.d/.pit
PERFINST_OUT=dot.d/.pit ./prog count 2
f=$(cd dot.d && ls -a | grep '^\.pit\.[0-9]*$')
dump "dot.d/$f"
assert_eq "a leading dot is no extension" ".pit.$(pid_of "dot.d/$f.txt")" "$f"

# A symlink at the name is not followed (nor a dangling one).
echo target > target.txt
ln -s target.txt link.pit
ln -s missing.txt dangling.pit
PERFINST_OUT=link.pit ./prog count 2
PERFINST_OUT=dangling.pit ./prog count 2
assert_eq "symlink target untouched" target "$(cat target.txt)"
[ -L link.pit ] && [ -L dangling.pit ] || fail "a symlink was replaced"
[ -e missing.txt ] && fail "followed a dangling symlink"
dump "$(only_trace "link.*.pit")"
dump "$(only_trace "dangling.*.pit")"
ok "symlinks not followed"

# <name> and <stem>.<pid><ext> both taken: <stem>.<pid>.1<ext>
sh -c 'touch two.pit two.$$.pit; PERFINST_OUT=two.pit exec ./prog count 2'
f=$(only_trace "two.*.1.pit")
dump "$f"
assert_eq "<stem>.<pid>.1.pit" "two.$(pid_of "$f.txt").1.pit" "$f"
assert_eq "taken names untouched" "0" "$(cat two.pit two.$(pid_of "$f.txt").pit | wc -c)"

# Rewritten in full, in the same file: two explicit writes and exit.
st=0
PERFINST_VERBOSE=1 ./prog write 5 3 > out 2> err || st=$?
assert_eq "exit status kept" 3 "$st"
f=$(only_trace "perfinst.prog.*")
dump "$f"
assert_contains "final counts" "$f.txt" "^counts unit=0xa11ce module=0 ncounters=3 counts=15,0,0$"
assert_eq "three writes, one file" "3 1" "$(grep -c "trace written to $PWD/$f\$" err) $(sort -u err | wc -l)"
assert_eq "no temporary file left" "" "$(ls | grep tmp || true)"
rm -f perfinst.*

# An unwritable place: one message, the program runs on unchanged.
for p in prog prog.static; do
    st=0
    PERFINST_OUT="$PWD/no-such-dir/t.pit" ./$p write 5 3 > out 2> err || st=$?
    assert_eq "$p: exit status unchanged" 3 "$st"
    assert_eq "$p: one message" 1 "$(wc -l < err)"
    assert_contains "$p: message" err "^perfinst: cannot write the trace $PWD/no-such-dir/t.pit: No such file or directory$"
    assert_eq "$p: perfinst_write_trace returned -1" 2 "$(grep -c 'write failed' out)"
done

# A character device (PERFINST_OUT=/dev/null: no trace wanted) is written in
# place, all three times: no <name>.<pid> beside it, no temporary file.
for p in prog prog.static; do
    st=0
    PERFINST_OUT=/dev/null PERFINST_VERBOSE=1 ./$p write 5 3 > out 2> err & pid=$!
    wait $pid || st=$?
    assert_eq "$p: /dev/null: exit status unchanged" 3 "$st"
    assert_eq "$p: /dev/null: three writes" "3 1" "$(grep -c "trace written to /dev/null\$" err) $(sort -u err | wc -l)"
    assert_eq "$p: /dev/null: both calls succeeded" 0 "$(grep -c 'write failed' out || true)"
    [ ! -e "/dev/null.$pid" ] && [ ! -e /dev/null.tmp ] || fail "$p: a file beside /dev/null"
    [ -c /dev/null ] || fail "$p: /dev/null is no longer a character device"
    ok "$p: nothing written beside /dev/null"
done
