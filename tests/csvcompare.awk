# csvcompare.awk: compare an actual CSV report with an expected one, column
# by column by name, row by row. Numbers match when they differ by no more
# than half a unit of the actual field's last printed decimal plus 1e-9
# relative (the report rounds; the expected figures are exact). Text must be
# identical. Fields of plain CSV only (no quoted commas), which is what the
# reports write for these columns.
#
# usage: awk -F, -f csvcompare.awk expected.csv actual.csv
function isnum(s) { return s ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ }
function decimals(s,   i) { i = index(s, "."); return i ? length(s) - i : 0 }
function abs(x) { return x < 0 ? -x : x }
FNR == 1 {
	if (NR == 1) { for (i = 1; i <= NF; i++) ecol[$i] = i; ne = NF; for (i = 1; i <= NF; i++) ename[i] = $i }
	else { for (i = 1; i <= NF; i++) acol[$i] = i }
	next
}
NR == FNR { erows++; for (i = 1; i <= NF; i++) want[erows, i] = $i; next }
{
	arows++
	for (i = 1; i <= ne; i++) {
		name = ename[i]
		if (!(name in acol)) { if (!missing[name]++) { print "missing column " name; bad++ } continue }
		e = want[arows, i]; a = $(acol[name])
		if (e == a) continue
		if (isnum(e) && isnum(a)) {
			tol = 0.5 * 10 ^ -decimals(a) + 1e-9 * abs(e) + 1e-12
			if (abs(e - a) <= tol) continue
		}
		if (bad++ < 20) printf "row %d column %s: expected '%s', got '%s'\n", arows, name, e, a
	}
}
END {
	if (arows != erows) { printf "expected %d rows, got %d\n", erows, arows; bad++ }
	if (erows == 0) { print "no expected rows: nothing compared"; bad++ }
	exit bad ? 1 : 0
}
