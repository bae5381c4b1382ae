#!/bin/sh
# jobs.sh: --jobs. For the grouped PMIM reports, every --by but interval,
# CSV and text, a run with --jobs=2, 3 and 0 writes byte for byte what
# --jobs=1 writes: the report, standard error whole (every message, in the
# order of the inputs, and the summary line) and the exit code. The inputs
# are given out of name order (the title block lists them as given). Files
# that read apart (their own systems, nothing left waiting at their end)
# are merged from the threads' partials (PMIMRPT_JOBS_LOG says "apart");
# damaged files whose intervals wait for parts at their end are read again
# one after the other ("again"), with the same result, and so are files
# that repeat each other's intervals. Also: more messages
# of one kind over the files than one run prints (the cap holds over the
# files), an input that cannot be opened (exit 8, the output kept), a
# partial written with --jobs, and reports --jobs does not split.
. "${top_srcdir:-.}/tests/lib.sh"

# Six dumps of their own systems and days, in reverse order, then samples.
clean=
for i in 6 5 4 3 2 1; do
	gen --framing=rdw --sources=C${i}A,C${i}B --intervals=24 --seed=$i \
		--start="2025-03-0$i 00:00" -o "$tmp/c$i.bin" || fail "pmimgen c$i"
	clean="$clean $tmp/c$i.bin"
done
clean="$clean $top_srcdir/data/sample-smf-rdw.dat $top_srcdir/data/sample-pm.dat"

# Dumps with parts left out (intervals wait for them at a file's end) and
# the sample with faults.
damaged=
for i in 3 2 1; do
	gen --framing=rdw --sources=D${i}A --intervals=24 --seed=$i --drop-parts=0.05 \
		--start="2025-03-0$i 00:00" -o "$tmp/d$i.bin" || fail "pmimgen d$i"
	damaged="$damaged $tmp/d$i.bin"
done
damaged="$damaged $top_srcdir/data/sample-faults.dat"

# 25 small dumps, each with bytes at its end that are no record: two
# messages each, more than the 20 one run prints of a kind.
tails=
for i in $(seq 10 34); do
	gen --framing=rdw --sources=T$i --intervals=4 --seed=$i -o "$tmp/t$i.bin" ||
		fail "pmimgen t$i"
	printf 'not a record at the end of the dump' >> "$tmp/t$i.bin"
	tails="$tails $tmp/t$i.bin"
done

export PMIMRPT_JOBS_LOG="$tmp/jobs.log"

# run NAME JOBS OPTIONS... FILES: output, standard error and exit code in
# $tmp/NAME.out, .err, .rc; how the inputs were read in $tmp/NAME.how
run() {
	local name=$1 jobs=$2 rc=0
	shift 2
	: > "$PMIMRPT_JOBS_LOG"
	rpt --run-time="2026-01-01 00:00" --jobs=$jobs "$@" \
		> "$tmp/$name.out" 2> "$tmp/$name.err" || rc=$?
	echo "exit $rc" > "$tmp/$name.rc"
	cut -d' ' -f1 "$PMIMRPT_JOBS_LOG" > "$tmp/$name.how"
}

for report in waits cpu tasks summary; do
	for by in total day hour; do
		for format in csv text; do
			opts="--report=$report --by=$by --format=$format"
			# shellcheck disable=SC2086 # the options and files are words
			run j1 1 $opts $clean
			for jobs in 2 3; do
				# shellcheck disable=SC2086
				run j$jobs $jobs $opts $clean
				jobs_alike "$opts" apart $jobs
			done
		done
	done
done

# shellcheck disable=SC2086
{
	run j1 1 --report=waits --by=hour $clean
	run j0 0 --report=waits --by=hour $clean
	jobs_alike "--report=waits --by=hour" apart 0

	# An empty file among them; a selection that matches nothing, said
	# once, by the merge.
	: > "$tmp/empty.bin"
	run j1 1 --report=waits $tmp/c1.bin $tmp/empty.bin $tmp/c2.bin
	run j2 2 --report=waits $tmp/c1.bin $tmp/empty.bin $tmp/c2.bin
	jobs_alike "an empty file among them" apart 2
	run j1 1 --report=waits --source=NONE $tmp/c1.bin $tmp/c2.bin
	run j2 2 --report=waits --source=NONE $tmp/c1.bin $tmp/c2.bin
	jobs_alike "--source that matches nothing" apart 2
	if [ "$(grep -c 'nothing selected' "$tmp/j2.err")" = 1 ]; then
		pass "nothing selected: said once"
	else
		fail "nothing selected: not said once"
	fi

	# Each thread has its own handle on the zone.
	run j1 1 --report=summary --by=hour --format=text --timezone=Europe/Berlin $clean
	run j3 3 --report=summary --by=hour --format=text --timezone=Europe/Berlin $clean
	jobs_alike "--timezone=Europe/Berlin" apart 3

	for report in waits summary; do
		run j1 1 --report=$report --by=hour $damaged
		run j2 2 --report=$report --by=hour $damaged
		jobs_alike "damaged files: --report=$report" again 2
		run j3 3 --report=$report --by=hour --format=text $damaged $clean
		run j1 1 --report=$report --by=hour --format=text $damaged $clean
		jobs_alike "damaged and clean files: --report=$report" again 3
	done

	# The same systems on other days read apart; a file given twice, its
	# intervals repeated in the other, is read again: its repeats are
	# found across the files as one run finds them.
	days=
	for i in 4 2 1 3; do
		gen --framing=rdw --sources=SYSA,SYSB --intervals=96 --seed=$i \
			--start="2025-03-0$i 00:00" -o "$tmp/s$i.bin" || fail "pmimgen s$i"
		days="$days $tmp/s$i.bin"
	done
	for by in total day; do
		run j1 1 --report=summary --by=$by --format=text $days
		run j3 3 --report=summary --by=$by --format=text $days
		jobs_alike "the same systems on four days, --by=$by" apart 3
	done
	run j1 1 --report=waits --by=hour $days $tmp/s2.bin
	run j2 2 --report=waits --by=hour $days $tmp/s2.bin
	jobs_alike "a file given twice" again 2
	has_line "$tmp/j2.err" "duplicate" "a file given twice: its intervals are duplicates"

	run j1 1 --report=tasks --by=day $tails
	run j3 3 --report=tasks --by=day $tails
	jobs_alike "50 messages over 25 files" apart 3
	has_line "$tmp/j3.err" 'more "bytes skipped .*" messages suppressed' \
		"the cap on messages holds over the files"

	# An input that cannot be opened: exit 8, the previous output kept.
	echo "previous report" > "$tmp/kept.csv"
	run j1 1 --report=cpu --by=day -o "$tmp/kept.csv" $tmp/c1.bin $tmp/none.bin $tmp/c2.bin
	run j2 2 --report=cpu --by=day -o "$tmp/kept.csv" $tmp/c1.bin $tmp/none.bin $tmp/c2.bin
	jobs_alike "an input that cannot be opened" apart 2
	same "$tmp/kept.csv" /dev/stdin "exit 8 with --jobs: the output kept as it was" <<EOF
previous report
EOF
	run j1 1 --report=cpu --by=day -o "$tmp/new.csv" $tmp/c1.bin $tmp/c2.bin
	run j2 2 --report=cpu --by=day -o "$tmp/new2.csv" $tmp/c1.bin $tmp/c2.bin
	same "$tmp/new.csv" "$tmp/new2.csv" "-o FILE with --jobs: the same report written"

	# --partial with --jobs: the same partial, and its merge the same report.
	run j1 1 --partial --report=waits --by=hour -o "$tmp/p1.part" $clean
	run j2 2 --partial --report=waits --by=hour -o "$tmp/p2.part" $clean
	jobs_alike "--partial" apart 2
	same "$tmp/p1.part" "$tmp/p2.part" "--partial --jobs=2: the partial --jobs=1 writes"

	# More rows than --max-groups over the files: read again, so that the
	# limit is said as one run says it.
	run j1 1 --report=waits --by=hour --max-groups=1600 $tmp/c1.bin $tmp/c2.bin $tmp/c3.bin $tmp/c4.bin
	run j2 2 --report=waits --by=hour --max-groups=1600 $tmp/c1.bin $tmp/c2.bin $tmp/c3.bin $tmp/c4.bin
	jobs_alike "--max-groups reached over the files" again 2
	has_line "$tmp/j2.err" "too many report groups" "--max-groups over the files: said"

	# Reports that keep no groups are read by one thread.
	run j1 1 --report=intervals $clean
	run j2 2 --report=intervals $clean
	jobs_alike "--report=intervals (one thread)" "" 2
	run j1 1 --report=waits --by=interval $clean
	run j2 2 --report=waits --by=interval $clean
	jobs_alike "--by=interval (one thread)" "" 2
	run j1 1 --report=waits $tmp/c1.bin
	run j2 2 --report=waits $tmp/c1.bin
	jobs_alike "one input (one thread)" "" 2
}

expect_rc 12 rpt --jobs=x --report=waits "$tmp/c1.bin"
has_line "$tmp/last.err" "jobs must be" "--jobs=x: refused"
expect_rc 12 rpt --jobs=2000 --report=waits "$tmp/c1.bin"
finish
