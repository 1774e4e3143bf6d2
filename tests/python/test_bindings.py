"""The Python bindings (api/python/h2emv) against the library of the build
tree: $H2EMV_LIB names it, PYTHONPATH the package (tests/CMakeLists.txt
sets both). Run by ctest as `python3 -m unittest`."""
import json
import os
import shutil
import tempfile
import threading
import unittest

import h2emv

DAY = [
    {"id": "r1-1", "t": "2024-09-23T08:30:00Z", "location": "kitchen",
     "speech": {"speaker": "Alice", "text": "Good morning, robot."}, "persons": ["Alice"]},
    {"id": "r1-2", "t": "2024-09-23T08:31:00Z", "location": "kitchen",
     "action": {"name": "Pickup", "args": {"object": "knife"}, "status": "succeeded"}},
    {"id": "r1-3", "t": "2024-09-23T08:32:00Z", "location": "kitchen",
     "action": "Place(knife, drawer)"},
    {"id": "r1-4", "t": "2024-09-23T09:10:00Z", "location": "hallway",
     "action": {"name": "Pickup", "args": {"object": "keys"}, "status": "succeeded"}},
    {"id": "r1-5", "t": "2024-09-23T09:11:00Z", "location": "hallway",
     "action": "Place(keys, shelf)"},
]


class Base(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="h2emv-py-")
        self.path = os.path.join(self.dir, "mem")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def built(self):
        m = h2emv.open(self.path, create=True)
        m.ingest(DAY)
        m.build()
        return m


class TestOpen(Base):
    def test_missing_memory_is_not_found_with_the_library_code(self):
        with self.assertRaises(h2emv.NotFoundError) as cm:
            h2emv.open(self.path)
        self.assertEqual(cm.exception.code, h2emv.ENOTFOUND)
        self.assertEqual(cm.exception.name, "not found")
        self.assertIsInstance(cm.exception, h2emv.Error)

    def test_create_then_context_manager_closes(self):
        with h2emv.open(self.path, create=True) as m:
            self.assertEqual(m.stats()["obs_count"], 0)
        with self.assertRaises(h2emv.InvalidError):
            m.stats()
        self.assertEqual(h2emv.version(), "0.1.0")

    def test_read_only_refuses_writes(self):
        h2emv.open(self.path, create=True).close()
        with h2emv.open(self.path, readonly=True) as m:
            with self.assertRaises(h2emv.ReadOnlyError) as cm:
                m.ingest({"t": 0})
            self.assertEqual(cm.exception.code, h2emv.EREADONLY)


class TestIngest(Base):
    def test_ack_gives_seqs_and_ids_deduplicate(self):
        with h2emv.open(self.path, create=True) as m:
            ack = m.ingest(DAY[:3])
            self.assertEqual((ack["stored"], ack["first_seq"], ack["last_seq"]), (3, 1, 3))
            self.assertEqual([i["seq"] for i in ack["items"]], [1, 2, 3])
            # a resend after a crash: the stored ids answer with their seqs
            again = m.ingest([json.dumps(DAY[1]), DAY[3]])
            self.assertEqual((again["stored"], again["duplicates"]), (1, 1))
            self.assertEqual(again["items"][0], {"seq": 2, "duplicate": True})
            self.assertEqual(again["items"][1], {"seq": 4, "duplicate": False})
            self.assertEqual(m.stats()["obs_count"], 4)
            self.assertEqual(m.observation(2)["id"], "r1-2")
            self.assertEqual(m.ingest([])["stored"], 0)

    def test_bad_item_names_index_line_and_field_and_stores_nothing(self):
        with h2emv.open(self.path, create=True) as m:
            with self.assertRaises(h2emv.ParseError) as cm:
                m.ingest([DAY[0], {"t": "2024-09-23T08:31:00Z", "objects": [{"id": "x"}]}])
            e = cm.exception
            self.assertEqual((e.code, e.index, e.line), (h2emv.EPARSE, 1, 2))
            self.assertIn("objects", e.field)
            self.assertEqual(m.stats()["obs_count"], 0)

    def test_id_reused_for_other_content_is_exists(self):
        with h2emv.open(self.path, create=True) as m:
            m.ingest(DAY[0])
            other = dict(DAY[1], id="r1-1")
            with self.assertRaises(h2emv.ExistsError) as cm:
                m.ingest(other)
            self.assertEqual(cm.exception.field, "id")

    def test_validate_and_profile(self):
        with h2emv.open(self.path, create=True) as m:
            m.validate(DAY[0])
            with self.assertRaises(h2emv.ParseError):
                m.validate({"t": 0, "colour": "red"})
            self.assertIsNone(m.profile())
            prof = {"profile": 1, "name": "py", "segmentation": "action-list",
                    "skills": {"Place": {"verb": "put"}}}
            m.set_profile(prof)
            self.assertEqual(m.profile()["name"], "py")


class TestQuestions(Base):
    def test_build_then_ask_returns_the_json_answer(self):
        with self.built() as m:
            a = m.ask("Where did you put the knife?", trace=True)
            self.assertEqual(set(a) >= {"question", "answer", "evidence", "forgotten", "quoted",
                                        "snapshot", "rounds", "tokens", "trace"}, True)
            self.assertIn("drawer", a["answer"])
            self.assertFalse(a["forgotten"])
            self.assertTrue(a["evidence"])
            self.assertIsInstance(a["trace"], list)

    def test_ask_at_a_time_before_any_snapshot_is_not_found(self):
        with self.built() as m:
            with self.assertRaises(h2emv.NotFoundError):
                m.ask("Where did you put the keys?", at="2024-01-01")
            a = m.ask("Where did you put the keys?", at="2024-09-24T00:00:00Z")
            self.assertIn("shelf", a["answer"])

    def test_ask_before_build_is_not_found(self):
        with h2emv.open(self.path, create=True) as m:
            with self.assertRaises(h2emv.NotFoundError):
                m.ask("Where is the knife?")

    def test_say_feedback_and_rules(self):
        with self.built() as m:
            r = m.say("You should always remember where you put the keys.")
            self.assertEqual(r["route"], "feedback")
            self.assertEqual(r["rules"]["version"], 1)
            self.assertEqual(m.rules_current(), 1)
            q = m.say("Where did you put the keys?")
            self.assertEqual(q["route"], "question")
            self.assertIn("shelf", q["text"])
            r2 = m.feedback("Always remember who you met.")
            self.assertEqual((r2["version"], r2["parent"]), (2, 1))
            self.assertIn("Always remember who you met.", m.rules()["items"][-1])
            self.assertEqual(len(m.rules_history()), 2)
            self.assertEqual(m.rules_revert(1)["items"], m.rules(1)["items"])
            with self.assertRaises(h2emv.InvalidError) as cm:
                m.feedback("hello there")
            self.assertIn("not a rule", cm.exception.message)

    def test_questions_from_threads(self):
        with self.built() as m:
            out = []
            ts = [threading.Thread(target=lambda: out.append(
                m.ask("Where did you put the keys?")["answer"])) for _ in range(4)]
            for t in ts:
                t.start()
            for t in ts:
                t.join()
            self.assertEqual(len(out), 4)
            self.assertEqual(len(set(out)), 1)


class TestSnapshotsAndExport(Base):
    def test_snapshots_pins_and_export(self):
        with self.built() as m:
            snaps = m.snapshots()
            self.assertTrue(snaps)
            seq = snaps[-1]["seq"]
            self.assertEqual(m.pin(seq, "audit"), "audit")
            self.assertEqual(m.pins()[0]["name"], "audit")
            self.assertTrue(m.snapshots()[-1]["pinned"])
            m.unpin("audit")
            with self.assertRaises(h2emv.NotFoundError):
                m.unpin("audit")
            doc = json.loads(m.export())
            self.assertEqual(doc["format"], "h2emv-export/1")
            self.assertTrue(m.export("dot").startswith("digraph"))
            self.assertTrue(m.export("html").lower().startswith("<!doctype html>"))
            obs = m.export_observations()
            self.assertEqual([o["id"] for o in obs], [o["id"] for o in DAY])
            self.assertEqual(len(m.export_observations("2024-09-23T09:00:00Z")), 2)
            self.assertEqual(m.check(), 0)
            with self.assertRaises(h2emv.InvalidError):
                m.export("svg")

    def test_times(self):
        t = h2emv.time_parse("2024-09-23T10:00:00Z")
        self.assertEqual(t, 1727085600000000)
        self.assertEqual(h2emv.time_format(t), "2024-09-23T10:00:00.000000Z")
        with self.assertRaises(h2emv.InvalidError):
            h2emv.time_parse("yesterday")


class TestMaintenance(Base):
    def test_maintain_upgrade_and_release_pages(self):
        with self.built() as m:
            before = m.ask("Where are the keys?")
            r = m.maintain(force=True)
            self.assertEqual(r["gc_ran"], 1)
            # a forced maintain compacts unless the copy would not fit or
            # the memory is busy; then it says why, and it is no error
            self.assertEqual(r["compacted"] + r["compact_skipped"] + r["compact_deferred"], 1)
            self.assertIsInstance(r["compact_skipped_why"], str)
            self.assertEqual(bool(r["compact_skipped_why"]), bool(r["compact_skipped"]))
            self.assertIn("obs_reclaimed", r["gc"])
            self.assertGreater(r["bytes_before"], 0)
            self.assertEqual(m.maintain()["compacted"], 0)  # nothing due now
            m.release_pages()
            self.assertEqual(m.ask("Where are the keys?")["answer"], before["answer"])
            u = m.upgrade(backup=os.path.join(self.dir, "copy"))
            self.assertEqual(u["snapshot"], 0)  # built by this version: nothing to do
            self.assertEqual(set(u), {"nodes_read", "events", "goals", "summaries",
                                      "snapshot", "backup_bytes"})


if __name__ == "__main__":
    unittest.main()
