/* crash.h - a last word from a process that crashes: on SIGSEGV, SIGBUS,
 * SIGILL, SIGFPE or SIGABRT, write the program's name, the signal and a
 * backtrace to stderr, then die of the same signal (the exit status and a
 * core file, where enabled, stay as they were).
 *
 * Why: a crash seen once in thousands of test runs (a console exiting
 * after its reply, issue 23's day) leaves only "exit 139" in a CI log; the
 * backtrace is the one clue that survives. Under ASan/UBSan builds this
 * installs nothing: their own reports are better.
 */
#ifndef TNY_CRASH_H
#define TNY_CRASH_H

/* prog: a string that lives as long as the process (argv[0]'s name). */
void tny_crash_report_install(const char *prog);

#endif
