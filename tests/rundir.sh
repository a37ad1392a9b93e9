#!/bin/sh
# rundir.sh PCBENCH - run directories (issue 15 part 7), in a scratch directory: two runs
# started in the same second get different default directories (also when the name of
# this second is already taken); results/latest follows only runs under ./results/;
# -o DIR creates nothing outside DIR (not in the working directory, HOME or TMPDIR); a run
# named like an option (-o -dash) gets its end-of-run report; a host named "(none)" gives
# results/<stamp>-unknown.
set -u
. "${0%/*}/preamble.sh"
run="-s page_counter -p v6.0-rc1 -w direct -t 1 -r 1 --time 0.01"
mkdir "$tmp/cwd" "$tmp/home" "$tmp/tmpdir"
cd "$tmp/cwd" || exit 1
export HOME="$tmp/home" TMPDIR="$tmp/tmpdir"

# Two runs at once: two directories, each whole, each told through --run-dir-file.
"$pcbench" $run --run-dir-file "$tmp/dir1" >/dev/null 2>"$tmp/err1" &
"$pcbench" $run --run-dir-file "$tmp/dir2" >/dev/null 2>"$tmp/err2"
rc2=$?
wait $!
rc1=$?
d1=$(cat "$tmp/dir1" 2>/dev/null) d2=$(cat "$tmp/dir2" 2>/dev/null)
# (exit 1 is a measurement disturbed on a busy machine: the row is still written)
[ "$rc1" -le 1 ] && [ "$rc2" -le 1 ] || { echo "FAIL: concurrent runs exit $rc1, $rc2"; cat "$tmp/err1" "$tmp/err2"; fail=1; }
[ -n "$d1" ] && [ -n "$d2" ] && [ "$d1" != "$d2" ] ||
	{ echo "FAIL: concurrent runs: directories '$d1' and '$d2'"; fail=1; }
for d in "$d1" "$d2"; do
	case "$d" in results/*) ;; *) echo "FAIL: default directory $d not under results/"; fail=1 ;; esac
	[ "$(grep -c ',\(ok\|error\|disturbed\),' "$d/results.csv" 2>/dev/null)" = 1 ] || { echo "FAIL: $d: want one row"; fail=1; }
done

# The name of this second (and the next few) already taken: the run takes NAME-2 (or -3
# when the runs above, in this same second, took NAME and NAME-2).
host=$(hostname)
# (a minute of names: a slow start, under a sanitizer on a busy machine, takes seconds)
now=$(date +%s)
seq "$now" $((now + 60)) | sed 's/^/@/' | date -u -f - +%Y-%m-%dT%H-%M-%SZ |
	awk -v h="$host" '{ print "results/" $0 "-" h }' | xargs mkdir -p
"$pcbench" $run --run-dir-file "$tmp/dir3" >/dev/null 2>"$tmp/err3"
[ $? -le 1 ] || { echo "FAIL: run with its name taken exits 2"; cat "$tmp/err3"; fail=1; }
d3=$(cat "$tmp/dir3" 2>/dev/null)
case "$d3" in *-"$host"-[2-9]) ;; *) echo "FAIL: name taken: got '$d3', want NAME-N"; fail=1 ;; esac
[ "$(readlink results/latest)" = "${d3#results/}" ] ||
	{ echo "FAIL: results/latest is '$(readlink results/latest)', want ${d3#results/}"; fail=1; }

# -o results/NAME moves latest; -o elsewhere does not.
"$pcbench" $run -o results/named >/dev/null 2>&1
[ "$(readlink results/latest)" = named ] || { echo "FAIL: -o results/named: latest not moved"; fail=1; }
"$pcbench" $run -o "$tmp/elsewhere" >/dev/null 2>&1
[ "$(readlink results/latest)" = named ] || { echo "FAIL: -o elsewhere moved results/latest"; fail=1; }

# -o DIR from an empty directory: nothing is created but DIR (and its parents).
rm -rf "$tmp/cwd/"* "$tmp/out"
"$pcbench" $run -o "$tmp/out/run" >/dev/null 2>"$tmp/err4"
[ $? -le 1 ] || { echo "FAIL: -o run exits 2"; cat "$tmp/err4"; fail=1; }
extra=$(cd "$tmp" && find cwd home tmpdir out -mindepth 1 | grep -v '^out/run\(/\|$\)')
[ -z "$extra" ] || { echo "FAIL: -o DIR created outside DIR:"; echo "$extra"; fail=1; }
[ -s "$tmp/out/run/results.csv" ] || { echo "FAIL: -o DIR: no results.csv"; fail=1; }

# results/latest that is a directory (not a link) is never replaced: the run is refused
# before measuring (exit 2), nothing made (issue 35; before: found after measuring, exit 1).
rm -rf "$tmp/cwd/"*
mkdir -p "$tmp/cwd/results/latest"
(cd "$tmp/cwd" && "$pcbench" $run) >/dev/null 2>"$tmp/err5"
st=$?
[ $st -eq 2 ] && grep -q "results/latest: not a symbolic link" "$tmp/err5" &&
	[ "$(ls -A "$tmp/cwd/results")" = latest ] ||
	{ echo "FAIL: results/latest a directory: exit $st, want 2:"; cat "$tmp/err5"; fail=1; }

# -o r/ is the run r: its run_id has no slash, and merge takes it.
(cd "$tmp/cwd" && "$pcbench" $run -o r/) >/dev/null 2>&1
grep -q '"run_id": "r"' "$tmp/cwd/r/context.json" ||
	{ echo "FAIL: -o r/: run_id is $(grep -o '"run_id": "[^"]*"' "$tmp/cwd/r/context.json")"; fail=1; }
(cd "$tmp/cwd" && "$pcbench" merge r/ -o m) >/dev/null 2>"$tmp/err6" ||
	{ echo "FAIL: merge r/:"; cat "$tmp/err6"; fail=1; }

# Run directories named like options (issue 35): the end-of-run report takes each as a run
# (compare.txt written, no "unknown option"), and so do compare and plot after "--".
for d in -dash --format=csv -o/x; do
	(cd "$tmp/cwd" && "$pcbench" $run -o "$d") >/dev/null 2>"$tmp/err7"
	st=$?
	{ [ $st -le 1 ] || [ $st -eq 5 ]; } && [ -s "$tmp/cwd/$d/compare.txt" ] &&
		! grep -q "unknown option" "$tmp/err7" ||
		{ echo "FAIL: -o $d: exit $st, or no $d/compare.txt:"; cat "$tmp/err7"; fail=1; }
	(cd "$tmp/cwd" && "$pcbench" compare -- "$d") >/dev/null 2>"$tmp/err7" ||
		{ echo "FAIL: compare -- $d:"; cat "$tmp/err7"; fail=1; }
	if command -v gnuplot >/dev/null 2>&1; then
		(cd "$tmp/cwd" && "$pcbench" plot -- "$d") >/dev/null 2>"$tmp/err7"
		st=$? # 4: nothing to plot in so small a run
		[ $st -eq 0 ] || [ $st -eq 4 ] || { echo "FAIL: plot -- $d: exit $st"; cat "$tmp/err7"; fail=1; }
	fi
done

# A host whose name was never set ("(none)", a bare guest): the default directory says
# "unknown", not "(none)". Checked in a UTS namespace of its own (root), else not at all.
if unshare --uts true 2>/dev/null; then
	mkdir -p "$tmp/none" # a directory of its own: $tmp/cwd/results/latest is a directory now
	(cd "$tmp/none" && unshare --uts sh -c 'echo "(none)" >/proc/sys/kernel/hostname && exec "$@"' sh "$pcbench" $run \
		--run-dir-file "$tmp/dir8") >/dev/null 2>"$tmp/err8"
	d8=$(cat "$tmp/dir8" 2>/dev/null)
	case $d8 in
	*-unknown) ;;
	*) echo "FAIL: hostname (none): directory '$d8'"; cat "$tmp/err8"; fail=1 ;;
	esac
fi

[ $fail = 0 ] && echo "ok: run directories"
exit $fail
