#!/bin/sh
# winperf.sh: PERF_DATA_BLOCKs written by Windows 10 and Wine
# (../shared/data/real-perf/, see its README), walked and listed; the raw
# values checked against values worked out by hand from the bytes below,
# and the series reports' cooked values (perf, win-cpu) against them.
# Skipped where ../shared/ is absent, as on a user's fresh clone.
#
# sample_system_perf_data_block.bin (xxd offsets, all little-endian):
#   0x14 TotalByteLength d8 03 00 00 = 984, 0x18 HeaderLength 68 00 00 00 =
#   104 (the name GETAWAY inside the header, at 0x58 = 88, 16 bytes).
#   0x24 SystemTime e4 07|03 00|03 00|12 00|12 00|36 00|03 00|dc 03 =
#   2020-03-(wday 3)-18 18:54:03.988.
#   Object at 104: TotalByteLength 0x370 = 880, DefinitionLength 0x310 =
#   784, HeaderLength 0x40 = 64, title 2, NumCounters 0x12 = 18,
#   NumInstances (0x90) ff ff ff ff = -1, PerfTime (0x98 = 104 + 48)
#   0x01d5fd56983467e8 = 132290312439883752, PerfFreq (0xa0) 0x989680 =
#   10000000. Its counter block
#   is at 104 + 784 = 888 = 0x378 (ByteLength 0x60 = 96).
#   Processes (248 = 0xf8): definition at 0x260, type 0x00010000
#     (RAWCOUNT), size 4, CounterOffset 0x44 = 68: 0x378 + 68 = 0x3bc,
#     c9 00 00 00 = 201.
#   Threads (250 = 0xfa): definition at 0x288, RAWCOUNT, offset 0x48 = 72:
#     0x3c0, 09 0a 00 00 = 0x0a09 = 2569.
#   System Up Time (674 = 0x2a2): definition at 0x210, type 0x30240500
#     (ELAPSED_TIME), size 8, offset 0x38 = 56: 0x3b0, 40 6b 00 7d 8f fc d5
#     01 = 0x01d5fc8f7d006b40 = 132289457285000000; with the object's clock,
#     (132290312439883752 - 132289457285000000) / 10^7 = 85515.4883752 s.
#   % Registry Quota In Use (1350 = 0x546): definition at 0x328, type
#     0x20020400 (RAW_FRACTION), offset 0x58 = 88: 0x3d0, ec ff 3a 0a =
#     171638764; its base, the definition after it (0x350, 0x40030403
#     RAW_BASE, offset 0x5c = 92): 0x3d4, ff ff ff ff = 4294967295;
#     100 x 171638764 / 4294967295 = 3.996 %.
#
# sample_processor_perf_data_block.bin: object at 104, title 0xee = 238,
#   TotalByteLength 0x7f8 = 2040, DefinitionLength 0x298 = 664,
#   HeaderLength 64, 15 counters, NumInstances 9. The first definition
#   (0xa8) is % Processor Time, title 6, type 0x21510500, size 8, offset 8.
#   The first instance is at 104 + 664 = 0x300: ByteLength 32, NameOffset
#   24, NameLength 4 ("0" and its NUL in UTF-16LE); its counter block at
#   0x300 + 32 = 0x320, ByteLength 0x78 = 120, so the next instance is at
#   0x320 + 120 = 0x398, and so on by 0x98 = 152 bytes to instance 8,
#   "_Total" (NameLength 14, ByteLength 40) at 0x7c0. % Processor Time of
#   instance 0 at 0x320 + 8 = 0x328: 5c 8a 8e d6 72 00 00 00 =
#   0x72d68e8a5c = 493225937500; of _Total at 0x7e8 + 8 = 0x7f0:
#   d4 15 e4 0e 74 00 00 00 = 0x740ee415d4 = 498466035156.
#
# wine-global-empty.bin: 96 bytes, NumObjectTypes 0: valid, no objects.
# wine-counter-names.bin: UTF-16LE "1", "1847", "1846", "End Marker", "":
#   Wine's table names only 1 and 1846; 2 and 238 stay decimal.
. "${top_srcdir:-.}/tests/lib.sh"
real=${REAL_PERF_DIR:-$top_srcdir/../shared/data/real-perf}
if [ ! -f "$real/sample_system_perf_data_block.bin" ]; then
	echo "SKIP: real Windows performance data absent ($real)"
	exit 77
fi
DUMP="$WRAP $top_builddir/tests/perf_dump"
sys=$real/sample_system_perf_data_block.bin
cpu=$real/sample_processor_perf_data_block.bin

$DUMP "$sys" > "$tmp/sys.txt" 2> "$tmp/sys.err" && pass "System block walked" ||
	fail "System block walked: $(cat "$tmp/sys.err")"
# SYSTEM STAMP OBJECT INSTANCE COUNTER TYPE VALUE [BASE]; the stamp is
# 2020-03-18 18:54:03.988 in 1/10000 s since 1970: 18339 days
for want in "GETAWAY 15845576439880 2 - 248 0x00010000 201" \
	"GETAWAY 15845576439880 2 - 250 0x00010000 2569" \
	"GETAWAY 15845576439880 2 - 674 0x30240500 132289457285000000" \
	"GETAWAY 15845576439880 2 - 1350 0x20020400 171638764 4294967295" \
	"object 2 instances -1 perf_time 132290312439883752 perf_freq 10000000" \
	"bytes read 984 used 984 damaged 0"; do
	grep -qx "$want" "$tmp/sys.txt" && pass "System: $want" || fail "System: $want"
done
# 18 definitions, all with a value but the base: 17 counters
[ "$(grep -c '^GETAWAY' "$tmp/sys.txt")" -eq 17 ] && pass "System: 17 counters" ||
	fail "System: 17 counters"

$DUMP "$cpu" > "$tmp/cpu.txt" 2>&1
for want in "object 238 instances 9 perf_time 0 perf_freq 0" \
	"GETAWAY 15845638148420 238 0 6 0x21510500 493225937500" \
	"GETAWAY 15845638148420 238 _Total 6 0x21510500 498466035156" \
	"bytes read 2144 used 2144 damaged 0"; do
	grep -qx "$want" "$tmp/cpu.txt" && pass "Processor: $want" || fail "Processor: $want"
done
names=$(awk '$3 == 238 && $5 == 6 { printf "%s,", $4 }' "$tmp/cpu.txt")
[ "$names" = "0,1,2,3,4,5,6,7,_Total," ] && pass "Processor: 9 instances 0-7 and _Total" ||
	fail "Processor: instances $names"

# the inventory: systems, times, objects and counters, byte accounting
expect_rc 0 rpt --report=inventory "$sys" "$cpu" "$real/wine-global-empty.bin"
for want in "system,GETAWAY,,2,2020-03-18 18:54:03.988,2020-03-18 20:36:54.842" \
	"system,VM,,1," "object,2,,1,," "object,238,,1,," \
	'counter,2\\248,PERF_COUNTER_RAWCOUNT,1,,' 'counter,238\\6,PERF_100NSEC_TIMER_INV,1,,' \
	"bytes,used,,3224,," "bytes,damaged,,0,," "bytes,read,,3224,,"; do
	grep -q "^$want" "$tmp/last.out" && pass "inventory: $want" || fail "inventory: $want"
done
# Wine's empty block: valid, no objects
expect_rc 0 $DUMP "$real/wine-global-empty.bin"
grep -q "^snapshot VM objects 0 " "$tmp/last.out" && pass "Wine empty block: 0 objects" ||
	fail "Wine empty block: 0 objects"
# Wine's title table: 1 names 1847, 1846 End Marker; the others stay decimal
expect_rc 0 rpt --report=inventory --perf-names="$real/wine-counter-names.bin" "$sys"
grep -q '^object,2,,1,,' "$tmp/last.out" && pass "Wine table: 2 not named" || fail "Wine table: 2"
printf '2\nSystem\n248\nProcesses\n' > "$tmp/names.txt"
expect_rc 0 rpt --report=inventory --perf-names="$tmp/names.txt" "$sys"
grep -q '^counter,System\\Processes,PERF_COUNTER_RAWCOUNT' "$tmp/last.out" &&
	pass "text table names System and Processes" || fail "text table names"

# forced framing, standard input, and a report that does not read them yet
expect_rc 0 rpt --report=inventory --framing=perf - < "$sys"
grep -q "^bytes,used,,984," "$tmp/last.out" && pass "--framing=perf from a pipe" ||
	fail "--framing=perf from a pipe"
expect_rc 12 rpt "$sys"
grep -q "PERF_DATA_BLOCK" "$tmp/last.err" && pass "intervals report: says why" ||
	fail "intervals report: says why"
[ ! -s "$tmp/last.out" ] && pass "intervals report: no PMIM output" ||
	fail "intervals report: no PMIM output"

# ---- the series reports on the real blocks. One snapshot each: only the
# one-sample types (raw counts, raw fractions, elapsed time) have a value.
expect_rc 0 rpt --report=perf --by=interval -o "$tmp/perf.csv" "$sys" "$cpu"
for want in "GETAWAY,2020-03-18 18:54:03.988,2020-03-18 18:54:03.988,2,,248,PERF_COUNTER_RAWCOUNT,1,201.000000,201.000000,201.000000" \
	"GETAWAY,2020-03-18 18:54:03.988,2020-03-18 18:54:03.988,2,,250,PERF_COUNTER_RAWCOUNT,1,2569.000000,2569.000000,2569.000000"; do
	grep -qxF "$want" "$tmp/perf.csv" && pass "perf: $want" || fail "perf: $want"
done
# % Registry Quota In Use, RAW_FRACTION: 100 x 171638764 / 4294967295
quota=$(awk 'BEGIN { printf "%.6f", 100 * 171638764 / 4294967295 }')
got=$(awk -F, '$4 == 2 && $6 == 1350 && $7 == "PERF_RAW_FRACTION" && $8 == 1 { print $9 }' "$tmp/perf.csv")
[ "$got" = "$quota" ] && pass "perf: % Registry Quota In Use $got = 100 x 171638764 / 4294967295" ||
	fail "perf: % Registry Quota In Use $got, wanted $quota"

# System Up Time (ELAPSED_TIME) from the raw bytes, walked as COUNTERS.md
# (appendix) lays them out. le FILE OFFSET BYTES: the little-endian
# unsigned number at OFFSET, read byte by byte (the host's order does not
# matter); of 8 bytes its 32-bit halves "HI LO", as awk's doubles cannot
# hold 64 bits.
le() {
	od -A n -t u1 -j "$2" -N "$3" "$1" | awk -v n="$3" '
		{ for (i = 1; i <= NF; i++) b[k++] = $i }
		END {
			lo = 0; for (i = 3; i >= 0; i--) lo = lo * 256 + b[i]
			if (n == 4) { printf "%.0f\n", lo; exit }
			hi = 0; for (i = 7; i >= 4; i--) hi = hi * 256 + b[i]
			printf "%.0f %.0f\n", hi, lo
		}'
}
# PERF_DATA_BLOCK: HeaderLength @24 is the offset of the first object (104).
# PERF_OBJECT_TYPE: DefinitionLength @4, HeaderLength @8, NumCounters @32,
# PerfTime @48 and PerfFreq @56 (the object's clock: 0x98 and 0xa0 here).
# The counter definitions follow its header, each ByteLength @0 long, title
# @4, CounterOffset @36 into the counter block, which (NumInstances -1)
# starts at the object + DefinitionLength.
obj=$(le "$sys" 24 4)
odef=$(le "$sys" $((obj + 4)) 4)
d=$((obj + $(le "$sys" $((obj + 8)) 4)))
n=$(le "$sys" $((obj + 32)) 4)
off=
while [ "$n" -gt 0 ]; do
	[ "$(le "$sys" $((d + 4)) 4)" -eq 674 ] && off=$(le "$sys" $((d + 36)) 4)
	d=$((d + $(le "$sys" "$d" 4)))
	n=$((n - 1))
done
if [ -n "$off" ]; then
	# (PerfTime - N) / PerfFreq: the difference is well within 2^53; whole
	# seconds, then the remainder rounded half up at the 6th place
	uptime=$(echo "$(le "$sys" $((obj + 48)) 8) $(le "$sys" $((obj + odef + off)) 8) $(le "$sys" $((obj + 56)) 8)" |
		awk '{ d = ($1 - $3) * 4294967296 + ($2 - $4); f = $5 * 4294967296 + $6
		       q = int(d / f); r = d - q * f; u = int((2 * r * 1000000 + f) / (2 * f))
		       if (u == 1000000) { q++; u = 0 }
		       printf "%.0f.%06d\n", q, u }')
	pass "System Up Time's counter found at offset $((obj + odef + off)): $uptime s"
else
	uptime=none
	fail "System Up Time's counter definition not found"
fi
got=$(awk -F, '$4 == 2 && $6 == 674 && $7 == "PERF_ELAPSED_TIME" && $8 == 1 { print $9 }' "$tmp/perf.csv")
[ "$got" = "$uptime" ] && pass "perf: System Up Time $got from the bytes" ||
	fail "perf: System Up Time $got, the bytes say $uptime"
case $got in 85515.488*) pass "perf: System Up Time 85515.488 s" ;; *) fail "perf: System Up Time $got, not 85515.488 s" ;; esac
# the Processor object: its one raw count (1336, DPC Rate) for the 9
# instances in the block's order; its two-sample counters have no row
names=$(awk -F, '$4 == 238 && $6 == 1336 { printf "%s,", $5 }' "$tmp/perf.csv")
[ "$names" = "0,1,2,3,4,5,6,7,_Total," ] && pass "perf: Processor instances 0-7, _Total in order" ||
	fail "perf: Processor instances $names"
n=$(awk -F, '$4 == 238' "$tmp/perf.csv" | wc -l)
[ "$n" -eq 9 ] && pass "perf: 9 Processor rows, DPC Rate only" || fail "perf: $n Processor rows"
expect_rc 0 rpt --report=perf --format=text --run-time="2025-03-04 07:00" "$sys"
grep -q "^GETAWAY .* 248  *PERF_COUNTER_RAWCOUNT  *1  *201.000000 " "$tmp/last.out" &&
	grep -q "^Run: *2025-03-04 07:00:00$" "$tmp/last.out" &&
	pass "perf --format=text: Processes 201" || fail "perf --format=text: Processes 201"
# win-cpu: every column is a two-sample counter, and one snapshot makes no
# window: no row at all (in total and by interval), not rows without
# values; a run that selects nothing warns (exit 4)
for by in total interval; do
	expect_rc 4 rpt --report=win-cpu --by=$by "$cpu"
	grep -q '^pmimrpt: warning: nothing selected: ' "$tmp/last.err" &&
		pass "win-cpu by $by, one snapshot: nothing selected" || fail "win-cpu by $by, one snapshot: $(cat "$tmp/last.err")"
	[ "$(wc -l < "$tmp/last.out")" -eq 1 ] && head -1 "$tmp/last.out" | grep -q '^source,period_start,period_end,instance,processor_pct,' &&
		pass "win-cpu by $by, one snapshot: the heading, no rows" || fail "win-cpu by $by, one snapshot: $(wc -l < "$tmp/last.out") lines"
done
expect_rc 4 rpt --report=win-cpu --format=text --run-time="2025-03-04 07:00" "$cpu"
grep -q '^(no rows)$' "$tmp/last.out" && grep -q '^Period: *no values selected' "$tmp/last.out" &&
	pass "win-cpu --format=text, one snapshot: (no rows)" || fail "win-cpu --format=text, one snapshot"
# every chunk size reads alike; cut short at every offset, every byte is
# accounted for (the accounting check exits 8 otherwise)
cat "$sys" "$cpu" > "$tmp/two.bin"
expect_rc 0 $WRAP "$top_builddir/tests/feed_chunks" "$tmp/two.bin"
bad=
n=0
while [ $n -le 984 ]; do
	head -c $n "$sys" > "$tmp/cut.bin"
	rpt --report=inventory "$tmp/cut.bin" > "$tmp/cut.csv" 2> "$tmp/cut.err"
	rc=$?
	{ [ $rc -le 4 ] && grep -q "^bytes,read,,$n,\|^bytes,read,,$n$" "$tmp/cut.csv"; } ||
		{ [ $n -lt 88 ] && [ $rc -eq 8 ]; } || bad="$bad $n:$rc"
	n=$((n + 41))
done
[ -z "$bad" ] && pass "cut short at offsets 0, 41, ... 984: accounted" ||
	fail "cut short:$bad"

# a byte set to x'FF' at every third offset: the run ends with 0 (bytes no
# rule reads: reserved, names, values) or 4 (damage seen), never 8 (which
# a byte not accounted for would give), and the bytes add up
bad=
n=0
while [ $n -lt 984 ]; do
	{ head -c $n "$sys"; printf '\377'; tail -c +$((n + 2)) "$sys"; } > "$tmp/flip.bin"
	rpt --report=inventory --framing=perf "$tmp/flip.bin" > "$tmp/flip.csv" 2> /dev/null
	rc=$?
	{ [ $rc -le 4 ] && grep -q "^bytes,read,,984," "$tmp/flip.csv"; } || bad="$bad $n:$rc"
	n=$((n + 3))
done
[ -z "$bad" ] && pass "x'FF' at every third offset: exit 0 or 4, accounted" ||
	fail "x'FF' at:$bad"
finish
