#!/bin/bash
# pmopt report --html with every view fed: html-full.c, built with
# -fplugin-arg-perfinst-sharing=all and run with PERFINST_SAMPLE, has stack
# samples and sharing records.  check-html-full.py parses the page (flame
# graph and sharing sections collected, spin_hot the hot frame under
# run_phase and main, `slots` falsely shared with 1998 false reloads, the
# heat map naming slots[0] and slots[1]); the embedded SVGs are byte for
# byte the ones `pmopt export --flamegraph` and `report --sharing
# --heatmap` write (one writer per view); headless Chromium renders the
# page to a non-blank screenshot.
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -g -fplugin-arg-perfinst-sharing=all -c "$T/pmopt/html-full.c" -o hf.o
pi_ld -O2 -o hf hf.o -pthread
# PERFINST_SHARING_PERIOD=1: sharing's exact mode, for the exact 1998 reloads
PERFINST_SHARING_PERIOD=1 PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=hf.pit ./hf 100000000 > run.out
assert_eq "the program's output" "0 1000 1000" "$(cat run.out)"
"$PMOPT" report --html=out.html ./hf hf.pit > out 2> err
assert_eq "nothing on stdout" "" "$(cat out)"
assert_eq "nothing on stderr" "" "$(cat err)"
python3 "$T/pmopt/check-html-full.py" out.html > check.out || { cat check.out; fail "the page"; }
ok "$(tail -1 check.out)"

# one writer per view: the page embeds the export's SVGs, without the XML
# declaration a file has
svg_of() { # CLASS: the first <svg ... class="CLASS" ...> element of out.html
    awk -v c="class=\"$1\"" 'index($0, "<svg ") == 1 && index($0, c) {on = 1} on {print} on && /^<\/svg>$/ {exit}' out.html
}
"$PMOPT" export --flamegraph fg.svg --title "sampled stacks of hf" ./hf hf.pit
tail -n +2 fg.svg > fg.body
svg_of pi-flame > fg.page
[ -s fg.page ] || fail "no flame graph in the page"
cmp -s fg.body fg.page || { diff fg.body fg.page | head; fail "the page's flame graph differs from export --flamegraph"; }
ok "the page's flame graph is export --flamegraph's ($(grep -c '<rect' fg.page) rects)"
"$PMOPT" report --sharing --top=20 --heatmap=hm.svg ./hf hf.pit > /dev/null
tail -n +2 hm.svg > hm.body
svg_of pi-heatmap > hm.page
[ -s hm.page ] || fail "no heat map in the page"
cmp -s hm.body hm.page || { diff hm.body hm.page | head; fail "the page's heat map differs from report --sharing --heatmap"; }
ok "the page's heat map is report --sharing --heatmap's"

screenshot out.html 1280,2400
