/* piri.h — the one reader of report groups (runtime instrumentation, seed
 * 001): the records of a PI_REC_RI trace record, checked and named.
 * perfinst-format.h has the layout, docs/formats.md explains it. */
#ifndef PERFINST_PIRI_H
#define PERFINST_PIRI_H

#include <stddef.h>
#include <stdint.h>
#include "perfinst-format.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "FILLER", "EXTRA", "BEGIN", ...; "?" for an unknown type. */
const char *pi_ri_rec_name(uint8_t type);
/* "count", "cycles", "none"; "?" */
const char *pi_ri_mode_name(uint8_t mode);

/* Check one report group of 2^(rgs+1) records (g need not be aligned):
 * record 0 BEGIN (first != 0) or TIMESTAMP with the right rgs; the body
 * event records (EMIT, CALL, RETURN, TRANSFER) then only FILLER; the
 * second-to-last record an EXTRA SYSINFO; the last an INSTRUCTION.  0, or
 * -1 with the reason in why. */
int pi_ri_check_group(const uint8_t *g, uint32_t rgs, int first, char *why, size_t n);

/* Record i of group g (copied out: g may be unaligned). */
struct pi_ri_rec pi_ri_record(const uint8_t *g, uint32_t i);

#ifdef __cplusplus
}
#endif

#endif
