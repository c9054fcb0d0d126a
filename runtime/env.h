/* env.h — the parsers of the runtime's PERFINST_* values (env.c; not
 * installed).
 *
 * Each takes the variable's value (never NULL: the caller reads the
 * environment once, with secure_getenv) and returns 0 with the result in
 * *out when the value is well-formed, or -1 after one line on stderr that
 * names the variable, the value, what was expected and what is used
 * instead; *out is then untouched.  They keep no state, so a test calls
 * them on any string (tests/runtime/fuzz-env.c).  Numbers are plain
 * decimal digits: no sign, no blank, no 0x, at most UINT64_MAX.
 * docs/runtime.md lists the variables.
 */
#ifndef PERFINST_ENV_H
#define PERFINST_ENV_H

#include <stdint.h>

/* Decimal digits only, at least one, no overflow: 0 and *out, or -1. */
int pi_env_u64(const char *v, uint64_t *out);

int pi_env_mode(const char *v, int *off);                 /* PERFINST_MODE: on|off */
int pi_env_icall(const char *v, int *exact);              /* PERFINST_ICALL: sampled|exact */
int pi_env_line_size(const char *v, unsigned *bytes);     /* PERFINST_LINE_SIZE */
int pi_env_verbose(const char *v, int *on);
int pi_env_flush(const char *v, unsigned *seconds);       /* PERFINST_FLUSH: 1..86400 */               /* PERFINST_VERBOSE: 0|1 ("" is 0) */
int pi_env_dormant(const char *v, int *by_handler);       /* PERFINST_DORMANT: auto|handler */
int pi_env_thresh_table(const char *v, uint64_t bits[3]); /* PERFINST_THRESH_TABLE: a,b,c */
int pi_env_watch_gran(const char *v, unsigned *bytes);    /* PERFINST_WATCH_GRAN */
int pi_env_watch_words(const char *v, uint32_t *n);       /* PERFINST_WATCH_WORDS: 2^10..2^28 */
int pi_env_sitestats(const char *v, uint32_t *n);         /* PERFINST_SITESTATS: 2^8..2^24 */
int pi_env_events(const char *v, uint32_t *n);            /* PERFINST_EVENTS: 0..2^24 */
int pi_env_idle_period(const char *v, uint64_t *ns);      /* PERFINST_IDLE_PERIOD: 100us..1000ms */
/* PERFINST_SAMPLE: cpu[:PERIOD] | wall[:PERIOD] (10us..4s, 1ms), not "off"
 * or "" (the caller's: sampling stays off).  *kind 1 cpu, 2 wall. */
int pi_env_sample(const char *v, int *kind, uint64_t *ns);
int pi_env_sample_max_mb(const char *v, uint64_t *bytes); /* PERFINST_SAMPLE_MAX_MB */
int pi_env_idle(const char *v, int *mode);                /* PERFINST_IDLE: off|to|from|both, not "" */
int pi_env_sharing_lines(const char *v, uint32_t *bits);  /* PERFINST_SHARING_LINES: log2 of the lines */
int pi_env_sharing_period(const char *v, uint32_t *n);    /* PERFINST_SHARING_PERIOD */
int pi_env_sharing_stack(const char *v, uint32_t *n);    /* PERFINST_SHARING_STACK: 1..8 */
int pi_env_sharing_sample(const char *v, uint64_t *n);    /* PERFINST_SHARING_SAMPLE */
int pi_env_sharing_private(const char *v, uint64_t *n);   /* PERFINST_SHARING_PRIVATE */
int pi_env_sharing_sites(const char *v, uint32_t *n);     /* PERFINST_SHARING_SITES: the most site records */
int pi_env_sharing_allocs(const char *v, uint32_t *n);    /* PERFINST_SHARING_ALLOCS */
int pi_env_sharing_threads(const char *v, uint32_t *n);   /* PERFINST_SHARING_THREADS */

#endif /* PERFINST_ENV_H */
