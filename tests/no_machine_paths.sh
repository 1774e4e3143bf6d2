#!/bin/sh
# no_machine_paths.sh SRC_DIR BIN_DIR [PROGRAM...] — the product names no
# path of the machine it was written or built on (issue 13, point 7): no
# product source (api, engine, tools, include, bench, the build) holds the
# checkout's own folder or the folder it lives in (the external data sits
# beside it), the user's home folder, /root or any /home/NAME, and no built
# program or library (stripped: debug information may name the build
# directory) holds the source or the build directory. Defaults come from
# the environment, an option or an installed data directory instead.
#
# A lint of .ci/run (issue 18, item 5), not a ctest: the README's test
# command must pass wherever the clone lives. Well-known system folders
# (/tmp, /usr, /var, /etc, /opt, /home alone, ...) are never taken as the
# machine's own, so a clone in /tmp does not flag "/tmp/" in a help text,
# and a prefix counts only where a path starts ("/a/" does not match inside
# "/tmp/a/"). tests/no_machine_paths_selftest.sh plants paths and expects
# them caught.
set -u
src=$(cd "$1" && pwd) || exit 2
bin=$(cd "$2" && pwd) || exit 2
shift 2
status=0

tmp=$(mktemp) || exit 2
pat=$(mktemp) || exit 2
trap 'rm -f "$tmp" "$pat"' EXIT

# A folder of every machine, not this machine's own.
well_known() {
	case "$1" in
	"" | / | /tmp | /var/tmp | /usr | /usr/local | /usr/src | /usr/share | /var | /var/lib | \
		/etc | /opt | /dev | /proc | /sys | /run | /home | /srv | /mnt | /media) return 0 ;;
	esac
	return 1
}

# An extended regular expression for the literal text $1.
ere_quote() {
	printf '%s\n' "$1" | sed 's/[][\.*^$+?(){}|]/\\&/g'
}

# A path starts at the beginning of a line or after a character that cannot
# be part of a path name, and the prefix ends where a name ends.
before='(^|[^A-Za-z0-9._~/-])'
after='([^A-Za-z0-9._~-]|$)'

# the machine's own prefixes, found here rather than written down: the
# checkout (as given and with links resolved), the folder it lives in, the
# home folder
phys=$(cd "$src" && pwd -P) || exit 2
for p in "$src" "$phys" "$(dirname "$src")" "$(dirname "$phys")" "${HOME:-}"; do
	p=${p%/}
	well_known "$p" || echo "$before$(ere_quote "$p")$after" >>"$pat"
done
# anyone's home folder, root's included
echo "$before/home/[A-Za-z0-9._-]+/" >>"$pat"
echo "$before/root$after" >>"$pat"

cd "$src" || exit 2
hits=$(grep -rnIE -f "$pat" api engine tools include bench CMakeLists.txt 2>/dev/null)
if [ -n "$hits" ]; then
	echo "a product source names a path of this machine:"
	echo "$hits"
	status=1
fi

for f in "$@"; do
	[ -f "$f" ] || continue
	if ! strip -o "$tmp" "$f" 2>/dev/null; then
		cp "$f" "$tmp" || exit 2
	fi
	for dir in "$src" "$bin"; do
		if grep -aqF "$dir" "$tmp"; then
			echo "$f holds the path $dir:"
			strings "$tmp" | grep -F "$dir" | head -n 5
			status=1
		fi
	done
done
[ "$status" -eq 0 ] && echo "ok: no path of this machine in the product"
exit "$status"
