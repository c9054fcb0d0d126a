#!/bin/bash
# bench/cc1-share/cc1-share.sh [--callgrind PHASES] SRC [GCC FLAGS...] — where cc1's time
# goes on one compile (gcc -O2 -std=gnu11 FLAGS -S SRC -o /dev/null), by phase
# (front, early, ipa, late, rtl, out: bench/cc1-share/passshare.cc).
#   default:            cc1's thread CPU time per phase (one line "passshare: …")
#   --callgrind PHASES  cc1's instructions in PHASES (a comma list) under callgrind,
#                       and, with PHASES "all", cc1's total ("collected N")
# The measurement plugin is built once into ${SHARE_DIR:-bench/.work/cc1-share}.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${SHARE_DIR:-$here/../.work/cc1-share}
mkdir -p "$out"
so=$out/passshare.so
if [ ! -f "$so" ] || [ "$here/passshare.cc" -nt "$so" ]; then
    g++ -O2 -fPIC -shared -fno-rtti -I"$(gcc -print-file-name=plugin)/include" \
        "$here/passshare.cc" -o "$so"
fi
phases=
if [ "${1:-}" = --callgrind ]; then phases=$2; shift 2; fi
src=$1; shift
if [ -z "$phases" ]; then
    gcc -O2 -std=gnu11 "$@" -fplugin="$so" -S "$src" -o /dev/null 2>&1 | grep '^passshare:'
    exit
fi
log=$(mktemp "$out/cg.XXXXXX")
if [ "$phases" = all ]; then
    valgrind --tool=callgrind --callgrind-out-file="$log.%p" --trace-children=yes \
        gcc -O2 -std=gnu11 "$@" -S "$src" -o /dev/null 2> "$log"
else
    valgrind --tool=callgrind --callgrind-out-file="$log.%p" --trace-children=yes --collect-atstart=no \
        gcc -O2 -std=gnu11 "$@" -fplugin="$so" -fplugin-arg-passshare-collect="$phases" \
        -S "$src" -o /dev/null 2> "$log"
fi
# cc1's profile: the one whose command names cc1
for f in "$log".*; do
    if grep -q '^cmd: .*cc1' "$f"; then
        echo "collected $(grep '^summary:' "$f" | awk '{print $2}')"
    fi
done
rm -f "$log" "$log".*
