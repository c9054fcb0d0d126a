# tests/adopt/lib-adopt.sh — sourced by the tests of the flags route, after
# tests/lib.sh: the flags a user adds, from the uninstalled pkg-config file
# that make writes (build/perfinst-uninstalled.pc, which pkg-config prefers).
A=$T/adopt
command -v pkg-config > /dev/null || skip "pkg-config is not installed (scripts/deps.sh installs it)"
export PKG_CONFIG_PATH=$B
PI_CFLAGS=$(pkg-config --cflags perfinst) || fail "pkg-config --cflags perfinst"
PI_LIBS=$(pkg-config --libs perfinst) || fail "pkg-config --libs perfinst"
case "$PI_LIBS" in *"-specs=$B/perfinst.specs"*) ;; *) fail "pkg-config --libs is not the build tree's: $PI_LIBS" ;; esac

# need TOOL...: skip unless every tool is installed.
need() {
    local t
    for t in "$@"; do
        command -v "$t" > /dev/null || skip "$t is not installed (scripts/deps.sh installs it)"
    done
}
