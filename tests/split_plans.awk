# split_plans.awk - the --dry-run of -P A,B,... (one process plans every policy: its
# sections say "threads=N placement=P") split into each policy's plan as -P P prints it,
# the file OUT P SUFFIX: the lines before the first section (the topology and the
# "placement A,B,..., memory ..." heading, which becomes "placement P, memory ..."), the
# sections of P without their "placement=P", and the last line, "exit N", in every file.
# awk -v out=PREFIX -v suffix=SUFFIX -v policies="A B ..." -f split_plans.awk FILE
# (tests/topology_golden.sh, tests/vm_numa.sh)
BEGIN { np = split(policies, pol, " ") }
!started && !/^threads=/ { head[++nh] = $0; next }
/^threads=/ { # "threads=N placement=P" or "threads=N placement=P: skipped: why"
	started = 1
	p = substr($2, 11)
	sub(/:$/, "", p)
	f = out p suffix
	if (!(p in seen)) {
		seen[p] = 1
		for (i = 1; i <= nh; i++) {
			h = head[i]
			if (h ~ /^placement /)
				sub(/^placement .*, memory/, "placement " p ", memory", h)
			print h >f
		}
	} else {
		print "" >f
	}
	print $1 substr($0, length($1 " placement=" p) + 1) >f
	next
}
/^exit / { for (i = 1; i <= np; i++) print >(out pol[i] suffix); next }
NF { print >f }
