# test.awk — bench/projects/mawk.sh's held-out mix over the log corpus of
# bench/projects/logs.py: regular expressions (match with RSTART and
# RLENGTH, sub, gsub, dynamic regexps from a table, split on a regexp)
# and associative arrays (counts by user, level and word, (i,j) keys with
# SUBSEP, in, delete, a sorted report by insertion sort).
BEGIN {
    pat["mail"] = "[a-z]+\\.[a-z]+@[a-z]+\\.example\\.(org|com|net)"
    pat["path"] = "/[a-z]+/[a-z]+/[0-9]+\\.txt"
    pat["slow"] = "took [0-9][0-9][0-9][0-9]+ms"
    pat["hour"] = "^[0-9-]+ (0[0-9]|1[0-2]):"
    pat["word"] = "(^| )(an|a|the) "
}
{
    for (k in pat) if ($0 ~ pat[k]) hit[k]++
    if (match($0, /\[[A-Za-z]+\]/)) lv = substr($0, RSTART + 1, RLENGTH - 2)
    u = $5
    byul[u, lv]++
    users[u]++
    if (match($0, /id=[0-9]+/)) idsum[u] += substr($0, RSTART + 3, RLENGTH - 3) % 1000
    line = $0
    nd += gsub(/[0-9]/, "#", line)
    if (sub(/ path=[^ ]+/, "", line)) np++
    n = split(line, w, /[ =\/.@]+/)
    for (i = 1; i <= n; i++) if (w[i] ~ /^[a-z][a-z][a-z]+$/) words[w[i]]++
}
END {
    for (k in pat) printf "%s %d\n", k, hit[k]
    for (u in users) { m = 0; for (k in byul) { split(k, uk, SUBSEP); if (uk[1] == u) m++ } ul[u] = m }
    n = 0; for (u in users) keys[++n] = u
    for (i = 2; i <= n; i++) { v = keys[i]; for (j = i - 1; j > 0 && keys[j] > v; j--) keys[j + 1] = keys[j]; keys[j + 1] = v }
    for (i = 1; i <= n; i++) printf "%s %d levels %d ids %d\n", keys[i], users[keys[i]], ul[keys[i]], idsum[keys[i]]
    c = 0; big = 0
    for (x in words) { c++; if (words[x] > 1000) big++ }
    for (x in words) if (x ~ /^[a-m]/) delete words[x]
    left = 0; for (x in words) left++
    printf "digits %d paths %d words %d frequent %d left %d\n", nd, np, c, big, left
    printf "alice-info %d\n", (("alice" SUBSEP "INFO") in byul) ? byul["alice", "INFO"] : -1
}
