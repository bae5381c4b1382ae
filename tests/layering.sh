#!/bin/sh
# layering.sh: the consumers know no reader. A file under src/engine/,
# src/frame/, src/report/ or src/out/ includes only the folders its stage
# may see (the table below), and never core/copybook.h or
# core/layout_text.h, the PMIM listing model: reports resolve names against
# a schema (frame/schema.h), so a second reader feeds them unchanged.
# config.h, configure's, any file may include.
. "${top_srcdir:-.}/tests/lib.sh"

# folder: the folders its files may include
allowed() {
	case $1 in
	engine) echo "core engine" ;;
	frame) echo "core engine frame" ;;
	report) echo "core engine frame report" ;;
	out) echo "core report out" ;;
	esac
}

for stage in engine frame report out; do
	bad=
	for f in "$top_srcdir"/src/$stage/*.[ch]; do
		[ -f "$f" ] || continue
		for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
			case $inc in
			core/copybook.h|core/layout_text.h) bad="$bad ${f##*/}:$inc"; continue ;;
			config.h) continue ;;  # configure's, no stage's
			*/*) ;;
			*) bad="$bad ${f##*/}:$inc"; continue ;;
			esac
			ok=
			for dir in $(allowed $stage); do
				[ "${inc%%/*}" = "$dir" ] && ok=1
			done
			[ -n "$ok" ] || bad="$bad ${f##*/}:$inc"
		done
	done
	if [ -z "$bad" ]; then
		pass "src/$stage/ includes only $(allowed $stage)"
	else
		fail "src/$stage/ includes a header it may not:$bad"
	fi
done
finish
