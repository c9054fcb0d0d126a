# pmopt relink refuses, with a clear message, and never leaves a broken OUT:
# a program without a recorded link; a stale input (named); hot functions
# in a shared .text (-fno-function-sections: named); a link of its own -T
# script; a failed link (a perfinst-ld that writes half an output and
# fails); a smoke test whose output differs.  In every case an existing
# OUT keeps its bytes and no temporary is left beside it.  Also: the
# plugin's `sections` argument gives the objects their sections, and the
# plugin accepts the relink kinds of a feedback file silently.
. "$PERFINST_TOP/tests/lib.sh"
# (all=count gives every function a section of its own by itself: the
# sections argument is checked without it)
pi_cc -O2 -fplugin-arg-perfinst-sections -c "$T/relink/hot.c" -o sec.o
readelf -SW sec.o | grep -q '\.text\.parse ' || fail "the sections argument gave no .text.parse"
pi_cc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections -c "$T/relink/hot.c" -o hot.o
ok "-fplugin-arg-perfinst-sections: one section per function"
pi_ld -O2 -o hot hot.o
PERFINST_OUT=t.pit ./hot 500 > /dev/null
"$PMOPT" plan --order=c3 -o fb hot t.pit > /dev/null
echo "previous" > OUT
unchanged() { # what
    assert_eq "$1: OUT unchanged" previous "$(cat OUT)"
    ls -d .pmopt-relink.* 2>/dev/null && fail "$1: a temporary was left"
    ok "$1: nothing left behind"
}

# no recorded link
gcc -O2 -o plain "$T/relink/hot.c"
expect_fail "no recorded link" "$PMOPT" relink plain --feedback fb -o OUT
assert_contains "no recorded link: the message" err "plain has no recorded link \(\.perfinst\.link\).*perfinst-ld"
unchanged "no recorded link"

# a stale input
cp hot.o keep.o
pi_cc -O1 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections -c "$T/relink/hot.c" -o hot.o
expect_fail "stale input" "$PMOPT" relink hot --feedback fb -o OUT
assert_contains "stale input: named" err "input .*/hot\.o changed (size|contents) since the link \(stale\)"
unchanged "stale input"
cp keep.o hot.o
touch hot.o  # same bytes, new mtime: not stale
"$PMOPT" relink hot --feedback fb -o good > /dev/null || fail "same contents, new mtime refused"
ok "an input with the same contents and a new mtime is not stale"

# a shared object that changed since the link is not stale (none of its
# code is placed): a note, and the relink links against it as it is now
printf 'int tiny(void) { return 1; }\n' > tiny.c
gcc -O2 -shared -fPIC -o libtiny.so tiny.c
pi_ld -O2 -o withso hot.o "$PWD/libtiny.so"
PERFINST_OUT=so.pit ./withso 500 > /dev/null
"$PMOPT" plan --order=c3 -o so.fb withso so.pit > /dev/null
printf 'int tiny(void) { return 2; }\nint tiny2(void) { return 3; }\n' > tiny.c
gcc -O2 -shared -fPIC -o libtiny.so tiny.c
"$PMOPT" relink withso --feedback so.fb -o withso.rel --smoke 500 > so.out 2> so.err ||
    fail "a changed shared object was refused: $(cat so.err)"
assert_contains "changed shared object: a note" so.err "shared object .*/libtiny\.so changed (size|contents) since the link; relinking against it as it is now"
assert_not_contains "changed shared object: not stale" so.err "stale"
mv libtiny.so gone.so
expect_fail "a shared object that is gone" "$PMOPT" relink withso --feedback so.fb -o OUT
assert_contains "gone shared object: named" err "input .*/libtiny\.so is gone since the link \(stale\)"
unchanged "gone shared object"

# functions in a shared .text, and nothing else to place: refused (a
# plan of which only some functions are in a shared .text is applied to the
# rest: t-unplaceable.sh)
pi_cc -O2 -fplugin-arg-perfinst-all=count -fno-function-sections -c "$T/relink/hot.c" -o shared.o
pi_ld -O2 -o shared shared.o
expect_fail "shared .text" "$PMOPT" relink shared --feedback fb -o OUT --force
assert_contains "shared .text: the function and object named" err "shared\.o: parse: in the shared \.text section"
assert_contains "shared .text: what to do" err "compile the objects with -ffunction-sections"
assert_contains "shared .text: why refused" err "nothing of the plan can be placed"
unchanged "shared .text"

# a version 1 recipe (perfinst-ld before the link stage: a gcc command
# line): still read (dump-meta), refused by relink with what to do
python3 "$T/relink/link-v1.py" v1.bin "$PWD" old gcc -O2 -o old hot.o -Wl,--build-id -L"$B" \
    -Wl,-rpath,"$B" -lperfinst -pthread
objcopy --remove-section .perfinst.link --add-section .perfinst.link=v1.bin hot old
"$PMOPT" dump-meta old > old.meta
assert_contains "a version 1 recipe is read" old.meta 'link recipe \(\.perfinst\.link, version 1, a gcc command line\)'
expect_fail "a version 1 recipe" "$PMOPT" relink old --feedback fb -o OUT
assert_contains "version 1: why and what to do" err "old: its link recipe is version 1.*: link old again"
unchanged "version 1 recipe"

# a link with its own linker script
ld --verbose | sed -n '/^=====/,/^=====/p' | sed '1d;$d' > own.ld
pi_ld -O2 -o scripted hot.o -T own.ld
expect_fail "own -T script" "$PMOPT" relink scripted --feedback fb -o OUT
assert_contains "own -T script: named" err "linked with a linker script or order of its own \(-T own.ld\)"
unchanged "own -T script"

# a link that fails after writing half its output
cat > badld <<'S'
#!/bin/sh
# a perfinst-ld that writes part of its output, then fails
prev=
for a; do [ "$prev" = -o ] && printf 'half an ELF' > "$a"; prev=$a; done
exit 1
S
chmod +x badld
PERFINST_LD=$PWD/badld expect_fail "failed link" "$PMOPT" relink hot --feedback fb -o OUT
assert_contains "failed link: said" err "the link failed \(perfinst-ld exit status 1\): OUT is left as it was"
unchanged "failed link"

# a smoke test that differs (the program prints its own path)
expect_fail "smoke test" "$PMOPT" relink hot --feedback fb -o OUT --smoke '5 self'
assert_contains "smoke test: said" err "smoke test '5 self': hot and the relinked program differ"
unchanged "smoke test"

# a selection that names no recommendation, a corrupt plan
expect_fail "--only 9" "$PMOPT" relink hot --feedback fb --only 9 -o OUT
assert_contains "--only 9: said" err "9"
head -c 40 fb > cut.fb
expect_fail "truncated plan" "$PMOPT" relink hot --feedback cut.fb -o OUT
assert_contains "truncated plan: named" err "cut\.fb"
unchanged "bad plans"

# success replaces OUT
"$PMOPT" relink hot --feedback fb -o OUT --smoke 300 > out
./OUT 300 > b.out; ./hot 300 > a.out
cmp a.out b.out || fail "relinked output differs"
ok "a good relink replaces OUT; same output"

# the plugin accepts the relink kinds silently
pi_cc -O2 -fplugin-arg-perfinst-feedback=fb -c "$T/relink/hot.c" -o fbk.o 2> cc.err
assert_not_contains "the plugin does not warn about relink kinds" cc.err "not one this plugin applies"
