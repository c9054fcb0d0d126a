# Precompiled headers (CMake's target_precompile_headers, -include of a
# .gch): a header compiled to one with the plugin is parsed and stops
# there, so what the plugin keeps in its own memory does not reach the
# units that include it.  The registration code is made in each including
# unit, not in the header (it was: every all=count unit that used such a
# header failed, "internal compiler error: in lower_function_body" in
# __perfinst_ctor).  Checked, in C and C++: the header's .gch is the one
# used; the counts are those of the same unit without the .gch; a
# directive on a header function's declaration reaches the including unit
# (exact counts); a directive inside a header function, and handler=,
# which would name the plugin's memory, are errors at their line.
. "$PERFINST_TOP/tests/lib.sh"
command -v g++ > /dev/null || skip "g++ is not installed (its C++ cases)"
cp "$T"/plugin/pch/* .
for lang in c c++; do
    case $lang in c) cc=gcc ;; *) cc=g++ ;; esac
    mkdir -p "$lang" && cp pch.h pch.c "$lang"/
    (
        cd "$lang"
        for mode in "-fplugin-arg-perfinst-all=count" ""; do
            rm -f ./*.pit*
            # shellcheck disable=SC2086
            $cc -fplugin="$PLUGIN" -I"$PERFINST_TOP/include" -O2 -g $mode -x "$lang" -c pch.c -o plain.o
            # shellcheck disable=SC2086
            $cc -fplugin="$PLUGIN" -I"$PERFINST_TOP/include" -O2 -g $mode -x "$lang-header" pch.h -o pch.h.gch ||
                fail "$lang: the header compiled to a .gch ${mode:-(directives only)}"
            # shellcheck disable=SC2086
            $cc -fplugin="$PLUGIN" -I"$PERFINST_TOP/include" -O2 -g $mode -H -x "$lang" -c pch.c -o pch.o 2> h.err ||
                fail "$lang: the unit with the .gch ${mode:-(directives only)}: $(grep -m3 -E 'error|internal' h.err)"
            assert_contains "$lang ${mode:-(directives only)}: the .gch used" h.err '^! pch\.h\.gch'
            rm pch.h.gch
            pi_ld -O2 -o plain plain.o
            pi_ld -O2 -o pch pch.o
            assert_eq "$lang ${mode:-(directives only)}: the output" "$(./plain)" "$(PERFINST_OUT=pch.pit ./pch)"
            PERFINST_OUT=plain.pit ./plain > /dev/null
            same_line_counts "$lang ${mode:-(directives only)}: with the .gch, as without" ./pch pch.pit ./plain plain.pit
        done
        # the file-scope pragma on marked(), from the .gch alone
        python3 "$T/count/check-counts.py" "$PMOPT" ./pch pch.h pch.pit > c || { cat c; fail "$lang: the header's directive"; }
        ok "$lang: the header's directive through the .gch: $(tail -1 c)"
    )
done
# what would not reach the including unit: refused where it stands
for h in pchstmt.h:7 pchhandler.h:4; do
    f=${h%:*}
    expect_fail "$f compiled to a .gch" gcc -fplugin="$PLUGIN" -I"$PERFINST_TOP/include" -O2 -x c-header "$f" -o "$f.gch"
    assert_contains "$f: an error at its line" err "^$h:[0-9]+: error: perfinst: .*precompiled header"
    assert_not_contains "$f: no internal error" err "internal compiler error"
done
