# lab_sshd.sh - sourced by the lab tests: start_sshd DIR starts a throwaway sshd bound to
# 127.0.0.1 on a free high port (host key, client key and config under DIR, StrictModes no
# since the keys live under a scratch path) and sets SSHD_PORT, SSHD_DEST (USER@127.0.0.1)
# and SSH_OPTS, the client's options but the port, all of them allowed in a lab-run hosts
# line (ssh -p "$SSHD_PORT" $SSH_OPTS "$SSHD_DEST" logs in); stop_sshd DIR stops it.
# Needs root (sshd as another user cannot log in as itself with privilege separation) and
# openssh-server; returns 77 otherwise.
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
		SSH_OPTS="-i $d/client_key -o IdentitiesOnly=yes -o StrictHostKeyChecking=no"
		SSH_OPTS="$SSH_OPTS -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR"
		SSH_OPTS="$SSH_OPTS -o ConnectTimeout=5"
		SSHD_DEST=$(id -un)@127.0.0.1
		# shellcheck disable=SC2086
		if ssh -p "$port" $SSH_OPTS "$SSHD_DEST" true; then
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
