#!/bin/sh
# json.sh: --format=json and --columns. Every built-in report on the
# bundled samples as JSON lines, each line parsed by python3's json and by
# jq, and its values compared with the CSV's field by field
# (tests/json_compare.py, which also writes each line again from what it
# parsed, as Python's json.dumps does, and wants the same bytes); source
# names of every byte value 1..255 and of ill-formed UTF-8, escaped as
# Python escapes them; --columns on CSV, text and JSON, and what it
# refuses. Skipped without python3 or jq.
. "${top_srcdir:-.}/tests/lib.sh"
for tool in python3 jq; do
	if ! command -v $tool > /dev/null 2>&1; then
		echo "SKIP: $tool is not installed (the JSON lines are checked with python3 and jq)"
		exit 77
	fi
done
data=$top_srcdir/data
compare=$top_srcdir/tests/json_compare.py

# as_json NAME OPTION...: the report as CSV and as JSON lines, with the
# same exit code, compared by python and parsed by jq, every line an object
as_json() {
	name=$1
	shift
	rc_csv=0 rc_json=0
	rpt -q "$@" > "$tmp/$name.csv" 2> /dev/null || rc_csv=$?
	rpt -q --format=json "$@" > "$tmp/$name.json" 2> /dev/null || rc_json=$?
	if [ $rc_csv -ne $rc_json ] || [ $rc_csv -gt 4 ]; then
		fail "$name: exit $rc_json as JSON, $rc_csv as CSV"
		return
	fi
	if python3 "$compare" "$tmp/$name.csv" "$tmp/$name.json" > "$tmp/$name.cmp"; then
		pass "$name: python: $(cat "$tmp/$name.cmp")"
	else
		fail "$name: python: $(cat "$tmp/$name.cmp")"
	fi
	rows=$(python3 -c 'import csv, sys; print(len(list(csv.reader(open(sys.argv[1], newline="", encoding="latin-1")))) - 1)' "$tmp/$name.csv")
	if [ "$(jq -s 'map(select(type == "object")) | length' "$tmp/$name.json")" = "$rows" ]; then
		pass "$name: jq reads $rows objects"
	else
		fail "$name: jq does not read $rows objects"
	fi
}

for input in smf-rdw smf-bdw pm faults; do
	for report in intervals waits cpu tasks summary; do
		as_json "$report-$input" --report=$report "$data/sample-$input.dat"
	done
done
as_json waits-hour --report=waits --by=hour "$data/sample-smf-rdw.dat"
as_json summary-day --report=summary --by=day "$data/sample-faults.dat"
as_json cpu-interval --report=cpu --by=interval "$data/sample-faults.dat"
as_json tasks-zone --report=tasks --by=hour --timezone=Europe/Berlin "$data/sample-smf-bdw.dat"
as_json intervals-cv --report=intervals --cv-field=22,8 "$data/sample-smf-bdw.dat"
for report in perf win-cpu win-disk; do
	as_json "$report-names" --report=$report --perf-names="$data/sample-perf.names.txt" "$data/sample-perf.bin"
	as_json "$report-interval" --report=$report --by=interval "$data/sample-perf.bin"
done

# The inventory writes CSV itself: JSON is refused, as text is.
expect_rc 12 rpt --format=json --report=inventory "$data/sample-pm.dat"
has_line "$tmp/last.err" "the inventory report is CSV only, not --format=json" "inventory: JSON refused"
[ -s "$tmp/last.out" ] && fail "inventory: nothing written" || pass "inventory: nothing written"
expect_rc 12 rpt --format=json --partial -o "$tmp/p.part" "$data/sample-pm.dat"
has_line "$tmp/last.err" "not --format=json" "--partial: JSON refused"
expect_rc 12 rpt --format=json --asa "$data/sample-pm.dat"

# Source names of odd bytes: a PM stream takes the first --source as its
# source's name. Every byte 1..255 (NUL cannot be in an argument: the unit
# test has it), in names of at most 43 bytes, and ill-formed UTF-8: a stray
# continuation byte, sequences cut short (at the end, too), overlong forms,
# a surrogate, a code point past U+10FFFF; then well-formed ones.
# bytes A B: the bytes A..B as printf octal escapes
bytes() {
	awk -v a="$1" -v b="$2" 'BEGIN { for (i = a; i <= b; i++) printf "\\%03o", i }'
}
n=0
for name in "$(bytes 1 43)" "$(bytes 44 86)" "$(bytes 87 127)" "$(bytes 128 170)" \
	"$(bytes 171 213)" "$(bytes 214 255)" \
	'q"uo\\\\te\\\\"' '\200x\277' 'a\342\202' '\342\202x\360\237\230' '\300\257\340\200\257' \
	'\355\240\200\355\277\277' '\364\220\200\200\370\210\200\200\200' '\301\277\365\377' \
	'caf\303\251 \342\202\254 \360\237\230\200 \357\277\275' 'tab\there\nnew\rline\177'; do
	n=$((n + 1))
	label=$(printf "${name}@")  # @ keeps a last line feed from $(...)
	label=${label%@}
	as_json "name$n" --report=cpu --framing=pm --source="$label" "$data/sample-pm.dat"
	# jq's reading of the name is the CSV's bytes, decoded as python does
	jq -j '.source' "$tmp/name$n.json" > "$tmp/name$n.jq"
	if python3 -c '
import csv, sys
with open(sys.argv[1], newline="", encoding="latin-1") as f:
    field = list(csv.reader(f))[1][0]
want = field.encode("latin-1").decode("utf-8", "replace").encode("utf-8")
sys.exit(open(sys.argv[2], "rb").read() != want or field.encode("latin-1") != sys.argv[3].encode("utf-8", "surrogateescape"))
' "$tmp/name$n.csv" "$tmp/name$n.jq" "$label"; then
		pass "name $n: jq reads the name the CSV holds, which is the one given"
	else
		fail "name $n: jq reads another name, or the CSV holds another"
	fi
done

# --columns: a subset in another order, in CSV, JSON and text.
# picked FULL.csv PICKED.csv COLUMNS: PICKED holds the columns of FULL named,
# in that order
picked() {
	python3 -c '
import csv, sys
full = list(csv.reader(open(sys.argv[1], newline="")))
got = list(csv.reader(open(sys.argv[2], newline="")))
names = sys.argv[3].split(",")
want = [[row[full[0].index(c)] for c in names] for row in full]
sys.exit(got != want)
' "$1" "$2" "$3"
}
sample=$data/sample-smf-rdw.dat
for case in "waits bucket,source,avg_wait_ms,waits" "summary top3_bucket,intervals,source" \
	"intervals end,start,INTDBIR_waits,parts" "perf value,counter,source"; do
	set -- $case
	input=$sample
	[ "$1" = perf ] && input=$data/sample-perf.bin
	rpt -q --report=$1 "$input" > "$tmp/full.csv"
	rpt -q --report=$1 --columns=$2 "$input" > "$tmp/cols.csv"
	if picked "$tmp/full.csv" "$tmp/cols.csv" "$2"; then
		pass "--columns=$2: the columns of --report=$1, in that order"
	else
		fail "--columns=$2: not the columns of --report=$1 in that order"
	fi
	as_json "columns-$1" --report=$1 --columns=$2 "$input"
done
# the text format: headings in the order named; the key column leads
rpt -q --report=waits --format=text --columns=source,bucket,waits "$sample" > "$tmp/cols.txt"
has_line "$tmp/cols.txt" '^source  bucket      waits$' "--columns, text: the headings named"
has_line "$tmp/cols.txt" '^SYSA    INTDBIR  12938345$' "--columns, text: their values"
# the summary's top block named whole, in order, at the end: still a table
top=$(rpt -q --report=summary "$sample" | head -1 | tr , '\n' | grep '^top' | paste -s -d , -)
rpt -q --report=summary --format=text --columns=source,intervals,$top "$sample" > "$tmp/top.txt"
has_line "$tmp/top.txt" '^bucket   description  *waits   total_wait_s  avg_wait_ms  peak_wait_ms$' \
	"--columns, text: the top block whole stays a table"
has_line "$tmp/top.txt" '^INTTPIR  TPIO READ WAIT  *2274500  768591.358200      337.917     18755.200$' \
	"--columns, text: the top table's first rank"
# a name the report lacks, or a name twice: usage errors before any input
# is read (the input does not exist), naming the report's columns
expect_rc 12 rpt --report=tasks --columns=tasks_started,nonesuch "$tmp/missing.dat"
has_line "$tmp/last.err" "^pmimrpt: --columns: the report has no column 'nonesuch'; its columns: source, intervals, elapsed_s, tasks_started, tasks_ended, tasks_started_per_s$" "--columns: unknown name"
grep -q "missing.dat" "$tmp/last.err" && fail "--columns: said before reading" || pass "--columns: said before reading"
expect_rc 12 rpt --report=tasks --columns=source,intervals,source "$sample"
has_line "$tmp/last.err" "^pmimrpt: --columns names 'source' twice$" "--columns: a name twice"
expect_rc 12 rpt --report=tasks --columns=source,,intervals "$sample"
has_line "$tmp/last.err" "an empty column name" "--columns: an empty name"
# a failed run leaves the output it would have replaced as it was
echo keep > "$tmp/out.csv"
expect_rc 12 rpt --report=cpu --columns=nonesuch -o "$tmp/out.csv" "$sample"
[ "$(cat "$tmp/out.csv")" = keep ] && pass "--columns: -o FILE kept" || fail "--columns: -o FILE kept"
# --partial keeps every column: --columns goes to the merge
expect_rc 12 rpt --partial --report=waits --columns=waits -o "$tmp/w.part" "$sample"
has_line "$tmp/last.err" "give --columns to --merge" "--columns: refused with --partial"
expect_rc 0 rpt -q --partial --report=waits --by=hour -o "$tmp/w.part" "$sample"
expect_rc 0 rpt -q --merge --report=waits --by=hour --columns=period_start,bucket,waits "$tmp/w.part"
rpt -q --report=waits --by=hour "$sample" > "$tmp/full.csv"
picked "$tmp/full.csv" "$tmp/last.out" period_start,bucket,waits &&
	pass "--columns with --merge" || fail "--columns with --merge"
# with --jobs, the threads' reports keep every column; the merged one picks
expect_rc 0 rpt -q --jobs=2 --report=cpu --columns=cpu_s,source "$sample" "$data/sample-pm.dat"
rpt -q --report=cpu "$sample" "$data/sample-pm.dat" > "$tmp/full.csv"
picked "$tmp/full.csv" "$tmp/last.out" cpu_s,source &&
	pass "--columns with --jobs" || fail "--columns with --jobs"
expect_rc 12 rpt --report=inventory --columns=kind "$sample"
has_line "$tmp/last.err" "--columns does not apply" "--columns: refused for the inventory"
finish
