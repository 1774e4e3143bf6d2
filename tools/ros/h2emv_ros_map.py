"""h2emv_ros_map.py — how ROS messages become h2emv observations (docs/ros.md).

The mapping file (JSON, or YAML when python3-yaml is there) names the
topics a robot already publishes and what each carries: a whole observation
as JSON text, an action's status, speech as text, detected objects, the
place or the pose. This module knows no ROS: it reads messages as plain
values (the bridge and the bag importer turn ROS 1 and ROS 2 messages into
dicts with to_plain), so the same mapping works over rospy, rclpy and a
recorded bag.
"""
import json
import re

DEFAULT_TYPE = "std_msgs/String"
KINDS = ("observation", "action", "speech", "objects", "place", "pose", "persons")
# actionlib_msgs/GoalStatus numbers, and words robots print, to h2emv statuses
STATUS = {0: "preparing", 1: "running", 2: "aborted", 3: "succeeded", 4: "aborted",
          5: "failed", 6: "aborted", 7: "aborted", 8: "aborted", 9: "failed",
          "pending": "preparing", "active": "running", "preempted": "aborted",
          "rejected": "failed", "lost": "failed", "recalled": "aborted",
          "preparing": "preparing", "running": "running", "succeeded": "succeeded",
          "success": "succeeded", "failed": "failed", "failure": "failed",
          "aborted": "aborted"}

DEFAULT_MAPPING = {
    "robot": "robot",
    "topics": [{"topic": "/h2emv/observation", "kind": "observation"}],
    "ask": {"request": "/h2emv/ask", "answer": "/h2emv/answer"},
    "ack": "/h2emv/ack",
    "batch_seconds": 0.2,
    "build": True,
}


class MappingError(ValueError):
    """A mapping file that cannot be used; the message says where."""


def load_mapping(path=None):
    """The mapping in `path` (JSON, or YAML for .yaml/.yml), checked and
    completed with the defaults; DEFAULT_MAPPING without a path."""
    m = dict(DEFAULT_MAPPING)
    if path:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if path.endswith((".yaml", ".yml")):
            try:
                import yaml
            except ImportError:
                raise MappingError("%s: YAML needs python3-yaml; write the mapping as JSON" % path)
            user = yaml.safe_load(text)
        else:
            try:
                user = json.loads(text)
            except ValueError as e:
                raise MappingError("%s: %s" % (path, e))
        if not isinstance(user, dict):
            raise MappingError("%s: the mapping is a JSON object" % path)
        m.update(user)
    for i, e in enumerate(m["topics"]):
        where = "topics[%d]" % i
        if not isinstance(e, dict) or not isinstance(e.get("topic"), str):
            raise MappingError("%s: needs a \"topic\"" % where)
        if e.get("kind") not in KINDS:
            raise MappingError("%s: \"kind\" is one of %s" % (where, ", ".join(KINDS)))
        if e["kind"] == "pose" and not e.get("places"):
            raise MappingError("%s: a pose topic needs \"places\" (regions)" % where)
    return m


def to_plain(msg):
    """A ROS 1 (genpy) or ROS 2 (rclpy) message as dicts, lists and
    scalars; plain values pass through."""
    if isinstance(msg, (str, int, float, bool, type(None), bytes)):
        return msg
    if isinstance(msg, (list, tuple)):
        return [to_plain(v) for v in msg]
    if isinstance(msg, dict):
        return {k: to_plain(v) for k, v in msg.items()}
    if hasattr(msg, "get_fields_and_field_types"):  # ROS 2
        names = msg.get_fields_and_field_types().keys()
    elif hasattr(msg, "__slots__"):  # ROS 1 messages, genpy.Time
        names = msg.__slots__
    else:
        return str(msg)
    return {n: to_plain(getattr(msg, n)) for n in names}


def dig(value, path):
    """value["a"]["b"][0] for path "a.b.0"; None when absent."""
    for part in path.split("."):
        if isinstance(value, list):
            try:
                value = value[int(part)]
            except (ValueError, IndexError):
                return None
        elif isinstance(value, dict):
            value = value.get(part)
        else:
            return None
    return value


def stamp_us(plain):
    """The message header's stamp in microseconds, or None (no header, or 0)."""
    st = dig(plain, "header.stamp") if isinstance(plain, dict) else None
    if not isinstance(st, dict):
        return None
    sec = st.get("secs", st.get("sec", 0)) or 0
    nsec = st.get("nsecs", st.get("nanosec", 0)) or 0
    us = int(sec) * 1000000 + int(nsec) // 1000
    return us or None


def payload(entry, plain):
    """What one message says: with "fields", a dict of each role's value
    dug out of the message; for a String message, its data as JSON when
    it parses as an object or array, else the text itself."""
    if entry.get("fields"):
        return {role: dig(plain, path) for role, path in entry["fields"].items()}
    if isinstance(plain, dict) and set(plain) == {"data"}:
        plain = plain["data"]
    if isinstance(plain, str):
        s = plain.strip()
        if s[:1] in ("{", "["):
            try:
                return json.loads(s)
            except ValueError:
                pass
        return s
    return plain


ACTION_TEXT = re.compile(r"^(?P<call>[^()\s]+(?:\(.*\))?)\s*(?P<status>[A-Za-z]+)?$")


def status_word(s):
    if s is None:
        return None
    key = s if isinstance(s, int) else str(s).strip().lower()
    return STATUS.get(key)


def objects_of(v):
    """Objects from a list of {id, type, state} (or ids), {"objects": [...]}
    or the text "cup_0:cup, knife_1:knife"."""
    if isinstance(v, dict):
        v = v.get("objects", [])
    if isinstance(v, str):
        v = [p.strip() for p in v.split(",") if p.strip()]
    out = []
    for o in v or []:
        if isinstance(o, str):
            oid, _, otype = o.partition(":")
            otype = otype or re.sub(r"[_\-]?\d+$", "", oid) or oid
            o = {"id": oid, "type": otype}
        elif isinstance(o, dict):
            o = {k: o[k] for k in ("id", "type", "state", "relations") if o.get(k) is not None}
            o.setdefault("type", o.get("id"))
            o.setdefault("id", o.get("type"))
        else:
            continue
        if o.get("id"):
            out.append(o)
    return out


class Mapper:
    """Turns messages of the mapped topics into observations. Keeps what
    the robot's state is between messages: the place (each observation is
    given it as its location) and the objects last seen (objects topics
    make an observation only when the set changes)."""

    def __init__(self, mapping):
        self.mapping = mapping
        self.robot = mapping.get("robot", "robot")
        self.by_topic = {}
        for e in mapping["topics"]:
            self.by_topic.setdefault(e["topic"], []).append(e)
        self.place = mapping.get("location")
        self.seen = {}
        self.last_id = {}

    def topics(self):
        """[(topic, message type)] to subscribe to."""
        return [(t, es[0].get("type", DEFAULT_TYPE)) for t, es in self.by_topic.items()]

    def observe(self, topic, msg, t_us):
        """The observations (0 or more dicts) message `msg` of `topic`,
        received at `t_us` (µs), makes. The header's stamp, when the
        message has one, is its time instead."""
        plain = to_plain(msg)
        t = stamp_us(plain) or int(t_us)
        out = []
        for e in self.by_topic.get(topic, []):
            obs = getattr(self, "_" + e["kind"])(e, payload(e, plain), t)
            if obs is None:
                continue
            obs.setdefault("t", t)
            if self.place and "location" not in obs:
                obs["location"] = self.place
            # named by the receive (or bag) time, not the message's own t:
            # unique across restarts live, the same on a second import
            obs.setdefault("id", self._id(topic, int(t_us)))
            out.append(obs)
        return out

    def _id(self, topic, t):
        """robot:topic:time (µs), made unique when two messages share a
        time, so a bag imported twice or a resent batch is stored once."""
        base = "%s:%s:%s" % (self.robot, topic.strip("/"), t)
        base = re.sub(r"[^\x21-\x7e]", "_", base)[:120]
        n = self.last_id.get(base, 0)
        self.last_id[base] = n + 1
        return base if n == 0 else "%s#%d" % (base, n)

    def _observation(self, e, v, t):
        if not isinstance(v, dict):
            return None
        return dict(v)

    def _action(self, e, v, t):
        if isinstance(v, str):
            m = ACTION_TEXT.match(v)
            status = status_word(m.group("status")) if m else None
            if not m or (m.group("status") and not status):
                return {"action": v} if v else None  # the short form, h2emv parses it
            call = m.group("call")
            action = {"name": call.split("(")[0]}
            if "(" in call:
                action["args"] = _args(call)
            if status:
                action["status"] = status
            obs = {"action": action}
        elif isinstance(v, dict):
            name = v.get("name") or v.get("action")
            if not name:
                return None
            action = {"name": str(name)}
            if v.get("args") is not None:
                action["args"] = v["args"]
            st = status_word(v.get("status"))
            if st:
                action["status"] = st
            obs = {"action": action}
            if v.get("goal"):
                obs["goal"] = v["goal"]
        else:
            return None
        return obs

    def _speech(self, e, v, t):
        if isinstance(v, dict):
            text, speaker = v.get("text"), v.get("speaker", e.get("speaker"))
        else:
            text, speaker = v, e.get("speaker")
        if not isinstance(text, str) or not text:
            return None
        utt = {"text": text}
        if speaker:
            utt["speaker"] = speaker
        obs = {"speech": utt}
        if speaker and speaker not in (self.mapping.get("self") or ["robot"]):
            obs["persons"] = [speaker]
        return obs

    def _objects(self, e, v, t):
        objs = objects_of(v)
        key = json.dumps(objs, sort_keys=True)
        if e.get("emit", "changes") == "changes" and self.seen.get(e["topic"]) == key:
            return None
        self.seen[e["topic"]] = key
        return {"objects": objs} if objs else None

    def _persons(self, e, v, t):
        names = [p.strip() for p in v.split(",")] if isinstance(v, str) else v
        names = [p for p in names or [] if p]
        return {"persons": names} if names else None

    def _set_place(self, place):
        if not place or place == self.place:
            return None
        self.place = place
        return {"location": place}

    def _place(self, e, v, t):
        if isinstance(v, dict):
            v = v.get("place") or v.get("location") or v.get("name")
        return self._set_place(v if isinstance(v, str) else None)

    def _pose(self, e, v, t):
        if not isinstance(v, dict):
            return None
        x, y = v.get("x"), v.get("y")
        if not isinstance(x, (int, float)) or not isinstance(y, (int, float)):
            return None
        for p in e["places"]:
            if p["x"][0] <= x <= p["x"][1] and p["y"][0] <= y <= p["y"][1]:
                return self._set_place(p["name"])
        return None


def _args(call):
    """The arguments of "Place(knife, drawer)" as a list of strings."""
    inside = call[call.index("(") + 1:call.rindex(")")] if "(" in call else ""
    return [a.strip() for a in inside.split(",") if a.strip()]
