#!/bin/sh
# golden.sh: reports compared byte for byte with the files kept beside the
# lists of cases, standard output, standard error and exit code alike,
# under TZ=UTC LC_ALL=C. The lists are tests/golden/LIST (the bundled
# samples) and tests/report-golden/LIST (the built-in reports); each line is
# NAME DIR INPUT [OPTION]... (see golden_case in tests/lib.sh), and NAME.out,
# NAME.err and NAME.rc beside the list hold what the run must give. To
# accept new output after a deliberate change:
# UPDATE_GOLDEN=1 make check TESTS=tests/golden.sh, then review the diff.
. "${top_srcdir:-.}/tests/lib.sh"

golden_all
finish
