# bench/projects/libgit2.sh — libgit2 1.5.1 (C, CMake, a shared library
# with threads; the +ds tarball leaves the bundled dependencies out:
# Debian's zlib, mbedTLS, libssh2, http-parser, PCRE2 and Kerberos are
# used) for bench/projects.sh: Debian's release build (debian/rules's
# build-debian-release: BUILD_SHARED_LIBS=ON and its common flags, and
# dh_auto_configure's CMAKE_BUILD_TYPE=None: the environment's CFLAGS
# alone, where libgit2's default, Debug, adds -D_DEBUG -O0 after them;
# hardening left out), plus
# BUILD_EXAMPLES (lg2), and the workload's program,
# bench/projects/libgit2/drive.c, compiled and linked to build/libgit2.so
# with the same flags.  The references (cov, pgogen, pgouse, bolt) build
# without the tests and examples.  Tests: the clar runners libgit2_tests
# (a chosen offline set of suites, L2_SUITES below: the whole offline run,
# -xonline, takes about 15 minutes at -O2 here) and util_tests (all),
# in TAP format (-t): "ok" lines passed, "ok" plus "not ok" the total.
# Workloads: gitdrive — train: a repository of 1500 files made by
# libgit2 (400 commits, blobs written from buffers through the index,
# fixed signatures, a tag and a branch every 50), its history walked by
# time and topologically with every tree read, rev-parse and merge bases;
# test: a repository bench/projects/libgit2/gen.py makes (git fast-import,
# seed 7: 3000 files, 300 commits editing lines, some files edited far
# more often), checked out by git, some files edited, renamed and added
# and every file's time set back (status hashes them all): status of the
# work tree, the patch of every commit against its parent, the work tree
# against HEAD with renames, and blame of the four files with most
# history.  git itself is not measured (not run under the wrapper).
P_PKG=libgit2=1.5.1+ds-1+deb12u1
P_TREE=debian
P_LANG=c
P_DEBDEPS="libmbedtls-dev libssh2-1-dev libhttp-parser-dev libpcre2-dev libkrb5-dev zlib1g-dev"
P_EXES="build/libgit2.so.1.5.1 build/gitdrive"
P_TESTEXES="build/libgit2_tests build/util_tests build/examples/lg2"
P_SPOT=git_commit_create     # once per commit the training makes (gitdrive calls it through the PLT)
P_VGSCALE=0.3
# the suites of libgit2_tests run (-s each): object storage, references,
# history, index, diff, blame, status, merge and the like, no network
L2_SUITES="apply attr blame commit config core date delta describe diff graph index mailmap merge message object odb pack refs revwalk status"

# shellcheck disable=SC2086   # CFLAGS and LDFLAGS are lists of words
p_build() {
    local tests=ON
    case ${P_VARIANT:-} in cov|pgogen|pgouse|bolt) tests=OFF ;; esac
    {
        cmake -S . -B build -DCMAKE_BUILD_TYPE=None -DBUILD_SHARED_LIBS=ON -DBUILD_CLI=OFF -DBUILD_TESTS=$tests -DBUILD_EXAMPLES=$tests \
            -DCERT_LOCATION=/etc/ssl/certs/ca-certificates.crt -DDISABLE_ONLINE_TESTS=ON \
            -DENABLE_REPRODUCIBLE_BUILDS=ON -DREGEX_BACKEND=pcre2 -DUSE_GSSAPI=ON -DUSE_HTTPS=mbedTLS \
            -DUSE_HTTP_PARSER=system -DUSE_NTLMCLIENT=OFF -DUSE_SSH=ON &&
            cmake --build build -j2 &&
            $CC $CFLAGS -Iinclude -c "$P_DIR/libgit2/drive.c" -o build/drive.o &&
            $CC $CFLAGS -o build/gitdrive build/drive.o -Lbuild -lgit2 -Wl,-rpath,"$PWD/build" $LDFLAGS
    } > build.log 2>&1
}

p_test() {
    local s args=()
    for s in $L2_SUITES; do args+=("-s$s"); done
    # clar runs in a sandbox under TMPDIR; the fixtures are the tree's tests/resources
    (cd build && ./libgit2_tests -t "${args[@]}" > ../test-libgit2.out 2>&1; ./util_tests -t > ../test-util.out 2>&1)
    cat test-libgit2.out test-util.out | awk '/^ok [0-9]/ { p++ } /^not ok [0-9]/ { f++ } END { print p + 0, p + f }'
}

# gitdrive's repositories, made fresh for each run (a run may write to
# them): train by gitdrive itself, test by git (not measured); the sizes
# scaled by P_SCALE.  They are made beside the variants' trees, at one
# path for all (R): libgit2 works with their absolute paths, and a path
# one character longer grows its strings otherwise (git_str_grow and
# realloc 1.5% more often in the "count" tree than in "cov", which made
# the exact-count check differ where nothing did)
p_workload() {
    local mix=$1; shift
    local s=${P_SCALE:-1} files commits R
    R=$(cd .. && pwd)/.repo-$mix
    case $mix in
    train)
        commits=$(awk -v s="$s" 'BEGIN { printf "%d", 400 * s }')
        files=$(awk -v s="$s" 'BEGIN { printf "%d", 1500 * s }')
        rm -rf "$R"
        "$@" build/gitdrive train "$R" "$commits" "$files" ;;
    test)
        commits=$(awk -v s="$s" 'BEGIN { printf "%d", 300 * s }')
        files=$(awk -v s="$s" 'BEGIN { printf "%d", 3000 * s }')
        rm -rf "$R"
        git init -q "$R"
        python3 "$P_DIR/libgit2/gen.py" "$files" "$commits" 7 | (cd "$R" && git fast-import --quiet --done)
        (
            cd "$R" && git checkout -q master &&
            for f in $(git ls-files | awk 'NR % 97 == 0'); do echo "local edit" >> "$f"; done &&
            mkdir -p extra && for n in 1 2 3 4 5; do seq "$n" 400 > "extra/new$n.txt"; done &&
            mv lib/m05/unit00005.c lib/m05/renamed.c &&
            find . -path ./.git -prune -o -type f -exec touch -d @1600000000 {} +
        ) || return 1
        "$@" build/gitdrive test "$R" ;;
    esac
}
