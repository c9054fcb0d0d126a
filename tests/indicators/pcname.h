/* pcname.h — the handler fixtures' name of the function holding a pc
 * (dladdr: the program is linked with -rdynamic).  f's counting copy is
 * the symbol f.count.N (counting=function, the default; an exported f's
 * copy is exported too, docs/indicators.md): it is named f.  Up to 8
 * names can be in use at once. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *sym(uintptr_t pc)
{
    static char names[8][64];
    static unsigned k;
    Dl_info info;
    if (!dladdr((void *)pc, &info) || !info.dli_sname)
        return "?";
    char *n = names[k++ % 8];
    snprintf(n, sizeof names[0], "%s", info.dli_sname);
    char *dot = strstr(n, ".count.");
    if (dot)
        *dot = 0;
    return n;
}
