/* dump-ri.c — `pmopt dump` of an RI record (report groups of one thread's
 * program buffer), record by record:
 *
 *   #3 @0x98 RI tid 4242, seq 0, rgs 2, ngroups 2, flags 0x0 (-), suppressed 0, lost 0
 *       group 0
 *         [0] BEGIN flags 0x0 (-), rgs 2, mode count, nrg 2, tod_ns 1795312408041481623
 *         [1] CALL addr 0x55674b0c5144, target 0x55674b0c529f
 *         [2] FILLER
 *         ...
 *         [6] EXTRA sysinfo cpu 1, signature 0x00a00f11, microcode 0x1000065, capability primary
 *         [7] INSTRUCTION flags 0x1 (count), addr 0x55674b0c52a9, units 5
 *
 * A group whose layout is wrong is named with the reason (piri.h checks it)
 * and makes the dump fail.
 */
#include <stdio.h>

#include "piri.h"
#include "pmopt.h"

static void hdr_flags(uint8_t f, char *buf, size_t n)
{
    snprintf(buf, n, "%s%s%s", f & PI_RI_HF_STOPPED ? "S" : "", f & PI_RI_HF_HALTED ? "H" : "",
             f & PI_RI_HF_SECONDARY ? "T" : "");
    if (!buf[0])
        snprintf(buf, n, "-");
}

static void why_flags(uint8_t f, char *buf, size_t n)
{
    snprintf(buf, n, "%s%s%s%s%s", f & PI_RI_IF_COUNT ? "count" : "",
             (f & PI_RI_IF_COUNT) && (f & (PI_RI_IF_CYCLES | PI_RI_IF_DIRECTED)) ? "|" : "",
             f & PI_RI_IF_CYCLES ? "cycles" : "",
             (f & PI_RI_IF_CYCLES) && (f & PI_RI_IF_DIRECTED) ? "|" : "",
             f & PI_RI_IF_DIRECTED ? "directed" : "");
    if (!buf[0])
        snprintf(buf, n, "-");
}

void pm_ri_print_rec(const struct pi_ri_rec *r)
{
    char fl[32];
    printf("%s", pi_ri_rec_name(r->type));
    switch (r->type) {
    case PI_RI_BEGIN:
    case PI_RI_TIMESTAMP:
        hdr_flags(r->flags, fl, sizeof fl);
        printf(" flags 0x%x (%s), rgs %u, mode %s, %s %u, tod_ns %llu", r->flags, fl, r->a[0],
               pi_ri_mode_name(r->a[1]), r->type == PI_RI_BEGIN ? "nrg" : "group", pi_ri_nrg(r),
               (unsigned long long)pi_ri_val(r));
        break;
    case PI_RI_EXTRA:
        if (r->flags == PI_RI_EXTRA_SYSINFO)
            printf(" sysinfo cpu %u, signature 0x%08x, microcode 0x%x, capability %s",
                   (unsigned)pi_ri_le(r->a, 2), (unsigned)pi_ri_le(r->a + 2, 4),
                   (unsigned)pi_ri_le(r->b, 4), r->b[4] ? "secondary" : "primary");
        else
            printf(" kind %u", r->flags);
        break;
    case PI_RI_INSTRUCTION:
        why_flags(r->flags, fl, sizeof fl);
        printf(" flags 0x%x (%s), addr 0x%llx, units %llu", r->flags, fl,
               (unsigned long long)pi_ri_addr(r), (unsigned long long)pi_ri_val(r));
        break;
    case PI_RI_EMIT:
        printf(" addr 0x%llx, value %llu (0x%llx)", (unsigned long long)pi_ri_addr(r),
               (unsigned long long)pi_ri_val(r), (unsigned long long)pi_ri_val(r));
        break;
    case PI_RI_CALL:
    case PI_RI_RETURN:
    case PI_RI_TRANSFER:
        printf(" addr 0x%llx, target 0x%llx%s", (unsigned long long)pi_ri_addr(r),
               (unsigned long long)pi_ri_val(r), r->flags & PI_RI_EF_MAE ? " (MAE)" : "");
        break;
    case PI_RI_FILLER:
        break;
    default:
        printf(" (%u)", r->type);
    }
    putchar('\n');
}

int pm_ri_dump(const struct pi_trace_rec *rec)
{
    const struct pi_rec_ri *h = &rec->u.ri;
    printf(" tid %u, seq %u, rgs %u, ngroups %u, flags 0x%x (%s%s%s%s), suppressed %llu, lost %llu\n",
           h->tid, h->seq, h->rgs, h->ngroups, h->flags, h->flags & PI_RIB_DRAINED ? "drained " : "",
           h->flags & PI_RIB_HALTED ? "halted " : "", h->flags & PI_RIB_STOPPED ? "stopped " : "",
           h->flags ? "" : "-", (unsigned long long)h->suppressed, (unsigned long long)h->lost);
    int bad = 0;
    uint32_t nrec = PI_RI_GROUP_RECORDS(h->rgs);
    for (uint32_t g = 0; g < h->ngroups; g++) {
        const uint8_t *grp = rec->groups + (size_t)g * PI_RI_GROUP_BYTES(h->rgs);
        char why[160];
        printf("    group %u\n", g);
        if (pi_ri_check_group(grp, h->rgs, g == 0, why, sizeof why)) {
            printf("      BAD: %s\n", why);
            bad = 1;
        }
        for (uint32_t i = 0; i < nrec; i++) {
            struct pi_ri_rec r = pi_ri_record(grp, i);
            printf("      [%u] ", i);
            pm_ri_print_rec(&r);
        }
    }
    return bad ? -1 : 0;
}
