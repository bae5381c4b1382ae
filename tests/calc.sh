#!/bin/sh
# calc.sh: the CSV loads into LibreOffice Calc with numbers typed as
# numbers and text as text: the waits report is converted to a workbook by
# a headless Calc, and each cell's type is read back from the sheet's XML.
# Skipped where LibreOffice is absent.
. "${top_srcdir:-.}/tests/lib.sh"
command -v soffice > /dev/null || { echo "SKIP: no soffice (LibreOffice Calc)"; exit 77; }
command -v unzip > /dev/null || { echo "SKIP: no unzip"; exit 77; }

rpt -q --report=waits "$top_srcdir/data/sample-smf-rdw.dat" > "$tmp/waits.csv"
# 44,34,76,1: comma-separated, double quotes, UTF-8, from line 1
HOME=$tmp timeout 300 soffice --headless --convert-to xlsx \
	--infilter="CSV:44,34,76,1" --outdir "$tmp" "$tmp/waits.csv" > /dev/null 2>&1
if [ ! -s "$tmp/waits.xlsx" ]; then
	fail "soffice converted the CSV"
	finish
fi
unzip -p "$tmp/waits.xlsx" xl/worksheets/sheet1.xml | tr '<' '\n' > "$tmp/sheet.xml"
# row 2: A-C text (shared strings, t="s"), D-I numbers (t="n")
for col in A B C; do
	grep -q "^c r=\"${col}2\"[^>]* t=\"s\"" "$tmp/sheet.xml" &&
		pass "column $col is text" || fail "column $col is text"
done
for col in D E F G H I; do
	grep -q "^c r=\"${col}2\"[^>]* t=\"n\"" "$tmp/sheet.xml" &&
		pass "column $col is a number" || fail "column $col is a number"
done
# and the value survives: total_wait_s of the first row as printed
want=$(sed -n 2p "$tmp/waits.csv" | cut -d, -f5)
got=$(grep -A1 '^c r="E2"' "$tmp/sheet.xml" | sed -n 's/^v>//p')
awk -v a="$want" -v b="$got" 'BEGIN { exit !(a == b + 0 && b != "") }' &&
	pass "E2 holds $want ($got)" || fail "E2 holds $want (got '$got')"
finish
