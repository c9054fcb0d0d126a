# bench/gawk/numeric.awk — numeric loops (bench/workloads.sh, gawk's
# `numeric` workload; no input): a sieve in an array, a Mandelbrot set, a
# recurrence with integer and floating arithmetic, string-to-number
# conversions; -v scale=S sets the size
BEGIN {
    if (scale == "") scale = 1
    n = int(500000 * scale)
    for (i = 2; i <= n; i++) p[i] = 1
    for (i = 2; i * i <= n; i++)
        if (p[i]) for (j = i * i; j <= n; j += i) p[j] = 0
    np = 0
    for (i = 2; i <= n; i++) np += p[i]
    printf "primes %d\n", np
    w = int(120 * sqrt(scale)); h = int(80 * sqrt(scale)); inside = 0
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
            cr = 3.0 * x / w - 2.0; ci = 2.0 * y / h - 1.0; zr = zi = 0
            for (k = 0; k < 100 && zr * zr + zi * zi < 4; k++) {
                t = zr * zr - zi * zi + cr; zi = 2 * zr * zi + ci; zr = t
            }
            if (k == 100) inside++
        }
    printf "inside %d of %d\n", inside, w * h
    a = 1; b = 0; s = 0
    for (i = 1; i <= n; i++) {
        a = (a * 1103515245 + 12345) % 2147483648
        b += (a % 1000) / 7.0
        s += int(b) % 13
        if (i % 1000 == 0) { str = sprintf("%d.%03d", i, a % 1000); s += str + 0 }
    }
    printf "recurrence %d %.3f %d\n", a, b, s
}
