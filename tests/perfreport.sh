#!/bin/sh
# perfreport.sh: the series reports of PERF_DATA_BLOCK input (--report=perf,
# win-cpu) on snapshots pmimgen --framing=perf wrote, against its --truth
# file (one row per counter and window or snapshot, computed apart from the
# engine; see src/gen/gen_perf_truth.c). By interval the rows are the truth's;
# grouped by hour and in total, samples, min and max are worked here from
# the truth rows of each group (and the mean for the raw counts); --source,
# --from, --to and --perf-names keep and name what the truth says. Several
# seeds and system counts; the last system reboots halfway.
. "${top_srcdir:-.}/tests/lib.sh"

# names_of NAMES TRUTH: the truth with its object and counter indexes named
# through a --perf-names file (index and name lines alternating)
names_of() {
	awk -F, -v OFS=, '
		NR == FNR { if (FNR % 2) idx = $0; else name[idx] = $0; next }
		FNR > 1 { if ($4 in name) $4 = name[$4]; if ($6 in name) $6 = name[$6] }
		{ print }' "$1" "$2"
}

# groups BY TRUTH REPORT: for each row of the grouped REPORT (--by=BY, hour
# or total), a line "ok" or what is wrong with it, and then a last line
# "groups N rows M" (N groups in the truth, M report rows). A group is
# source, object, instance and counter (and for hour the hour the truth
# row's window starts in); samples counts its truth rows with a value, min
# and max are those of its values (as written, 6 decimals), and the value of
# a raw count is their mean, within 1e-6: worked exactly from the integer
# sum, the counts being whole and well under 2^53 summed.
groups() {
	awk -F, -v by="$1" '
		# less(a, b): a < b for decimals of 6 places, compared as text
		# for non-negative ones (so that counts past 2^53 compare right)
		function less(a, b) {
			if (a !~ /^-/ && b !~ /^-/)
				return length(a) < length(b) || (length(a) == length(b) && a < b)
			return a + 0 < b + 0
		}
		function key(hourof) { return $1 SUBSEP $4 SUBSEP $5 SUBSEP $6 SUBSEP (by == "hour" ? substr(hourof, 1, 13) : "") }
		FNR == 1 { next }
		NR == FNR {
			k = key($2)
			if (!(k in n)) { n[k] = 0; ngroups++ }
			if ($8 == 1) {
				if (n[k] == 0 || less($9, min[k])) min[k] = $9
				if (n[k] == 0 || less(max[k], $9)) max[k] = $9
				n[k]++
				split($9, p, ".")
				sum[k] += p[1]
			}
			next
		}
		{
			rows++
			k = key($2)
			if (!(k in n)) { print "not in the truth: " $0; next }
			if (k in done) { print "twice: " $0; next }
			done[k] = 1
			if (by == "hour" && (substr($2, 15) != "00:00.000" || substr($3, 15) != "00:00.000")) { print "not an hour: " $0; next }
			want_min = n[k] ? min[k] : ""
			want_max = n[k] ? max[k] : ""
			if ($8 != n[k] || $10 != want_min || $11 != want_max) {
				print "samples/min/max " n[k] "," want_min "," want_max ": " $0
				next
			}
			if ($7 ~ /^PERF_COUNTER_(LARGE_)?RAWCOUNT$/) {
				s = sum[k]; q = int(s / n[k])
				while (q * n[k] > s) q--
				while ((q + 1) * n[k] <= s) q++
				split($9, p, ".")
				d = (p[1] - q) + (p[2] / 1e6 - (s - q * n[k]) / n[k])
				if (d > 1.000001e-6 || d < -1.000001e-6) { print "mean of " n[k] " off by " d ": " $0; next }
				means++
			}
			print "ok"
		}
		END { print "groups " ngroups " rows " rows " means " means }' "$2" "$3"
}

for run in "1 SYSA" "2 SYSA,SYSB" "5 PROD,TEST,DEV1" "9 W1,W2,W3,W4"; do
	# shellcheck disable=SC2086
	set -- $run
	seed=$1 sources=$2
	t=$tmp/s$seed
	if ! gen --framing=perf --sources="$sources" --intervals=12 --interval=900 --seed="$seed" \
	         --start="2025-03-03 05:10" --truth="$t.truth" --perf-names="$t.names" -o "$t.bin" 2> "$t.gen.err"; then
		fail "pmimgen seed $seed: $(cat "$t.gen.err")"
		continue
	fi
	what="seed $seed, $sources"
	truth_rows=$(($(wc -l < "$t.truth") - 1))

	# (a) by interval: the truth's rows, byte for byte, and min = max = value
	expect_rc 0 rpt --report=perf --by=interval -o "$t.int.csv" "$t.bin"
	cp "$tmp/last.err" "$t.int.err"
	cut -d, -f1-9 "$t.int.csv" > "$t.int9.csv"
	same "$t.truth" "$t.int9.csv" "$what: by interval, the truth's $truth_rows rows"
	bad=$(awk -F, 'NR > 1 && ($10 != $9 || $11 != $9)' "$t.int.csv" | wc -l)
	[ "$bad" -eq 0 ] && pass "$what: by interval, min and max are the value" ||
		fail "$what: by interval, $bad rows with min or max not the value"

	# (b) named by the title table: the truth's indexes named the same way
	expect_rc 0 rpt --report=perf --by=interval --perf-names="$t.names" -o "$t.named.csv" "$t.bin"
	names_of "$t.names" "$t.truth" > "$t.named.want"
	cut -d, -f1-9 "$t.named.csv" > "$t.named9.csv"
	same "$t.named.want" "$t.named9.csv" "$what: --perf-names names objects and counters"
	if awk -F, 'NR > 1 && ($4 ~ /^[0-9]+$/ || $6 ~ /^[0-9]+$/) { exit 1 }' "$t.named.csv"; then
		pass "$what: --perf-names leaves no index unnamed"
	else
		fail "$what: --perf-names leaves an index unnamed"
	fi

	# (c) by hour and in total: samples, min, max and raw means per group
	for by in hour total; do
		expect_rc 0 rpt --report=perf --by=$by -o "$t.$by.csv" "$t.bin"
		groups $by "$t.truth" "$t.$by.csv" > "$t.$by.check"
		bad=$(grep -cv '^ok$\|^groups ' "$t.$by.check")
		# shellcheck disable=SC2046
		set -- $(tail -1 "$t.$by.check")
		if [ "$bad" -eq 0 ] && [ "$2" -eq "$4" ] && [ "$6" -gt 0 ]; then
			pass "$what: by $by, samples, min, max of $2 groups and $6 raw means agree with the truth"
		else
			fail "$what: by $by, $bad rows wrong; $2 groups, $4 rows, $6 means"
			grep -v '^ok$' "$t.$by.check" | head -5
		fi
	done
	hours=$(awk -F, 'NR > 1 { print substr($2, 1, 13) }' "$t.truth" | sort -u | wc -l)
	got=$(awk -F, 'NR > 1 { print $2 }' "$t.hour.csv" | sort -u | wc -l)
	[ "$hours" -gt 1 ] && [ "$hours" -eq "$got" ] && pass "$what: by hour, $hours hours" ||
		fail "$what: by hour, $got hours, the truth has $hours"

	# (f) the summary counts the two-sample windows without a value
	want=$(awk -F, 'NR > 1 && $2 != $3 && $8 == 0' "$t.truth" | wc -l)
	if grep -q "[;,] $want counter windows without a value (a reboot or a reset)" "$t.int.err"; then
		pass "$what: the summary: $want counter windows without a value"
	else
		fail "$what: the summary, wanted $want windows without a value: $(cat "$t.int.err")"
	fi
	# one-sample types never lack a value
	one=$(awk -F, 'NR > 1 && $2 == $3 && $8 == 0' "$t.truth" | wc -l)
	[ "$one" -eq 0 ] && pass "$what: truth: every snapshot row has a value" ||
		fail "$what: truth: $one snapshot rows without a value"
done

# The checks below on seed 2 (SYSA and SYSB; SYSB reboots at snapshot 7).
t=$tmp/s2
# (d) --source keeps that system's rows; --from and --to the truth rows
# whose window starts in [from, to)
expect_rc 0 rpt --report=perf --by=interval --source=SYSB -o "$t.b.csv" "$t.bin"
awk -F, 'NR == 1 || $1 == "SYSB"' "$t.truth" > "$t.b.want"
cut -d, -f1-9 "$t.b.csv" > "$t.b9.csv"
same "$t.b.want" "$t.b9.csv" "--source=SYSB: the truth's SYSB rows ($(($(wc -l < "$t.b.want") - 1)))"
from="2025-03-03 06:30:00" to="2025-03-03 07:45:00"
expect_rc 0 rpt --report=perf --by=interval --from="$from" --to="$to" -o "$t.ft.csv" "$t.bin"
awk -F, -v from="$from.000" -v to="$to.000" 'NR == 1 || ($2 >= from && $2 < to)' "$t.truth" > "$t.ft.want"
cut -d, -f1-9 "$t.ft.csv" > "$t.ft9.csv"
n=$(($(wc -l < "$t.ft.want") - 1))
[ "$n" -gt 0 ] && [ "$n" -lt $(($(wc -l < "$t.truth") - 1)) ] &&
	same "$t.ft.want" "$t.ft9.csv" "--from/--to: the truth's $n rows starting in [from, to)" ||
	fail "--from/--to: $n truth rows, not a part of the truth"
expect_rc 0 rpt --report=perf --by=interval --source=SYSA --from="$from" --to="$to" -o "$t.aft.csv" "$t.bin"
awk -F, -v from="$from.000" -v to="$to.000" 'NR == 1 || ($1 == "SYSA" && $2 >= from && $2 < to)' "$t.truth" > "$t.aft.want"
cut -d, -f1-9 "$t.aft.csv" > "$t.aft9.csv"
same "$t.aft.want" "$t.aft9.csv" "--source=SYSA --from --to together"

# (e) win-cpu with 6 decimals (its definition copied, decimals changed): by
# interval, a row per window and Processor instance, its busy% and peak%
# the truth's 238/INSTANCE/6, user% 142, intr/s 148, samples those of 6
mkdir "$tmp/rpt"
sed 's/decimals=[0-9]*/decimals=6/' "$top_srcdir/reports/win-cpu.rpt" > "$tmp/rpt/win-cpu.rpt"
expect_rc 0 rpt --report-dir="$tmp/rpt" --report=win-cpu --by=interval -o "$t.cpu.csv" "$t.bin"
awk -F, '
	FNR == 1 { next }
	NR == FNR {
		if ($4 == 238 && $2 != $3) { k = $1 "," $2 "," $3 "," $5; v[k, $6] = $9; s[k] = $8 }
		if ($4 == 238 && $2 != $3 && $6 == 6) { want++ }
		next
	}
	{
		k = $1 "," $2 "," $3 "," $4
		if (!(k in s)) { print "not in the truth: " $0; next }
		if ($5 != v[k, 6] || $6 != v[k, 6] || $7 != v[k, 142] || $11 != v[k, 148] || $12 != s[k]) {
			print "wanted " v[k, 6] "," v[k, 142] "," v[k, 148] "," s[k] ": " $0
			next
		}
		rows++
	}
	END { print "rows " rows + 0 " of " want + 0 }' "$t.truth" "$t.cpu.csv" > "$t.cpu.check"
# shellcheck disable=SC2046
set -- $(tail -1 "$t.cpu.check")
if [ "$(wc -l < "$t.cpu.check")" -eq 1 ] && [ "$2" -eq "$4" ] && [ "$2" -gt 0 ]; then
	pass "win-cpu by interval: $2 rows of busy%, peak%, user%, intr/s and samples as the truth's"
else
	fail "win-cpu by interval: $2 rows right of $4"
	head -5 "$t.cpu.check"
fi
# the rows of a window are the instances in the blocks' order
order=$(awk -F, 'NR > 1 && $1 == "SYSA" && NR <= 6 { printf "%s|", $4 }' "$t.cpu.csv")
[ "$order" = "0|1|2|3|_Total|" ] && pass "win-cpu: instances 0-3, _Total in order" ||
	fail "win-cpu: instances $order"
# the reboot window has rows, with no value and 0 samples
n=$(awk -F, '$12 == 0 && $5 == "" && $1 == "SYSB"' "$t.cpu.csv" | wc -l)
[ "$n" -eq 5 ] && pass "win-cpu: SYSB's reboot window, 5 rows without a value" ||
	fail "win-cpu: $n empty rows in SYSB's reboot window"

# (g) the PMIM reports refuse PERF_DATA_BLOCK input, and the other way round,
# leaving no output file
expect_rc 12 rpt --report=cpu -o "$tmp/cpu.csv" "$t.bin"
[ ! -e "$tmp/cpu.csv" ] && pass "--report=cpu on perf input: no output file" ||
	fail "--report=cpu on perf input: an output file"
grep -q PERF_DATA_BLOCK "$tmp/last.err" && pass "--report=cpu on perf input: says why" ||
	fail "--report=cpu on perf input: says why: $(cat "$tmp/last.err")"
expect_rc 12 rpt --report=perf -o "$tmp/perf.csv" "$top_srcdir/data/sample-smf-rdw.dat"
[ ! -e "$tmp/perf.csv" ] && pass "--report=perf on SMF input: no output file" ||
	fail "--report=perf on SMF input: an output file"
finish
