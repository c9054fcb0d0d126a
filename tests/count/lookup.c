/* Looks up, through the runtime's translation table, every byte of every
 * code range that pmopt dump-meta lists for this program, and checks that
 * the shadow item found is that range's site and that its count is live.
 * argv[1]: file of "ADDR LENGTH SITE" lines (link-time addresses);
 * argv[2]: link-time address of main (for the load bias). */
#include <perfinst.h>
#include <stdio.h>
#include <stdlib.h>

PERFINST("count")
int work(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += (i % 3) ? i : -i;
    return s;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    work(50);
    FILE *f = fopen(argv[1], "r");
    unsigned long long main_link = strtoull(argv[2], NULL, 16);
    long long bias = (long long)((unsigned long long)(uintptr_t)&main - main_link);
    unsigned long long addr;
    unsigned len, site;
    int ranges = 0, bytes = 0, bad = 0;
    unsigned long long entry_count = 0;
    while (fscanf(f, "%llx %u %u", &addr, &len, &site) == 3) {
        ranges++;
        if (site == 0) { /* work's entry block: executed once */
            const struct perfinst_shadow_item *e = perfinst_shadow_lookup((void *)(uintptr_t)(addr + bias));
            entry_count = e ? perfinst_item_count(e) : 0;
        }
        for (unsigned k = 0; k < len; k++, bytes++) {
            const struct perfinst_shadow_item *it = perfinst_shadow_lookup((void *)(uintptr_t)(addr + bias + k));
            if (!it || it->site != site || it->addr != addr + bias) {
                if (bad++ < 5)
                    fprintf(stderr, "0x%llx+%u: %s site %u\n", addr, k, it ? "wrong" : "no item",
                            it ? it->site : 0);
            }
        }
    }
    printf("%d ranges, %d bytes, %d wrong; entry count of work %llu; main has item: %s\n", ranges,
           bytes, bad, entry_count,
           perfinst_shadow_lookup((void *)(uintptr_t)&main) ? "yes" : "no");
    return bad != 0;
}
