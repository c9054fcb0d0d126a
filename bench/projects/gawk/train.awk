# train.awk — bench/projects/gawk.sh's training mix over the corpus of
# bench/projects/pcre2/gen.py: fields, associative arrays, counts and sums,
# printf; a report per level and per user, sorted by the sort pipe of
# PROCINFO["sorted_in"].
{
    lv = $3; gsub(/[][]/, "", lv)
    n[lv]++
    u = $5; users[u]++
    ms = $NF; sub(/ms$/, "", ms)
    if ($NF ~ /ms$/) { took[u] += ms; if (ms + 0 > max[u]) max[u] = ms + 0 }
    for (i = 6; i < NF; i++) if ($i !~ /=/) words[$i]++
    split($1, d, "-"); month[d[2]]++
}
END {
    PROCINFO["sorted_in"] = "@ind_str_asc"
    for (k in n) printf "%-8s %7d\n", k, n[k]
    for (k in users) printf "%-6s %7d %10d %5d\n", k, users[k], took[k], max[k]
    for (k in month) printf "month %s %d\n", k, month[k]
    c = 0; for (k in words) c++
    printf "words %d\n", c
}
