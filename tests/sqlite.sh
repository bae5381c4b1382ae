#!/bin/sh
# sqlite.sh: --format=sqlite, read back with the sqlite3 program. Every
# built-in report's table holds the CSV's fields, typed as its definition
# says (text= TEXT, decimals= REAL, counts INTEGER; keys TEXT), an empty
# field as NULL; the row's key is the primary key; a job run twice leaves
# the same rows, a later run over the same periods replaces theirs, and a
# failed (exit 8) or killed run leaves the database as it was; a table of
# another definition or grouping is refused, and so is standard output.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

data=$top_srcdir/data
names=$data/sample-perf.names.txt
if ! command -v sqlite3 > /dev/null; then
	echo "SKIP: no sqlite3 program"
	exit 77
fi
if rpt -q --format=sqlite -o "$tmp/probe.db" "$data/sample-pm.dat" --framing=pm 2>&1 |
	grep -q 'built without SQLite'; then
	echo "SKIP: pmimrpt was built without SQLite (--format=sqlite)"
	exit 77
fi
q() { sqlite3 -batch "$@"; }

# want_types RPT: "COLUMN-REGEX TYPE" lines from the definition alone:
# the group key and text= columns TEXT, decimals= REAL, the others
# INTEGER; an "each bucket" block's %L names and a "top N" block's
# columns (topK_NAME) as patterns.
want_types() {
	awk '
		BEGIN { print "^(source|period_start|period_end)$ TEXT" }
		/^each / { block = "each"; next }
		/^top / { block = "top"; next }
		/^end/ { block = ""; next }
		$1 != "column" { next }
		{
			type = "INTEGER"
			for (i = 3; i <= NF; i++) {
				if ($i ~ /^text=/) type = "TEXT"
				if ($i ~ /^decimals=[1-9]/ && type != "TEXT") type = "REAL"
			}
			name = $2
			if (block == "each") { sub(/%L/, ".+", name) }
			if (block == "top") name = "top[0-9]+_" name
			print "^" name "$ " type
		}' "$1"
}

# check_table DB TABLE CSV RPT [JOIN]: the table holds the CSV's rows,
# each row matched by JOIN (by default in order: in a fresh table rowid is
# the row's number), field by field: an empty field is NULL, a text field
# the same text, a number of the type the definition says and equal to the
# value its digits read as.
check_table() {
	db=$1 table=$2 csv=$3 def=$4 join=${5:-t.rowid = c.rowid}
	want_types "$def" > "$tmp/types"
	header=$(head -1 "$csv")
	cond=""
	for col in $(echo "$header" | tr ',' ' '); do
		type=$(awk -v c="$col" '{ re = $1; if (c ~ re) { print $2; exit } }' "$tmp/types")
		[ -n "$type" ] || { fail "$table: no type for column $col in $def"; return; }
		if [ "$type" = TEXT ]; then
			same="t.\"$col\" = c.\"$col\""
		else
			same="t.\"$col\" = CAST(c.\"$col\" AS $type)"
		fi
		# an empty key (the instance of an object without instances) is ''
		cond="$cond OR CASE WHEN c.\"$col\" = '' THEN t.\"$col\" IS NOT NULL AND
			NOT (t.\"$col\" = '' AND (SELECT pk FROM pragma_table_info('$table') WHERE name = '$col'))
			ELSE typeof(t.\"$col\") <> lower('$type') OR NOT ($same) END"
	done
	out=$(q "$db" ".import --csv $csv csv_in" \
		"SELECT (SELECT count(*) FROM \"$table\") - (SELECT count(*) FROM csv_in);" \
		"SELECT count(*) - (SELECT count(*) FROM csv_in) FROM \"$table\" t JOIN csv_in c ON $join;" \
		"SELECT count(*) FROM \"$table\" t JOIN csv_in c ON $join WHERE 0 $cond;" \
		"DROP TABLE csv_in;" 2>&1)
	if [ "$out" = "0
0
0" ]; then
		pass "$table: $(($(wc -l < "$csv") - 1)) rows, every field of the CSV, typed as $(basename "$def") says"
	else
		fail "$table: rows or fields differ from the CSV: $out"
	fi
}

# ---- every built-in report, on the bundled samples
db=$tmp/all.db
for spec in "intervals|" "waits|--by=hour" "cpu|--by=hour" "tasks|--by=day" \
	"summary|--by=hour" "perf|--by=hour" "win-cpu|--by=interval" "win-disk|"; do
	report=${spec%%|*} opts=${spec#*|}
	case $report in
	perf | win-*) input="--perf-names=$names $data/sample-perf.bin" ;;
	*) input=$data/sample-smf-rdw.dat ;;
	esac
	# shellcheck disable=SC2086 # options are words
	rpt -q --report="$report" $opts $input > "$tmp/$report.csv"
	# shellcheck disable=SC2086
	expect_rc 0 rpt -q --report="$report" $opts --format=sqlite -o "$db" $input
	check_table "$db" "$report" "$tmp/$report.csv" "$top_srcdir/reports/$report.rpt"
done
nulls=$(q "$db" "SELECT count(*) FROM waits WHERE avg_wait_ms IS NULL")
[ "$nulls" -gt 0 ] && pass "waits: $nulls averages over no waits are NULL" ||
	fail "waits: no NULL average, the check of empty fields saw none"
has() { if [ "$(q "$1" "$2")" = "$3" ]; then pass "$4"; else fail "$4: $(q "$1" "$2")"; fi; }
has "$db" "SELECT group_concat(name, ',') FROM (SELECT name FROM pragma_table_info('waits') WHERE pk > 0 ORDER BY pk)" \
	source,period_start,period_end,bucket "waits: the primary key is source, period and bucket"
has "$db" "SELECT group_concat(name, ',') FROM (SELECT name FROM pragma_table_info('intervals') WHERE pk > 0 ORDER BY pk)" \
	source,start "intervals: the primary key is source and start"
has "$db" "SELECT group_concat(name, ',') FROM (SELECT name FROM pragma_table_info('perf') WHERE pk > 0 ORDER BY pk)" \
	source,period_start,period_end,object,instance,counter,type "perf: the primary key is source, period, object, instance, counter and type"
has "$db" "SELECT group_concat(name, ',') FROM (SELECT name FROM pragma_table_info('win-cpu') WHERE pk > 0 ORDER BY pk)" \
	source,period_start,period_end,instance "win-cpu: the primary key is source, period and instance"
if q "$db" "INSERT INTO waits SELECT * FROM waits LIMIT 1" 2> "$tmp/dup.err"; then
	fail "waits: a duplicate row went in"
else
	has_line "$tmp/dup.err" "UNIQUE constraint failed" "waits: a duplicate row is refused by the key"
fi
has "$db" "SELECT count(*) || ' ' || group_concat(exit_code, ',') FROM runs" "8 0,0,0,0,0,0,0,0" \
	"runs: one row per run, each with its exit code"
has "$db" "SELECT name || ' ' || bytes FROM run_inputs WHERE run_id = 2" \
	"$data/sample-smf-rdw.dat $(wc -c < "$data/sample-smf-rdw.dat")" "run_inputs: the input and its size"
has "$db" "SELECT bytes_read || ' ' || intervals || ' ' || rows FROM runs JOIN run_tables USING (run_id) WHERE name = 'intervals'" \
	"$(wc -c < "$data/sample-smf-rdw.dat") 192 192" "runs: the bytes read, the intervals and the table's rows"

# ---- the same job twice: the same rows, two runs
db=$tmp/twice.db
expect_rc 0 rpt -q --report=waits --by=hour --format=sqlite -o "$db" "$data/sample-smf-rdw.dat"
q "$db" ".dump waits pmimrpt_tables" > "$tmp/once.dump"
expect_rc 0 rpt -q --report=waits --by=hour --format=sqlite -o "$db" "$data/sample-smf-rdw.dat"
q "$db" ".dump waits pmimrpt_tables" > "$tmp/twice.dump"
same "$tmp/once.dump" "$tmp/twice.dump" "the same job twice leaves the same tables"
has "$db" "SELECT count(*) FROM runs" 2 "the same job twice: two runs"

# ---- a later run over the same hours replaces their rows: A covers
# 00:00 to 12:00, B (other figures) 06:00 to 18:00
gen --seed=1 --start="2025-03-03 00:00" --startup-delay=0 --intervals=48 -o "$tmp/a.dat"
gen --seed=2 --start="2025-03-03 06:00" --startup-delay=0 --intervals=48 -o "$tmp/b.dat"
db=$tmp/overlap.db
for x in a b; do
	rpt -q --report=waits --by=hour "$tmp/$x.dat" > "$tmp/$x.csv"
	expect_rc 0 rpt -q --report=waits --by=hour --format=sqlite -o "$db" "$tmp/$x.dat"
done
# what the table must hold: A's hours before 06:00, then all of B's
{ head -1 "$tmp/a.csv"; awk -F, 'NR > 1 && $2 < "2025-03-03 06"' "$tmp/a.csv"; tail -n +2 "$tmp/b.csv"; } \
	> "$tmp/overlap.csv"
check_table "$db" waits "$tmp/overlap.csv" "$top_srcdir/reports/waits.rpt" \
	"t.source = c.source AND t.period_start = c.period_start AND t.bucket = c.bucket"
has "$db" "SELECT count(*) FROM waits" $((18 * 34)) "18 hours of 34 buckets, no hour twice"

# ---- a failed run (exit 8) leaves the database byte for byte as it was
printf 'these are not records\n' > "$tmp/junk.dat"
cp "$db" "$tmp/before.db"
expect_rc 8 rpt -q --report=waits --by=hour --format=sqlite -o "$db" "$data/sample-smf-rdw.dat" "$tmp/junk.dat"
same "$tmp/before.db" "$db" "exit 8: the database is as it was, its new rows rolled back"
[ ! -e "$db-journal" ] && pass "exit 8: no journal left" || fail "exit 8: a journal is left"

# ---- a table written otherwise is refused, the database left as it was
mkdir -p "$tmp/defs"
sed 's/^column waits_per_s .*/& scale=60/' "$top_srcdir/reports/waits.rpt" > "$tmp/defs/waits.rpt"
expect_rc 12 rpt -q --report-dir="$tmp/defs" --report=waits --by=hour --format=sqlite -o "$db" "$tmp/a.dat"
has_line "$tmp/last.err" "table 'waits' was written with another report definition" \
	"another definition of the report: refused, said"
expect_rc 12 rpt -q --report=waits --by=day --format=sqlite -o "$db" "$tmp/a.dat"
has_line "$tmp/last.err" "another grouping (--by)" "another grouping: refused, said"
same "$tmp/before.db" "$db" "refused runs leave the database as it was"
printf 'source,x\n' > "$tmp/not.db"
expect_rc 16 rpt -q --report=waits --format=sqlite -o "$tmp/not.db" "$tmp/a.dat"
has_line "$tmp/last.err" "not.db: .*not a database" "a file that is no database: exit 16, said"

# ---- what --format=sqlite refuses
expect_rc 12 rpt -q --format=sqlite "$tmp/a.dat"
has_line "$tmp/last.err" "needs -o FILE.db, not standard output" "standard output: refused"
expect_rc 12 rpt -q --format=sqlite -o - "$tmp/a.dat"
expect_rc 12 rpt -q --format=sqlite --partial -o "$tmp/p.db" "$tmp/a.dat"
expect_rc 12 rpt -q --format=sqlite --report=inventory -o "$tmp/p.db" "$tmp/a.dat"
expect_rc 12 rpt -q --format=sqlite -o "$tmp/a.dat" "$tmp/a.dat"
[ ! -e "$tmp/p.db" ] && pass "refused runs make no database" || fail "a refused run made a database"

# ---- --merge: the merged report's table is the single run's (A, and C
# the 12 hours after it)
gen --seed=4 --start="2025-03-03 12:00" --startup-delay=0 --intervals=48 -o "$tmp/c.dat"
for x in a c; do
	rpt -q --partial --report=waits --by=hour -o "$tmp/$x.part" "$tmp/$x.dat"
done
expect_rc 0 rpt -q --report=waits --by=hour --format=sqlite -o "$tmp/single.db" "$tmp/a.dat" "$tmp/c.dat"
expect_rc 0 rpt -q --merge --report=waits --by=hour --format=sqlite -o "$tmp/merged.db" "$tmp/a.part" "$tmp/c.part"
q "$tmp/single.db" ".dump waits" > "$tmp/single.dump"
q "$tmp/merged.db" ".dump waits" > "$tmp/merged.dump"
same "$tmp/single.dump" "$tmp/merged.dump" "--merge writes the single run's table"

# ---- --jobs: the same table
expect_rc 0 rpt -q -j2 --report=waits --by=hour --format=sqlite -o "$tmp/jobs.db" "$tmp/a.dat" "$tmp/c.dat"
q "$tmp/jobs.db" ".dump waits" > "$tmp/jobs.dump"
same "$tmp/single.dump" "$tmp/jobs.dump" "--jobs=2 writes the single run's table"

# ---- a run waits while another holds the database: here sqlite3, for
# two seconds
(echo "BEGIN IMMEDIATE; SELECT 'locked';"; sleep 2; echo "COMMIT;") |
	sqlite3 "$tmp/single.db" > "$tmp/lock.out" &
lock=$!
n=0
until [ -s "$tmp/lock.out" ] || [ $n -ge 100 ]; do sleep 0.1; n=$((n + 1)); done
started=$(date +%s)
expect_rc 0 rpt -q --report=waits --by=hour --format=sqlite -o "$tmp/single.db" "$tmp/a.dat"
waited=$(($(date +%s) - started))
wait "$lock"
[ "$waited" -ge 1 ] && pass "a run waited ${waited}s for another's transaction, then loaded" ||
	fail "a run did not wait for another's transaction (${waited}s)"

# ---- no module: the SQLite module (pmimrpt-sqlite.so) is looked for
# next to the program, then in $(pkglibdir): a copy of pmimrpt alone in a
# folder refuses --format=sqlite before it reads anything (the input is
# not there), naming both files, and neither makes the database nor
# touches one
pkglibdir=${pkglibdir:-}
if [ -z "$pkglibdir" ] || [ -e "$pkglibdir/pmimrpt-sqlite.so" ]; then
	echo "note: \$pkglibdir (make check gives it) unknown or holding a SQLite module: not tested without one"
else
	mkdir "$tmp/alone"
	cp "$PMIMRPT" "$tmp/alone/pmimrpt"
	expect_rc 12 $WRAP "$tmp/alone/pmimrpt" -q --format=sqlite -o "$tmp/alone/new.db" \
		"$tmp/not-there.dat"
	has_line "$tmp/last.err" "^pmimrpt: --format=sqlite is written by pmimrpt-sqlite.so, which could not be loaded: $tmp/alone/pmimrpt-sqlite.so: .*; $pkglibdir/pmimrpt-sqlite.so: " \
		"no SQLite module: refused, naming the files tried"
	if [ "$(wc -l < "$tmp/last.err")" -eq 1 ]; then
		pass "no SQLite module: one message, and no input read"
	else
		fail "no SQLite module: one message, and no input read"; cat "$tmp/last.err"
	fi
	if [ -e "$tmp/alone/new.db" ]; then
		fail "no SQLite module: no database made"
	else
		pass "no SQLite module: no database made"
	fi
	cp "$tmp/twice.db" "$tmp/alone/old.db"
	expect_rc 12 $WRAP "$tmp/alone/pmimrpt" -q --format=sqlite -o "$tmp/alone/old.db" \
		"$data/sample-smf-rdw.dat"
	same "$tmp/twice.db" "$tmp/alone/old.db" "no SQLite module: the database left as it was"
	ls "$tmp/alone" > "$tmp/alone.ls"
	printf 'old.db\npmimrpt\n' > "$tmp/alone.want"
	same "$tmp/alone.want" "$tmp/alone.ls" "no SQLite module: no journal beside it"
fi

# ---- kill -9 in the middle of a load: the journal rolls it back. The
# intervals report writes a row per interval as it is read, from a FIFO
# fed half of a dump (7 MB: past the 2 MB page cache, so that pages are
# written to the file); pmimrpt is killed while it waits for the rest.
db=$tmp/kill.db
expect_rc 0 rpt -q --format=sqlite -o "$db" "$data/sample-smf-rdw.dat"
cp "$db" "$tmp/kill-before.db"
gen --seed=3 --start="2025-04-01 00:00" --interval=60 --intervals=20000 -o "$tmp/big.dat"
mkfifo "$tmp/fifo"
# shellcheck disable=SC2086 # the wrapper's words
(exec $WRAP "$PMIMRPT" -q --format=sqlite -o "$db" "$tmp/fifo" 2> "$tmp/kill.err") &
pid=$!
exec 3> "$tmp/fifo"
head -c $(($(wc -c < "$tmp/big.dat") / 2)) "$tmp/big.dat" >&3
# rows are going in once the database grows past its cache (a minute at
# most, for slow sanitizer builds)
n=0
while [ "$(wc -c < "$db")" -le "$(wc -c < "$tmp/kill-before.db")" ] && [ $n -lt 600 ]; do
	sleep 0.1
	n=$((n + 1))
done
if [ "$(wc -c < "$db")" -gt "$(wc -c < "$tmp/kill-before.db")" ] && [ -s "$db-journal" ]; then
	pass "mid-load: rows written into the database file, a journal beside it"
else
	fail "mid-load: the database did not grow ($(wc -c < "$db") bytes)"
fi
kill -9 "$pid"
wait "$pid" 2> /dev/null
exec 3>&-
has "$db" "PRAGMA integrity_check" ok "after kill -9: the database is sound"
has "$db" "SELECT count(*) FROM intervals" 192 "after kill -9: the rows are the earlier run's"
has "$db" "SELECT count(*) FROM runs" 1 "after kill -9: no run recorded"
q "$tmp/kill-before.db" .dump > "$tmp/kill-before.dump"
q "$db" .dump > "$tmp/kill-after.dump"
same "$tmp/kill-before.dump" "$tmp/kill-after.dump" "after kill -9: the database holds what it held"

finish
