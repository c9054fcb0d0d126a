# bench/projects/xkbcommon.sh — libxkbcommon 1.5.0 (meson) for
# bench/projects.sh: meson setup with the flags in the environment (the
# shared library, its tools and tests; X11, Wayland, the registry and the
# docs off), ninja, meson test.  Workloads: the keymap compiler
# (compile-keymap, which holds the library's code: meson links the tools
# to an internal static library, not to the .so) on the test suite's own
# XKB data (test/data: the system's xkb-data is not read), each keymap's
# checksum on stdout (train: single layouts with options; test: layout
# groups and variants), repeated by the scale.
P_PKG=libxkbcommon=1.5.0-1
P_TREE=debian
P_LANG=c
P_EXES=build/compile-keymap           # the tools link the library's code statically (not the .so)
P_TESTEXES="build/test-*"             # relinked too (compile-keymap's plan, --force)
P_SPOT=xkb_keymap_new_from_names       # once per compiled keymap
P_VGSCALE=0.1

p_build() {
    {
        meson setup build -Denable-x11=false -Denable-wayland=false -Denable-docs=false \
            -Denable-xkbregistry=false -Dxkb-config-root=/usr/share/X11/xkb &&
            ninja -C build -j2
    } > build.log 2>&1
}

p_test() { meson_passed; }   # bench/lib.sh

p_workload() {
    local mix=$1; shift
    local n i l
    n=$(awk -v s="${P_SCALE:-1}" 'BEGIN { n = 20 * s; if (n < 1) n = 1; printf "%d", n }')
    local -a maps
    case $mix in
    train) maps=("us||" "de||" "ru||" "cz||" "ch||" "ca||ctrl:nocaps" "il||grp:alt_shift_toggle" "in||") ;;
    test) maps=("us,ru||grp:caps_toggle" "de,cz||grp:alt_shift_toggle" "us,il||" "ch,de||ctrl:swapcaps" "ca,us||") ;;
    esac
    for i in $(seq "$n"); do
        for l in "${maps[@]}"; do
            "$@" build/compile-keymap --include test/data --rules evdev --layout "${l%%||*}" --options "${l#*||}" | cksum
        done
    done | sort | uniq -c
}
