/* secure.c — for t-hostile.sh: counts N, says whether the kernel marked the
 * process for secure execution (AT_SECURE: setuid, setgid, file
 * capabilities), writes the trace with perfinst_write_trace K times, and
 * exits with status S: `secure N K S`.  Prints "write failed" per failed
 * write, and "done" last. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include "fake-unit.h"

FAKE_UNIT(s, 0x5ec0, 1)

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1, k = argc > 2 ? atol(argv[2]) : 0;
    printf("secure=%lu\n", getauxval(AT_SECURE));
    for (long i = 0; i < n; i++)
        HIT(s, 0);
    for (long i = 0; i < k; i++)
        if (perfinst_write_trace())
            printf("write failed\n");
    printf("done\n");
    return argc > 3 ? atoi(argv[3]) : 0;
}
