/* markers.h — labels for the pmopt test fixtures.  PI_S(n)/PI_E(n) put the
 * local labels .Lpi_sN/.Lpi_eN into the code, where the plugin would put a
 * site's start and end labels; pigen.py writes CODE ranges [sN, eN) and
 * takes a site's line from the line of PI_S(n).  Fixtures are built with
 * -O0 so that every marker stays where it is written, exactly once. */
#define PI_S(n) __asm__ volatile(".Lpi_s" #n ":")
#define PI_E(n) __asm__ volatile(".Lpi_e" #n ":")
