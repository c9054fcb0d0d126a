#!/bin/bash
# bench/link-stage.sh [--rounds N] [--record] — what perfinst's link stage
# costs a build (docs/adopting.md): the same link with and without
# `pkg-config --libs perfinst` (which runs the stage in place of collect2),
# and the autotools fixture's ./configure (tests/adopt/auto) plain and with
# the flags, interleaved round by round.  CPU time (user+sys of the
# children) and wall time, medians over the rounds.  No download.
# --record appends the result to bench/RESULTS.md.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rounds=10
record=0
while [ $# -gt 0 ]; do
    case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --record) record=1; shift ;;
    *) echo "usage: bench/link-stage.sh [--rounds N] [--record]" >&2; exit 2 ;;
    esac
done
work=$top/bench/.work/link-stage
rm -rf "$work"; mkdir -p "$work"; cd "$work"
export PKG_CONFIG_PATH=$top/build
PI_CFLAGS=$(pkg-config --cflags perfinst)
PI_LIBS=$(pkg-config --libs perfinst)
A=$top/tests/adopt
gcc -O2 $PI_CFLAGS -fplugin-arg-perfinst-all=count -c "$A/src/steps.c" -o steps.o
gcc -O2 $PI_CFLAGS -fplugin-arg-perfinst-all=count -c "$A/src/walk.c" -o walk.o
gcc -O2 -c "$A/src/steps.c" -o plain-steps.o
gcc -O2 -c "$A/src/walk.c" -o plain-walk.o
mkdir auto && cp "$A"/auto/* "$A"/src/steps.c "$A"/src/walk.c auto/
(cd auto && autoreconf -i > /dev/null 2>&1)

# The variants: name, then the command (run with sh -c in $work).
cat > variants <<EOF
link-plain	gcc -O2 -o p1 plain-steps.o plain-walk.o
link-stage	gcc -O2 $PI_LIBS -o p2 steps.o walk.o
configure-plain	cd auto && ./configure CFLAGS=-O2 > /dev/null
configure-flags	cd auto && PERFINST_OUT=/dev/null ./configure CFLAGS="-O2 $PI_CFLAGS -fplugin-arg-perfinst-all=count" LDFLAGS="$PI_LIBS" > /dev/null
EOF
python3 - "$rounds" > result <<'PY'
import os, resource, statistics, subprocess, sys, time
rounds = int(sys.argv[1])
variants = [l.rstrip("\n").split("\t", 1) for l in open("variants")]
cpu = {n: [] for n, _ in variants}
wall = {n: [] for n, _ in variants}
for r in range(rounds):
    order = variants[r % len(variants):] + variants[:r % len(variants)]
    for name, cmd in order:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.monotonic()
        subprocess.run(["sh", "-c", cmd], check=True)
        wall[name].append(time.monotonic() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu[name].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
med = {n: (statistics.median(cpu[n]), statistics.median(wall[n])) for n, _ in variants}
print("| variant | CPU (median) | wall (median) [min-max] | CPU x plain |")
print("| --- | --- | --- | --- |")
for n, _ in variants:
    base = n.split("-")[0] + "-plain"
    print("| %s | %.3f s | %.3f s [%.3f-%.3f] | %.2fx |" % (
        n, med[n][0], med[n][1], min(wall[n]), max(wall[n]), med[n][0] / med[base][0]))
PY
cat result
if [ $record = 1 ]; then
    {
        echo
        echo "## $(date -u '+%Y-%m-%d %H:%M') link stage cost (bench/link-stage.sh)"
        echo
        echo "Command: \`bench/link-stage.sh --rounds $rounds --record\` on $(git -C "$top" rev-parse --short HEAD),"
        echo "$(gcc --version | head -1), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
        echo "(a shared machine: the CPU times are the steadier figure)."
        echo "link: the two objects of tests/adopt/auto, plain vs counted and linked"
        echo "through the stage; configure: tests/adopt/auto's ./configure plain vs with"
        echo "the flags (every check instrumented and linked through the stage)."
        echo
        cat result
    } >> "$top/bench/RESULTS.md"
fi
