# regions.c at -O1 -g, with the real plugin and runtime, through pmopt report:
#  - the named region `walk` is visited 7 times (its region_begin block), and
#    its instructions equal Σ count × ninsns over its other sites, computed
#    here from `pmopt dump-meta` and the per-site csv (not pmopt's own sums);
#  - the trace region started at regions.c:44 saw f entered 5 times (8 in all)
#    in 1 interval;
#  - `typed` (types(branch,call,ret)): dynamic counts = static × count, and the
#    static counts of each range are what objdump disassembles there.
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O1 -g -c "$T/indicators/regions.c" -o regions.o
pi_ld -O1 -o regions regions.o
PERFINST_OUT=r.pit ./regions > out
assert_eq "program output" 191 "$(cat out)"
"$PMOPT" dump-meta regions > meta 2> meta.err
"$PMOPT" report --format=csv --by=site regions r.pit > sites.csv 2> err
"$PMOPT" report --format=json regions r.pit > rep.json 2>> err
"$PMOPT" report regions r.pit > rep.txt 2>> err
cat rep.txt
assert_not_contains "no DWARF note (DW_FORM_implicit_const is read)" err "DWARF"
assert_not_contains "dump-meta: no DWARF note either" meta.err "DWARF"

python3 - <<'PY' || fail "regions, trace region or types differ from the independent computation"
import collections, json, re, subprocess

# ---- dump-meta: the sites (directives, region) and the ranges (the one unit)
sites, ranges = {}, collections.defaultdict(list)
for l in open("meta"):
    m = re.match(r"  site (\d+): block, .*?, counter (\d+|-), ([a-z_|-]+)(.*)", l)
    if m:
        region = re.search(r", region (\S+),", m.group(4))
        sites[int(m.group(1))] = dict(dirs=m.group(3).split("|"),
                                      region=region.group(1) if region else "")
        continue
    f = l.split()
    if len(f) >= 15 and f[0].startswith("0x") and f[4].isdigit():
        addr = int(f[0], 16)
        if addr:   # 0: discarded by the linker
            ranges[int(f[4])].append(dict(addr=addr, length=int(f[2]), insns=int(f[7]),
                                          types=[int(x) for x in f[8:15]]))
count = {int(r["site"]): int(r["count"]) for r in __import__("csv").DictReader(open("sites.csv"))}
rep = json.load(open("rep.json"))

# ---- the region walk
walk = [s for s, v in sites.items() if v["region"] == "walk"]
begin = [s for s in walk if "region_begin" in sites[s]["dirs"]]
assert begin, "no region_begin site in walk"
visits = sum(count[s] for s in begin)
body = [s for s in walk if s not in begin]
insns = sum(count[s] * sum(r["insns"] for r in ranges[s]) / len(ranges[s])
            for s in body if ranges[s])
approx = any(count[s] and len(ranges[s]) != 1 for s in body)
g = [x for x in rep["regions"] if x["region"] == "walk"]
assert len(g) == 1, rep["regions"]
g = g[0]
assert visits == 7 and g["visits"] == 7, (visits, g)
assert abs(g["instructions"] - insns) < 0.01, (g, insns)
assert g["approximate"] == approx, (g, approx)
assert g["blocks"] == sum(count[s] for s in body), g
print("walk: visits %d, instructions %s (independently %s), approximate %s" %
      (g["visits"], g["instructions"], insns, approx))

# ---- the trace region started at regions.c:44
t = [x for x in rep["trace_regions"] if 44 in (x["line"], x["dwarf_line"])]
assert len(t) == 1, rep["trace_regions"]
t = t[0]
fn = {x["function"]: x for x in t["functions"]}
assert t["intervals"] == 1, t
assert fn["f"]["entries"] == 5, fn
f_all = [x for x in rep["functions"] if x["function"] == "f"][0]
assert f_all["entries"] == 8, f_all
print("trace region: %d interval, f entered %d times inside, %d in all" %
      (t["intervals"], fn["f"]["entries"], f_all["entries"]))

# ---- types of typed: static x count, and static = objdump's disassembly
ty = [x for x in rep["types"] if x["function"] == "typed"]
assert len(ty) == 1, rep["types"]
ty = ty[0]
assert ty["types"] == ["branch", "call", "ret"], ty
assert not ty["approximate"], ty
T = {"branch": 0, "call": 1, "ret": 2}
prefixes = {"bnd", "notrack", "rep", "repz", "repnz", "lock", "data16", "cs", "ds"}
def disasm(a, n):
    if n == 0:   # an empty range (a return site whose `ret` is shared: return-site.cc)
        return 0, collections.Counter()
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "--start-address=%d" % a,
                          "--stop-address=%d" % (a + n), "regions"], capture_output=True,
                         text=True, check=True).stdout
    kinds = collections.Counter()
    ninsns = 0
    for l in out.splitlines():
        m = re.match(r"\s+[0-9a-f]+:\t(.*)", l)
        if not m:
            continue
        # perfinst's own instructions (thread-local counter updates, probe
        # calls) are not the program's: the static counts leave them out
        if "%fs:" in m.group(1) or "<__perfinst_" in m.group(1):
            continue
        words = m.group(1).split()
        while words and words[0] in prefixes:
            words = words[1:]
        mn = words[0]
        ninsns += 1
        if mn.startswith("j"):
            kinds["branch"] += 1
        elif mn.startswith("call"):
            kinds["call"] += 1
        elif mn.startswith("ret"):
            kinds["ret"] += 1
    return ninsns, kinds
total = collections.Counter()
for s in ty["sites"]:
    rs = ranges[s["site"]]
    assert len(rs) == 1 and s["ranges"] == 1, ("at -O1 each site of typed has one range", s, rs)
    r = rs[0]
    ninsns, kinds = disasm(r["addr"], r["length"])
    assert ninsns == r["insns"], ("instructions in the range", s["site"], ninsns, r)
    for k, i in T.items():
        assert r["types"][i] == kinds[k], ("static %s of site %d: metadata %d, objdump %d" %
                                           (k, s["site"], r["types"][i], kinds[k]))
        assert s["static"][k] == r["types"][i], (s, r)
        assert s["dynamic"][k] == r["types"][i] * s["count"] == r["types"][i] * count[s["site"]], s
        total[k] += s["dynamic"][k]
    print("typed site %d: count %d, static %s = objdump %s" %
          (s["site"], s["count"], {k: r["types"][i] for k, i in T.items()}, dict(kinds)))
assert ty["dynamic"] == {k: total[k] for k in T}, (ty["dynamic"], total)
print("typed: dynamic %s" % ty["dynamic"])
PY
ok "walk visits 7; instructions, trace region and types agree with dump-meta, csv and objdump"
assert_contains "text: the region walk" rep.txt "^ +7 +[0-9]+ +~?[0-9.]+  walk +main "
assert_contains "text: the trace region starts at regions.c:44" rep.txt "^  start main .*regions\.c:44"
assert_contains "text: f entered 5 times inside" rep.txt "^ +5 +5  f +"
