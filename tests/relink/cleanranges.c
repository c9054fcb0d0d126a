/* work() runs the same straight-line code on every call; a path never
 * taken calls a cold function thirty times.  At -O2 that path goes to
 * work's cold part (work.cold, .text.unlikely): the clean copy work is its
 * hot code only.  Its counting copy compiled at -O1 (counting-opt=lean:
 * no partitioning) keeps the path in its body, which is then mostly
 * code that never ran. */
__attribute__((cold, noinline)) void complain(int what, long v);
volatile long in[48];

__attribute__((noinline)) long work(long x)
{
    long a = x;
#define STEP(i) a = a * 3 + in[i];
    STEP(0) STEP(1) STEP(2) STEP(3) STEP(4) STEP(5) STEP(6) STEP(7)
    STEP(8) STEP(9) STEP(10) STEP(11) STEP(12) STEP(13) STEP(14) STEP(15)
    STEP(16) STEP(17) STEP(18) STEP(19) STEP(20) STEP(21) STEP(22) STEP(23)
    STEP(24) STEP(25) STEP(26) STEP(27) STEP(28) STEP(29) STEP(30) STEP(31)
    if (x < 0) {
#define C(i) complain(i, a + in[i + 16]);
        C(0) C(1) C(2) C(3) C(4) C(5) C(6) C(7) C(8) C(9) C(10) C(11) C(12) C(13) C(14)
        C(15) C(16) C(17) C(18) C(19) C(20) C(21) C(22) C(23) C(24) C(25) C(26) C(27)
        C(28) C(29)
    }
    return a;
}
