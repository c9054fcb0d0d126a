/* Directives on the wrong kind of declaration or statement. */
#pragma perfinst watch  // expect-error: directive 'watch' cannot apply to a function
int f(void) { return 1; }

#pragma perfinst callret  // expect-error: directive 'callret' cannot apply to a variable
int v;

__attribute__((perfinst("count"))) int w;  // expect-error: directive 'count' cannot apply to a variable

struct s {
    int x __attribute__((perfinst("trap")));  // expect-error: directive 'trap' cannot apply to a struct field
    int y __attribute__((perfinst("watch")));
};

int g(int n) {
    int s = 0;
    #pragma perfinst types(branch)  // expect-error: directive 'types' cannot apply to a statement
    for (int i = 0; i < n; i++) s += i;
    #pragma perfinst count  // expect-error: is not followed by a statement
}

int h(int n) {
    #pragma perfinst region begin(r1)
    n++;
    #pragma perfinst region end(r1)
    #pragma perfinst trace_start
    n++;
    #pragma perfinst trace_stop
    return n;
}

#pragma perfinst trace_start  // expect-error: directive 'trace_start' cannot apply to a function
int k(void) { return 0; }

#pragma perfinst count  // expect-error: is not followed by a function or variable definition
