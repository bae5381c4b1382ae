#!/bin/sh
# realdata.sh: SMF dumps written by a real mainframe (IBM MQ statistics,
# not IDMS: they test the framing layer on real bytes). The expected
# inventory is the one the data's README gives: type 2 x1, 115 x286, 116
# x421, 3 x1, 63 spanned records, no damage. Skipped where ../shared/ is
# absent, as on a user's fresh clone.
. "${top_srcdir:-.}/tests/lib.sh"
real=${REAL_SMF_DIR:-$top_srcdir/../shared/data/real-smf}
if [ ! -f "$real/SMF_MQ1000.dat" ]; then
	echo "SKIP: real SMF data absent ($real)"
	exit 77
fi

rpt --report=inventory "$real/SMF_MQ1000.dat" > "$tmp/inv.csv" 2> "$tmp/inv.err"
rc=$?
[ $rc -eq 0 ] && pass "SMF_MQ1000: exit 0" || fail "SMF_MQ1000: exit $rc"
for want in "smf,2,1," "smf,115,286," "smf,116,421," "smf,3,1," \
	"framing,spanned_records,63," "framing,orphan_segments,0," \
	"framing,truncated_records,0," "framing,damaged_records,0," \
	"bytes,damaged,,0" "bytes,read,,1769464"; do
	grep -q "^$want" "$tmp/inv.csv" && pass "SMF_MQ1000 inventory: $want" ||
		fail "SMF_MQ1000 inventory: $want"
done
[ "$(grep -c '^smf,' "$tmp/inv.csv")" -eq 4 ] && pass "SMF_MQ1000: four SMF types" ||
	fail "SMF_MQ1000: four SMF types"
grep -q "1769464 bytes: 0 used, 1769464 skipped, 0 damaged; 709 SMF records (63 spanned)" "$tmp/inv.err" &&
	pass "SMF_MQ1000 summary line" || fail "SMF_MQ1000 summary line"

# the same through a pipe, and forced to the framing it has
cat "$real/SMF_MQ1000.dat" | rpt --report=inventory - > "$tmp/pipe.csv" 2>/dev/null
same "$tmp/inv.csv" "$tmp/pipe.csv" "SMF_MQ1000 through a pipe"
rpt --report=inventory --framing=rdw "$real/SMF_MQ1000.dat" > "$tmp/rdw.csv" 2>/dev/null
same "$tmp/inv.csv" "$tmp/rdw.csv" "SMF_MQ1000 with --framing=rdw"

# the two small files are extracts: a dump header and three records, no
# trailer, which is what a dump cut at a record boundary looks like
for f in TEST115 TEST116; do
	rpt --report=inventory "$real/$f.dat" > "$tmp/$f.csv" 2> "$tmp/$f.err"
	rc=$?
	[ $rc -eq 4 ] && pass "$f: exit 4" || fail "$f: exit $rc"
	size=$(wc -c < "$real/$f.dat")
	grep -q "$f.dat: offset $size (.*): warning: no dump trailer: the dump may be truncated: the dump from offset 0 " "$tmp/$f.err" &&
		pass "$f: no dump trailer, said at its end" || fail "$f: no dump trailer, said at its end"
	grep -q "^smf,2,1," "$tmp/$f.csv" && grep -q "^smf,${f#TEST},3," "$tmp/$f.csv" &&
		pass "$f inventory" || fail "$f inventory"
done
# records of the type asked for that hold no PM records are damaged, each
# named with its offset, and the run ends with warnings
expect_rc 4 rpt -q --smf-type=115 -o /dev/null "$real/TEST115.dat"
rpt --smf-type=115 "$real/TEST115.dat" > /dev/null 2> "$tmp/115.err"
grep -q "TEST115.dat: offset 18 (0x12): warning: no offset found where a chain of PM records fills the SMF record" "$tmp/115.err" &&
	pass "type 115 selected: damage named by offset" || fail "type 115 selected: damage named by offset"
grep -q "7046 bytes: 0 used, 18 skipped, 7028 damaged" "$tmp/115.err" &&
	pass "type 115 selected: accounting" || fail "type 115 selected: accounting"
finish
