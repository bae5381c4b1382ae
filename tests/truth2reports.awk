# truth2reports.awk: what the waits, cpu and tasks reports must say,
# computed from the raw figures pmimgen wrote (its --truth file), by the
# sums over sums that the issue asks for, independently of pmimrpt's code.
#
# Groups: source, and with by=hour or by=day the hour or day the interval
# starts in (period_end is one hour or day later); by=total has no period.
# Rows come sorted by source, period and bucket (copybook order), as
# pmimrpt writes them. An interval counts in a figure only when it has the
# parts the figure reads; a figure no interval has is empty.
#   waits:  waits = SUM(#); total_wait_s = SUM(T) / 10**4;
#           avg_wait_ms = SUM(T) / SUM(#) / 10; peak_wait_ms = MAX(H) / 10;
#           waits_per_s = SUM(#) / (SUM(duration) / 10**4);
#           pct_of_wait_time = 100 * SUM(T) / SUM(T of every bucket), over
#           the intervals that have parts 1 and 2
#   cpu:    intervals, elapsed_s = SUM(duration) / 10**4 (every interval);
#           part 3 times (TOD) / 4096000000; INTTIMSY, INTTIMUS / 10**4;
#           cpu_busy_pct = 100 * SUM(INTSYTI) / 4096000000 / (SUM(duration
#           of intervals with part 3) / 10**4), ziip_busy_pct likewise;
#           ziip_share_pct = 100 * SUM(INTZPTI) / SUM(INTTTTI+INTCPTI+INTZPTI)
#   tasks:  tasks_started = SUM(INT#TSTR), tasks_ended = SUM(INT#TEND);
#           tasks_started_per_s = SUM(INT#TSTR) / (SUM(duration of
#           intervals with part 1) / 10**4)
# Each output line is "KEY<TAB>CSV" so that `sort` puts the rows in order;
# the caller cuts the key off (see tests/reports_generated.sh).
#
# usage: awk -F, -v report=waits -v by=hour -f truth2reports.awk truth.csv
BEGIN { SEP = "\001"; TOD = 4096000000 }

# days from 1970-01-01 to a civil date (Howard Hinnant's days_from_civil)
function days_from_civil(y, m, d,   era, yoe, doy, doe) {
	y -= (m <= 2)
	era = int((y >= 0 ? y : y - 399) / 400)
	yoe = y - era * 400
	doy = int((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1
	doe = yoe * 365 + int(yoe / 4) - int(yoe / 100) + doy
	return era * 146097 + doe - 719468
}
function civil(z,   era, doe, yoe, doy, mp, d, m, y) {
	z += 719468
	era = int((z >= 0 ? z : z - 146096) / 146097)
	doe = z - era * 146097
	yoe = int((doe - int(doe / 1460) + int(doe / 36524) - int(doe / 146096)) / 365)
	doy = doe - (365 * yoe + int(yoe / 4) - int(yoe / 100))
	mp = int((5 * doy + 2) / 153)
	d = doy - int((153 * mp + 2) / 5) + 1
	m = mp < 10 ? mp + 3 : mp - 9
	y = yoe + era * 400 + (m <= 2)
	return sprintf("%04d-%02d-%02d", y, m, d)
}
# "YYYY-MM-DD HH:MM:SS" plus secs seconds
function add_seconds(s, secs,   t, days) {
	t = days_from_civil(substr(s, 1, 4) + 0, substr(s, 6, 2) + 0, substr(s, 9, 2) + 0) * 86400 \
	    + substr(s, 12, 2) * 3600 + substr(s, 15, 2) * 60 + substr(s, 18, 2) + secs
	days = int(t / 86400)
	t -= days * 86400
	return civil(days) sprintf(" %02d:%02d:%02d", int(t / 3600), int(t / 60) % 60, t % 60)
}
function num(x, d, places) { return sprintf("%.*f", places, x / d) }
function int0(x) { return sprintf("%.0f", x) }
function has(p) { return index(v("parts"), p) > 0 }
function v(name) { return $(col[name]) }

NR == 1 {
	for (i = 1; i <= NF; i++) col[$i] = i
	nb = 0
	for (i = 1; i <= NF; i++) {
		name = $i
		if (name ~ /T$/) {
			b = substr(name, 1, length(name) - 1)
			if ((b "H") in col && (b "#") in col) { bucket[++nb] = b; bpart[nb] = nb <= 16 ? 1 : 2 }
		}
	}
	key = by == "total" ? "source" : "source,period_start,period_end"
	if (report == "waits")
		print "0\t" key ",bucket,waits,total_wait_s,avg_wait_ms,peak_wait_ms,waits_per_s,pct_of_wait_time"
	else if (report == "cpu")
		print "0\t" key ",intervals,elapsed_s,cpu_s,tcb_s,srb_cp_s,srb_ziip_s,enclave_srb_s,part3_user_mode_s,part1_system_mode_s,part1_user_mode_s,cpu_busy_pct,ziip_busy_pct,ziip_share_pct"
	else
		print "0\t" key ",intervals,elapsed_s,tasks_started,tasks_ended,tasks_started_per_s"
	next
}
{
	if (by == "hour") { ps = substr(v("start"), 1, 13) ":00:00"; pe = add_seconds(ps, 3600) }
	else if (by == "day") { ps = substr(v("start"), 1, 10) " 00:00:00"; pe = add_seconds(ps, 86400) }
	g = v("source") SEP ps
	if (!(g in seen)) { seen[g] = 1; gsrc[g] = v("source"); gps[g] = ps; gpe[g] = pe }
	dur = v("duration_e4")
	n[g]++; elapsed[g] += dur
	if (has(1)) {
		p1[g]++; dur1[g] += dur
		tstr[g] += v("INT#TSTR"); tend[g] += v("INT#TEND")
		timsy[g] += v("INTTIMSY"); timus[g] += v("INTTIMUS")
	}
	if (has(3)) {
		p3[g]++; dur3[g] += dur
		syti[g] += v("INTSYTI"); cpti[g] += v("INTCPTI"); zpti[g] += v("INTZPTI")
		usti[g] += v("INTUSTI"); ttti[g] += v("INTTTTI"); enti[g] += v("INTENTI")
	}
	both = has(1) && has(2)
	if (both) { w = 0; for (i = 1; i <= nb; i++) w += v(bucket[i] "T"); allw[g] += w }
	for (i = 1; i <= nb; i++) {
		if (!has(bpart[i])) continue
		k = g SEP i
		bn[k]++; cnt[k] += v(bucket[i] "#"); tot[k] += v(bucket[i] "T"); bdur[k] += dur
		h = v(bucket[i] "H") + 0
		if (!(k in peak) || h > peak[k]) peak[k] = h
		if (both) tboth[k] += v(bucket[i] "T")
	}
}
END {
	for (g in seen) {
		keycols = by == "total" ? gsrc[g] : gsrc[g] "," gps[g] "," gpe[g]
		if (report == "waits") {
			for (i = 1; i <= nb; i++) {
				k = g SEP i
				line = keycols "," bucket[i]
				if (k in bn) {
					line = line "," int0(cnt[k]) "," num(tot[k], 10000, 9)
					line = line "," (cnt[k] ? num(tot[k] / cnt[k], 10, 9) : "")
					line = line "," num(peak[k], 10, 9)
					line = line "," (bdur[k] ? num(cnt[k], bdur[k] / 10000, 9) : "")
					line = line "," (allw[g] ? num(100 * tboth[k], allw[g], 9) : "")
				} else {
					line = line ",,,,,,"
				}
				printf "1%s%s%03d\t%s\n", g, SEP, i, line
			}
		} else if (report == "cpu") {
			line = keycols "," n[g] "," num(elapsed[g], 10000, 9)
			if (p3[g]) line = line "," num(syti[g], TOD, 12) "," num(ttti[g], TOD, 12) "," num(cpti[g], TOD, 12) "," num(zpti[g], TOD, 12) "," num(enti[g], TOD, 12) "," num(usti[g], TOD, 12)
			else line = line ",,,,,,"
			if (p1[g]) line = line "," num(timsy[g], 10000, 9) "," num(timus[g], 10000, 9)
			else line = line ",,"
			if (p3[g] && dur3[g]) line = line "," num(100 * syti[g] / TOD, dur3[g] / 10000, 9) "," num(100 * zpti[g] / TOD, dur3[g] / 10000, 9)
			else line = line ",,"
			d = ttti[g] + cpti[g] + zpti[g]
			line = line "," (p3[g] && d ? num(100 * zpti[g], d, 9) : "")
			printf "1%s\t%s\n", g, line
		} else {
			line = keycols "," n[g] "," num(elapsed[g], 10000, 9)
			if (p1[g]) line = line "," int0(tstr[g]) "," int0(tend[g]) "," (dur1[g] ? num(tstr[g], dur1[g] / 10000, 9) : "")
			else line = line ",,,"
			printf "1%s\t%s\n", g, line
		}
	}
}
