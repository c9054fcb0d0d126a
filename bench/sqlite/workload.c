/* workload.c — a deterministic SQLite workload for perfinst's benchmarks.
 *
 *     workload [SIZE [MIX]]
 *
 * SIZE  a scale factor (default 1; 0.05 is a quick run, e.g. under valgrind):
 *       rows inserted and the number of O(log n) operations grow with it;
 *       the number of full-table operations is fixed, so time is ~linear.
 * MIX   "train" (default) or "test": a different seed and a different mix of
 *       operations, so a profile taken on one can be measured on the other;
 *       "sort" (ORDER BY / GROUP BY over large result sets, indexed lookups
 *       and joins: the sorter's comparator called through a pointer) and
 *       "insert" (late inserts into indexed tables, point updates and
 *       deletes): mixes unlike the other two.
 *
 * Everything runs on an in-memory database: bulk inserts in transactions,
 * then a shuffled stream of indexed and unindexed queries, a three-table
 * join, GROUP BY / ORDER BY, string functions, updates and deletes, and a
 * final summary with PRAGMA integrity_check.  Every value of every result
 * row (and every change count) is hashed into one FNV-1a checksum, printed
 * as the last line:
 *
 *     checksum=0123456789abcdef rows=N size=S mix=M
 *
 * The checksum is the same on every run with the same SIZE and MIX, whatever
 * the compiler flags: comparing it across builds shows they behave the same.
 * Build: cc -O2 -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION
 *        workload.c sqlite3.c -lm
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, for -DWORKLOAD_PROFILE */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqlite3.h"

/* ---- checksum and deterministic random numbers ---------------------------- */

static uint64_t sum_hash = 0xcbf29ce484222325ULL; /* FNV-1a 64 */
static uint64_t sum_rows;
static uint64_t rng_state;

static void mix_bytes(const void *p, size_t n)
{
    const unsigned char *s = p;
    uint64_t h = sum_hash;
    for (size_t i = 0; i < n; i++) {
        h ^= s[i];
        h *= 0x100000001b3ULL;
    }
    sum_hash = h;
}

static void mix_u64(uint64_t v)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    mix_bytes(b, sizeof b);
}

static uint64_t rnd64(void) /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int rnd(int n) { return (int)(rnd64() % (uint64_t)n); }

/* ---- SQLite helpers --------------------------------------------------------- */

static sqlite3 *db;

static void die(const char *what)
{
    fprintf(stderr, "workload: %s: %s\n", what, sqlite3_errmsg(db));
    exit(2);
}

static void exec(const char *sql)
{
    char *err = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
        fprintf(stderr, "workload: %s\n  in: %s\n", err ? err : "?", sql);
        exit(2);
    }
}

static sqlite3_stmt *prep(const char *sql)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        fprintf(stderr, "workload: prepare: %s\n  in: %s\n", sqlite3_errmsg(db), sql);
        exit(2);
    }
    return st;
}

/* Run a prepared statement to the end, hashing every column of every row
 * (its type and its text form), then the number of rows changed. */
static void run(sqlite3_stmt *st)
{
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int n = sqlite3_column_count(st);
        for (int i = 0; i < n; i++) {
            int t = sqlite3_column_type(st, i);
            mix_u64((uint64_t)t);
            if (t != SQLITE_NULL) {
                const unsigned char *s = sqlite3_column_text(st, i);
                mix_bytes(s, (size_t)sqlite3_column_bytes(st, i));
            }
        }
        sum_rows++;
    }
    if (rc != SQLITE_DONE)
        die("step");
    if (!sqlite3_stmt_readonly(st))
        mix_u64((uint64_t)sqlite3_changes(db));
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
}

static void bind_int(sqlite3_stmt *st, int i, sqlite3_int64 v)
{
    if (sqlite3_bind_int64(st, i, v) != SQLITE_OK)
        die("bind");
}

static void bind_real(sqlite3_stmt *st, int i, double v)
{
    if (sqlite3_bind_double(st, i, v) != SQLITE_OK)
        die("bind");
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
    if (sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT) != SQLITE_OK)
        die("bind");
}

/* ---- generated data ---------------------------------------------------------- */

static const char *const syll[] = {
    "ka", "ri", "mo", "ten", "sa", "lu", "vik", "or", "an", "bel",
    "do", "ze", "qui", "ra", "nor", "pe", "li", "gan", "su", "tho",
};
static const char *const cities[] = {
    "Aberdeen", "Bergen", "Cadiz", "Dresden", "Eindhoven", "Faro", "Graz",
    "Helsinki", "Innsbruck", "Jena", "Kaunas", "Lyon", "Malmo", "Nantes",
    "Oulu", "Porto", "Quimper", "Riga", "Split", "Tartu", "Utrecht",
    "Valencia", "Wroclaw", "Zagreb", "Brno", "Ghent", "Turku", "Bilbao",
};
static const char *const cats[] = {
    "books", "garden", "kitchen", "toys", "tools", "music", "sports",
    "office", "bath", "games", "lamps", "paper",
};
static const char *const words[] = {
    "fast", "slow", "gift", "wrap", "fragile", "urgent", "repeat", "bulk",
    "sample", "return", "express", "priority", "weekend", "evening", "door",
    "neighbour", "signature", "invoice", "discount", "coupon", "blue",
    "large", "small", "spare", "backorder", "review", "pickup", "locker",
};
static const char *const statuses[] = { "new", "paid", "shipped", "done", "held" };
#define N_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

#define N_DAYS 730

static void gen_name(char *buf, size_t cap)
{
    size_t len = 0;
    int n = 2 + rnd(3);
    for (int i = 0; i < n && len + 4 < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s", syll[rnd(N_OF(syll))]);
    if (len)
        buf[0] = (char)(buf[0] - 'a' + 'A');
}

static void gen_note(char *buf, size_t cap)
{
    size_t len = 0;
    int n = 1 + rnd(6);
    buf[0] = 0;
    for (int i = 0; i < n && len + 16 < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? " " : "",
                                words[rnd(N_OF(words))]);
}

/* ---- the mixes ------------------------------------------------------------------ */

enum op {
    OP_PK_LOOKUP,   /* customers by primary key */
    OP_IDX_LOOKUP,  /* orders of one customer (index) */
    OP_RANGE,       /* orders in a day range (index), aggregated */
    OP_SCAN,        /* unindexed predicate over orders or customers */
    OP_LIKE,        /* LIKE '%word%' scan */
    OP_JOIN,        /* orders ⋈ customers ⋈ products, GROUP BY, ORDER BY */
    OP_GROUP,       /* GROUP BY / ORDER BY over a whole table */
    OP_STRING,      /* string functions over a range of rows */
    OP_UPD_POINT,   /* update one product */
    OP_UPD_RANGE,   /* update a set of customers / orders */
    OP_DEL_POINT,   /* delete one order */
    OP_DEL_RANGE,   /* delete a set of orders */
    OP_INSERT,      /* late insert of a few orders */
    OP_SORT,        /* ORDER BY over thousands of rows, text keys (the sorter's comparator) */
    N_OPS
};

struct mix {
    const char *name;
    uint64_t seed;
    double rows_per_size[3]; /* customers, products, orders at SIZE 1 */
    /* per op: count at SIZE 1, and whether it scales with SIZE
     * (ops whose cost grows with the table size do not) */
    double count[N_OPS];
    int scales[N_OPS];
};

static const struct mix mixes[] = {
    { "train", 0x7261696e5eedULL,
      { 16000, 2000, 120000 },
      /* pk    idx    range scan like join group string upd_p upd_r del_p del_r ins   sort */
      { 40000, 10000, 300, 12,  8,   20,  2,    300,   20000, 120,  8000, 12,   3000, 0 },
      { 1,     1,     0,   0,   0,   0,   0,    1,     1,     0,    1,    0,    1,    0 } },
    { "test", 0x746573745eedULL,
      { 20000, 3000, 110000 },
      { 20000, 15000, 300, 16,  6,   25,  3,    900,   6000,  120,  3000, 12,   6000, 0 },
      { 1,     1,     0,   0,   0,   0,   0,    1,     1,     0,    1,    0,    1,    0 } },
    /* sort/aggregate-heavy: ORDER BY and GROUP BY over large result sets
       (SQLite's sorter calls its comparator through a function pointer),
       with indexed lookups and joins */
    { "sort", 0x736f72745eedULL,
      { 16000, 2000, 100000 },
      { 8000,  4000,  200, 4,   0,   60,  12,   0,     0,     0,    0,    0,    0,    400 },
      { 1,     1,     0,   0,   0,   0,   0,    0,     0,     0,    0,    0,    0,    0 } },
    /* insert-heavy: late inserts into the indexed orders table, point
       updates and deletes, few reads */
    { "insert", 0x696e736572745eedULL,
      { 8000, 1000, 30000 },
      { 4000,  2000,  0,   0,   0,   0,   0,    0,     20000, 0,    10000, 4,   150000, 0 },
      { 1,     1,     0,   0,   0,   0,   0,    0,     1,     0,    1,    0,    1,    0 } },
};

/* ---- optional per-phase timing (-DWORKLOAD_PROFILE), for tuning the mixes -- */
#ifdef WORKLOAD_PROFILE
#include <time.h>
static double prof_sec[N_OPS + 3];
static uint64_t prof_n[N_OPS + 3];
static double now_sec(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
#define PROF_BEGIN() double prof_t0_ = now_sec()
#define PROF_END(i) (prof_sec[i] += now_sec() - prof_t0_, prof_n[i]++)
static void prof_report(void)
{
    static const char *const names[N_OPS + 3] = {
        "pk_lookup", "idx_lookup", "range", "scan", "like", "join", "group",
        "string", "upd_point", "upd_range", "del_point", "del_range", "insert",
        "sort", "load", "summary", "(total)" };
    double t = 0;
    for (int i = 0; i < N_OPS + 2; i++)
        t += prof_sec[i];
    prof_sec[N_OPS + 2] = t;
    for (int i = 0; i < N_OPS + 3; i++)
        fprintf(stderr, "%-12s %8" PRIu64 " %8.3f s %9.1f us/op\n", names[i], prof_n[i],
                prof_sec[i], prof_n[i] ? prof_sec[i] * 1e6 / (double)prof_n[i] : 0.0);
}
#else
#define PROF_BEGIN() ((void)0)
#define PROF_END(i) ((void)0)
#define prof_report() ((void)0)
#endif

/* ---- the workload --------------------------------------------------------------- */

static sqlite3_stmt *st_op[N_OPS][4];
static int n_cust, n_prod, n_ord, next_order_id;

static void prepare_ops(void)
{
    st_op[OP_PK_LOOKUP][0] = prep(
        "SELECT id, name, city, tier, balance FROM customers WHERE id = ?1");
    st_op[OP_IDX_LOOKUP][0] = prep(
        "SELECT id, product_id, qty, day, status FROM orders WHERE customer_id = ?1 "
        "ORDER BY day, id");
    st_op[OP_RANGE][0] = prep(
        "SELECT count(*), sum(qty), min(id), max(id) FROM orders "
        "WHERE day BETWEEN ?1 AND ?2");
    st_op[OP_RANGE][1] = prep(
        "SELECT status, count(*) FROM orders WHERE day BETWEEN ?1 AND ?2 "
        "GROUP BY status ORDER BY status");
    st_op[OP_SCAN][0] = prep(
        "SELECT count(*), sum(qty), total(qty * 0.5) FROM orders "
        "WHERE status = ?1 AND qty > ?2");
    st_op[OP_SCAN][1] = prep(
        "SELECT id, name, balance FROM customers WHERE balance BETWEEN ?1 AND ?2 "
        "ORDER BY balance, id LIMIT 10");
    st_op[OP_SCAN][2] = prep(
        "SELECT count(*), max(price) FROM products WHERE stock < ?1 AND category <> ?2");
    st_op[OP_LIKE][0] = prep(
        "SELECT count(*), min(id) FROM orders WHERE note LIKE ?1");
    st_op[OP_LIKE][1] = prep(
        "SELECT count(*) FROM customers WHERE name LIKE ?1 OR email LIKE ?1");
    st_op[OP_JOIN][0] = prep(
        "SELECT c.city, p.category, count(*), sum(o.qty), "
        "       round(sum(o.qty * p.price), 2) AS revenue "
        "FROM orders o JOIN customers c ON c.id = o.customer_id "
        "              JOIN products p ON p.id = o.product_id "
        "WHERE o.day BETWEEN ?1 AND ?2 "
        "GROUP BY c.city, p.category ORDER BY revenue DESC, 1, 2 LIMIT 25");
    st_op[OP_JOIN][1] = prep(
        "SELECT c.tier, count(DISTINCT o.product_id), avg(o.qty) "
        "FROM customers c JOIN orders o ON o.customer_id = c.id "
        "WHERE c.city = ?1 GROUP BY c.tier ORDER BY c.tier");
    st_op[OP_GROUP][0] = prep(
        "SELECT customer_id, count(*) AS n, sum(qty) FROM orders "
        "GROUP BY customer_id ORDER BY n DESC, customer_id LIMIT 20");
    st_op[OP_GROUP][1] = prep(
        "SELECT tier, city, count(*), round(avg(balance), 3) FROM customers "
        "GROUP BY tier, city ORDER BY 4 DESC, 1, 2 LIMIT 30");
    st_op[OP_GROUP][2] = prep(
        "SELECT status, day / 30 AS month, count(*), sum(qty) FROM orders "
        "GROUP BY 1, 2 ORDER BY 1, 2");
    st_op[OP_GROUP][3] = prep(
        "SELECT category, count(*), round(sum(price * stock), 2), min(sku), max(sku) "
        "FROM products GROUP BY category ORDER BY 3 DESC");
    st_op[OP_STRING][0] = prep(
        "SELECT upper(substr(name, 1, 3)) || '-' || lower(city), length(email), "
        "       instr(email, '@'), trim(printf('%10.2f', balance)), "
        "       replace(name, 'a', 'AA'), hex(substr(name, 2, 3)) "
        "FROM customers WHERE id BETWEEN ?1 AND ?1 + 40");
    st_op[OP_STRING][1] = prep(
        "SELECT group_concat(sku, ',') FROM "
        "(SELECT sku FROM products WHERE category = ?1 ORDER BY sku LIMIT 40)");
    st_op[OP_STRING][2] = prep(
        "SELECT id, length(note), replace(note, ' ', '_'), "
        "       substr(note, instr(note, ' ') + 1), like('%e%', note) "
        "FROM orders WHERE customer_id = ?1");
    st_op[OP_UPD_POINT][0] = prep(
        "UPDATE products SET stock = stock - ?2, price = round(price * 1.01, 2) "
        "WHERE id = ?1");
    st_op[OP_UPD_RANGE][0] = prep(
        "UPDATE customers SET balance = round(balance + ?3, 2), tier = (tier + 1) % 5 "
        "WHERE city = ?1 AND tier = ?2");
    st_op[OP_UPD_RANGE][1] = prep(
        "UPDATE orders SET status = 'shipped', note = note || ' upd' "
        "WHERE day BETWEEN ?1 AND ?1 + 2 AND status = 'paid'");
    st_op[OP_DEL_POINT][0] = prep("DELETE FROM orders WHERE id = ?1");
    st_op[OP_SORT][0] = prep(
        "SELECT id, note, status FROM orders WHERE day BETWEEN ?1 AND ?1 + 40 "
        "ORDER BY note, status DESC, id");
    st_op[OP_SORT][1] = prep(
        "SELECT name, email, balance FROM customers WHERE tier = ?1 ORDER BY email, name");
    st_op[OP_SORT][2] = prep(
        "SELECT c.name, o.note, o.qty FROM orders o JOIN customers c ON c.id = o.customer_id "
        "WHERE c.city = ?1 ORDER BY c.name, o.note, o.id");
    st_op[OP_SORT][3] = prep(
        "SELECT note, count(*), sum(qty) FROM orders WHERE day BETWEEN ?1 AND ?1 + 60 "
        "GROUP BY note ORDER BY 2 DESC, 1");
    st_op[OP_DEL_RANGE][0] = prep(
        "DELETE FROM orders WHERE day BETWEEN ?1 AND ?1 + 3 AND qty < ?2");
}

static void insert_order(sqlite3_stmt *st, int id)
{
    char note[128];
    gen_note(note, sizeof note);
    bind_int(st, 1, id);
    bind_int(st, 2, 1 + rnd(n_cust));
    bind_int(st, 3, 1 + rnd(n_prod));
    bind_int(st, 4, 1 + rnd(20));
    bind_int(st, 5, rnd(N_DAYS));
    bind_text(st, 6, statuses[rnd(N_OF(statuses))]);
    bind_text(st, 7, note);
    run(st);
}

static void create_schema(void)
{
    exec("CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT NOT NULL, "
         "city TEXT, tier INTEGER, balance REAL, email TEXT)");
    exec("CREATE TABLE products(id INTEGER PRIMARY KEY, sku TEXT UNIQUE, "
         "category TEXT, price REAL, stock INTEGER)");
    exec("CREATE TABLE orders(id INTEGER PRIMARY KEY, customer_id INTEGER, "
         "product_id INTEGER, qty INTEGER, day INTEGER, status TEXT, note TEXT)");
    /* maintained during the bulk insert */
    exec("CREATE INDEX orders_customer ON orders(customer_id)");
}

static void load(void)
{
    char name[64], email[128], sku[32];
    sqlite3_stmt *ic = prep("INSERT INTO customers VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    sqlite3_stmt *ip = prep("INSERT INTO products VALUES (?1, ?2, ?3, ?4, ?5)");
    sqlite3_stmt *io = st_op[OP_INSERT][0] = prep(
        "INSERT INTO orders(id, customer_id, product_id, qty, day, status, note) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");

    exec("BEGIN");
    for (int i = 1; i <= n_cust; i++) {
        gen_name(name, sizeof name);
        snprintf(email, sizeof email, "%s.%d@%s.example", name, i,
                 cities[rnd(N_OF(cities))]);
        bind_int(ic, 1, i);
        bind_text(ic, 2, name);
        bind_text(ic, 3, cities[rnd(N_OF(cities))]);
        bind_int(ic, 4, rnd(5));
        bind_real(ic, 5, (double)rnd(1000000) / 100.0);
        bind_text(ic, 6, email);
        run(ic);
        if (i % 1000 == 0) {
            exec("COMMIT");
            exec("BEGIN");
        }
    }
    for (int i = 1; i <= n_prod; i++) {
        snprintf(sku, sizeof sku, "SKU-%c%c-%06d", 'A' + rnd(26), 'A' + rnd(26),
                 (i * 7919) % 1000000);
        bind_int(ip, 1, i);
        bind_text(ip, 2, sku);
        bind_text(ip, 3, cats[rnd(N_OF(cats))]);
        bind_real(ip, 4, (double)(100 + rnd(50000)) / 100.0);
        bind_int(ip, 5, rnd(1000));
        run(ip);
    }
    exec("COMMIT");

    exec("BEGIN");
    for (int i = 1; i <= n_ord; i++) {
        insert_order(io, i);
        if (i % 1000 == 0) {
            exec("COMMIT");
            exec("BEGIN");
        }
    }
    exec("COMMIT");
    next_order_id = n_ord + 1;

    /* built after the bulk insert: the sorter path */
    exec("CREATE INDEX orders_day ON orders(day)");
    exec("CREATE INDEX customers_city ON customers(city, tier)");
    exec("ANALYZE");
    sqlite3_finalize(ic);
    sqlite3_finalize(ip);
}

static void do_op(enum op op)
{
    sqlite3_stmt *st;
    char pat[64];
    int d;

    switch (op) {
    case OP_PK_LOOKUP:
        st = st_op[op][0];
        bind_int(st, 1, 1 + rnd(n_cust));
        run(st);
        break;
    case OP_IDX_LOOKUP:
        st = st_op[op][0];
        bind_int(st, 1, 1 + rnd(n_cust));
        run(st);
        break;
    case OP_RANGE:
        st = st_op[op][rnd(2)];
        d = rnd(N_DAYS);
        bind_int(st, 1, d);
        bind_int(st, 2, d + rnd(4));
        run(st);
        break;
    case OP_SCAN:
        switch (rnd(3)) {
        case 0:
            st = st_op[op][0];
            bind_text(st, 1, statuses[rnd(N_OF(statuses))]);
            bind_int(st, 2, rnd(20));
            break;
        case 1:
            st = st_op[op][1];
            d = rnd(9000);
            bind_real(st, 1, d);
            bind_real(st, 2, d + 50);
            break;
        default:
            st = st_op[op][2];
            bind_int(st, 1, rnd(100));
            bind_text(st, 2, cats[rnd(N_OF(cats))]);
            break;
        }
        run(st);
        break;
    case OP_LIKE:
        if (rnd(3)) {
            st = st_op[op][0];
            snprintf(pat, sizeof pat, "%%%s %s%%", words[rnd(N_OF(words))],
                     words[rnd(N_OF(words))]);
        } else {
            st = st_op[op][1];
            snprintf(pat, sizeof pat, "%%%s%s%%", syll[rnd(N_OF(syll))],
                     syll[rnd(N_OF(syll))]);
        }
        bind_text(st, 1, pat);
        run(st);
        break;
    case OP_JOIN:
        if (rnd(4)) {
            st = st_op[op][0];
            d = rnd(N_DAYS);
            bind_int(st, 1, d);
            bind_int(st, 2, d + 5 + rnd(10));
        } else {
            st = st_op[op][1];
            bind_text(st, 1, cities[rnd(N_OF(cities))]);
        }
        run(st);
        break;
    case OP_GROUP:
        run(st_op[op][rnd(4)]);
        break;
    case OP_STRING:
        d = rnd(3);
        st = st_op[op][d];
        if (d == 0)
            bind_int(st, 1, 1 + rnd(n_cust));
        else if (d == 1)
            bind_text(st, 1, cats[rnd(N_OF(cats))]);
        else
            bind_int(st, 1, 1 + rnd(n_cust));
        run(st);
        break;
    case OP_UPD_POINT:
        st = st_op[op][0];
        bind_int(st, 1, 1 + rnd(n_prod));
        bind_int(st, 2, rnd(5));
        run(st);
        break;
    case OP_UPD_RANGE:
        if (rnd(2)) {
            st = st_op[op][0];
            bind_text(st, 1, cities[rnd(N_OF(cities))]);
            bind_int(st, 2, rnd(5));
            bind_real(st, 3, (double)(rnd(2001) - 1000) / 100.0);
        } else {
            st = st_op[op][1];
            bind_int(st, 1, rnd(N_DAYS));
        }
        run(st);
        break;
    case OP_DEL_POINT:
        st = st_op[op][0];
        bind_int(st, 1, 1 + rnd(next_order_id - 1));
        run(st);
        break;
    case OP_DEL_RANGE:
        st = st_op[op][0];
        bind_int(st, 1, rnd(N_DAYS));
        bind_int(st, 2, 1 + rnd(6));
        run(st);
        break;
    case OP_INSERT:
        insert_order(st_op[op][0], next_order_id++);
        break;
    case OP_SORT:
        switch (rnd(4)) {
        case 0:
            st = st_op[op][0];
            bind_int(st, 1, rnd(N_DAYS));
            break;
        case 1:
            st = st_op[op][1];
            bind_int(st, 1, rnd(5));
            break;
        case 2:
            st = st_op[op][2];
            bind_text(st, 1, cities[rnd(N_OF(cities))]);
            break;
        default:
            st = st_op[op][3];
            bind_int(st, 1, rnd(N_DAYS));
            break;
        }
        run(st);
        break;
    case N_OPS:
        break;
    }
}

/* The op stream: every op type gets its exact count, in an order drawn by the
 * seeded generator (weighted by what is left), 200 ops per transaction. */
static void run_mix(const struct mix *m, double size)
{
    uint64_t left[N_OPS], total = 0;
    for (int i = 0; i < N_OPS; i++) {
        double c = m->count[i] * (m->scales[i] ? size : 1.0);
        left[i] = m->count[i] == 0 ? 0 : c < 1.0 ? 1 : (uint64_t)c; /* (0: not in this mix) */
        total += left[i];
    }
    exec("BEGIN");
    for (uint64_t k = 0; total > 0; k++, total--) {
        uint64_t r = rnd64() % total;
        int op = 0;
        while (r >= left[op]) {
            r -= left[op];
            op++;
        }
        left[op]--;
        PROF_BEGIN();
        do_op((enum op)op);
        PROF_END(op);
        if (k % 200 == 199) {
            exec("COMMIT");
            exec("BEGIN");
        }
    }
    exec("COMMIT");
}

static void summary(void)
{
    static const char *const q[] = {
        "SELECT count(*), sum(qty), min(day), max(day), count(DISTINCT customer_id) "
        "FROM orders",
        "SELECT count(*), round(sum(balance), 2), sum(tier) FROM customers",
        "SELECT count(*), round(sum(price), 2), sum(stock) FROM products",
        "SELECT status, count(*), sum(length(note)) FROM orders GROUP BY status "
        "ORDER BY status",
        "PRAGMA integrity_check",
    };
    /* a delete with a subquery, then everything once more */
    exec("DELETE FROM customers WHERE tier = 0 AND id NOT IN "
         "(SELECT customer_id FROM orders WHERE customer_id IS NOT NULL)");
    mix_u64((uint64_t)sqlite3_changes(db));
    for (int i = 0; i < N_OF(q); i++) {
        sqlite3_stmt *st = prep(q[i]);
        run(st);
        sqlite3_finalize(st);
    }
}

int main(int argc, char **argv)
{
    double size = 1.0;
    const char *mixname = "train";
    if (argc > 1) {
        char *end;
        size = strtod(argv[1], &end);
        if (*end || !(size > 0) || size > 1000) {
            fprintf(stderr, "usage: %s [SIZE [train|test|sort|insert]]  (SIZE a scale factor > 0)\n",
                    argv[0]);
            return 2;
        }
    }
    if (argc > 2)
        mixname = argv[2];
    const struct mix *m = NULL;
    for (int i = 0; i < N_OF(mixes); i++)
        if (strcmp(mixes[i].name, mixname) == 0)
            m = &mixes[i];
    if (!m || argc > 3) {
        fprintf(stderr, "usage: %s [SIZE [train|test|sort|insert]]\n", argv[0]);
        return 2;
    }

    rng_state = m->seed;
    n_cust = (int)(m->rows_per_size[0] * size) + 10;
    n_prod = (int)(m->rows_per_size[1] * size) + 10;
    n_ord = (int)(m->rows_per_size[2] * size) + 10;

    if (sqlite3_open(":memory:", &db) != SQLITE_OK)
        die("open");
    exec("PRAGMA cache_size = -65536"); /* 64 MiB: the whole database */
    create_schema();
    {
        PROF_BEGIN();
        load();
        PROF_END(N_OPS);
    }
    prepare_ops(); /* after ANALYZE: plans use the statistics */
    run_mix(m, size);
    {
        PROF_BEGIN();
        summary();
        PROF_END(N_OPS + 1);
    }
    prof_report();

    for (int i = 0; i < N_OPS; i++)
        for (int j = 0; j < 4; j++)
            if (st_op[i][j])
                sqlite3_finalize(st_op[i][j]);
    if (sqlite3_close(db) != SQLITE_OK)
        die("close");

    printf("checksum=%016" PRIx64 " rows=%" PRIu64 " size=%g mix=%s\n", sum_hash,
           sum_rows, size, m->name);
    /* now, not in exit(): a -pg build under valgrind can die of SIGPROF there */
    fflush(stdout);
    return 0;
}
