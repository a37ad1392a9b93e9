#!/bin/sh
# outpaths.sh PCBENCH SRCDIR - every output path pcbench writes (docs/measuring.md, "Output
# paths"), enumerated from the code:
#  - every output option (an option named out, csv, run-dir-file or measure in an option
#    table under harness/, and measure's --benchmark_out=FILE) has a row in the table below,
#    or the test fails;
#  - a file option (FILE) naming a FIFO, a character device (mknod, as root), a symlink to a
#    FIFO, a directory or a dangling symlink is refused: exit 2, nothing created or changed;
#  - a directory option (DIR): each file pcbench creates in it (run_files[] in
#    harness/engines/measure/outputs.c, compare's report files from its format table, model.csv, the
#    merged files, the PNGs) planted as a symlink to a file outside, a dangling symlink or
#    a FIFO is refused the same way, and nothing is written through the link;
#  - a user-named FILE that is a symlink to a regular file is followed, as a shell's `>`.
# Special files are made only here, in a temp directory; nothing under /dev is opened.
set -u
pcbench=$1 SRC=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0 n=0
cd "$T" || exit 1
mkdir cwd

RUN="-s page_counter -p +ABC -w direct -t 1 -r 1 --time 0.001"
MODEL="model -s page_counter -p +ABC -w direct -t 2 --ops 10"
"$pcbench" $RUN -o "$T/run" >/dev/null 2>&1 || { echo "FAIL: could not prepare a run"; exit 1; }
PAHOLE=$SRC/tests/fixtures/pahole/holey.txt
SUGGEST="$SRC/tests/fixtures/layouts/conn.layout --recipe $SRC/tests/fixtures/recipes/conn.recipe -t 2 --ops 10 --warmup 0"

# The output options: SOURCE-FILE OPTION KIND | arguments, @ is the path under test.
table="harness/commands/cmd_measure.c out DIR | $RUN -o @
harness/commands/cmd_measure.c csv FILE | $RUN --csv @ -o $T/new
harness/commands/cmd_measure.c run-dir-file FILE | $RUN --run-dir-file @ -o $T/new
harness/commands/cmd_measure.c benchmark_out FILE | $RUN --benchmark_out=@ -o $T/new
harness/commands/cmd_model.c out DIR | $MODEL -o @
harness/commands/cmd_model.c csv FILE | $MODEL --csv @
harness/engines/layout/layout_cmd.c out FILE | layout import $PAHOLE -o @
harness/engines/layout/layout_suggest.c out FILE | layout suggest $SUGGEST -o @
harness/engines/layout/layout_suggest.c csv FILE | layout suggest $SUGGEST --csv @
harness/engines/layout/layout_suggest.c measure DIR | layout suggest $SUGGEST --budget 1 --measure=@
harness/commands/cmd_compare.c out DIR | compare $T/run -o @
harness/commands/cmd_merge.c out DIR | merge $T/run -o @
harness/commands/cmd_plot.c out DIR | plot $T/run -o @"

# Every output option in the code has a row.
grep -rnE '^[[:space:]]*(OPT_[A-Z_]*\(|\{)"(out|csv|run-dir-file|measure)", [^,]*, "(FILE|DIR)"' "$SRC/harness" |
	sed -E "s|^$SRC/||; s|:[0-9]+:[[:space:]]*(OPT_[A-Z_]*\(\|\{)\"([a-z-]*)\", [^,]*, \"([A-Z]*)\".*| \2 \3|" |
	sort -u >"$T/code"
# Google Benchmark's report file, taken out of argv by take_gb_args (not an option row).
grep -q '"--benchmark_out="' "$SRC/harness/commands/cmd_measure.c" &&
	echo "harness/commands/cmd_measure.c benchmark_out FILE" >>"$T/code" && sort -u -o "$T/code" "$T/code"
printf '%s\n' "$table" | sed 's/ |.*//' | sort -u >"$T/tested"
if ! cmp -s "$T/code" "$T/tested"; then
	echo "FAIL: output options in the code and in this test differ (< code, > test):"
	diff "$T/code" "$T/tested" | grep '^[<>]'
	fail=1
fi

# The files made inside each kind of directory, from the code.
run_files=$(sed -n '/^static const char \*const run_files\[\] = {/,/};/p' \
	"$SRC/harness/engines/measure/outputs.c" | grep -o '"[^"]*"' | tr -d '"')
# (the lock file is named by a macro, RUN_LOCK, in that table)
run_files="$run_files $(sed -n 's/^#define RUN_LOCK "\([^"]*\)"$/\1/p' "$SRC/harness/engines/measure/outputs.c")"
cmp_files=$(grep -o '"compare[^"]*\.[a-z]*"}' "$SRC/harness/engines/compare/formats.c" |
	tr -d '"}')
[ -n "$run_files" ] && [ -n "$cmp_files" ] || { echo "FAIL: no file names found"; exit 1; }
inside() { # the files a DIR option's command creates in it
	case "$1" in
	"$RUN -o @") echo $run_files $cmp_files ;;
	"$MODEL -o @") echo model.csv ;;
	"layout suggest "*) echo $run_files $cmp_files suggested.layout today.layout hitm.recipe ;;
	"compare "*) echo $cmp_files ;;
	"merge "*) echo results.csv results.jsonl ;;
	"plot "*) echo scaling-page_counter-direct.png forest-page_counter-direct.png counters-page_counter.png ;;
	esac
}

# (find from $T itself, %P: no subshell to cd; ~140 cases, each helper ~5 ms of CPU here)
state() { find "$T" \( -path "$T/cwd" -o -name '.[a-z]*' \) -prune -o -printf '%y %P -> %l %s\n' | sort; }

# expect2 WHAT ARGS - exit 2 and nothing under $T changed.
expect2() {
	what=$1
	shift
	before=$(state)
	(cd "$T/cwd" && exec timeout 60 "$pcbench" "$@") >/dev/null 2>"$T/.err"
	rc=$?
	n=$((n + 1))
	if [ $rc -ne 2 ]; then
		echo "FAIL: $what: exit $rc, want 2: pcbench $*"
		sed 's/^/    /' "$T/.err" | tail -n 3
		fail=1
	elif [ "$(state)" != "$before" ]; then
		echo "FAIL: $what: refused but changed files: pcbench $*"
		fail=1
	fi
}

root=0
[ "$(id -u)" -eq 0 ] && root=1
printf '%s\n' "$table" | while IFS= read -r row; do
	kind=$(echo "${row%% |*}" | awk '{ print $3 }')
	args=${row#* | }
	if [ "$kind" = FILE ]; then
		mkfifo "$T/fifo"
		ln -s "$T/fifo" "$T/tofifo"
		mkdir "$T/adir"
		ln -s "$T/nothing" "$T/dangling"
		specials="fifo tofifo adir dangling"
		if [ $root = 1 ]; then
			mknod "$T/cdev" c 1 3 # like /dev/null, but ours
			specials="$specials cdev"
		fi
		for s in $specials; do
			# shellcheck disable=SC2046 # the row's words
			expect2 "$kind $s" ${args%%@*}$T/$s${args#*@}
		done
		rm -rf "$T/fifo" "$T/tofifo" "$T/adir" "$T/dangling" "$T/cdev"
		# A symlink to a regular file is followed (--csv appends: start it empty).
		: >"$T/real"
		ln -s "$T/real" "$T/link"
		# shellcheck disable=SC2046
		(cd "$T/cwd" && exec "$pcbench" ${args%%@*}$T/link${args#*@}) \
			>/dev/null 2>"$T/.err"
		if [ ! -L "$T/link" ] || [ ! -s "$T/real" ]; then
			echo "FAIL: a symlink to a regular file was not followed: $args"
			sed 's/^/    /' "$T/.err" | tail -n 3
			fail=1
		fi
		rm -rf "$T/real" "$T/link" "$T/new" "$T/.err"
	else
		for f in $(inside "$args"); do
			for plant in link dangling fifo; do
				mkdir "$T/d"
				case $plant in
				link) : >"$T/victim" && ln -s "$T/victim" "$T/d/$f" ;;
				dangling) ln -s "$T/victim" "$T/d/$f" ;;
				fifo) mkfifo "$T/d/$f" ;;
				esac
				# shellcheck disable=SC2046
				expect2 "$f as a $plant" ${args%%@*}$T/d${args#*@}
				[ ! -s "$T/victim" ] ||
					{ echo "FAIL: written through $f: $args"; fail=1; }
				rm -rf "$T/d" "$T/victim"
			done
		done
	fi
	echo "$n" >"$T/.n"
	[ $fail = 0 ] || echo 1 >"$T/.fail"
done
[ -f "$T/.fail" ] && fail=1
n=$(cat "$T/.n")
echo "$n output-path cases checked"
[ "$n" -ge 60 ] || { echo "FAIL: only $n cases"; fail=1; }
exit $fail
