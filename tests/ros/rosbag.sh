#!/bin/bash
# rosbag.sh SRC_DIR LIBH2EMV H2EMV_CLI WORK — `h2emv-rosbag`: a bag recorded
# here with rosbag's Python API (a place, speech, detected objects repeated,
# action statuses, a JSON observation, a pose as std_msgs/Float32MultiArray
# read through "fields") imported through a mapping into a
# memory that then answers; a second import of the same bag stores nothing
# (every observation's id is already there); -o writes the same observations
# as JSON Lines that `h2emv ingest` takes. SKIP (77) without python3-rosbag
# (a failure with H2EMV_REQUIRE_ROS=1, as CI sets).
set -eu
src=$1 lib=$2 cli=$3 work=$4
py=/usr/bin/python3
if ! "$py" -c 'import rosbag, std_msgs.msg' 2>/dev/null; then
	echo "SKIP: python3-rosbag is not installed"
	[ "${H2EMV_REQUIRE_ROS:-0}" = 1 ] && { echo "FAIL: H2EMV_REQUIRE_ROS=1"; exit 1; }
	exit 77
fi
rm -rf "$work"
mkdir -p "$work"
export H2EMV_LIB="$lib" PYTHONPATH="$src/api/python" PYTHONDONTWRITEBYTECODE=1
cd "$work"
"$py" - <<'PY'
import json, rosbag, rospy
from std_msgs.msg import Float32MultiArray, String
t0 = 1727080200  # 2024-09-23T08:30:00Z
msgs = [(0, "/robot/place", "kitchen"),
        (5, "/robot/heard", "Please put the knife away."),
        (10, "/robot/objects", "knife_0:knife, cup_1:cup"),
        (11, "/robot/objects", "knife_0:knife, cup_1:cup"),
        (20, "/robot/action_status", "Pickup(knife) running"),
        (25, "/robot/action_status", "Pickup(knife) succeeded"),
        (40, "/robot/action_status", "Place(knife, drawer) succeeded"),
        (600, "/robot/place", "hallway"),
        (620, "/h2emv/observation", json.dumps({"t": "2024-09-23T08:40:20Z",
            "action": {"name": "Place", "args": {"object": "keys", "target": "shelf"},
                       "status": "succeeded"}}))]
with rosbag.Bag("day.bag", "w") as bag:
    for dt, topic, text in msgs:
        bag.write(topic, String(data=text), rospy.Time(t0 + dt))
    # a pose as a message that is no String: x, y read through "fields"
    bag.write("/robot/xy", Float32MultiArray(data=[2.0, 3.0]), rospy.Time(t0 + 700))
    bag.write("/robot/xy", Float32MultiArray(data=[2.5, 3.0]), rospy.Time(t0 + 701))
PY
cat >mapping.json <<'JSON'
{"robot": "bagbot",
 "topics": [{"topic": "/h2emv/observation", "kind": "observation"},
            {"topic": "/robot/action_status", "kind": "action"},
            {"topic": "/robot/place", "kind": "place"},
            {"topic": "/robot/objects", "kind": "objects"},
            {"topic": "/robot/heard", "kind": "speech", "speaker": "Alice"},
            {"topic": "/robot/xy", "kind": "pose", "type": "std_msgs/Float32MultiArray",
             "fields": {"x": "data.0", "y": "data.1"},
             "places": [{"name": "study", "x": [0, 4], "y": [0, 4]}]}]}
JSON
tool="$src/tools/ros/h2emv_ros.py"
out=$("$py" "$tool" rosbag day.bag --mapping mapping.json -m mem --create --build)
echo "first import: $out"
# 11 messages; the repeated objects message and the second pose in the same
# place make none
[ "$(echo "$out" | "$py" -c 'import json,sys; d=json.load(sys.stdin); print(d["stored"], d["duplicates"])')" = "9 0" ]
# the second time through `h2emv import rosbag`, which runs h2emv-rosbag
out=$("$cli" import rosbag day.bag --mapping mapping.json -m mem)
echo "second import: $out"
[ "$(echo "$out" | "$py" -c 'import json,sys; d=json.load(sys.stdin); print(d["stored"], d["duplicates"])')" = "0 9" ]
"$cli" ask -m mem -q "Where did you put the knife?" | tee answer.txt
grep -q drawer answer.txt
"$cli" ask -m mem -q "Where did you put the keys?" | grep -q shelf
"$cli" ask -m mem -q "What did Alice say?" | grep -qi knife
# the JSON Lines form: the same 9 observations, ingested by the CLI
"$py" "$tool" rosbag day.bag --mapping mapping.json -o day.jsonl 2>/dev/null
[ "$(wc -l <day.jsonl)" -eq 9 ]
[ "$(tail -n 1 day.jsonl | grep -c '"location":"study"')" -eq 1 ]
"$cli" ingest -m mem2 --create day.jsonl -q
"$cli" check -m mem -q
echo "rosbag import: ok"
