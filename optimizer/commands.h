/* commands.h — the commands of pmopt, one function per row of the command
 * table (pmopt.c); included by the table and by the file defining each. */
#ifndef PERFINST_COMMANDS_H
#define PERFINST_COMMANDS_H

/* One function per row of the command table (pmopt.c, its only caller),
 * called with argv[0] = the command's name and every argument as given
 * (a mode's option, such as report's --tree, among them). */
int cmd_dump_meta(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_report_tree(int argc, char **argv);    /* report-tree.c: report --tree */
int cmd_report_sharing(int argc, char **argv); /* report-sharing.c: report --sharing */
int cmd_merge(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_plan_sharing(int argc, char **argv);   /* plan-sharing.c: plan --sharing */
int cmd_dump(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_export_stacks(int argc, char **argv);  /* cmd-export-stacks.c: export --flamegraph/--folded */
int cmd_relink(int argc, char **argv);
int cmd_diff(int argc, char **argv);           /* report-diff.c */

#endif /* PERFINST_COMMANDS_H */
