#!/usr/bin/perl
# make-regress.pl: write the hand-made hostile inputs of tests/fuzz/regress/.
# Inputs a fuzzer or the corruption catalogue finds are added there as they
# are, named after the bug; these are made here so that the bytes can be
# read.
#
# usage: perl tests/fuzz/make-regress.pl DIR
use strict;
use warnings;

my $dir = shift or die "usage: make-regress.pl DIR\n";

sub out {
	my ($name, $bytes) = @_;
	open my $f, '>:raw', "$dir/$name.bin" or die "$dir/$name.bin: $!\n";
	print $f $bytes;
	close $f;
}

# An RDW or SDW: length (itself included) and segment code.
sub rdw { my ($len, $code) = @_; pack 'nCC', $len, $code // 0, 0 }
# A record behind its RDW.
sub record { my ($data) = @_; rdw(4 + length $data) . $data }
# A plain or extended BDW in front of the blocks' contents.
sub block { my ($data) = @_; pack('nn', 4 + length $data, 0) . $data }

my $sid = "\xe2\xe8\xe2\xc1";                      # SYSA in EBCDIC
# SMF header after the RDW: flag, type, time (10**-2 s), date 2025.062
sub smf { my ($type, $body, $sys) = @_;
	pack('CC', 0x1e, $type) . pack('N', 3600 * 100) . "\x01\x25\x06\x2f" .
	($sys // $sid) . $body }
my $product = "\xd7\xd4\xc9\xd4" . ("\x40" x 36);  # "PMIM", blanks

# A #PMINT part: INTLEN, type 5, part, version 1, reserved, start and end
# (2025.062, 10**-4 s), then figures from $fill.
my %part_len = (1 => 0xf0, 2 => 0xf4, 3 => 0xc0);
sub part { my ($seq, $start, $end, $fill) = @_;
	my $len = $part_len{$seq};
	my $head = pack('nCCC', $len, 5, $seq, 1) . ("\0" x 7) .
	           "\x01\x25\x06\x2f" . pack('N', $start) .
	           "\x01\x25\x06\x2f" . pack('N', $end);
	$head . substr(($fill // "\0") x $len, 0, $len - length $head) }
sub interval { my ($start, $end, $fill) = @_;
	join '', map { part($_, $start, $end, $fill) } 1 .. 3 }

# An SMF record of 80 KB, an interval and 200 PM records of another type,
# spanned over 20,000 segments of 4 bytes each after the first.
{
	my $other = pack('nCC', 400, 7, 1) . ("\0" x 396);
	my $data = smf(230, $product . interval(36_000_000, 45_000_000) . $other x 200);
	my $s = rdw(4 + 14, 1) . substr($data, 0, 14);
	for (my $at = 14; $at < length $data; $at += 4) {
		my $piece = substr($data, $at, 4);
		$s .= rdw(4 + length $piece, $at + 4 >= length $data ? 2 : 3) . $piece;
	}
	out('huge-spanned-chain', $s);
}

# Three blocks, then an extended BDW of the largest length, x'FFFFFFFF',
# on the few bytes left.
{
	my $rec = record(smf(230, $product . interval(36_000_000, 45_000_000)));
	out('extended-bdw-7fffffff', block($rec) x 3 . "\xff\xff\xff\xff" . $rec . $rec);
}

# SMF records whose PM chains end at the record's end through records of
# length 0, 1 and 4, or run in a loop of one 4-byte record.
{
	my $s = '';
	for my $tail ("\0\0\5\1", "\0\1\5\1", "\0\4\5\1", "\0\4\5\1" x 100) {
		$s .= record(smf(230, $product . interval(36_000_000, 45_000_000) . $tail));
	}
	$s .= record(smf(230, $product . ("\0\4\5\1" x 500)));
	out('pm-chain-zero-length', $s);
}

# 4,000 RDWs of length 0, then records.
{
	my $rec = record(smf(230, $product . interval(36_000_000, 45_000_000)));
	out('rdw-length-zero', ("\0" x 16_000) . $rec x 8);
}

# Blocks of 8 bytes, each one empty segment, and an empty block at the end.
{
	out('bdw-empty-segments', block(rdw(4)) x 5000 . block(''));
}

# A PM stream of 4-byte records (shorter than any part), then parts.
{
	out('pm-length-four', ("\0\4\5\1" x 5000) . interval(36_000_000, 45_000_000));
}

# 3,000 first segments, none ever ended.
{
	my $first = rdw(4 + length smf(230, $product), 1) . smf(230, $product);
	out('unended-first-segments', $first x 3000);
}

# Every figure x'FF': sums, highs and counts at their largest.
{
	my $s = '';
	$s .= record(smf(230, $product . interval(36_000_000 + $_ * 9_000_000,
	                                          45_000_000 + $_ * 9_000_000, "\xff")))
		for 0 .. 3;
	out('figures-all-ones', $s);
}

# Dates and times at their edges: day 1 of 1900, day 366 of 2199, the last
# unit of a day, an end before the start, a start past midnight.
{
	my $s = '';
	for my $d (["\x00\x00\x00\x1f", 0, "\x02\x99\x36\x6f", 863_999_999],
	           ["\x02\x99\x36\x6f", 863_999_999, "\x00\x00\x00\x1f", 0],
	           ["\x01\x25\x06\x2f", 864_000_000, "\x01\x25\x06\x2f", 864_000_001]) {
		my $body = '';
		for my $seq (1 .. 3) {
			my $p = part($seq, 0, 0);
			substr($p, 12, 16) = $d->[0] . pack('N', $d->[1]) . $d->[2] . pack('N', $d->[3]);
			$body .= $p;
		}
		$s .= record(smf(230, $product . $body));
	}
	out('dates-at-edges', $s);
}

# 5,000 system ids: more sources than --max-sources allows.
{
	my $s = '';
	for my $n (0 .. 4999) {
		my $sys = pack('C4', 0xc1 + $n % 9, 0xc1 + int($n / 9) % 9,
		               0xc1 + int($n / 81) % 9, 0xf0 + int($n / 729) % 10);
		$s .= record(smf(230, $product . part(1, 36_000_000, 45_000_000), $sys));
	}
	out('sources-past-limit', $s);
}

# 3,000 intervals, each with its first part only: past --max-pending.
{
	my $s = '';
	for my $n (0 .. 2999) {
		$s .= record(smf(230, $product . part(1, $n * 1000, $n * 1000 + 900)));
	}
	out('pending-past-limit', $s);
}
