/* fuzz-env-ri.c — runtime/ri.c compiled into tests/runtime/fuzz-env.c's
 * harness: its PERFINST_TOPOLOGY and PERFINST_RI parsers (static) called
 * on any value, against a 4-CPU topology.
 */
#include "../../runtime/ri.c"

int fuzz_ri_topology(const char *v)
{
    static struct ri_cpu cpu[4];
    memset(cpu, 0, sizeof cpu);
    ri.cpu = cpu;
    ri.ncpu = 4;
    return parse_topology(v);
}

/* 0 and the controls in their documented ranges, or -1. */
int fuzz_ri_env(const char *v)
{
    struct perfinst_ri_controls c = {.sf = RI_DEFAULT_SF, .mode = PERFINST_RI_M_COUNT, .rgs = 2,
                                     .cb_size = RI_DEFAULT_CB};
    ri.buf_size = RI_DEFAULT_BUF;
    int r = parse_ri_env(v, &c);
    if (r == 0 && (c.rgs < PI_RI_RGS_MIN || c.rgs > PI_RI_RGS_MAX || c.cb_size < 2 || c.cb_size > 256 ||
                   ri.buf_size < 64 || ri.buf_size > (1ull << 32) || c.mode > PERFINST_RI_M_NONE))
        abort();
    return r;
}
