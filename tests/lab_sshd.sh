# lab_sshd.sh - sourced by the lab tests: start_sshd DIR starts a throwaway sshd bound to
# 127.0.0.1 on a free high port (host key, client key and config under DIR, StrictModes no
# since the keys live under a scratch path) and writes DIR/ssh_config for `ssh -F`, with
# the host alias "lab"; stop_sshd DIR stops it. Needs root (sshd as another user cannot
# log in as itself with privilege separation) and openssh-server; returns 77 otherwise.
start_sshd() {
	d=$1
	[ "$(id -u)" -eq 0 ] || { echo "SKIP: not root (sshd)"; return 77; }
	[ -x /usr/sbin/sshd ] || { echo "FAIL: no /usr/sbin/sshd (openssh-server: scripts/install-deps)"; return 1; }
	mkdir -p /run/sshd
	ssh-keygen -q -t ed25519 -N '' -f "$d/host_key" || return 1
	ssh-keygen -q -t ed25519 -N '' -f "$d/client_key" || return 1
	cp "$d/client_key.pub" "$d/authorized_keys"
	for try in 1 2 3 4 5; do
		port=$(awk 'BEGIN { srand(); print 20000 + int(rand() * 40000) }')
		cat >"$d/sshd_config" <<EOC
Port $port
ListenAddress 127.0.0.1
HostKey $d/host_key
AuthorizedKeysFile $d/authorized_keys
PidFile $d/sshd.pid
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
Subsystem sftp internal-sftp
EOC
		/usr/sbin/sshd -f "$d/sshd_config" -E "$d/sshd.log" || continue
		for i in 1 2 3 4 5 6 7 8 9 10; do
			[ -s "$d/sshd.pid" ] && break
			sleep 0.2
		done
		cat >"$d/ssh_config" <<EOC
Host lab
	HostName 127.0.0.1
	Port $port
	User $(id -un)
	IdentityFile $d/client_key
	IdentitiesOnly yes
	StrictHostKeyChecking no
	UserKnownHostsFile /dev/null
	BatchMode yes
	LogLevel ERROR
	ConnectTimeout 5
EOC
		if ssh -F "$d/ssh_config" lab true; then
			SSHD_PORT=$port
			return 0
		fi
		stop_sshd "$d"
	done
	echo "FAIL: could not start sshd on 127.0.0.1"; cat "$d/sshd.log"
	return 1
}

stop_sshd() {
	[ -s "$1/sshd.pid" ] && kill "$(cat "$1/sshd.pid")" 2>/dev/null
	rm -f "$1/sshd.pid"
}
