/* bench/projects/libuv/drive.c — the workload of bench/projects/libuv.sh:
 * one libuv program that runs the library's parts a user's event loop runs,
 * each a number of times the mix sets, and prints only what the input
 * decides (counts, byte totals, checksums), never how the events were
 * batched.
 *
 *   uvdrive MIX SCALE      MIX: train or test; SCALE multiplies the counts
 *   uvdrive child N        (spawned by the spawn part) prints N lines
 *
 * The parts: timers (repeating, started and stopped), idle/prepare/check
 * handles, uv_async_send from another thread (one at a time, acknowledged,
 * so none coalesce), the thread pool (uv_queue_work), file-system requests
 * through the pool (open, write, read, fstat, rename, scandir, unlink),
 * a TCP echo over loopback, a pipe echo over a socketpair, UDP datagrams to
 * itself, signals (uv_kill to itself, one at a time) and child processes
 * (this program, with its stdout through a pipe). */
#include <uv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>

#define CHECK(x) do { if (!(x)) { fprintf(stderr, "uvdrive: %s:%d: %s\n", __FILE__, __LINE__, #x); exit(1); } } while (0)

static uv_loop_t *loop;
static const char *self;

static unsigned long long mix64(unsigned long long x)
{
    x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33;
    return x;
}

/* ---- timers: 16 of them, each restarted from its callback until its count is spent ---- */
static int timer_fired;
static uv_timer_t timers[16];
static int timer_left[16];
static void timer_cb(uv_timer_t *t)
{
    int *left = t->data;
    timer_fired++;
    if (--*left > 0) uv_timer_start(t, timer_cb, (*left % 5 == 0), 0);
    else uv_close((uv_handle_t *)t, NULL);
}
static void part_timers(int n)
{
    int i;
    timer_fired = 0;
    for (i = 0; i < 16; i++) {
        timer_left[i] = n / 16 + i;
        uv_timer_init(loop, &timers[i]);
        timers[i].data = &timer_left[i];
        uv_timer_start(&timers[i], timer_cb, i % 3, 0);
    }
    uv_run(loop, UV_RUN_DEFAULT);
    printf("timers: %d fired\n", timer_fired);
}

/* ---- idle, prepare, check ---- */
static int idle_n, idle_goal, prep_n, check_n;
static uv_idle_t idle; static uv_prepare_t prep; static uv_check_t check;
static void idle_cb(uv_idle_t *h) { if (++idle_n == idle_goal) { uv_idle_stop(h); uv_prepare_stop(&prep); uv_check_stop(&check); } }
static void prep_cb(uv_prepare_t *h) { (void)h; prep_n++; }
static void check_cb(uv_check_t *h) { (void)h; check_n++; }
static void part_idle(int n)
{
    idle_n = prep_n = check_n = 0; idle_goal = n;
    uv_idle_init(loop, &idle); uv_prepare_init(loop, &prep); uv_check_init(loop, &check);
    uv_idle_start(&idle, idle_cb); uv_prepare_start(&prep, prep_cb); uv_check_start(&check, check_cb);
    uv_run(loop, UV_RUN_DEFAULT);
    uv_close((uv_handle_t *)&idle, NULL); uv_close((uv_handle_t *)&prep, NULL); uv_close((uv_handle_t *)&check, NULL);
    uv_run(loop, UV_RUN_DEFAULT);
    printf("idle: %d idle, %d prepare, %d check\n", idle_n, prep_n, check_n);
}

/* ---- async from another thread ---- */
static uv_async_t async; static uv_sem_t ack; static int async_n, async_goal;
static unsigned long long async_sum;
static void async_cb(uv_async_t *h)
{
    async_sum += mix64(++async_n);
    if (async_n == async_goal) uv_close((uv_handle_t *)h, NULL);
    uv_sem_post(&ack);
}
static void async_thread(void *arg)
{
    int i, n = *(int *)arg;
    for (i = 0; i < n; i++) { uv_async_send(&async); uv_sem_wait(&ack); }
}
static void part_async(int n)
{
    uv_thread_t t;
    async_n = 0; async_goal = n; async_sum = 0;
    uv_sem_init(&ack, 0);
    uv_async_init(loop, &async, async_cb);
    CHECK(uv_thread_create(&t, async_thread, &n) == 0);
    uv_run(loop, UV_RUN_DEFAULT);
    uv_thread_join(&t);
    uv_sem_destroy(&ack);
    printf("async: %d sent, sum %016llx\n", async_n, async_sum);
}

/* ---- the thread pool ---- */
struct job { uv_work_t w; int i, len; unsigned long long r; };
static unsigned long long work_sum; static int work_done; static uv_mutex_t work_mu;
static void work_cb(uv_work_t *w)
{
    struct job *j = w->data; int k;
    unsigned long long x = j->i;
    for (k = 0; k < j->len; k++) x = mix64(x + k);
    j->r = x;
}
static void after_work_cb(uv_work_t *w, int status)
{
    struct job *j = w->data;
    CHECK(status == 0);
    uv_mutex_lock(&work_mu); work_sum ^= j->r; work_done++; uv_mutex_unlock(&work_mu);
    free(j);
}
static void part_work(int n, int len)
{
    int i;
    work_sum = 0; work_done = 0;
    uv_mutex_init(&work_mu);
    for (i = 0; i < n; i++) {
        struct job *j = calloc(1, sizeof *j);
        j->i = i; j->len = len + i % 17; j->w.data = j;
        CHECK(uv_queue_work(loop, &j->w, work_cb, after_work_cb) == 0);
    }
    uv_run(loop, UV_RUN_DEFAULT);
    uv_mutex_destroy(&work_mu);
    printf("work: %d done, xor %016llx\n", work_done, work_sum);
}

/* ---- the file system through the pool, one chain of requests per file ---- */
struct fchain { uv_fs_t req; int id, step, chunks, chunk; uv_file fd; char path[64], path2[64]; char *buf; uv_buf_t b; long long bytes; unsigned long long sum; };
static long long fs_bytes; static unsigned long long fs_sum; static int fs_files;
static void fs_step(uv_fs_t *req);
static void fs_next(struct fchain *c)
{
    int r = 0; long long off;
    switch (c->step) {
    case 0: r = uv_fs_open(loop, &c->req, c->path, UV_FS_O_CREAT | UV_FS_O_TRUNC | UV_FS_O_RDWR, 0644, fs_step); break;
    case 1: /* writes: chunks of chunk bytes */
        off = (long long)(c->bytes / c->chunk) * c->chunk;
        memset(c->buf, 'a' + (int)((off / c->chunk + c->id) % 26), c->chunk);
        c->b = uv_buf_init(c->buf, c->chunk);
        r = uv_fs_write(loop, &c->req, c->fd, &c->b, 1, off, fs_step); break;
    case 2: r = uv_fs_fstat(loop, &c->req, c->fd, fs_step); break;
    case 3: /* reads back */
        c->b = uv_buf_init(c->buf, c->chunk);
        r = uv_fs_read(loop, &c->req, c->fd, &c->b, 1, c->bytes, fs_step); break;
    case 4: r = uv_fs_close(loop, &c->req, c->fd, fs_step); break;
    case 5: r = uv_fs_rename(loop, &c->req, c->path, c->path2, fs_step); break;
    case 6: r = uv_fs_stat(loop, &c->req, c->path2, fs_step); break;
    case 7: r = uv_fs_unlink(loop, &c->req, c->path2, fs_step); break;
    default:
        fs_bytes += c->bytes; fs_sum += c->sum; fs_files++;
        free(c->buf); free(c); return;
    }
    CHECK(r == 0);
}
static void fs_step(uv_fs_t *req)
{
    struct fchain *c = req->data; ssize_t res = req->result; int k;
    CHECK(res >= 0);
    switch (c->step) {
    case 0: c->fd = (uv_file)res; c->step = 1; c->bytes = 0; break;
    case 1: c->bytes += res; if (c->bytes == (long long)c->chunks * c->chunk) c->step = 2; break;
    case 2: CHECK(req->statbuf.st_size == (uint64_t)c->bytes); c->step = 3; c->bytes = 0; break;
    case 3:
        for (k = 0; k < res; k++) c->sum = c->sum * 31 + (unsigned char)c->buf[k];
        c->bytes += res; if (res == 0) c->step = 4; break;
    case 6: CHECK(req->statbuf.st_size == (uint64_t)c->bytes); c->step++; break;
    default: c->step++; break;
    }
    uv_fs_req_cleanup(req);
    fs_next(c);
}
static void part_fs(int files, int chunks, int chunk)
{
    int i; uv_fs_t req; uv_dirent_t ent; int seen = 0;
    fs_bytes = 0; fs_sum = 0; fs_files = 0;
    uv_fs_mkdir(NULL, &req, ".uvdrive", 0755, NULL); uv_fs_req_cleanup(&req);
    for (i = 0; i < files; i++) {
        struct fchain *c = calloc(1, sizeof *c);
        c->id = i; c->chunks = chunks + i % 3; c->chunk = chunk; c->buf = malloc(chunk); c->req.data = c;
        snprintf(c->path, sizeof c->path, ".uvdrive/f%d", i);
        snprintf(c->path2, sizeof c->path2, ".uvdrive/g%d", i);
        fs_next(c);
    }
    uv_run(loop, UV_RUN_DEFAULT);
    CHECK(uv_fs_scandir(NULL, &req, ".uvdrive", 0, NULL) >= 0);
    while (uv_fs_scandir_next(&req, &ent) != UV_EOF) seen++;
    uv_fs_req_cleanup(&req);
    uv_fs_rmdir(NULL, &req, ".uvdrive", NULL); uv_fs_req_cleanup(&req);
    printf("fs: %d files, %lld bytes, sum %016llx, %d left\n", fs_files, fs_bytes, fs_sum, seen);
}

/* ---- streams: an echo server and its client (TCP over loopback, or a socketpair) ---- */
static long long echo_bytes, echo_want; static unsigned long long echo_sum; static int echo_msgs;
static void alloc_cb(uv_handle_t *h, size_t sz, uv_buf_t *b) { (void)h; b->base = malloc(sz); b->len = sz; }
static void free_write(uv_write_t *w, int st) { CHECK(st == 0); free(w->data); free(w); }
static void srv_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b)
{
    if (n > 0) {  /* echo it back */
        uv_write_t *w = malloc(sizeof *w); uv_buf_t o = uv_buf_init(b->base, n);
        w->data = b->base;
        CHECK(uv_write(w, s, &o, 1, free_write) == 0);
        return;
    }
    free(b->base);
    if (n == UV_EOF) uv_close((uv_handle_t *)s, NULL);
}
static void shut_cb(uv_shutdown_t *sh, int st) { CHECK(st == 0); uv_close((uv_handle_t *)sh->handle, NULL); free(sh); }
static void cli_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b)
{
    ssize_t k;
    if (n > 0) {
        for (k = 0; k < n; k++) echo_sum = echo_sum * 131 + (unsigned char)b->base[k];
        echo_bytes += n;
        if (echo_bytes == echo_want) {  /* all back: shut down, the server sees EOF */
            uv_shutdown_t *sh = malloc(sizeof *sh);
            uv_read_stop(s);
            CHECK(uv_shutdown(sh, s, shut_cb) == 0);
        }
    }
    free(b->base);
}
static void send_msgs(uv_stream_t *s, int msgs, int size)
{
    int i;
    echo_want = 0; echo_bytes = 0; echo_sum = 0; echo_msgs = msgs;
    for (i = 0; i < msgs; i++) {
        int len = size + (i * 37) % size;
        char *p = malloc(len); uv_write_t *w = malloc(sizeof *w); uv_buf_t o = uv_buf_init(p, len);
        memset(p, 'A' + i % 26, len);
        w->data = p; echo_want += len;
        CHECK(uv_write(w, s, &o, 1, free_write) == 0);
    }
    CHECK(uv_read_start(s, alloc_cb, cli_read) == 0);
}
static uv_tcp_t tsrv, tcli, tconn; static uv_connect_t creq; static int tmsgs, tsize;
static void on_conn(uv_stream_t *srv, int st)
{
    CHECK(st == 0);
    uv_tcp_init(loop, &tconn);
    CHECK(uv_accept(srv, (uv_stream_t *)&tconn) == 0);
    uv_tcp_nodelay(&tconn, 1);
    CHECK(uv_read_start((uv_stream_t *)&tconn, alloc_cb, srv_read) == 0);
    uv_close((uv_handle_t *)srv, NULL);
}
static void on_connect(uv_connect_t *r, int st) { CHECK(st == 0); send_msgs(r->handle, tmsgs, tsize); }
static void part_tcp(int msgs, int size)
{
    struct sockaddr_in a; struct sockaddr_storage got; int len = sizeof got;
    tmsgs = msgs; tsize = size;
    uv_ip4_addr("127.0.0.1", 0, &a);
    uv_tcp_init(loop, &tsrv);
    CHECK(uv_tcp_bind(&tsrv, (struct sockaddr *)&a, 0) == 0);
    CHECK(uv_listen((uv_stream_t *)&tsrv, 8, on_conn) == 0);
    uv_tcp_getsockname(&tsrv, (struct sockaddr *)&got, &len);
    uv_tcp_init(loop, &tcli);
    CHECK(uv_tcp_connect(&creq, &tcli, (struct sockaddr *)&got, on_connect) == 0);
    uv_run(loop, UV_RUN_DEFAULT);
    printf("tcp: %d messages, %lld bytes, sum %016llx\n", echo_msgs, echo_bytes, echo_sum);
}
static void part_pipe(int msgs, int size)
{
    uv_os_sock_t fds[2]; static uv_pipe_t a, b;
    CHECK(uv_socketpair(SOCK_STREAM, 0, fds, 0, 0) == 0);
    uv_pipe_init(loop, &a, 0); uv_pipe_init(loop, &b, 0);
    uv_pipe_open(&a, fds[0]); uv_pipe_open(&b, fds[1]);
    CHECK(uv_read_start((uv_stream_t *)&b, alloc_cb, srv_read) == 0);
    send_msgs((uv_stream_t *)&a, msgs, size);
    uv_run(loop, UV_RUN_DEFAULT);
    printf("pipe: %d messages, %lld bytes, sum %016llx\n", echo_msgs, echo_bytes, echo_sum);
}

/* ---- UDP to itself, one datagram in flight ---- */
static uv_udp_t usock; static int udp_left, udp_got, udp_size; static long long udp_bytes; static struct sockaddr_storage uaddr;
static void udp_send_one(void);
static void udp_sent(uv_udp_send_t *r, int st) { CHECK(st == 0); free(r->data); free(r); }
static void udp_recv(uv_udp_t *h, ssize_t n, const uv_buf_t *b, const struct sockaddr *from, unsigned fl)
{
    (void)fl;
    if (n > 0) { udp_got++; udp_bytes += n; udp_send_one(); }
    else if (n == 0 && from == NULL && udp_left == 0 && udp_got > 0) { (void)h; }
    free(b->base);
}
static void udp_send_one(void)
{
    if (udp_left == 0) { uv_close((uv_handle_t *)&usock, NULL); return; }
    int len = 1 + (udp_left * 53) % udp_size;
    uv_udp_send_t *r = malloc(sizeof *r); char *p = malloc(len); uv_buf_t o = uv_buf_init(p, len);
    memset(p, 'u', len); r->data = p; udp_left--;
    CHECK(uv_udp_send(r, &usock, &o, 1, (struct sockaddr *)&uaddr, udp_sent) == 0);
}
static void part_udp(int n, int size)
{
    struct sockaddr_in a; int len = sizeof uaddr;
    udp_left = n; udp_got = 0; udp_bytes = 0; udp_size = size;
    uv_ip4_addr("127.0.0.1", 0, &a);
    uv_udp_init(loop, &usock);
    CHECK(uv_udp_bind(&usock, (struct sockaddr *)&a, 0) == 0);
    uv_udp_getsockname(&usock, (struct sockaddr *)&uaddr, &len);
    CHECK(uv_udp_recv_start(&usock, alloc_cb, udp_recv) == 0);
    udp_send_one();
    uv_run(loop, UV_RUN_DEFAULT);
    printf("udp: %d datagrams, %lld bytes\n", udp_got, udp_bytes);
}

/* ---- signals to itself, one at a time ---- */
static uv_signal_t sig; static uv_idle_t sig_idle; static int sig_n, sig_goal, sig_sent;
static void sig_cb(uv_signal_t *h, int s) { (void)s; if (++sig_n == sig_goal) { uv_close((uv_handle_t *)h, NULL); uv_close((uv_handle_t *)&sig_idle, NULL); } }
static void sig_idle_cb(uv_idle_t *h) { (void)h; if (sig_sent == sig_n && sig_sent < sig_goal) { sig_sent++; uv_kill(getpid(), SIGUSR1); } }
static void part_signal(int n)
{
    sig_n = 0; sig_sent = 0; sig_goal = n;
    uv_signal_init(loop, &sig);
    CHECK(uv_signal_start(&sig, sig_cb, SIGUSR1) == 0);
    uv_idle_init(loop, &sig_idle); uv_idle_start(&sig_idle, sig_idle_cb);
    uv_run(loop, UV_RUN_DEFAULT);
    printf("signal: %d received\n", sig_n);
}

/* ---- child processes: this program, its stdout through a pipe ---- */
static int children, child_lines; static long long child_bytes; static int child_status;
struct kid { uv_process_t p; uv_pipe_t out; int open; };
static void kid_closed(uv_handle_t *h) { struct kid *k = h->data; if (--k->open == 0) free(k); }
static void kid_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b)
{
    ssize_t i;
    if (n > 0) { child_bytes += n; for (i = 0; i < n; i++) child_lines += b->base[i] == '\n'; }
    else if (n < 0) uv_close((uv_handle_t *)s, kid_closed);
    free(b->base);
}
static void kid_exit(uv_process_t *p, int64_t st, int sg) { child_status += (int)st + sg; children++; uv_close((uv_handle_t *)p, kid_closed); }
static void part_spawn(int n, int lines)
{
    int i; char num[16];
    children = child_lines = 0; child_bytes = 0; child_status = 0;
    snprintf(num, sizeof num, "%d", lines);
    for (i = 0; i < n; i++) {
        struct kid *k = calloc(1, sizeof *k);
        char *args[] = { (char *)self, "child", num, NULL };
        uv_stdio_container_t io[3];
        uv_process_options_t o;
        memset(&o, 0, sizeof o);
        uv_pipe_init(loop, &k->out, 0);
        io[0].flags = UV_IGNORE;
        io[1].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE; io[1].data.stream = (uv_stream_t *)&k->out;
        io[2].flags = UV_INHERIT_FD; io[2].data.fd = 2;
        o.file = self; o.args = args; o.exit_cb = kid_exit; o.stdio = io; o.stdio_count = 3;
        k->p.data = k; k->out.data = k; k->open = 2;
        CHECK(uv_spawn(loop, &k->p, &o) == 0);
        CHECK(uv_read_start((uv_stream_t *)&k->out, alloc_cb, kid_read) == 0);
        uv_run(loop, UV_RUN_DEFAULT);   /* one child at a time */
    }
    printf("spawn: %d children, %d lines, %lld bytes, status %d\n", children, child_lines, child_bytes, child_status);
}

int main(int argc, char **argv)
{
    int s, i;
    if (argc == 3 && strcmp(argv[1], "child") == 0) {
        for (i = 0; i < atoi(argv[2]); i++) printf("line %d of the child\n", i);
        return 0;
    }
    if (argc != 3 || (strcmp(argv[1], "train") && strcmp(argv[1], "test"))) {
        fprintf(stderr, "usage: uvdrive train|test SCALE | uvdrive child N\n");
        return 2;
    }
    argv = uv_setup_args(argc, argv);
    s = atoi(argv[2]); if (s < 1) s = 1;
    {   /* this program's path for the children */
        static char path[4096]; size_t n = sizeof path;
        CHECK(uv_exepath(path, &n) == 0); self = path;
    }
    loop = uv_default_loop();
    if (strcmp(argv[1], "train") == 0) {
        part_timers(4000 * s);
        part_idle(2000 * s);
        part_work(3000 * s, 40);
        part_fs(40 * s, 24, 4096);
        part_tcp(1500 * s, 512);
        part_signal(200 * s);
        part_async(300 * s);
        part_spawn(3 * s, 50);
    } else {
        part_work(1200 * s, 200);
        part_fs(20 * s, 60, 1024);
        part_pipe(2500 * s, 300);
        part_udp(1200 * s, 900);
        part_async(800 * s);
        part_timers(1500 * s);
        part_tcp(400 * s, 2000);
        part_spawn(5 * s, 200);
        part_signal(50 * s);
    }
    CHECK(uv_loop_close(loop) == 0);
    return 0;
}
