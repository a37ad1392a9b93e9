#!/bin/sh
# cgroup.sh PCBENCH - --cgroup DIR against a fake cgroupfs (a directory in this test's temp
# dir with cgroup.controllers and cgroup.subtree_control files, PCBENCH_FAKE_CGROUPFS=1):
# this test never writes to a cgroup of the machine. The writes pcbench makes (memory.min,
# memory.low and +memory on the top level, +memory on the middle one, the measuring
# process's pid into the leaf's cgroup.procs) are in context.json; the hierarchy is gone
# after the run, also after SIGINT or SIGTERM to the parent. A DIR that is not cgroup2
# (without the fake), not a directory, or without memory in cgroup.subtree_control is
# refused with exit 2 and nothing created. No time is asserted.
set -u
. "${0%/*}/preamble.sh"

fake() {
	mkdir -p "$1"
	echo "cpu io memory pids" >"$1/cgroup.controllers"
	echo "${2-memory}" >"$1/cgroup.subtree_control"
	: >"$1/cgroup.procs"
}
left() { find "$1" -mindepth 1 ! -name cgroup.controllers ! -name cgroup.subtree_control ! -name cgroup.procs; }
run() { "$pcbench" -s kernel -w page_fault1 -t 1 --noise-max off "$@"; }

fake "$tmp/cg"
PCBENCH_FAKE_CGROUPFS=1 run -r 1 --time 0.02 --cgroup "$tmp/cg" -o "$tmp/r1" >/dev/null 2>"$tmp/err" ||
	{ no "a run in the fake cgroup"; cat "$tmp/err"; }
[ -z "$(left "$tmp/cg")" ] || no "the hierarchy stayed: $(left "$tmp/cg")"
python3 - "$tmp/r1/context.json" "$tmp/cg" <<'PY' || fail=1
import json, re, sys
c = json.load(open(sys.argv[1]))
cg, d = c["options"]["cgroup"], sys.argv[2]
top = d + "/pcbench-"
w = cg["writes"]
bad = []
pat = [r"/pcbench-\d+/memory\.min: \d+$", r"/pcbench-\d+/memory\.low: \d+$",
       r"/pcbench-\d+/cgroup\.subtree_control: \+memory$",
       r"/pcbench-\d+/mid/cgroup\.subtree_control: \+memory$",
       r"/pcbench-\d+/mid/leaf/cgroup\.procs: \d+$"]
if len(w) != len(pat):
    bad.append("%d writes, want %d: %s" % (len(w), len(pat), w))
for x, p in zip(w, pat):
    if not x.startswith(top) or not re.search(p, x):
        bad.append("write %r, want %s" % (x, p))
if cg["memory_low"] != 2 * cg["memory_min"] or cg["memory_min"] <= 0:
    bad.append("memory.min %s, memory.low %s" % (cg["memory_min"], cg["memory_low"]))
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY

# Interrupted: SIGINT, then SIGTERM, to the parent (it passes them on); exit 3, nothing left.
for sig in INT TERM; do
	# pcbench itself in the background (not through run(): $! would be a subshell)
	PCBENCH_FAKE_CGROUPFS=1 "$pcbench" -s kernel -w page_fault1 -t 1 --noise-max off -r 200 \
		--time 0.05 --cgroup "$tmp/cg" -o "$tmp/i$sig" >/dev/null 2>"$tmp/err" &
	pid=$!
	n=0
	while [ ! -s "$tmp/i$sig/results.csv" ] && [ $n -lt 200 ]; do sleep 0.1; n=$((n + 1)); done
	kill -$sig $pid
	wait $pid
	rc=$?
	[ $rc = 3 ] || { no "SIG$sig: exit $rc, want 3"; cat "$tmp/err"; }
	[ -z "$(left "$tmp/cg")" ] || no "SIG$sig: the hierarchy stayed: $(left "$tmp/cg")"
	grep -q '"interrupted": *true' "$tmp/i$sig/context.json" || no "SIG$sig: context.json not interrupted"
done

# Refused, with nothing created (no hierarchy, no run directory).
refused() {
	what=$1 want=$2
	shift 2
	"$@" >"$tmp/out" 2>&1
	rc=$?
	[ $rc = 2 ] || no "$what: exit $rc, want 2"
	grep -q -- "$want" "$tmp/out" || { no "$what: no reason like $want"; cat "$tmp/out"; }
	[ ! -e "$tmp/no" ] || no "$what: made the run directory"
}
mkdir "$tmp/plain"
refused "not cgroup2" "not a cgroup v2 directory" run -r 1 --time 0.02 --cgroup "$tmp/plain" -o "$tmp/no"
[ -z "$(ls "$tmp/plain")" ] || no "not cgroup2: left $(ls "$tmp/plain")"
refused "not a directory" "not a directory" run -r 1 --time 0.02 --cgroup "$tmp/cg/cgroup.procs" -o "$tmp/no"
fake "$tmp/nomem" "cpu io"
PCBENCH_FAKE_CGROUPFS=1 refused "memory not enabled for children" "not enabled for its children" \
	run -r 1 --time 0.02 --cgroup "$tmp/nomem" -o "$tmp/no"
[ -z "$(left "$tmp/nomem")" ] || no "memory not enabled: left $(left "$tmp/nomem")"
[ $fail = 0 ] && echo "ok: --cgroup on a fake cgroupfs"
exit $fail
