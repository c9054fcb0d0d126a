/* fuzz-tools-rt.c — the runtime half of fuzz-tools.c: runtime/fnmeta.c (with runtime/elfscan.c and
 * common/piformat.c linked),
 * the reader of a module's .perfinst that the runtime uses for counter
 * combinations and dormant classes.  fnmeta.c is included (not linked) so
 * that its static find_section (ELF64 headers, bounds-checked by hand: no
 * libelf in the runtime) can be called on a malloc'd copy of exactly the
 * input's size — pi_fnmeta_read maps the file, where ASan cannot see a read
 * past the end within the last page. */
#include "../../runtime/fnmeta.c"

/* whole: the bytes are a module's file; else its .perfinst section. */
int fuzz_fnmeta(const unsigned char *p, size_t n, int whole)
{
    struct pi_fnmeta fm;
    struct pi_dec_err e;
    memset(&fm, 0, sizeof fm);
    const unsigned char *sec = p;
    uint64_t len = n;
    const char *why = whole ? find_section(p, n, &sec, &len) : NULL;
    if (!why)
        why = pi_fnmeta_parse(sec, len, &fm, &e);
    uint64_t sum = 0;
    if (!why)
        for (uint32_t i = 0; i < fm.nunits; i++)
            for (uint32_t s = 0; s < fm.units[i].nsites; s++)
                sum += fm.units[i].code[s].insns;
    pi_fnmeta_free(&fm);
    return why ? -1 : (int)(sum & 1);
}
