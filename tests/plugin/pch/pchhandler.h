/* t-pch.sh: handler= in a header compiled to a precompiled header:
 * refused at its line. */
void on_many(void);
#pragma perfinst threshold(count=100, handler=on_many)
static inline int hot(int x) { return x + 1; }
