#!/bin/sh
# partial.sh: --partial and --merge. For the grouped PMIM reports, every
# --by but interval (rows per interval: tests/partial_rows.sh), CSV and
# text: the report merged from one partial per input file (given in
# reverse order), and from a tree of merges, is byte for byte the report
# of one run over all the files, and so are the summary line and the exit
# code (a dataset with warnings included; the warnings themselves are said
# by the runs that read the inputs, not by the merge). Partials made with
# other options are refused with exit 12, damaged ones (cut short at
# several points, a byte altered, not a partial) with exit 8, and a
# refused merge leaves the previous output as it was.
. "${top_srcdir:-.}/tests/lib.sh"

# Eight dumps of different systems and days, then the sample with faults.
files=
for i in 1 2 3 4 5 6 7 8; do
	gen --framing=rdw --sources=S${i}A,S${i}B --intervals=24 --seed=$i \
		--start="2025-03-0$i 00:00" --drop-parts=0.05 -o "$tmp/d$i.bin" ||
		fail "pmimgen d$i"
	files="$files $tmp/d$i.bin"
done
cp "$top_srcdir/data/sample-faults.dat" "$tmp/d9.bin"
files="$files $tmp/d9.bin"
reversed=$(for f in $files; do echo "$f"; done | sort -r)

# single REPORT BY FORMAT: one run over every file, its output, summary line
# and exit code in $tmp/single.*
single() {
	rc=0
	rpt --run-time="2026-01-01 00:00" --report=$1 --by=$2 --format=$3 $files \
		> "$tmp/single.out" 2> "$tmp/single.err" || rc=$?
	tail -1 "$tmp/single.err" > "$tmp/single.sum"
	echo "exit $rc" >> "$tmp/single.sum"
}

# merged REPORT BY FORMAT PARTS...: the merge of the parts, alike
merged() {
	local report=$1 by=$2 format=$3 rc=0
	shift 3
	rpt --merge --run-time="2026-01-01 00:00" --report=$report --by=$by --format=$format "$@" \
		> "$tmp/merged.out" 2> "$tmp/merged.err" || rc=$?
	tail -1 "$tmp/merged.err" > "$tmp/merged.sum"
	echo "exit $rc" >> "$tmp/merged.sum"
}

for report in waits cpu tasks summary; do
	for by in total day hour; do
		parts=
		for f in $reversed; do
			rpt --partial --report=$report --by=$by -o "$f.part" "$f" 2>/dev/null
			[ $? -le 4 ] || fail "--partial $report $by $f"
			parts="$parts $f.part"
		done
		for format in csv text; do
			single $report $by $format
			merged $report $by $format $parts
			if cmp -s "$tmp/single.out" "$tmp/merged.out" &&
			   cmp -s "$tmp/single.sum" "$tmp/merged.sum"; then
				pass "$report --by=$by --format=$format: 9 partials merge to the single run"
			else
				fail "$report --by=$by --format=$format: the merge differs"
				diff "$tmp/single.sum" "$tmp/merged.sum" | head -5
				diff "$tmp/single.out" "$tmp/merged.out" | head -5
			fi
		done
	done
done

# The Windows reports: three generated files of their own systems, and
# the real Windows blocks where ../shared has them.
perf_files=
for i in 1 2 3; do
	gen --framing=perf --sources=W${i}A,W${i}B --intervals=12 --seed=$i -o "$tmp/p$i.perf" ||
		fail "pmimgen p$i"
	perf_files="$perf_files $tmp/p$i.perf"
done
real=$top_srcdir/../shared/data/real-perf
if [ -d "$real" ]; then
	cp "$real/sample_processor_perf_data_block.bin" "$tmp/p4.perf"
	cp "$real/sample_system_perf_data_block.bin" "$tmp/p5.perf"
	perf_files="$perf_files $tmp/p4.perf $tmp/p5.perf"
fi
perf_reversed=$(for f in $perf_files; do echo "$f"; done | sort -r)
for report in perf win-cpu win-disk; do
	for by in total day hour; do
		parts=
		for f in $perf_reversed; do
			rpt --partial --report=$report --by=$by -o "$f.part" "$f" 2>/dev/null
			[ $? -le 4 ] || fail "--partial $report $by $f"
			parts="$parts $f.part"
		done
		for format in csv text; do
			pmim_files=$files files=$perf_files
			single $report $by $format
			files=$pmim_files
			merged $report $by $format $parts
			if cmp -s "$tmp/single.out" "$tmp/merged.out" &&
			   cmp -s "$tmp/single.sum" "$tmp/merged.sum"; then
				pass "$report --by=$by --format=$format: the Windows partials merge to the single run"
			else
				fail "$report --by=$by --format=$format: the merge differs"
				diff "$tmp/single.sum" "$tmp/merged.sum" | head -5
				diff "$tmp/single.out" "$tmp/merged.out" | head -5
			fi
		done
	done
done

# A tree of merges: (d1..d4) and (d5..d9), each merged into a partial.
for f in $files; do
	rpt --partial --report=waits --by=hour -o "$f.part" "$f" 2>/dev/null
done
rpt --merge --partial --report=waits --by=hour -o "$tmp/left.part" "$tmp"/d[1-4].bin.part 2>/dev/null
rpt --merge --partial --report=waits --by=hour -o "$tmp/right.part" "$tmp"/d[5-9].bin.part 2>/dev/null
single waits hour csv
merged waits hour csv "$tmp/right.part" "$tmp/left.part"
same "$tmp/single.out" "$tmp/merged.out" "a tree of merges gives the single run's report"
same "$tmp/single.sum" "$tmp/merged.sum" "a tree of merges gives the single run's summary and exit code"

# Refusals: the merge's options must be the partials'.
part=$tmp/d1.bin.part
echo "previous report" > "$tmp/kept.csv"
for opts in "--report=waits --by=day" "--report=cpu --by=hour" \
            "--report=waits --by=hour --source=S1A" "--report=waits --by=hour --from=2025-03-01" \
            "--report=waits --by=hour --complete-only" "--report=waits --by=hour --timezone=Europe/Berlin"; do
	expect_rc 12 rpt --merge $opts -o "$tmp/kept.csv" "$part"
	has_line "$tmp/last.err" "made with .*, this run has " "$opts: says which option differs"
done
same "$tmp/kept.csv" /dev/stdin "a refused merge leaves the output as it was" <<EOF2
previous report
EOF2
size=$(wc -c < "$part")
for cut in 9 100 1000 $((size / 2)) $((size - 1)); do
	head -c $cut "$part" > "$tmp/cut.part"
	expect_rc 8 rpt --merge --report=waits --by=hour "$tmp/cut.part"
	has_line "$tmp/last.err" "cut.part: offset [0-9]" "cut at $cut: refused with its offset"
done
cp "$part" "$tmp/altered.part"
printf 'X' | dd of="$tmp/altered.part" bs=1 seek=$((size / 3)) conv=notrunc 2>/dev/null
expect_rc 8 rpt --merge --report=waits --by=hour "$tmp/altered.part"
has_line "$tmp/last.err" "checksum does not match" "an altered byte: refused by the checksum"
expect_rc 8 rpt --merge --report=waits --by=hour "$tmp/d1.bin"
has_line "$tmp/last.err" "not a pmimrpt partial" "a dump given to --merge: refused"
expect_rc 8 rpt --merge --report=waits --by=hour "$part" "$tmp/altered.part"
has_line "$tmp/last.err" "altered.part" "one bad partial among good ones: the merge fails"
# The same input in two partials: said at the merge, exit 4 (a merge cannot
# take the repeated intervals out, as one run does: it says they count twice).
cp "$tmp/d2.bin" "$tmp/copy.bin"
rpt --partial --report=waits --by=hour -o "$tmp/copy.part" "$tmp/copy.bin" 2>/dev/null
rpt --partial --report=waits --by=hour -o "$tmp/d2.bin.part" "$tmp/d2.bin" 2>/dev/null
expect_rc 4 rpt --merge --report=waits --by=hour "$tmp/d2.bin.part" "$tmp/copy.part"
has_line "$tmp/last.err" "copy.part: repeated intervals of S2A from .*, from .*copy.bin at offset [0-9]*, repeat time already merged from .*d2.bin at offset [0-9]*: counted twice" \
	"partials of the same time: said as repeats, with both inputs"
# The inventory merges too; a Windows report by interval merges its rows
# (partials given in reverse, and a tree).
files_given=$files
files=$(for f in $files; do echo "$f"; done | sort | tr '\n' ' ')
rc=0
rpt --report=inventory $files > "$tmp/single.out" 2> "$tmp/single.err" || rc=$?
tail -1 "$tmp/single.err" > "$tmp/single.sum"; echo "exit $rc" >> "$tmp/single.sum"
parts=
for f in $reversed; do
	rpt --partial --report=inventory -o "$f.ipart" "$f" 2>/dev/null
	parts="$parts $f.ipart"
done
rc=0
rpt --merge --report=inventory $parts > "$tmp/merged.out" 2> "$tmp/merged.err" || rc=$?
tail -1 "$tmp/merged.err" > "$tmp/merged.sum"; echo "exit $rc" >> "$tmp/merged.sum"
same "$tmp/single.out" "$tmp/merged.out" "inventory: 9 partials merge to the single run"
same "$tmp/single.sum" "$tmp/merged.sum" "inventory: the summary line and exit code of the single run"
files=$files_given
for report in perf win-cpu; do
	parts=
	for f in $perf_reversed; do
		rpt --partial --report=$report --by=interval -o "$f.part" "$f" 2>/dev/null
		parts="$parts $f.part"
	done
	set -- $parts
	first=$1
	shift
	rpt --merge --partial --report=$report --by=interval -o "$tmp/tree.part" "$@" 2>/dev/null
	for format in csv text; do
		pmim_files=$files files=$perf_files
		single $report interval $format
		files=$pmim_files
		merged $report interval $format "$tmp/tree.part" "$first"
		if cmp -s "$tmp/single.out" "$tmp/merged.out" &&
		   cmp -s "$tmp/single.sum" "$tmp/merged.sum"; then
			pass "$report --by=interval --format=$format: the Windows rows merge to the single run"
		else
			fail "$report --by=interval --format=$format: the merge differs"
			diff "$tmp/single.out" "$tmp/merged.out" | head -5
		fi
	done
done
# the inventory of Windows input: systems, objects and counters in the
# order they first appeared, inputs taken by name
rc=0
rpt --report=inventory $perf_files > "$tmp/single.out" 2> "$tmp/single.err" || rc=$?
tail -1 "$tmp/single.err" > "$tmp/single.sum"; echo "exit $rc" >> "$tmp/single.sum"
parts=
for f in $perf_reversed; do
	rpt --partial --report=inventory -o "$f.ipart" "$f" 2>/dev/null
	parts="$parts $f.ipart"
done
rc=0
rpt --merge --report=inventory $parts > "$tmp/merged.out" 2> "$tmp/merged.err" || rc=$?
tail -1 "$tmp/merged.err" > "$tmp/merged.sum"; echo "exit $rc" >> "$tmp/merged.sum"
same "$tmp/single.out" "$tmp/merged.out" "Windows inventory: the partials merge to the single run"
same "$tmp/single.sum" "$tmp/merged.sum" "Windows inventory: the summary line and exit code of the single run"
finish
