#!/bin/sh
# lab_hosts.sh SRCDIR - scripts/lab-run's hosts file and options are data, checked before
# anything runs (no sshd: ssh, parallel, rsync and setsid on PATH are stand-ins that leave
# a marker file when they run at all):
# 1) a refused hosts line or --ssh CMD exits 2 naming the line (or --ssh) and the option,
#    creates nothing and runs nothing: shell code, and every ssh option that runs a
#    command or loads code (ProxyCommand, LocalCommand with PermitLocalCommand,
#    KnownHostsCommand, PKCS11Provider, SecurityKeyProvider, XAuthLocation, -F, ProxyJump
#    and -J, Match exec, Include, ...), each as -o KEY=VALUE and as -oKEY=VALUE, in any case;
# 2) the pcbench options lab-job sets itself (--label, -o/--out, --topology, also
#    abbreviated or with the value attached) are refused the same way;
# 3) a line of allowlisted options, an IPv6 address in brackets and a plain login are
#    accepted: lab-run goes on to GNU parallel.
set -u
src=$1
lab=$src/scripts/lab-run
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
mkdir "$tmp/bin" "$tmp/w"
for t in ssh parallel rsync setsid; do
	printf '#!/bin/sh\necho "$0 $*" >>"%s/ran"\nexit 1\n' "$tmp" >"$tmp/bin/$t"
	chmod +x "$tmp/bin/$t"
done
PATH=$tmp/bin:$PATH
export PATH
cd "$tmp/w" || exit 1
tiny="-s page_counter -t 1"
evil=$tmp/evil.so # never created: nothing may even try it
printf 'ProxyCommand touch %s/pwned\n' "$tmp" >"$tmp/cfg"

# refused WHAT WANT COMMAND...: COMMAND exits 2, says WANT (a fixed string) on stderr,
# creates nothing here and runs none of the stand-ins.
n=0
refused() {
	what=$1 want=$2
	shift 2
	n=$((n + 1))
	"$@" >"$tmp/log" 2>&1
	rc=$?
	[ $rc -eq 2 ] || { echo "FAIL: $what: exit $rc, want 2"; cat "$tmp/log"; fail=1; }
	grep -qF -- "$want" "$tmp/log" || { echo "FAIL: $what: no \"$want\" in:"; cat "$tmp/log"; fail=1; }
	[ -z "$(ls -A)" ] || { echo "FAIL: $what: refused, yet it created $(ls -A)"; fail=1; rm -rf ./*; }
	[ ! -e "$tmp/ran" ] || { echo "FAIL: $what: ran $(cat "$tmp/ran")"; fail=1; rm -f "$tmp/ran"; }
}
# line TEXT: TEXT as line 3 of a hosts file must be refused, naming line 3 and WANT.
line() {
	printf '# line 1 is a comment\nok1 root@127.0.0.1\n%s\n' "$1" >"$tmp/hosts"
	refused "hosts line \"$1\"" "lab-run: $tmp/hosts:3: ${2:-}" \
		sh "$lab" -H "$tmp/hosts" -o out --installed -- $tiny
}

# 1) Shell code and malformed lines.
while IFS= read -r bad; do
	line "$bad"
done <<'EOF'
lab1 root$(touch${IFS}pwned)@127.0.0.1
lab1 root`touch pwned`@127.0.0.1
lab1 root@127.0.0.1;touch pwned
lab1 root@127.0.0.1 && touch pwned
lab1 root@127.0.0.1|touch pwned
lab1 us er@127.0.0.1
lab1 ssh -p 1;touch root@127.0.0.1
lab1 -oProxyCommand=touch
-rf root@127.0.0.1
--help root@127.0.0.1
.hidden root@127.0.0.1
la$(touch pwned)b root@127.0.0.1
lab1 A-B=c root@127.0.0.1
lab1 FOO=$(touch${IFS}pwned) root@127.0.0.1
lab1 PCBENCH_NOISE_MAX=1
ok1 root@127.0.0.1
lab1 :
lab1 root@host:22
lab1 root@[nothex]
lab1 ssh -p 65536 root@127.0.0.1
lab1 ssh -p 1x root@127.0.0.1
lab1 /tmp/ssh root@127.0.0.1
lab1 ssh -o Port root@127.0.0.1
EOF
# Every ssh option that runs a command or loads code, both forms, any case: refused naming it.
for kv in "PKCS11Provider=$evil" "SecurityKeyProvider=$evil" "ProxyCommand=touch,$tmp/pwned" \
	"ProxyJump=root@127.0.0.1" "LocalCommand=touch,$tmp/pwned" "PermitLocalCommand=yes" \
	"KnownHostsCommand=/bin/true" "RemoteCommand=true" "Match=exec" "Include=$tmp/cfg" \
	"XAuthLocation=$tmp/pwned" "ForwardAgent=yes" "ControlPath=$tmp/ctl" "HostName=evil" \
	"proxycommand=x" "PROXYCOMMAND=x" "pkcs11provider=$evil" "=ProxyCommand=x" \
	"Port"; do
	line "lab1 ssh -o $kv root@127.0.0.1" "ssh option \"-o $kv\""
	line "lab1 ssh -o$kv root@127.0.0.1" "ssh option \"-o $kv\""
done
line "lab1 ssh -o PermitLocalCommand=yes -o LocalCommand=touch,$tmp/pwned root@127.0.0.1" \
	'ssh option "-o PermitLocalCommand=yes"'
for o in "-F $tmp/cfg" "-F$tmp/cfg" "-J root@127.0.0.1" "-Jroot@127.0.0.1" -A -X -Y -G -N \
	"-qF $tmp/cfg" "-vF$tmp/cfg" "-E $tmp/log" "-S $tmp/ctl" "-w 0" "-D 1080" "-L 1:h:2" --; do
	line "lab1 ssh $o root@127.0.0.1" "ssh option \"${o%% *}\""
done
# --ssh CMD: the same rule, named as --ssh.
for c in "ssh -F $tmp/cfg" "ssh -oProxyCommand=touch,$tmp/pwned" "ssh -o PKCS11Provider=$evil" \
	"ssh -J h" "/bin/sh -c" "ssh -o Match=exec"; do
	printf 'ok1 root@127.0.0.1\n' >"$tmp/hosts"
	refused "--ssh \"$c\"" "lab-run: $tmp/hosts:--ssh: " \
		sh "$lab" -H "$tmp/hosts" --ssh "$c" -o out --installed -- $tiny
done

# 2) pcbench options lab-job sets itself.
printf 'ok1 root@127.0.0.1\n' >"$tmp/hosts"
for o in "--label x" "--label=x" "--lab x" "-o d" "-od" "--out d" "--ou=d" "--topology t" \
	"--topo=t"; do
	refused "pcbench option $o" "pcbench option \"${o%% *}\": lab-run sets " \
		sh "$lab" -H "$tmp/hosts" -o out --installed -- $tiny $o
done
[ ! -e "$tmp/pwned" ] || { echo "FAIL: a hosts line ran a command locally"; fail=1; }
[ $n -eq 94 ] || { echo "FAIL: $n refusal cases, want 94"; fail=1; }

# 3) Accepted: lab-run gets as far as GNU parallel (the stand-in fails: exit 1).
printf '%s\n' "a1 ssh -4 -C -q -v -p 2299 -l root -i $tmp/key -o IdentitiesOnly=yes \
-oStrictHostKeyChecking=no -o userknownhostsfile=/dev/null -o BATCHMODE=yes -p22 127.0.0.1" \
	"a2 root@[::1]" "a3 PCBENCH_NOISE_MAX=20 bench@lab-1.example" >"$tmp/hosts"
sh "$lab" -H "$tmp/hosts" -o out --installed -- $tiny >"$tmp/log" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "parallel .*--sshloginfile" "$tmp/ran" ||
	{ echo "FAIL: allowlisted lines: exit $rc, want 1 after parallel ran"; cat "$tmp/log"; fail=1; }
grep -qx '@h1/ssh -4 -C -q -v -p 2299 -l root .* -p22 127.0.0.1' out/hosts.slf &&
	grep -qx '@h2/root@\[::1\]' out/hosts.slf ||
	{ echo "FAIL: hosts.slf:"; cat out/hosts.slf; fail=1; }
[ $fail -eq 0 ] && echo "lab_hosts: ok ($n refusals)"
exit $fail
