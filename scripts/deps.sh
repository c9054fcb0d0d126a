#!/bin/sh
# Install the Debian packages perfinst needs, only those that are missing.
# Used by `make demo` and by .ci/run.
set -e
# autoconf, automake, cmake, meson, ninja-build: the build systems tests/adopt
# builds projects with (the flags route); binutils has gold, lld the LLVM
# linker (tests/relink/t-linkers.sh and the COMDAT tests).  The readers of
# pmopt export's files (tests/export): golang-go and
# golang-github-google-pprof-dev (pprof, built from its source), nodejs
# with its npm (pprof-format and speedscope from the npm registry, put into
# a cache by scripts/readers.sh, below),
# lcov (genhtml), gcovr, tesseract-ocr (reads the speedscope screenshots);
# python3-dev and python3-setuptools: a Python extension module built by
# setuptools (tests/adopt/t-python.sh); strace: the system calls of a
# counted process's start (tests/runtime/t-signal.sh); dwz: a -dbgsym
# package's supplementary debug file (tests/pmopt/t-dwz.sh).
pkgs="gcc g++ make gcc-12-plugin-dev libelf-dev libdwarf-dev libiberty-dev zlib1g-dev pkg-config binutils lld ccache valgrind python3 python3-dev python3-setuptools clang libclang-rt-14-dev chromium groff-base man-db autoconf automake cmake meson ninja-build golang-go golang-github-google-pprof-dev nodejs lcov gcovr tesseract-ocr strace dwz"
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "deps: installing$missing"
    SUDO=""
    [ "$(id -u)" = 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
fi
# the export readers that are not Debian programs (npm packages, pprof)
"$(dirname "$0")/readers.sh"
