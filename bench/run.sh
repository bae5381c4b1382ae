#!/bin/bash
# bench/run.sh: throughput and peak memory of pmimrpt beside a baseline
# (`cat FILE > /dev/null`), measured in the same run on the same page-cached
# inputs, at two sizes to show how time and memory grow.
#
#   bench/run.sh [--size=1G] [--reps=5] [--builddir=DIR] [--workdir=DIR]
#
# Inputs are generated with pmimgen (never committed):
#   sparse  an SMF dump in BDW blocks, type-230 records about 1% of the
#           bytes among other SMF types, with spanned records;
#   dense   a plain PM stream of interval records only.
# Each command runs once to warm up, then --reps times; the table shows the
# median wall time and the median peak RSS (from /usr/bin/time).
set -euo pipefail

size=1G reps=5 builddir=. workdir=${TMPDIR:-/tmp}/pmimrpt-bench
for arg; do
	case $arg in
	--size=*) size=${arg#*=} ;;
	--reps=*) reps=${arg#*=} ;;
	--builddir=*) builddir=${arg#*=} ;;
	--workdir=*) workdir=${arg#*=} ;;
	-h|--help) sed -n '2,15p' "$0"; exit 0 ;;
	*) echo "bench/run.sh: unknown option $arg" >&2; exit 12 ;;
	esac
done
pmimrpt=$(cd "$builddir" && pwd)/pmimrpt
pmimgen=$(cd "$builddir" && pwd)/pmimgen
[ -x "$pmimrpt" ] && [ -x "$pmimgen" ] || { echo "build first: no $pmimrpt" >&2; exit 12; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 12; }
mkdir -p "$workdir"

bytes_of() { # 1G -> 1073741824
	local n=${1%[KMGkmg]} u=${1##*[0-9]}
	case $u in K|k) n=$((n << 10)) ;; M|m) n=$((n << 20)) ;; G|g) n=$((n << 30)) ;; esac
	echo "$n"
}
big=$(bytes_of "$size")
small=$((big / 10))

generate() { # NAME KIND BYTES
	local f=$workdir/$1.dat
	if [ ! -f "$f" ] || [ "$(stat -c %s "$f")" -lt "$3" ]; then
		case $2 in
		sparse) "$pmimgen" --seed=1 --framing=bdw --sparse --sources=SYSA,SYSB,SYSC \
			--size="$3" -o "$f" ;;
		dense) "$pmimgen" --seed=1 --framing=pm --source-label=CV1 --size="$3" -o "$f" ;;
		esac
	fi
	echo "$f"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# measure CMD...: prints "median_seconds median_rss_kib". Wall time from
# the nanosecond clock around the run (/usr/bin/time's own is in 10 ms
# steps); peak RSS from /usr/bin/time, which runs both alike.
measure() {
	local i t0 t1 m times=() rss=()
	"$@" > /dev/null 2>&1 || true   # warm-up
	for ((i = 0; i < reps; i++)); do
		t0=$(date +%s%N)
		/usr/bin/time -f "%M" -o "$workdir/time.out" "$@" > /dev/null 2> /dev/null || true
		t1=$(date +%s%N)
		read -r m < "$workdir/time.out"
		times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", (b - a) / 1e9 }')") rss+=("$m")
	done
	printf '%s %s\n' "$(printf '%s\n' "${times[@]}" | median)" "$(printf '%s\n' "${rss[@]}" | median)"
}

declare -A result
run_input() { # NAME FILE FRAMING-OPTS
	local name=$1 file=$2 opts=$3 bytes summary recs ivs
	bytes=$(stat -c %s "$file")
	cat "$file" > /dev/null; cat "$file" > /dev/null   # into the page cache
	# shellcheck disable=SC2086
	summary=$("$pmimrpt" $opts --report=inventory -o /dev/null "$file" 2>&1 | tail -1)
	recs=$(echo "$summary" | sed -n 's/.* \([0-9]*\) SMF records.* \([0-9]*\) PM records.*/\1 \2/p' | awk '{ print $1 + $2 }')
	ivs=$(echo "$summary" | sed -n 's/.*; \([0-9]*\) intervals.*/\1/p')
	echo "$name: $bytes bytes, $recs records, $ivs intervals"
	read -r base base_rss < <(measure sh -c "cat '$file' > /dev/null")
	printf '  %-22s %9s %9s %12s %7s %9s\n' command wall_s MB/s per_s x_cat rss_MiB
	row() { # LABEL SECONDS RSS PER-UNIT-COUNT UNIT
		awk -v l="$1" -v t="$2" -v m="$3" -v b="$bytes" -v n="$4" -v u="$5" -v base="$base" 'BEGIN {
			t0 = (t > 0) ? t : 0.001
			printf "  %-22s %9.4f %9.0f %9.3g %-2s %7.2f %9.1f\n", l, t, b / t0 / 1e6, n / t0, u, t / ((base > 0) ? base : 0.001), m / 1024 }'
	}
	row "cat (baseline)" "$base" "$base_rss" "$recs" r/s
	result[$name,cat]="$base $base_rss"
	for report in inventory waits cpu tasks intervals; do
		local rc=0
		# shellcheck disable=SC2086
		"$pmimrpt" $opts -q --report=$report -o /dev/null "$file" 2>/dev/null || rc=$?
		if [ $rc -ge 12 ]; then echo "  (report $report not available)"; continue; fi
		# shellcheck disable=SC2086
		read -r t m < <(measure sh -c "'$pmimrpt' $opts -q --report=$report '$file' > /dev/null")
		if [ "$report" = intervals ]; then row "$report > /dev/null" "$t" "$m" "$ivs" iv/s
		else row "$report" "$t" "$m" "$recs" r/s; fi
		result[$name,$report]="$t $m"
	done
}

echo "pmimrpt benchmark: $(nproc) cores, $(uname -m), reps=$reps, sizes $small and $big bytes"
for kind in sparse dense; do
	opts=""
	[ $kind = dense ] && opts="--framing=pm"
	run_input "$kind-small" "$(generate "$kind-small" $kind $small)" "$opts"
	run_input "$kind-big" "$(generate "$kind-big" $kind $big)" "$opts"
	echo "  growth from $kind-small to $kind-big (input x10):"
	for report in cat inventory waits cpu tasks intervals; do
		[ -n "${result[$kind-big,$report]:-}" ] || continue
		read -r t1 m1 <<< "${result[$kind-small,$report]}"
		read -r t2 m2 <<< "${result[$kind-big,$report]}"
		awk -v r="$report" -v t1="$t1" -v t2="$t2" -v m1="$m1" -v m2="$m2" 'BEGIN {
			printf "    %-10s time x%.2f (linear: x10, %+.0f%%)   peak RSS %.1f -> %.1f MiB (%+.0f%%)\n",
			r, t2 / (t1 > 0 ? t1 : 0.001), (t2 / (t1 > 0 ? t1 : 0.001) / 10 - 1) * 100,
			m1 / 1024, m2 / 1024, (m2 / m1 - 1) * 100 }'
	done
done
