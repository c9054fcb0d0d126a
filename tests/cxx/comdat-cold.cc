// comdat-cold.cc — for t-comdat-relink.sh: a copy of comdat.h's twice()
// compiled cold (.text.unlikely._Z5twicei, in the COMDAT group _Z5twicei),
// which a link that names this object first keeps.
#define TWICE_ATTR __attribute__((cold))
#include "comdat.h"

int rare_twice(int x)
{
    return twice(x) + 1;
}
