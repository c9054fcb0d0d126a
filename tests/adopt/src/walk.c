__attribute__((noinline)) int step(int x)
{
    return x * 3 + 1;
}

__attribute__((noinline)) int walk(int seed)
{
    int s = 0;
    for (int k = 0; k < 3; k++)
        s += step(seed + k);
    return s;
}
