# A never-run `return 0;` whose one return GCC reaches through a forwarder
# block that every `return 0` of the function goes through (Tcl 8.6's
# Tcl_RegexpObjCmd: its `about` branch's `return TCL_OK;`, tclCmdMZ.c:249,
# listed with every call's count, 20,000, where gcov -O0 says 0; and a
# variable's, TclCompileObj's `return codePtr;`, tclExecute.c:1766): the
# PHI argument's line goes to the forwarder's in-edge from the code right
# before it alone (retfwd.c's @never and @vnever: 0 as gcov -O0 says, not 100; @quest,
# a later `return 0;`, 25), not to the forwarder; a label block every goto runs
# (@bad) keeps their count; every line gcov -O2 lists has its count.
. "$PERFINST_TOP/tests/lib.sh"
. "$T/count/gcov-lines-fixture.sh" retfwd.c rf
# (none of the three is a line gcov -O2 lists: the returns are one; gcov
# -O0 lists them with these counts)
assert_eq "cmd's never-run return 0 (about is 0 on every call): 0, as gcov -O0 (was 100)" 0 "$(at '@never')"
assert_eq "compile's never-run return codePtr (invoker is never NULL): 0, as gcov -O0 (was 100)" 0 "$(at '@vnever')"
assert_eq "cmd's return 0 after a '?': 25 of 100 calls" 25 "$(at '@quest')"
assert_eq "chk's label return: 47 of 100 calls go to bad" 47 "$(at '@bad')"
