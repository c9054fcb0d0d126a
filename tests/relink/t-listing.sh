#!/bin/bash
# A link that also writes a map and talks (BusyBox's scripts/trylink:
# -Wl,-Map,busybox_unstripped.map -Wl,--verbose, with --sort-section and
# --gc-sections): the relink replays it without them (cmd-relink.c,
# listing_option).  Before, each relink overwrote the program's map with the
# relinked copy's and printed ld's default script and every file it tried.
. "$PERFINST_TOP/tests/lib.sh"
cp "$T/relink/pair-lib.c" lib.c
cp "$T/relink/pair-main.c" main.c
F="-O2 -fplugin=$PLUGIN -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections -ffunction-sections"
pi_ld $F -c lib.c -o lib.o
pi_ld $F -c main.c -o main.o
for form in "-Wl,-Map,prog.map -Wl,--verbose" "-Wl,-Map=prog.map -Wl,--cref -Wl,-t"; do
    rm -f prog.map
    # shellcheck disable=SC2086
    pi_ld -O2 -o prog -Wl,--sort-section,alignment -Wl,--gc-sections $form main.o lib.o > link.out
    [ -s prog.map ] || fail "$form: the link wrote no map"
    sum=$(md5sum < prog.map)
    PERFINST_OUT=t.pit ./prog > out
    "$PMOPT" plan --order=exttsp --rebuild -o prog.fb prog t.pit > plan.out 2> plan.err || { cat plan.err; fail "plan"; }
    "$PMOPT" relink prog --feedback prog.fb -o prog.relinked > rel.out 2> rel.err || { cat rel.err; fail "$form: relink"; }
    assert_eq "$form: the program's map is as the link left it" "$sum" "$(md5sum < prog.map)"
    assert_not_contains "$form: no ld chatter on relink's output" rel.out 'GNU ld|attempt to open|Linker script|^/.*crt1\.o$'
    assert_contains "$form: the relink placed the order" rel.out "functions in the planned order"
    assert_eq "$form: the relinked program's output" "$(cat out)" "$(./prog.relinked)"
done
