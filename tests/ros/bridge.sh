#!/bin/bash
# bridge.sh SRC_DIR LIBH2EMV H2EMV_CLI WORK — the ROS bridge with a real ROS 1
# master: roscore on a port of its own, the bridge node (tools/ros), four
# `rostopic pub` of what a robot publishes (a place, an action status, and
# one JSON observation with an id, sent twice), an acknowledgement on the ack
# topic, then questions over the ask/answer topics. The memory must hold
# each observation once and answer from them. SKIP (77) when ROS 1 is not installed for Debian's python3
# (a failure with H2EMV_REQUIRE_ROS=1, as CI sets).
set -u
src=$1 lib=$2 cli=$3 work=$4
py=/usr/bin/python3
if ! command -v roscore >/dev/null || ! command -v rostopic >/dev/null ||
	! "$py" -c 'import rospy, std_msgs.msg' 2>/dev/null; then
	echo "SKIP: ROS 1 (ros-core, python3-rospy) is not installed"
	[ "${H2EMV_REQUIRE_ROS:-0}" = 1 ] && { echo "FAIL: H2EMV_REQUIRE_ROS=1"; exit 1; }
	exit 77
fi
rm -rf "$work"
mkdir -p "$work"
export ROS_HOME="$work/ros" ROS_LOG_DIR="$work/ros/log" PYTHONDONTWRITEBYTECODE=1
export H2EMV_LIB="$lib" PYTHONPATH="$src/api/python"
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill -INT "$p" 2>/dev/null; done
	sleep 1
	for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; for f in "$work"/*.log; do echo "== $f"; tail -n 30 "$f"; done; exit 1; }

# a free port for the master
port=$(
	"$py" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
)
export ROS_MASTER_URI="http://127.0.0.1:$port" ROS_IP=127.0.0.1
roscore -p "$port" >"$work/roscore.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 300); do
	rostopic list >/dev/null 2>&1 && break
	sleep 0.1
done
rostopic list >/dev/null 2>&1 || fail "roscore did not start"

cat >"$work/mapping.json" <<'JSON'
{"robot": "testbot",
 "topics": [{"topic": "/h2emv/observation", "kind": "observation"},
            {"topic": "/robot/action_status", "kind": "action"},
            {"topic": "/robot/place", "kind": "place"},
            {"topic": "/robot/heard", "kind": "speech", "speaker": "Alice"}],
 "ask": {"request": "/h2emv/ask", "answer": "/h2emv/answer"},
 "ack": "/h2emv/ack", "batch_seconds": 0.1}
JSON
"$py" "$src/tools/ros/h2emv_ros.py" bridge -m "$work/mem" --create \
	--mapping "$work/mapping.json" >"$work/bridge.log" 2>&1 &
bridge=$!
pids+=($bridge)
for _ in $(seq 1 300); do
	rostopic info /robot/place 2>/dev/null | grep -q h2emv_bridge && break
	sleep 0.1
done
rostopic info /robot/place 2>/dev/null | grep -q h2emv_bridge || fail "the bridge did not subscribe"

# a listener of the acknowledgements, connected before anything is sent
rostopic echo -n 1 /h2emv/ack >"$work/ack.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 300); do
	rostopic info /h2emv/ack 2>/dev/null | grep -q rostopic && break
	sleep 0.1
done
now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
obs='{"id": "testbot-boot1-1", "t": "'$now'", "location": "hallway", "action": {"name": "Place", "args": {"object": "keys", "target": "shelf"}, "status": "succeeded"}}'
rostopic pub -1 /robot/place std_msgs/String "data: 'kitchen'" >"$work/pub1.log" 2>&1 &
p1=$!
rostopic pub -1 /robot/action_status std_msgs/String "data: 'Place(knife, drawer) succeeded'" \
	>"$work/pub2.log" 2>&1 &
p2=$!
rostopic pub -1 /h2emv/observation std_msgs/String "data: '$obs'" >"$work/pub3.log" 2>&1 &
p3=$!
rostopic pub -1 /h2emv/observation std_msgs/String "data: '$obs'" >"$work/pub4.log" 2>&1 &
p4=$!
wait $p1 $p2 $p3 $p4 || fail "rostopic pub failed"

"$py" "$src/tests/ros/ask.py" /h2emv/ask /h2emv/answer "Where did you put the knife?" \
	>"$work/answer.json" 2>"$work/ask.log" || fail "no answer over the bridge"
cat "$work/answer.json"
"$py" - "$work/answer.json" <<'PY' || fail "wrong answer"
import json, sys
a = json.load(open(sys.argv[1]))
assert a.get("id") == "q1", a
assert "drawer" in a["answer"], a
PY
"$py" "$src/tests/ros/ask.py" /h2emv/ask /h2emv/answer "Where did you put the keys?" \
	>"$work/answer2.json" 2>>"$work/ask.log" || fail "no second answer"
grep -q shelf "$work/answer2.json" || fail "keys: $(cat "$work/answer2.json")"

grep -q 'stored' "$work/ack.log" || fail "no acknowledgement on /h2emv/ack"
kill -INT "$bridge"
for _ in $(seq 1 150); do
	kill -0 "$bridge" 2>/dev/null || break
	sleep 0.1
done
kill -0 "$bridge" 2>/dev/null && fail "the bridge did not stop on SIGINT"
wait "$bridge" 2>/dev/null
# three observations: the place, the action, the JSON one once (its resend
# was a duplicate)
"$cli" export -m "$work/mem" -f jsonl -o "$work/obs.jsonl" -q || fail "export"
n=$(wc -l <"$work/obs.jsonl")
[ "$n" -eq 3 ] || { cat "$work/obs.jsonl"; fail "$n observations stored, expected 3"; }
[ "$(grep -c testbot-boot1-1 "$work/obs.jsonl")" -eq 1 ] || fail "the id was stored twice"
grep -q '"location":"kitchen"' "$work/obs.jsonl" || fail "the place was not recorded"
"$cli" check -m "$work/mem" -q || fail "check"
echo "ros bridge: ok"
