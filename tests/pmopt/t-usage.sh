#!/bin/bash
# pmopt's command line: --help, --version, exit statuses 0 (ok), 1 (error),
# 2 (usage).
source "$PERFINST_TOP/tests/lib.sh"
source "$T/pmopt/fixture.sh"

run_pmopt --help
assert_eq "--help: status" 0 "$rc"
for c in dump-meta report merge plan dump; do assert_contains "--help lists $c" out "^  $c "; done
run_pmopt --version
assert_eq "--version: status" 0 "$rc"
assert_contains "--version" out "^pmopt \(perfinst\) [0-9]+\.[0-9]+\.[0-9]+$"
assert_contains "--version: format versions" out "^formats: metadata 2, trace 1$"
for c in dump-meta report merge plan dump; do
    run_pmopt $c --help
    assert_eq "$c --help: status" 0 "$rc"
    assert_contains "$c --help: usage" out "^usage: pmopt $c "
    run_pmopt help $c
    assert_eq "help $c: status" 0 "$rc"
done

usage() { # WHAT ARGS...
    local what=$1; shift
    run_pmopt "$@"
    assert_eq "$what: status 2" 2 "$rc"
    assert_contains "$what: points to --help" err "'pmopt .*--help'"
}
usage "no command"
usage "unknown command" frobnicate
usage "dump-meta without a file" dump-meta
usage "dump-meta with two files" dump-meta a b
usage "dump without a trace" dump
usage "report without traces" report prog
usage "report with a bad format" report --format=xml prog t.pit
usage "report with a bad --by" report --by=file prog t.pit
usage "report with a bad --top" report --top=many prog t.pit
usage "report with an unknown option" report --frob prog t.pit
usage "merge without -o" merge t.pit
assert_contains "merge: what is missing" err "merge: -o OUT is required"
usage "plan without -o, --advise or --stats" plan prog t.pit
assert_contains "plan: what is missing" err "plan: expected -o FEEDBACK, --advise or --stats"
usage "plan --stats with -o" plan --stats -o o.fb prog t.pit
usage "plan --tier-hot=0" plan --tier-hot=0 -o o.fb prog t.pit
usage "plan without -o" plan --hot prog t.pit
assert_contains "plan: -o is missing" err "plan: expected -o OVERLAY"
usage "plan with -o and --advise" plan --hot --advise -o o.ov prog t.pit
usage "plan without traces" plan --hot -o o.ov prog
for p in 0 101 100.5 abc 50% .5 5. 1.2345 -3 ''; do
    usage "plan --hot=$p" plan --hot="$p" -o o.ov prog t.pit
    assert_contains "plan --hot=$p: says why" err "is not a percentage in \(0, 100\]"
done
usage "plan with an unknown option" plan --hot --frob -o o.ov prog t.pit
[ ! -e o.ov ] || fail "a usage error wrote the overlay"

run_pmopt dump-meta /nonexistent/file
assert_eq "a missing file: status 1" 1 "$rc"
assert_contains "a missing file: named" err "^pmopt: /nonexistent/file: No such file or directory"
