/* verdict-defs.h — an allocation inside a macro, as Phoenix's stddefines.h
 * writes them: the call's DWARF line is the expansion point, GCC also
 * knows it by the macro's spelling (t-verdict.sh). */
#include <assert.h>
#include <stdio.h>

#define CHECK_ERROR(a)                                               \
    if (a) {                                                         \
        perror("Error at line\n\t" #a "\nSystem Msg");               \
        assert((a) == 0);                                            \
    }

#define ALLOC_CHECKED(p, n) CHECK_ERROR(((p) = calloc((size_t)(n), sizeof *(p))) == NULL)
