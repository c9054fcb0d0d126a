# Stack samples that land in a PLT entry unwind through it: GNU ld's .plt
# describes its CFA with a DWARF expression (rsp + 8, plus 8 from the
# entry's 11th byte on: `breg7 8; breg16 0; lit15; and; lit11; ge; lit3;
# shl; plus`), and the walker stopped at DW_OP_shl, so that every such
# sample was a truncated stack of its own ([plt+0x...] as a root, about
# one in ten here).  plt.c calls strlen and memcpy through the PLT
# (-fno-builtin) in a loop: the PLT entries are leaves under work, named
# as objdump and perf name them (strlen@plt: the entry's jump through a
# GOT slot that a relocation names), and no stack under _start is cut;
# with lazy binding, -z now, and IBT's .plt.sec (-z ibtplt).
. "$PERFINST_TOP/tests/lib.sh"
for link in lazy now ibt; do
    case $link in
    now) flags=-Wl,-z,now ;;
    ibt) flags=-Wl,-z,ibtplt ;;
    *) flags= ;;
    esac
    gcc -O2 -g -fno-builtin -c "$T/sampling/plt.c" -o plt.o
    pi_ld --pi-runtime -O2 $flags -o plt-$link plt.o
    objdump -d plt-$link | grep -q '<strlen@plt>:' || fail "$link: strlen is not called through the PLT"
    [ $link != ibt ] || readelf -SW plt-$link | grep -q ' \.plt\.sec ' || fail "ibt: no .plt.sec"
    PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=$link.pit ./plt-$link 60000000 > /dev/null
    "$PMOPT" report --tree $link.pit > tree-$link
    # the PLT entries: leaves under work (its children are 12 spaces in)
    inplt=$(awk '/^ +[0-9.]+% +[0-9.]+% +[0-9]+ +[0-9]+            (strlen|memcpy)@plt$/ { n += $3 } END { print n + 0 }' tree-$link)
    [ "$inplt" -gt 0 ] || { cat tree-$link; fail "$link: no sample under work in strlen@plt or memcpy@plt"; }
    roots() { awk '/^ +[0-9.]+% +[0-9.]+% +[0-9]+ +[0-9]+  [^ ]/ { print $5, $3 }' tree-$link; }
    cut=$(roots | awk '$1 != "_start" && $1 !~ /^__do_global_dtors_aux/')
    [ -z "$cut" ] || { cat tree-$link; fail "$link: stacks not under _start (cut): $cut"; }
    ok "$link: $inplt periods in strlen@plt and memcpy@plt, each under work; no stack cut"
done
