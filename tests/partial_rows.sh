#!/bin/sh
# partial_rows.sh: --partial and --merge of the reports that write a row
# per interval (--report=intervals, --by=interval). A partial holds the
# rows, each with the input its interval came from; the merge writes them
# sorted by input name, then in the order one run wrote them. So the merge
# of one partial per input, given in any order, is byte for byte the report
# of one run over the inputs in name order, CSV and text, and so are the
# summary line and the exit code; so is a tree of merges, and the merge of
# partials each over several inputs given out of name order. A partial of
# rows is refused by a report that groups, and one of groups by a report of
# rows.
. "${top_srcdir:-.}/tests/lib.sh"

# Six dumps of different systems and days (some parts dropped, so that
# incomplete intervals wait at the ends of inputs), then the sample with
# faults. Named so that name order is not the order they were made in.
files=
for i in 1 2 3 4 5 6; do
	gen --framing=rdw --sources=S${i}A,S${i}B --intervals=24 --seed=$i \
		--start="2025-03-0$i 00:00" --drop-parts=0.08 -o "$tmp/d$i.bin" ||
		fail "pmimgen d$i"
	files="$files $tmp/d$i.bin"
done
cp "$top_srcdir/data/sample-faults.dat" "$tmp/d7.bin"
files="$files $tmp/d7.bin"
reversed=$(for f in $files; do echo "$f"; done | sort -r)
shuffled="$tmp/d4.bin $tmp/d1.bin $tmp/d7.bin $tmp/d3.bin $tmp/d6.bin $tmp/d2.bin $tmp/d5.bin"

# single FORMAT OPTION...: one run over every file in name order, its
# output, summary line and exit code in $tmp/single.*
single() {
	local format=$1 rc=0
	shift
	rpt --run-time="2026-01-01 00:00" --format=$format "$@" $files \
		> "$tmp/single.out" 2> "$tmp/single.err" || rc=$?
	tail -1 "$tmp/single.err" > "$tmp/single.sum"
	echo "exit $rc" >> "$tmp/single.sum"
}

# merged FORMAT "OPTIONS" PARTS...: the merge of the parts, alike
merged() {
	local format=$1 opts=$2 rc=0
	shift 2
	rpt --merge --run-time="2026-01-01 00:00" --format=$format $opts "$@" \
		> "$tmp/merged.out" 2> "$tmp/merged.err" || rc=$?
	tail -1 "$tmp/merged.err" > "$tmp/merged.sum"
	echo "exit $rc" >> "$tmp/merged.sum"
}

# compare WHAT: the merge wrote what the single run wrote
compare() {
	if cmp -s "$tmp/single.out" "$tmp/merged.out" &&
	   cmp -s "$tmp/single.sum" "$tmp/merged.sum"; then
		pass "$1"
	else
		fail "$1"
		diff "$tmp/single.sum" "$tmp/merged.sum" | head -5
		diff "$tmp/single.out" "$tmp/merged.out" | head -5
	fi
}

for opts in "--report=intervals" "--report=waits --by=interval" \
            "--report=cpu --by=interval" "--report=intervals --timezone=Europe/Berlin"; do
	parts=
	for f in $reversed; do
		rpt --partial $opts -o "$f.part" "$f" 2>/dev/null
		[ $? -le 4 ] || fail "--partial $opts $f"
		parts="$parts $f.part"
	done
	for format in csv text; do
		single $format $opts
		[ -s "$tmp/single.out" ] || fail "$opts: the single run wrote nothing"
		merged $format "$opts" $parts
		compare "$opts --format=$format: 7 partials, in reverse order, merge to the single run"
	done
	shuffled_parts=
	for f in $shuffled; do shuffled_parts="$shuffled_parts $f.part"; done
	merged csv "$opts" $shuffled_parts
	single csv $opts
	compare "$opts: the partials in another order merge alike"
done

# A tree of merges: (d1..d3) and (d4..d7), each merged into a partial.
for opts in "--report=intervals" "--report=waits --by=interval"; do
	for f in $files; do
		rpt --partial $opts -o "$f.part" "$f" 2>/dev/null
	done
	rpt --merge --partial $opts -o "$tmp/left.part" "$tmp"/d[1-3].bin.part 2>/dev/null
	rpt --merge --partial $opts -o "$tmp/right.part" "$tmp"/d[4-7].bin.part 2>/dev/null
	single csv $opts
	merged csv "$opts" "$tmp/right.part" "$tmp/left.part"
	compare "$opts: a tree of merges gives the single run's report, summary and exit code"
	single text $opts
	merged text "$opts" "$tmp/right.part" "$tmp/left.part"
	compare "$opts --format=text: a tree of merges gives the single run's report"

	# Partials over several inputs each, given out of name order: the
	# rows sort by the input their interval came from.
	rpt --partial $opts -o "$tmp/a.part" "$tmp/d5.bin" "$tmp/d2.bin" "$tmp/d7.bin" 2>/dev/null
	rpt --partial $opts -o "$tmp/b.part" "$tmp/d6.bin" "$tmp/d1.bin" "$tmp/d4.bin" "$tmp/d3.bin" 2>/dev/null
	single csv $opts
	merged csv "$opts" "$tmp/b.part" "$tmp/a.part"
	compare "$opts: partials of inputs out of name order merge to the run in name order"
done

# Refusals: a partial of rows and a report that groups, either way round;
# intervals and --by=interval; waits and cpu of rows.
rpt --partial --report=intervals -o "$tmp/rows.part" "$tmp/d1.bin" 2>/dev/null
rpt --partial --report=waits --by=interval -o "$tmp/wrows.part" "$tmp/d1.bin" 2>/dev/null
rpt --partial --report=waits --by=hour -o "$tmp/groups.part" "$tmp/d1.bin" 2>/dev/null
echo "previous report" > "$tmp/kept.csv"
for case in "rows.part --report=waits --by=hour" "rows.part --report=waits --by=interval" \
            "wrows.part --report=waits --by=hour" "wrows.part --report=intervals" \
            "wrows.part --report=cpu --by=interval" "groups.part --report=waits --by=interval" \
            "groups.part --report=intervals"; do
	set -- $case
	part=$1
	shift
	expect_rc 12 rpt --merge "$@" -o "$tmp/kept.csv" "$tmp/$part"
	has_line "$tmp/last.err" "$part: made with .*, this run has " "$part merged by $*: refused, naming the option"
done
same "$tmp/kept.csv" /dev/stdin "a refused merge leaves the output as it was" <<EOF2
previous report
EOF2
# A partial of rows among partials of groups is refused, whatever the order.
expect_rc 12 rpt --merge --report=waits --by=hour "$tmp/groups.part" "$tmp/wrows.part"
has_line "$tmp/last.err" "wrows.part: made with by=interval, this run has by=hour" \
	"rows among groups: refused"

# The partial keeps every row, and a cut one is refused.
size=$(wc -c < "$tmp/rows.part")
head -c $((size - 10)) "$tmp/rows.part" > "$tmp/cut.part"
expect_rc 8 rpt --merge --report=intervals "$tmp/cut.part"
rows=$(rpt --report=intervals "$tmp/d1.bin" 2>/dev/null | wc -l)
merged_rows=$(rpt --merge --report=intervals "$tmp/rows.part" 2>/dev/null | wc -l)
if [ "$rows" -gt 1 ] && [ "$rows" -eq "$merged_rows" ]; then
	pass "a partial of one input merges to its $rows lines"
else
	fail "a partial of one input: $merged_rows lines, not $rows"
fi
# Rows of nothing: a partial of an input without an interval of the source.
expect_rc 4 rpt --merge --report=intervals --source=NONE \
	"$(rpt --partial --report=intervals --source=NONE -o "$tmp/none.part" "$tmp/d1.bin" 2>/dev/null; echo "$tmp/none.part")"
has_line "$tmp/last.err" "no interval of source NONE" "a partial of no rows: the merge says what matched nothing"
finish
