#!/bin/sh
# no_machine_paths.sh SRC_DIR BIN_DIR [PROGRAM...] — the product names no
# path of the machine it was written or built on (issue 13, point 7): no
# product source (api, engine, tools, include, bench, the build) holds the
# folder the checkout lives in (the external data sits beside it), the
# user's home folder or /home/, and no built program or library (stripped:
# debug information may name the build directory) holds the source or the
# build directory. Defaults come from the environment, an option or an
# installed data directory instead.
set -u
src=$(cd "$1" && pwd) || exit 2
bin=$2
shift 2
status=0

tmp=$(mktemp) || exit 2
pat=$(mktemp) || exit 2
trap 'rm -f "$tmp" "$pat"' EXIT

# the machine's own prefixes, found here rather than written down
for p in "$(dirname "$src")" "${HOME:-}"; do
	if [ -n "$p" ] && [ "$p" != / ]; then
		echo "$p/" >>"$pat"
	fi
done
echo /home/ >>"$pat"

cd "$src" || exit 2
hits=$(grep -rnIF -f "$pat" api engine tools include bench CMakeLists.txt 2>/dev/null)
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
