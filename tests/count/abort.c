/* Touches a global from two threads, then aborts: a sharing=all build must
 * still leave its trace (the sharing records and the SIGNAL). */
#include <pthread.h>
#include <stdlib.h>
long cells[8];
static void *work(void *p)
{
    for (long i = 0; i < 1000; i++)
        cells[(long)p] += i;
    return NULL;
}
int main(void)
{
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, work, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    abort();
}
