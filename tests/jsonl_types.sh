#!/bin/sh
# jsonl_types.sh PCBENCH SRCDIR - results.jsonl of a run (integer and text
# parameters, counters), of a --matrix run and of their merge, loaded with Python's json:
# every member has its column's type (tests/jsonl_types.py), empty cells null.
set -u
. "${0%/*}/preamble.sh"
cd "$tmp" || exit 1
# A busy machine may fail a measurement (exit 1: its row says why); the rows are there.
ran() { [ "$1" -le 1 ] || { echo "FAIL: $2: exit $1"; fail=1; }; }
"$pcbench" -s page_counter -w direct -p v6.0-rc1 -t 1,2 -r 1 --time 0.002 -o a \
	>/dev/null 2>&1
ran $? "run a"
"$pcbench" -s c2c -w pingpong -t 2 -r 1 --time 0.002 --events none --matrix -o b \
	>/dev/null 2>&1
ran $? "run b (--matrix)"
# Under TSan only the two runs above, which start threads: the rest is one thread, ASan checks it.
case ${PCBENCH_SANITIZED:-} in *thread*) exit $fail ;; esac
"$pcbench" merge a b -o m >/dev/null 2>&1 || { echo "FAIL: merge"; fail=1; }
grep -q '"threads":1,' a/results.jsonl || { echo "FAIL: threads is not a number"; fail=1; }
python3 "$src/tests/jsonl_types.py" "$src" a/results.jsonl b/results.jsonl m/results.jsonl ||
	fail=1
exit $fail
