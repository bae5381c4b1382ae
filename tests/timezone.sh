#!/bin/sh
# timezone.sh: PMIM times are the LPAR's local time. With --timezone, the
# hour a fall-back transition repeats is told apart by its place in the
# stream, periods are local hours and days, and times carry their UTC
# offset. pmimgen --timezone writes the times as the local clock shows
# them, and its truth gives them with their offset: the expectation.
. "${top_srcdir:-.}/tests/lib.sh"
for zone in Europe/Berlin America/New_York; do
	[ -f "${TZDIR:-/usr/share/zoneinfo}/$zone" ] || { echo "# no zone data for $zone (tzdata)"; exit 77; }
done

# starts_ends CSV: source, start and end of each row
starts_ends() { cut -d, -f1-3 "$1"; }

# across NAME ZONE START: a day across the zone's autumn transition, read
# with --timezone, has the truth's intervals, times and all
across() {
	name=$1 zone=$2
	gen --sources=SYSA,SYSB --timezone="$zone" --start="$3" --startup-delay=0 --intervals=200 \
		--seed=7 -o "$tmp/$name.bin" --truth="$tmp/$name.truth"
	expect_rc 0 rpt --timezone="$zone" --report=intervals "$tmp/$name.bin"
	starts_ends "$tmp/$name.truth" | sort > "$tmp/$name.want"
	starts_ends "$tmp/last.out" | sort > "$tmp/$name.got"
	same "$tmp/$name.want" "$tmp/$name.got" "$name: every interval, at the truth's times"
	# read twice: each interval once, the second reading left out
	rpt --timezone="$zone" --report=cpu "$tmp/$name.bin" "$tmp/$name.bin" > /dev/null 2> "$tmp/twice.err" || true
	want=$(($(wc -l < "$tmp/$name.truth") - 1))
	grep -q "; $want intervals ($want complete, 0 incomplete); left out: $want duplicate\$" "$tmp/twice.err" &&
		pass "$name twice: $want intervals, $want duplicates" ||
		{ fail "$name twice: $want intervals, $want duplicates"; tail -1 "$tmp/twice.err"; }
}

# Europe/Berlin: 2026-10-25 03:00 CEST is 02:00 CET
across berlin Europe/Berlin "2026-10-24 12:00"
# the repeated hour is two rows by hour, each of the truth's 4 intervals a
# source; the day of the change has 25 hours
rpt -q --timezone=Europe/Berlin --report=summary --by=hour "$tmp/berlin.bin" > "$tmp/hour.csv"
for off in +02:00 +01:00; do
	want=$(grep -c "^SYSA,2026-10-25 02:[0-9:]*$off," "$tmp/berlin.truth")
	got=$(grep "^SYSA,2026-10-25 02:00:00$off," "$tmp/hour.csv" | cut -d, -f6)
	[ "$want" -eq 4 ] && [ "$got" = "$want" ] && pass "by hour: 02:00$off has $want intervals" ||
		fail "by hour: 02:00$off has '$got' intervals, the truth $want"
done
grep -q "^SYSA,2026-10-25 02:00:00+02:00,2026-10-25 02:00:00+01:00," "$tmp/hour.csv" &&
	pass "by hour: the first 02:00 ends at the second" || fail "by hour: the first 02:00 ends at the second"
rpt -q --timezone=Europe/Berlin --report=summary --by=day "$tmp/berlin.bin" > "$tmp/day.csv"
want=$(grep -c "^SYSA,2026-10-25 " "$tmp/berlin.truth")
got=$(grep "^SYSA,2026-10-25 00:00:00+02:00,2026-10-26 00:00:00+01:00," "$tmp/day.csv" | cut -d, -f6)
[ "$want" -eq 100 ] && [ "$got" = "$want" ] && pass "by day: 2026-10-25 has 25 hours, $want intervals" ||
	fail "by day: 2026-10-25 has '$got' intervals, the truth $want"
# --from and --to are local times
rpt -q --timezone=Europe/Berlin --report=summary --from="2026-10-25 00:00" --to="2026-10-26 00:00" \
	"$tmp/berlin.bin" > "$tmp/fromto.csv"
got=$(grep "^SYSA," "$tmp/fromto.csv" | cut -d, -f4)
[ "$got" = 100 ] && pass "--from, --to: local times" || fail "--from, --to: '$got' intervals, wanted 100"

# the text format's period carries the offsets too
rpt -q --timezone=Europe/Berlin --format=text --report=cpu "$tmp/berlin.bin" > "$tmp/text.txt"
first=$(sed -n 2p "$tmp/berlin.truth" | cut -d, -f2)
grep -q "^Period: $first to " "$tmp/text.txt" && pass "text: the period starts at the truth's first time" ||
	{ fail "text: the period starts at the truth's first time ($first)"; grep Period "$tmp/text.txt"; }

# without --timezone: the repeated hour reads as duplicates, and the
# message says a time zone may be the cause
rpt --report=cpu "$tmp/berlin.bin" > /dev/null 2> "$tmp/nozone.err" || true
grep "duplicate interval" "$tmp/nozone.err" | grep -q -- "see --timezone" &&
	pass "no --timezone: the repeated hour suggests --timezone" ||
	{ fail "no --timezone: the repeated hour suggests --timezone"; cat "$tmp/nozone.err"; }

# America/New_York: 2026-11-01 02:00 EDT is 01:00 EST
across new-york America/New_York "2026-10-31 12:00"

expect_rc 12 rpt --timezone=Mars/Olympus_Mons "$top_srcdir/data/sample-smf-rdw.dat"
grep -q "no time zone 'Mars/Olympus_Mons'" "$tmp/last.err" && pass "an unknown zone is named" ||
	fail "an unknown zone is named"
expect_rc 12 rpt --timezone=../../etc/passwd "$top_srcdir/data/sample-smf-rdw.dat"
finish
