#!/bin/sh
# run.sh: run every libFuzzer harness built in BUILDDIR (./configure CC=clang
# --enable-fuzz; make) over its seed corpus in tests/fuzz/corpus/ for
# SECONDS each. Builds nothing. New inputs go to a scratch corpus, never
# into the tree. Fails when any harness crashes, leaks, hangs (10 s on one
# input) or is missing; the failing input is kept as
# ARTIFACTS/<harness>-crash-<sha1> (ARTIFACTS: $FUZZ_ARTIFACTS, default a
# scratch directory that is kept when something failed).
#
# usage: tests/fuzz/run.sh SECONDS [BUILDDIR]
# env:   FUZZ_JOBS=N runs N processes per harness (libFuzzer -jobs/-workers);
#        FUZZ_CORPUS=DIR keeps the grown corpora in DIR/<harness>/.
set -u
secs=${1:?usage: run.sh SECONDS [BUILDDIR]}
build=$(cd "${2:-.}" && pwd) || exit 1  # the harnesses run from scratch folders
here=$(cd "$(dirname "$0")" && pwd)
seeds=$here/corpus
jobs=${FUZZ_JOBS:-1}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/pmimrpt-fuzz.XXXXXX")
artifacts=${FUZZ_ARTIFACTS:-$scratch/artifacts}
mkdir -p "$artifacts"
failed=0
ran=0

# the longest input worth trying for each harness: a few records or blocks,
# an extended block, a record spanning several segments, a long definition
max_len() {
	case $1 in
	framing|smf|copybook|winperf|perfreport|compressed) echo 65536 ;;
	*) echo 16384 ;;
	esac
}

for name in framing smf pm rptdef report copybook winperf perfreport partial json compressed; do
	bin=$build/tests/fuzz/fuzz_$name
	if [ ! -x "$bin" ]; then
		echo "FAIL - fuzz_$name: not built in $build"
		failed=$((failed + 1))
		continue
	fi
	corpus=${FUZZ_CORPUS:+$FUZZ_CORPUS/$name}
	corpus=${corpus:-$scratch/corpus-$name}
	mkdir -p "$corpus"
	log=$scratch/$name.log
	set -- -max_total_time="$secs" -max_len="$(max_len "$name")" -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$artifacts/$name-"
	if [ "$jobs" -gt 1 ]; then
		set -- "$@" -jobs="$jobs" -workers="$jobs"
	fi
	(cd "$scratch" && "$bin" "$@" "$corpus" "$seeds/$name") > "$log" 2>&1
	rc=$?
	ran=$((ran + 1))
	# with -jobs the workers log to fuzz-N.log in the working directory
	[ "$jobs" -gt 1 ] && cat "$scratch"/fuzz-*.log >> "$log" 2>/dev/null && rm -f "$scratch"/fuzz-*.log
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | awk '{ s += $1 } END { print s + 0 }')
	if [ $rc -eq 0 ] && ! grep -q -E '^==[0-9]+==ERROR|runtime error:|SUMMARY: libFuzzer' "$log"; then
		echo "ok - fuzz_$name: ${secs}s x $jobs, $execs runs, no crash"
	else
		failed=$((failed + 1))
		echo "FAIL - fuzz_$name (exit $rc): see $log"
		grep -E -m 5 '==ERROR|runtime error:|SUMMARY|Test unit written' "$log"
	fi
done
if [ $failed -eq 0 ] && [ -z "${FUZZ_ARTIFACTS:-}" ]; then
	rm -rf "$scratch"
else
	echo "logs and crashing inputs kept in $scratch"
fi
echo "$((ran - failed < 0 ? 0 : ran - failed)) harnesses passed, $failed failed"
[ $failed -eq 0 ]
