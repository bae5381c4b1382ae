#!/bin/sh
# golden.sh: reports compared byte for byte with the files in tests/golden/,
# standard output, standard error and exit code alike, under TZ=UTC LC_ALL=C.
# Each line of tests/golden/LIST is: NAME INPUT [OPTION]...; INPUT is a path
# under the source tree. To accept new output after a deliberate change:
# UPDATE_GOLDEN=1 make check TESTS=tests/golden.sh, then review the diff.
. "${top_srcdir:-.}/tests/lib.sh"
dir=$top_srcdir/tests/golden

while read -r name input opts; do
	case $name in ''|'#'*) continue ;; esac
	rc=0
	# shellcheck disable=SC2086 # the options are words
	(cd "$top_srcdir" && rpt $opts "$input") > "$tmp/$name.out" 2> "$tmp/$name.err" || rc=$?
	echo "$rc" > "$tmp/$name.rc"
	for ext in out err rc; do
		if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
			cp "$tmp/$name.$ext" "$dir/$name.$ext"
		fi
		if cmp -s "$dir/$name.$ext" "$tmp/$name.$ext"; then
			pass "$name.$ext"
		else
			fail "$name.$ext differs from tests/golden/$name.$ext"
			diff -u "$dir/$name.$ext" "$tmp/$name.$ext" | head -15
		fi
	done
done < "$dir/LIST"
finish
