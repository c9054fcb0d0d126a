/* crc.c — the trace's CRC-32 three ways (include/perfinst-format.h): a byte
 * at a time (pi_crc32, the readers'), eight bytes a step (pi_crc32_8) and by
 * carry-less multiplication where the CPU has it (pi_crc32_fast, the
 * runtime's writer): the same register for every length and alignment. */
#include <stdint.h>

#include "unit.h"
#include "perfinst-format.h"

static uint32_t tab[8][256];

TEST(crc32_check_value)
{
    pi_crc32_tables8(tab);
    /* the standard check value of CRC-32 (ISO-HDLC) */
    EXPECT_EQ(0xcbf43926u, pi_crc32(0, "123456789", 9));
    EXPECT_EQ(0xcbf43926u, pi_crc32_fast((const uint32_t(*)[256])tab, 0, "123456789", 9));
}

TEST(crc32_three_ways_every_length_and_alignment)
{
    pi_crc32_tables8(tab);
    static unsigned char buf[4096 + 16];
    uint32_t x = 1;
    for (size_t i = 0; i < sizeof buf; i++)
        x = x * 1103515245u + 12345u, buf[i] = (unsigned char)(x >> 16);
    int n = 0;
    for (size_t len = 0; len <= 4096; len += len < 300 ? 1 : 61)
        for (size_t off = 0; off < 16; off += 3, n++) {
            uint32_t seed = (uint32_t)(len * 2654435761u);
            uint32_t a = pi_crc32(seed, buf + off, len);
            EXPECT_EQ(a, pi_crc32_8((const uint32_t(*)[256])tab, seed, buf + off, len));
            EXPECT_EQ(a, pi_crc32_fast((const uint32_t(*)[256])tab, seed, buf + off, len));
        }
    EXPECT_TRUE(n > 1000);
}
