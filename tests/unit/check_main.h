/* check_main.h: the one runner every unit test shares (check_main.c). A
 * test file defines unit_suite() and lists its tests there; the runner
 * runs them and turns the failures into the exit code. */
#ifndef CHECK_MAIN_H
#define CHECK_MAIN_H

#include <check.h>

/* The file's suite. Set-up that every test needs runs here; a test that
 * cannot run on this machine exits 77 (skipped) from here. */
Suite *unit_suite(void);

#endif
