# lib.sh: shared set-up for the shell tests (sourced). Fixes the locale and
# time zone, finds the programs, makes a scratch directory that is kept when
# a test fails, and gives small assertion helpers. Tests print one line per
# check and exit 0 (pass), 1 (fail) or 77 (skip).
set -u
export LC_ALL=C TZ=UTC
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
PMIMRPT=${PMIMRPT:-$top_builddir/pmimrpt}
PMIMGEN=${PMIMGEN:-$top_builddir/pmimgen}
# Every run of the programs goes through rpt and gen, so that one setting
# runs them all under valgrind (VALGRIND=1: memory errors and leaks fail the
# test with exit code 99) or under an emulator (EXEC_WRAPPER=qemu-s390x for
# the big-endian cross build).
WRAP=${EXEC_WRAPPER:-}
if [ "${VALGRIND:-0}" = 1 ]; then
	WRAP="$WRAP valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite"
fi
rpt() { $WRAP "$PMIMRPT" "$@"; }
gen() { $WRAP "$PMIMGEN" "$@"; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pmimrpt-test.XXXXXX")
failures=0
checks=0
trap 'if [ $failures -eq 0 ]; then rm -rf "$tmp"; else echo "scratch files kept in $tmp"; fi' EXIT

pass() { checks=$((checks + 1)); echo "ok - $*"; }
fail() { checks=$((checks + 1)); failures=$((failures + 1)); echo "FAIL - $*"; }

# expect_rc WANT CMD...: run CMD, check its exit code; its output is kept
# in $tmp/last.out and $tmp/last.err.
expect_rc() {
	local want=$1 rc=0
	shift
	"$@" > "$tmp/last.out" 2> "$tmp/last.err" || rc=$?
	if [ "$rc" -eq "$want" ]; then pass "exit $want: $*"; else fail "exit $rc, wanted $want: $*"; fi
}

# same FILE1 FILE2 WHAT
same() {
	if cmp -s "$1" "$2"; then pass "$3"; else fail "$3"; diff -u "$1" "$2" | head -20; fi
}

finish() {
	echo "$((checks - failures)) passed, $failures failed"
	[ $checks -gt 0 ] || exit 1
	[ $failures -eq 0 ]
}
