/* A scanner's character loop (the shape of libyaml's
 * yaml_emitter_analyze_scalar): no call, a dozen conditions each setting a
 * flag, every arm a counter of the counting copy.  t-crowded-loop.sh.
 * The input is REPS copies of PATTERN: 14 characters, of which 2 ',',
 * 1 ':', 1 '#', 3 ' ', 1 '\t', 1 '\n', 1 '-', 1 '[', 1 '\xc2' (+1 byte). */
#include <stdio.h>
#include <string.h>

#define REPS 2000
static const char PATTERN[] = "a,b: c#\t-[x\n,\xc2\xa0"; /* 14 bytes */

struct verdict {
    int flow, block, special, breaks, lead_space, trail_space, lead_break, trail_break, space_break, break_space;
    int wide;
};

__attribute__((noinline)) static void analyze(const unsigned char *s, size_t n, int unicode, struct verdict *v)
{
    const unsigned char *p = s, *end = s + n;
    int flow = 0, block = 0, special = 0, breaks = 0, lead_space = 0, trail_space = 0, lead_break = 0;
    int trail_break = 0, space_break = 0, break_space = 0, prev_space = 0, prev_break = 0, wide = 0;
    int preceded_ws = 1, followed_ws = n > 1 && (p[1] == ' ' || p[1] == '\t');
    while (p != end) {                                        // expect-count: 56002
        unsigned c = *p;
        size_t w = (c & 0x80) == 0x00 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : 4;
        if (p == s) {
            if (c == '#' || c == ',' || c == '[' || c == ']' || c == '{' || c == '}' || c == '&' || c == '*')
                flow = block = 1;
            if (c == '?' || c == ':') {
                flow = 1;
                if (followed_ws)
                    block = 1;
            }
        } else {
            if (c == ',' || c == '?' || c == '[' || c == ']' || c == '{' || c == '}')
                flow = 1;
            if (c == ':') {
                flow = 1;                                     // expect-count: 4000
                if (followed_ws)
                    block = 1;
            }
            if (c == '#' && preceded_ws) {
                flow = 1;
                block = 1;
            }
        }
        if (!(c == 0x0A || (c >= 0x20 && c <= 0x7E) || c == 0xC2 || c == 0xE2 || c == 0xEF || c == 0x09) ||
            (c >= 0x80 && !unicode))
            special = 1;
        if (c == '\n' || c == '\r')
            breaks = 1;
        if (c == ' ' || c == '\t') {
            if (p == s)
                lead_space = 1;
            if (p + w == end)
                trail_space = 1;
            if (prev_break)
                break_space = 1;
            prev_space = 1;                                   // expect-count: 8000
            prev_break = 0;
        } else if (c == '\n' || c == '\r') {
            if (p == s)
                lead_break = 1;
            if (p + w == end)
                trail_break = 1;
            if (prev_space)
                space_break = 1;
            prev_space = 0;                                   // expect-count: 4000
            prev_break = 1;
        } else {
            prev_space = 0;
            prev_break = 0;
        }
        if (w > 1)
            wide++;                                           // expect-count: 4000
        preceded_ws = c == ' ' || c == '\t' || c == '\n' || c == '\r';
        p += w;
        if (p != end)
            followed_ws = p + 1 < end && (p[1] == ' ' || p[1] == '\t' || p[1] == '\n' || p[1] == 0);
    }
    v->flow = flow; v->block = block; v->special = special; v->breaks = breaks;
    v->lead_space = lead_space; v->trail_space = trail_space; v->lead_break = lead_break;
    v->trail_break = trail_break; v->space_break = space_break; v->break_space = break_space; v->wide = wide;
}

int main(void)
{
    static unsigned char buf[REPS * (sizeof PATTERN - 1)];
    size_t len = sizeof PATTERN - 1, n = 0;
    for (int i = 0; i < REPS; i++, n += len)
        memcpy(buf + n, PATTERN, len);
    struct verdict v;
    unsigned long sum = 0;
    for (int u = 0; u < 2; u++) {                             // expect-count: 3
        analyze(buf, n, u, &v);
        sum = sum * 31 + v.flow + 2 * v.block + 4 * v.special + 8 * v.breaks + 16 * v.lead_space +
              32 * v.trail_space + 64 * v.lead_break + 128 * v.trail_break + 256 * v.space_break +
              512 * v.break_space + 1024 * (unsigned long)v.wide;
    }
    printf("%lu\n", sum);
    return 0;
}
