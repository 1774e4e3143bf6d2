#!/bin/sh
# mkman.sh H2EMV OUTDIR — one manual page per command, h2emv-COMMAND.1, made
# at build time from `h2emv COMMAND --help` (the help is the reference; the
# page keeps its layout), so `man h2emv-ask` works after `cmake --install`.
set -eu
prog=$1 out=$2
mkdir -p "$out"
cmds=$("$prog" --help | sed -n '/^commands:/,/^exit status/s/^  \([a-z][a-z-]*\)  *\(.*\)$/\1/p')
for c in $cmds; do
	summary=$("$prog" --help | sed -n "s/^  $c  *//p" | head -n 1)
	{
		echo ".\\\" made by docs/man/mkman.sh from \`h2emv $c --help'"
		echo ".TH H2EMV-$(echo "$c" | tr a-z A-Z) 1 \"2026\" \"h2emv\" \"User Commands\""
		echo ".SH NAME"
		printf 'h2emv\\-%s \\- %s\n' "$c" "$(echo "$summary" | sed 's/-/\\-/g')"
		echo ".SH DESCRIPTION"
		echo ".nf"
		# roff: a backslash is \e; a line starting with . or ' is escaped
		"$prog" "$c" --help 2>&1 | sed 's/\\/\\e/g; s/^\([.'"'"']\)/\\\&\1/'
		echo ".fi"
		echo ".SH SEE ALSO"
		echo ".BR h2emv (1)"
	} >"$out/h2emv-$c.1.tmp"
	mv "$out/h2emv-$c.1.tmp" "$out/h2emv-$c.1"
done
