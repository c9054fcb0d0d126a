#!/bin/sh
# Install the readers of pmopt export's files that are not Debian programs,
# into a cache the tests look in (tests/export/setup.sh) — part of the
# install step (scripts/deps.sh), so that `make check` downloads nothing:
#   $CACHE/npm   pprof-format and speedscope from the npm registry (pinned)
#   $CACHE/pprof pprof (github.com/google/pprof) built from Debian's
#                golang-github-google-pprof-dev source (`go tool pprof`
#                reads no build-id)
# CACHE is ${PERFINST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/perfinst}.  A
# reader that cannot be had is said, not fatal: its tests then SKIP.
CACHE=${PERFINST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/perfinst}
NPM_PKGS="pprof-format@2.3.2 speedscope@1.25.0"
mkdir -p "$CACHE"
for spec in $NPM_PKGS; do
    name=${spec%@*} version=${spec##*@}
    pj=$CACHE/npm/node_modules/$name/package.json
    grep -q "\"version\": *\"$version\"" "$pj" 2> /dev/null && continue
    if ! command -v npm > /dev/null; then
        echo "readers: npm is not installed: no $spec (its tests will SKIP)"
        continue
    fi
    echo "readers: npm install $spec into $CACHE/npm"
    timeout 300 npm install --prefix "$CACHE/npm" --no-audit --no-fund --prefer-offline "$spec" \
        > "$CACHE/npm.log" 2>&1 || { tail -5 "$CACHE/npm.log"; echo "readers: npm could not install $spec (its tests will SKIP)"; }
done
src=/usr/share/gocode/src/github.com/google/pprof
if [ ! -x "$CACHE/pprof" ]; then
    if command -v go > /dev/null && [ -e "$src/pprof.go" ]; then
        echo "readers: building pprof from $src into $CACHE/pprof"
        (cd "$src" && GOPATH=/usr/share/gocode GO111MODULE=off GOFLAGS= GOCACHE="$CACHE/gocache" \
            timeout 600 go build -o "$CACHE/pprof.tmp" .) > "$CACHE/go.log" 2>&1 &&
            mv "$CACHE/pprof.tmp" "$CACHE/pprof" ||
            { tail -5 "$CACHE/go.log"; echo "readers: pprof does not build (its tests will SKIP)"; }
    else
        echo "readers: no go or no pprof source: no pprof (its tests will SKIP)"
    fi
fi
exit 0
