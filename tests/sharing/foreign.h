struct pair {
    volatile long a, b;
};
struct pair *lib_make_pair(void);
