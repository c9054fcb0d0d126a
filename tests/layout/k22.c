/* k22.c — a fixture for t-edges.sh (metadata from k22.json, as the plugin
 * would make it): blocks 1 and 2 both branch to blocks 3 and 4, so block
 * counts alone do not determine those four edges. */
#include "markers.h"

int k22(int x)
{
    PI_S(0); x += 1; PI_E(0);
    PI_S(1); x += 2; PI_E(1);
    PI_S(2); x += 3; PI_E(2);
    PI_S(3); x += 4; PI_E(3);
    PI_S(4); x += 5; PI_E(4);
    PI_S(5); x += 6; PI_E(5);
    return x;
}

int main(void)
{
    return k22(0) == 21 ? 0 : 1;
}
