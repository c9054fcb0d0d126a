#!/bin/bash
# pmopt export --speedscope and --chrome opened in speedscope (the npm
# registry's package, its local copy, installed into a cache by setup.sh)
# in headless Chromium, from local files; the screenshots, read by
# tesseract (ocr.py), show the fixture's frames _start, main, outer,
# middle and spinner.  SKIP where Chromium, tesseract or speedscope cannot
# be had.  Before that, the files themselves: the speedscope profile's
# samples (root first, weighted in nanoseconds: periods x 1 ms) and its
# exact block executions per function; the Chrome trace's sample timeline
# (spinner's events inside middle's, inside outer's).
# timeout: 600
source "$PERFINST_TOP/tests/lib.sh"
source "$T/export/setup.sh"
build_work
run_work w.pit 200 2000000 PERFINST_SAMPLE=cpu:1ms
"$PMOPT" export --speedscope w.speedscope.json --chrome trace.json ./work w.pit > out 2> err ||
    { cat err; fail "export --speedscope --chrome"; }
periods=$("$PMOPT" report --tree ./work w.pit | sed -n 's/.*samples for \([0-9]*\) periods.*/\1/p')
python3 - "$periods" <<'PY' || fail "the files"
import json, sys
periods = int(sys.argv[1])
s = json.load(open("w.speedscope.json"))
assert s["$schema"] == "https://www.speedscope.app/file-format-schema.json"
fr = s["shared"]["frames"]
p = s["profiles"][0]
assert p["type"] == "sampled" and p["unit"] == "nanoseconds" and p["name"].startswith("cpu samples: thread "), p["name"]
assert sum(p["weights"]) == p["endValue"] == periods * 1000000, (sum(p["weights"]), periods)
stacks = [[fr[i]["name"] for i in st] for st in p["samples"]]
spin = [st for st in stacks if st[-1] == "spinner"]
assert spin and all(st[0] == "_start" and st[-4:] == ["main", "outer", "middle", "spinner"] for st in spin), stacks[:3]
assert 10 * len(spin) >= 9 * len(stacks), (len(spin), len(stacks))
c = s["profiles"][-1]
assert c["name"].startswith("block executions") and c["unit"] == "none"
counts = {fr[st[0]]["name"]: w for st, w in zip(c["samples"], c["weights"])}
assert counts["spinner"] == 600000600 and counts["middle"] == 600 and counts["main"] == 5, counts
sp = [f for f in fr if f["name"] == "spinner"]
assert len(sp) == 1 and sp[0]["file"] == "work.c" and sp[0]["line"] == 18, sp
t = json.load(open("trace.json"))
ev = [e for e in t["traceEvents"] if e.get("ph") == "X" and e.get("cat") == "sample"]
by = lambda n: [e for e in ev if e["name"] == n]
inside = lambda a, b: b["ts"] <= a["ts"] and a["ts"] + a["dur"] <= b["ts"] + b["dur"] + 1e-3
for name, parent in (("spinner", "middle"), ("middle", "outer"), ("outer", "main")):
    assert by(name) and all(any(inside(a, b) for b in by(parent)) for a in by(name)), name
assert by("spinner")[0]["args"]["line"] == 18
print("ok: %d samples, %d in spinner" % (len(stacks), len(spin)))
PY
ok "speedscope profile and Chrome timeline"

command -v chromium > /dev/null || skip "chromium is not installed (scripts/deps.sh installs it)"
command -v tesseract > /dev/null || skip "tesseract is not installed (scripts/deps.sh installs tesseract-ocr)"
need_npm speedscope
ss=$NODE_PATH/speedscope/dist/release/index.html
[ -e "$ss" ] || fail "no $ss in the speedscope package"
# shot FILE NAME: open FILE in speedscope as its command line does (a script
# that hands the file over, #localProfilePath=) and take a screenshot NAME.png
shot() {
    python3 - "$1" "$2.js" <<'PY'
import base64, json, os, sys
data = open(sys.argv[1], "rb").read()
open(sys.argv[2], "w").write("speedscope.loadFileFromBase64(%s, %s)" % (
    json.dumps(os.path.basename(sys.argv[1])), json.dumps(base64.b64encode(data).decode())))
PY
    # --no-sandbox: the sandbox refuses to run as root, as CI does
    timeout 120 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$PWD/chromium" \
        --enable-logging=stderr --v=0 --virtual-time-budget=5000 --force-device-scale-factor=2 \
        --window-size=1000,500 --screenshot="$PWD/$2.png" "file://$ss#localProfilePath=$PWD/$2.js" \
        > "$2.log" 2>&1 || { tail "$2.log"; fail "chromium could not open speedscope"; }
    [ -s "$2.png" ] || { tail "$2.log"; fail "no screenshot of $1"; }
    ! grep -q "Failed to load format" "$2.log" || { grep CONSOLE "$2.log"; fail "speedscope could not read $1"; }
}
shot w.speedscope.json ss
assert_contains "speedscope read it as its own format" ss.log "Importing as speedscope json file"
python3 "$T/export/ocr.py" ss.png _start main outer middle spinner > ocr.out || { cat ocr.out; fail "speedscope's picture"; }
ok "speedscope shows $(sed -n 's/^read: //p' ocr.out)"
shot trace.json chrome
assert_contains "speedscope read the Chrome trace" chrome.log "Importing as Trace Event Format profile"
python3 "$T/export/ocr.py" chrome.png _start main outer middle spinner > ocr.out || { cat ocr.out; fail "the Chrome trace's picture"; }
ok "the Chrome trace shows $(sed -n 's/^read: //p' ocr.out)"
