# bench/projects/jq.sh — jq 1.6 (autotools) for bench/projects.sh:
# autoreconf, ./configure with the flags in the environment (a static jq:
# --disable-shared), make, make check (its four test scripts, valgrind
# off; their cases counted).  Workloads: jq filters over generated JSON records (train: select,
# group_by, string joins; test: sort_by, paths, walk, reduce, @base64).
P_PKG=jq=1.6-2.1+deb12u2
P_TREE=debian
P_LANG=c
P_EXES=jq
P_SPOT=f_match                      # test("7$") on each of the 20000 names
P_DEBDEPS="libtool bison flex libonig-dev"   # autoreconf needs libtool; the regular expressions (test(), the spot) Oniguruma
P_VGSCALE=0.1

p_build() {
    {
        autoreconf -fi &&
            ./configure --disable-shared --disable-docs --disable-maintainer-mode &&
            make -j2
    } > build.log 2>&1
}

# the cases of the --run-tests scripts (jqtest, onigtest, mantest) and
# shtest as one
p_test() {
    make check NO_VALGRIND=1 > test-check.out 2>&1
    {
        cat tests/*test.log | sed -n 's/^\([0-9]*\) of \([0-9]*\) tests passed.*/\1 \2/p'
        grep -q '^PASS: tests/shtest' test-check.out && echo "1 1" || echo "0 1"
    } | awk '{ p += $1; t += $2 } END { print p + 0, t + 0 }'
}

p_workload() {
    local mix=$1; shift
    local n f
    n=$(awk -v s="${P_SCALE:-1}" 'BEGIN { printf "%d", 20000 * s }')
    local data=.data-$n.json
    [ -s "$data" ] || python3 - "$n" > "$data" << 'PY'
import json, sys
n = int(sys.argv[1]); x = 2463534242
def rnd(k):
    global x
    x ^= (x << 13) & 0xffffffff; x ^= x >> 17; x ^= (x << 5) & 0xffffffff
    return x % k
cities = ["Oslo", "Lima", "Pune", "Kyiv", "Quito", "Perth", "Dakar", "Hanoi"]
recs = [{"id": i, "name": "user%05d" % i, "age": 18 + rnd(60), "city": cities[rnd(8)],
         "score": rnd(100000) / 100, "tags": ["t%d" % rnd(20) for _ in range(rnd(5))],
         "address": {"zip": "%05d" % rnd(99999), "street": "%d Main St" % rnd(999)}} for i in range(n)]
json.dump(recs, sys.stdout)
PY
    if [ "$mix" = train ]; then
        for f in '[.[] | select(.age > 40) | {name, city}] | length' \
                 'group_by(.city) | map({city: .[0].city, n: length, avg: (map(.age) | add / length)})' \
                 'map(.tags | join(",")) | unique | length' \
                 '[.[] | .address.zip | tonumber] | add' \
                 'map(select(.name | test("7$"))) | length'; do
            "$@" ./jq -c "$f" "$data" | cksum
        done
    else
        for f in 'sort_by(.score) | .[0:3] | map(.id)' \
                 '[paths] | length' \
                 'walk(if type == "number" then . * 2 else . end) | tostring | length' \
                 'reduce .[] as $r (0; . + $r.score) | floor' \
                 'map(.name | @base64) | .[-1]' \
                 '[.[] | to_entries | map(.key)] | flatten | unique'; do
            "$@" ./jq -c "$f" "$data" | cksum
        done
    fi
}
