/* A library with a counted function, loaded and unloaded with dlopen. */
#include <perfinst.h>
PERFINST("count")
int lib_work(int n)
{
    int s = 0;                      // expect-count: 30
    for (int i = 0; i < n; i++)     // expect-count: 3030
        s ^= i * 7;                 // expect-count: 3000
    return s;
}
