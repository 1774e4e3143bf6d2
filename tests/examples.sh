#!/bin/bash
# examples.sh H2EMV SRC_DIR WORK — docs/examples/ works as its README says:
# the first profile and the first day ingest into a new memory (twice: every
# line has an id, so the second time stores nothing), build, and answer; the
# ROS mapping loads.
set -eu
h2emv=$1 src=$2 work=$3
ex="$src/docs/examples"
rm -rf "$work"
mkdir -p "$work"
m="$work/helper-mem"
"$h2emv" init -m "$m" >/dev/null
"$h2emv" profile -m "$m" set "$ex/profile.json" >/dev/null
"$h2emv" ingest -m "$m" "$ex/day1.jsonl" --json | grep -q '"stored":19'
"$h2emv" ingest -m "$m" "$ex/day1.jsonl" --json | grep -q '"stored":0'
"$h2emv" build -m "$m" -q
ask() { # ask QUESTION EXPECTED
	local a
	a=$("$h2emv" ask -m "$m" -q "$1")
	echo "$1 -> $a"
	[[ $a == *"$2"* ]] || { echo "FAIL: expected '$2'"; exit 1; }
}
ask "Where did you put the knife?" "drawer"
ask "Who gave you the parcel?" "Bob"
ask "Who did you give the glasses to?" "Alice"
ask "Where did you put the mug?" "dishwasher"
ask "When did you last go to the charging dock?" "18:45"
"$h2emv" check -m "$m" -q
PYTHONDONTWRITEBYTECODE=1 python3 -c 'import sys; sys.path.insert(0, sys.argv[1])
import h2emv_ros_map as r; m = r.load_mapping(sys.argv[2]); assert len(r.Mapper(m).topics()) == 7' \
	"$src/tools/ros" "$ex/ros-mapping.json"
echo "examples: ok"
