#!/bin/sh
# startup.sh: what a run that draws no chart and writes no database
# loads. Cairo, Pango and what they need (GLib, HarfBuzz, fontconfig,
# FreeType) took most of the start-up time of a run on an empty input,
# which a Slurm array of small files pays for each, and libsqlite3 (bound
# at load) most of the rest; they are the chart module's
# (pmimrpt-charts.so) and the SQLite module's (pmimrpt-sqlite.so), loaded
# only to draw or to write a database. pmimrpt needs none of them, a CSV
# run loads none of them, a chart run loads the chart module and a
# --format=sqlite run the SQLite module. libcsv, where configure found its
# soname (CSV_SONAME), is loaded by the first CSV field that needs quoting,
# which most runs never write: a run on an empty input does not load it.
# Nor does it load iconv's module of the default code page, which the
# first SMF record's system id needs.
. "${top_srcdir:-.}/tests/lib.sh"

csv_lazy=false
grep -q '^#define CSV_SONAME ' "$top_builddir/config.h" 2>/dev/null && csv_lazy=true

chart_libs='lib(cairo|pango|glib|gobject|harfbuzz|fontconfig|freetype)'
if command -v readelf > /dev/null; then
	readelf -d "$PMIMRPT" > "$tmp/dynamic"
	if grep -E "NEEDED.*$chart_libs" "$tmp/dynamic"; then
		fail "pmimrpt needs none of the chart libraries"
	else
		pass "pmimrpt needs none of the chart libraries"
	fi
	if grep -E "NEEDED.*libsqlite3" "$tmp/dynamic"; then
		fail "pmimrpt does not need libsqlite3"
	else
		pass "pmimrpt does not need libsqlite3"
	fi
	if ! $csv_lazy; then
		echo "note: libcsv linked (configure found no soname to load it by)"
	elif grep -E "NEEDED.*libcsv" "$tmp/dynamic"; then
		fail "pmimrpt does not need libcsv"
	else
		pass "pmimrpt does not need libcsv"
	fi
else
	echo "note: no readelf (binutils): what pmimrpt needs is not looked at"
fi

# what the dynamic loader loads (glibc's LD_DEBUG), when the program runs
# here as it is (not under valgrind or an emulator)
: > "$tmp/empty"
if [ -n "$WRAP" ]; then
	echo "note: run through '$WRAP': what it loads is not looked at"
elif LD_DEBUG=libs "$PMIMRPT" --report=waits "$tmp/empty" 2> "$tmp/libs" > /dev/null
	! grep -q 'calling init' "$tmp/libs"; then
	echo "note: the dynamic loader does not say what it loads (LD_DEBUG): not looked at"
else
	if grep -E "$chart_libs" "$tmp/libs" | head -3 | grep .; then
		fail "a CSV run on an empty input loads none of the chart libraries"
	else
		pass "a CSV run on an empty input loads none of the chart libraries"
	fi
	if grep -E 'libsqlite3|pmimrpt-sqlite' "$tmp/libs" | head -3 | grep .; then
		fail "a CSV run on an empty input loads neither libsqlite3 nor the SQLite module"
	else
		pass "a CSV run on an empty input loads neither libsqlite3 nor the SQLite module"
	fi
	if grep -E '/gconv/' "$tmp/libs" | head -3 | grep .; then
		fail "a CSV run on an empty input loads no code page (iconv's module)"
	else
		pass "a CSV run on an empty input loads no code page (iconv's module)"
	fi
	LD_DEBUG=libs "$PMIMRPT" -q --report=waits "$top_srcdir/data/sample-smf-rdw.dat" \
		2> "$tmp/smf.libs" > "$tmp/smf.csv"
	has_line "$tmp/smf.libs" "calling init: .*/gconv/" "an SMF dump's run loads its code page"
	has_line "$tmp/smf.csv" "^SYSA,INTDBIR," "its system ids converted from EBCDIC"
	if $csv_lazy; then
		if grep -E 'libcsv' "$tmp/libs" | head -3 | grep .; then
			fail "a CSV run on an empty input does not load libcsv"
		else
			pass "a CSV run on an empty input does not load libcsv"
		fi
		# a wait bucket's description with a comma and quotes: RFC 4180
		# quotes the field and doubles the quotes (through libcsv)
		sed 's/DBIO READ WAIT$/DBIO READ WAIT, "DISK"/' "$top_srcdir/copybooks/pmintds.lst" \
			> "$tmp/quoted.lst"
		LD_DEBUG=libs "$PMIMRPT" -q --copybook="$tmp/quoted.lst" --report=waits \
			"$top_srcdir/data/sample-pm.dat" 2> "$tmp/libs" > "$tmp/quoted.csv"
		has_line "$tmp/libs" "calling init: .*/libcsv" "a field that needs quoting loads libcsv"
		has_line "$tmp/quoted.csv" '^,INTDBIR,"DBIO READ WAIT, ""DISK""",[0-9]' \
			"the field is quoted, its quotes doubled"
	fi
	if LD_DEBUG=libs "$PMIMRPT" -q --report=cpu --by=hour --format=svg --source=SYSA \
		"$top_srcdir/data/sample-smf-rdw.dat" 2> "$tmp/libs" > "$tmp/cpu.svg"; then
		has_line "$tmp/libs" "calling init: .*/pmimrpt-charts.so" "a chart run loads the chart module"
	elif grep -q 'without Cairo' "$tmp/libs"; then
		echo "note: pmimrpt was built without Cairo: no chart run"
	else
		fail "a chart run"; tail -3 "$tmp/libs"
	fi
	if LD_DEBUG=libs "$PMIMRPT" -q --format=sqlite -o "$tmp/run.db" "$tmp/empty" \
		2> "$tmp/libs"; [ $? -le 4 ]; then
		has_line "$tmp/libs" "calling init: .*/pmimrpt-sqlite.so" "a --format=sqlite run loads the SQLite module"
	elif grep -q 'built without SQLite' "$tmp/libs"; then
		echo "note: pmimrpt was built without SQLite: no --format=sqlite run"
	else
		fail "a --format=sqlite run"; tail -3 "$tmp/libs"
	fi
fi
finish
