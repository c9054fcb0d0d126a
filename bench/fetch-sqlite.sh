#!/bin/bash
# fetch-sqlite.sh [DIR] — put SQLite's amalgamation (sqlite3.c, sqlite3.h) in DIR.
#
# SQLite comes from the npm registry, inside the better-sqlite3 package
# tarball (deps/sqlite3/sqlite3.c in recent versions; older versions ship a
# nested deps/sqlite3.tar.gz, which is handled too).  The version is pinned
# and sqlite3.c is checked against the sha256 recorded below.
#
#   DIR        where sqlite3.c and sqlite3.h go (default: bench/.cache/sqlite)
#   CACHE      env: where the npm tarball is kept (default: bench/.cache)
#
# Idempotent: a DIR that already holds the right sqlite3.c is left alone, and
# a cached tarball is reused without asking the registry.  Prints DIR (as an
# absolute path) on stdout as its last line; messages go to stderr.
# Nothing fetched is committed: bench/.gitignore covers .cache/ and .work/.
set -euo pipefail

# ---- the pin -----------------------------------------------------------------
BSQ_VERSION=12.4.1          # better-sqlite3 on npm (2025-09-23)
SQLITE_VERSION=3.50.4       # the amalgamation inside it
SQLITE3_C_SHA256=90b7189566ea710ee18361b25d893f5cda3fcf43033223a16384762f53e99a85

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE=${CACHE:-$here/.cache}
DIR=${1:-$CACHE/sqlite}

say() { echo "fetch-sqlite: $*" >&2; }
die() { say "error: $*"; exit 1; }

sha_of() { sha256sum "$1" | cut -d' ' -f1; }

mkdir -p "$CACHE" "$DIR"
DIR=$(cd "$DIR" && pwd)

# Already there?
if [ -f "$DIR/sqlite3.c" ] && [ -f "$DIR/sqlite3.h" ] &&
   [ "$(sha_of "$DIR/sqlite3.c")" = "$SQLITE3_C_SHA256" ]; then
    say "SQLite $SQLITE_VERSION (better-sqlite3 $BSQ_VERSION) already in $DIR"
    echo "$DIR"
    exit 0
fi

tgz=$CACHE/better-sqlite3-$BSQ_VERSION.tgz
if [ ! -s "$tgz" ]; then
    command -v npm >/dev/null 2>&1 || die "npm is not installed (apt-get install npm)"
    say "npm pack better-sqlite3@$BSQ_VERSION into $CACHE"
    tmpd=$(mktemp -d "$CACHE/pack.XXXXXX")
    trap 'rm -rf "$tmpd"' EXIT
    # --pack-destination needs npm >= 7; older npm packs into the cwd.
    if ! (cd "$tmpd" && npm pack "better-sqlite3@$BSQ_VERSION" --silent >&2); then
        die "npm pack better-sqlite3@$BSQ_VERSION failed (is the npm registry reachable?)"
    fi
    got=$(ls "$tmpd"/better-sqlite3-*.tgz 2>/dev/null | head -n1)
    [ -n "$got" ] || die "npm pack left no tarball"
    mv "$got" "$tgz"
fi

# Unpack deps/ into a scratch dir and find the amalgamation, unpacking
# nested archives (older releases ship deps/sqlite3.tar.gz) until found.
x=$(mktemp -d "$CACHE/unpack.XXXXXX")
trap 'rm -rf "$x" ${tmpd:+"$tmpd"}' EXIT
tar -xzf "$tgz" -C "$x" package/deps 2>/dev/null ||
    tar -xzf "$tgz" -C "$x" ||
    die "cannot unpack $tgz (delete it to fetch again)"

find_amalg() { find "$x" -type f -name sqlite3.c -print | head -n1; }
c=$(find_amalg)
depth=0
while [ -z "$c" ] && [ $depth -lt 3 ]; do
    depth=$((depth + 1))
    found=0
    while IFS= read -r a; do
        found=1
        d="$a.d"; mkdir -p "$d"
        case "$a" in
        *.zip) unzip -q -o "$a" -d "$d" || die "cannot unzip $a" ;;
        *.tar.xz|*.txz) tar -xJf "$a" -C "$d" ;;
        *.tar.bz2) tar -xjf "$a" -C "$d" ;;
        *) tar -xzf "$a" -C "$d" ;;
        esac
        rm -f "$a"
    done < <(find "$x" -type f \( -name '*.tar.gz' -o -name '*.tgz' -o -name '*.tar.xz' \
                                 -o -name '*.txz' -o -name '*.tar.bz2' -o -name '*.zip' \) -print)
    [ $found = 1 ] || break
    c=$(find_amalg)
done
[ -n "$c" ] || die "no sqlite3.c in better-sqlite3-$BSQ_VERSION.tgz"
h=$(dirname "$c")/sqlite3.h
[ -f "$h" ] || die "no sqlite3.h beside $c"

sum=$(sha_of "$c")
if [ "$sum" != "$SQLITE3_C_SHA256" ]; then
    say "sha256 mismatch for sqlite3.c from better-sqlite3-$BSQ_VERSION.tgz"
    say "  expected $SQLITE3_C_SHA256"
    say "  got      $sum"
    say "  (delete $tgz to fetch it again, or update the pin in $0)"
    exit 1
fi
cp "$c" "$DIR/sqlite3.c.tmp" && mv "$DIR/sqlite3.c.tmp" "$DIR/sqlite3.c"
cp "$h" "$DIR/sqlite3.h"
ver=$(sed -n 's/^#define SQLITE_VERSION[[:space:]]*"\(.*\)"/\1/p' "$DIR/sqlite3.h")
[ "$ver" = "$SQLITE_VERSION" ] || say "warning: sqlite3.h says version $ver, pin says $SQLITE_VERSION"
say "SQLite $ver (better-sqlite3 $BSQ_VERSION, sqlite3.c sha256 $sum) in $DIR"
echo "$DIR"
