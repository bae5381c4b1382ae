#!/bin/sh
# winperf.sh: PERF_DATA_BLOCKs written by Windows 10 and Wine
# (../shared/data/real-perf/, see its README), walked and listed; the raw
# values checked against values worked out by hand from the bytes below.
# Skipped where ../shared/ is absent, as on a user's fresh clone.
#
# sample_system_perf_data_block.bin (xxd offsets, all little-endian):
#   0x14 TotalByteLength d8 03 00 00 = 984, 0x18 HeaderLength 68 00 00 00 =
#   104 (the name GETAWAY inside the header, at 0x58 = 88, 16 bytes).
#   0x24 SystemTime e4 07|03 00|03 00|12 00|12 00|36 00|03 00|dc 03 =
#   2020-03-(wday 3)-18 18:54:03.988.
#   Object at 104: TotalByteLength 0x370 = 880, DefinitionLength 0x310 =
#   784, HeaderLength 0x40 = 64, title 2, NumCounters 0x12 = 18,
#   NumInstances ff ff ff ff = -1, PerfTime (0x90) 0x01d5fd56983467e8 =
#   132290312439883752, PerfFreq 0x989680 = 10000000. Its counter block
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
