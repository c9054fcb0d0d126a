# bench/gawk/fields.awk — field splitting and aggregation in associative
# arrays (bench/workloads.sh, gawk's `fields` workload): the records of
# wl_gawk_data, comma-separated; sums and counts per city, per category and
# per city and category, the largest orders per user, and a histogram of
# the amounts, printed in a fixed order
BEGIN { FS = ","; OFS = " " }
NR == 1 { next }                       # the header
{
    city = $3; cat = $4; amount = $5 + 0; qty = $6 + 0
    n[city]++; sum[city] += amount * qty
    nc[cat]++; sc[cat] += amount
    pair[city SUBSEP cat] += qty
    if (amount > best[$2]) best[$2] = amount
    split($7, d, "-"); month[d[2] + 0] += amount
    bucket[int(amount / 50)]++
    total += amount; lines++
    if (length($8) > 20) long++
    words += NF
}
END {
    PROCINFO["sorted_in"] = "@ind_str_asc"
    for (c in n) printf "%s %d %.2f\n", c, n[c], sum[c]
    for (c in nc) printf "%s %d %.2f %.3f\n", c, nc[c], sc[c], sc[c] / nc[c]
    for (k in pair) { split(k, p, SUBSEP); printf "%s/%s %d\n", p[1], p[2], pair[k] }
    PROCINFO["sorted_in"] = "@val_num_desc"
    i = 0
    for (u in best) { if (++i > 20) break; printf "best %s %.2f\n", u, best[u] }
    PROCINFO["sorted_in"] = "@ind_num_asc"
    for (m in month) printf "month %d %.2f\n", m, month[m]
    for (b in bucket) printf "bucket %d %d\n", b, bucket[b]
    printf "lines %d total %.2f long %d words %d users %d\n", lines, total, long, words, length(best)
}
