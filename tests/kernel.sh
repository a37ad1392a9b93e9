#!/bin/sh
# kernel.sh PCBENCH - the kernel scenario through the binary: --list names what each
# workload stands for; the default suite and the model leave it out; model, --with-model,
# hitm record and layout show refuse it with exit 2 and the reason; hackbench at 1 thread
# is a skipped row (exit 4); a tcp run records the real kernel in context.json (release,
# build id or why not, the BTF layout, the memory cgroup) and each row's note and kernel
# columns; compare --by kernel of two merged kernel runs. test_kernel covers every workload's counts and leaks. No time is asserted.
set -u
. "${0%/*}/preamble.sh"

"$pcbench" --list >"$tmp/list" || no "--list"
grep -q '^kernel$' "$tmp/list" || no "--list: no kernel scenario"
grep -q 'emulated by: page_counter:socket' "$tmp/list" || no "--list: tcp's emulation"
grep -q 'emulated by: per_node:shared' "$tmp/list" || no "--list: page_fault2's emulation"

# the default suite (no -s) does not have it: its workloads select nothing
(cd "$tmp" && "$pcbench" -w page_fault1 -t 1 >"$tmp/plan" 2>&1)
[ $? = 2 ] && grep -q 'no selected scenario has it' "$tmp/plan" || no "-w page_fault1 without -s"
(cd "$tmp" && "$pcbench" -t 1 --benchmark_filter=workload:tcp >"$tmp/plan" 2>&1)
[ $? = 2 ] && grep -q 'selects nothing' "$tmp/plan" || no "the default suite has kernel tcp"

# refused with exit 2, naming the reason, creating nothing
refused() {
	what=$1
	shift
	(cd "$tmp" && "$pcbench" "$@" >"$tmp/out" 2>&1)
	rc=$?
	[ $rc = 2 ] || no "$what: exit $rc, want 2"
	grep -q 'measures the running kernel' "$tmp/out" || { no "$what: no reason"; cat "$tmp/out"; }
	[ -z "$(ls "$tmp" | grep -v '^out$\|^list$\|^plan$')" ] || no "$what: left files: $(ls "$tmp")"
}
refused "model -s kernel" model -s kernel -t 2
refused "--with-model" -s kernel -w tcp -t 1 --with-model -o "$tmp/wm"
refused "hitm record" hitm record -s kernel -w tcp -t 1 -o "$tmp/hr"
refused "layout show" layout show v6.1 --scenario kernel --preset running
"$pcbench" model -t 2 -p v6.0-rc1 -w direct >/dev/null 2>&1 || no "model without -s"

"$pcbench" -s kernel -w hackbench -t 1 -r 1 --time 0.02 -o "$tmp/hb" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 4 ] || { no "hackbench -t 1: exit $rc, want 4"; cat "$tmp/err"; }
grep -q 'skipped,hackbench needs 2 threads' "$tmp/hb/results.csv" || no "hackbench -t 1: no skipped row with its reason"

"$pcbench" -s kernel -w tcp -t 1 -r 1 --time 0.05 --noise-max off -o "$tmp/tcp" >/dev/null 2>"$tmp/err" ||
	{ no "tcp -t 1"; cat "$tmp/err"; }
grep -q 'note: kernel tcp at 1 thread' "$tmp/err" || no "tcp -t 1 does not say sender and receiver share the PU"
python3 - "$tmp/tcp" "$(uname -r)" <<'PY' || fail=1
import csv, json, sys
d, release = sys.argv[1], sys.argv[2]
bad = []
k = json.load(open(d + "/context.json")).get("real_kernel")
if not k:
    sys.exit(print("FAIL: context.json has no real_kernel") or 1)
if k["release"] != release:
    bad.append("release " + k["release"])
if not (k["build_id"] or k.get("build_id_note")):
    bad.append("neither a build id nor why not")
if not (k["btf"].get("layout_fp") or k["btf"].get("note")):
    bad.append("btf: neither a fingerprint nor why not")
if k["memcg"]["version"] not in ("v1", "v2", "hybrid", None):
    bad.append("memcg version " + str(k["memcg"]["version"]))
for r in csv.DictReader(open(d + "/results.csv")):
    # --noise-max off: a row is disturbed only when its window was starved (a busy machine)
    if r["status"] not in ("ok", "disturbed"):
        bad.append("row status " + r["status"] + " " + r["reason"])
    elif r["status"] == "disturbed" and not r["reason"].endswith("(starved)"):
        bad.append("disturbed, not starved: " + r["reason"])
    if r["kernel_release"] != release or r["kernel_layout_fp"] != (k["btf"].get("layout_fp") or ""):
        bad.append("kernel columns " + r["kernel_release"] + " " + r["kernel_layout_fp"])
    if "messages sent" not in r["note"] or "loopback" not in r["note"]:
        bad.append("note " + r["note"])
for b in bad:
    print("FAIL: tcp run: " + b)
sys.exit(1 if bad else 0)
PY
# Across kernels: the tcp run and a copy of it as if measured on another boot (its
# kernel_release and run_id rewritten), merged and compared --by kernel.
cp -r "$tmp/tcp" "$tmp/tcpB"
python3 - "$tmp/tcpB" <<'PY' || fail=1
import csv, json, sys
d = sys.argv[1]
rows = list(csv.reader(open(d + "/results.csv")))
h = rows[0]
for r in rows[1:]:
    r[h.index("kernel_release")] = "9.9.9-other"
    r[h.index("run_id")] += "-B"
csv.writer(open(d + "/results.csv", "w"), lineterminator="\n").writerows(rows)
c = json.load(open(d + "/context.json"))
c["run_id"] += "-B"
json.dump(c, open(d + "/context.json", "w"))
PY
"$pcbench" merge "$tmp/tcp" "$tmp/tcpB" -o "$tmp/kk" >/dev/null 2>&1 || no "merge of two kernels"
"$pcbench" compare "$tmp/kk" --by kernel >"$tmp/bk" 2>&1 || { no "compare --by kernel"; cat "$tmp/bk"; }
grep -q '^compare *2 kernels side by side' "$tmp/bk" || { no "--by kernel: not 2 kernels"; cat "$tmp/bk"; }
grep -q "^machine *$(uname -r)#" "$tmp/bk" && grep -q '^machine *9.9.9-other#' "$tmp/bk" ||
	no "--by kernel: the release#fp labels"
grep -q '^design.*--by kernel: blocks cannot span boots' "$tmp/bk" || no "--by kernel: design line"
"$pcbench" compare "$tmp/kk" --by kernel --base 9.9.9-other >"$tmp/bk" 2>&1 &&
	grep -q '^base *9.9.9-other#' "$tmp/bk" || no "--by kernel --base RELEASE"
"$pcbench" compare "$tmp/tcp" --by kernel >"$tmp/bk" 2>&1 &&
	grep -q '^note *--by kernel: one kernel' "$tmp/bk" || no "--by kernel with one kernel: no fallback"
"$pcbench" compare "$tmp/kk" --by boot >"$tmp/bk" 2>&1
[ $? = 2 ] && grep -q 'expected host or kernel' "$tmp/bk" || no "--by boot not refused"

[ $fail = 0 ] && echo "ok: kernel scenario through the binary"
exit $fail
