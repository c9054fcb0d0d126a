/* splitbrace.c — GCC's early ipa-split cuts indent in two (indent, which
 * tests flags, and indent.part.0, the rest): both end at indent's closing
 * brace, which gcov's whole indent passes once per call
 * (tests/count/t-lines-gcov.sh) */
#include <stdio.h>
#include <string.h>
struct pb { char *buf; int bpos, size; };
__attribute__((noinline)) int pb_memset(struct pb *pb, int offset, int charvalue, int len)
{ if (len > 0) { memset(pb->buf + pb->bpos, charvalue, len); pb->bpos += len; } return 0; }

static void indent(struct pb *pb, int level, int flags)
{
	if (flags & 1)
	{
		if (flags & 2)
		{
			pb_memset(pb, -1, '\t', level);
		}
		else
		{
			pb_memset(pb, -1, ' ', level * 2);
		}
	}
} /* @brace */

__attribute__((noinline)) void emit(struct pb *pb, int level, int flags) { pb->bpos = 0; indent(pb, level, flags); indent(pb, level + 1, flags); }

int main(int argc, char **argv)
{
	static char b[4096]; struct pb pb = {b, 0, sizeof b};
	long s = 0;
	for (int i = 0; i < 100000; i++) { emit(&pb, i % 7, (i % 3) | argc); s += pb.bpos; }
	printf("%ld\n", s);
	return 0;
}
