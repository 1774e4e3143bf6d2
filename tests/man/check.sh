#!/bin/bash
# check.sh H2EMV SRC_DIR MAN_DIR — every command `h2emv --help` lists has its
# section in docs/man/h2emv.1 and its page h2emv-COMMAND.1 (made at build
# time in MAN_DIR), and the bash completion (tools/completion/h2emv.bash)
# completes it from its first letters; the pages render without warnings.
set -u
prog=$1 src=$2 man=$3
status=0
bad() { echo "FAIL: $*"; status=1; }
cmds=$("$prog" --help | sed -n '/^commands:/,/^exit status/s/^  \([a-z][a-z-]*\)  .*/\1/p')
[ "$(echo "$cmds" | wc -w)" -ge 20 ] || bad "h2emv --help lists only: $cmds"
# shellcheck source=/dev/null
source "$src/tools/completion/h2emv.bash"
complete_words() { # complete_words WORD... : what TAB offers for the last word
	COMP_WORDS=("$prog" "$@")
	COMP_CWORD=$#
	COMPREPLY=()
	_h2emv
	echo "${COMPREPLY[*]}"
}
for c in $cmds; do
	grep -q "^\.SS $c\$" "$src/docs/man/h2emv.1" || bad "docs/man/h2emv.1 has no section for '$c'"
	[ -s "$man/h2emv-$c.1" ] || bad "no page h2emv-$c.1"
	offered=$(complete_words "${c:0:2}")
	[[ " $offered " == *" $c "* ]] || bad "completion of '${c:0:2}' offers '$offered', not '$c'"
done
[ "$(complete_words ex)" = export ] || bad "h2emv ex<TAB> is not export: $(complete_words ex)"
[[ " $(complete_words ask --a) " == *" --at "* ]] || bad "h2emv ask --a<TAB> misses --at"
[[ " $(complete_words export -f h) " == *" html "* ]] || bad "export -f h<TAB> misses html"
[ "$(complete_words rules hi)" = history ] || bad "rules hi<TAB> is not history"
[ "$(complete_words --policy llm sn)" = snapshots ] || bad "global options confuse the completion"
if command -v groff >/dev/null; then
	for page in "$src/docs/man/h2emv.1" "$man/h2emv-ask.1" "$man/h2emv-export.1"; do
		w=$(groff -man -ww -z "$page" 2>&1)
		[ -z "$w" ] || bad "$page: $w"
	done
fi
[ $status = 0 ] && echo "man pages and completion: $(echo "$cmds" | wc -w) commands, ok"
exit $status
