#!/bin/bash
# pmopt export --pprof read by pprof itself (github.com/google/pprof, built
# from Debian's golang-github-google-pprof-dev by setup.sh; SKIP when it
# cannot be): -top gives the fixture's exact entries and block executions;
# -diff_base of two runs gives the exact difference (spinner's loop ran half
# as often: 300000000 executions fewer); -symbolize=force finds the PIE by
# its build-id under PPROF_BINARY_PATH and names the same functions and
# lines from its DWARF, and refuses a binary with another build-id.  `go
# tool pprof` (Go's copy, no build-ids) reads the same file.
# timeout: 600
source "$PERFINST_TOP/tests/lib.sh"
source "$T/export/setup.sh"
build_work
need_pprof
run_work a.pit 200 2000000 PERFINST_SAMPLE=cpu:1ms
run_work b.pit 200 1000000 PERFINST_SAMPLE=cpu:1ms
"$PMOPT" export --pprof a.pb.gz ./work a.pit
"$PMOPT" export --pprof b.pb.gz ./work b.pit

# flat VALUE of NAME in `pprof -top` output FILE (the first row named so)
flat() { awk -v n="$2" '$NF == n {print $1; exit}' "$1"; }

"$PPROF" -top -nodefraction=0 -sample_index=entries a.pb.gz > top 2> err || { cat err; fail "pprof -top"; }
assert_contains "the profile's type" top "^Type: entries$"
assert_eq "pprof: spinner entries" 200 "$(flat top spinner)"
assert_eq "pprof: middle entries" 200 "$(flat top middle)"
assert_eq "pprof: main entries" 1 "$(flat top main)"
"$PPROF" -top -nodefraction=0 -sample_index=executions a.pb.gz > top
assert_eq "pprof: spinner block executions" 600000600 "$(flat top spinner)"
"$PPROF" -top -nodefraction=0 -lines -sample_index=executions a.pb.gz > lines
assert_contains "pprof -lines: the loop test" lines "^ *300000200 .* spinner work.c:21$"
"$PPROF" -top -nodefraction=0 -sample_index=samples a.pb.gz > samples
assert_contains "pprof: timer samples in spinner, under main" samples "^ +[1-9][0-9]* .* spinner$"
assert_contains "pprof: main's cumulative samples" samples "^ +0 +0% .* main$"

# what changed between the runs, exactly
"$PPROF" -top -nodefraction=0 -sample_index=executions -diff_base=a.pb.gz b.pb.gz > diff 2> err ||
    { cat err; fail "pprof -diff_base"; }
assert_eq "-diff_base: spinner executions" -300000000 "$(flat diff spinner)"
"$PPROF" -top -nodefraction=0 -lines -sample_index=executions -diff_base=a.pb.gz b.pb.gz > diffl
assert_contains "-diff_base -lines: the loop test" diffl "^ *-150000000 .* spinner work.c:21$"

# symbolized again from the program, found by build-id (not by its path):
# the names are then the program's symbols (perfinst's counting copies,
# F.count.N) and the files its DWARF's (absolute), where the export has
# pmopt's names (F, work.c).  pprof puts each sample on its address's
# line: spinner's entry block (200 executions) has no counter of its own
# (its count is solved from the arcs), so its first address is the loop
# test's and one DWARF line holds both: 300000200 + 200 (21, the loop
# test's; or 20, `s = 0`, where the copy's code opens with the loop's
# counters loaded into registers, as clean-copies=final's store motion does)
bid=$(readelf -nW work | sed -n 's/.*Build ID: \([0-9a-f]*\)$/\1/p')
mkdir -p "bins/$bid"
mv work "bins/$bid/work"
PPROF_BINARY_PATH=$PWD/bins "$PPROF" -symbolize=force -top -nodefraction=0 -lines \
    -sample_index=executions a.pb.gz > sym 2> err || { cat err; fail "pprof -symbolize=force"; }
assert_contains "symbolized from the PIE: spinner's loop test and entry" sym \
    "^ *300000400 .* spinner\.count\.[0-9]+ /.*/work\.c:2[01]$"
assert_not_contains "no build-id complaint" err "mismatch"
# another build under that build-id's name is refused
pi_cc -O1 -g -fplugin-arg-perfinst-all=count -c work.c -o other.o
pi_ld -g -O1 -o "bins/$bid/work" other.o
PPROF_BINARY_PATH=$PWD/bins "$PPROF" -symbolize=force -top -nodefraction=0 -lines \
    -sample_index=executions a.pb.gz > nosym 2> err || true
assert_contains "another build-id is refused" err "build-id mismatch \($bid != [0-9a-f]+\)"
assert_contains "the export's own names stay" nosym "^ *300000200 .* spinner work\.c:21$"
assert_not_contains "nothing is named from the other build" nosym "\.count\."

# a truncated stack (a leaf without CFI that pushed, called through a
# pointer: the walk stops in it)
# hangs from [truncated], as in pmopt's own tree
gcc -O2 -g -c "$T/sampling/nocfi.c" -o nocfi.o
pi_ld --pi-runtime -O2 -o nocfi nocfi.o
PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=p.pit ./nocfi 300000000 indirect > /dev/null
"$PMOPT" export --pprof p.pb.gz ./nocfi p.pit
"$PPROF" -traces p.pb.gz > ptraces 2> err || { cat err; fail "pprof -traces"; }
python3 - ptraces <<'PY' || { cat ptraces; fail "pprof: spin_push's stacks end in [truncated]"; }
import sys
traces = open(sys.argv[1]).read().split("-----------+")
stacks = [[l.split()[-1] for l in t.strip().splitlines() if l.strip() and not l.lstrip().startswith(("File:", "Type:", "Time:", "Duration:", "Showing"))] for t in traces]
push = [s for s in stacks if s and "spin_push" in s]
sys.exit(not push or any(s[-1] != "[truncated]" for s in push))
PY
ok "pprof: spin_push's stacks end in [truncated]"

# Go's own copy of pprof reads the file too
if command -v go > /dev/null; then
    go tool pprof -top -nodefraction=0 -sample_index=entries a.pb.gz > gotop 2> err ||
        { cat err; fail "go tool pprof"; }
    assert_eq "go tool pprof: spinner entries" 200 "$(flat gotop spinner)"
fi
