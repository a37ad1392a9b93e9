#!/bin/sh
# docs_gen.sh PCBENCH SRCDIR - the generators of the docs (scripts/gen-completion,
# scripts/gen-man) fail, and leave no file, when a pcbench call fails: a binary of another
# architecture ("Exec format error", exit 126) or one whose --list fails. With the real
# pcbench, gen-completion writes the same file to OUT as to stdout.
set -u
. "${0%/*}/preamble.sh"
for t in help2man; do
	command -v $t >/dev/null 2>&1 || { no "no $t (scripts/install-deps)"; exit 1; }
done
gc=$src/scripts/gen-completion gm=$src/scripts/gen-man

# not_made NAME STATUS FILE - the generator exited 1 and left FILE (and FILE.tmp) absent
not_made() {
	[ "$2" = 1 ] || no "$1: exit $2, want 1"
	[ ! -e "$3" ] && [ ! -e "$3.tmp" ] || no "$1: left $3"
}

# A binary of another architecture: the shell cannot execute it.
printf '\177ELF\002\001\001\000' >"$tmp/foreign"
chmod +x "$tmp/foreign"
sh "$gc" "$tmp/foreign" "$tmp/comp" 2>"$tmp/err"
not_made "gen-completion, foreign binary" $? "$tmp/comp"
grep -q "gen-completion: .*foreign help --commands: exit" "$tmp/err" || no "gen-completion's message: $(cat "$tmp/err")"
sh "$gm" "$tmp/foreign" "$src/docs/man" "$tmp/man" 2>"$tmp/err"
not_made "gen-man, foreign binary" $? "$tmp/man"

# pcbench works except one call (--list): still a failure, not a short completion.
cat >"$tmp/half" <<EOS
#!/bin/sh
[ "\$1" = --list ] && exit 1
exec "$pcbench" "\$@"
EOS
chmod +x "$tmp/half"
sh "$gc" "$tmp/half" "$tmp/comp" 2>"$tmp/err"
not_made "gen-completion, --list fails" $? "$tmp/comp"
# ... or a call whose help fails for one command
cat >"$tmp/half" <<EOS
#!/bin/sh
[ "\$1" = compare ] && [ "\$2" = --help ] && exit 1
exec "$pcbench" "\$@"
EOS
sh "$gm" "$tmp/half" "$src/docs/man" "$tmp/man" 2>"$tmp/err"
not_made "gen-man, compare --help fails" $? "$tmp/man"

# The real one: OUT is what stdout gets.
sh "$gc" "$pcbench" >"$tmp/stdout" || no "gen-completion to stdout failed"
sh "$gc" "$pcbench" "$tmp/comp" || no "gen-completion to OUT failed"
cmp -s "$tmp/stdout" "$tmp/comp" || no "gen-completion: OUT differs from stdout"
grep -q "^complete -F _pcbench pcbench" "$tmp/comp" || no "gen-completion: no complete line"
[ $fail -eq 0 ] && echo "docs_gen: ok"
exit $fail
