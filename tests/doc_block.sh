#!/bin/sh
# doc_block.sh MARK PAGE OUT - the fenced code block that follows `<!-- MARK -->` in PAGE,
# written to OUT (without the fences). Fails when the page has no such block.
set -eu
awk -v mark="<!-- $1 -->" '
	$0 == mark { found = 1; next }
	found == 1 && /^```/ { found = 2; next }
	found == 2 && /^```/ { exit }
	found == 2 { print; n++ }
	END { if (!n) { print "doc_block: no code block after " mark > "/dev/stderr"; exit 1 } }
' "$2" >"$3.tmp"
mv "$3.tmp" "$3"
