/* fbtool.c — drives common/pifeedback for t-feedback.sh.
 *   fbtool write OUT           a file with three recommendations
 *   fbtool read FILE [LIST]    print what the reader kept (after selecting LIST)
 * Exit 1 with the reader's message on stderr when it refuses the file. */
#include <stdio.h>
#include <string.h>

#include "pifeedback.h"

int main(int argc, char **argv)
{
    struct pi_err err;
    if (argc == 3 && strcmp(argv[1], "write") == 0) {
        struct pifb_writer w;
        if (pifb_create(&w, argv[2], "/tmp/a prog", NULL, 0x1234abcdull, &err) < 0) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        pifb_comment(&w, "advice for people\nsecond line");
        pifb_rec_begin(&w, "align-global");
        pifb_arg(&w, "name", "counters");
        pifb_arg_u64(&w, "align", 64);
        pifb_rec_end(&w);
        pifb_rec_begin(&w, "pad-field");
        pifb_arg(&w, "type", "struct stats");
        pifb_arg(&w, "field", "a=b%c#d");
        pifb_rec_end(&w);
        pifb_rec_begin(&w, "order");
        pifb_arg(&w, "functions", "main,f,g");
        pifb_rec_end(&w);
        if (pifb_commit(&w, &err) < 0) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        return 0;
    }
    if ((argc == 3 || argc == 4) && strcmp(argv[1], "read") == 0) {
        struct pifb_file fb;
        int rc = pifb_read(argv[2], &fb, &err);
        if (rc == 0 && argc == 4)
            rc = pifb_select(&fb, argv[3], &err);
        if (rc < 0) {
            fprintf(stderr, "%s\n", err.msg);
            pifb_free(&fb);
            return 1;
        }
        printf("program=[%s] build=0x%llx\n", fb.program ? fb.program : "",
               (unsigned long long)fb.build_hash);
        for (uint32_t r = 0; r < fb.nrecs; r++) {
            printf("%u %s", fb.recs[r].number, fb.recs[r].kind);
            for (uint32_t a = 0; a < fb.recs[r].nargs; a++)
                printf(" [%s]=[%s]", fb.recs[r].args[a].key, fb.recs[r].args[a].value);
            printf("\n");
        }
        pifb_free(&fb);
        return 0;
    }
    fprintf(stderr, "usage: fbtool write OUT | fbtool read FILE [LIST]\n");
    return 2;
}
