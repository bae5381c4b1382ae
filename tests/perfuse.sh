#!/bin/sh
# perfuse.sh: the series reports of PERF_DATA_BLOCKs, run as a user runs
# them, few enough runs for valgrind (.ci/run): perf, win-cpu (CSV and
# text) and win-disk on pmimgen's blocks, whole, with a damaged block and
# cut short; the exit codes, the byte accounting of the summary, messages
# naming the file and offset, and the rows of the undamaged snapshots kept.
# The every-chunk-size and corruption catalogues are tests/chunking.sh and
# tests/corrupt.sh.
. "${top_srcdir:-.}/tests/lib.sh"

# accounted FILE: the summary in $tmp/last.err adds up to FILE's size
accounted() {
	size=$(wc -c < "$1")
	# shellcheck disable=SC2046 # four numbers
	set -- $(sed -n 's/^pmimrpt: 1 file, \([0-9]*\) bytes: \([0-9]*\) used, \([0-9]*\) skipped, \([0-9]*\) damaged.*/\1 \2 \3 \4/p' "$tmp/last.err")
	[ $# -eq 4 ] && [ "$1" -eq "$size" ] && [ $(($2 + $3 + $4)) -eq "$size" ]
}

gen --framing=perf --sources=WINA,WINB --intervals=3 --interval=60 --seed=7 \
	-o "$tmp/g.perf" || fail "pmimgen --framing=perf"
f=$tmp/g.perf
expect_rc 0 rpt --report=perf --by=interval "$f"
cp "$tmp/last.out" "$tmp/clean.csv"
accounted "$f" && pass "perf: every byte used" || fail "perf: accounting"
rows=$(($(wc -l < "$tmp/clean.csv") - 1))
[ "$rows" -gt 100 ] && pass "perf: $rows rows" || fail "perf: $rows rows"
head -n 1 "$tmp/clean.csv" | grep -q '^source,period_start,period_end,object,instance,counter,type,samples,value,min,max$' &&
	pass "perf: the header" || fail "perf: the header"
expect_rc 0 rpt --report=win-cpu "$f"
grep -q '^WINA,.*,_Total,' "$tmp/last.out" && pass "win-cpu: WINA _Total" || fail "win-cpu: WINA _Total"
expect_rc 0 rpt --report=win-cpu --format=text "--run-time=2026-01-01 00:00:00" "$f"
grep -q '^pmimrpt win-cpu: Windows CPU' "$tmp/last.out" && grep -q '^Run: *2026-01-01 00:00:00$' "$tmp/last.out" &&
	grep -q '^WINB .* _Total ' "$tmp/last.out" && pass "win-cpu text: title block and rows" ||
	fail "win-cpu text: title block and rows"
# pmimgen writes no PhysicalDisk object: the heading alone
# without the title table, the generator's disk counters (indexes past the
# standard ones) are not those win-disk names: nothing selected, exit 4
expect_rc 4 rpt --report=win-disk "$f"
[ "$(wc -l < "$tmp/last.out")" -eq 1 ] && pass "win-disk: no disks, the heading" ||
	fail "win-disk: no disks, the heading"
has_line "$tmp/last.err" "nothing selected: no counter of report 'win-disk' in object 'PhysicalDisk'" \
	"win-disk: says why nothing was selected"

# NumObjectTypes of the third block (WINA's second snapshot) set to x'FF':
# the block is skipped with a message naming the file and its offset; rows
# whose period neither starts nor ends at that snapshot stay as they were
off=$(od -An -tu4 -j 20 -N 4 "$f" | tr -d ' ')
off=$((off * 2))
cp "$f" "$tmp/d.perf"
printf '\377' | dd of="$tmp/d.perf" bs=1 seek=$((off + 28)) conv=notrunc 2> /dev/null
when=$(od -An -tu2 -j $((off + 36)) -N 16 "$f" |
	awk '{ printf "%04d-%02d-%02d %02d:%02d:%02d.%03d", $1, $2, $4, $5, $6, $7, $8 }')
expect_rc 4 rpt --report=perf --by=interval "$tmp/d.perf"
accounted "$tmp/d.perf" && pass "damaged block: accounted" || fail "damaged block: accounting"
grep -q "^pmimrpt: $tmp/d.perf: offset [0-9]* .*the block at offset $off," "$tmp/last.err" &&
	pass "damaged block: named with the file and offset" || fail "damaged block: message"
grep -v ",$when," "$tmp/clean.csv" > "$tmp/kept.csv"
missing=$(grep -v -x -F -f "$tmp/last.out" "$tmp/kept.csv" | wc -l)
[ "$missing" -eq 0 ] && [ "$(wc -l < "$tmp/kept.csv")" -gt 50 ] &&
	pass "damaged block: the other snapshots' rows kept ($(wc -l < "$tmp/kept.csv"))" ||
	fail "damaged block: $missing rows of other snapshots lost or changed"

# cut inside the second block: exit 4, accounted, the first block's rows
head -c $((off / 2 + 100)) "$f" > "$tmp/cut.perf"
expect_rc 4 rpt --report=perf "$tmp/cut.perf"
accounted "$tmp/cut.perf" && pass "cut short: accounted" || fail "cut short: accounting"
grep -q "^pmimrpt: $tmp/cut.perf: offset $((off / 2)) " "$tmp/last.err" &&
	pass "cut short: named at the cut block" || fail "cut short: message"
grep -q '^WINA,' "$tmp/last.out" && pass "cut short: the first snapshot's rows" ||
	fail "cut short: the first snapshot's rows"

# PMIM records to a series report: refused, nothing written
expect_rc 12 rpt --report=perf "$top_srcdir/data/sample-pm.dat"
[ ! -s "$tmp/last.out" ] && pass "PMIM input: no output" || fail "PMIM input: output"
finish
