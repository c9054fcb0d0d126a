#include "moved-hdr.h"
/* never runs in training: no profile is keyed to b.c */
int b_rare(int x)
{
    return hdr_mix(x) + 1;
}
