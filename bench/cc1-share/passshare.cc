/* bench/cc1-share/passshare.cc — where cc1's time goes, by phase.
 *
 * A measurement plugin (not perfinst's): at every pass GCC executes it
 * notes the phase the compile is in —
 *   front  parsing, before the first pass
 *   early  GIMPLE passes before IPA ends (lowering, the early local passes)
 *   ipa    the IPA passes themselves
 *   late   GIMPLE passes of the per-function pipeline (after IPA, up to expand)
 *   rtl    expand and every RTL pass, final included
 *   out    between functions and after the last (assembly of data, debug info)
 * and either adds each phase's thread CPU time (mode=clock, printed at the end
 * on stderr) or, under callgrind (--collect-atstart=no), collects only the
 * phases named by collect=P1,P2 (CALLGRIND_TOGGLE_COLLECT at each change).
 *
 *   gcc -fplugin=passshare.so [-fplugin-arg-passshare-collect=rtl,late] ...
 */
#include "gcc-plugin.h"
#include "plugin-version.h"
#include "tree.h"
#include "tree-pass.h"
#include "cgraph.h"
#include <valgrind/callgrind.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

int plugin_is_GPL_compatible;

enum { P_FRONT, P_EARLY, P_IPA, P_LATE, P_RTL, P_OUT, P_N };
static const char *const names[P_N] = { "front", "early", "ipa", "late", "rtl", "out" };
static int cur = P_FRONT;
static int collect_mask;   /* 0: clock mode */
static int collecting;
static double spent[P_N];
static double since;

static double now (void)
{
  struct timespec t;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static void enter (int p)
{
  if (p == cur)
    return;
  if (collect_mask)
    {
      int want = (collect_mask >> p) & 1;
      if (want != collecting)
        {
          CALLGRIND_TOGGLE_COLLECT;
          collecting = want;
        }
    }
  else
    {
      double t = now ();
      spent[cur] += t - since;
      since = t;
    }
  cur = p;
}

static void on_pass (void *gcc_data, void *)
{
  opt_pass *pass = (opt_pass *) gcc_data;
  int p;
  if (pass->type == RTL_PASS)
    p = P_RTL;
  else if (pass->type == GIMPLE_PASS)
    p = symtab->state == EXPANSION ? P_LATE : P_EARLY;
  else
    p = P_IPA;
  enter (p);
}

static void on_all_passes_end (void *, void *)
{
  enter (P_OUT);
}

static void on_finish (void *, void *)
{
  if (collect_mask)
    return;
  enter (P_OUT);
  double tot = 0;
  for (int i = 0; i < P_N; i++)
    tot += spent[i];
  fprintf (stderr, "passshare:");
  for (int i = 0; i < P_N; i++)
    fprintf (stderr, " %s %.3f", names[i], spent[i]);
  fprintf (stderr, " total %.3f\n", tot);
}

int plugin_init (struct plugin_name_args *info, struct plugin_gcc_version *version)
{
  for (int i = 0; i < info->argc; i++)
    if (!strcmp (info->argv[i].key, "collect") && info->argv[i].value)
      {
        char buf[128];
        snprintf (buf, sizeof buf, "%s", info->argv[i].value);
        for (char *s = strtok (buf, ","); s; s = strtok (NULL, ","))
          {
            int k;
            for (k = 0; k < P_N && strcmp (s, names[k]); k++)
              ;
            if (k == P_N)
              {
                fprintf (stderr, "passshare: unknown phase '%s'\n", s);
                return 1;
              }
            collect_mask |= 1 << k;
          }
      }
  if (collect_mask & (1 << P_FRONT))
    {
      CALLGRIND_TOGGLE_COLLECT;
      collecting = 1;
    }
  since = now ();
  register_callback (info->base_name, PLUGIN_PASS_EXECUTION, on_pass, NULL);
  register_callback (info->base_name, PLUGIN_ALL_PASSES_END, on_all_passes_end, NULL);
  register_callback (info->base_name, PLUGIN_FINISH, on_finish, NULL);
  return 0;
}
