# comdat-train.sh — sourced by t-comdat-rebuild.sh and t-comdat-relink.sh
# (after tests/lib.sh): comdat-a.cc and comdat-b.cc counted, linked a.o
# first (a.o's copy of twice kept), trained: t, t.pit, t.out.
command -v g++ > /dev/null || skip "g++ is not installed"
TWICE=_Z5twicei
for u in a b; do
    pi_cc -x c++ -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections -c "$T/cxx/comdat-$u.cc" -o t$u.o
done
pi_ld --pi-cc=g++ -O2 -o t ta.o tb.o
PERFINST_OUT=t.pit ./t > t.out
