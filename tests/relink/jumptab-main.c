int jmain(int, char **);
int main(int argc, char **argv) { return jmain(argc, argv); }
