#!/bin/sh
# profile.sh PCBENCH - --profile and `pcbench profile`: page_fault2 at 2 threads sampled
# (cpu-clock on this VM, cycles where a PMU allows): profile.csv and every row's profile
# cells (the memcg share is a recorded number, not asserted); `pcbench profile RUN` lists
# the top functions per family with shares adding up to 100% of the samples; a run without
# profile data, or a bad --top, exits 2. Where this machine refuses kernel sampling (not
# root and perf_event_paranoid > 1) the cells must be empty with the reason instead.
# Skipped (77) where perf_event_open is ENOSYS (qemu-user, some containers).
set -u
. "${0%/*}/preamble.sh"
skip_without_perf

"$pcbench" -s kernel -w page_fault2 -t 2 -r 2 --time 0.05 --noise-max off --profile \
	-o "$tmp/pf" >/dev/null 2>"$tmp/err" || { no "page_fault2 --profile"; cat "$tmp/err"; }
grep '^pcbench: --profile:' "$tmp/err"
# Under TSan only the run above (-t 2): its checks and the rest are one thread; ASan runs them.
case ${PCBENCH_SANITIZED:-} in *thread*) exit $fail ;; esac
can=0
[ "$(id -u)" = 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 1 ] && can=1
python3 - "$tmp/pf" "$can" <<'PY' || fail=1
import csv, json, os, sys
d, can = sys.argv[1], sys.argv[2] == "1"
bad = []
rows = list(csv.DictReader(open(d + "/results.csv")))
opts = json.load(open(d + "/context.json"))["options"]["profile"]
for r in rows:
    if r["status"] != "ok":
        continue
    if can:
        if r["profile_event"] not in ("cycles", "cpu-clock") or int(r["profile_samples"]) <= 0:
            bad.append("row without samples: %s %s %s" % (r["profile_event"], r["profile_samples"], r["profile_note"]))
        share = float(r["memcg_share_pct"])
        if not 0 <= share <= 100 or r["memcg_ns_per_op"] == "":
            bad.append("memcg cells %s %s" % (r["memcg_share_pct"], r["memcg_ns_per_op"]))
    elif r["profile_samples"] or not r["profile_note"]:
        bad.append("refused sampling: cells not empty with a reason")
if can:
    prof = list(csv.DictReader(open(d + "/profile.csv")))
    per = {}
    for p in prof:
        per[p["repetition"]] = per.get(p["repetition"], 0) + int(p["samples"])
    for r in rows:
        if r["status"] == "ok" and per.get(r["repetition"]) != int(r["profile_samples"]):
            bad.append("profile.csv sums %s, the row says %s" % (per.get(r["repetition"]), r["profile_samples"]))
    if not opts.get("event"):
        bad.append("context.json options.profile has no event")
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
if [ $can = 1 ]; then
	"$pcbench" profile "$tmp/pf" --top 5 >"$tmp/top" 2>&1 || { no "profile RUN"; cat "$tmp/top"; }
	cat "$tmp/top"
	grep -q '^kernel running page_fault2  placement=.*threads=2' "$tmp/top" || no "profile: no family title"
	grep -q 'samples (cpu-clock\|samples (cycles' "$tmp/top" || no "profile: no event"
	awk '/^ *[0-9.]+%/ { n++; s += $1 } END { if (n < 2 || s < 99.9 || s > 100.1) { print "FAIL: profile: " n " lines, shares sum to " s; exit 1 } }' \
		"$tmp/top" || fail=1
fi

# no profile data: exit 2 naming why; a bad --top
"$pcbench" -s kernel -w page_fault1 -t 1 -r 1 --time 0.02 --noise-max off -o "$tmp/np" >/dev/null 2>&1
"$pcbench" profile "$tmp/np" >"$tmp/out" 2>&1
[ $? = 2 ] && grep -q 'no profile data' "$tmp/out" || { no "profile of a run without --profile"; cat "$tmp/out"; }
"$pcbench" profile "$tmp/pf" --top 0 >"$tmp/out" 2>&1
[ $? = 2 ] && grep -q -- '--top: 0' "$tmp/out" || no "--top 0 not refused"
[ $fail = 0 ] && echo "ok: --profile and pcbench profile"
exit $fail
