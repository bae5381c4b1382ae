#!/bin/bash
# bench/run.sh: throughput and peak memory of pmimrpt beside a baseline
# (`cat FILE > /dev/null`), measured in the same run on the same page-cached
# inputs, at two sizes to show how time and memory grow, and checked
# against the performance targets (issue 16).
#
#   bench/run.sh [--size=1G] [--reps=5] [--partials=10000] [--builddir=DIR]
#                [--workdir=DIR]
#
# Inputs are generated with pmimgen (never committed), named by their size
# so that a run never reuses the inputs of another size:
#   sparse  an SMF dump in BDW blocks, type-230 records about 1% of the
#           bytes among other SMF types, with spanned records;
#   dense   a plain PM stream of interval records only;
#   full    a plain PM stream of one-minute intervals whose figures use
#           their whole range (pmimgen --full-range): long CSV rows;
#   perf    Windows PERF_DATA_BLOCK snapshots of 4 systems.
# On the PM streams, bench/floor.c (built here, not installed) gives a
# lower bound: a loop that only walks INTLEN and adds each wait bucket's
# sum, highest and count into 34 totals. The targets then say where
# waits' time goes beside it: the inventory, and a report that reads no
# figure (bench/frames.rpt), each paired with it.
# The second size is a tenth of --size. Each command runs once to warm up,
# then --reps times (three times as many when it takes under 0.1 s); the
# table shows the median wall time, the median CPU time (user + system)
# and the median peak RSS (from /usr/bin/time). The load average is shown
# at the start and at the end: with other work on the machine, wall times
# are worth little, CPU times a little more. Growth from the smaller input
# to the larger is shown as measured, and less the time of the same command
# on an empty input (starting a process; for pmimrpt also reading its
# layouts), which does not grow with the input. The targets at the end
# judge their ratios (to the floor loop, to cat, --jobs=2 to one thread,
# a larger input to a smaller) by runs of the two commands in turn, whose
# machine's moment is the same, not by the tables' medians, taken minutes
# apart on a machine whose speed can drift by half meanwhile; and time
# the growth of a report whose run on the tenth of --size is too short to
# time well (under 50 ms) from --size to ten times it (a file made for
# it, 10 GB by default, and removed after). The CPU's
# model is shown: the speeds depend on it, the ratios much less. One
# more target is of memory: waits by hour over a year of 4 sources (made
# once and kept in the work folder), whose groups pass --group-memory.
# Then waits on a gzip and a zstd copy of each larger input (made once,
# kept beside it), beside zcat and zstdcat of the same file to /dev/null.
# Last, the merge of --partials small partial files (one per system and
# day: 100 systems, a day of 96 intervals each; made once, in parallel, and
# kept in the work folder) into the waits report by day: its time and peak
# RSS, which grow with the groups, not with the partials (0: skipped).
# Then the charts (when pmimrpt draws them): that year of 15-minute
# intervals of 4 sources, the cpu and waits
# reports by hour as CSV beside the same as SVG, PNG and PDF charts, a
# chart per source (8760 points each; waits: two charts of 9 series).
set -euo pipefail

size=1G reps=5 partials=10000 builddir=. workdir=${TMPDIR:-/tmp}/pmimrpt-bench
for arg; do
	case $arg in
	--size=*) size=${arg#*=} ;;
	--reps=*) reps=${arg#*=} ;;
	--partials=*) partials=${arg#*=} ;;
	--builddir=*) builddir=${arg#*=} ;;
	--workdir=*) workdir=${arg#*=} ;;
	-h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { print }' "$0"; exit 0 ;;
	*) echo "bench/run.sh: unknown option $arg" >&2; exit 12 ;;
	esac
done
pmimrpt=$(cd "$builddir" && pwd)/pmimrpt
pmimgen=$(cd "$builddir" && pwd)/pmimgen
[ -x "$pmimrpt" ] && [ -x "$pmimgen" ] || { echo "build first: no $pmimrpt" >&2; exit 12; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 12; }
[ "$reps" -ge 1 ] 2>/dev/null || { echo "bench/run.sh: --reps must be 1 or more" >&2; exit 12; }
mkdir -p "$workdir"

bytes_of() { # 1G -> 1073741824
	local n=${1%[KMGkmg]} u=${1##*[0-9]}
	case $u in K|k) n=$((n << 10)) ;; M|m) n=$((n << 20)) ;; G|g) n=$((n << 30)) ;; esac
	echo "$n"
}
big=$(bytes_of "$size")
small=$((big / 10))

generate() { # KIND BYTES: prints the file
	local f=$workdir/$1-$2.dat
	if [ ! -f "$f" ] || [ "$(stat -c %s "$f")" -lt "$2" ]; then
		case $1 in
		sparse) "$pmimgen" --seed=1 --framing=bdw --sparse --sources=SYSA,SYSB,SYSC \
			--size="$2" -o "$f" ;;
		dense) "$pmimgen" --seed=1 --framing=pm --source-label=CV1 --size="$2" -o "$f" ;;
		full) "$pmimgen" --seed=1 --framing=pm --source-label=CV1 --interval=60 \
			--full-range --size="$2" -o "$f" ;;
		perf) # no --size for snapshots: as many as make the size
			"$pmimgen" --seed=1 --framing=perf --sources=W1,W2,W3,W4 --interval=60 \
				--intervals=10 -o "$f"
			"$pmimgen" --seed=1 --framing=perf --sources=W1,W2,W3,W4 --interval=60 \
				--intervals=$(($2 / ($(stat -c %s "$f") / 10) + 1)) -o "$f" ;;
		esac
		# its pages written out now, not by the kernel during the runs
		sync "$f"
	fi
	echo "$f"
}

# fresh FILE...: each file dropped from the page cache and read into it
# again, so that the cache holds every input the same way: pmimrpt maps a
# plain file, and a mapped read can take twice the time where the cache
# holds the file in small pages (read back a page at a time after the
# kernel paged it out, as DAMON does here to memory idle for a minute)
# than in the huge pages a read from disk ahead leaves.
fresh() {
	local f
	for f; do
		dd if="$f" iflag=nocache count=0 status=none 2> /dev/null || true
		cat "$f" > /dev/null
	done
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

# measure CMD...: runs CMD with its output to /dev/null and prints
# "median_wall_s median_cpu_s median_rss_kib". Wall time from the
# nanosecond clock around the run (/usr/bin/time's own is in 10 ms steps);
# CPU time and peak RSS from /usr/bin/time, which runs every command alike.
# A run under 0.1 s is repeated three times as often: its median is the
# one most easily moved by other work on the machine.
measure() {
	local i n=$reps t0 t1 m u s rc=0 times=() cpus=() rss=()
	t0=$(date +%s%N)
	"$@" > /dev/null 2>&1 || true   # warm-up
	t1=$(date +%s%N)
	[ $((t1 - t0)) -lt 100000000 ] && n=$((reps * 3))
	for ((i = 0; i < n; i++)); do
		t0=$(date +%s%N)
		/usr/bin/time -f "%M %U %S" -o "$workdir/time.out" "$@" > /dev/null 2> /dev/null || rc=$?
		t1=$(date +%s%N)
		read -r m u s < "$workdir/time.out"
		times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", (b - a) / 1e9 }')")
		cpus+=("$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')") rss+=("$m")
	done
	# a run that failed (not 0, nor 4 for warnings) timed what it skipped
	case $rc in 0 | 4) ;; *) echo "bench/run.sh: exit $rc from $*: its row is not worth reading" >&2 ;; esac
	printf '%s %s %s\n' "$(printf '%s\n' "${times[@]}" | median)" \
		"$(printf '%s\n' "${cpus[@]}" | median)" "$(printf '%s\n' "${rss[@]}" | median)"
}

# timed CMD...: the command's wall time in microseconds, from bash's own
# clock (no process started to read it), its output to /dev/null.
timed() {
	local t0=${EPOCHREALTIME/./}
	"$@" > /dev/null 2>&1 || true
	echo $((${EPOCHREALTIME/./} - t0))
}

# paired A-CMD... -- B-CMD...: B's wall time over A's, as the median over
# runs of the two back to back (in turn A first and B first): both are
# timed at the same moment of the machine, whose speed can drift by half
# between one command's runs and the next's. What the targets' ratios are
# judged by; the tables' medians give the speeds. Repeated three times as
# often when a pair takes under 0.1 s.
paired() {
	local a=() b=() side=a arg i n=$reps ta tb ratios=()
	for arg; do
		if [ "$arg" = -- ]; then side=b
		elif [ $side = a ]; then a+=("$arg")
		else b+=("$arg"); fi
	done
	[ $(($(timed "${a[@]}") + $(timed "${b[@]}"))) -lt 100000 ] && n=$((reps * 3))
	for ((i = 0; i < n; i++)); do
		if ((i % 2)); then tb=$(timed "${b[@]}") ta=$(timed "${a[@]}")
		else ta=$(timed "${a[@]}") tb=$(timed "${b[@]}"); fi
		ratios+=("$(awk -v a="$ta" -v b="$tb" 'BEGIN { printf "%.6f", b / (a > 0 ? a : 1) }')")
	done
	printf '%s\n' "${ratios[@]}" | median
}

# growth EMPTY SMALL BIG CMD...: (BIG's time - EMPTY's) / (SMALL's -
# EMPTY's), CMD run on each of the three files back to back (in turn in
# one order and the other), the median over as many runs as paired makes.
# "short" when a run on SMALL lasts under 5 ms more than on EMPTY (a small
# --size): too short to judge.
growth() {
	local empty=$1 small=$2 big=$3 i n=$reps te ts tb gs=()
	shift 3
	[ "$(timed "$@" "$small")" -lt 50000 ] && n=$((reps * 3))
	for ((i = 0; i < n; i++)); do
		if ((i % 2)); then tb=$(timed "$@" "$big") ts=$(timed "$@" "$small") te=$(timed "$@" "$empty")
		else te=$(timed "$@" "$empty") ts=$(timed "$@" "$small") tb=$(timed "$@" "$big"); fi
		[ $((ts - te)) -lt 5000 ] && { echo short; return; }
		gs+=("$(awk -v e="$te" -v s="$ts" -v b="$tb" 'BEGIN { print (b - e) / (s - e) }')")
	done
	printf '%s\n' "${gs[@]}" | median
}

declare -A result
# fixed_costs KIND FRAMING-OPTS: the wall time of every command on an
# empty input.
fixed_costs() {
	local kind=$1 opts=$2 report t
	: > "$workdir/empty.dat"
	read -r t _ _ < <(measure cat "$workdir/empty.dat")
	result[$kind,empty,cat]=$t
	for report in inventory waits cpu tasks intervals; do
		# shellcheck disable=SC2086
		read -r t _ _ < <(measure "$pmimrpt" $opts -q --report=$report "$workdir/empty.dat")
		result[$kind,empty,$report]=$t
	done
}

run_input() { # NAME FILE FRAMING-OPTS
	local name=$1 file=$2 opts=$3 bytes summary recs ivs base base_cpu base_rss
	bytes=$(stat -c %s "$file")
	fresh "$file"
	# shellcheck disable=SC2086
	summary=$("$pmimrpt" $opts --report=inventory -o /dev/null "$file" 2>&1 | tail -1)
	recs=$(echo "$summary" | sed -n 's/.* \([0-9]*\) SMF records.* \([0-9]*\) PM records.*/\1 \2/p' | awk '{ print $1 + $2 }')
	ivs=$(echo "$summary" | sed -n 's/.*; \([0-9]*\) intervals.*/\1/p')
	echo "$name: $bytes bytes, $recs records, $ivs intervals"
	read -r base base_cpu base_rss < <(measure cat "$file")
	printf '  %-22s %9s %9s %12s %7s %7s %9s\n' command wall_s MB/s per_s x_cat cpu_s rss_MiB
	row() { # LABEL SECONDS CPU RSS PER-UNIT-COUNT UNIT
		awk -v l="$1" -v t="$2" -v c="$3" -v m="$4" -v b="$bytes" -v n="$5" -v u="$6" -v base="$base" 'BEGIN {
			t0 = (t > 0) ? t : 0.001
			printf "  %-22s %9.4f %9.0f %9.0f %-2s %7.2f %7.2f %9.1f\n", l, t, b / t0 / 1e6, n / t0, u,
				t / ((base > 0) ? base : 0.001), c, m / 1024 }'
	}
	row "cat (baseline)" "$base" "$base_cpu" "$base_rss" "$recs" r/s
	result[$name,cat]="$base $base_cpu $base_rss"
	case $opts in *--framing=pm*)
		read -r t c m < <(measure "$workdir/floor" "$workdir/describe.txt" "$file")
		row "floor (lower bound)" "$t" "$c" "$m" "$recs" r/s
		result[$name,floor]="$t $c $m" ;;
	esac
	result[$name,bytes]=$bytes
	result[$name,ivs]=$ivs
	result[$name,recs]=$recs
	for report in inventory waits cpu tasks intervals; do
		local rc=0 t c m
		# shellcheck disable=SC2086
		"$pmimrpt" $opts -q --report=$report -o /dev/null "$file" 2>/dev/null || rc=$?
		if [ $rc -ge 12 ]; then echo "  (report $report not available)"; continue; fi
		# shellcheck disable=SC2086
		read -r t c m < <(measure "$pmimrpt" $opts -q --report=$report "$file")
		if [ "$report" = intervals ]; then row "$report > /dev/null" "$t" "$c" "$m" "$ivs" iv/s
		else row "$report" "$t" "$c" "$m" "$recs" r/s; fi
		result[$name,$report]="$t $c $m"
	done
	# the progress line, drawn on standard error (here /dev/null)
	# shellcheck disable=SC2086
	read -r t c m < <(measure "$pmimrpt" $opts --progress --report=waits "$file")
	row "waits --progress" "$t" "$c" "$m" "$recs" r/s
	result[$name,progress]="$t $c $m"
	# three reports from one read, against the three runs alone, all
	# writing files (each kept with an fsync)
	local alone=0
	mkdir -p "$workdir/alone"
	for report in waits cpu tasks; do
		# shellcheck disable=SC2086
		read -r t c m < <(measure "$pmimrpt" $opts -q --report=$report -o "$workdir/alone/$report.csv" "$file")
		alone=$(awk -v a="$alone" -v t="$t" 'BEGIN { print a + t }')
	done
	# shellcheck disable=SC2086
	read -r t c m < <(measure "$pmimrpt" $opts -q --report=waits,cpu,tasks -o "$workdir/three/" "$file")
	row "waits,cpu,tasks -o DIR/" "$t" "$c" "$m" "$recs" r/s
	awk -v t="$t" -v s="$alone" 'BEGIN {
		printf "  %-22s %9.4f  (one read: %.2f of the three)\n", "3 runs -o FILE", s, (s > 0) ? t / s : 0 }'
	result[$name,three]="$t $alone"
}

cflags=$(sed -n 's/^CFLAGS = //p' "$builddir/Makefile" 2>/dev/null || true)
echo "pmimrpt benchmark: $(nproc) cores, $(uname -m), reps=$reps, sizes $small and $big bytes"
echo "cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2> /dev/null | head -1)"
echo "build: $pmimrpt (CFLAGS ${cflags:-unknown})"
echo "load average at start: $(loadavg)"
cc -O2 -o "$workdir/floor" "$(dirname "$0")/floor.c"
"$pmimrpt" --describe > "$workdir/describe.txt"
for kind in sparse dense full; do
	opts=""
	[ $kind != sparse ] && opts="--framing=pm"
	fixed_costs "$kind" "$opts"
	run_input "$kind-small" "$(generate $kind "$small")" "$opts"
	run_input "$kind-big" "$(generate $kind "$big")" "$opts"
	echo "  growth from $kind-small to $kind-big (input x10; then less an empty input's time):"
	for report in cat inventory waits cpu tasks intervals; do
		[ -n "${result[$kind-big,$report]:-}" ] || continue
		read -r t1 _ m1 <<< "${result[$kind-small,$report]}"
		read -r t2 _ m2 <<< "${result[$kind-big,$report]}"
		awk -v r="$report" -v t1="$t1" -v t2="$t2" -v e="${result[$kind,empty,$report]}" \
		    -v m1="$m1" -v m2="$m2" 'BEGIN {
			g = t2 / (t1 > 0 ? t1 : 0.001); h = (t2 - e) / (t1 - e > 0 ? t1 - e : 0.001)
			printf "    %-10s time x%.2f (%+.0f%%); less %.1f ms: x%.2f (%+.0f%%)   peak RSS %.1f -> %.1f MiB (%+.0f%%)\n",
			r, g, (g / 10 - 1) * 100, e * 1000, h, (h / 10 - 1) * 100,
			m1 / 1024, m2 / 1024, (m2 / m1 - 1) * 100 }'
	done
done

# Windows snapshots, and one big file on two threads
perf_file=$(generate perf "$big")
fresh "$perf_file"
read -r base _ _ < <(measure cat "$perf_file")
# a row a system, hour and counter instance: 400,000 at 1 GB, past the
# default --max-groups
perf_opts="-q --max-groups=10000000"
# shellcheck disable=SC2086
read -r t c m < <(measure "$pmimrpt" $perf_opts --report=perf --by=hour "$perf_file")
result[perf,bytes]=$(stat -c %s "$perf_file")
result[perf,perf]="$t $c $m"
echo "perf: ${result[perf,bytes]} bytes of PERF_DATA_BLOCKs"
awk -v t="$t" -v c="$c" -v m="$m" -v b="${result[perf,bytes]}" -v base="$base" 'BEGIN {
	printf "  %-22s %9.4f %9.0f MB/s  x_cat %.2f  cpu %.2f s  rss %.1f MiB\n", "perf --by=hour", t,
		b / (t > 0 ? t : 0.001) / 1e6, t / (base > 0 ? base : 0.001), c, m / 1024 }'
# the same file cut in two ranges, and by day (fewer rows to merge)
for by in hour day; do
	# shellcheck disable=SC2086
	read -r t1 _ _ < <(measure "$pmimrpt" $perf_opts --report=perf --by=$by "$perf_file")
	# shellcheck disable=SC2086
	read -r t c m < <(measure "$pmimrpt" $perf_opts --jobs=2 --report=perf --by=$by "$perf_file")
	result[perf,jobs2-$by]="$t $c $m"
	awk -v t="$t" -v t1="$t1" -v c="$c" -v m="$m" -v by="$by" 'BEGIN {
		printf "  %-22s %9.4f  x%.2f of --jobs=1  cpu %.2f s  rss %.1f MiB\n", "perf --by=" by " --jobs=2",
			t, t1 / (t > 0 ? t : 0.001), c, m / 1024 }'
done
read -r t c m < <(measure "$pmimrpt" -q --framing=pm --jobs=2 --report=waits "$(generate dense "$big")")
result[dense-big,jobs2]="$t $c $m"
echo "dense-big waits --jobs=2 (one file): wall $t s, cpu $c s, rss $(awk -v m="$m" 'BEGIN { printf "%.1f", m / 1024 }') MiB"
# Compressed input: waits on a .gz and a .zst copy of each larger input,
# beside the program that decompresses it to /dev/null (MB/s and x_cat are
# of the uncompressed bytes, against cat of the uncompressed file).
compressed_rows() { # NAME FILE FRAMING-OPTS
	local name=$1 file=$2 opts=$3 bytes base recs c cat ext z t cpu m rc
	bytes=${result[$name,bytes]}
	read -r base _ _ <<< "${result[$name,cat]}"
	recs=${result[$name,recs]}
	echo "$name, compressed:"
	printf '  %-22s %9s %9s %12s %7s %7s %9s\n' command wall_s MB/s per_s x_cat cpu_s rss_MiB
	for c in gzip zstd; do
		command -v $c > /dev/null || { echo "  ($c not installed)"; continue; }
		ext=gz cat=zcat
		[ $c = zstd ] && ext=zst cat=zstdcat
		z=$file.$ext
		[ -f "$z" ] && [ "$z" -nt "$file" ] || $c -c < "$file" > "$z"
		cat "$z" > /dev/null
		read -r t cpu m < <(measure $cat "$z")
		row "$cat FILE.$ext" "$t" "$cpu" "$m" "$recs" r/s
		rc=0
		# shellcheck disable=SC2086
		"$pmimrpt" $opts -q --report=waits -o /dev/null "$z" 2>/dev/null || rc=$?
		if [ $rc -ge 8 ]; then echo "  (pmimrpt does not read $c input: exit $rc)"; continue; fi
		# shellcheck disable=SC2086
		read -r t cpu m < <(measure "$pmimrpt" $opts -q --report=waits "$z")
		row "waits FILE.$ext" "$t" "$cpu" "$m" "$recs" r/s
		echo "    FILE.$ext: $(stat -c %s "$z") bytes"
	done
}
compressed_rows sparse-big "$(generate sparse "$big")" ""
compressed_rows dense-big "$(generate dense "$big")" --framing=pm
echo "load average at end: $(loadavg)"

# The targets of issue 16, on the larger inputs.
verdict() { awk -v ok="$1" 'BEGIN { print ok ? "met" : "MISSED" }'; }
target() { # LABEL VALUE OK
	printf '  %-50s %14s  %s\n' "$1" "$2" "$(verdict "$3")"
}
secs() { local t; read -r t _ _ <<< "${result[$1]}"; echo "$t"; }
gbs() { awk -v t="$(secs "$1")" -v b="$2" 'BEGIN { printf "%.2f", b / (t > 0 ? t : 0.001) / 1e9 }'; }
ge() { awk -v a="$1" -v b="$2" 'BEGIN { print (a >= b) }'; }
le() { awk -v a="$1" -v b="$2" 'BEGIN { print (a <= b) }'; }
sparse_big=$(generate sparse "$big") dense_big=$(generate dense "$big")
echo "targets (issue 16), on the $big-byte inputs (ratios: median of runs in pairs, see paired):"
for report in waits cpu tasks; do
	x=$(gbs dense-big,$report "${result[dense-big,bytes]}")
	target "dense $report: at least 3 GB/s" "$x GB/s" "$(ge "$x" 3)"
done
x=$(gbs dense-big,inventory "${result[dense-big,bytes]}")
target "dense inventory: at least 4 GB/s" "$x GB/s" "$(ge "$x" 4)"
# the aim, and where that time goes: what every report does before it
# reads a figure (framing, dates, checks, reassembly, the byte
# accounting: the inventory), then with the frames handed to a report
# that reads none (bench/frames.rpt); the rest is the figures decoded and
# added. Each paired with the floor loop.
floor_x=()
for report in waits inventory "$(dirname "$0")/frames.rpt"; do
	floor_x+=("$(paired "$workdir/floor" "$workdir/describe.txt" "$dense_big" -- \
		"$pmimrpt" -q --framing=pm --report="$report" "$dense_big" | awk '{ printf "%.2f", $1 }')")
done
target "dense waits: within 2x of the floor loop (aim)" "x${floor_x[0]}" "$(le "${floor_x[0]}" 2)"
echo "    (of the floor loop's time: the inventory x${floor_x[1]}, frames to a report that reads no figure x${floor_x[2]})"
x=$(awk -v t="$(secs full-big,intervals)" -v n="${result[full-big,ivs]}" 'BEGIN { printf "%.0f", n / (t > 0 ? t : 0.001) }')
target "full-range intervals CSV: at least 600,000 intervals/s" "$x iv/s" "$(ge "$x" 600000)"
for report in waits inventory; do
	x=$(paired cat "$sparse_big" -- "$pmimrpt" -q --report=$report "$sparse_big" |
		awk '{ printf "%.2f", $1 }')
	target "sparse $report: at most 1.2x cat" "x$x" "$(le "$x" 1.2)"
done
x=$(paired "$pmimrpt" -q --framing=pm --jobs=2 --report=waits "$dense_big" -- \
	"$pmimrpt" -q --framing=pm --report=waits "$dense_big" | awk '{ printf "%.2f", $1 }')
target "dense waits, one file, --jobs=2: at least 1.8x" "x$x" "$(ge "$x" 1.8)"
x=$(gbs perf,perf "${result[perf,bytes]}")
target "perf --by=hour: at least 1 GB/s" "$x GB/s" "$(ge "$x" 1)"
worst_rss=0 worst_rss_growth=0
for kind in sparse dense full; do
	for report in waits cpu tasks inventory intervals; do
		[ -n "${result[$kind-big,$report]:-}" ] || continue
		read -r _ _ m1 <<< "${result[$kind-small,$report]}"
		read -r _ _ m2 <<< "${result[$kind-big,$report]}"
		worst_rss=$(awk -v a="$worst_rss" -v m="$m1" -v n="$m2" 'BEGIN { x = (m > n) ? m : n; print (x > a) ? x : a }')
		worst_rss_growth=$(awk -v a="$worst_rss_growth" -v m="$m1" -v n="$m2" 'BEGIN { g = (n / m - 1) * 100; print (g > a) ? g : a }')
	done
done
read -r _ _ m <<< "${result[dense-big,jobs2]}"
target "peak RSS: at most 16 MiB a thread" \
	"$(awk -v m="$worst_rss" 'BEGIN { printf "%.1f MiB", m / 1024 }')" "$(le "$worst_rss" 16384)"
target "  --jobs=2: at most 32 MiB" "$(awk -v m="$m" 'BEGIN { printf "%.1f MiB", m / 1024 }')" \
	"$(le "$m" 32768)"
target "  and at x10 input within 10% (worst growth)" \
	"$(awk -v g="$worst_rss_growth" 'BEGIN { printf "%+.1f%%", g }')" "$(le "$worst_rss_growth" 10)"
# A grouped report keeps a group a source and period until the end: by
# hour over a year of 4 sources, 35,040 groups, the groups past
# --group-memory (8 MiB) in a temporary file, beside every group held.
year_file() {
	local f=$workdir/year-4-sources.dat
	[ -f "$f" ] || "$pmimgen" --seed=1 --sources=SYSA,SYSB,SYSC,SYSD --start="2025-01-01 00:00" \
		--intervals=35040 -o "$f"
	echo "$f"
}
year=$(year_file)
read -r t _ m < <(measure "$pmimrpt" -q --report=waits --by=hour --max-groups=2000000 "$year")
read -r t0 _ m0 < <(measure "$pmimrpt" -q --report=waits --by=hour --max-groups=2000000 \
	--group-memory=0 "$year")
target "waits --by=hour of a year, 4 sources: at most 16 MiB" \
	"$(awk -v m="$m" 'BEGIN { printf "%.1f MiB", m / 1024 }')" "$(le "$m" 16384)"
awk -v t="$t" -v t0="$t0" -v m0="$m0" 'BEGIN {
	printf "    (%.2f s; every group held, --group-memory=0: %.1f MiB, %.2f s)\n", t, m0 / 1024, t0 }'
# Start-up: the rows above time one run each between two clock reads,
# which adds the starting of date and /usr/bin/time (cat's empty run
# shows it, several ms); here 200 runs back to back in one shell, the
# clock read once around them, beside cat in the same loop.
startup() { # CMD...: mean wall seconds a run
	local t0 t1
	t0=$(date +%s%N)
	for ((i = 0; i < 200; i++)); do "$@" > /dev/null 2>&1; done
	t1=$(date +%s%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", (b - a) / 200 / 1e9 }'
}
worst_start=0
start_cat=$(startup cat "$workdir/empty.dat")
echo "start-up on an empty input, mean of 200 runs in a row (cat: $(awk -v t="$start_cat" 'BEGIN { printf "%.2f ms", t * 1000 }')):"
for report in inventory waits cpu tasks intervals; do
	for framing in "" --framing=pm; do
		# shellcheck disable=SC2086
		t=$(startup "$pmimrpt" $framing -q --report=$report "$workdir/empty.dat")
		printf '  %-32s %.2f ms\n' "$report $framing" "$(awk -v t="$t" 'BEGIN { print t * 1000 }')"
		worst_start=$(awk -v a="$worst_start" -v t="$t" 'BEGIN { print (t > a) ? t : a }')
	done
done
target "start-up on an empty input: at most 3 ms" \
	"$(awk -v t="$worst_start" 'BEGIN { printf "%.1f ms", t * 1000 }')" "$(le "$worst_start" 0.003)"
# A Slurm array's files are small but not empty: a 256 KiB file of each
# framing, found out (the framing detected from its first bytes, as users
# run it) and told, beside cat.
echo "a small file (256 KiB), waits, mean of 200 runs in a row:"
for framing in pm rdw bdw; do
	f=$workdir/small-$framing.dat
	[ -f "$f" ] || "$pmimgen" --seed=1 --framing=$framing --size=262144 -o "$f"
	tc=$(startup cat "$f")
	t=$(startup "$pmimrpt" -q --report=waits "$f")
	tf=$(startup "$pmimrpt" -q --framing=$framing --report=waits "$f")
	printf '  %-4s cat %.2f ms, detected %.2f ms, --framing=%s %.2f ms\n' "$framing" \
		"$(awk -v t="$tc" 'BEGIN { print t * 1000 }')" "$(awk -v t="$t" 'BEGIN { print t * 1000 }')" \
		"$framing" "$(awk -v t="$tf" 'BEGIN { print t * 1000 }')"
done
cost=$(paired "$pmimrpt" -q --framing=pm --report=waits "$dense_big" -- \
	"$pmimrpt" --framing=pm --progress --report=waits "$dense_big" | awk '{ printf "%+.1f", ($1 - 1) * 100 }')
target "dense waits --progress: cost below 2%" "$cost%" "$(awk -v c="$cost" 'BEGIN { print (c < 2) }')"
# Linear time: the larger input's time, less an empty input's, is ten
# times the smaller one's within 10%, each report's runs on the three
# back to back (growth). A run under 50 ms is too short for that: what
# does not grow with the input beyond starting a process (reading ahead
# into a new file, the clock speeding up, the caches) is a large part of
# it, and cat itself grows by x7 to x9 from 100 MB to 1 GB on the same
# machine. A report whose run on the tenth of --size lasts under 50 ms
# beyond the empty input's is timed from --size to ten times it instead:
# a file made for the purpose, read into the page cache, and removed
# after its kind's reports (10 GB for the default size). cat's growth on
# the same files is shown beside, not judged. The files are read afresh
# first (fresh), the larger one just written, the others read long ago.
shown_growth() { awk '{ print ($1 == "short") ? $1 : sprintf("x%.2f", $1) }'; }
worst_time=0
echo "  growth x10 input less empty, runs in turn (+: from --size to ten times it):"
for kind in sparse dense full; do
	opts="" line="" f3=""
	[ $kind != sparse ] && opts="--framing=pm"
	f1=$(generate $kind "$small") f2=$(generate $kind "$big")
	fresh "$f1" "$f2"
	cats=$(growth "$workdir/empty.dat" "$f1" "$f2" cat | shown_growth)
	for report in inventory waits cpu tasks intervals; do
		[ -n "${result[$kind-big,$report]:-}" ] || continue
		read -r t1 _ _ <<< "${result[$kind-small,$report]}"
		a=$f1 b=$f2 mark=""
		if awk -v t="$t1" -v e="${result[$kind,empty,$report]}" 'BEGIN { exit !(t - e < 0.05) }'; then
			if [ -z "$f3" ]; then
				f3=$(generate $kind $((big * 10)))
				fresh "$f2" "$f3"
				cats="$cats, + $(growth "$workdir/empty.dat" "$f2" "$f3" cat | shown_growth)"
			fi
			a=$f2 b=$f3 mark="+"
		fi
		# shellcheck disable=SC2086
		g=$(growth "$workdir/empty.dat" "$a" "$b" "$pmimrpt" $opts -q --report=$report)
		if [ "$g" = short ]; then
			line="$line $report (too short)"
			continue
		fi
		read -r d shown < <(awk -v g="$g" -v m="$mark" 'BEGIN {
			d = g / 10 - 1
			printf "%.2f %sx%.2f(%+.1f%%)\n", (d < 0 ? -d : d) * 100, m, g, d * 100 }')
		line="$line $report $shown"
		worst_time=$(awk -v a="$worst_time" -v d="$d" 'BEGIN { print (d > a) ? d : a }')
	done
	echo "    $kind (cat $cats):$line"
	[ -z "$f3" ] || rm -f "$f3"
done
target "time x10 input less empty: x10 within 10%" \
	"$(awk -v d="$worst_time" 'BEGIN { printf "%.1f%%", d }')" "$(le "$worst_time" 10)"

# The merge of many partials.
if [ "$partials" -gt 0 ]; then
	dir=$workdir/partials-$partials-v2
	if [ ! -f "$dir/done" ]; then
		mkdir -p "$dir"
		seq 0 $((partials - 1)) | xargs -P "$(nproc)" -I{} sh -c '
			i={}; day=$(date -u -d "2025-01-01 +$((i / 100)) days" +%F)
			"$1" --seed=$i --sources=S$((i % 100)) --start="$day 00:00" --intervals=96 \
				--framing=rdw -o "$2/$i.dat" &&
			"$3" -q --partial --report=waits --by=day --max-groups=10000000 \
				-o "$2/$i.part" "$2/$i.dat" &&
			rm "$2/$i.dat"' sh "$pmimgen" "$dir" "$pmimrpt"
		touch "$dir/done"
	fi
	bytes=$(cat "$dir"/*.part | wc -c)
	read -r t c m < <(measure "$pmimrpt" -q --merge --report=waits --by=day --max-groups=10000000 "$dir"/*.part)
	groups=$("$pmimrpt" -q --merge --report=waits --by=day --max-groups=10000000 "$dir"/*.part | tail -n +2 | wc -l)
	echo "merge of $partials partials ($bytes bytes, $groups rows of the waits report by day):"
	awk -v t="$t" -v c="$c" -v m="$m" -v n="$partials" -v b="$bytes" 'BEGIN {
		printf "  wall %.2f s, %.0f partials/s, %.0f MB/s; cpu %.2f s; peak RSS %.1f MiB\n",
			t, n / (t > 0 ? t : 0.001), b / (t > 0 ? t : 0.001) / 1e6, c, m / 1024 }'
fi

# The charts: a year of hourly points, 4 sources.
year=$(year_file)
rm -rf "$workdir/charts" && mkdir "$workdir/charts"
if "$pmimrpt" -q --report=tasks --by=day --format=svg -o "$workdir/charts/" "$year" 2> /dev/null; then
	echo "charts of a year by hour, 4 sources ($(stat -c %s "$year") bytes):"
	printf '  %-30s %9s %7s %9s\n' command wall_s cpu_s rss_MiB
	for report in cpu waits; do
		for format in csv svg png pdf; do
			out=$workdir/charts/
			[ $format = csv ] && out=$workdir/charts/$report.csv
			[ $format = pdf ] && out=$workdir/charts/$report.pdf
			read -r t c m < <(measure "$pmimrpt" -q --report=$report --by=hour --max-groups=2000000 \
				--format=$format -o "$out" "$year")
			awk -v l="$report --format=$format" -v t="$t" -v c="$c" -v m="$m" 'BEGIN {
				printf "  %-30s %9.2f %7.2f %9.1f\n", l, t, c, m / 1024 }'
		done
	done
else
	echo "charts: skipped (pmimrpt built without Cairo)"
fi
