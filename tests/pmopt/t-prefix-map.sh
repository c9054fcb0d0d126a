# A unit compiled as Debian's packages are (dpkg-buildflags:
# -ffile-prefix-map=TREE=., built in a directory of its own under the tree,
# debian/build): its key is relative to the map's "." (src/a.c, paths.cc)
# while DWARF has DW_AT_comp_dir ./debian/build and DW_AT_name ../../src/a.c.
# pmopt names the unit src/a.c as it names its functions' file, not the key
# joined to the compilation directory (debian/build/src/a.c); a unit built
# without the map keeps its absolute source (shown relative to the root).
. "$PERFINST_TOP/tests/lib.sh"
mkdir -p tree/src tree/debian/build
printf 'static int twice(int x) { return x * 2; }\nint main(int argc, char **argv)\n{\n    (void)argv;\n    return twice(argc) - 2;\n}\n' > tree/src/a.c
top=$PWD/tree
cd tree/debian/build
for map in yes no; do
    flags=
    [ $map = no ] || flags=-ffile-prefix-map=$top=.
    pi_cc -O2 -g $flags -fplugin-arg-perfinst-all=count -c ../../src/a.c -o a.o
    readelf -wi a.o > info
    if [ $map = yes ]; then
        assert_contains "the fixture: DW_AT_comp_dir ./debian/build" info 'DW_AT_comp_dir +:.* \./debian/build$'
        assert_contains "the fixture: DW_AT_name ../../src/a.c" info 'DW_AT_name +:.* \.\./\.\./src/a\.c$'
    fi
    pi_ld -O2 -o a a.o
    rm -f a.pit
    PERFINST_OUT=a.pit ./a || fail "a failed"
    "$PMOPT" report --by=function --format=csv a a.pit > fn.csv
    want=src/a.c
    [ $map = yes ] || want=a.c          # relative to the source root, tree/src
    assert_eq "prefix map $map: main's file and unit" "main $want $want" \
        "$(python3 -c "
import csv
r = [r for r in csv.DictReader(open('fn.csv')) if r['function'] == 'main'][0]
print(r['function'], r['file'], r['units'])")"
    "$PMOPT" report --format=json a a.pit > r.json
    assert_eq "prefix map $map: the unit in json" "$want" \
        "$(python3 -c "
import json; r = json.load(open('r.json'))
print(sorted({u['source'] for f in r['functions'] for u in f['units']})[0])" 2> /dev/null || echo '(no units[].source)')"
done
