#!/bin/sh
# corrupt.sh: the corruption catalogue. tests/corrupt damages small valid
# samples of every framing (written here by pmimgen, with the truth of what
# they hold) in every way the catalogue lists, reads each damaged copy in
# memory, and checks the exit code, the message naming file and offset, the
# byte accounting and that every interval the damage did not touch is
# there with exact figures (see tests/corrupt.c). Files that are no dump at
# all (gzip, ASCII text, empty, /dev/null) are run through pmimrpt here.
# Every case must end within a time bound, with no signal and no sanitizer
# report. The last line counts the cases.
. "${top_srcdir:-.}/tests/lib.sh"
CORRUPT=${CORRUPT:-$top_builddir/tests/corrupt}
TIMEOUT=
command -v timeout > /dev/null && TIMEOUT="timeout 300"
cases=0
cases_failed=0

# catalogue NAME KIND OPTIONS -- PMIMGEN-OPTIONS: one sample and its damage
catalogue() {
	name=$1 kind=$2 opts=
	shift 2
	while [ "$1" != -- ]; do opts="$opts $1"; shift; done
	shift
	gen "$@" -o "$tmp/$name.dat" --truth="$tmp/$name.truth" || { fail "$name: pmimgen $*"; return; }
	rc=0
	# shellcheck disable=SC2086 # the options are words
	(cd "$tmp" && $TIMEOUT $WRAP "$CORRUPT" "$kind" "$name.dat" "$name.truth" $opts) \
		> "$tmp/$name.log" 2> "$tmp/$name.err" || rc=$?
	line=$(tail -n 1 "$tmp/$name.log")
	n=${line%% passed*}
	case $n in ''|*[!0-9]*) n=0 ;; esac
	cases=$((cases + n))
	if [ $rc -eq 0 ] && [ "${line#* passed, }" = "0 failed" ] &&
	   ! grep -q -E 'runtime error|Sanitizer' "$tmp/$name.err"; then
		pass "$name: $n damaged copies read as the catalogue says"
	else
		cases_failed=$((cases_failed + 1))
		fail "$name: exit $rc: $line"
		grep -E '^FAIL' "$tmp/$name.log" | head -10
		head -5 "$tmp/$name.err"
	fi
}

# The samples: small, so that every byte offset can be cut. The SMF
# samples have a product header of one length, as the monitor's #PMSMHDS
# is: damage to a record's first PM records is told from a longer product
# header by where the last record's began (tests/corrupt.c).
catalogue pm pm --source=CV1 -- --seed=2 --framing=pm --source-label=CV1 \
	--intervals=3 --other-pm=0.2
catalogue rdw-pm rdw-pm --source=CV1 -- --seed=2 --framing=rdw-pm \
	--source-label=CV1 --intervals=3 --other-pm=0.2
catalogue smf-rdw smf-rdw -- --seed=2 --framing=rdw --block-size=500 \
	--sources=SYSA,SYSB --intervals=2 --pm-per-smf=1-4 --other-smf=0.1 \
	--other-pm=0.2 --product-header=40
catalogue smf-bdw smf-bdw -- --seed=3 --framing=bdw --block-size=600 \
	--intervals=3 --pm-per-smf=2-5 --other-smf=0.1 --other-pm=0.2 \
	--product-header=40
# extended BDWs: one block over 32,760 bytes (cut every 53rd byte, the
# headers of every 11th PM record damaged), and the extended form on every
# block
catalogue smf-bdw-large smf-bdw --step=53 --record-step=11 -- --seed=15 --framing=bdw \
	--extended-bdw --block-size=40000 --intervals=50 --other-pm=0.2 \
	--product-header=40
catalogue smf-bdw-all smf-bdw -- --seed=5 --framing=bdw --extended-bdw=all \
	--block-size=500 --intervals=4 --other-pm=0.2 --product-header=40

# perf_catalogue NAME FILE OPTIONS: PERF_DATA_BLOCKs and their damage, read
# into a series report
CORRUPT_PERF=${CORRUPT_PERF:-$top_builddir/tests/corrupt_perf}
perf_catalogue() {
	name=$1 file=$2
	shift 2
	rc=0
	# shellcheck disable=SC2086 # the options are words
	(cd "$tmp" && $TIMEOUT $WRAP "$CORRUPT_PERF" "$file" "$@") \
		> "$tmp/$name.log" 2> "$tmp/$name.err" || rc=$?
	line=$(tail -n 1 "$tmp/$name.log")
	n=${line%% passed*}
	case $n in ''|*[!0-9]*) n=0 ;; esac
	cases=$((cases + n))
	if [ $rc -eq 0 ] && [ "${line#* passed, }" = "0 failed" ] &&
	   ! grep -q -E 'runtime error|Sanitizer' "$tmp/$name.err"; then
		pass "$name: $n damaged copies read as the catalogue says"
		tail -n 2 "$tmp/$name.log" | head -n 1
	else
		cases_failed=$((cases_failed + 1))
		fail "$name: exit $rc: $line"
		grep -E '^FAIL' "$tmp/$name.log" | head -10
		head -5 "$tmp/$name.err"
	fi
}

# Three snapshots of one system: cut at every offset, every byte of the
# middle block's structures flipped, every 5th of the others' (and into
# win-cpu, every 13th offset and byte); two systems
# interleaved, every 11th offset and byte; the
# real Windows blocks where ../shared has them, every offset and byte.
gen --seed=4 --framing=perf --sources=SYSA --intervals=3 -o "$tmp/perf3.dat" &&
	perf_catalogue perf3 perf3.dat --byte-step=5 &&
	perf_catalogue perf3-cpu perf3.dat --report=win-cpu --step=13 --byte-step=13 --full-block=-1
gen --seed=5 --framing=perf --sources=SYSA,SYSB --intervals=2 -o "$tmp/perf2x2.dat" &&
	perf_catalogue perf2x2 perf2x2.dat --step=11 --byte-step=11 --full-block=-1
real=${REAL_PERF_DIR:-$top_srcdir/../shared/data/real-perf}
if [ -f "$real/sample_system_perf_data_block.bin" ]; then
	cat "$real/sample_system_perf_data_block.bin" \
		"$real/sample_processor_perf_data_block.bin" > "$tmp/real.perf"
	perf_catalogue real-perf real.perf
fi

# not_a_dump NAME FILE RC CAUSE: pmimrpt refuses or reads nothing, says why
# with the file and offset 0, or (for nothing to read) in a warning of the
# run, and accounts every byte
not_a_dump() {
	name=$1 file=$2 want=$3 cause=$4
	cases=$((cases + 1))
	rc=0
	$TIMEOUT $WRAP "$PMIMRPT" "$file" > "$tmp/$name.out" 2> "$tmp/$name.err" || rc=$?
	size=$(wc -c < "$file")
	summary=$(grep -E '^pmimrpt: [0-9]+ files?, ' "$tmp/$name.err" | tail -n 1)
	used=$(echo "$summary" | sed -n 's/.* \([0-9]*\) used, \([0-9]*\) skipped, \([0-9]*\) damaged.*/\1 \2 \3/p')
	# a compressed file's bytes are those it decoded to
	case $summary in *" bytes ($size compressed): "*)
		size=$(echo "$summary" | sed -n 's/^pmimrpt: [0-9]* files*, \([0-9]*\) bytes .*/\1/p') ;;
	esac
	# shellcheck disable=SC2086 # three numbers
	set -- $used
	why=
	if [ $rc -ne "$want" ]; then
		why="exit $rc, wanted $want"
	elif [ $# -ne 3 ] || [ $(($1 + $2 + $3)) -ne "$size" ]; then
		why="accounting: $size bytes, summary '$summary'"
	elif ! grep -q "^pmimrpt: $file: offset 0 (0x0): error: .*$cause" "$tmp/$name.err" &&
		! grep -q "^pmimrpt: warning: $cause\$" "$tmp/$name.err"; then
		why="no message naming $file at offset 0, nor a warning: $cause"
	elif grep -q -E 'runtime error|Sanitizer' "$tmp/$name.err"; then
		why="a sanitizer report"
	fi
	if [ -z "$why" ]; then
		pass "$name: exit $rc, every byte accounted for"
	else
		cases_failed=$((cases_failed + 1))
		fail "$name: $why"
		head -3 "$tmp/$name.err"
	fi
}

gen --seed=2 --framing=rdw --intervals=4 -o "$tmp/whole.dat"
# gzip twice: the outer one is decoded as it is read (unless built without
# zlib: then the outer one is refused)
gzip -c "$tmp/whole.dat" | gzip -c > "$tmp/dump.dat.gz.gz"
not_a_dump gzip "$tmp/dump.dat.gz.gz" 8 "looks gzip-compressed"
# a text-mode transfer: EBCDIC turned into ASCII text, lines and all
gen --seed=2 --framing=rdw --intervals=4 -o /dev/null --truth="$tmp/text.dat"
not_a_dump text "$tmp/text.dat" 8 "looks like ASCII text"
: > "$tmp/empty.dat"
not_a_dump empty "$tmp/empty.dat" 4 "nothing selected: the input is empty"
not_a_dump devnull /dev/null 4 "nothing selected: the input is empty"

echo "catalogue: $cases cases in all"
echo "$((cases - cases_failed)) passed, $cases_failed failed"
[ $cases_failed -eq 0 ] && [ $failures -eq 0 ]
