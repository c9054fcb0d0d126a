/* moved-hdr-a.c, moved-hdr-b.c: two units that share a header's static helper (t-moved.sh) */
/* a helper every unit that includes this header compiles out of line */
static __attribute__((noinline)) int hdr_mix(int x)
{
    int s = 0;
    for (int i = 0; i < x; i++)
        s += (i & 1) ? i : -i;
    return s;
}
