#!/usr/bin/python3
"""h2emv_ros.py — a robot's ROS topics into an h2emv memory (docs/ros.md).

    h2emv-ros-bridge -m MEM [--mapping map.json] [--create]
        a node: subscribes to the mapped topics, stores what they carry with
        acknowledged, id-deduplicated ingest (the Python bindings), publishes
        each acknowledgement on the ack topic, and answers the questions
        published on the ask topic on the answer topic (std_msgs/String).
    h2emv-rosbag BAG [--mapping map.json] (-m MEM [--create] [--build] | -o FILE)
        a recorded ROS 1 bag through the same mapping: into a memory, or as
        observation JSON Lines for `h2emv ingest`.

ROS 1 (rospy) is used where it is installed, else ROS 2 (rclpy): the
mapping and the bridge are the same code; only the adapter differs.
"""
import argparse
import importlib
import json
import os
import sys
import threading
import time


def _import_h2emv():
    """The bindings: installed (pip), else beside this file in an install
    prefix (LIBDIR/h2emv/python, put there by `cmake --install`)."""
    try:
        import h2emv
        return h2emv
    except ImportError:
        here = os.path.dirname(os.path.abspath(__file__))
        for rel in ("python", os.path.join(os.pardir, os.pardir, "api", "python")):
            p = os.path.join(here, rel)
            if os.path.isdir(os.path.join(p, "h2emv")):
                sys.path.insert(0, p)
                import h2emv
                return h2emv
        raise


h2emv = _import_h2emv()
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import h2emv_ros_map as rmap  # noqa: E402


class Ros1:
    """The bridge's view of rospy."""

    def __init__(self, name):
        import rospy
        import roslib.message
        from std_msgs.msg import String
        self.rospy, self.roslib, self.String = rospy, roslib, String
        rospy.init_node(name, anonymous=False)

    def subscribe(self, topic, type_name, cb):
        cls = self.roslib.message.get_message_class(type_name)
        if cls is None:
            raise SystemExit("h2emv-ros-bridge: unknown message type %s (topic %s)"
                             % (type_name, topic))
        self.rospy.Subscriber(topic, cls, lambda m: cb(topic, m), queue_size=1000)

    def publisher(self, topic):
        p = self.rospy.Publisher(topic, self.String, queue_size=100)
        return lambda text: p.publish(self.String(data=text))

    def now_us(self):
        t = self.rospy.get_rostime()
        us = t.secs * 1000000 + t.nsecs // 1000
        return us or int(time.time() * 1e6)

    def log(self, text):
        self.rospy.loginfo(text)

    def spin(self, tick, period):
        self.rospy.Timer(self.rospy.Duration(period), lambda e: tick())
        self.rospy.spin()


class Ros2:
    """The same over rclpy (ROS 2): message types "pkg/Type" or
    "pkg/msg/Type"."""

    def __init__(self, name):
        import rclpy
        from rclpy.node import Node
        from std_msgs.msg import String
        self.rclpy, self.String = rclpy, String
        rclpy.init()
        self.node = Node(name)

    def subscribe(self, topic, type_name, cb):
        parts = type_name.split("/")
        cls = getattr(importlib.import_module(parts[0] + ".msg"), parts[-1])
        self.node.create_subscription(cls, topic, lambda m: cb(topic, m), 1000)

    def publisher(self, topic):
        p = self.node.create_publisher(self.String, topic, 100)

        def publish(text):
            m = self.String()
            m.data = text
            p.publish(m)
        return publish

    def now_us(self):
        return self.node.get_clock().now().nanoseconds // 1000

    def log(self, text):
        self.node.get_logger().info(text)

    def spin(self, tick, period):
        self.node.create_timer(period, tick)
        self.rclpy.spin(self.node)


def adapter(name):
    try:
        import rospy  # noqa: F401
        return Ros1(name)
    except ImportError:
        pass
    try:
        import rclpy  # noqa: F401
    except ImportError:
        raise SystemExit("h2emv-ros-bridge: neither rospy (ROS 1) nor rclpy (ROS 2) "
                         "can be imported; run it with the python3 ROS is installed for")
    return Ros2(name)


def store(mem, batch, log, allow_clock_jump=False):
    """Ingest `batch` durably; an item the memory refuses (malformed, an id
    naming other content, a time too far ahead of the memory's clock) is
    logged and left out, the rest stored. Returns the acknowledgement, or
    None when nothing was left."""
    while batch:
        try:
            return mem.ingest(batch, allow_clock_jump=allow_clock_jump)
        except (h2emv.ParseError, h2emv.LimitError, h2emv.ExistsError) as e:
            if e.index is None:
                raise
            log("h2emv: observation dropped (%s): %s" % (e, json.dumps(batch[e.index])[:200]))
            batch = batch[:e.index] + batch[e.index + 1:]
    return None


class Bridge:
    """Messages in, observations queued, flushed in batches (one durable
    transaction each), acknowledged; questions answered from the newest
    tree (built first, unless another builder runs)."""

    def __init__(self, mem, mapper, ros, build=True):
        self.mem, self.mapper, self.ros, self.build = mem, mapper, ros, build
        self.queue, self.lock, self.flush_lock = [], threading.Lock(), threading.Lock()
        self.ack_pub = self.answer_pub = None

    def start(self):
        m = self.mapper.mapping
        for topic, type_name in self.mapper.topics():
            self.ros.subscribe(topic, type_name, self.on_message)
        if m.get("ack"):
            self.ack_pub = self.ros.publisher(m["ack"])
        ask = m.get("ask") or {}
        if ask.get("request") and ask.get("answer"):
            self.answer_pub = self.ros.publisher(ask["answer"])
            self.ros.subscribe(ask["request"], rmap.DEFAULT_TYPE, self.on_ask)
        self.ros.log("h2emv bridge: memory %s, topics %s" % (
            self.mem.path, ", ".join(t for t, _ in self.mapper.topics())))

    def on_message(self, topic, msg):
        with self.lock:
            self.queue.extend(self.mapper.observe(topic, msg, self.ros.now_us()))

    def flush(self):
        """Store what is queued; on a failure that is not the items' fault
        (busy, I/O, full disk) they stay queued for the next tick."""
        with self.flush_lock:
            with self.lock:
                batch, self.queue = self.queue, []
            if not batch:
                return
            try:
                ack = store(self.mem, batch, self.ros.log,
                            bool(self.mapper.mapping.get("allow_clock_jump")))
            except h2emv.Error as e:
                self.ros.log("h2emv: ingest failed, will retry: %s" % e)
                with self.lock:
                    self.queue[:0] = batch
                return
            if ack and self.ack_pub:
                self.ack_pub(json.dumps({k: ack[k] for k in (
                    "stored", "duplicates", "first_seq", "last_seq")}))

    def on_ask(self, topic, msg):
        req = rmap.payload({}, rmap.to_plain(msg))
        if not isinstance(req, dict):
            req = {"question": req}
        try:
            self.flush()
            if self.build:
                try:
                    self.mem.build()
                except h2emv.BusyError:
                    pass  # `h2emv build --follow` or `serve` builds it
            out = self.mem.ask(str(req.get("question", "")), at=req.get("at"))
        except h2emv.Error as e:
            out = {"question": req.get("question"),
                   "error": {"code": e.code, "name": e.name, "message": e.message}}
        if "id" in req:
            out["id"] = req["id"]
        self.answer_pub(json.dumps(out))

    def run(self):
        self.start()
        self.ros.spin(self.flush, float(self.mapper.mapping.get("batch_seconds", 0.2)))
        self.flush()


def bridge_main(argv=None):
    ap = argparse.ArgumentParser(prog="h2emv-ros-bridge", description=(
        "Stream a robot's ROS topics into an h2emv memory and answer questions "
        "(docs/ros.md). ROS remapping arguments (name:=value) are passed to ROS."))
    ap.add_argument("-m", "--mem", default=os.environ.get("H2EMV_MEM", "h2emv-memory"))
    ap.add_argument("--mapping", help="the mapping file (JSON, or YAML with python3-yaml)")
    ap.add_argument("--create", action="store_true", help="create the memory if missing")
    ap.add_argument("--no-build", action="store_true",
                    help="do not build before answering (another builder runs)")
    ap.add_argument("--name", default="h2emv_bridge", help="the node's name")
    args, _ros_args = ap.parse_known_args(argv)
    mapper = rmap.Mapper(rmap.load_mapping(args.mapping))
    with h2emv.open(args.mem, create=args.create) as mem:
        Bridge(mem, mapper, adapter(args.name), build=not args.no_build).run()


def bag_messages(path, topics):
    """(topic, message, time in µs) of a ROS 1 bag, in time order."""
    try:
        import rosbag
    except ImportError:
        raise SystemExit("h2emv-rosbag: python3-rosbag is not installed for %s" % sys.executable)
    with rosbag.Bag(path) as bag:
        for topic, msg, t in bag.read_messages(topics=topics):
            yield topic, msg, t.to_nsec() // 1000


def rosbag_main(argv=None):
    ap = argparse.ArgumentParser(prog="h2emv-rosbag", description=(
        "Import a recorded ROS 1 bag through a bridge mapping (docs/ros.md): into a "
        "memory (-m), or as observation JSON Lines (-o FILE, - for stdout)."))
    ap.add_argument("bag")
    ap.add_argument("--mapping")
    ap.add_argument("-m", "--mem")
    ap.add_argument("-o", "--output")
    ap.add_argument("--create", action="store_true")
    ap.add_argument("--build", action="store_true", help="build the tree afterwards")
    ap.add_argument("--batch", type=int, default=1000)
    args = ap.parse_args(argv)
    if bool(args.mem) == bool(args.output):
        ap.error("give -m MEM or -o FILE")
    mapper = rmap.Mapper(rmap.load_mapping(args.mapping))
    names = [t for t, _ in mapper.topics()]
    obs = (o for topic, msg, t in bag_messages(args.bag, names)
           for o in mapper.observe(topic, msg, t))
    if args.output:
        out = sys.stdout if args.output == "-" else open(args.output, "w", encoding="utf-8")
        n = 0
        for o in obs:
            out.write(json.dumps(o, ensure_ascii=False, separators=(",", ":")) + "\n")
            n += 1
        if out is not sys.stdout:
            out.close()
        print(json.dumps({"bag": args.bag, "observations": n}), file=sys.stderr)
        return 0
    total = {"stored": 0, "duplicates": 0}
    jump = bool(mapper.mapping.get("allow_clock_jump"))
    log = lambda s: print(s, file=sys.stderr)  # noqa: E731
    with h2emv.open(args.mem, create=args.create) as mem:
        batch = []
        for o in obs:
            batch.append(o)
            if len(batch) >= args.batch:
                _add(total, store(mem, batch, log, jump))
                batch = []
        _add(total, store(mem, batch, log, jump))
        if args.build:
            total["build"] = mem.build()["obs_folded"]
    print(json.dumps(total))
    return 0


def _add(total, ack):
    if ack:
        total["stored"] += ack["stored"]
        total["duplicates"] += ack["duplicates"]


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    prog = os.path.basename(sys.argv[0])
    if prog.endswith("rosbag") or (argv and argv[0] == "rosbag"):
        return rosbag_main(argv[1:] if argv and argv[0] == "rosbag" else argv)
    return bridge_main(argv[1:] if argv and argv[0] == "bridge" else argv)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (h2emv.Error, rmap.MappingError, OSError) as e:
        print("%s: %s" % (os.path.basename(sys.argv[0]), e), file=sys.stderr)
        sys.exit(2)
