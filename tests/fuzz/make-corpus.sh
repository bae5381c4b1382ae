#!/bin/sh
# make-corpus.sh: write the fuzzers' seed corpus (tests/fuzz/corpus/) from
# small pmimgen datasets of every framing and the built-in report
# definitions. The files are kept in the tree; run this only to remake them.
#
# usage: tests/fuzz/make-corpus.sh PMIMGEN [CORPUS-DIR]
# (the partial seeds are written with the pmimrpt beside PMIMGEN)
set -eu
gen=$1
rpt=$(dirname "$gen")/pmimrpt
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${2:-$top/tests/fuzz/corpus}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out/framing" "$out/smf" "$out/pm" "$out/rptdef" "$out/report" "$out/copybook" \
	"$out/winperf" "$out/perfreport" "$out/partial" "$out/json" "$out/compressed"

# byte BYTE FILE OUT: OUT is the byte (octal) and then FILE
# shellcheck disable=SC2059 # the octal escape is the format
byte() { printf "\\$1" > "$3" && cat "$2" >> "$3"; }

# framing: the first byte chooses the read size (byte + 1)
"$gen" --seed=11 --framing=pm --source-label=CV1 --intervals=2 --other-pm=0.3 -o "$tmp/pm"
"$gen" --seed=12 --framing=rdw-pm --source-label=CV1 --intervals=2 --other-pm=0.3 -o "$tmp/rdw-pm"
"$gen" --seed=13 --framing=rdw --block-size=400 --sources=SYSA,SYSB --intervals=2 \
	--other-smf=0.2 --pm-per-smf=1-4 -o "$tmp/rdw"
"$gen" --seed=14 --framing=bdw --block-size=600 --intervals=2 --other-smf=0.2 \
	--pm-per-smf=2-5 -o "$tmp/bdw"
"$gen" --seed=16 --framing=bdw --block-size=8192 --sources=SYSA/IDMSCV01 \
	--intervals=3 --product-header=12-40 -o "$tmp/bdw-cv"
"$gen" --seed=15 --framing=bdw --extended-bdw --block-size=40000 --intervals=60 \
	--no-dump-records -o "$tmp/bdw-ext"
"$gen" --seed=21 --framing=bdw --extended-bdw=all --block-size=700 --intervals=2 \
	-o "$tmp/bdw-ext-all"
"$gen" --seed=17 --framing=rdw --intervals=4 --drop-parts=20% --duplicate-parts=20% \
	--shuffle=4 --extreme=50% --pm-per-smf=1-3 -o "$tmp/faults"
byte 377 "$tmp/pm" "$out/framing/pm"
byte 017 "$tmp/rdw-pm" "$out/framing/rdw-pm"
byte 000 "$tmp/rdw" "$out/framing/rdw-spanned"
byte 177 "$tmp/bdw" "$out/framing/bdw-spanned"
byte 377 "$tmp/bdw-cv" "$out/framing/bdw-cv"
byte 377 "$tmp/bdw-ext" "$out/framing/bdw-extended"
byte 003 "$tmp/faults" "$out/framing/rdw-faults"
byte 077 "$tmp/bdw-ext-all" "$out/framing/bdw-extended-all"

# smf: the first byte chooses the segment size (0: whole), then one SMF
# record's data, from behind its RDW; spanned records joined
smf_record() { # FILE TYPE NTH: the NTH record of TYPE in an RDW-framed FILE
	perl -e '
		local $/; open my $f, "<:raw", $ARGV[0] or die; my $d = <$f>;
		my ($pos, $rec, $n) = (0, "", 0);
		while ($pos + 4 <= length $d) {
			my ($len, $code) = unpack "n C", substr($d, $pos, 3);
			my $data = substr($d, $pos + 4, $len - 4);
			$pos += $len;
			$rec = "" if $code == 0 || $code == 1;
			$rec .= $data;
			next if $code == 1 || $code == 3;
			if (unpack("C", substr($rec, 1, 1)) == $ARGV[1] && $n++ == $ARGV[2]) {
				print $rec; exit 0;
			}
		}
		exit 1;' "$@"
}
"$gen" --seed=18 --framing=rdw --sources=SYSA/IDMSCV01 --intervals=6 --pm-per-smf=2-6 \
	--other-smf=0.3 --other-pm=0.2 -o "$tmp/smf"
"$gen" --seed=19 --framing=rdw --intervals=20 --pm-per-smf=40 -o "$tmp/smf-big"
smf_record "$tmp/smf" 230 0 > "$tmp/r1" && byte 000 "$tmp/r1" "$out/smf/type230"
smf_record "$tmp/smf" 230 3 > "$tmp/r2" && byte 001 "$tmp/r2" "$out/smf/type230-spanned"
smf_record "$tmp/smf-big" 230 0 > "$tmp/r3" && byte 020 "$tmp/r3" "$out/smf/type230-40pm"
for t in 30 70 110; do
	if smf_record "$tmp/smf" $t 0 > "$tmp/r$t"; then byte 000 "$tmp/r$t" "$out/smf/type$t"; fi
done

# pm: a PM record stream
cp "$tmp/pm" "$out/pm/stream"
"$gen" --seed=20 --framing=pm --source-label=CV1 --intervals=5 --drop-parts=20% \
	--duplicate-parts=20% --shuffle=5 --extreme=50% --other-pm=0.2 -o "$out/pm/faults"

# rptdef: the built-in definitions
cp "$top"/reports/*.rpt "$out/rptdef/"

# copybook: the listings
cp "$top"/copybooks/*.lst "$out/copybook/"

# json: every byte value; well-formed UTF-8 of each length; ill-formed
# sequences (stray, cut short, overlong, a surrogate, past U+10FFFF)
LC_ALL=C awk 'BEGIN { for (i = 0; i < 256; i++) printf "%c", i }' > "$out/json/bytes"
printf 'caf\303\251 \342\202\254 \360\237\230\200 "q" \\ \t' > "$out/json/utf8"
printf '\200\342\202x\300\257\340\200\257\355\240\200\364\220\200\200\360\237\230' > "$out/json/ill-formed"

# report: the first byte (octal here) chooses the report (byte % 5: waits,
# cpu, tasks, intervals, summary) and the grouping (byte / 5 % 4: total,
# day, hour, interval), then a PM record stream over hours and a midnight
"$gen" --seed=22 --framing=pm --source-label=CV1 --intervals=8 --interval=1800 \
	--start="2026-03-01 22:00" --extreme=30% -o "$tmp/report"
byte 000 "$tmp/report" "$out/report/waits-total"
byte 006 "$tmp/report" "$out/report/cpu-day"
byte 014 "$tmp/report" "$out/report/tasks-hour"
byte 003 "$tmp/report" "$out/report/intervals"
byte 004 "$tmp/report" "$out/report/summary-total"
byte 017 "$out/pm/faults" "$out/report/waits-interval-faults"

# winperf: the first byte chooses the read size (byte + 1), then
# PERF_DATA_BLOCKs built here, every length computed (COUNTERS.md §3): a
# System-like object without instances (a 104-byte header holding the
# system name, a raw fraction and its base, NODATA, an elapsed time);
# processes and their threads (parents, a repeated name) and a code-page
# name, in two blocks of two systems; an empty block
perf_blocks() { # KIND: system, instances or empty
	perl -e '
		use strict;
		sub u16 { join("", map { pack "v", ord } split //, $_[0]) . "\0\0" }
		sub pad8 { $_[0] . "\0" x ((8 - length($_[0]) % 8) % 8) }
		sub length_first { my $s = pad8($_[0]); substr($s, 0, 4) = pack "V", length $s; $s }
		sub defn { pack "V10", 40, $_[0], 0, $_[0] + 1, 0, 0, 100, $_[1], $_[2], $_[3] }
		sub cblock { length_first(pack("V", 0) . $_[0]) }
		sub inst {
			my ($name, $parent_title, $parent, $codepage) = @_;
			my $n = $codepage ? "$name\0" : u16($name);
			length_first(pack("V6", 0, $parent_title, $parent, 0xFFFFFFFF, 24, length $n) . $n);
		}
		sub object {
			my ($title, $ninst, $codepage, $defs, $body) = @_;
			my $definition = 64 + length $defs;
			pack("V12", $definition + length $body, $definition, 64, $title, 0, $title + 1, 0,
			     200, length($defs) / 40, 0, $ninst, $codepage) .
			pack("Q<2", 132290312439883752, 10000000) . $defs . $body;
		}
		sub block {
			my ($system, $nobj, $objects) = @_;
			my $name = u16($system);
			my $header = pad8(pack("V2", length $name, 88) . $name);
			my $hlen = 80 + length $header;
			"P\0E\0R\0F\0" . pack("V7", 1, 1, 1, $hlen + length $objects, $hlen, $nobj, 0) .
				pack("v8V", 2020, 3, 3, 18, 18, 54, 3, 988, 0) .
				pack("Q<3", 855159486130, 10000000, 132290312439883752) . $header . $objects;
		}
		if ($ARGV[0] eq "system") {
			my $defs = defn(248, 0x00010000, 4, 4) . defn(1350, 0x20020400, 4, 8) .
				defn(1350, 0x40030403, 4, 12) . defn(900, 0x40000200, 0, 0) .
				defn(674, 0x30240500, 8, 16);
			print block("GETAWAY", 1, object(2, 0xFFFFFFFF, 0, $defs,
				cblock(pack "V3Q<", 201, 70, 1000, 132289457285000000)));
		} elsif ($ARGV[0] eq "instances") {
			my $defs = defn(6, 0x20510500, 8, 8);
			my $procs = join "", map { inst($_, 0, 0, 0) . cblock(pack "VQ<", 0, 1000) }
				"svchost", "svchost", "idle";
			my $threads = join "", map { inst("0", 230, $_, 0) . cblock(pack "VQ<", 0, 7) } 0, 1;
			my $objs = object(230, 3, 0, $defs, $procs) . object(232, 2, 0, $defs, $threads) .
				object(234, 1, 1252, $defs, inst("caf\xe9", 0, 0, 1252) . cblock(pack "VQ<", 0, 9));
			print block("SYSA", 3, $objs), block("SYSB", 3, $objs);
		} else {
			print block("VM", 0, "");
		}' "$1"
}
perf_blocks system > "$tmp/perf-system"
perf_blocks instances > "$tmp/perf-instances"
perf_blocks empty > "$tmp/perf-empty"
byte 377 "$tmp/perf-system" "$out/winperf/system"
byte 006 "$tmp/perf-instances" "$out/winperf/instances"
cat "$tmp/perf-empty" "$tmp/perf-system" "$tmp/perf-empty" > "$tmp/perf-mixed"
byte 000 "$tmp/perf-mixed" "$out/winperf/mixed"

# perfreport: the first byte chooses the report (perf, win-cpu, win-disk:
# byte % 3), the grouping (byte / 3 % 4: total, day, hour, interval), the
# format (byte / 12 % 2: CSV, text) and the read size (byte / 24 % 4:
# whole, 1, 7, 4096 bytes); then snapshots that pair: pmimgen's, and the
# processes above twice, a minute apart
"$gen" --seed=31 --framing=perf --sources=SYSA,SYSB --intervals=2 --interval=60 -o "$tmp/perf-2x2"
"$gen" --seed=32 --framing=perf --sources=WINA --intervals=3 --interval=60 -o "$tmp/perf-1x3"
byte 000 "$tmp/perf-2x2" "$out/perfreport/perf-total"
byte 012 "$tmp/perf-1x3" "$out/perfreport/cpu-interval"
byte 104 "$tmp/perf-2x2" "$out/perfreport/disk-hour-text-7"
perf_blocks instances > "$tmp/perf-later"
# the same blocks 60 s later: SystemTime's minute, PerfTime and PerfTime100nSec on
perl -0777 -i -pe '
	my $pos = 0;
	while ($pos < length) {
		my $total = unpack "V", substr($_, $pos + 20, 4);
		substr($_, $pos + 46, 2) = pack "v", 55;
		substr($_, $pos + 56, 8) = pack "Q<", unpack("Q<", substr($_, $pos + 56, 8)) + 600000000;
		substr($_, $pos + 72, 8) = pack "Q<", unpack("Q<", substr($_, $pos + 72, 8)) + 600000000;
		$pos += $total;
	}' "$tmp/perf-later"
cat "$tmp/perf-instances" "$tmp/perf-later" > "$tmp/perf-pairs"
byte 011 "$tmp/perf-pairs" "$out/perfreport/instances-interval"

# partial: the first byte chooses the report (cpu, waits, perf, win-cpu:
# byte % 4), then a partial of it by hour, as --partial writes it but for
# its last 16 bytes (the END section, which the harness makes)
"$gen" --seed=41 --framing=pm --source-label=CV1 --intervals=2 -o "$tmp/partial-pm"
"$rpt" -q --partial --framing=pm --source=CV1 --report=cpu --by=hour -o "$tmp/cpu.part" \
	"$tmp/partial-pm"
"$rpt" -q --partial --framing=pm --source=CV1 --report=waits --by=hour -o "$tmp/waits.part" \
	"$tmp/partial-pm"
"$rpt" -q --partial --report=win-cpu --by=hour -o "$tmp/win-cpu.part" "$tmp/perf-1x3"
"$rpt" -q --partial --report=perf --by=hour -o "$tmp/perf.part" "$tmp/perf-1x3"
for p in cpu waits perf win-cpu; do
	head -c -16 "$tmp/$p.part" > "$tmp/$p.cut" && mv "$tmp/$p.cut" "$tmp/$p.part"
done
byte 000 "$tmp/cpu.part" "$out/partial/cpu"
byte 001 "$tmp/waits.part" "$out/partial/waits"
byte 002 "$tmp/perf.part" "$out/partial/perf"
byte 003 "$tmp/win-cpu.part" "$out/partial/win-cpu"

# compressed: the first byte chooses the read size, the second what the
# rest is: 000, gzip or zstd bytes as they are; 200 (gzip) and 201 (zstd),
# plain bytes the harness compresses whole; 277, zstd cut at 31/63
gzip -n -c "$tmp/rdw" > "$tmp/rdw.gz"
zstd -q -c "$tmp/rdw" > "$tmp/rdw.zst"
cat "$tmp/rdw.gz" "$tmp/rdw.gz" > "$tmp/rdw2.gz"
gzip -n -c "$tmp/bdw" | cat - "$tmp/rdw.zst" > "$tmp/gz-zst"
for f in rdw.gz rdw.zst rdw2.gz gz-zst; do
	byte 000 "$tmp/$f" "$tmp/$f.1"
	byte 007 "$tmp/$f.1" "$out/compressed/$f"
done
byte 200 "$tmp/bdw" "$tmp/bdw.1"
byte 077 "$tmp/bdw.1" "$out/compressed/bdw-gzip-here"
byte 201 "$tmp/rdw" "$tmp/rdw.1"
byte 000 "$tmp/rdw.1" "$out/compressed/rdw-zstd-here"
byte 277 "$tmp/faults" "$tmp/faults.1"
byte 003 "$tmp/faults.1" "$out/compressed/faults-zstd-cut"
