#!/bin/sh
# duplicates.sh: an interval is counted once, whatever the inputs. The same
# dump read twice, or dumps that share time, give the report of the time
# they cover once; the repeats are left out, counted on the summary line
# and said once per run of them. The expected counts come from the
# generator's truth files, not from pmimrpt.
. "${top_srcdir:-.}/tests/lib.sh"
sample=$top_srcdir/data/sample-smf-rdw.dat

# intervals_of TRUTH: the intervals the generator wrote
intervals_of() { echo $(($(wc -l < "$1") - 1)); }

# summary_intervals ERR: the summary line's count of intervals reported
summary_intervals() { sed -n 's/^pmimrpt: .* PM records; \([0-9]*\) intervals .*/\1/p' "$1"; }

# left_out ERR KIND: the summary line's count of intervals left out as KIND
left_out() { sed -n "s/^pmimrpt: .*; left out: .*\\b\\([0-9][0-9]*\\) $2.*/\\1/p" "$1"; }

# twice NAME FILE TRUTH OPTION...: FILE read twice reports what it reports
# once; every interval of the second reading is a duplicate
twice() {
	name=$1 file=$2 truth=$3
	shift 3
	want=$(intervals_of "$truth")
	rpt "$@" --report=cpu "$file" > "$tmp/once.csv" 2> /dev/null
	rc=0
	rpt "$@" --report=cpu "$file" "$file" > "$tmp/twice.csv" 2> "$tmp/twice.err" || rc=$?
	[ $rc -eq 4 ] && pass "$name: exit 4" || fail "$name: exit $rc, wanted 4"
	got=$(summary_intervals "$tmp/twice.err")
	[ "$got" = "$want" ] && pass "$name: $want intervals counted" ||
		fail "$name: '$got' intervals counted, wanted $want"
	dup=$(left_out "$tmp/twice.err" duplicate)
	[ "$dup" = "$want" ] && pass "$name: $want left out as duplicates" ||
		fail "$name: '$dup' left out as duplicates, wanted $want"
	same "$tmp/once.csv" "$tmp/twice.csv" "$name: the report of one reading"
	grep -q "duplicate part" "$tmp/twice.err" &&
		fail "$name: whole repeats said as duplicate parts" ||
		pass "$name: no duplicate parts"
}

gen --framing=rdw --sources=SYSA,SYSB --intervals=1000 --seed=9 -o "$tmp/d.bin" \
	--truth="$tmp/d.truth"
twice "d.bin twice" "$tmp/d.bin" "$tmp/d.truth"
# one message per run of repeats, per source: SYSA and SYSB each repeat once
n=$(grep -c "duplicate interval" "$tmp/twice.err")
[ "$n" -eq 2 ] && pass "d.bin twice: one message per source's run" ||
	fail "d.bin twice: $n messages, wanted 2"
grep -q "d.bin: offset [0-9]* (0x[0-9a-f]*): warning: .*1000 intervals of SYSA from .* first copy among the intervals of .*d.bin from offset [0-9]*" \
	"$tmp/twice.err" && pass "d.bin twice: the message names both places" ||
	{ fail "d.bin twice: the message names both places"; grep "duplicate interval" "$tmp/twice.err"; }
twice "d.bin twice, --max-pending=100000" "$tmp/d.bin" "$tmp/d.truth" --max-pending=100000
twice "sample twice" "$sample" "$top_srcdir/data/sample-smf-rdw.truth.csv"
twice "sample twice, --max-pending=100000" "$sample" \
	"$top_srcdir/data/sample-smf-rdw.truth.csv" --max-pending=100000

# Yesterday's dump and today's share an hour: 96 intervals of 15 minutes
# from 06:00 (the first one short) to 06:00 the next day, and 8 from 05:00
# of that day, the first 4 of them in the shared hour. Read twice, in
# turn: 96 + 8 - 4 intervals; the shared hour is one run of repeats, and
# the second reading of both dumps another (one source, repeats in a row).
gen --sources=SYSA --start="2025-03-03 06:00" --seed=2 -o "$tmp/day1.bin" --truth="$tmp/day1.truth"
gen --sources=SYSA --start="2025-03-04 05:00" --startup-delay=0 --intervals=8 --seed=3 \
	-o "$tmp/day2.bin" --truth="$tmp/day2.truth"
rpt --report=cpu "$tmp/day1.bin" "$tmp/day2.bin" "$tmp/day1.bin" "$tmp/day2.bin" \
	> /dev/null 2> "$tmp/days.err" || true
want=$(($(intervals_of "$tmp/day1.truth") + $(intervals_of "$tmp/day2.truth") - 4))
got=$(summary_intervals "$tmp/days.err")
[ "$got" = "$want" ] && pass "shared hour: $want intervals" || fail "shared hour: '$got' intervals, wanted $want"
n=$(grep -c "duplicate interval" "$tmp/days.err")
[ "$n" -eq 2 ] && pass "shared hour: a message per run" || fail "shared hour: $n messages, wanted 2"
grep -q "warning: .* 4 intervals of SYSA from 2025-03-04 05:00:00 to 2025-03-04 06:00:00" "$tmp/days.err" &&
	pass "shared hour: the run's count and time" || fail "shared hour: the run's count and time"

# A dump of 20-minute intervals, from 06:05, over the first day's
# 15-minute ones: each overlaps covered time off its boundaries (06:05,
# 06:20, 06:40, 07:20 are none), none is a duplicate.
gen --sources=SYSA --start="2025-03-03 06:05" --startup-delay=0 --intervals=4 --interval=1200 --seed=4 \
	-o "$tmp/shift.bin" --truth="$tmp/shift.truth"
rpt --report=cpu "$tmp/day1.bin" "$tmp/shift.bin" > /dev/null 2> "$tmp/shift.err" || true
want=$(intervals_of "$tmp/shift.truth")
got=$(left_out "$tmp/shift.err" overlapping)
[ "$got" = "$want" ] && pass "shifted dump: $want overlapping" ||
	fail "shifted dump: '$got' overlapping, wanted $want"
grep -q "duplicate interval" "$tmp/shift.err" && fail "shifted dump: said as duplicates" ||
	pass "shifted dump: no duplicates"

# One repeated hour in late October, without --timezone: the message says
# a time zone may be the cause.
gen --sources=SYSA --start="2026-10-25 02:00" --startup-delay=0 --intervals=4 --interval=900 \
	--seed=5 -o "$tmp/oct.bin"
rpt --report=cpu "$tmp/oct.bin" "$tmp/oct.bin" > /dev/null 2> "$tmp/oct.err" || true
grep "duplicate interval" "$tmp/oct.err" | grep -q -- "--timezone" &&
	pass "an hour repeated in October suggests --timezone" ||
	{ fail "an hour repeated in October suggests --timezone"; cat "$tmp/oct.err"; }
# not from a whole hour: no hint
gen --sources=SYSA --start="2026-10-25 02:15" --startup-delay=0 --intervals=2 --interval=900 \
	--seed=5 -o "$tmp/oct2.bin"
rpt --report=cpu "$tmp/oct2.bin" "$tmp/oct2.bin" > /dev/null 2> "$tmp/oct2.err" || true
grep "duplicate interval" "$tmp/oct2.err" | grep -q -- "--timezone" &&
	fail "a repeat from 02:15 in October suggests --timezone" ||
	pass "a repeat from 02:15 in October says nothing of time zones"
grep "duplicate interval" "$tmp/days.err" | grep -q -- "--timezone" &&
	fail "an hour repeated in March suggests --timezone" ||
	pass "an hour repeated in March says nothing of time zones"

# the limit on the ranges of covered time is an option with a message
rpt --help | grep -q -- "--max-coverage=" && pass "--help documents --max-coverage" ||
	fail "--help lacks --max-coverage"
# two sources need two ranges
expect_rc 4 rpt -q --max-coverage=1 "$sample"
grep -q "see --max-coverage" "$tmp/last.err" && pass "--max-coverage: message names the option" ||
	fail "--max-coverage: message"
expect_rc 0 rpt -q --max-coverage=2 "$sample"
finish
