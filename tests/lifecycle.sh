#!/bin/bash
# lifecycle.sh H2EMV SRC_DIR [EXTERNAL_DATA] — the README's tour, every
# command in the order a user runs them, on one real-data memory, with
# `h2emv check` after every step (issue 18). The ARMAR-7 stream is imported
# when it is found ($H2EMV_DATA, else EXTERNAL_DATA); otherwise the TEACh
# episodes shipped in tests/data/teach and tests/data/household-sample.jsonl.
#
# It fails when a step exits other than documented, when check finds
# anything (after each step, on the backup and on the salvaged copy), or
# when an acknowledged observation (by `ingest --ack` or by serve's POST
# /v1/observations) is missing at the end. Every failure is listed; the
# memory and each step's output are kept in the work folder on failure.
set -u
H=${1:?usage: lifecycle.sh H2EMV SRC_DIR [EXTERNAL_DATA]}
SRC=${2:?usage: lifecycle.sh H2EMV SRC_DIR [EXTERNAL_DATA]}
EXT=${3:-}
command -v curl >/dev/null || { echo "SKIP: curl is needed to talk to h2emv serve"; exit 77; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/h2emv-lifecycle.XXXXXX") || exit 2
M=$WORK/mem
LOG=$WORK/log
mkdir -p "$LOG"
FAILS=0
N=0
SERVE_PID=
FOLLOW_PID=

stop_bg() {
	[ -n "$SERVE_PID" ] && kill "$SERVE_PID" 2>/dev/null && wait "$SERVE_PID" 2>/dev/null
	[ -n "$FOLLOW_PID" ] && kill "$FOLLOW_PID" 2>/dev/null && wait "$FOLLOW_PID" 2>/dev/null
	SERVE_PID= FOLLOW_PID=
}
finish() {
	stop_bg
	if [ "$FAILS" = 0 ]; then rm -rf "$WORK"; else echo "kept for a look: $WORK"; fi
}
trap finish EXIT
trap 'exit 2' INT TERM

START=${EPOCHREALTIME:-0}
ok() { echo "ok   $* [$(awk "BEGIN { printf \"%.1f\", ${EPOCHREALTIME:-0} - $START }") s]"; }
fail() {
	FAILS=$((FAILS + 1))
	echo "FAIL: $*"
}

# logf NAME — LF becomes the next numbered log file name for NAME
logf() {
	N=$((N + 1))
	LF=$(printf '%s/%02d-%s' "$LOG" "$N" "$1")
}

# run NAME EXPECTED CMD... — run one step, its output in $LOG/NN-NAME.{out,err};
# OUT names the stdout file afterwards.
run() {
	local name=$1 want=$2 rc t0
	shift 2
	logf "$name"
	OUT=$LF.out
	t0=${EPOCHREALTIME:-0}
	"$@" >"$OUT" 2>"${OUT%.out}.err"
	rc=$?
	t0=$(awk "BEGIN { printf \"%.2f\", ${EPOCHREALTIME:-0} - $t0 }")
	if [ "$rc" != "$want" ]; then
		fail "$name: exit $rc, expected $want: $*"
		sed 's/^/    /' "${OUT%.out}.err" | tail -n 5
	else
		ok "$name (${t0} s)"
	fi
	return 0
}

# checked DIR WHAT — h2emv check finds nothing in DIR (exit 0)
checked() {
	local out rc
	out=$("$H" check -m "$1" 2>&1)
	rc=$?
	if [ "$rc" != 0 ]; then
		fail "check after $2: exit $rc"
		printf '%s\n' "$out" | sed 's/^/    /' | head -n 5
	fi
}

# step NAME CMD... — a step that must exit 0, then check the memory
step() {
	local name=$1
	shift
	run "$name" 0 "$@"
	checked "$M" "$name"
}

# json_num KEY — the first number under "KEY" in the JSON on stdin
json_num() { grep -o "\"$1\":[0-9][0-9]*" | head -n 1 | cut -d: -f2; }
iso() { date -u -d "@$1" +%Y-%m-%dT%H:%M:%SZ; }

# --- the data -------------------------------------------------------------
DATA=${H2EMV_DATA:-$EXT}
ARMAR=hierarchical-emv/armarx_lt_mem/2024-07-a7a-summary.tree.json
if [ -n "$DATA" ] && [ -f "$DATA/$ARMAR" ]; then
	SOURCE=armar PROFILE=armar7 COMMIT=1000
	IMPORT=(env "H2EMV_DATA=$DATA" "$H" import armar -q -m "$M")
	echo "data: the ARMAR-7 stream under $DATA"
else
	SOURCE=teach PROFILE=teach COMMIT=32
	IMPORT=("$H" import teach "$SRC/tests/data/teach" -q -m "$M"
		--start "2024-09-22 08:00:00" --start "2024-09-22 14:00:00")
	echo "data: the shipped TEACh episodes and household sample (no ARMAR-7 stream found)"
fi

# --- init, profile, import ------------------------------------------------
step init "$H" init -m "$M"
step profile-set "$H" profile -m "$M" set "$PROFILE"
run profile-show 0 "$H" profile -m "$M" show
grep -q . "$OUT" || fail "profile show printed nothing"

logf import
L=$LF
"${IMPORT[@]}" 2>"$L.err" | "$H" ingest -m "$M" --ack >"$L.acks" 2>"$L.ingest.err"
rcs=("${PIPESTATUS[@]}")
if [ "${rcs[0]}" != 0 ] || [ "${rcs[1]}" != 0 ]; then
	fail "import -m | ingest --ack: exit ${rcs[0]} | ${rcs[1]}"
	tail -n 3 "$L.err" "$L.ingest.err" | sed 's/^/    /'
else
	ok "import -m | ingest --ack"
fi
checked "$M" "import | ingest"
# the import's acks: consecutive seqs from 1, as many as lines
stored=0
expect=1
while read -r ack; do
	s=$(printf '%s' "$ack" | json_num stored)
	f=$(printf '%s' "$ack" | json_num first_seq)
	l=$(printf '%s' "$ack" | json_num last_seq)
	[ "$s" = 0 ] && continue
	[ "$f" = "$expect" ] && [ "$l" = $((f + s - 1)) ] || fail "import ack out of order: $ack"
	expect=$((l + 1))
	stored=$((stored + s))
done <"$L.acks"
[ "$stored" -gt 0 ] || fail "the import stored nothing"
run profile-after-import 0 "$H" profile -m "$M" show
if [ "$SOURCE" = teach ]; then
	step ingest-file "$H" ingest -m "$M" "$SRC/tests/data/household-sample.jsonl"
fi
run stats-clock 0 "$H" snapshots -m "$M" --json
last_t=$("$H" export -m "$M" -f jsonl -q | tail -n 1 | sed -n 's/^{"t":"\([^".]*\).*/\1/p')
T0=$(date -u -d "${last_t}Z" +%s) || { fail "no time in the last observation"; T0=0; }

# --- build --follow beside serve; a stream acknowledged while they run ----
logf follow
L=$LF
"$H" build -m "$M" --follow --interval 1 --commit "$COMMIT" >"$L.out" 2>"$L.err" &
FOLLOW_PID=$!
# serve comes second, once build --follow holds the builder role (it has
# folded the import): the server's builder then waits for it (docs/serve.md)
for _ in $(seq 600); do
	cur=$("$H" stats -m "$M" --json 2>/dev/null | json_num build_cursor)
	[ "${cur:-0}" -ge "$stored" ] && break
	kill -0 "$FOLLOW_PID" 2>/dev/null || break
	sleep 0.1
done
kill -0 "$FOLLOW_PID" 2>/dev/null && ok "build --follow folded the import" ||
	fail "build --follow stopped early: $(tail -n 1 "$L.err")"
logf serve
L=$LF
"$H" serve -m "$M" --listen 127.0.0.1:0 >"$L.out" 2>"$L.err" &
SERVE_PID=$!
URL=
for _ in $(seq 200); do
	URL=$(sed -n 's#^listening on \(http://[^ ]*\).*#\1#p' "$L.out")
	[ -n "$URL" ] && break
	kill -0 "$SERVE_PID" 2>/dev/null || break
	sleep 0.1
done
[ -n "$URL" ] && ok "serve at $URL beside build --follow" || fail "serve did not say where it listens"

# The robot's stream: ids lc-001.., a pause after every fourth line (one
# durable batch each), and the first two resent at the end (duplicates).
obs() { # obs I — the I-th observation of the stream, at T0 + 60 s * I
	local t id
	t=$(iso $((T0 + 60 * $1)))
	id=$(printf 'lc-%03d' "$1")
	case $(($1 % 4)) in
	0) echo "{\"id\":\"$id\",\"t\":\"$t\",\"action\":{\"name\":\"Pick\",\"args\":{\"object\":\"knife\",\"from\":\"drawer\"},\"status\":\"succeeded\"},\"goal\":[\"Tidy\",\"Pick\"],\"location\":\"kitchen\",\"objects\":[{\"id\":\"knife_$1\",\"type\":\"knife\"}]}" ;;
	1) echo "{\"id\":\"$id\",\"t\":\"$t\",\"action\":{\"name\":\"Place\",\"args\":{\"object\":\"knife\",\"to\":\"sink\"},\"status\":\"succeeded\"},\"goal\":[\"Tidy\",\"Place\"],\"location\":\"kitchen\",\"relations\":[{\"from\":\"knife_$(($1 - 1))\",\"to\":\"sink\",\"type\":\"in\"}]}" ;;
	2) echo "{\"id\":\"$id\",\"t\":\"$t\",\"speech\":{\"speaker\":\"Alice\",\"text\":\"Thank you, robot.\"},\"persons\":[{\"name\":\"Alice\"}],\"location\":\"kitchen\"}" ;;
	3) echo "{\"id\":\"$id\",\"t\":\"$t\",\"note\":\"stream line $1\"}" ;;
	esac
}
STREAM=16
: >"$WORK/stream.jsonl"
for i in $(seq 1 $STREAM); do obs "$i" >>"$WORK/stream.jsonl"; done
logf stream
L=$LF
{
	for i in $(seq 1 $STREAM); do
		obs "$i"
		[ $((i % 4)) = 0 ] && sleep 0.3
	done
	obs 1
	obs 2
} | "$H" ingest -m "$M" --ack >"$L.acks" 2>"$L.err"
rc=$?
[ "$rc" = 0 ] && ok "ingest --ack (a stream with ids)" || fail "ingest --ack of the stream: exit $rc"
# ids of the stream: lc-I has seq first_seq + I - 1 (one run, consecutive)
S1=$(json_num first_seq <"$L.acks")
nstored=0
while read -r ack; do nstored=$((nstored + $(printf '%s' "$ack" | json_num stored))); done <"$L.acks"
[ "$nstored" = "$STREAM" ] || fail "the stream's acks count $nstored stored, expected $STREAM"
grep -q "\"dup\":\\[{\"line\":$((STREAM + 1)),\"seq\":$S1}" "$L.acks" &&
	grep -q "{\"line\":$((STREAM + 2)),\"seq\":$((S1 + 1))}" "$L.acks" ||
	fail "the resent lines were not acknowledged as duplicates of seqs $S1, $((S1 + 1))"
: >"$WORK/acked.ids"
for i in $(seq 1 $STREAM); do printf 'lc-%03d %d\n' "$i" $((S1 + i - 1)) >>"$WORK/acked.ids"; done
checked "$M" "ingest --ack beside build --follow and serve"

# over HTTP: three more, acknowledged with their seqs
if [ -n "$URL" ]; then
	body=$(for i in 17 18 19; do obs "$i"; done)
	printf '%s\n' "$body" >>"$WORK/stream.jsonl"
	reply=$(curl -s -m 60 -H 'Content-Type: application/x-ndjson' --data-binary "$body" "$URL/v1/observations")
	seqs=$(printf '%s' "$reply" | sed -n 's/.*"seqs":\[\([0-9,]*\)\].*/\1/p')
	if [ "$(printf '%s' "$seqs" | tr ',' '\n' | grep -c .)" = 3 ]; then
		ok "POST /v1/observations"
		i=17
		for s in $(printf '%s' "$seqs" | tr ',' ' '); do
			printf 'lc-%03d %d\n' "$i" "$s" >>"$WORK/acked.ids"
			i=$((i + 1))
		done
	else
		fail "POST /v1/observations: $reply"
	fi
	reply=$(curl -s -m 60 -H 'Content-Type: application/json' -d '{"question":"Where did you put the knife?"}' "$URL/v1/ask")
	printf '%s' "$reply" | grep -q '"answer"' && ok "POST /v1/ask" || fail "POST /v1/ask: $reply"
	reply=$(curl -s -m 60 "$URL/v1/status")
	printf '%s' "$reply" | grep -q '"queue' && ok "GET /v1/status" || fail "GET /v1/status: $reply"
	checked "$M" "serve's writes"
fi

# wait (a hang guard, not a speed assertion) until the tree holds them all
last=$(sort -k2 -n "$WORK/acked.ids" | tail -n 1 | cut -d' ' -f2)
for _ in $(seq 600); do
	cur=$("$H" stats -m "$M" --json 2>/dev/null | json_num build_cursor)
	[ "${cur:-0}" -ge "$last" ] && break
	kill -0 "$FOLLOW_PID" 2>/dev/null || break
	sleep 0.1
done
[ "${cur:-0}" -ge "$last" ] && ok "the builder caught up (cursor $cur)" ||
	fail "the build cursor is at ${cur:-?}, not at the last acknowledged seq $last"
run ask-beside-follow 0 "$H" ask -m "$M" "Where did you put the knife the last time?"
if [ -n "$SERVE_PID" ]; then
	kill -TERM "$SERVE_PID"
	wait "$SERVE_PID"
	rc=$?
	SERVE_PID=
	[ "$rc" = 0 ] && ok "serve stopped by SIGTERM" || fail "serve stopped with exit $rc"
fi
if [ -n "$FOLLOW_PID" ]; then
	kill -INT "$FOLLOW_PID"
	wait "$FOLLOW_PID"
	rc=$?
	FOLLOW_PID=
	[ "$rc" = 0 ] && ok "build --follow stopped by SIGINT" || fail "build --follow stopped with exit $rc"
fi
checked "$M" "build --follow and serve"
step build "$H" build -m "$M"

# --- questions, talk, rules ---------------------------------------------
run ask 0 "$H" ask -m "$M" "Where did you put the knife the last time?"
# --at: a time between two snapshots' clocks answers from the older one,
# as export --at does (both helps: the newest snapshot not after TIME)
"$H" snapshots -m "$M" --json >"$WORK/snaps.jsonl"
nsnap=$(grep -c . "$WORK/snaps.jsonl")
if [ "$nsnap" -lt 2 ]; then
	fail "only $nsnap snapshots: --at cannot choose"
else
	k=$(((nsnap + 1) / 2))
	a=$(sed -n "${k}p" "$WORK/snaps.jsonl")
	b=$(sed -n "$((k + 1))p" "$WORK/snaps.jsonl")
	AT_SEQ=$(printf '%s' "$a" | json_num seq)
	ta=$(printf '%s' "$a" | json_num t_now)
	tb=$(printf '%s' "$b" | json_num t_now)
	AT=$(iso $(((ta / 1000000 + tb / 1000000 + 1) / 2)))
	[ $((ta / 1000000)) -lt $((tb / 1000000 - 1)) ] || fail "snapshots $AT_SEQ and the next share a clock second"
	run ask-at-trace 0 "$H" ask -m "$M" --trace --at "$AT" "Who did you meet?"
	run ask-at-json 0 "$H" ask -m "$M" --json --at "$AT" "Who did you meet?"
	got=$(json_num snapshot <"$OUT")
	[ "$got" = "$AT_SEQ" ] || fail "ask --at $AT answered from snapshot ${got:-none}, the newest not after it is $AT_SEQ"
	run export-at 0 "$H" export -m "$M" -q --at "$AT" --depth 1
	got=$(json_num seq <"$OUT")
	[ "$got" = "$AT_SEQ" ] || fail "export --at $AT exported snapshot ${got:-none}, expected $AT_SEQ"
fi
step say-question "$H" say -m "$M" "Where did you put the knife?"
grep -q 'route: question' "$OUT" || fail "say: a question was not routed as a question"
step say-small-talk "$H" say -m "$M" "Hello robot, how are you?"
grep -q 'route: reply' "$OUT" || fail "say: a greeting was not answered as small talk: $(head -n 2 "$OUT" | tr '\n' ' ')"
step say-feedback "$H" say -m "$M" "You should always remember where you put the keys."
grep -q 'route: feedback' "$OUT" || fail "say: a rule was not routed as feedback"
step feedback "$H" feedback -m "$M" "Remember which arm you use to unload the dishwasher"
run rules-list 0 "$H" rules -m "$M"
run rules-history 0 "$H" rules -m "$M" history
nver=$("$H" rules -m "$M" history --json | grep -c .)
[ "$nver" -ge 3 ] || fail "rules history lists $nver versions, expected at least 3 (0, say, feedback)"
run rules-diff 0 "$H" rules -m "$M" diff 0
step rules-revert "$H" rules -m "$M" revert 1
run rules-diff-after-revert 0 "$H" rules -m "$M" diff 1

# --- looking at it -------------------------------------------------------
run inspect 0 "$H" inspect -m "$M" --depth 3
run export-json 0 "$H" export -m "$M" -q -o "$WORK/t.json"
run export-dot 0 "$H" export -m "$M" -q -f dot -o "$WORK/t.dot"
run export-html 0 "$H" export -m "$M" -q -f html -o "$WORK/t.html"
run export-jsonl 0 "$H" export -m "$M" -q -f jsonl -o "$WORK/obs.jsonl"
grep -q '"format":"h2emv-export/1"' "$WORK/t.json" || fail "export json: no h2emv-export/1 document"
grep -q '^digraph' "$WORK/t.dot" || fail "export dot: no digraph"
grep -qi '<html' "$WORK/t.html" || fail "export html: no page"

# --- copies, forgetting, maintenance -------------------------------------
step backup "$H" backup -m "$M" --verify "$WORK/copy"
checked "$WORK/copy" "backup (the copy)"
run forget-dry-run 0 "$H" forget -m "$M" --dry-run --now +7d
run snapshots 0 "$H" snapshots -m "$M"
if [ -n "${AT_SEQ:-}" ]; then
	step snapshots-pin "$H" snapshots -m "$M" pin "$AT_SEQ" audit
fi
step gc "$H" gc -m "$M" --keep 16 --keep-age 7d
step compact "$H" compact -m "$M"
if [ -n "${AT_SEQ:-}" ]; then
	run export-pinned 0 "$H" export -m "$M" -q --pin audit --depth 1
	[ "$(json_num seq <"$OUT")" = "$AT_SEQ" ] || fail "the pinned snapshot $AT_SEQ did not survive gc and compact"
fi
run stats 0 "$H" stats -m "$M"
run stats-read-only 0 "$H" --read-only stats -m "$M"
run stats-read-only-copy 0 "$H" --read-only stats -m "$WORK/copy"
step salvage "$H" salvage "$M" "$WORK/recovered"
checked "$WORK/recovered" "salvage (the recovered copy)"

# --- every acknowledged observation is still there ----------------------
# present COPY WHAT — each acknowledged id is in COPY's observations once
present() {
	local obs=$WORK/present.jsonl id seq bad=
	if ! "$H" export -m "$1" -q -f jsonl -o "$obs"; then
		fail "export -f jsonl of $2"
		return
	fi
	while read -r id seq; do
		[ "$(grep -c "\"id\":\"$id\"" "$obs")" = 1 ] || bad="$bad $id"
	done <"$WORK/acked.ids"
	[ -z "$bad" ] && ok "every acknowledged observation is in $2" ||
		fail "$2: acknowledged observations not there once:$bad"
}
present "$M" "the memory"
present "$WORK/copy" "the backup"
present "$WORK/recovered" "the salvaged copy"
# a resend of every acknowledged line is answered with the seqs of the acks
logf resend
L=$LF
"$H" ingest -m "$M" --ack "$WORK/stream.jsonl" >"$L.acks" 2>"$L.err" ||
	fail "ingest --ack of the resend: exit $?"
line=0
bad=
while read -r id seq; do
	line=$((line + 1))
	grep -q "{\"line\":$line,\"seq\":$seq}" "$L.acks" || bad="$bad $id=$seq"
done <"$WORK/acked.ids"
[ -z "$bad" ] || fail "a resend is not acknowledged as a duplicate of its first seq:$bad"
grep -q '"stored":[1-9]' "$L.acks" && fail "the resend stored observations again"
checked "$M" "the resend"

# --- the first profile and day a new user starts from (docs/examples) -----
EXM=$WORK/examples-mem
EX=$SRC/docs/examples
for s in init "profile set $EX/profile.json" "ingest $EX/day1.jsonl" build; do
	read -r -a words <<<"$s"
	run "examples-${words[0]}" 0 "$H" "${words[0]}" -m "$EXM" "${words[@]:1}"
	checked "$EXM" "examples-${words[0]}"
done
a=$("$H" ask -m "$EXM" -q "Where did you put the knife?" 2>&1)
[[ $a == *drawer* ]] && ok "examples: the knife is in the drawer" ||
	fail "examples: 'Where did you put the knife?' answered '$a'"

echo "$N steps, $FAILS failures"
[ "$FAILS" = 0 ]
