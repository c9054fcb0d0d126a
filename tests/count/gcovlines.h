/* gcovlines.h — gcovlines.c's helper from another file: its line cuts a
   block's run of gcovlines.c's lines in two, as zstd's MEM_read32 does */
static inline unsigned rd16(const unsigned char *p)
{
    return (unsigned)p[0] | (unsigned)p[1] << 8;
}
