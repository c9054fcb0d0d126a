/* forksig.c — fork children signalled at once (t-fork.sh): Redis kills a
 * fresh BGSAVE child with SIGUSR1.  The parent counts parent_only 50
 * times before the forks; a child never calls it.  A child still alive 5 s
 * after its SIGUSR1 (the default action ends it) is killed and counted as
 * hung. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) int parent_only(int x)
{
    return x * 3 + 1;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 20, s = 0, hung = 0, killed = 0;
    for (int i = 0; i < 50; i++)
        s += parent_only(i);
    for (int i = 0; i < n; i++) {
        pid_t p = fork();
        if (p < 0)
            return 2;
        if (p == 0)
            for (;;)
                pause();
        kill(p, SIGUSR1);
        int st = 0, k;
        for (k = 0; k < 500 && waitpid(p, &st, WNOHANG) == 0; k++)
            usleep(10000);
        if (k == 500) {
            kill(p, SIGKILL);
            waitpid(p, &st, 0);
            hung++;
        } else if (WIFSIGNALED(st) && WTERMSIG(st) == SIGUSR1)
            killed++;
    }
    printf("%d forks, %d ended by SIGUSR1, %d hung; %d\n", n, killed, hung, s);
    return hung != 0;
}
