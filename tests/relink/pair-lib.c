/* A library function and another (tests/relink/t-onecmd.sh, t-listing.sh). */
int work(int n) { int s = 0; for (int i = 0; i < n; i++) s += (i % 3) ? i : -i; return s; }
int other(int n) { return n * 2; }
