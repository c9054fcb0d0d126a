#include <stdio.h>

int a_sum(const int *p, int n);
int b_sum(const int *p, int n);
int x_run(int n);
int y_run(int n);

int main(void)
{
    static const int v[] = { 1, 2, 3, 4, 5 };
    printf("%d %d %d %d\n", a_sum(v, 3), b_sum(v, 5), x_run(2), y_run(6));
    return 0;
}
