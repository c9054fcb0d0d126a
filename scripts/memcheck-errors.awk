# scripts/memcheck-errors.awk — the errors of valgrind memcheck logs that
# are the plugin's (or any program's of ours): an invalid read, write or
# free, a mismatched free, overlapping copies, a bad syscall argument
# anywhere (cc1 and lto1 have none of their own), or a use of an
# uninitialised value whose first frame is in perfinst.so or in a source
# file of ours (cc1's register allocator has some of its own, which are
# not ours).  Prints "LOG: KIND at FRAME" for each; exits 1 if any.
#   awk -f scripts/memcheck-errors.awk LOG...
FNR == 1 { kind = ""; top = "" }
/^==[0-9]+== [A-Z]/ && !kind { kind = $0; sub(/^==[0-9]+== /, "", kind); next }
/^==[0-9]+== +at / && kind && !top { top = $0; sub(/^==[0-9]+== +at [0-9A-Fx]+: /, "", top); next }
/^==[0-9]+== $/ {
    if (kind && (kind ~ /^(Invalid|Mismatched|Source and destination|Syscall param)/ ||
                 top ~ /perfinst\.so|libperfinst|\.(c|cc):[0-9]+\)/)) {
        print FILENAME ": " kind " at " top
        bad = 1
    }
    kind = ""; top = ""
}
END { exit bad }
