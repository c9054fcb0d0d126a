#!/bin/bash
# The plugin with nothing to do changes nothing: sources without any
# directive, compiled with -fplugin and without, give the same assembly
# byte for byte (docs/design.md, "Cost").  Before the counting-copy pass
# asked whether the unit had anything instrumented (pi_unit_instrumented)
# it took every function's body out of turn at the end of IPA
# (cgraph_node::get_body: clones materialised and IPA transforms applied
# in the symbol table's order), which renumbered the C++ functions'
# .LFB/.LFE labels here and, in sqlite3.c, changed the order functions
# were emitted in and so, through -fipa-ra, the registers of 14 of them
# (bench/RESULTS.md, 2026-11-29).
# One difference is legitimate and kept out: with -g, DW_AT_producer
# records the command line, -fplugin=... included, so those compiles use
# -gno-record-gcc-switches.  No other line is removed.
source "$PERFINST_TOP/tests/lib.sh"
srcs="$T/count/flow.c $T/count/icallcache.c $T/count/clone.c $T/export/work.c
      $T/cxx/comdat-a.cc $T/adopt/src/sorted.cc $T/sharing/ctor-pool.cc"
for f in $srcs; do
    ! grep -qi perfinst "$f" || fail "$f mentions perfinst: not a source without directives"
done

# same_asm WHAT SRC FLAGS...: the .s of SRC with and without the plugin
same_asm() {
    local what=$1 f=$2; shift 2
    local cc=gcc
    case $f in *.cc) cc=g++ ;; esac
    $cc -S -I"$(dirname "$f")" "$@" "$f" -o plain.s
    $cc -S -I"$(dirname "$f")" -fplugin="$PLUGIN" "$@" "$f" -o pi.s
    if ! cmp -s plain.s pi.s; then
        diff plain.s pi.s | head -20 >&2
        fail "$what: $(basename "$f") $*: the plugin without directives changed the assembly"
    fi
    ok "$what: $(basename "$f") $*"
}

for f in $srcs; do
    same_asm "no directives" "$f" -O2
    same_asm "no directives" "$f" -O3
    same_asm "no directives" "$f" -O2 -g -gno-record-gcc-switches -Wall
done

# the comparison can fail: the same source with all=count is another .s
gcc -S -O2 "$T/count/flow.c" -o plain.s
pi_cc -S -O2 -fplugin-arg-perfinst-all=count "$T/count/flow.c" -o count.s
! cmp -s plain.s count.s || fail "all=count gave the plain assembly: is the plugin loaded?"
ok "all=count changes the assembly (the comparison can fail)"
