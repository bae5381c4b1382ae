#!/bin/bash
# pmimrpt-merge.sh: the merge job after a pmimrpt-array.sh job array. It
# checks that PARTDIR holds part-<index>.part for every index the array
# has (from the list and the slice size, as the array counted them) and no
# other part, then merges them with pmimrpt --merge into each OUTPUT: a
# name ending in .txt gets --format=text, any other the options as given.
# Submit it with --dependency=afterok:<array job id> --kill-on-invalid-dep=yes,
# so that it never runs on an incomplete set (see README.md here).
#
#   sbatch --dependency=afterok:$id --kill-on-invalid-dep=yes \
#       pmimrpt-merge.sh files.txt 50 parts waits.csv,waits.txt --report=waits --by=hour
#
# The report options must be the array's (pmimrpt refuses others with exit
# 12). Exit status: 0 when pmimrpt finished clean or with warnings (its
# summary line and "pmimrpt exit N" are in the job's output file), 3 when a
# part is missing or unexpected (nothing is written), pmimrpt's own status
# above 4, 2 for a bad call. PMIMRPT names the program (default: pmimrpt).
#
#SBATCH --job-name=pmimrpt-merge
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --output=pmimrpt-merge-%j.out
set -u
prog=pmimrpt-merge.sh
die() { echo "$prog: $*" >&2; exit 2; }

[ $# -ge 4 ] || die "usage: $prog LIST SLICE PARTDIR OUTPUT[,OUTPUT]... [PMIMRPT OPTION]..."
list=$1 slice=$2 partdir=$3 outputs=$4
shift 4
case $slice in '' | *[!0-9]* | 0) die "not a slice size: $slice" ;; esac
[ -r "$list" ] || die "$list: cannot read the file list"
[ -d "$partdir" ] || die "$partdir: no such folder"
for opt; do
	case $opt in
	--partial | --merge | -o | -o* | --output | --output=*)
		die "$opt: the script gives --merge and the output itself" ;;
	esac
done

entries=$(grep -cv '^[[:space:]]*\(#\|$\)' "$list")
tasks=$(( (entries + slice - 1) / slice ))
[ "$tasks" -gt 0 ] || die "$list: no entries"

parts=() missing=()
for ((i = 0; i < tasks; i++)); do
	if [ -f "$partdir/part-$i.part" ]; then
		parts+=("$partdir/part-$i.part")
	else
		missing+=("$i")
	fi
done
extra=()
for f in "$partdir"/part-*.part; do
	[ -e "$f" ] || continue
	i=${f##*/part-}
	i=${i%.part}
	case $i in *[!0-9]* | '') extra+=("$f"); continue ;; esac
	[ "$((10#$i))" -lt "$tasks" ] && [ "$f" = "$partdir/part-$((10#$i)).part" ] || extra+=("$f")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "$prog: $partdir: ${#missing[@]} of $tasks parts missing, indexes $(IFS=,; echo "${missing[*]}"); rerun them with sbatch --array=$(IFS=,; echo "${missing[*]}"); nothing written" >&2
	exit 3
fi
if [ ${#extra[@]} -gt 0 ]; then
	echo "$prog: $partdir: parts the array ($tasks tasks of $slice from $list) did not write: ${extra[*]}; nothing written" >&2
	exit 3
fi

echo "$prog: merging $tasks parts from $partdir" >&2
status=0
IFS=, read -r -a outs <<< "$outputs"
for out in "${outs[@]}"; do
	fmt=()
	case $out in *.txt) fmt=(--format=text) ;; esac
	rc=0
	"${PMIMRPT:-pmimrpt}" --merge "$@" "${fmt[@]}" -o "$out" -- "${parts[@]}" || rc=$?
	echo "$prog: $out: pmimrpt exit $rc" >&2
	[ $rc -le 4 ] || status=$rc
done
exit $status
