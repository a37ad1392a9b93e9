#!/bin/sh
# layering.sh SRCDIR OBJECT... - the rooms of the harness keep their order:
#  - no file outside harness/run/ (and main.c, the dispatcher) includes a header of run/;
#  - benches/ includes only harness/api/, harness/lib/, its own headers and layout.h (the
#    layout room's public header);
#  - no loop of includes between files (the include graph, "x.h" resolved by file name);
#  - no loop of calls between files: an edge from a to b when a's object needs a symbol
#    b's object defines (nm), over the objects given: pcbench's, pcbench_core's and the
#    scenarios' (both builds), which ctest passes.
# A loop is printed by tsort (its members); any finding fails the test.
src=$1
shift
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0

cd "$src" || exit 1
find harness benches topology -name '*.[ch]' -o -name '*.cc' | sort >"$tmp/files"
# every '#include "x"' as: FILE NAME
while read -r f; do
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
		while read -r h; do echo "$f ${h##*/}"; done
done <"$tmp/files" >"$tmp/includes"

# run/ headers included from elsewhere
ls harness/engines/measure/*.h | sed 's|.*/||' >"$tmp/runh"
awk 'NR == FNR { run[$1] = 1; next }
     $1 !~ /^harness\/engines\/measure\// && $1 != "harness/main.c" && run[$2] {
	print "FAIL: " $1 " includes run/ header " $2; bad = 1 }
     END { exit bad }' "$tmp/runh" "$tmp/includes" || fail=1

# benches/: api/, lib/, its own headers, layout.h
ls harness/engines/api/*.h harness/libraries/lib/*.h benches/*.h | sed 's|.*/||' >"$tmp/benchok"
echo layout.h >>"$tmp/benchok"
awk 'NR == FNR { ok[$1] = 1; next }
     $1 ~ /^benches\// && !ok[$2] {
	print "FAIL: " $1 " includes " $2 " (benches/ may include api/, lib/, layout.h)"; bad = 1 }
     END { exit bad }' "$tmp/benchok" "$tmp/includes" || fail=1

# include loops: resolve names to files (a name no file has is a system header)
awk 'NR == FNR { n = $1; sub(/.*\//, "", n); path[n] = path[n] " " $1; next }
     path[$2] { k = split(path[$2], p, " "); for (i = 1; i <= k; i++) if (p[i] != $1) print $1, p[i] }' \
	"$tmp/files" "$tmp/includes" >"$tmp/incgraph"
if ! tsort "$tmp/incgraph" >/dev/null 2>"$tmp/incloop"; then
	echo "FAIL: a loop of includes:"
	sed 's/^/  /' "$tmp/incloop"
	fail=1
fi

# call loops, from the objects
[ $# -gt 0 ] || { echo "FAIL: no objects given"; exit 1; }
# (ctest passes each target's objects as one ';'-separated argument)
for a in "$@"; do printf '%s\n' "$a" | tr ';' '\n'; done >"$tmp/objs"
while read -r o; do
	s=$(echo "$o" | sed 's|^.*/CMakeFiles/[^/]*\.dir/||; s|\.o$||')
	nm -P "$o" | awk -v s="$s" '$2 ~ /^[TDBRVWC]$/ { print "D", $1, s } $2 == "U" { print "U", $1, s }'
done <"$tmp/objs" >"$tmp/syms"
awk '$1 == "D" { def[$2] = $3; next } $1 == "U" && def[$2] && def[$2] != $3 { print $3, def[$2], $2 }' \
	"$tmp/syms" "$tmp/syms" | sort -u >"$tmp/calls"
awk '{ print $1, $2 }' "$tmp/calls" | sort -u >"$tmp/callgraph"
[ -s "$tmp/callgraph" ] || { echo "FAIL: no calls between objects found"; exit 1; }
if ! tsort "$tmp/callgraph" >/dev/null 2>"$tmp/callloop"; then
	echo "FAIL: a loop of calls between files (caller callee symbol):"
	sed -n 's/^tsort: //p' "$tmp/callloop" | grep -v 'input contains a loop' >"$tmp/members"
	grep -F -f "$tmp/members" "$tmp/calls" | awk 'NR == FNR { m[$1] = 1; next } m[$1] && m[$2]' \
		"$tmp/members" - | sed 's/^/  /'
	fail=1
fi
[ $fail = 0 ] && echo "layering: ok ($(wc -l <"$tmp/callgraph") call edges, $(wc -l <"$tmp/incgraph") include edges)"
exit $fail
