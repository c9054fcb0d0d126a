# bench/gawk/regex.awk — regular expressions (bench/workloads.sh, gawk's
# `regex` workload): matches with captures, substitutions, dynamic
# regexps built from data, splits on a regexp, over the records of
# wl_gawk_data
BEGIN { FS = "," }
NR == 1 { next }
{
    line = $0
    if (match(line, /user([0-9]+)[0-9],([A-Z][a-z]+),/, m)) { grp[m[1] % 97]++; city[m[2]]++ }
    if ($8 ~ /^(the|a|an) [a-z]+ (of|in|on) /) article++
    if ($8 ~ /(foxtrot|tango|whiskey).*(delta|echo)/) pairs++
    if ($7 ~ /^20[0-9][0-9]-(0[1-6])-[0-3][0-9]$/) firsthalf++
    t = $8
    nsub += gsub(/[aeiou]+/, "<&>", t)
    nsub += sub(/ [a-z]+$/, "", t)
    outlen += length(t)
    nw = split($8, w, /[ ]+(and|or|the)[ ]+|[ ]+/)
    for (i = 1; i <= nw; i++)
        if (w[i] ~ /^[b-df-hj-np-tv-z]+[aeiou]/) cons++
    dyn = "^" substr($4, 1, 3) ".*"
    if ($4 ~ dyn) dynmatch++
    if (index($8, "alpha") && $8 ~ /alpha[^,]*bravo/) ab++
    s = $2; gsub(/[0-9]/, "#", s); shapes[s]++
    if (line ~ /,[0-9]+\.[0-9]5,/) fives++
}
END {
    PROCINFO["sorted_in"] = "@ind_num_asc"
    for (g in grp) printf "grp %d %d\n", g, grp[g]
    PROCINFO["sorted_in"] = "@ind_str_asc"
    for (c in city) printf "city %s %d\n", c, city[c]
    for (s in shapes) printf "shape %s %d\n", s, shapes[s]
    printf "article %d pairs %d firsthalf %d subs %d outlen %d cons %d dyn %d ab %d fives %d\n",
        article, pairs, firsthalf, nsub, outlen, cons, dynmatch, ab, fives
}
