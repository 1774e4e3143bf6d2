"""The ROS bridge's mapping (tools/ros/h2emv_ros_map.py) without ROS:
messages as plain values become observations h2emv accepts."""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir, os.pardir, "tools", "ros"))
import h2emv_ros_map as rmap  # noqa: E402

MAPPING = {"robot": "r", "topics": [
    {"topic": "/obs", "kind": "observation"},
    {"topic": "/act", "kind": "action"},
    {"topic": "/heard", "kind": "speech", "speaker": "Alice"},
    {"topic": "/objs", "kind": "objects"},
    {"topic": "/place", "kind": "place"},
    {"topic": "/pose", "kind": "pose", "type": "geometry_msgs/PoseStamped",
     "fields": {"x": "pose.position.x", "y": "pose.position.y"},
     "places": [{"name": "kitchen", "x": [0, 5], "y": [0, 5]}]}]}


def s(text):
    return {"data": text}


class TestMapping(unittest.TestCase):
    def mapper(self):
        return rmap.Mapper(rmap.load_mapping(self.write(MAPPING)))

    def write(self, m):
        f = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
        json.dump(m, f)
        f.close()
        self.addCleanup(os.unlink, f.name)
        return f.name

    def test_action_text_status_and_location(self):
        m = self.mapper()
        self.assertEqual(m.observe("/place", s("kitchen"), 1)[0]["location"], "kitchen")
        o = m.observe("/act", s("Place(knife, drawer) succeeded"), 2)[0]
        self.assertEqual(o["action"], {"name": "Place", "args": ["knife", "drawer"],
                                       "status": "succeeded"})
        self.assertEqual((o["location"], o["t"], o["id"]), ("kitchen", 2, "r:act:2"))
        # actionlib's numbers
        o = m.observe("/act", s('{"name": "Pickup", "status": 4}'), 3)[0]
        self.assertEqual(o["action"]["status"], "aborted")
        self.assertEqual(m.observe("/act", s("Say hello there"), 4)[0]["action"],
                         "Say hello there")

    def test_same_time_gets_distinct_ids(self):
        m = self.mapper()
        a = m.observe("/heard", s("one"), 7)[0]["id"]
        b = m.observe("/heard", s("two"), 7)[0]["id"]
        self.assertNotEqual(a, b)

    def test_speech_objects_and_changes_only(self):
        m = self.mapper()
        o = m.observe("/heard", s("put the knife away"), 1)[0]
        self.assertEqual(o["speech"], {"text": "put the knife away", "speaker": "Alice"})
        self.assertEqual(o["persons"], ["Alice"])
        o = m.observe("/objs", s("knife_0:knife, cup_1"), 2)[0]
        self.assertEqual(o["objects"], [{"id": "knife_0", "type": "knife"},
                                        {"id": "cup_1", "type": "cup"}])
        self.assertEqual(m.observe("/objs", s("knife_0:knife, cup_1"), 3), [])
        o = m.observe("/objs", s('[{"id": "cup_1", "type": "cup", "state": "dirty"}]'), 4)
        self.assertEqual(o[0]["objects"][0]["state"], "dirty")

    def test_pose_fields_header_stamp_and_place_regions(self):
        m = self.mapper()
        msg = {"header": {"stamp": {"secs": 1727080200, "nsecs": 5000}},
               "pose": {"position": {"x": 1.0, "y": 2.0, "z": 0.0}}}
        o = m.observe("/pose", msg, 99)[0]
        self.assertEqual((o["location"], o["t"]), ("kitchen", 1727080200000005))
        self.assertEqual(m.observe("/pose", msg, 100), [])  # still in the kitchen
        msg["pose"]["position"]["x"] = 9.0
        self.assertEqual(m.observe("/pose", msg, 101), [])  # in no named place

    def test_observation_keeps_its_own_id_and_time(self):
        m = self.mapper()
        o = m.observe("/obs", s('{"id": "x-1", "t": "2024-09-23T08:00:00Z"}'), 5)[0]
        self.assertEqual((o["id"], o["t"]), ("x-1", "2024-09-23T08:00:00Z"))
        self.assertEqual(m.observe("/obs", s("not json"), 6), [])

    def test_bad_mappings_say_where(self):
        for bad, word in (({"topics": [{"kind": "action"}]}, "topic"),
                          ({"topics": [{"topic": "/a", "kind": "smell"}]}, "kind"),
                          ({"topics": [{"topic": "/a", "kind": "pose"}]}, "places")):
            with self.assertRaises(rmap.MappingError) as cm:
                rmap.load_mapping(self.write(bad))
            self.assertIn(word, str(cm.exception))


if __name__ == "__main__":
    unittest.main()
