#!/bin/sh
# vm_lab.sh PCBENCH SRCDIR - a lab of two guests (issue 38): scripts/numa-vm boots two
# guests at once, 2s4n (2 packages, 4 NUMA nodes, 8 vCPUs) and 1s1n (1 package, 2 vCPUs),
# each with dropbear on its port 22 forwarded from 127.0.0.1:PORT of this machine. Then
# scripts/lab-run --installed runs the build tree's pcbench on both over ssh (GNU parallel's
# remote side: perl with perl-base, rsync; sh, tar and setsid of busybox), brings the
# runs back, merges them and compares them by host. Label "vm"; RUN_SERIAL. The keys are
# made here: dropbear's host keys (dropbearkey, their public halves in a known_hosts file,
# StrictHostKeyChecking=yes) and the client key (ssh-keygen). The hosts file uses only
# options of lab-run's allowlist (-p, -i, -o KEY=VALUE), never -F. Nothing is timed: the
# summary's rows and verdicts, the merged labels, compare's machine lines.
set -u
. "${0%/*}/preamble.sh"
for t in parallel rsync ssh ssh-keygen setsid perl; do
	command -v $t >/dev/null 2>&1 || { no "no $t (scripts/install-deps)"; exit 1; }
done
[ -x /usr/sbin/dropbear ] && command -v dropbearkey >/dev/null 2>&1 ||
	{ no "no dropbear (scripts/install-deps --vm: dropbear-bin)"; exit 1; }
perlbase=$(perl -MPOSIX -e 'print $INC{"POSIX.pm"}') && perlbase=${perlbase%/POSIX.pm}
[ -d "$perlbase" ] || { no "perl's POSIX.pm not found"; exit 1; }

# free_port: a port of 127.0.0.1 nobody listens on now (the kernel's choice).
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
ssh-keygen -q -t ed25519 -N '' -f "$tmp/client_key" || exit 1
: >"$tmp/known_hosts"
hosts="g2s4n:2s4n g1s1n:1s1n"
pids=""
stop_guests() {
	for h in $hosts; do : >"$tmp/${h%%:*}/stop" 2>/dev/null; done
	for p in $pids; do wait "$p"; done
}
trap 'stop_guests; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP # (the guests also end at numa-vm's --timeout)

# The guest's side: root's passwd line and authorized key, dropbear in the foreground on
# port 22 with the host key made here, until the test leaves a file "stop" in the share.
cat >"$tmp/guest.sh" <<'EOG'
o=$NUMA_VM_OUT
echo 'root:x:0:0:root:/root:/bin/sh' >/etc/passwd
echo 'root:x:0:' >/etc/group
echo /bin/sh >/etc/shells
mkdir -p /root/.ssh /etc/dropbear /var/run
chmod 700 /root /root/.ssh
cp "$o/authorized_keys" /root/.ssh/authorized_keys && chmod 600 /root/.ssh/authorized_keys
cp "$o/host_key" /etc/dropbear/host_key
/usr/sbin/dropbear -F -E -s -p 22 -r /etc/dropbear/host_key -P /run/dropbear.pid 2>"$o/dropbear.log" &
d=$!
: >"$o/up"
while [ ! -e "$o/stop" ]; do sleep 1; done
kill "$d"
nproc >"$o/nproc"
EOG
start=$(date +%s)
for h in $hosts; do
	label=${h%%:*} topo=${h#*:}
	d=$tmp/$label
	mkdir -p "$d"
	dropbearkey -t ed25519 -f "$d/host_key" >/dev/null 2>&1 || { no "dropbearkey"; exit 1; }
	cp "$tmp/client_key.pub" "$d/authorized_keys"
	port=$(free_port) || { no "no free port"; exit 1; }
	echo "$port" >"$d/port"
	echo "[127.0.0.1]:$port $(dropbearkey -y -f "$d/host_key" | grep '^ssh-ed25519' | cut -d' ' -f1,2)" \
		>>"$tmp/known_hosts"
	PCBENCH=$pcbench timeout -k 10 420 "$src/scripts/numa-vm" --topology "$topo" --mem 1024 \
		--timeout 400 --ssh-port "$port" -o "$d" --shell "$tmp/guest.sh" \
		--add /usr/sbin/dropbear --add /usr/bin/perl --add "$perlbase" --add "$(command -v rsync)" \
		>"$d/console" 2>&1 &
	pids="$pids $!"
	echo $! >"$d/pid"
done

opts="-i $tmp/client_key -o IdentitiesOnly=yes -o UserKnownHostsFile=$tmp/known_hosts"
opts="$opts -o StrictHostKeyChecking=yes -o BatchMode=yes -o LogLevel=ERROR -o ConnectTimeout=20"
: >"$tmp/hosts"
for h in $hosts; do
	label=${h%%:*}
	port=$(cat "$tmp/$label/port")
	# Up: dropbear answers a login (boots of two TCG guests at once on a busy machine: up
	# to 300 s).
	i=0
	# shellcheck disable=SC2086
	until [ -e "$tmp/$label/up" ] && ssh -p "$port" $opts root@127.0.0.1 true 2>"$tmp/ssh.err"; do
		i=$((i + 1))
		kill -0 "$(cat "$tmp/$label/pid")" 2>/dev/null || { no "$label: the guest ended"; cat "$tmp/$label/console"; exit 1; }
		[ $i -lt 150 ] || { no "$label: no ssh login in 300 s: $(cat "$tmp/ssh.err")"; cat "$tmp/$label/console"; exit 1; }
		sleep 2
	done
	echo "$label ssh -p $port $opts root@127.0.0.1" >>"$tmp/hosts"
done
echo "vm_lab: both guests answer ssh after $(($(date +%s) - start)) s"

# lab-run --installed: the guests hold the build tree's pcbench at the same path. Two TCG
# guests share this machine's CPUs: --noise-max off judges no run delay, but a window where
# no operation completed stays disturbed (starved) when it cannot rule out that the host
# took the vCPU away; 50 ms windows and 10 retries make that rare, and a host left with a
# disturbed row (pcbench exit 5: no verdict, lab-run exit 1) is not a failure here.
PCBENCH=$pcbench timeout -k 10 300 sh "$src/scripts/lab-run" -H "$tmp/hosts" --installed \
	--pcbench "$pcbench" -o "$tmp/lab" -- -s page_counter -p v6.0-rc1,+ABC -w direct -t 1 \
	--design independent -r 4 --time 0.05 --noise-retries 10 --events none --noise-max off \
	>"$tmp/lab.out" 2>&1
rc=$?
echo "vm_lab: lab-run exit $rc after $(($(date +%s) - start)) s"
cat "$tmp/lab.out"
summary() { awk -v l="$1" '/^hosts:/ { on = 1; next } on && $1 == l { print; exit }' "$tmp/lab.out"; }
disturbed=0
for h in $hosts; do
	label=${h%%:*}
	line=$(summary "$label")
	if ! echo "$line" | grep -Eq "^ +$label +ok +8 +0 +0 +0 +yes +$tmp/lab/$label/run.log\$"; then
		# shellcheck disable=SC2086
		set -- $line
		echo "$line" | grep -Eq "^ +$label +(ok|no-verdict) +[1-7] +[1-7] +0 +0 +(yes|no) +$tmp/lab/$label/run.log\$" &&
			[ $(($3 + $4)) -eq 8 ] && disturbed=1 || {
			no "summary of $label: \"$line\""
			grep -i 'error' "$tmp/lab/$label/run.log" | head -n 5 | sed 's/^/    /'
		}
	fi
	ls "$tmp/lab/$label/"*-"$label"/results.csv >/dev/null 2>&1 || no "$label: no run directory came back"
done
[ $rc -eq 0 ] || { [ $rc -eq 1 ] && [ $disturbed = 1 ]; } || no "lab-run: exit $rc"
# The guests' machines: 2 packages and 8 CPUs, 1 package and 2 CPUs (context.json).
python3 - "$tmp/lab" <<'PY' || fail=1
import glob, json, sys
want = {"g2s4n": (2, 8), "g1s1n": (1, 2)}
bad = 0
for label, (pk, pu) in want.items():
    ctx = glob.glob("%s/%s/*-%s/context.json" % (sys.argv[1], label, label))
    if not ctx:
        continue
    c = json.load(open(ctx[0]))
    m = c.get("machine", {})
    got = (m.get("sockets"), m.get("cpus_online"))
    if got != (pk, pu):
        print("FAIL: %s: machine sockets, cpus_online %s, want %s" % (label, got, (pk, pu)))
        bad = 1
sys.exit(bad)
PY
grep -q '^merged 2 runs' "$tmp/lab.out" || no "the two runs were not merged"
labels=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "label") c = i; next }
	{ print $c }' "$tmp/lab/merged/results.csv" 2>/dev/null | sort -u | tr '\n' ' ')
[ "$labels" = "g1s1n g2s4n " ] || no "merged labels: \"$labels\""
for h in $hosts; do
	grep -q "^machine *${h%%:*}" "$tmp/lab.out" || no "compare --by host lacks ${h%%:*}"
done

stop_guests
pids=""
for h in $hosts; do
	label=${h%%:*}
	grep -q . "$tmp/$label/nproc" 2>/dev/null || { no "$label: the guest did not end well"; cat "$tmp/$label/console"; }
done
echo "vm_lab: done after $(($(date +%s) - start)) s"
[ $fail -eq 0 ] && echo "ok: lab-run over ssh to two guests (2s4n, 1s1n), merged, compared by host"
exit $fail
