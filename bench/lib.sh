# bench/lib.sh — what the layout benchmarks share (sourced by
# bench/layout-all.sh and bench/layout-relink.sh).
#
# bench_opts NAME "$@": the common options --record, --rounds N, --train S,
# --test S, --size S (and -h/--help: the calling script's header comment)
# into record, rounds, train, test, size (defaults: 0, 5, 0.3, 0.1, 1).
# Unknown arguments: a message naming NAME, exit 2.
bench_opts() {
    local name=$1; shift
    rounds=5 train=0.3 test=0.1 size=1 record=0
    while [ $# -gt 0 ]; do
        case $1 in
        --record) record=1; shift ;;
        --rounds|--train|--test|--size)
            [ $# -ge 2 ] || { echo "$name: $1 needs a value" >&2; exit 2; }
            case $1 in
            --rounds) rounds=$2 ;; --train) train=$2 ;; --test) test=$2 ;; --size) size=$2 ;;
            esac
            shift 2 ;;
        -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "$name: unknown argument $1" >&2; exit 2 ;;
        esac
    done
}

# median V...: the middle value (the lower of the two middle ones)
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
