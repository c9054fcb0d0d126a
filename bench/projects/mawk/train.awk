# train.awk — bench/projects/mawk.sh's training mix over the log corpus of
# bench/projects/logs.py: field splitting (the default FS, split() on
# "-", ":", "/" and "="), substr, index, length, numeric conversion and
# sums; a few totals at the end, printed with printf.
{
    nf += NF
    split($1, d, "-"); ys += d[1]; ms += d[2]; ds += d[3]
    split($2, t, ":"); secs += t[1] * 3600 + t[2] * 60 + t[3]
    lv = substr($3, 2, length($3) - 2); lvlen += length(lv)
    for (i = 6; i <= NF; i++) {
        if (index($i, "id=") == 1) { split($i, kv, "="); ids += kv[2]; if (kv[2] % 2) odd++ }
        else if (index($i, "path=") == 1) { np = split(substr($i, 6), p, "/"); parts += np; num += p[np] + 0 }
        else if ($i ~ /ms$/) { took += $i + 0; if ($i + 0 > max) max = $i + 0 }
        else chars += length($i)
    }
    if ((c = index($0, "@")) > 0) { at++; tail += length($0) - c }
}
END {
    printf "lines %d fields %d\n", NR, nf
    printf "dates %d %d %d seconds %.0f\n", ys, ms, ds, secs
    printf "ids %.0f odd %d parts %d num %.0f\n", ids, odd, parts, num
    printf "took %.0f max %d chars %d lvlen %d at %d tail %d\n", took, max, chars, lvlen, at, tail
}
