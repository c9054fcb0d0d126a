/* report-html.h — pmopt report --html: what the page (report-html.c: the
 * frame, its CSS and JS, and the list of sections) shares with the views,
 * each of which writes its own section beside its text, JSON and CSV. */
#ifndef PERFINST_REPORT_HTML_H
#define PERFINST_REPORT_HTML_H

#include <stdio.h>

#include "report.h"

#define HTML_MAX_ROWS 200   /* rows per table; the text report has them all */

/* s (NULL: nothing) with &, <, >, " and ' escaped, control characters but
 * tab as '?'. */
void html_esc(FILE *f, const char *s);
/* <section id=ID data-status="collected"|"not-collected"><h2>TITLE</h2> */
void html_section_begin(FILE *f, const char *id, const char *title, int collected);
/* The paragraph saying why a section has nothing. */
void html_not_collected(FILE *f, const char *why);

/* The page's sections, in its order; each opens and closes its <section>. */
void html_section_summary(FILE *f, const struct report *r);     /* cmd-report.c */
void html_section_functions(FILE *f, const struct report *r);   /* cmd-report.c */
void html_section_lines(FILE *f, const struct report *r);       /* cmd-report.c */
void html_section_calltree(FILE *f, const struct report *r);    /* view-callers.c */
void html_section_flamegraph(FILE *f, const struct report *r);  /* report-tree.c */
void html_section_sharing(FILE *f, const struct report *r);     /* report-sharing.c */

#endif /* PERFINST_REPORT_HTML_H */
