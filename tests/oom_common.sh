# oom_common.sh - sourced by oom_row.sh and vm_numa.sh (and by vm_numa's guest script, in
# the guest): the resource limits and pcbench command of issue 35's failures after the run
# directory exists, and the checks of what such a run leaves. It defines functions and
# $oom_limit only; the caller has set $pcbench (and, for the checks, $fail and no(), as
# preamble.sh does). POSIX sh that busybox's sh runs too.

oom_limit=131072 # KiB of address space: the default run needs about 20 MiB, a -D layout of 280

# oom_cmd ARGS - exec pcbench's run of these tests (page_counter +ABC direct, 2 short
# repetitions) with ARGS added: a subshell's last command.
oom_cmd() {
	exec "$pcbench" -s page_counter -p +ABC -w direct -r 2 --time 0.001 "$@"
}

# oom_threads T DIR - pcbench at -t T into DIR, stdout dropped, with 256 MiB thread stacks
# (ulimit -s: the default stack of every thread, Google Benchmark's too) and address space
# for one of them (ulimit -v), so that threads cannot be created. Its exit status; 77 when
# the shell refused a limit.
oom_threads() { (
	ulimit -s 262144 && ulimit -v $((oom_limit + 262144 + 65536)) || exit 77
	oom_cmd -t "$1" -o "$2"
) >/dev/null; }

# error_row DIR RE WHAT - DIR/results.csv has a status=error row whose reason matches the
# ERE RE (by the header's column numbers: no cell before them holds a comma), so has
# DIR/results.jsonl (RE from the reason's start when it begins with ^, else anywhere in
# it), and DIR/context.json has its end time; else FAIL lines prefixed with WHAT.
error_row() {
	awk -F, -v re="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["status"] == "error" && $c["reason"] ~ re { found = 1 }
		END { exit !found }' "$1/results.csv" 2>/dev/null ||
		no "$3results.csv has no status=error row naming $2"
	case $2 in
	^*) oom_re=${2#^} ;;
	*) oom_re="[^\"]*$2" ;;
	esac
	grep -Eq "\"status\":\"error\",\"reason\":\"$oom_re" "$1/results.jsonl" 2>/dev/null ||
		no "$3results.jsonl has no status=error row naming $2"
	grep -Eq '"end_time": "[0-9]{4}-' "$1/context.json" 2>/dev/null ||
		no "$3context.json has no end_time"
}

# oom_threads_check T DIR RC ERR WHERE - what oom_threads T DIR left: exit RC 1 (never 134,
# SIGABRT: std::terminate), a status=error row naming the thread that could not start
# (error_row), stderr (file ERR) saying so. WHERE names the machine in the messages. RC 77:
# a SKIP line; none (empty): a FAIL line.
oom_threads_check() {
	case $3 in '' | *[!0-9]*)
		no "-t $1$5: no exit status"
		return 0
		;;
	esac
	if [ "$3" -eq 77 ]; then
		echo "SKIP: -t $1$5: ulimit refused"
		return 0
	fi
	[ "$3" -eq 1 ] || {
		no "-t $1$5: exit $3, want 1$([ "$3" -ne 134 ] || echo ' (134: SIGABRT)')"
		cat "$4"
	}
	error_row "$2" thread "-t $1$5: "
	grep -qi thread "$4" || no "-t $1$5: stderr does not name the thread: $(cat "$4")"
	echo "-t $1$5, threads that cannot start: exit $3: $(grep -m1 -i thread "$4")"
}
