#!/bin/bash
# matrix.sh H2EMV SRC_DIR STATE — every command against a memory in one state
# a user meets (issue 18), asserting the documented exit status (README: 0 ok,
# 1 problems found, 2 error, 3 damaged, 64 usage, 75 another builder) and
# that a healthy memory never becomes damaged: `h2emv check` after every
# command that writes, and after the commands that read, must exit 0.
#
# STATE: new (init only), profile (a robot profile of our own set), built
# (profile, tests/data/household-sample.jsonl ingested and built), forgotten
# (built, then forgetting a month later), collected (forgotten, then gc and
# compact), rules (built, then rules learned from feedback), readonly (built,
# every command under `h2emv --read-only`), readonly-mode (built, the files
# made read-only with chmod; SKIP as root, whom the mode bits do not stop),
# pinned (built, its first snapshot pinned), damaged (a copy of built with
# its last pages zeroed). The commands that read run first, then those that
# write, in a user's order, on one working copy of the state.
set -u
H=${1:?usage: matrix.sh H2EMV SRC_DIR STATE}
SRC=${2:?usage: matrix.sh H2EMV SRC_DIR STATE}
STATE=${3:?usage: matrix.sh H2EMV SRC_DIR STATE}
DATA=$SRC/tests/data
command -v curl >/dev/null || { echo "SKIP: curl is needed to talk to h2emv serve"; exit 77; }
if [ "$STATE" = readonly-mode ] && [ "$(id -u)" = 0 ]; then
	echo "SKIP: root writes whatever the mode bits say (the readonly state runs --read-only instead)"
	exit 77
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/h2emv-matrix.XXXXXX") || exit 2
M=$WORK/mem
FAILS=0
CELLS=0
SERVE_PID=
finish() {
	[ -n "$SERVE_PID" ] && kill "$SERVE_PID" 2>/dev/null && wait "$SERVE_PID" 2>/dev/null
	chmod -R u+w "$WORK" 2>/dev/null
	if [ "$FAILS" = 0 ]; then rm -rf "$WORK"; else echo "kept for a look: $WORK"; fi
}
trap finish EXIT
trap 'exit 2' INT TERM

fail() {
	FAILS=$((FAILS + 1))
	echo "FAIL: $*"
}

# setup CMD... — a step that makes the state; it must succeed
setup() {
	local out
	out=$("$@" 2>&1) || {
		fail "setup of state $STATE: exit $?: $*"
		printf '%s\n' "$out" | sed 's/^/    /' | tail -n 3
	}
}

# healthy WHAT — check finds nothing (the memory was not damaged by WHAT)
healthy() {
	local out rc
	out=$("$H" check -m "$M" 2>&1)
	rc=$?
	if [ "$rc" != 0 ]; then
		fail "$STATE: check after $1: exit $rc (a healthy memory became damaged)"
		printf '%s\n' "$out" | sed 's/^/    /' | head -n 3
	fi
}

# --- the state -----------------------------------------------------------
later=$(date -u -d '2024-09-26T09:00:00Z' +%s)
obs_line() { # obs_line I — an observation after the sample's last one
	printf '{"id":"mx-%d","t":"%s","action":{"name":"Pickup","args":{"object":"cup_%d"},"status":"succeeded"},"goal":"Tidy.Pickup","location":"kitchen"}\n' \
		"$1" "$(date -u -d "@$((later + 60 * $1))" +%Y-%m-%dT%H:%M:%SZ)" "$1"
}
with_profile() {
	setup "$H" init -m "$M"
	setup "$H" profile -m "$M" set "$DATA/household-profile.json"
	setup "$H" check -m "$M"
}
built() {
	with_profile
	setup "$H" ingest -q -m "$M" "$DATA/household-sample.jsonl"
	setup "$H" build -q -m "$M" --commit 8
	setup "$H" check -m "$M"
}
HEALTHY=1
G=()  # global options of every command
case $STATE in
new) setup "$H" init -m "$M" ;;
profile) with_profile ;;
built) built ;;
forgotten)
	built
	setup "$H" forget -m "$M" --now +30d
	"$H" inspect -m "$M" --depth 9 | grep -q '\[forgotten\]' || fail "setup: forget --now +30d forgot nothing"
	setup "$H" check -m "$M"
	;;
collected)
	built
	setup "$H" forget -m "$M" --now +30d
	setup "$H" gc -m "$M" --keep 1
	setup "$H" compact -m "$M"
	setup "$H" check -m "$M"
	;;
rules)
	built
	setup "$H" feedback -m "$M" "You should always remember where you put the knife"
	setup "$H" check -m "$M"
	;;
readonly)
	built
	G=(--read-only)
	;;
readonly-mode)
	built
	chmod -R a-w "$M"
	;;
pinned)
	built
	setup "$H" snapshots -m "$M" pin 1 audit
	setup "$H" check -m "$M"
	;;
damaged)
	built
	pages=$(($(stat -c %s "$M/data.mdb") / 4096))
	dd if=/dev/zero of="$M/data.mdb" bs=4096 seek=$((pages - 3)) count=2 conv=notrunc 2>/dev/null
	HEALTHY=0
	;;
*) echo "unknown state $STATE"; exit 64 ;;
esac
[ "$FAILS" = 0 ] || exit 1

# --- what each command should do in this state ---------------------------
BUILT=1
case $STATE in new | profile) BUILT=0 ;; esac
RO=0
case $STATE in readonly | readonly-mode) RO=1 ;; esac

# expect KIND NAME — the documented exit status of command NAME of KIND
# (read|write|builder|export|...) in this state
expect() {
	local kind=$1 name=$2
	if [ "$STATE" = damaged ]; then
		case $name in
		check) echo 1 ;;          # problems found
		salvage) echo "0|1" ;;    # 1: something was lost, DST usable
		profile-list) echo 0 ;;   # no memory involved
		*) echo 3 ;;              # the memory is damaged
		esac
		return
	fi
	if [ "$RO" = 1 ] && [ "$kind" = write ]; then
		echo 2 # a write on a read-only memory
		return
	fi
	if [ "$kind" = init ]; then
		echo 0
		return
	fi
	if [ "$kind" = refused ]; then
		echo 2
		return
	fi
	if [ "$BUILT" = 0 ]; then
		case $name in
		# nothing has been built yet: no snapshot to read, pin or unpin
		inspect | export-json | export-dot | export-html | ask | pin | unpin) echo 2; return ;;
		esac
	fi
	echo 0
}

# cell KIND NAME CMD... — run one command, compare its exit status, and
# after a write (on a healthy memory) run check
cell() {
	local kind=$1 name=$2 want rc out
	shift 2
	want=$(expect "$kind" "$name")
	CELLS=$((CELLS + 1))
	out=$("$@" 2>&1 </dev/null)
	rc=$?
	case "|$want|" in
	*"|$rc|"*) echo "ok   $STATE $name: $rc" ;;
	*)
		fail "$STATE $name: exit $rc, expected $want: ${*#"$H"}"
		printf '%s\n' "$out" | sed 's/^/    /' | tail -n 3
		;;
	esac
	if [ "$HEALTHY" = 1 ] && [ "$kind" != read ]; then healthy "$name"; fi
	return 0
}

h() { "$H" "${G[@]}" "$@"; }

# reads
cell read stats h stats -m "$M"
cell read stats-json h stats -m "$M" --json
cell read config h config -m "$M"
cell read profile-show h profile -m "$M" show
cell read profile-list h profile list
cell read snapshots h snapshots -m "$M"
cell read rules h rules -m "$M"
cell read rules-history h rules -m "$M" history --json
cell read rules-diff h rules -m "$M" diff 0
cell read inspect h inspect -m "$M" --depth 9
cell read export-json h export -m "$M" -q -o "$WORK/t.json"
cell read export-dot h export -m "$M" -q -f dot -o "$WORK/t.dot"
cell read export-html h export -m "$M" -q -f html -o "$WORK/t.html"
cell read export-jsonl h export -m "$M" -q -f jsonl -o "$WORK/o.jsonl"
cell read ask h ask -m "$M" "Where did you put the knife?"
cell read forget-dry-run h forget -m "$M" --dry-run --now +7d
[ "$HEALTHY" = 1 ] && healthy "the commands that read"
# copies: the source is only read; the copy must pass check
cell copy backup h backup -m "$M" -q --verify "$WORK/copy"
if [ -d "$WORK/copy" ]; then
	"$H" check -m "$WORK/copy" >/dev/null 2>&1 || fail "$STATE: the backup does not pass check"
fi
cell copy salvage h salvage -q "$M" "$WORK/salvaged"
if [ -d "$WORK/salvaged" ]; then
	"$H" check -m "$WORK/salvaged" >/dev/null 2>&1 || fail "$STATE: the salvaged copy does not pass check"
else
	fail "$STATE: salvage made no copy"
fi
cell read check h check -m "$M"

# serve: it listens, answers its status, and stops on SIGTERM with 0; a
# memory it cannot open (damaged) makes it exit with the open's status; it
# writes (observations, its builder), so a read-only memory is refused (2)
serve_cell() {
	local want url= rc
	want=$(expect write serve)
	CELLS=$((CELLS + 1))
	# not through h(): $! must be h2emv itself, not a subshell
	"$H" "${G[@]}" serve -m "$M" --listen 127.0.0.1:0 >"$WORK/serve.out" 2>"$WORK/serve.err" &
	SERVE_PID=$!
	for _ in $(seq 200); do
		url=$(sed -n 's#^listening on \(http://[^ ]*\).*#\1#p' "$WORK/serve.out")
		[ -n "$url" ] && break
		kill -0 "$SERVE_PID" 2>/dev/null || break
		sleep 0.1
	done
	if [ -n "$url" ]; then
		curl -s -m 30 "$url/v1/status" | grep -q '"queue' || fail "$STATE serve: GET /v1/status"
		kill -TERM "$SERVE_PID"
	fi
	wait "$SERVE_PID"
	rc=$?
	SERVE_PID=
	if [ "$rc" = "$want" ]; then echo "ok   $STATE serve: $rc"; else
		fail "$STATE serve: exit $rc, expected $want"
		tail -n 3 "$WORK/serve.err" | sed 's/^/    /'
	fi
	[ "$HEALTHY" = 1 ] && healthy serve
}
serve_cell

# writes, in a user's order
obs_line 1 >"$WORK/more.jsonl"
obs_line 2 >>"$WORK/more.jsonl"
# init on an existing memory changes nothing and says so, read-only or not
cell init init h init -m "$M"
cell write profile-set h profile -m "$M" set "$DATA/household-profile.json"
cell write config-set h config -m "$M" --max-clock-jump 30d
cell write ingest h ingest -q -m "$M" "$WORK/more.jsonl"
cell write ingest-resend h ingest -q -m "$M" --ack "$WORK/more.jsonl"
cell write build h build -q -m "$M"
[ "$RO" = 0 ] && BUILT=1 # from here on there is a snapshot to pin
cell write say-reply h say -m "$M" "Good morning!"
cell write say-question h say -m "$M" "Where did you put the knife?"
cell write say-feedback h say -m "$M" "You should always remember where you put the cup."
cell write feedback h feedback -m "$M" "Remember which room you water the plant in"
cell write rules-revert h rules -m "$M" revert 0
cell write pin h snapshots -m "$M" pin latest matrix
cell write unpin h snapshots -m "$M" unpin matrix
cell write forget h forget -m "$M" --now +1d
cell write gc h gc -q -m "$M"
cell write compact h compact -m "$M"
# the TEACh profile segments by action list: once this memory has a tree
# segmented by its skill stack, the import's profile is refused (2;
# docs/profiles.md)
cell refused import-m h import teach "$DATA/teach" -q -m "$M" -o "$WORK/teach.jsonl"

# usage errors are 64 in every state
for args in "stats stray" "ask" "export -f nope" "gc --keep" "check --no-such-option"; do
	CELLS=$((CELLS + 1))
	# shellcheck disable=SC2086
	h $args -m "$M" >/dev/null 2>&1
	rc=$?
	[ "$rc" = 64 ] && echo "ok   $STATE usage '$args': 64" || fail "$STATE usage '$args': exit $rc, expected 64"
done
CELLS=$((CELLS + 1))
h stats -m "" >/dev/null 2>&1
rc=$?
[ "$rc" = 64 ] && echo "ok   $STATE usage (an empty -m): 64" || fail "$STATE usage (an empty -m): exit $rc, expected 64"

# the end: a healthy state is still healthy; a pinned snapshot is still there
if [ "$HEALTHY" = 1 ]; then healthy "every command"; fi
if [ "$STATE" = pinned ]; then
	"$H" export -m "$M" -q --pin audit --depth 0 >/dev/null 2>&1 || fail "pinned: the pin 'audit' did not survive gc and compact"
fi
echo "$STATE: $CELLS cells, $FAILS failures"
[ "$FAILS" = 0 ]
