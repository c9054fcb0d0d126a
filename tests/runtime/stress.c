/* stress.c — everything at once, for t-stress.sh: 100 rounds of 4 threads
 * counting 10000 each, a thread writing the trace 50 times, and a thread
 * dlopen'ing LIB, calling lib_work(10) and dlclose'ing it 50 times. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "fake-unit.h"
FAKE_UNIT(a, 0xa, 1)
static const char *lib;
static void *worker(void *p) { for (int i = 0; i < 10000; i++) HIT(a, 0); return NULL; }
static void *writer(void *p) { for (int i = 0; i < 50; i++) perfinst_write_trace(); return NULL; }
static void *dl(void *p) {
  for (int i = 0; i < 50; i++) { void *h = dlopen(lib, RTLD_NOW); void (*w)(long) = dlsym(h, "lib_work"); w(10); dlclose(h); }
  return NULL; }
int main(int argc, char **argv) {
  lib = argv[1];
  pthread_t w, d; pthread_create(&w, NULL, writer, NULL); pthread_create(&d, NULL, dl, NULL);
  for (int r = 0; r < 100; r++) { pthread_t t[4]; for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, worker, NULL); for (int i = 0; i < 4; i++) pthread_join(t[i], NULL); }
  pthread_join(w, NULL); pthread_join(d, NULL);
  return 0;
}
