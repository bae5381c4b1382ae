/* report_text.h: the built-in report definitions, embedded at build time
 * from reports/ by build-aux/text2c.sh (see Makefile.am), so that pmimrpt
 * has them before it is installed. */
#ifndef REPORT_TEXT_H
#define REPORT_TEXT_H

extern const char intervals_rpt[];
extern const char waits_rpt[];
extern const char cpu_rpt[];
extern const char tasks_rpt[];
extern const char summary_rpt[];
extern const char perf_rpt[];
extern const char win_cpu_rpt[];
extern const char win_disk_rpt[];

#endif
