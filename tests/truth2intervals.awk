# truth2intervals.awk: what the `intervals` report must say, computed from
# the raw figures pmimgen wrote (its --truth file), by the formulas of the
# record layout, independently of pmimrpt's code:
#   duration_s   = duration in 10**-4 s / 10000
#   <X>_s        = 10**-4 s / 10000 (INTTIMSY, INTTIMUS); TOD / 4096000000
#                  (the part-3 fields, TOD units: bit 51 is 1 microsecond)
#   <B>_waits    = B#            <B>_total_s = BT / 10000
#   <B>_avg_ms   = BT / B# / 10  (empty when B# is 0)
#   <B>_peak_ms  = BH / 10
# Fields of parts the truth does not have are empty.
#
# usage: awk -F, -f truth2intervals.awk truth.csv
BEGIN {
	OFS = ","
	split("INTSYTI INTCPTI INTZPTI INTUSTI INTTTTI INTENTI", tod, " ")
	for (i in tod) istod[tod[i]] = 1
}
function cell(v) { return v == "" ? "" : v }
NR == 1 {
	for (i = 1; i <= NF; i++) col[$i] = i
	nb = 0
	for (i = 1; i <= NF; i++) {
		n = $i
		if (n ~ /T$/) {
			b = substr(n, 1, length(n) - 1)
			if ((b "H") in col && (b "#") in col) bucket[++nb] = b
		}
	}
	header = "source,start,end,duration_s,parts,tasks_started,tasks_ended,INTTIMSY_s,INTTIMUS_s"
	for (i = 1; i <= 6; i++) header = header "," tod[i] "_s"
	for (i = 1; i <= nb; i++) header = header "," bucket[i] "_waits," bucket[i] "_total_s," bucket[i] "_avg_ms," bucket[i] "_peak_ms"
	print header
	next
}
function v(name) { return $(col[name]) }
function div(x, d, places) { return x == "" ? "" : sprintf("%.*f", places, x / d) }
{
	line = v("source") OFS v("start") OFS v("end") OFS div(v("duration_e4"), 10000, 9) OFS v("parts")
	line = line OFS v("INT#TSTR") OFS v("INT#TEND") OFS div(v("INTTIMSY"), 10000, 9) OFS div(v("INTTIMUS"), 10000, 9)
	for (i = 1; i <= 6; i++) line = line OFS div(v(tod[i]), 4096000000, 12)
	for (i = 1; i <= nb; i++) {
		b = bucket[i]; t = v(b "T"); h = v(b "H"); c = v(b "#")
		avg = (c == "" || c == 0) ? "" : sprintf("%.9f", t / c / 10)
		line = line OFS c OFS div(t, 10000, 9) OFS avg OFS div(h, 10, 9)
	}
	print line
}
