#!/bin/bash
# test_edges_follow_stop.sh H2EMV — `build --follow` stops soon on SIGTERM
# under load (issue 21, point 8's last item: twice it took over 30 s). A
# backlog of 12,000 observations and an ingester adding batches of 500
# beside it; SIGTERM after 2 s: the builder exits 0 within 15 s (a guard
# against a hang, not a speed test), every batch an ingest acknowledged is
# stored once, `check` finds nothing, and a later build folds the rest.
set -u
H=${1:?usage: test_edges_follow_stop.sh H2EMV}
command -v timeout >/dev/null || { echo "SKIP: timeout is needed"; exit 77; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/h2emv-follow-stop.XXXXXX") || exit 2
ING=
FOL=
trap '[ -n "$ING" ] && kill "$ING" 2>/dev/null; [ -n "$FOL" ] && kill -9 "$FOL" 2>/dev/null; rm -rf "$WORK"' EXIT
FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }

# obs FIRST N: N observations a minute apart, from minute FIRST on
obs() {
	awk -v first="$1" -v n="$2" 'BEGIN {
		split("kitchen hallway garage office", loc, " ");
		split("cup knife keys book", obj, " ");
		for (i = first; i < first + n; i++) {
			t = 1719400000 + i * 60;
			printf "{\"id\":\"o%d\",\"t\":\"%s\",\"location\":\"%s\",", i,
			       strftime("%Y-%m-%dT%H:%M:%SZ", t, 1), loc[i % 4 + 1];
			printf "\"action\":{\"name\":\"Place\",\"args\":{\"object\":\"%s\"},", obj[i % 4 + 1];
			printf "\"status\":\"succeeded\"}}\n";
		}
	}'
}

M="$WORK/mem"
obs 0 12000 >"$WORK/backlog.jsonl"
"$H" init "$M" >/dev/null 2>&1 && "$H" ingest -m "$M" "$WORK/backlog.jsonl" >/dev/null 2>&1 ||
	{ echo "FAIL: setting up the backlog"; exit 1; }

"$H" build -m "$M" --follow --interval 1 >"$WORK/follow.out" 2>"$WORK/follow.err" &
FOL=$!
# the ingester: batches of 500 until told to stop; each acknowledged batch
# is counted (its lines must all be stored)
(
	i=12000
	while [ ! -e "$WORK/stop" ]; do
		obs "$i" 500 >"$WORK/batch.jsonl"
		"$H" ingest -m "$M" "$WORK/batch.jsonl" >/dev/null 2>&1 && echo 500 >>"$WORK/acked"
		i=$((i + 500))
	done
) &
ING=$!
sleep 2
kill -0 "$FOL" 2>/dev/null || fail "build --follow ended before the signal: $(tail -n 2 "$WORK/follow.err")"
kill -TERM "$FOL"
for _ in $(seq 1 150); do
	kill -0 "$FOL" 2>/dev/null || break
	sleep 0.1
done
if kill -0 "$FOL" 2>/dev/null; then
	fail "build --follow still running 15 s after SIGTERM"
	kill -9 "$FOL"
fi
wait "$FOL"
rc=$?
FOL=
[ "$rc" = 0 ] || fail "build --follow exited $rc after SIGTERM: $(tail -n 2 "$WORK/follow.err")"
touch "$WORK/stop"
wait "$ING"
ING=

acked=$((12000 + $(awk '{ s += $1 } END { print s + 0 }' "$WORK/acked" 2>/dev/null || echo 0)))
last=$("$H" stats -m "$M" --json 2>/dev/null | sed -n 's/.*"obs_last_seq": *\([0-9]*\).*/\1/p')
[ "$last" = "$acked" ] || fail "acknowledged $acked observations, the log ends at seq ${last:-?}"
timeout 120 "$H" check -m "$M" >"$WORK/check.out" 2>&1 || fail "check after the stop: $(tail -n 2 "$WORK/check.out")"
timeout 300 "$H" build -m "$M" -q >/dev/null 2>&1 || fail "the build after the stop failed"
cursor=$("$H" stats -m "$M" --json 2>/dev/null | sed -n 's/.*"build_cursor": *\([0-9]*\).*/\1/p')
[ "$cursor" = "$acked" ] || fail "the build after the stop reached ${cursor:-?} of $acked"

[ "$FAILS" = 0 ] && echo "ok: build --follow stopped on SIGTERM under load, $acked observations kept"
exit $((FAILS > 0))
