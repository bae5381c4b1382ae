#!/bin/sh
# reports_generated.sh: the waits, cpu and tasks reports by total, day and
# hour on datasets pmimgen wrote, against the figures computed from what it
# says it wrote (its --truth file, through tests/truth2reports.awk), within
# rounding and 1e-9 relative; and the hours of a day add up to the total.
# Several seeds, with missing parts, CV names and extreme waits.
. "${top_srcdir:-.}/tests/lib.sh"
tab=$(printf '\t')

# expected REPORT BY TRUTH: the report as the truth says it must be
expected() {
	awk -F, -v report="$1" -v by="$2" -f "$top_srcdir/tests/truth2reports.awk" "$3" |
		LC_ALL=C sort -t "$tab" -k1,1 | cut -f2-
}

# sum_by REPORT KEYCOLUMNS VALUECOLUMNS CSV: the value columns summed per
# key (the columns named), as "key,sum,sum..." lines in key order
sum_by() {
	awk -F, -v keys="$2" -v vals="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; nk = split(keys, k, " "); nv = split(vals, v, " "); next }
		{ key = ""; for (i = 1; i <= nk; i++) key = key $(c[k[i]]) ";"
		  seen[key] = 1; for (i = 1; i <= nv; i++) s[key, i] += $(c[v[i]]) }
		END { for (key in seen) { line = key; for (i = 1; i <= nv; i++) line = line sprintf(",%.6f", s[key, i]); print line } }' "$4" |
		LC_ALL=C sort
}

for seed in 11 12 13 14; do
	cv=
	case $seed in
	11) set -- --sources=SYSA,SYSB --drop-parts=0.1 ;;
	12) set -- --sources=SYSA/IDMSCV01,SYSB/IDMSCV02 --extreme=0.05 ; cv=--cv-field=22,8 ;;
	13) set -- --sources=PROD,TEST,DEV1 --drop-parts=0.05 --shuffle ;;
	14) set -- --sources=SYSA --framing=bdw --duplicate-parts=0.02 ;;
	esac
	# shellcheck disable=SC2086
	if ! gen --seed=$seed --intervals=150 --interval=600 --start="2025-06-29 21:07" "$@" \
	         --truth="$tmp/truth$seed.csv" -o "$tmp/gen$seed.dat" 2> "$tmp/gen.err"; then
		fail "pmimgen seed $seed: $(cat "$tmp/gen.err")"
		continue
	fi
	for report in waits cpu tasks; do
		for by in total day hour; do
			expected "$report" "$by" "$tmp/truth$seed.csv" > "$tmp/want.csv"
			rc=0
			# shellcheck disable=SC2086
			rpt -q $cv --report="$report" --by="$by" -o "$tmp/got.csv" "$tmp/gen$seed.dat" 2> /dev/null || rc=$?
			if [ "$rc" -gt 4 ]; then
				fail "seed $seed $report by $by: exit $rc"
			elif awk -F, -f "$top_srcdir/tests/csvcompare.awk" "$tmp/want.csv" "$tmp/got.csv" > "$tmp/cmp.out"; then
				pass "seed $seed $report by $by agrees with the truth ($(($(wc -l < "$tmp/want.csv") - 1)) rows)"
			else
				fail "seed $seed $report by $by agrees with the truth"
				head -5 "$tmp/cmp.out"
			fi
			cp "$tmp/got.csv" "$tmp/$report-$by.csv"
		done
	done
	# the hours add up to the total (sums of rounded figures: 1e-6 a row)
	sum_by waits "source bucket" "waits total_wait_s" "$tmp/waits-hour.csv" > "$tmp/h.sum"
	sum_by waits "source bucket" "waits total_wait_s" "$tmp/waits-total.csv" > "$tmp/t.sum"
	sum_by cpu "source" "intervals elapsed_s cpu_s srb_ziip_s part1_system_mode_s" "$tmp/cpu-hour.csv" > "$tmp/h2.sum"
	sum_by cpu "source" "intervals elapsed_s cpu_s srb_ziip_s part1_system_mode_s" "$tmp/cpu-total.csv" > "$tmp/t2.sum"
	sum_by tasks "source" "intervals tasks_started tasks_ended" "$tmp/tasks-hour.csv" > "$tmp/h3.sum"
	sum_by tasks "source" "intervals tasks_started tasks_ended" "$tmp/tasks-total.csv" > "$tmp/t3.sum"
	for s in "" 2 3; do
		if paste -d, "$tmp/h$s.sum" "$tmp/t$s.sum" | awk -F, '{ n = NF / 2; if ($1 != $(n + 1)) bad++
			for (i = 2; i <= n; i++) { d = $i - $(n + i); if (d < 0) d = -d; if (d > 1e-4 + 1e-9 * $(n + i)) bad++ } }
			END { exit bad || NR == 0 }'; then
			pass "seed $seed: the hours add up to the total ($(head -1 "$tmp/h$s.sum" | cut -d, -f1)...)"
		else
			fail "seed $seed: the hours add up to the total"
			paste -d, "$tmp/h$s.sum" "$tmp/t$s.sum" | head -3
		fi
	done
done
finish
