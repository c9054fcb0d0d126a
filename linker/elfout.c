/* elfout.c — append non-allocated sections to a linked ELF file.
 *
 * The file is opened ELF_C_RDWR with ELF_F_LAYOUT: libelf keeps every
 * existing offset, so allocated sections and program headers are not
 * touched.  Past the end of everything the file holds (the old section
 * header table included) come
 *
 *   new section 1, new section 2, ...      (8-aligned, SHT_PROGBITS, no flags)
 *   .shstrtab, moved here and extended
 *   section header table                   (8-aligned, e_shoff updated)
 *
 * The old .shstrtab and section header table become zero bytes.  Two
 * things about elfutils (0.188) this relies on:
 *   - ELF_C_RDWR, not ELF_C_RDWR_MMAP: growing the file makes the mmap
 *     variant mremap() in place, which fails when the next pages are taken;
 *   - the whole Elf flagged ELF_F_DIRTY: only then does elf_update build the
 *     moved section header table from every section's header (otherwise it
 *     writes the old, shorter array: garbage for the new entries).  Data of
 *     sections never loaded (all but .shstrtab) is still not rewritten.
 * The new names go into .shstrtab as a second Elf_Data block, so libelf's
 * own buffer for the existing names is left alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pild.h"

static int elf_fail(const char *shown, const char *call)
{
    pild_err("%s: %s: %s", shown, call, elf_errmsg(-1));
    return -1;
}

/* *names is the buffer of new names, which libelf uses until elf_end. */
static int append(Elf *e, const char *shown, const struct pild_section *s, size_t n,
                  char **names_out)
{
    GElf_Ehdr eh;
    size_t shstrndx, phnum;
    if (!gelf_getehdr(e, &eh))
        return elf_fail(shown, "gelf_getehdr");
    if (elf_getshdrstrndx(e, &shstrndx) != 0)
        return elf_fail(shown, "elf_getshdrstrndx");
    if (elf_getphdrnum(e, &phnum) != 0)
        return elf_fail(shown, "elf_getphdrnum");
    if (shstrndx == SHN_UNDEF) {
        pild_err("%s: has no section name table", shown);
        return -1;
    }

    /* Where the file's contents end, and no duplicates. */
    size_t shnum;
    if (elf_getshdrnum(e, &shnum) != 0)
        return elf_fail(shown, "elf_getshdrnum");
    uint64_t end = eh.e_ehsize;
    if (phnum && eh.e_phoff + phnum * eh.e_phentsize > end)
        end = eh.e_phoff + phnum * eh.e_phentsize;
    if (eh.e_shoff + shnum * eh.e_shentsize > end)
        end = eh.e_shoff + shnum * eh.e_shentsize;
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(e, scn)) != NULL) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh))
            return elf_fail(shown, "gelf_getshdr");
        const char *name = elf_strptr(e, shstrndx, sh.sh_name);
        if (!name)
            return elf_fail(shown, "elf_strptr");
        for (size_t i = 0; i < n; i++)
            if (strcmp(name, s[i].name) == 0) {
                pild_err("%s: already has a %s section; refusing to write a second", shown,
                         name);
                return -1;
            }
        if (sh.sh_type != SHT_NOBITS && sh.sh_offset + sh.sh_size > end)
            end = sh.sh_offset + sh.sh_size;
    }

    /* The new names, appended to .shstrtab. */
    Elf_Scn *strscn = elf_getscn(e, shstrndx);
    GElf_Shdr strsh;
    if (!strscn || !gelf_getshdr(strscn, &strsh))
        return elf_fail(shown, "elf_getscn(.shstrtab)");
    if (!elf_getdata(strscn, NULL)) /* load the existing names before adding data */
        return elf_fail(shown, "elf_getdata(.shstrtab)");
    size_t names_size = 0;
    for (size_t i = 0; i < n; i++)
        names_size += strlen(s[i].name) + 1;
    char *names = *names_out = pild_xmalloc(names_size);
    for (size_t i = 0, at = 0; i < n; at += strlen(s[i].name) + 1, i++)
        memcpy(names + at, s[i].name, strlen(s[i].name) + 1);
    Elf_Data *nd = elf_newdata(strscn);
    if (!nd)
        return elf_fail(shown, "elf_newdata(.shstrtab)");
    nd->d_buf = names;
    nd->d_type = ELF_T_BYTE;
    nd->d_size = names_size;
    nd->d_off = (int64_t)strsh.sh_size;
    nd->d_align = 1;
    nd->d_version = EV_CURRENT;

    uint64_t name_at = strsh.sh_size; /* sh_name of the next new section */
    strsh.sh_size += names_size;
    uint64_t off = end;

    for (size_t i = 0; i < n; i++) {
        Elf_Scn *ns = elf_newscn(e);
        if (!ns)
            return elf_fail(shown, "elf_newscn");
        Elf_Data *d = elf_newdata(ns);
        if (!d)
            return elf_fail(shown, "elf_newdata");
        d->d_buf = (void *)s[i].data;
        d->d_type = ELF_T_BYTE;
        d->d_size = s[i].size;
        d->d_off = 0;
        d->d_align = 8;
        d->d_version = EV_CURRENT;

        off = ALIGN8(off);
        GElf_Shdr sh;
        if (!gelf_getshdr(ns, &sh))
            return elf_fail(shown, "gelf_getshdr(new)");
        sh.sh_name = (Elf64_Word)name_at;
        name_at += strlen(s[i].name) + 1;
        sh.sh_type = SHT_PROGBITS;
        sh.sh_flags = 0; /* not SHF_ALLOC: nothing maps it, no relocation touches it */
        sh.sh_addr = 0;
        sh.sh_offset = off;
        sh.sh_size = s[i].size;
        sh.sh_link = 0;
        sh.sh_info = 0;
        sh.sh_addralign = 8;
        sh.sh_entsize = 0;
        if (!gelf_update_shdr(ns, &sh))
            return elf_fail(shown, "gelf_update_shdr(new)");
        off += s[i].size;
    }

    strsh.sh_offset = off;
    off += strsh.sh_size;
    if (!gelf_update_shdr(strscn, &strsh))
        return elf_fail(shown, "gelf_update_shdr(.shstrtab)");
    /* Write all of .shstrtab at its new place. */
    if (!elf_flagscn(strscn, ELF_C_SET, ELF_F_DIRTY) ||
        !elf_flagshdr(strscn, ELF_C_SET, ELF_F_DIRTY))
        return elf_fail(shown, "elf_flagscn(.shstrtab)");

    eh.e_shoff = ALIGN8(off);
    if (!gelf_update_ehdr(e, &eh))
        return elf_fail(shown, "gelf_update_ehdr");
    if (elf_update(e, ELF_C_WRITE) < 0)
        return elf_fail(shown, "elf_update");
    return 0;
}

int pild_elf_append(const char *path, const char *shown, const struct pild_section *s, size_t n)
{
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        pild_err("%s: %s", shown, strerror(errno));
        return -1;
    }
    int rc = -1;
    char *names = NULL;
    Elf *e = elf_begin(fd, ELF_C_RDWR, NULL);
    if (!e)
        elf_fail(shown, "elf_begin");
    else if (elf_kind(e) != ELF_K_ELF)
        pild_err("%s: not an ELF file", shown);
    else if (elf_flagelf(e, ELF_C_SET, ELF_F_LAYOUT | ELF_F_DIRTY) == 0)
        elf_fail(shown, "elf_flagelf");
    else
        rc = append(e, shown, s, n, &names);
    if (e && elf_end(e) != 0 && rc == 0)
        rc = elf_fail(shown, "elf_end");
    free(names);
    if (rc == 0 && fsync(fd) != 0) {
        pild_err("%s: fsync: %s", shown, strerror(errno));
        rc = -1;
    }
    if (close(fd) != 0 && rc == 0) {
        pild_err("%s: close: %s", shown, strerror(errno));
        rc = -1;
    }
    return rc;
}
