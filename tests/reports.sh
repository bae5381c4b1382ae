#!/bin/sh
# reports.sh: the report layer from the outside (the built-in reports
# against their golden files are tests/golden.sh's): their CSV under a
# locale with a decimal comma; the waits CSV read by SQLite; a user's
# definition with a column of each counter family, its
# figures worked out from the generator's truth; broken definitions and
# their messages; the intervals form against the truth; README's cpu table
# against --describe; pages, ASA lines and EBCDIC of the text format.
. "${top_srcdir:-.}/tests/lib.sh"
golden=$top_srcdir/tests/report-golden
input=$golden/input.dat
truth=$golden/input-truth.csv
when="2025-03-04 07:00"
run() { rpt --report-dir="$top_srcdir/reports" --run-time="$when" "$@"; }

# --- a locale with a decimal comma gives the same CSV -----------------------
loc=
if locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\{0,1\}8$'; then
	loc=de_DE.UTF-8
elif command -v localedef > /dev/null 2>&1 && mkdir -p "$tmp/locales" &&
     localedef -i de_DE -f UTF-8 "$tmp/locales/de_DE.UTF-8" > /dev/null 2>&1; then
	LOCPATH=$tmp/locales
	export LOCPATH
	loc=de_DE.UTF-8
fi
if [ -n "$loc" ] && [ "$(LC_ALL=$loc locale decimal_point 2>/dev/null)" = "," ]; then
	for name in intervals.csv waits.csv cpu.csv tasks.csv summary.csv; do
		(LC_ALL=$loc && export LC_ALL && golden_case "$golden/LIST" "$name" -q) \
			> "$tmp/de-$name" 2> /dev/null || true
		same "$golden/$name.out" "$tmp/de-$name" "LC_ALL=$loc: $name is the same"
	done
else
	echo "# skipped: no de_DE.UTF-8 locale with a decimal comma (install locales)"
fi
unset LOCPATH

# --- the waits CSV in SQLite ------------------------------------------------
if command -v sqlite3 > /dev/null 2>&1; then
	want=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == "SYSA" && $(c["INTDBIRT"]) != "" { s += $(c["INTDBIRT"]) }
		END { printf "%.6f", s / 10000 }' "$truth")
	got=$(sqlite3 -csv "$tmp/waits.db" ".import $golden/waits.csv.out waits" \
		"SELECT printf('%.6f', SUM(total_wait_s)) FROM waits WHERE source = 'SYSA' AND bucket = 'INTDBIR';")
	[ "$got" = "$want" ] && pass "sqlite3: SUM(total_wait_s) of SYSA INTDBIR is $want" ||
		fail "sqlite3: SUM(total_wait_s) of SYSA INTDBIR is '$got', want $want"
	got=$(sqlite3 "$tmp/waits.db" "SELECT COUNT(*) FROM waits WHERE avg_wait_ms = '' OR typeof(avg_wait_ms + 0) = 'real';")
	rows=$(($(wc -l < "$golden/waits.csv.out") - 1))
	[ "$got" = "$rows" ] && pass "sqlite3: $rows rows read, averages numbers or empty" ||
		fail "sqlite3: $got of $rows rows read"
else
	echo "# skipped: sqlite3 is not installed"
fi

# --- a user's definition: one column of each counter family -------------------
mkdir "$tmp/defs"
cat > "$tmp/defs/family.rpt" <<'EOF'
# every formula of the engine, on PMIM fields
title       Counter families
description One column of each counter family
column first          text=first_start
column last           text=last_end
column raw            type=PERF_COUNTER_RAWCOUNT N=INT#TSTR decimals=3
column delta_avg      type=PERF_COUNTER_DELTA N=INT#TEND decimals=3
column delta_total    type=PERF_COUNTER_LARGE_DELTA aggregate=total N=INT#TEND
column rate           type=PERF_COUNTER_BULK_COUNT N=INTDBIR# D=@duration decimals=6
column timer          type=PERF_100NSEC_TIMER N=INTTIMSY D=@duration decimals=6
column timer_inv      type=PERF_COUNTER_TIMER_INV N=INTTIMUS D=@duration decimals=6
column multi          type=PERF_COUNTER_MULTI_TIMER N=INTSYTI D=@duration B=@interval decimals=6
column bulk           type=PERF_AVERAGE_BULK N=INT#TSTR B=@interval decimals=3
column avg_timer      type=PERF_AVERAGE_TIMER N=INTDBIRT B=INTDBIR# unit=us decimals=1
column fraction       type=PERF_SAMPLE_FRACTION N=INTDBIRT B=@wait_time decimals=6
column raw_fraction   type=PERF_LARGE_RAW_FRACTION N=INTZPTI B=INTSYTI decimals=6
column elapsed        type=PERF_ELAPSED_TIME N=@start D=@end decimals=4
column peak           type=MAX N=INTDBIRH unit=ms scale=1/1000 decimals=4
EOF
# The same figures from the truth, by the winperf formulas.
awk -F, '
function secs(s) { return ((substr(s, 9, 2) * 24 + substr(s, 12, 2)) * 60 + substr(s, 15, 2)) * 60 + substr(s, 18, 2) }
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
function v(n) { return $(c[n]) }
$1 == "SYSA" {
	d = v("duration_e4")
	# the truth prints whole seconds; the start is end - duration
	if (first == "" || v("start") < first) { first = v("start"); s0 = secs(v("end")) - d / 10000 }
	if (v("end") > last) last = v("end")
	if (index(v("parts"), 1)) {
		n1++; d1 += d; tstr += v("INT#TSTR"); tend += v("INT#TEND"); cnt += v("INTDBIR#")
		t += v("INTDBIRT"); timsy += v("INTTIMSY"); timus += v("INTTIMUS")
		if (v("INTDBIRH") + 0 > peak) peak = v("INTDBIRH") + 0
	}
	if (index(v("parts"), 3)) { d3 += d; syti += v("INTSYTI"); n3++; rf += 100 * v("INTZPTI") / v("INTSYTI") }
}
END {
	print "source,first,last,raw,delta_avg,delta_total,rate,timer,timer_inv,multi,bulk,avg_timer,raw_fraction,elapsed,peak"
	printf "SYSA,%s,%s,%.9f,%.9f,%d,%.9f,%.9f,%.9f,%.9f,%.9f,%.9f,%.9f,%.9f,%.9f\n", first, last,
		tstr / n1, tend / n1, tend, cnt / (d1 / 10000), 100 * timsy / d1, 100 * (1 - timus / d1),
		100 * syti / (d3 * 409600), tstr / n1, t / cnt * 100, rf / n3, secs(last) - s0, peak / 10000
}' "$truth" > "$tmp/family-want.csv"
# the share of all wait time, over intervals with parts 1 and 2
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
		for (i = 1; i <= NF; i++) { b = substr($i, 1, length($i) - 1); if ($i ~ /T$/ && (b "H") in c && (b "#") in c) bt[i] = 1 }
		next }
	$1 == "SYSA" && index($5, 1) && index($5, 2) { for (i in bt) w += $i; t += $(c["INTDBIRT"]) }
	END { print "source,fraction"; printf "SYSA,%.9f\n", 100 * t / w }' "$truth" > "$tmp/family-want2.csv"
expect_rc 4 rpt -q --report-dir="$tmp/defs" --report=family --source=SYSA -o "$tmp/family.csv" "$input"
if awk -F, -f "$top_srcdir/tests/csvcompare.awk" "$tmp/family-want.csv" "$tmp/family.csv" &&
   awk -F, -f "$top_srcdir/tests/csvcompare.awk" "$tmp/family-want2.csv" "$tmp/family.csv"; then
	pass "user definition: every counter family agrees with the truth"
else
	fail "user definition: every counter family agrees with the truth"
fi
expect_rc 4 rpt -q --report="$tmp/defs/family.rpt" --source=SYSA -o "$tmp/family2.csv" "$input"
same "$tmp/family.csv" "$tmp/family2.csv" "--report=FILE.rpt reads the same definition"

# --- a streamed figure whose product with 10**decimals passes 64 bits ------------
# INTSYTI (TOD, 4096 a microsecond) in ns to 7 decimals: n * 125 / 512,
# whose remainder's 9 decimals are r * 1953125 (1/512 = 0.001953125),
# rounded half up here to 7, exactly in awk's doubles (below 2**53); the
# same bytes as the cells of --columns give
cat > "$tmp/defs/widecpu.rpt" <<'EOF'
title       Wide CPU
description CPU in ns to 7 decimals, an interval a row
rows        interval
column source  text=source
column start   text=start
column cpu_ns  type=PERF_COUNTER_LARGE_DELTA aggregate=total N=INTSYTI unit=us scale=1000/1 decimals=7
EOF
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$(c["INTSYTI"]) != "" { n = $(c["INTSYTI"]) * 125; q = int(n / 512)
		f = int(((n - q * 512) * 1953125 + 50) / 100); if (f == 10000000) { q++; f = 0 }
		printf "%s,%s,%.0f.%07d\n", $1, $2, q, f }' "$truth" | sort > "$tmp/widecpu.want"
rpt -q --report-dir="$tmp/defs" --report=widecpu -o "$tmp/widecpu.csv" "$input"
awk -F, 'NR > 1 && $3 != ""' "$tmp/widecpu.csv" | sort > "$tmp/widecpu.got"
same "$tmp/widecpu.want" "$tmp/widecpu.got" "a streamed figure past 64 bits: exact digits"
rpt -q --report-dir="$tmp/defs" --report=widecpu --columns=source,start,cpu_ns \
	-o "$tmp/widecpu-cells.csv" "$input"
same "$tmp/widecpu-cells.csv" "$tmp/widecpu.csv" "a streamed figure past 64 bits: the cells' bytes"

# --- broken definitions --------------------------------------------------------
mkdir "$tmp/bad"
check_bad() { # NAME MESSAGE, with the definition on standard input
	cat > "$tmp/bad/$1.rpt"
	rc=0
	rpt --report-dir="$tmp/bad" --report="$1" "$input" > "$tmp/bad.out" 2> "$tmp/bad.err" || rc=$?
	[ "$rc" -eq 12 ] && pass "broken $1: exit 12" || fail "broken $1: exit $rc, wanted 12"
	echo "$tmp/bad/$1.rpt:$2" > "$tmp/bad.want"
	same "$tmp/bad.want" "$tmp/bad.err" "broken $1: message"
	[ ! -s "$tmp/bad.out" ] && pass "broken $1: no report" || fail "broken $1: no report"
}
# (no pipes into check_bad: a subshell would lose its counts)
printf 'title Bad\n\ncolumn waits type=PERF_COUNTER_DELTA N=INTDBIR#\ncolumn x type=PERF_COUNTER_DELTA N=INTDBIRX\n' > "$tmp/def"
check_bad field "4: unknown field 'INTDBIRX'" < "$tmp/def"
printf 'column x type=PERF_COUNTER_TIMERS N=INTSYTI D=@duration\n' > "$tmp/def"
check_bad type "1: unknown counter type 'PERF_COUNTER_TIMERS'" < "$tmp/def"
printf 'column x type=PERF_COUNTER_TIMER N=INTSYTI\n' > "$tmp/def"
check_bad missing_d "1: column 'x': PERF_COUNTER_TIMER needs D" < "$tmp/def"
printf 'each bucket\ncolumn %%L_x type=MAX N=%%H\n' > "$tmp/def"
check_bad no_end "2: missing 'end'" < "$tmp/def"
rpt --report=nonesuch "$input" > /dev/null 2> "$tmp/err" && rc=0 || rc=$?
[ "$rc" -eq 12 ] && grep -q "unknown report 'nonesuch'" "$tmp/err" &&
	pass "unknown report: 12 and named" || fail "unknown report: exit $rc"
echo "old report" > "$tmp/keep.csv"
expect_rc 12 rpt -q --report-dir="$tmp/bad" --report=field -o "$tmp/keep.csv" "$input"
[ "$(cat "$tmp/keep.csv")" = "old report" ] && pass "broken definition: -o file left as it was" ||
	fail "broken definition: -o file changed"

# --- options --------------------------------------------------------------------
expect_rc 12 rpt --report=intervals --by=hour "$input"
expect_rc 12 rpt --report=waits --by=week "$input"
expect_rc 12 rpt --report=waits --from=2025-13-01 "$input"
expect_rc 12 rpt --report=waits --from=2025-03-04 --to=2025-03-03 "$input"
expect_rc 12 rpt --report=waits --format=csv --asa "$input"
expect_rc 12 rpt --report=waits --page-length=3 --format=text "$input"
expect_rc 12 rpt --report=waits --format=text --output-encoding=NO-SUCH-CP "$input"
expect_rc 12 rpt --report=inventory --format=text "$input"
expect_rc 16 rpt -q --report=waits --format=text -o /dev/full "$input"
# --from/--to select by start time; --source selects sources
run -q --report=tasks --from="2025-03-03 23:00" --to="2025-03-04 00:00" --source=SYSB "$input" > "$tmp/sel.csv"
want=$(awk -F, '$1 == "SYSB" && $2 >= "2025-03-03 23:00" && $2 < "2025-03-04 00:00"' "$truth" | wc -l)
got=$(awk -F, 'NR == 2 { print $2 }' "$tmp/sel.csv")
[ "$(wc -l < "$tmp/sel.csv")" -eq 2 ] && [ "$got" -eq "$want" ] &&
	pass "--from, --to, --source: $want intervals of SYSB" || fail "--from, --to, --source: $got, wanted $want"
# SOURCE_DATE_EPOCH fixes the run time as --run-time does
(cd "$golden" && SOURCE_DATE_EPOCH=1741071600 rpt --report-dir="$top_srcdir/reports" \
	--report=tasks --format=text input.dat) > "$tmp/sde.txt" 2> /dev/null
same "$golden/tasks.txt.out" "$tmp/sde.txt" "SOURCE_DATE_EPOCH gives the run time"

# --- the intervals form: each complete interval's buckets, as the truth has them
# (waits, total wait in s, peak in ms: the truth's #, T and H, in 10^-4 s),
# read from the columns its table's rules mark
run -q --report=intervals --format=text "$input" > "$tmp/form.txt"
awk '/^Source  / { src = $2 } /^Start  / { start = $2 " " $3 } /^Parts  / { parts = $2 }
	/^-+  -+/ { n = 0; for (i = 1; i <= length($0); i = j) {
			while (substr($0, i, 1) == " ") i++
			for (j = i; substr($0, j, 1) == "-"; j++) ;
			at[++n] = i; w[n] = j - i } table = 1; next }
	/^$/ { table = 0 }
	table && parts == 123 { for (k = 1; k <= n; k++) { f[k] = substr($0, at[k], w[k]); gsub(/^ +| +$/, "", f[k]) }
		print src "," start "," f[1] "," f[3] "," f[4] "," f[6] }' "$tmp/form.txt" | sort > "$tmp/form.got"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /#$/ && $i != "INT#TSTR" && $i != "INT#TEND") {
			nb++; label[nb] = substr($i, 1, length($i) - 1); cnt[nb] = i; tot[nb] = i - 2; hi[nb] = i - 1 } next }
	$5 == 123 { for (b = 1; b <= nb; b++)
		printf "%s,%s,%s,%d,%.6f,%.3f\n", $1, $2, label[b], $(cnt[b]), $(tot[b]) / 10000, $(hi[b]) / 10 }' \
	"$truth" | sort > "$tmp/form.want"
[ "$(wc -l < "$tmp/form.want")" -gt 340 ] && same "$tmp/form.want" "$tmp/form.got" \
	"intervals form: every bucket of the $(($(wc -l < "$tmp/form.want") / 34)) complete intervals as the truth has it" ||
	fail "intervals form: the truth's buckets"

# --- README's table of the cpu columns says the fields --describe reads -------
rpt --describe > "$tmp/describe.txt"
awk -F'|' '/^### / { cpu = $0 == "### cpu" } cpu && $2 ~ /`/ && $3 ~ /^ `INT/ {
		n = split($2, c, /`[, ]*`?/); split($3, f, /`[, ]*`?/)
		for (i = 2; i < n; i++) print c[i], f[i] }' "$top_srcdir/README.md" > "$tmp/readme-cpu"
bad=0
while read -r col field; do
	grep -q "^cpu  *$col  *[A-Z_]*  *N=$field\$" "$tmp/describe.txt" || { bad=1; echo "# README: $col $field"; }
done < "$tmp/readme-cpu"
[ "$(wc -l < "$tmp/readme-cpu")" -ge 8 ] && [ $bad -eq 0 ] &&
	pass "README's cpu columns read the fields it says ($(wc -l < "$tmp/readme-cpu"))" ||
	fail "README's cpu columns and --describe"

# --- pages, ASA and EBCDIC -----------------------------------------------------------
awk -v max=40 'BEGIN { RS = "\f" } { n = split($0, l, "\n"); if (l[n] == "") n--; if (n > max) bad++ }
	END { exit bad ? 1 : 0 }' "$golden/waits.txt.out" &&
	pass "text: no page longer than --page-length" || fail "text: a page longer than --page-length"
pages=$(grep -c 'Page [0-9]' "$golden/waits.txt.out")
feeds=$(tr -cd '\f' < "$golden/waits.txt.out" | wc -c)
[ "$pages" -gt 1 ] && [ "$feeds" -eq $((pages - 1)) ] && pass "text: $pages pages, form feeds between" ||
	fail "text: $pages pages, $feeds form feeds"
asa=$golden/cpu.asa.out
awk 'length($0) != 133 { bad++ } END { exit bad ? 1 : 0 }' "$asa" &&
	pass "asa: every line is 133 bytes" || fail "asa: a line is not 133 bytes"
ones=$(grep -c '^1' "$asa")
[ "$ones" -eq "$(grep -c 'Page [0-9]' "$asa")" ] && [ "$(grep -vc '^[1 ]' "$asa")" -eq 0 ] &&
	pass "asa: '1' opens each of $ones pages, ' ' the other lines" || fail "asa: carriage control"
(cd "$golden" && run -q --report=cpu --by=hour --asa --output-encoding=IBM-1047 input.dat) \
	> "$tmp/cpu.ebcdic" 2> /dev/null
head -c 1 "$tmp/cpu.ebcdic" | od -An -tx1 | grep -q f1 && pass "EBCDIC: the first byte is '1' in IBM-1047" ||
	fail "EBCDIC: the first byte"
iconv -f IBM1047 -t ISO-8859-1 "$tmp/cpu.ebcdic" > "$tmp/cpu.back"
same "$asa" "$tmp/cpu.back" "EBCDIC: IBM-1047 back to ASCII is the ASA report"
finish
