#!/bin/sh
# no_machine_paths_selftest.sh — tests/no_machine_paths.sh on small trees
# made here, with and without a planted path of the machine: the planted
# ones (the checkout's own path, the folder beside it, the home folder,
# /root, /home/NAME, the checkout's path in a built program) must be caught,
# and the paths of every machine (/tmp/..., /usr/share/..., /etc/...) must
# not, even for a checkout that lives right in /tmp. Run by .ci/run's lint.
set -u
here=$(cd "$(dirname "$0")" && pwd) || exit 2
check="$here/no_machine_paths.sh"
fails=0
cases=0

# expect WANT(0 pass, 1 caught) NAME TREE [PROGRAM...]: run the check on TREE
expect() {
	want=$1 name=$2 tree=$3
	shift 3
	cases=$((cases + 1))
	sh "$check" "$tree" "$tree" "$@" >"$work/out" 2>&1
	got=$?
	if [ "$got" -ne "$want" ]; then
		echo "FAIL: $name: exit $got, expected $want"
		sed 's/^/    /' "$work/out"
		fails=$((fails + 1))
	fi
}

# tree DIR: an empty product tree whose tools/help.c holds what every
# machine has (the text of tools/cmd_import.c's help and the benchmarks)
tree() {
	mkdir -p "$1/api" "$1/engine" "$1/tools" "$1/include" "$1/bench" || exit 2
	: >"$1/CMakeLists.txt"
	cat >"$1/tools/help.c" <<'EOF'
static const char help[] = "Example: h2emv import armar -m /tmp/armar | h2emv ingest -m /tmp/armar\n"
	"reads /etc/h2emv.conf, /usr/share/h2emv/x and /var/lib/h2emv/y; see /v1/root/tree\n";
static char tmpl[] = "/tmp/h2emv-bench-memory-XXXXXX";
EOF
}

plant() {
	printf 'static const char planted[] = "%s";\n' "$2" >"$1/tools/planted.c"
}

# a checkout right in /tmp (its parent /tmp is no machine path)
top=$(mktemp -d /tmp/h2emv-selftest.XXXXXX) || exit 2
work=$(mktemp -d) || exit 2
trap 'rm -rf "$top" "$work"' EXIT
tree "$top"
expect 0 "a checkout in /tmp, help naming /tmp/armar" "$top"
plant "$top" "$top/data"
expect 1 "the checkout's own path" "$top"
plant "$top" "/root/.cache/h2emv"
expect 1 "/root/..." "$top"
plant "$top" "/home/alice/h2emv"
expect 1 "/home/NAME/..." "$top"
rm -f "$top/tools/planted.c"

# HOME=/armar: "/tmp/armar/db" is no path under it, "/armar/db" is
mkdir -p "$top/x" && tree "$top/x/h2emv"
printf 'static const char s[] = "-m /tmp/armar/db";\n' >"$top/x/h2emv/tools/s.c"
HOME=/armar expect 0 "the home folder's name inside another path" "$top/x/h2emv"
plant "$top/x/h2emv" "/armar/db"
HOME=/armar expect 1 "the home folder" "$top/x/h2emv"
# the folder the checkout lives in, where the external data sits
plant "$top/x/h2emv" "$top/x/shared/data/external"
expect 1 "the folder beside the checkout" "$top/x/h2emv"
rm -f "$top/x/h2emv/tools/planted.c"

# a built program holding the checkout's path
printf 'data dir %s/data\n' "$top/x/h2emv" >"$work/prog"
expect 1 "a program naming the checkout" "$top/x/h2emv" "$work/prog"
printf 'data dir /usr/share/h2emv\n' >"$work/prog"
expect 0 "a program naming /usr/share" "$top/x/h2emv" "$work/prog"

if [ "$fails" -ne 0 ]; then
	echo "no_machine_paths self-test: $fails of $cases cases wrong"
	exit 1
fi
echo "ok: no_machine_paths self-test, $cases cases"
