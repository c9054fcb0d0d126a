#!/bin/bash
# bench/fetch-debsrc.sh [--download-only] NAME[=VERSION]... — Debian source
# packages, fetched once into a cache and unpacked there; prints each
# unpacked tree (one line per NAME).  A VERSION pins the package (apt-get
# source NAME=VERSION): the mirror may lack the newest one, and results
# should not move with it; an unpinned NAME the mirror lists but cannot
# serve at its newest version is fetched at the next one listed, with a
# message.  --download-only: the package's files (the
# .dsc and its tarballs) downloaded, not unpacked; prints the folder that
# holds them ($CACHE/debsrc), once per NAME.
#
#   CACHE   the cache (default /work/cache if it exists, else bench/.cache);
#           the packages go to $CACHE/debsrc
#
# apt-get source with a deb-src list of our own: a copy of the system's
# /etc/apt/sources.list.d/debian.sources with Types: deb-src, in
# $CACHE/debsrc/apt, and lists in $CACHE/debsrc/apt/lists — the system's apt
# configuration is not touched (-o Dir::Etc::SourceList=/dev/null
# -o Dir::Etc::SourceParts=... -o Dir::State::Lists=...).  dpkg-dev unpacks.
# The trees are never built in: copy them (bench/projects.sh does).  Several
# scripts may fetch at once: $CACHE/debsrc/.lock serialises them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dl=
[ "${1:-}" != --download-only ] || { dl=--download-only; shift; }
[ $# -gt 0 ] || { sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
CACHE=${CACHE:-$([ -d /work/cache ] && echo /work/cache || echo "$here/.cache")}
d=$CACHE/debsrc
mkdir -p "$d/apt/lists/partial"
command -v dpkg-source > /dev/null || { echo "fetch-debsrc: dpkg-source is missing (apt-get install dpkg-dev)" >&2; exit 1; }
apt=(-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$d/apt"
     -o Dir::State::Lists="$d/apt/lists" -o Dir::Cache::archives="$d/apt")

tree() { ls -d "$d/$1"-[0-9]*/ 2> /dev/null | head -1 || true; }

# the private deb-src list and its lists, updated once
lists() {
    if [ ! -s "$d/apt/debian-src.sources" ]; then
        sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources > "$d/apt/debian-src.sources"
    fi
    if ! ls "$d/apt/lists/"*Sources* > /dev/null 2>&1; then
        apt-get "${apt[@]}" update > "$d/apt/update.log" 2>&1 ||
            { echo "fetch-debsrc: apt-get update failed (see $d/apt/update.log)" >&2; exit 1; }
    fi
}

# apt-get source [--download-only] SPEC in $d.  An unpinned NAME whose
# newest version the mirror lists but no longer serves (a security update
# replaced on the mirror: 404) is fetched at the next version the lists
# name, newest first, and says so.
get() {
    local log=$d/apt/source-${1%%=*}.log v
    (cd "$d" && apt-get "${apt[@]}" source $dl "$1" > "$log" 2>&1) && return 0
    if [ "$1" = "${1%%=*}" ]; then
        for v in $(apt-cache "${apt[@]}" showsrc "$1" 2> /dev/null | sed -n 's/^Version: //p' |
                   sort -u | sort -r -V | tail -n +2); do
            if (cd "$d" && apt-get "${apt[@]}" source $dl "$1=$v" >> "$log" 2>&1); then
                echo "fetch-debsrc: $1: the newest version could not be fetched (see $log); took $v" >&2
                return 0
            fi
        done
    fi
    echo "fetch-debsrc: apt-get source $1 failed (see $log)" >&2
    exit 1
}

exec 9> "$d/.lock"
flock 9
for spec; do
    name=${spec%%=*}
    if [ -n "$dl" ]; then
        lists
        get "$spec"
        echo "$d"
        continue
    fi
    src=$(tree "$name")
    if [ -z "$src" ]; then
        lists
        get "$spec"
        src=$(tree "$name")
        [ -n "$src" ] || { echo "fetch-debsrc: apt-get source $name left no $d/$name-VERSION" >&2; exit 1; }
    fi
    echo "${src%/}"
done
