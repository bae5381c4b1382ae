#!/bin/sh
# copybook.sh: layouts given at run time (--copybook). A #PMINTDS listing
# with one more wait bucket at the end of part 2 (the part growing by its
# 12 bytes) is read by both programs without recompiling: pmimgen writes
# records as it lays them out, and pmimrpt shows the new bucket in
# --describe, in the intervals report and as a row of the waits report,
# with the figures the generator's truth file says it wrote. A listing past
# the old compiled-in limits (192 fields, 48 buckets) works end to end, and
# one past the documented maximum (4096 fields) is refused, naming its line.
# A listing in error is named with its line.
. "${top_srcdir:-.}/tests/lib.sh"
listing=$tmp/cb/pmintds.lst
mkdir "$tmp/cb"

# The new bucket INTXCA after INTXLI, the last of part 2; INT2DSLN,
# INT2DTLN and INTMXLEN as the assembler would print them.
awk '
	/^0000F0 INTXLI# / {
		print; getline; print
		print "0000F4 INTXCA DS 0F DSG XESCACHE WAIT"
		print "0000F4 INTXCAT DS F ....SUM OF WAIT TIMES (10**-4 SEC)"
		print "0000F8 INTXCAH DS F ....HIGHEST WAIT TIME (10**-4 SEC)"
		print "0000FC INTXCA# DS F ....# WAITS"
		print "*"
		next
	}
	/^0000F4 DS 0F$/ { print "000100 DS 0F"; next }
	/^000F4 INT2DSLN / { sub(/^000F4/, "00100") }
	/^000D8 INT2DTLN / { sub(/^000D8/, "000E4") }
	/^000F8 INTMXLEN / { sub(/^000F8/, "00100") }
	{ print }
' "$top_srcdir/copybooks/pmintds.lst" > "$listing"
[ "$(grep -c INTXCA "$listing")" -eq 4 ] && pass "listing with a new bucket" ||
	fail "listing with a new bucket"

# ---- --describe ----
expect_rc 0 rpt --copybook="$listing" --describe
grep -q "^INTXCAT      2  X'F4'   4    F 10\*\*-4 s    SUM OF WAIT TIMES" "$tmp/last.out" &&
grep -q "^INTXCA#      2  X'FC'   4    F count       # WAITS" "$tmp/last.out" &&
grep -q "^INTXCA       2  DSG XESCACHE WAIT" "$tmp/last.out" &&
grep -q "parts: 1 = X'F0' 2 = X'100' 3 = X'C0'; largest rounded X'100'" "$tmp/last.out" &&
	pass "--describe shows the new bucket and part 2's new length" ||
	fail "--describe: new bucket"
cp "$tmp/last.out" "$tmp/describe-file.txt"
expect_rc 0 rpt --copybook="$tmp/cb" --describe
same "$tmp/describe-file.txt" "$tmp/last.out" "--copybook=FOLDER reads the folder's pmintds.lst"
expect_rc 0 rpt --describe
grep -q INTXCA "$tmp/last.out" && fail "built-in layout has no INTXCA" ||
	pass "without --copybook, the built-in layout"

# ---- the generator writes what the layout says; the reports agree ----
expect_rc 0 gen --copybook="$listing" --framing=pm --intervals=12 --sources=SYSA \
	--truth="$tmp/truth.csv" -o "$tmp/demo.pm"
want=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ n += $c["INTXCA#"]; t += $c["INTXCAT"]; if ($c["INTXCAH"] > h) h = $c["INTXCAH"] }
	END { printf ",INTXCA,DSG XESCACHE WAIT,%d,%.6f,", n, t / 10000 }' "$tmp/truth.csv")
peak=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ if ($c["INTXCAH"] > h) h = $c["INTXCAH"] } END { printf "%.3f", h / 10 }' "$tmp/truth.csv")
expect_rc 0 rpt --copybook="$listing" --framing=pm --report=waits "$tmp/demo.pm"
row=$(grep "^,INTXCA," "$tmp/last.out")
case $row in
"$want"*",$peak,"*) pass "waits: the INTXCA row has the truth's waits, total and peak" ;;
*) fail "waits: INTXCA row '$row', wanted '$want...,$peak,...'" ;;
esac
grep -q " 0 damaged; " "$tmp/last.err" && ! grep -q "warning" "$tmp/last.err" &&
	pass "waits: every part read as its layout, no warning" ||
	fail "waits: damage or warnings: $(cat "$tmp/last.err")"
expect_rc 0 rpt --copybook="$listing" --framing=pm --report=intervals "$tmp/demo.pm"
got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "INTXCA_waits") c = i; next }
	{ n += $c } END { print n + 0 }' "$tmp/last.out")
truth=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ n += $c["INTXCA#"] } END { print n + 0 }' "$tmp/truth.csv")
[ "$got" = "$truth" ] && [ "$got" -gt 0 ] &&
	pass "intervals: INTXCA_waits adds up to the truth's $truth" ||
	fail "intervals: INTXCA_waits $got, truth $truth"

# ---- past the old limits: 26 more buckets at the end of part 3 ----
# 263 fields and 60 buckets; part 3 and INTMXLEN grow to X'1F8'.
big=$tmp/big.lst
awk '
	/^0000C0 INTXEND / {
		for (b = 1; b <= 26; b++) {
			at = 192 + 12 * (b - 1)
			printf "%06X INTQ%02d DS 0F QUEUE %02d WAIT\n", at, b, b
			printf "%06X INTQ%02dT DS F ....SUM OF WAIT TIMES (10**-4 SEC)\n", at, b
			printf "%06X INTQ%02dH DS F ....HIGHEST WAIT TIME (10**-4 SEC)\n", at + 4, b
			printf "%06X INTQ%02d# DS F ....# WAITS\n", at + 8, b
		}
		print "0001F8 INTXEND DS 0D End of Extended statistics"
		next
	}
	/^000C0 INT3DSLN / { sub(/^000C0/, "001F8") }
	/^000A4 INT3DTLN / { sub(/^000A4/, "001DC") }
	/^000F8 INTMXLEN / { sub(/^000F8/, "001F8") }
	{ print }
' "$top_srcdir/copybooks/pmintds.lst" > "$big"
fields=$(awk '$1 ~ /^[0-9A-F]+$/ && length($1) == 6 && ($3 == "DS" || $3 == "DC") { n++ }
	END { print n }' "$big")
[ "$fields" -gt 192 ] && pass "a listing of $fields fields" || fail "big listing: $fields fields"
expect_rc 0 rpt --copybook="$big" --describe
grep -q "^INTQ26#      3  X'1F4'   4    F count       # WAITS" "$tmp/last.out" &&
grep -q "^INTQ26       3  QUEUE 26 WAIT" "$tmp/last.out" &&
grep -q "parts: 1 = X'F0' 2 = X'F4' 3 = X'1F8'; largest rounded X'1F8'" "$tmp/last.out" &&
	pass "--describe shows part 3's 26 new buckets" || fail "--describe: big listing"
expect_rc 0 gen --copybook="$big" --framing=pm --intervals=12 --sources=SYSA \
	--truth="$tmp/big-truth.csv" -o "$tmp/big.pm"
expect_rc 0 rpt --copybook="$big" --framing=pm --report=intervals "$tmp/big.pm"
got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "INTQ26_waits") c = i; next }
	{ n += $c } END { print n + 0 }' "$tmp/last.out")
truth=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ n += $c["INTQ26#"] } END { print n + 0 }' "$tmp/big-truth.csv")
[ "$got" = "$truth" ] && [ "$got" -gt 0 ] &&
	pass "intervals: INTQ26_waits adds up to the truth's $truth" ||
	fail "intervals: INTQ26_waits $got, truth $truth"
grep -q " 0 damaged; " "$tmp/last.err" && ! grep -q "warning" "$tmp/last.err" &&
	pass "intervals: every part read as the big layout, no warning" ||
	fail "intervals: damage or warnings: $(cat "$tmp/last.err")"

# ---- past the maximum: 4000 more fields in part 3 ----
awk '
	/^0000C0 INTXEND / {
		for (i = 0; i < 4000; i++)
			printf "%06X INTZ%04d DS F ....# WAITS\n", 192 + 4 * i, i
		next
	}
	{ print }
' "$top_srcdir/copybooks/pmintds.lst" > "$tmp/huge.lst"
line=$(awk '$1 ~ /^[0-9A-F]+$/ && length($1) == 6 && ($3 == "DS" || $3 == "DC") {
	if (++n == 4097) print NR }' "$tmp/huge.lst")
expect_rc 12 rpt --copybook="$tmp/huge.lst" --describe
grep -q "$tmp/huge.lst:$line: too many fields (at most 4096)" "$tmp/last.err" &&
	pass "past 4096 fields: refused, naming the listing and its line" ||
	fail "past the maximum: $(cat "$tmp/last.err")"

# ---- a listing in error names its file and line ----
sed 's/^0000FC INTXCA# DS F /0000FC INTXCA# DS Q9 /' "$listing" > "$tmp/bad.lst"
line=$(grep -n "INTXCA# DS Q9" "$tmp/bad.lst" | cut -d: -f1)
expect_rc 12 rpt --copybook="$tmp/bad.lst" --describe
grep -q "$tmp/bad.lst:$line: cannot read DS operand 'Q9'" "$tmp/last.err" &&
	pass "an error names the listing and its line" ||
	fail "error message: $(cat "$tmp/last.err")"
expect_rc 12 rpt --copybook="$tmp/none.lst" --describe
grep -q "$tmp/none.lst: No such file or directory" "$tmp/last.err" &&
	pass "a missing listing is named" || fail "missing listing: $(cat "$tmp/last.err")"
finish
