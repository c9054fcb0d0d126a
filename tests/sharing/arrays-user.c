/* Another unit that indexes arrays.c's global `g` with the declared stride:
 * linked with an arrays.c whose g was padded (renamed g.perfinst_padded),
 * it must fail to link rather than read the wrong bytes. */
extern volatile long g[2];

long arrays_user_sum(void)
{
    return g[0] + g[1];
}
