# Stack samples that land in a PLT entry unwind through it: GNU ld's .plt
# describes its CFA with a DWARF expression (rsp + 8, plus 8 from the
# entry's 11th byte on: `breg7 8; breg16 0; lit15; and; lit11; ge; lit3;
# shl; plus`), and the walker stopped at DW_OP_shl, so that every such
# sample was a truncated stack of its own ([plt+0x...] as a root, about
# one in ten here).  plt.c calls strlen and memcpy through the PLT
# (-fno-builtin) in a loop: the PLT entries are leaves under work, and no
# stack under _start is cut; with lazy binding and with -z now.
. "$PERFINST_TOP/tests/lib.sh"
for link in lazy now; do
    flags=
    [ $link = now ] && flags=-Wl,-z,now
    gcc -O2 -g -fno-builtin -c "$T/sampling/plt.c" -o plt.o
    pi_ld --pi-runtime -O2 $flags -o plt-$link plt.o
    objdump -d -j .plt plt-$link | grep -q '<strlen@plt>:' || fail "$link: strlen is not called through .plt"
    PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=$link.pit ./plt-$link 60000000 > /dev/null
    "$PMOPT" report --tree $link.pit > tree-$link
    # the PLT entries ([plt-LINK+0xOFF], OFF in .plt or .plt.sec): leaves
    # under work (its children are 12 spaces in)
    ranges=$(readelf -SW plt-$link | sed 's/^ *\[ *[0-9]*\]//' | awk '$1 == ".plt" || $1 == ".plt.sec" { print $3, $5 }')
    [ -n "$ranges" ] || fail "$link: no .plt section"
    inplt=0
    while read -r n off; do
        while read -r addr size; do
            (( off >= 0x$addr && off < 0x$addr + 0x$size )) && inplt=$((inplt + n))
        done <<< "$ranges"
    done < <(sed -n "s/^ *[0-9.]*% *[0-9.]*% *[0-9]* *\([0-9]*\) \{12\}\[plt-$link+\(0x[0-9a-f]*\)\]$/\1 \2/p" tree-$link)
    [ "$inplt" -gt 0 ] || { cat tree-$link; fail "$link: no sample under work in a PLT entry"; }
    roots() { awk '/^ +[0-9.]+% +[0-9.]+% +[0-9]+ +[0-9]+  [^ ]/ { print $5, $3 }' tree-$link; }
    cut=$(roots | awk '$1 != "_start" && $1 !~ /^__do_global_dtors_aux/')
    [ -z "$cut" ] || { cat tree-$link; fail "$link: stacks not under _start (cut): $cut"; }
    ok "$link: $inplt periods in PLT entries, each under work; no stack cut"
done
