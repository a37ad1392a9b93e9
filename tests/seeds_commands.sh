#!/bin/sh
# seeds_commands.sh PCBENCH SRC - every `pcbench model` command docs/seeds.md prints runs as
# printed (from SRC, where its --topology files are), with --ops made small: exit 0. A
# command written `pcbench model ... --topology FILE ...` is the full one before it with that
# --topology. The measurement commands are not run.
set -u
P=$1 S=$2
cd "$S" || exit 1
fail=0 n=0 full=
cmds=$(grep -o '`pcbench model [^`]*`' docs/seeds.md | tr -d '`')
[ -n "$cmds" ] || { echo "FAIL: no pcbench model command in docs/seeds.md"; exit 1; }
printf '%s\n' "$cmds" | {
	while IFS= read -r cmd; do
		case $cmd in
		'pcbench model ... --topology '*' ...')
			topo=${cmd#'pcbench model ... --topology '}
			topo=${topo%' ...'}
			[ -n "$full" ] || { echo "FAIL: '$cmd' before any full command"; fail=1; continue; }
			cmd=$(printf '%s\n' "$full" | sed "s|--topology [^ ]*|--topology $topo|")
			;;
		*'...'*)
			echo "FAIL: '$cmd': an elision this test does not know"
			fail=1
			continue
			;;
		*) full=$cmd ;;
		esac
		# shellcheck disable=SC2086 # the printed command's words
		set -- $(printf '%s\n' "$cmd" | sed 's/--ops [0-9]*/--ops 10/')
		shift 2 # pcbench model
		n=$((n + 1))
		if ! "$P" model "$@" -q >/dev/null 2>"${TMPDIR:-/tmp}/seeds_commands.$$"; then
			echo "FAIL: $cmd (as: pcbench model $* -q)"
			tail -n 3 "${TMPDIR:-/tmp}/seeds_commands.$$"
			fail=1
		fi
	done
	rm -f "${TMPDIR:-/tmp}/seeds_commands.$$"
	echo "seeds_commands: $n pcbench model commands of docs/seeds.md run"
	[ $n -gt 0 ] || fail=1
	exit $fail
}
