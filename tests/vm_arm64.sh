#!/bin/sh
# vm_arm64.sh PCBENCH SRCDIR - one arm64 guest of scripts/numa-vm (--arch arm64 --cpu
# neoverse-n1 --icount, the qemu-2s2n topology: Debian's arm64 kernel under QEMU TCG) running
# the cross build's pcbench (build-arm64/pcbench), several checks in it. Label "vm".
#   - a short page_counter run: every ok row has cycles_per_op and instructions_per_op
#     (QEMU's TCG PMU counts instructions under -icount); the other events are counted or
#     absent with the PMU's own reason, never 0; context.json names the PMU (arm_n1), the
#     machine's MIDR fields (implementer 0x41, part 0xd0c: Neoverse N1) and its 2 sockets;
#   - `pcbench model` of the arm64 binary prints and writes what PCBENCH (this machine's
#     build) does, byte for byte.
# The cross build: `make test` and `make test-release` configure build-arm64 (make
# cross-arm64-configure); here its pcbench target is built (or brought up to date), after
# configuring it as make does when ctest runs alone. Skip (77) only when it is missing and there is no cross compiler.
# Nothing is timed: QEMU's cycles are virtual, the guest's own cgroups and mounts only.
set -u
. "${0%/*}/preamble.sh"
xb=$src/build-arm64
if [ -f "$xb/CMakeCache.txt" ]; then
	cmake --build "$xb" -j "$(nproc)" --target pcbench >"$tmp/xbuild" 2>&1 ||
		{ no "the cross build ($xb) failed"; cat "$tmp/xbuild"; exit 1; }
elif command -v aarch64-linux-gnu-gcc >/dev/null 2>&1; then
	{ cmake -S "$src" -B "$xb" -DCMAKE_BUILD_TYPE=Release \
		-DCMAKE_TOOLCHAIN_FILE="$src/cmake/aarch64-linux-gnu.cmake" \
		-DPCBENCH_HOST_PCBENCH="$pcbench" &&
		cmake --build "$xb" -j "$(nproc)" --target pcbench; } >"$tmp/xbuild" 2>&1 ||
		{ no "the cross build ($xb) failed (scripts/install-deps --cross arm64?)"; cat "$tmp/xbuild"; exit 1; }
else
	echo "SKIP: no arm64 cross build (build-arm64) and no aarch64-linux-gnu-gcc to make one (scripts/install-deps --cross arm64, then make cross-arm64)"
	exit 77
fi

fixture=$src/tests/topologies/qemu-2s2n.synthetic
desc=$(grep -v '^#' "$fixture")
model_args="-s page_counter -p v6.0-rc1,+ABC -w direct -t 2,4 -P scatter --ops 200 --warmup 50"

mkdir -p "$tmp/out/guest" "$tmp/host"
cat >"$tmp/guest.sh" <<EOG
set -u
o=\$NUMA_VM_OUT
\$PCBENCH --list-events >\$o/events.txt 2>&1
\$PCBENCH -s page_counter -p v6.0-rc1,+ABC -w direct -t 2 --design independent -r 4 \
	--time 0.01 --noise-max off -o \$o/run >\$o/run.out 2>\$o/run.err
echo \$? >\$o/run.rc
cd \$o/guest && \$PCBENCH model $model_args --topology 'synthetic:$desc' -o model >model.txt 2>&1
echo \$? >model.rc
EOG
"$src/scripts/numa-vm" --arch arm64 --cpu neoverse-n1 --icount --topology 2s2n --timeout 400 \
	-o "$tmp/out" --shell "$tmp/guest.sh" >"$tmp/console" 2>&1
rc=$?
o=$tmp/out
[ $rc -eq 0 ] || { no "the guest: exit $rc"; cat "$tmp/console"; exit 1; }
for f in events.txt run.out run.err; do
	echo "--- guest: $f"
	cat "$o/$f"
done

# The counters: the PMU libpfm4's arm tables name for Neoverse N1.
grep -q '^pmu: arm_n1 ' "$o/events.txt" ||
	no "--list-events names no arm_n1 PMU: $(head -n 3 "$o/events.txt")"
[ "$(cat "$o/run.rc")" = 0 ] || no "the run: exit $(cat "$o/run.rc")"
python3 - "$o/run/results.csv" "$o/run/context.json" <<'PY' || fail=1
import csv, json, sys
bad = []
rows = list(csv.DictReader(open(sys.argv[1])))
ok = [r for r in rows if r["status"] == "ok"]
if not ok:
    bad.append("no ok row: %s" % [r["status"] for r in rows])
for r in ok:
    what = "%s threads=%s" % (r["preset"], r["threads"])
    for c in ("cycles_per_op", "instructions_per_op"):
        if r.get(c, "") == "":
            bad.append("%s: %s empty (%s)" % (what, c, r.get("counters_note")))
    # Counted, or absent with the reason that names it; no HITM on Arm, said so.
    note = r.get("counters_note", "")
    for c in ("llc_miss", "c2c_fill_remote", "hitm_local"):
        if r.get(c + "_per_op", "") == "" and c not in note:
            bad.append("%s: %s_per_op empty, not named in counters_note %r" % (what, c, note))
    if "Arm PMUs have no HITM event" not in note:
        bad.append("%s: counters_note does not say why HITM is empty: %r" % (what, note))
ctx = json.load(open(sys.argv[2]))
cnt = ctx["options"]["counters"]
if cnt.get("pmu") != "arm_n1":
    bad.append("context.json: counters pmu %r, not arm_n1" % cnt.get("pmu"))
for e in cnt.get("events", []):
    if not e["counted"] and not e.get("absent"):
        bad.append("context.json: %s not counted, no reason" % e["name"])
m = ctx["machine"]
want = {"cpu_implementer": "0x41", "cpu_part": "0xd0c"}
for k, v in want.items():
    if m.get(k) != v:
        bad.append("context.json: machine %s %r, not %s" % (k, m.get(k), v))
if "Neoverse N1" not in m.get("cpu_model", ""):
    bad.append("context.json: machine cpu_model %r" % m.get("cpu_model"))
if m.get("sockets") != 2:  # qemu-2s2n's packages, from sysfs (no "physical id" on arm64)
    bad.append("context.json: machine sockets %r, not 2" % m.get("sockets"))
for b in bad:
    print("FAIL:", b)
r = ok[0] if ok else {}
print("row:", {k: r.get(k) for k in ("preset", "threads", "status", "cycles_per_op",
      "instructions_per_op", "llc_miss_per_op", "c2c_fill_remote_per_op", "counters_note")})
print("machine:", {k: m.get(k) for k in ("cpu_vendor", "cpu_model", "cpu_implementer",
      "cpu_variant", "cpu_part", "cpu_revision", "sockets")})
sys.exit(1 if bad else 0)
PY

# The model: the arm64 binary's output equals this machine's, byte for byte.
(cd "$tmp/host" && "$pcbench" model $model_args --topology "synthetic:$desc" -o model \
	>model.txt 2>&1
echo $? >model.rc)
for f in model.rc model.txt model/model.csv; do
	cmp -s "$tmp/host/$f" "$o/guest/$f" ||
		{ no "pcbench model: arm64's $f differs from this machine's"; diff "$tmp/host/$f" "$o/guest/$f" | head -n 20; }
done
[ "$(cat "$tmp/host/model.rc")" = 0 ] || no "pcbench model: exit $(cat "$tmp/host/model.rc")"
[ $fail -eq 0 ] && echo "ok: the arm64 guest counted with arm_n1; its model output equals this machine's"
exit $fail
