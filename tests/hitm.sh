#!/bin/sh
# hitm.sh PCBENCH SRCDIR - `pcbench hitm` and objects.json through the binary.
#  - hitm report on the hand-written fixture run (tests/fixtures/hitm/run/objects.json) with
#    perf script text in perf's own format, Intel-style (intel.script, and the same samples
#    as perf 6.1 prints their levels: intel61.script) and AMD IBS-style (amd.script) data_src: samples outside every window, outside every object, in a hole,
#    on a field boundary (offsets 255 and 256 of L1) and stores; the measured tables must
#    equal tests/golden/hitm/*.txt exactly (PCBENCH_UPDATE_GOLDEN=1 rewrites them; the
#    model's columns, which follow " |", are checked for presence only: test_model pins
#    the model's numbers);
#  - objects.json of a short real run (--time 0.02): parsed back by hitm report, one
#    window per repetition, CLOCK_MONOTONIC, every object with a base and a layout;
#  - where perf can record software samples: hitm report runs perf script itself on a
#    real perf.data and reads every line of it;
#  - hitm record: bad run options exit 2 naming them before anything about perf; without
#    perf in PATH it exits 2 with "no perf binary"; as it is on this machine it either
#    exits 2 naming what is missing (no perf binary, no PMU, perf_event_paranoid) and
#    leaves no run directory, or (a lab machine) records perf.data; on a fake machine
#    (PCBENCH_SYSFS_ROOT/PCBENCH_PROCFS_ROOT: a mem-loads PMU) it names paranoid 2 alone,
#    and with paranoid 1 runs a stand-in perf with the exact perf c2c record command line
#    around the measurement;
#  - usage errors of hitm report exit 2; RUN/perf.data a FIFO is refused at once (exit 2);
#    SIGTERM while perf script runs (a stand-in that waits) ends pcbench (exit 3) and the
#    perf it started: no orphan; so does SIGINT while hitm record's perf c2c record runs.
set -u
. "${0%/*}/preamble.sh"
fx=$src/tests/fixtures/hitm

# objects.json of a real run, parsed back.
run=$tmp/run
if "$pcbench" -s page_counter -p v6.0-rc1 -w direct -t 1,2 -r 2 --time 0.02 -o "$run" \
	>/dev/null 2>"$tmp/err"; then
	grep -q '"clock": "CLOCK_MONOTONIC"' "$run/objects.json" || no "objects.json: no clock"
	grep -q '"base": "0x[0-9a-f]*"' "$run/objects.json" || no "objects.json: no base address"
	# one sample, outside every window of this run (--script refuses a file without one)
	grep -m 1 '|OP ' "$fx/intel.script" >"$tmp/one.script"
	"$pcbench" hitm report "$run" --script "$tmp/one.script" >"$tmp/real.out" 2>"$tmp/err" ||
		no "hitm report of a real run: $(cat "$tmp/err")"
	n=$(grep -c '(2 windows; 0 samples in them' "$tmp/real.out")
	[ "$n" = 2 ] || no "hitm report of a real run: expected 2 families of 2 windows, got $n"
	grep -q '^L1.memory.usage ' "$tmp/real.out" || no "hitm report of a real run: no L1.memory.usage row"
else
	no "short run failed: $(cat "$tmp/err")"
fi

# The fake machine of hitm record's checks below (sysfs and procfs roots, lib/sysfs.h): an
# Intel PMU with mem-loads, no capabilities; perf_event_paranoid is set by each check.
mkdir -p "$tmp/sys/bus/event_source/devices/cpu/events" "$tmp/proc/sys/kernel" "$tmp/proc/self" \
	"$tmp/bin"
echo 'event=0xcd,umask=0x1,ldlat=3' >"$tmp/sys/bus/event_source/devices/cpu/events/mem-loads"
printf 'Name:\tpcbench\nCapEff:\t0000000000000000\n' >"$tmp/proc/self/status"

# Signals (TSan checks what their handlers call): a stand-in perf that waits (first on
# PATH); SIG to pcbench while it runs ends both.
mkdir "$tmp/slowbin"
printf '#!/bin/sh\necho $$ >"%s/slowperf.pid"\nexec sleep 300\n' "$tmp" >"$tmp/slowbin/perf"
chmod +x "$tmp/slowbin/perf"
# stop_perf SIG WHAT COMMAND... - COMMAND (pcbench WHAT) in the background with the slow
# perf; SIG to it once perf runs: it exits 3 and leaves no perf running.
stop_perf() {
	sig=$1 what=$2
	shift 2
	rm -f "$tmp/slowperf.pid"
	PATH="$tmp/slowbin:$PATH" "$@" >/dev/null 2>&1 &
	pid=$!
	i=0
	while [ ! -s "$tmp/slowperf.pid" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	kill -"$sig" $pid
	wait $pid
	st=$?
	perf_pid=$(cat "$tmp/slowperf.pid" 2>/dev/null)
	i=0
	while [ -n "$perf_pid" ] && kill -0 "$perf_pid" 2>/dev/null && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -n "$perf_pid" ] || no "$what: the stand-in perf never ran"
	if [ -n "$perf_pid" ] && kill -0 "$perf_pid" 2>/dev/null; then
		no "$what: SIG$sig left perf ($perf_pid) running"
		kill "$perf_pid"
	fi
	[ $st = 3 ] || no "$what: SIG$sig while perf runs: exit $st, want 3"
}
# perf script that never ends: SIGTERM to hitm report ends it too.
mkdir "$tmp/wait-run"
cp "$fx/run/objects.json" "$tmp/wait-run/"
: >"$tmp/wait-run/perf.data"
stop_perf TERM "hitm report" "$pcbench" hitm report "$tmp/wait-run"
# perf c2c record that never ends (the fake machine, paranoid 1): SIGINT to hitm record
# ends it too, as measure ends on SIGINT.
echo 1 >"$tmp/proc/sys/kernel/perf_event_paranoid"
stop_perf INT "hitm record" env PCBENCH_SYSFS_ROOT="$tmp/sys" PCBENCH_PROCFS_ROOT="$tmp/proc" \
	"$pcbench" hitm record -s page_counter -t 1 -r 1 --time 0.02 -o "$tmp/rec5"
# Under TSan only the run and the signals above: the rest is one thread; ASan runs it.
case ${PCBENCH_SANITIZED:-} in *thread*) exit $fail ;; esac

for arch in intel intel61 amd; do
	golden=$src/tests/golden/hitm/${arch%61}.txt # intel61: the samples as perf 6.1 prints them
	if ! (cd "$fx" && "$pcbench" hitm report run --script "$arch.script") >"$tmp/$arch.out" 2>"$tmp/err"; then
		no "hitm report $arch: exit $? ($(cat "$tmp/err"))"
		continue
	fi
	sed 's/  |.*//' "$tmp/$arch.out" >"$tmp/$arch.measured"
	if [ -n "${PCBENCH_UPDATE_GOLDEN:-}" ] && [ "$arch" != intel61 ]; then
		cp "$tmp/$arch.measured" "$golden" && echo "rewrote $golden"
	fi
	diff -u "$golden" "$tmp/$arch.measured" || no "hitm report $arch: differs from $golden"
	grep -q '^L1.memory.usage .* | *[0-9][0-9.]* ' "$tmp/$arch.out" ||
		no "hitm report $arch: no model column for L1.memory.usage"
done
# The same samples from stdin.
(cd "$fx" && "$pcbench" hitm report run --script -) <"$fx/intel.script" | sed 's/  |.*//' >"$tmp/stdin.out"
diff -q "$src/tests/golden/hitm/intel.txt" "$tmp/stdin.out" >/dev/null || no "hitm report --script -: differs"

# perf script as this machine's perf prints it: software samples with data addresses on
# the monotonic clock (no PMU needed), read through hitm report's own perf script call.
mkdir "$tmp/sw"
if perf record -q -e cpu-clock:u -d --clockid monotonic -o "$tmp/sw/perf.data" -- \
	"$pcbench" -s page_counter -p v6.0-rc1 -w direct -t 1 -r 1 --time 0.02 -o "$tmp/sw" \
	>/dev/null 2>&1; then
	"$pcbench" hitm report "$tmp/sw" >"$tmp/sw.out" 2>"$tmp/err" || no "hitm report (perf script): $(cat "$tmp/err")"
	head -n 1 "$tmp/sw.out" | grep -Eq '^run .*: ([0-9]+) lines, \1 samples: [0-9]+ outside every measured window, 0 unreadable lines$' ||
		no "hitm report (perf script): $(head -n 1 "$tmp/sw.out")"
	echo "perf script here: $(head -n 1 "$tmp/sw.out")"
else
	echo "perf record of software samples not possible here: perf script format not checked"
fi

# hitm record: the run's options first, then what sampling needs.
"$pcbench" hitm record -s nosuch -o "$tmp/rec0" >/dev/null 2>"$tmp/err"
st=$?
[ $st = 2 ] && grep -q 'nosuch' "$tmp/err" && ! grep -q 'perf' "$tmp/err" ||
	no "hitm record -s nosuch: exit $st: $(cat "$tmp/err")"
PATH=/nonexistent "$pcbench" hitm record -s page_counter -t 1 -r 1 --time 0.02 -o "$tmp/rec1" \
	>/dev/null 2>"$tmp/err"
st=$?
[ $st = 2 ] && grep -q 'no perf binary' "$tmp/err" && [ ! -e "$tmp/rec1" ] ||
	no "hitm record without perf: exit $st: $(cat "$tmp/err")"
"$pcbench" hitm record -s page_counter -p v6.0-rc1 -w direct -t 1 -r 1 --time 0.02 \
	-o "$tmp/rec2" >"$tmp/out" 2>"$tmp/err"
st=$?
if [ $st = 2 ]; then
	grep -E -q 'no perf binary|no PMU|perf_event_paranoid' "$tmp/err" ||
		no "hitm record: exit 2 without naming what is missing: $(cat "$tmp/err")"
	[ ! -e "$tmp/rec2" ] || no "hitm record: a refused run left $tmp/rec2"
	echo "hitm record here: $(cat "$tmp/err")"
elif [ $st = 0 ]; then
	[ -s "$tmp/rec2/perf.data" ] && [ -s "$tmp/rec2/objects.json" ] ||
		no "hitm record: exit 0 without perf.data and objects.json"
else
	no "hitm record: exit $st: $(cat "$tmp/err")"
fi

# A machine described by fake sysfs and procfs roots (lib/sysfs.h): an Intel PMU with
# mem-loads, perf_event_paranoid 2, no capabilities: only the paranoid setting is named.
echo 2 >"$tmp/proc/sys/kernel/perf_event_paranoid"
# A stand-in perf: records its arguments, creates the -o file, runs the command after its
# second "--" (the measurement) on the real machine.
cat >"$tmp/bin/perf" <<'STUB'
#!/bin/sh
printf '%s\n' "$@" >"$HITM_PERF_ARGS"
n=0
while [ $# -gt 0 ]; do
	case $1 in
	--) n=$((n + 1)); shift; [ $n = 2 ] && break; continue ;;
	-o) out=$2 ;;
	esac
	shift
done
: >"$out"
exec env -u PCBENCH_SYSFS_ROOT -u PCBENCH_PROCFS_ROOT "$@"
STUB
chmod +x "$tmp/bin/perf"
fake() {
	PATH=$tmp/bin:$PATH PCBENCH_SYSFS_ROOT=$tmp/sys PCBENCH_PROCFS_ROOT=$tmp/proc \
		HITM_PERF_ARGS=$tmp/perf.args "$pcbench" hitm record "$@"
}
fake -s page_counter -t 1 -r 1 --time 0.02 -o "$tmp/rec3" >/dev/null 2>"$tmp/err"
st=$?
[ $st = 2 ] && grep -q 'perf_event_paranoid is 2' "$tmp/err" && ! grep -q 'no PMU\|no perf' "$tmp/err" &&
	[ ! -e "$tmp/rec3" ] || no "hitm record, paranoid 2: exit $st: $(cat "$tmp/err")"
# perf_event_paranoid 1: it runs perf c2c record on the measurement, perf.data in the run.
echo 1 >"$tmp/proc/sys/kernel/perf_event_paranoid"
fake -s page_counter -p v6.0-rc1 -w direct -t 1 -r 2 --time 0.02 -o "$tmp/rec4" >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st = 0 ] || no "hitm record with a stand-in perf: exit $st: $(cat "$tmp/err")"
tr '\n' ' ' <"$tmp/perf.args" | grep -q "^c2c record -u -- --clockid monotonic -o $tmp/rec4/perf.data -- [^ ]*pcbench measure -s page_counter -p v6.0-rc1 -w direct -t 1 -r 2 --time 0.02 -o $tmp/rec4 --events none $" ||
	no "hitm record: perf called with: $(tr '\n' ' ' <"$tmp/perf.args")"
[ -e "$tmp/rec4/perf.data" ] && [ -s "$tmp/rec4/results.csv" ] && [ -s "$tmp/rec4/objects.json" ] ||
	no "hitm record: no perf.data, results.csv or objects.json in the run directory"
grep -q "next: pcbench hitm report $tmp/rec4" "$tmp/out" || no "hitm record: no next step printed"

# hitm report: usage errors; --script of a file with no perf sample line (text, NUL bytes,
# empty) and a 20-digit time (no overflow: an unreadable line) are refused.
printf 'root:x:0:0\0\0\n' >"$tmp/passwd"
: >"$tmp/empty.script"
for args in "" "$tmp/nothing" "$fx/run --top x" "$fx/run --script $tmp/nothing" "$fx/run extra" \
	"$fx/run --script $tmp/passwd" "$fx/run --script $tmp/empty.script"; do
	# shellcheck disable=SC2086
	"$pcbench" hitm report $args >/dev/null 2>"$tmp/err"
	st=$?
	[ $st = 2 ] && grep -q '^pcbench: ' "$tmp/err" || no "hitm report $args: exit $st"
done
# A 20-digit time (past int64 nanoseconds): an unreadable line, not an overflow (UBSan).
sed -n 1p "$fx/intel.script" | sed 's/ 999\.500000000:/ 99999999999999999999.500000000:/' >"$tmp/big.script"
"$pcbench" hitm report "$fx/run" --script "$tmp/big.script" >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st = 0 ] && grep -q "1 unreadable lines" "$tmp/out" ||
	no "hitm report, 20-digit time: exit $st: $(cat "$tmp/err") $(head -n 1 "$tmp/out")"

# RUN/perf.data a FIFO: refused before perf script would wait on it.
mkdir "$tmp/fifo-run"
cp "$fx/run/objects.json" "$tmp/fifo-run/"
mkfifo "$tmp/fifo-run/perf.data"
timeout 20 "$pcbench" hitm report "$tmp/fifo-run" >/dev/null 2>"$tmp/err"
st=$?
[ $st = 2 ] && grep -q "perf.data: not a regular file" "$tmp/err" ||
	no "hitm report with a FIFO perf.data: exit $st: $(cat "$tmp/err")"
exit $fail
