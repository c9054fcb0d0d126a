/* elfscan.c — reading an ELF64 file in memory by hand (the runtime may use
 * only libc: no libelf): bounds, the build-id note and a section by name.
 * The loader stage (loader.c) and the function metadata reader (fnmeta.c)
 * share it, and decode the section's chunks with common/piformat.c; the
 * fuzz harnesses link it alone (it depends on nothing else of the
 * runtime). */
#include "runtime.h"

#include <elf.h>
#include <stddef.h>
#include <string.h>

/* The NT_GNU_BUILD_ID of a run of notes (a PT_NOTE segment or SHT_NOTE section). */
uint32_t pi_note_build_id(const unsigned char *p, size_t size, size_t align, uint8_t *out)
{
    align = align == 8 ? 8 : 4;
    size_t pos = 0;
    while (size - pos >= sizeof(Elf64_Nhdr)) {
        Elf64_Nhdr nh;
        memcpy(&nh, p + pos, sizeof nh);
        size_t name = pos + sizeof nh;
        size_t desc = name + ((nh.n_namesz + align - 1) & ~(align - 1));
        size_t next = desc + ((nh.n_descsz + align - 1) & ~(align - 1));
        if (nh.n_namesz > size || nh.n_descsz > size || next > size || next <= pos)
            break;
        if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && !memcmp(p + name, "GNU", 4) &&
            nh.n_descsz && nh.n_descsz <= PI_BUILD_ID_MAX) {
            memcpy(out, p + desc, nh.n_descsz);
            return nh.n_descsz;
        }
        pos = next;
    }
    return 0;
}

/* Is [off, off+len) inside a file of size `size`? */
int pi_in_file(uint64_t off, uint64_t len, uint64_t size)
{
    return off <= size && len <= size - off;
}

/* The section NAME of the ELF64 file f[0..size): its header in *out (the
 * first, if several: *count says how many), and the first NT_GNU_BUILD_ID
 * note's bytes in bid (its length in bid_len) when bid is given.  NULL, or why the file's
 * headers cannot be read.  fnmeta.c reads .perfinst with it. */
const char *pi_elf_section(const unsigned char *f, size_t size, const char *name, Elf64_Shdr *out,
                           int *count, uint8_t *bid, uint32_t *bid_len)
{
    Elf64_Ehdr eh;
    *count = 0;
    if (bid_len)
        *bid_len = 0;
    if (size < sizeof eh)
        return "not an ELF file";
    memcpy(&eh, f, sizeof eh);
    if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
        eh.e_ident[EI_DATA] != ELFDATA2LSB)
        return "not a little-endian ELF64 file";
    if (!eh.e_shoff || eh.e_shentsize != sizeof(Elf64_Shdr))
        return "no section headers";

    Elf64_Shdr sh0;
    if (!pi_in_file(eh.e_shoff, sizeof sh0, size))
        return "section headers lie outside the file";
    memcpy(&sh0, f + eh.e_shoff, sizeof sh0);
    uint64_t shnum = eh.e_shnum ? eh.e_shnum : sh0.sh_size;
    uint64_t shstrndx = eh.e_shstrndx == SHN_XINDEX ? sh0.sh_link : eh.e_shstrndx;
    if (shnum > (size - eh.e_shoff) / sizeof(Elf64_Shdr) || shstrndx >= shnum)
        return "section headers lie outside the file";

#define SHDR(i, out) memcpy(&(out), f + eh.e_shoff + (i) * sizeof(Elf64_Shdr), sizeof(out))
    Elf64_Shdr strs;
    SHDR(shstrndx, strs);
    if (strs.sh_type == SHT_NOBITS || !pi_in_file(strs.sh_offset, strs.sh_size, size))
        return "section names lie outside the file";

    size_t want = strlen(name) + 1;
    for (uint64_t i = 1; i < shnum; i++) {
        Elf64_Shdr s;
        SHDR(i, s);
        if (bid && s.sh_type == SHT_NOTE && !*bid_len && pi_in_file(s.sh_offset, s.sh_size, size))
            *bid_len = pi_note_build_id(f + s.sh_offset, s.sh_size, s.sh_addralign, bid);
        if (s.sh_name < strs.sh_size && strs.sh_size - s.sh_name >= want &&
            !memcmp(f + strs.sh_offset + s.sh_name, name, want) && (*count)++ == 0)
            *out = s;
    }
#undef SHDR
    return NULL;
}
