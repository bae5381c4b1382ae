#!/bin/sh
# multi.sh: several reports from one read (--report=a,b,c -o DIR/). Each
# file is byte for byte what a run of that report alone writes to -o FILE,
# for every built-in report of each kind of input, in CSV and text; the
# summary line is the one of a single run, and is said once; the exit code
# is one for the run. A failed run replaces none of the files; options that
# take one report refuse a list; reports of PMIM and of Windows data do not
# share a run.
. "${top_srcdir:-.}/tests/lib.sh"

data=$top_srcdir/data
pmim_reports="intervals summary waits cpu tasks inventory"
perf_reports="perf win-cpu win-disk inventory"
rt="--run-time=2026-01-01 00:00"

# each_alone DIR EXT FORMAT INPUT REPORT...: each report run alone into DIR
each_alone() {
	local dir=$1 ext=$2 format=$3 input=$4
	shift 4
	mkdir -p "$dir"
	for r in "$@"; do
		rpt "$rt" --format=$format --report=$r -o "$dir/$r.$ext" "$input" 2> "$dir/$r.err"
		echo "exit $?" >> "$dir/$r.err"
	done
}

# compare DIR_ALONE DIR_LIST EXT WHAT REPORT...
compare() {
	local alone=$1 list=$2 ext=$3 what=$4
	shift 4
	for r in "$@"; do
		same "$alone/$r.$ext" "$list/$r.$ext" "$what: $r as alone"
	done
}

for input in sample-smf-bdw.dat sample-faults.dat sample-pm.dat; do
	for fmt in csv:csv text:txt; do
		format=${fmt%%:*} ext=${fmt#*:}
		reports=$pmim_reports
		[ $format = text ] && reports="intervals summary waits cpu tasks"
		list=$(echo $reports | tr ' ' ,)
		each_alone "$tmp/alone-$input-$format" $ext $format "$data/$input" $reports
		rc=0
		rpt "$rt" --format=$format --report=$list -o "$tmp/list-$input-$format/" \
			"$data/$input" 2> "$tmp/list.err" || rc=$?
		compare "$tmp/alone-$input-$format" "$tmp/list-$input-$format" $ext \
			"$input $format" $reports
		# the messages, the summary line and exit code of the run: those of
		# any single run (what the reading says is said once, not once a
		# report)
		{ grep -v '^exit' "$tmp/alone-$input-$format/waits.err"; echo "exit $rc"; } \
			> "$tmp/want.err"
		{ cat "$tmp/list.err"; echo "exit $rc"; } > "$tmp/got.err"
		same "$tmp/want.err" "$tmp/got.err" "$input $format: messages, summary and exit code once"
	done
done

# Windows snapshots: the series reports and the inventory, from one read.
each_alone "$tmp/alone-perf" csv csv "$data/sample-perf.bin" $perf_reports
expect_rc 12 rpt "$rt" --report=perf,win-cpu -o "$tmp/list-perf" "$data/sample-perf.bin"
has_line "$tmp/last.err" "need -o DIR/" "a directory not there and no '/': refused"
# (win-disk finds no PhysicalDisk counter in the sample: exit 4, as alone)
expect_rc 4 rpt "$rt" --report=perf,win-cpu,win-disk,inventory -o "$tmp/list-perf/" \
	"$data/sample-perf.bin"
compare "$tmp/alone-perf" "$tmp/list-perf" csv "perf" $perf_reports

# --by applies to the reports it applies to; intervals stays per interval
each_alone "$tmp/alone-day" csv csv "$data/sample-smf-rdw.dat" intervals
rpt "$rt" --by=day --report=waits -o "$tmp/alone-day/waits.csv" "$data/sample-smf-rdw.dat" 2>/dev/null
expect_rc 0 rpt "$rt" --by=day --report=intervals,waits -o "$tmp/list-day/" \
	"$data/sample-smf-rdw.dat"
compare "$tmp/alone-day" "$tmp/list-day" csv "--by=day" intervals waits
expect_rc 12 rpt --by=day --report=intervals -o "$tmp/x/" "$data/sample-smf-rdw.dat"
has_line "$tmp/last.err" "row per interval: --by does not apply" "--by with only intervals: refused"

# One report into a directory: DIR/NAME.EXT; an existing directory without '/'
expect_rc 0 rpt "$rt" --report=cpu -o "$tmp/one/" "$data/sample-smf-rdw.dat"
expect_rc 0 rpt "$rt" --report=cpu -o "$tmp/one-alone.csv" "$data/sample-smf-rdw.dat"
same "$tmp/one-alone.csv" "$tmp/one/cpu.csv" "one report into DIR/: DIR/cpu.csv"
expect_rc 0 rpt "$rt" --report=waits,cpu --format=text -o "$tmp/one" "$data/sample-smf-rdw.dat"
if [ -f "$tmp/one/waits.txt" ] && [ -f "$tmp/one/cpu.txt" ]; then
	pass "an existing directory without '/': DIR/waits.txt, DIR/cpu.txt"
else
	fail "an existing directory without '/'"
fi

# A failed run replaces none of the files: an input not there (exit 8)
for r in waits cpu; do echo "previous $r" > "$tmp/keep-$r"; done
mkdir -p "$tmp/keep"
cp "$tmp/keep-waits" "$tmp/keep/waits.csv"
cp "$tmp/keep-cpu" "$tmp/keep/cpu.csv"
expect_rc 8 rpt --report=waits,cpu -o "$tmp/keep/" "$data/sample-smf-bdw.dat" "$tmp/nosuch.dat"
same "$tmp/keep-waits" "$tmp/keep/waits.csv" "exit 8: waits.csv as it was"
same "$tmp/keep-cpu" "$tmp/keep/cpu.csv" "exit 8: cpu.csv as it was"
if [ "$(ls -A "$tmp/keep" | wc -l)" -eq 2 ]; then pass "exit 8: no temporary left"
else fail "exit 8: files left: $(ls -A "$tmp/keep")"; fi
# a run with warnings (exit 4) writes them all
expect_rc 4 rpt --report=waits,cpu -o "$tmp/keep/" "$data/sample-faults.dat"
has_line "$tmp/keep/waits.csv" '^source,' "exit 4: waits.csv written"
has_line "$tmp/keep/cpu.csv" '^source,' "exit 4: cpu.csv written"

# Usage errors, before anything is read or written
expect_rc 12 rpt --report=waits,cpu "$data/sample-pm.dat"
has_line "$tmp/last.err" "2 reports need -o DIR/" "several reports to standard output: refused"
expect_rc 12 rpt --report=waits,cpu -o "$tmp/file.csv" "$data/sample-pm.dat"
has_line "$tmp/last.err" "need -o DIR/" "several reports to one file: refused"
[ -e "$tmp/file.csv" ] && fail "refused run made a file" || pass "refused run made no file"
expect_rc 12 rpt --report=waits,waits -o "$tmp/x/" "$data/sample-pm.dat"
has_line "$tmp/last.err" "named twice" "a report named twice: refused"
expect_rc 12 rpt --report=waits,,cpu -o "$tmp/x/" "$data/sample-pm.dat"
has_line "$tmp/last.err" "empty report name" "an empty name: refused"
expect_rc 12 rpt --report=waits,nosuch -o "$tmp/x/" "$data/sample-pm.dat"
has_line "$tmp/last.err" "nosuch" "an unknown report in a list: named"
expect_rc 12 rpt --report=waits,perf -o "$tmp/x/" "$data/sample-pm.dat"
has_line "$tmp/last.err" "need runs of their own" "PMIM and Windows reports: refused"
expect_rc 12 rpt --report=waits,cpu --partial -o "$tmp/x/" "$data/sample-pm.dat"
has_line "$tmp/last.err" "takes one report" "--partial with a list: refused"
expect_rc 12 rpt --report=inventory,waits --format=text -o "$tmp/x/" "$data/sample-pm.dat"
has_line "$tmp/last.err" "CSV only" "inventory as text in a list: refused"
mkdir -p "$tmp/in"
cp "$data/sample-pm.dat" "$tmp/in/waits.csv"
expect_rc 12 rpt --report=waits,cpu -o "$tmp/in/" "$tmp/in/waits.csv"
has_line "$tmp/last.err" "is the input" "a report's file that is an input: refused"
[ -e "$tmp/x" ] && fail "refused runs made $tmp/x" || pass "refused runs made no directory"

# SQLite: one database, a table a report, each the table of the report alone
if command -v sqlite3 > /dev/null && rpt --format=sqlite -o "$tmp/probe.db" --report=cpu \
	"$data/sample-pm.dat" 2> /dev/null; then
	expect_rc 0 rpt --format=sqlite --report=waits,cpu,summary --by=hour -o "$tmp/all.db" \
		"$data/sample-smf-bdw.dat"
	for r in waits cpu summary; do
		rpt --format=sqlite --report=$r --by=hour -o "$tmp/$r.db" "$data/sample-smf-bdw.dat" 2>/dev/null
		sqlite3 "$tmp/$r.db" "select * from $r" > "$tmp/$r.alone"
		sqlite3 "$tmp/all.db" "select * from $r" > "$tmp/$r.list"
		same "$tmp/$r.alone" "$tmp/$r.list" "sqlite: table $r as alone"
	done
	sqlite3 "$tmp/all.db" "select count(*) from runs; select group_concat(name) from (select name from run_tables order by name)" \
		> "$tmp/runs.got"
	printf '1\ncpu,summary,waits\n' > "$tmp/runs.want"
	same "$tmp/runs.want" "$tmp/runs.got" "sqlite: one run, three tables"
	expect_rc 12 rpt --format=sqlite --report=waits,cpu -o "$tmp/dbdir/" "$data/sample-pm.dat"
	has_line "$tmp/last.err" "one database" "sqlite into a directory: refused"
else
	echo "skip - no --format=sqlite in this build, or no sqlite3 program"
fi

# --jobs with several reports reads them in one pass too: the same files
gen --framing=rdw --sources=SYSA --intervals=48 --seed=3 -o "$tmp/g1.bin" || fail "pmimgen"
gen --framing=rdw --sources=SYSB --intervals=48 --seed=4 -o "$tmp/g2.bin" || fail "pmimgen"
rpt "$rt" --report=waits,tasks -o "$tmp/j1/" "$tmp/g1.bin" "$tmp/g2.bin" 2>/dev/null
expect_rc 0 rpt "$rt" --jobs=2 --report=waits,tasks -o "$tmp/j2/" "$tmp/g1.bin" "$tmp/g2.bin"
compare "$tmp/j1" "$tmp/j2" csv "--jobs=2" waits tasks

finish
