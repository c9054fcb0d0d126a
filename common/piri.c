/* piri.c — the report-group reader (piri.h). */
#include <stdio.h>
#include <string.h>

#include "piri.h"

const char *pi_ri_rec_name(uint8_t type)
{
    switch (type) {
    case PI_RI_FILLER: return "FILLER";
    case PI_RI_EXTRA: return "EXTRA";
    case PI_RI_BEGIN: return "BEGIN";
    case PI_RI_TIMESTAMP: return "TIMESTAMP";
    case PI_RI_INSTRUCTION: return "INSTRUCTION";
    case PI_RI_EMIT: return "EMIT";
    case PI_RI_CALL: return "CALL";
    case PI_RI_RETURN: return "RETURN";
    case PI_RI_TRANSFER: return "TRANSFER";
    }
    return "?";
}

const char *pi_ri_mode_name(uint8_t mode)
{
    switch (mode) {
    case 0: return "count";
    case 1: return "cycles";
    case 2: return "none";
    }
    return "?";
}

struct pi_ri_rec pi_ri_record(const uint8_t *g, uint32_t i)
{
    struct pi_ri_rec r;
    memcpy(&r, g + 16 * (size_t)i, sizeof r);
    return r;
}

static int is_event(uint8_t t)
{
    return t == PI_RI_EMIT || t == PI_RI_CALL || t == PI_RI_RETURN || t == PI_RI_TRANSFER;
}

int pi_ri_check_group(const uint8_t *g, uint32_t rgs, int first, char *why, size_t n)
{
    if (rgs < PI_RI_RGS_MIN || rgs > PI_RI_RGS_MAX) {
        snprintf(why, n, "rgs %u is outside %u..%u", rgs, PI_RI_RGS_MIN, PI_RI_RGS_MAX);
        return -1;
    }
    uint32_t nrec = PI_RI_GROUP_RECORDS(rgs);
    struct pi_ri_rec h = pi_ri_record(g, 0);
    uint8_t want = first ? PI_RI_BEGIN : PI_RI_TIMESTAMP;
    if (h.type != want) {
        snprintf(why, n, "record 0 is %s (%u), expected %s", pi_ri_rec_name(h.type), h.type,
                 pi_ri_rec_name(want));
        return -1;
    }
    if (h.a[0] != rgs) {
        snprintf(why, n, "the header says rgs %u, the buffer %u", h.a[0], rgs);
        return -1;
    }
    int filler = 0;
    for (uint32_t i = 1; i + 2 < nrec; i++) {
        struct pi_ri_rec r = pi_ri_record(g, i);
        if (r.type == PI_RI_FILLER) {
            static const uint8_t zero[16];
            if (memcmp(&r, zero, sizeof r)) {
                snprintf(why, n, "record %u: a filler record that is not all zero", i);
                return -1;
            }
            filler = 1;
        } else if (!is_event(r.type) || filler) {
            snprintf(why, n, "record %u is %s (%u)%s", i, pi_ri_rec_name(r.type), r.type,
                     filler ? " after filler" : ", not a body record");
            return -1;
        }
    }
    struct pi_ri_rec x = pi_ri_record(g, nrec - 2), f = pi_ri_record(g, nrec - 1);
    if (x.type != PI_RI_EXTRA || x.flags != PI_RI_EXTRA_SYSINFO) {
        snprintf(why, n, "record %u is %s (%u), expected EXTRA sysinfo", nrec - 2,
                 pi_ri_rec_name(x.type), x.type);
        return -1;
    }
    if (f.type != PI_RI_INSTRUCTION) {
        snprintf(why, n, "the last record (%u) is %s (%u), expected INSTRUCTION", nrec - 1,
                 pi_ri_rec_name(f.type), f.type);
        return -1;
    }
    return 0;
}
