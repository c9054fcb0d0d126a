/* watched.c — the fixture of the watch views (watched.json, t-watch.sh):
 * variables of every shape a watched word is named through (an array, a
 * scalar, an array of structs, a two-dimensional array of structs with
 * bit-fields and a char array, a union, an anonymous struct member, a
 * static local); main's accesses are the data sites of the spec. */
#include "markers.h"

long table[4];
long counter;
struct rec { int hot; int cold; long pad; };
struct rec recs[2];
struct cell { unsigned a : 3, b : 5; short s; char name[6]; };
struct cell grid[2][3];
union both { long l; int i[2]; } un;
struct outer { int tag; struct { int x, y; }; } anon;

int main(int argc, char **argv)
{
    static long hits;
    PI_S(0); table[argc & 3] += argc; PI_E(0);
    counter++;
    recs[1].hot = argc;
    hits++;
    (void)argv;
    return (int)(table[0] + counter + recs[1].hot + grid[1][2].s + un.l + anon.y + hits);
}
