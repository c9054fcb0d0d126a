# The idle monitor's libc wrappers (runtime/idle-wrap.c), with the monitor
# off (PERFINST_IDLE unset, the default): each of them goes to libc's
# function by a load of the mode, a load of libc's pointer, two tests and
# a jump, without a frame of its own (no push, no stack adjustment, no
# call before the jump).  memcached's pthread_mutex_lock wrapper took 15
# instructions (a frame saved for the monitor's path): 5 % of the off
# mode's instructions on a server that locks on every request.
. "$PERFINST_TOP/tests/lib.sh"
command -v objdump > /dev/null || skip "objdump not installed"
lib=$B/libperfinst.so
[ -f "$lib" ] || fail "no $lib"
n=0
# (a sanitized runtime's code is the sanitizer's: its shape is not checked)
[ -n "${PERFINST_SANITIZE:-}" ] ||
for f in pthread_mutex_lock pthread_cond_wait pthread_cond_timedwait sem_wait sem_timedwait nanosleep \
    clock_nanosleep usleep sleep read recv poll epoll_wait; do
    objdump -d --no-show-raw-insn "$lib" | awk -v f="<$f>:" '$2 == f { on = 1; next } on && /^$/ { exit } on' > $f.s
    [ -s $f.s ] || fail "$f: not in $lib"
    # the instructions up to the jump into libc's function
    awk '{ print } /jmp +\*%r/ { exit }' $f.s > $f.fast
    grep -q 'jmp  *\*%r' $f.fast || { cat $f.s; fail "$f: no jump through libc's pointer"; }
    ! grep -Eq '(push|call|sub +\$0x[0-9a-f]+,%rsp)' $f.fast || { cat $f.fast; fail "$f: a frame before the jump to libc"; }
    [ "$(wc -l < $f.fast)" -le 8 ] || { cat $f.fast; fail "$f: $(wc -l < $f.fast) instructions to libc's"; }
    n=$((n + 1))
done
[ -n "${PERFINST_SANITIZE:-}" ] || ok "the $n wrappers reach libc's function without a frame, in at most 8 instructions"

# and they work before and after libc's functions are looked up, with the
# monitor off and on
cat > w.c << 'C'
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static void *work(void *p)
{
    for (int i = 0; i < 1000; i++) {
        pthread_mutex_lock(&mu);
        (*(long *)p)++;
        pthread_mutex_unlock(&mu);
    }
    struct timespec ts = {0, 1000};
    nanosleep(&ts, NULL);
    return NULL;
}
int main(void)
{
    long n = 0;
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, work, &n);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    char c;
    printf("%ld %zd\n", n, read(-1, &c, 1));
    return 0;
}
C
gcc -O2 -c w.c -o w.o
pi_ld --pi-runtime -O2 -o w w.o -pthread
assert_eq "monitor off: every lock taken, read of a bad fd -1" "4000 -1" "$(PERFINST_OUT=/dev/null ./w)"
assert_eq "monitor on: the same" "4000 -1" "$(PERFINST_IDLE=both PERFINST_OUT=w.pit ./w)"
