#!/bin/sh
# spill.sh: --group-memory. A grouped report holds the figures of at most
# --group-memory bytes of its groups in memory and keeps the others in a
# temporary file in $TMPDIR, read back when their source and period come
# again and at the end. Whatever the limit, a report is byte for byte what
# it is with every group held (--group-memory=0): every golden case with
# one group held at a time; generated dumps of four interleaved systems
# given out of time order, every grouped report and --by, CSV and text;
# partials written and merged that way; --jobs. A $TMPDIR that cannot take
# the file is a warning (exit 4), and the report is still whole. Peak
# memory stays within the limit where every group held takes several
# times it, and so do a partial's writing and merging (written as it
# comes, mapped and given back as it is read) and --jobs (whose threads
# write their partials to temporary files), though the partial is larger
# than the bound. The same for the Windows series reports (perf, win-cpu,
# win-disk), whose rows are given up a source and period at a time:
# snapshots of three systems and then of two of them, hours before and
# over the first's first hour (its rows read back when they come again),
# by hour, day and in total, CSV and text; their partials, the same bytes
# whatever the limit, and merged; --jobs over the ranges of a file; a
# peak within the limit where every row held takes twice it. The option's
# values are checked.
. "${top_srcdir:-.}/tests/lib.sh"

# ---- every golden case, one group held at a time ----
golden_all --group-memory=1

# ---- generated dumps: four systems, two days, then the day before ----
gen --framing=rdw --sources=SYSA,SYSB,SYSC,SYSD --intervals=192 --seed=4 \
	--start="2025-03-02 00:00" --drop-parts=0.02 -o "$tmp/later.bin" || fail "pmimgen later"
gen --framing=bdw --sources=SYSA,SYSB,SYSC,SYSD --intervals=96 --seed=5 \
	--start="2025-03-01 00:00" -o "$tmp/earlier.bin" || fail "pmimgen earlier"
files="$tmp/later.bin $tmp/earlier.bin"

# run NAME OPTION...: the report, standard error and exit code in $tmp/NAME.*
run() {
	local name=$1 rc=0
	shift
	rpt --run-time="2026-01-01 00:00" "$@" > "$tmp/$name.out" 2> "$tmp/$name.err" || rc=$?
	echo "$rc" > "$tmp/$name.rc"
}

# alike A B WHAT: runs A and B wrote the same
alike() {
	if cmp -s "$tmp/$1.out" "$tmp/$2.out" && cmp -s "$tmp/$1.err" "$tmp/$2.err" &&
	   cmp -s "$tmp/$1.rc" "$tmp/$2.rc"; then
		pass "$3 (exit $(cat "$tmp/$1.rc"))"
	else
		fail "$3: differs"
		diff "$tmp/$1.err" "$tmp/$2.err" | head -5
		diff "$tmp/$1.out" "$tmp/$2.out" | head -5
	fi
}

# limits REPORTS FILES [OPTION...]: each report by hour, day and in total,
# CSV and text, the same with --group-memory=1 and 40K as with 0
limits() {
	local reports=$1 files=$2 report by format limit
	shift 2
	for report in $reports; do
		for by in hour day total; do
			for format in csv text; do
				# shellcheck disable=SC2086
				run all --report=$report --by=$by --format=$format "$@" \
					--group-memory=0 $files
				for limit in 1 40K; do
					# shellcheck disable=SC2086
					run limited --report=$report --by=$by --format=$format "$@" \
						--group-memory=$limit $files
					alike all limited \
						"$report --by=$by --format=$format --group-memory=$limit"
				done
			done
		done
	done
}

limits "waits cpu tasks summary" "$files"
# the groups were many more than 40K holds (two waits groups)
run all --report=waits --by=hour --group-memory=0 $files
[ "$(wc -l < "$tmp/all.out")" -gt 1000 ] &&
	pass "waits --by=hour: $(wc -l < "$tmp/all.out") rows, far more than 40K holds" ||
	fail "waits --by=hour: too few rows to spill"

# ---- partials written and merged past the limit ----
# exit 4 (warnings: parts dropped) is a run that wrote its output
ok() { "$@" || [ $? -eq 4 ]; }
run single --report=waits --by=hour --group-memory=0 $files
ok rpt -q --partial --report=waits --by=hour --group-memory=1 -o "$tmp/a.part" "$tmp/later.bin" &&
ok rpt -q --partial --report=waits --by=hour --group-memory=1 -o "$tmp/b.part" "$tmp/earlier.bin" ||
	fail "partials with --group-memory=1"
run merged --merge --report=waits --by=hour --group-memory=1 "$tmp/b.part" "$tmp/a.part"
if cmp -s "$tmp/single.out" "$tmp/merged.out"; then
	pass "partials written and merged with --group-memory=1: the single run's report"
else
	fail "partials with --group-memory=1: the merge differs from the single run"
	diff "$tmp/single.out" "$tmp/merged.out" | head -5
fi

# ---- --jobs ----
cp "$tmp/later.bin" "$tmp/x1.bin"
gen --framing=rdw --sources=SYSE,SYSF --intervals=96 --seed=6 -o "$tmp/x2.bin" || fail "pmimgen x2"
run j1 --report=cpu --by=hour --group-memory=0 "$tmp/x1.bin" "$tmp/x2.bin"
run j2 --report=cpu --by=hour --group-memory=1 --jobs=2 "$tmp/x1.bin" "$tmp/x2.bin"
alike j1 j2 "cpu --by=hour --jobs=2 --group-memory=1: as --jobs=1 holding every group"

# ---- a $TMPDIR that cannot take the file ----
rc=0
TMPDIR="$tmp/not-there" rpt --run-time="2026-01-01 00:00" --report=waits --by=hour \
	--group-memory=1 $files > "$tmp/nodir.out" 2> "$tmp/nodir.err" || rc=$?
[ $rc -eq 4 ] && pass "no temporary file: exit 4" || fail "no temporary file: exit $rc, wanted 4"
grep -q "warning: cannot write report groups to a temporary file; held in memory: No such file or directory" \
	"$tmp/nodir.err" && pass "no temporary file: the warning says why" ||
	{ fail "no temporary file: the warning"; cat "$tmp/nodir.err"; }
[ "$(grep -c "temporary file" "$tmp/nodir.err")" -eq 1 ] &&
	pass "no temporary file: said once" || fail "no temporary file: said more than once"
cmp -s "$tmp/single.out" "$tmp/nodir.out" && pass "no temporary file: the report is whole" ||
	fail "no temporary file: the report differs"

# ---- memory: thirty days of four systems by hour ----
gen --framing=rdw --sources=M1,M2,M3,M4 --intervals=2880 --seed=3 -o "$tmp/month.bin" ||
	fail "pmimgen month"
# AddressSanitizer's shadow memory and quarantine are not the report's
base=
grep -q -a __asan_init "$PMIMRPT" ||
	base=$(peak_rss_kb "$PMIMRPT" -q --report=waits "$top_srcdir/data/sample-smf-rdw.dat")
if [ -n "$base" ]; then
	held=$(peak_rss_kb "$PMIMRPT" -q --max-groups=10000000 --report=waits --by=hour \
		--group-memory=0 "$tmp/month.bin")
	limited=$(peak_rss_kb "$PMIMRPT" -q --max-groups=10000000 --report=waits --by=hour \
		"$tmp/month.bin")
	# the default 8 MiB, and 4 MiB for the groups' keys and the buffers
	bound=$((base + 12288))
	if [ "$limited" -le $bound ] && [ "$held" -gt $bound ]; then
		pass "waits --by=hour of a month: $limited KiB (bound $bound), every group held $held KiB"
	else
		fail "waits --by=hour of a month: $limited KiB, every group held $held KiB, bound $bound"
	fi
	# its partial (50 MB), written and merged; two threads (their
	# partials in temporary files), each within the bound
	partial=$(peak_rss_kb "$PMIMRPT" -q --max-groups=10000000 --report=waits --by=hour \
		--partial -o "$tmp/month.part" "$tmp/month.bin")
	merge=$(peak_rss_kb "$PMIMRPT" -q --max-groups=10000000 --report=waits --by=hour \
		--merge "$tmp/month.part")
	jobs=$(peak_rss_kb "$PMIMRPT" -q --max-groups=10000000 --report=waits --by=hour \
		--jobs=2 "$tmp/month.bin")
	size=$(($(wc -c < "$tmp/month.part") / 1024))
	for run in "partial $partial $bound" "merge $merge $bound" "jobs=2 $jobs $((bound + 12288))"; do
		set -- $run
		if [ "$2" -le "$3" ] && [ "$size" -gt "$3" ]; then
			pass "waits --by=hour of a month, --$1: $2 KiB (bound $3), its partial $size KiB"
		else
			fail "waits --by=hour of a month, --$1: $2 KiB, bound $3, its partial $size KiB"
		fi
	done
else
	echo "# no GNU time, a wrapper or AddressSanitizer: peak memory not measured"
fi

# ---- the Windows series reports ----
gen --framing=perf --sources=W1,W2,W3 --interval=300 --intervals=48 --seed=4 \
	--start="2025-03-02 00:00" --perf-names="$tmp/w.names" -o "$tmp/wa.perf" || fail "pmimgen wa"
gen --framing=perf --sources=W1,W2 --interval=300 --intervals=36 --seed=5 \
	--start="2025-03-01 22:00" -o "$tmp/wb.perf" || fail "pmimgen wb"
wfiles="$tmp/wa.perf $tmp/wb.perf"
names=--perf-names=$tmp/w.names
limits "perf win-cpu win-disk" "$wfiles" "$names"
# every report wrote rows: none was left with its heading alone
run all --report=win-disk --by=hour $names --group-memory=0 $wfiles
[ "$(wc -l < "$tmp/all.out")" -gt 40 ] &&
	pass "win-disk --by=hour: $(wc -l < "$tmp/all.out") rows" ||
	fail "win-disk --by=hour: too few rows to spill"
run all --report=perf --by=hour $names --group-memory=0 $wfiles
[ "$(wc -l < "$tmp/all.out")" -gt 1000 ] &&
	pass "perf --by=hour: $(wc -l < "$tmp/all.out") rows, far more than 40K holds" ||
	fail "perf --by=hour: too few rows to spill"

# a $TMPDIR that cannot take the file: the rows held, the report whole
run all --report=perf --by=hour $names --group-memory=0 $wfiles
rc=0
TMPDIR="$tmp/not-there" rpt --run-time="2026-01-01 00:00" --report=perf --by=hour $names \
	--group-memory=1 $wfiles > "$tmp/nodir.out" 2> "$tmp/nodir.err" || rc=$?
[ $rc -eq 4 ] && [ "$(grep -c "warning: cannot write report groups to a temporary file" \
	"$tmp/nodir.err")" -eq 1 ] && pass "perf, no temporary file: exit 4, said once" ||
	{ fail "perf, no temporary file: exit $rc"; cat "$tmp/nodir.err"; }
cmp -s "$tmp/all.out" "$tmp/nodir.out" && pass "perf, no temporary file: the report is whole" ||
	fail "perf, no temporary file: the report differs"

# partials: the same bytes whatever the limit, merged the same
for limit in 0 1; do
	for f in wa wb; do
		rpt -q --partial --report=perf --by=hour $names --group-memory=$limit \
			-o "$tmp/$f.$limit.part" "$tmp/$f.perf" || fail "perf --partial of $f"
	done
	run merged$limit --merge --report=perf --by=hour $names --group-memory=$limit \
		"$tmp/wb.$limit.part" "$tmp/wa.$limit.part"
done
cmp -s "$tmp/wa.0.part" "$tmp/wa.1.part" && cmp -s "$tmp/wb.0.part" "$tmp/wb.1.part" &&
	pass "perf --partial with --group-memory=1: the partials of every row held" ||
	fail "perf --partial with --group-memory=1: the partials differ"
alike merged0 merged1 "perf partials merged with --group-memory=1"
[ "$(wc -l < "$tmp/merged1.out")" -gt 1000 ] && pass "perf partials merged: many rows" ||
	fail "perf partials merged: too few rows"

# --jobs: the ranges of one file, their partials merged
export PMIMRPT_JOBS_LOG="$tmp/jobs.log"
: > "$PMIMRPT_JOBS_LOG"
run j1 --report=perf --by=hour $names --group-memory=0 "$tmp/wa.perf"
export PMIMRPT_SPLIT_LEAST=100000
run j2 --report=perf --by=hour $names --group-memory=1 --jobs=2 "$tmp/wa.perf"
unset PMIMRPT_SPLIT_LEAST
alike j1 j2 "perf --by=hour --jobs=2 --group-memory=1: as --jobs=1 holding every row"
grep -q '^apart 2 2 ' "$PMIMRPT_JOBS_LOG" && pass "perf --jobs=2: two ranges read apart" ||
	{ fail "perf --jobs=2: not read as two ranges"; cat "$PMIMRPT_JOBS_LOG"; }
unset PMIMRPT_JOBS_LOG

# memory: 200 hours of four systems by hour
gen --framing=perf --sources=M1,M2,M3,M4 --interval=900 --intervals=800 --seed=3 \
	-o "$tmp/hours.perf" || fail "pmimgen hours"
if [ -n "$base" ]; then
	held=$(peak_rss_kb "$PMIMRPT" -q --max-groups=10000000 --report=perf --by=hour \
		--group-memory=0 "$tmp/hours.perf")
	limited=$(peak_rss_kb "$PMIMRPT" -q --max-groups=10000000 --report=perf --by=hour \
		"$tmp/hours.perf")
	if [ "$limited" -le $bound ] && [ "$held" -gt $bound ]; then
		pass "perf --by=hour of 200 hours: $limited KiB (bound $bound), every row held $held KiB"
	else
		fail "perf --by=hour of 200 hours: $limited KiB, every row held $held KiB, bound $bound"
	fi
	# a row a counter and hour (a snapshot an hour): a million rows, whose
	# order of first appearance --jobs=2 keeps by number, not sorted (24
	# bytes a row, and as many again to sort them): 16 MiB a thread
	gen --framing=perf --sources=H1,H2,H3,H4 --interval=3600 --intervals=2500 --seed=3 \
		-o "$tmp/hourly.perf" || fail "pmimgen hourly"
	one=$(peak_rss_kb "$PMIMRPT" -q --max-groups=10000000 --report=perf --by=hour \
		"$tmp/hourly.perf")
	jobs=$(peak_rss_kb "$PMIMRPT" -q --max-groups=10000000 --report=perf --by=hour \
		--jobs=2 "$tmp/hourly.perf")
	rows=$("$PMIMRPT" -q --max-groups=10000000 --report=perf --by=hour "$tmp/hourly.perf" |
		wc -l)
	# its 10,000 hours of systems' rows come in runs of a few numbers
	# (a snapshot's go to two hours in turn), given up with their rows
	if [ "$one" -le $bound ] && [ "$rows" -gt 1000000 ]; then
		pass "perf --by=hour of $rows rows, short runs of numbers: $one KiB (bound $bound)"
	else
		fail "perf --by=hour of $rows rows, short runs of numbers: $one KiB, bound $bound"
	fi
	if [ "$jobs" -le 32768 ] && [ "$rows" -gt 1000000 ]; then
		pass "perf --by=hour --jobs=2 of $rows rows: $jobs KiB (bound 32768)"
	else
		fail "perf --by=hour --jobs=2 of $rows rows: $jobs KiB, bound 32768"
	fi
fi

# ---- the option ----
for bad in abc 1T "" 8MB -1 18446744073709551616; do
	expect_rc 12 rpt -q --group-memory="$bad" "$top_srcdir/data/sample-pm.dat"
done
for good in 0 1 512k 8M 1G; do
	expect_rc 0 rpt -q --group-memory="$good" --report=waits --by=hour \
		"$top_srcdir/data/sample-smf-rdw.dat"
done
rpt --help | grep -q -- "--group-memory=SIZE" && pass "--help documents --group-memory" ||
	fail "--help lacks --group-memory"
finish
