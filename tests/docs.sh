#!/bin/sh
# docs.sh PCBENCH SRCDIR - what README.md and docs/ tell a reader. 1) No path of a developer's
# machine: /work/, /home/, /root/ or /tmp/ followed by a name (a scratch directory, a
# worktree, a login) fails; examples use relative paths or a named placeholder ($DEMO).
# 2) README's command list (its `pcbench help` block) is `pcbench help --commands`, name and
# summary, in order. 3) README stays under 200 lines (its first screen is for the person who
# finds the project; the rest of what we know is in docs/). 4) No merge-conflict marker left
# in README.md or docs/ (three merged branches once left nine lines of one in lab.md).
. "${0%/*}/preamble.sh"
cd "$src" || exit 1

# 1) Developer paths: the prefix at the start of a path (not inside ../../tmp/x).
if grep -rnE '(^|[^A-Za-z0-9_.~/-])/(work|home|root|tmp)/[A-Za-z0-9_.-]' README.md docs/ >"$tmp/paths"; then
	no "a path of a developer's machine in README.md or docs/ (write a relative path or a placeholder):"
	cat "$tmp/paths"
fi

# 2) The command list.
"$pcbench" help --commands | awk -F '\t' '{ print $1 " " $2 }' >"$tmp/want" || no "help --commands"
awk '/^Commands \(pcbench help CMD/ { on = 1; next } on && /^```/ { exit }
	on { sub(/^ +/, ""); n = index($0, " "); name = substr($0, 1, n - 1); rest = substr($0, n)
	sub(/^ +/, "", rest); print name " " rest }' README.md >"$tmp/have"
[ -s "$tmp/have" ] || no "README.md: no command list (the block after \"Commands (pcbench help CMD\")"
if ! cmp -s "$tmp/want" "$tmp/have"; then
	no "README.md's command list is not pcbench help --commands (want -, have +):"
	diff -u "$tmp/want" "$tmp/have" | sed -n '3,$p'
fi

# 3) Length.
n=$(wc -l <README.md)
[ "$n" -lt 200 ] || no "README.md has $n lines (under 200: move detail to docs/)"

# 4) Conflict markers.
if grep -rnE '^(<<<<<<< |>>>>>>> |=======$)' README.md docs/ >"$tmp/markers"; then
	no "a merge-conflict marker in README.md or docs/:"
	cat "$tmp/markers"
fi

[ $fail -eq 0 ] && echo "docs: no developer path, README's $(wc -l <"$tmp/have") commands, $n lines"
exit $fail
