#!/bin/bash
# test_edges_fifo.sh H2EMV — only regular files (issue 21, item 4). A FIFO
# (or a symbolic link, or a directory) in place of CURRENT, a data file,
# LMDB's lock file, h2emv.lock, h2emv.wlock or DAMAGED must make every
# command fail at once with an error naming the file, never hang. Each
# command runs under `timeout` (a hang is exit 124: a failure).
set -u
H=${1:?usage: test_edges_fifo.sh H2EMV}
command -v mkfifo >/dev/null && command -v timeout >/dev/null ||
	{ echo "SKIP: mkfifo and timeout are needed"; exit 77; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/h2emv-fifo.XXXXXX") || exit 2
trap 'rm -rf "$WORK"' EXIT
FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }

printf '%s\n' \
	'{"t":"2024-06-26T19:48:57Z","action":{"name":"Grasp","args":{"object":"cup"},"status":"succeeded"},"location":"kitchen"}' \
	'{"t":"2024-06-26T19:49:07Z","action":{"name":"Place","args":{"object":"cup"},"status":"succeeded"},"location":"kitchen"}' \
	>"$WORK/obs.jsonl"

# make_store DIR COMPACTED: a built memory (generation 1 after a compaction)
make_store() {
	"$H" init "$1" >/dev/null 2>&1 && "$H" ingest -m "$1" "$WORK/obs.jsonl" >/dev/null 2>&1 &&
		"$H" build -m "$1" -q >/dev/null 2>&1 || return 1
	[ "$2" = 1 ] && { "$H" compact -m "$1" >/dev/null 2>&1 || return 1; }
	return 0
}

# try NAME KIND COMPACTED: NAME replaced by KIND (fifo, link, dir); every
# command ends within 10 s, fails, and names NAME (h2emv.wlock and DAMAGED
# only matter to writers: the read-only commands may go on without them;
# check runs last, as it may remove a DAMAGED marker)
try() {
	local name=$1 kind=$2 compacted=$3 m="$WORK/m-$1-$2" cmd rc
	rm -rf "$m"
	make_store "$m" "$compacted" || { fail "cannot make a store for $name"; return; }
	rm -f "$m/$name"
	case $kind in
	fifo) mkfifo "$m/$name" ;;
	link) ln -s "$WORK/obs.jsonl" "$m/$name" ;;
	dir) mkdir "$m/$name" ;;
	esac
	for cmd in ingest build gc compact stats ask check; do
		local args=(-m "$m")
		[ "$cmd" = ingest ] && args+=("$WORK/obs.jsonl")
		[ "$cmd" = ask ] && args+=("what did you grasp")
		timeout -k 2 10 "$H" "$cmd" "${args[@]}" </dev/null >"$WORK/out" 2>"$WORK/err"
		rc=$?
		if [ $rc = 124 ] || [ $rc = 137 ]; then
			fail "$cmd hangs on a $kind in place of $name"
		elif [ $rc = 0 ] && case $name:$cmd in h2emv.wlock:stats | h2emv.wlock:ask | \
			h2emv.wlock:check | DAMAGED:stats | DAMAGED:ask | DAMAGED:check) false ;; *) true ;; esac; then
			fail "$cmd accepts a $kind in place of $name: $(cat "$WORK/out")"
		elif [ $rc != 0 ] && ! grep -q -- "$name" "$WORK/err"; then
			fail "$cmd (exit $rc) does not name $name: $(cat "$WORK/err")"
		fi
	done
	echo "ok: a $kind in place of $name${compacted:+ (generation $compacted)}"
}

try CURRENT fifo 1
try data.1.mdb fifo 1
try data.1.mdb-lock fifo 1
try data.mdb fifo 0
try lock.mdb fifo 0
try h2emv.lock fifo 0
try h2emv.wlock fifo 0
try DAMAGED fifo 0
try CURRENT link 1
try data.mdb link 0
try h2emv.lock dir 0
echo "$FAILS failures"
[ "$FAILS" = 0 ]
