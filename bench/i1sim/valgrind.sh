#!/bin/bash
# bench/i1sim/valgrind.sh VALGRIND-ARGS... — valgrind with bench/i1sim's
# tool: `bench/i1sim/valgrind.sh --tool=i1sim --layouts=FILE ./prog ARGS`.
#
# Builds the tool (i1sim.c against the valgrind package's libcoregrind and
# libvex, as valgrind's own tools are linked) into a directory of its own,
# $I1SIM_LIB (default bench/.work/i1sim-lib), next to links to every file of
# valgrind's own directory, and runs valgrind with VALGRIND_LIB set to it.
# The variable is in the client's environment, so a cachegrind count to
# compare with an i1sim count is run through this script too
# (--tool=cachegrind): the same environment, the same instructions.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
lib=${I1SIM_LIB:-$here/../.work/i1sim-lib}
vg=/usr/libexec/valgrind
vl=/usr/lib/x86_64-linux-gnu/valgrind
tool=$lib/i1sim-amd64-linux
if [ ! -x "$tool" ] || [ "$tool" -ot "$here/i1sim.c" ]; then
    for f in "$vl/libcoregrind-amd64-linux.a" "$vl/libvex-amd64-linux.a" /usr/include/valgrind/pub_tool_basics.h; do
        [ -e "$f" ] || { echo "i1sim: $f missing (the valgrind package builds tools against it)" >&2; exit 2; }
    done
    mkdir -p "$lib"
    for f in "$vg"/*; do ln -sfn "$f" "$lib/"; done
    gcc -std=gnu11 -O2 -Wall -Wno-unused-parameter -fno-pie -fno-strict-aliasing -fno-builtin \
        -fno-stack-protector -fomit-frame-pointer -DVGA_amd64=1 -DVGO_linux=1 -DVGP_amd64_linux=1 \
        -DVGPV_amd64_linux_vanilla=1 -I/usr/include/valgrind -c "$here/i1sim.c" -o "$lib/i1sim.o"
    gcc -static -nodefaultlibs -nostartfiles -u _start -Wl,--build-id=none -Wl,-Ttext-segment=0x58000000 \
        -o "$tool.tmp" "$lib/i1sim.o" "$vl/libcoregrind-amd64-linux.a" "$vl/libvex-amd64-linux.a" -lgcc \
        "$vl/libgcc-sup-amd64-linux.a"
    mv "$tool.tmp" "$tool"
fi
VALGRIND_LIB=$lib exec valgrind "$@"
