# test.awk — bench/projects/gawk.sh's held-out mix over the same kind of
# corpus: regular expressions (match with captures, gsub, split on a
# regexp), string functions (substr, index, toupper, sprintf), a recursive
# user function, asort and asorti, numeric work.
function digits(x) { return x < 10 ? x : digits(int(x / 10)) + x % 10 }
{
    if (match($0, /id=([0-9]+) path=\/([a-z]+)\/([a-z]+)\/([0-9]+)\.txt/, m)) {
        ds += digits(m[1] + 0)
        owner[m[2]] += m[4]
        kinds[toupper(substr(m[3], 1, 3))]++
    }
    line = $0
    nsub += gsub(/[aeiou]+/, "#", line)
    k = split($0, parts, /[ =\/]+/)
    lens += k
    if (index($0, "mail ")) mails[sprintf("%s-%03d", $5, length($0) % 1000)]++
    if ($0 ~ /[αλόγοςданныесервер]/) nonascii++
}
END {
    printf "digits %d subs %d parts %d nonascii %d\n", ds, nsub, lens, nonascii
    n = asorti(owner, o)
    for (i = 1; i <= n; i++) printf "%s %d\n", o[i], owner[o[i]]
    n = asorti(kinds, o)
    for (i = 1; i <= n; i++) printf "%s %d\n", o[i], kinds[o[i]]
    n = asorti(mails, o)
    s = 0; for (i = 1; i <= n; i += 97) s = (s * 31 + length(o[i]) + mails[o[i]]) % 1000003
    printf "mails %d %d\n", n, s
    for (i = 0; i < loops; i++) { x = (x * 1103515245 + 12345) % 2147483648; h[x % 5000]++ }
    n = asort(h, v)
    printf "h %d %d %d\n", n, v[1], v[n]
}
