#!/bin/sh
# no_machine_paths.sh SRC_DIR BIN_DIR [PROGRAM...] — the product names no
# path of the machine it was written or built on (issue 13, point 7): no
# product source (api, engine, tools, include, bench, the build) holds
# /work/, /shared/, /home/ or /root/, and no built program or library
# (stripped: debug information may name the build directory) holds the
# source or the build directory. Defaults come from the environment, an
# option or an installed data directory instead.
set -u
src=$1
bin=$2
shift 2
status=0

cd "$src" || exit 2
hits=$(grep -rnI -e '/work/' -e '/shared/' -e '/home/' -e '/root/' \
	api engine tools include bench CMakeLists.txt 2>/dev/null)
if [ -n "$hits" ]; then
	echo "a product source names a path of this machine:"
	echo "$hits"
	status=1
fi

tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp"' EXIT
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
