#!/bin/sh
# layering.sh SRCDIR OBJECT... - the harness stands in three layers, each a room of
# harness/, and main.c on top:
#   1 libraries  harness/libraries/ (lib, results, stats, pmu, layout: the layout core) and
#                topology/ (and the generated built-in layout table)
#   2 engines    harness/engines/ (api, plan, measure, model, compare, plot, hitm, layout)
#                and benches/ (the scenarios, on the scenario API)
#   3 commands   harness/commands/ (one cmd_NAME.c per subcommand, commands.h)
#   4 main       harness/main.c (the command table) and harness/launcher.c (bin/pcbench: a
#                static program of its own that execs the real binary; it includes no
#                header of ours, and links nothing of ours, so its object is not among those
#                given)
# The rule: a file includes and calls only its own layer and the layers below it. No
# library includes or calls an engine, a command or main; no engine (nor scenario) includes
# or calls a command or main (the run's closing compare is the compare engine's
# compare_run_report, not `pcbench compare`); no command includes or calls main.c. Also:
#  - readers look a results column up by its enum (results.h: results_col), never with
#    csv_col(t, "name") outside harness/libraries/results/;
#  - benches/ includes only harness/engines/api/, harness/libraries/lib/, its own headers
#    and layout.h (the layout library's public header);
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
# every '#include "x"' as: FILE NAME (one awk over all files, x without its directory)
# shellcheck disable=SC2016 # (awk's $0, not the shell's)
xargs awk '/^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*"/ {
	h = $0; sub(/^[^"]*"/, "", h); sub(/".*/, "", h); sub(/.*\//, "", h); print FILENAME, h }' \
	<"$tmp/files" >"$tmp/includes"

# the layer of a source path (1 libraries, 2 engines, 3 commands, 4 main; 0 unknown)
layer='function layer(f) {
	if (f ~ /^harness\/libraries\// || f ~ /^topology\// || f ~ /layouts_builtin/) return 1
	if (f ~ /^harness\/engines\// || f ~ /^benches\//) return 2
	if (f ~ /^harness\/commands\//) return 3
	if (f == "harness/main.c" || f == "harness/launcher.c") return 4
	return 0 }
function lname(n) { return n == 1 ? "library" : n == 2 ? "engine" : n == 3 ? "command" : "main" }'

# every file in a layer
awk "$layer"' !layer($1) { print "FAIL: " $1 " is in no layer (harness/libraries, engines, commands)"; bad = 1 }
     END { exit bad }' "$tmp/files" || fail=1

# upward includes: a header of a higher layer
awk "$layer"' NR == FNR { n = $1; sub(/.*\//, "", n); path[n] = $1; next }
     path[$2] && layer(path[$2]) > layer($1) {
	print "FAIL: " $1 " (" lname(layer($1)) ") includes " path[$2] " (" lname(layer(path[$2])) ")"; bad = 1 }
     END { exit bad }' "$tmp/files" "$tmp/includes" || fail=1

# the launcher is static and alone: system headers only
awk '$1 == "harness/launcher.c" { print "FAIL: harness/launcher.c includes " $2 " (system headers only)"; bad = 1 }
     END { exit bad }' "$tmp/includes" || fail=1

# readers get a results column by its enum (results_col, results_var_col), not by name
grep -rn 'csv_col(.*"' harness | grep -v '^harness/libraries/results/' | sed 's/^/FAIL: a column by name, not by enum: /' | grep . && fail=1

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
# one nm over all objects (-A: each line starts with "OBJECT: "), each object named by its
# source path
xargs nm -P -A <"$tmp/objs" | awk '{ s = $1; sub(/:$/, "", s); sub(/^.*\/CMakeFiles\/[^\/]*\.dir\//, "", s)
	sub(/^(\.\/)+/, "", s); sub(/\.o$/, "", s) } $3 ~ /^[TDBRVWC]$/ { print "D", $2, s } $3 == "U" { print "U", $2, s }' >"$tmp/syms"
awk '$1 == "D" { def[$2] = $3; next } $1 == "U" && def[$2] && def[$2] != $3 { print $3, def[$2], $2 }' \
	"$tmp/syms" "$tmp/syms" | sort -u >"$tmp/calls"
awk '{ print $1, $2 }' "$tmp/calls" | sort -u >"$tmp/callgraph"
[ -s "$tmp/callgraph" ] || { echo "FAIL: no calls between objects found"; exit 1; }
# upward calls: a symbol of a higher layer (an engine calling a command among them)
awk "$layer"' { a = $1; b = $2; sub(/^.*\.dir\//, "", a); sub(/^.*\.dir\//, "", b) }
     !layer(a) || !layer(b) { print "FAIL: an object in no layer: " (layer(a) ? b : a); bad = 1; next }
     layer(b) > layer(a) {
	print "FAIL: " a " (" lname(layer(a)) ") calls " $3 " of " b " (" lname(layer(b)) ")"; bad = 1 }
     END { exit bad }' "$tmp/calls" || fail=1
if ! tsort "$tmp/callgraph" >/dev/null 2>"$tmp/callloop"; then
	echo "FAIL: a loop of calls between files (caller callee symbol):"
	sed -n 's/^tsort: //p' "$tmp/callloop" | grep -v 'input contains a loop' >"$tmp/members"
	grep -F -f "$tmp/members" "$tmp/calls" | awk 'NR == FNR { m[$1] = 1; next } m[$1] && m[$2]' \
		"$tmp/members" - | sed 's/^/  /'
	fail=1
fi
[ $fail = 0 ] && echo "layering: ok ($(wc -l <"$tmp/callgraph") call edges, $(wc -l <"$tmp/incgraph") include edges)"
exit $fail
