"""Fresh and untuned (written 2026-11-27, seventh fresh round): "Ember", the
station robot of Fire Station 9 in Boulder, Thursday 2026-12-10 to Saturday
2026-12-12, local time (-07:00).

A history in a shape of its own: times with a "T", WHOLE seconds and a
-07:00 offset ("2026-12-10T07:31:04-07:00"; every line falls between 06:00
and 16:59 local, so the local and the UTC day agree); each task is TWO
lines: a "running" line whose action `args` are an array of [key, value]
PAIRS (`[["rig", "Engine 9"], ["items", 42]]`), and a final line with the
action's NAME AND STATUS ONLY (no args) and, on failure, a "reason=..."
note; skills in PascalCase (`ScbaCheck`, `RigCheck`, `FillCylinders`,
`HoseWash`, `Restock`, `MopBay`, `Bring`, `TourGroup`, `CountFoam`); the
goal a DOTTED string of the shift and the routine ("B-shift.morning-checks");
dispatch tones as raw speech (a bare string, no speaker); crew present as
plain strings with their rank ("Capt. Alma Reyes", "Lt. Ken Park", "FF
Luis Ortega"), speakers by rank or surname ("Captain", "Park", "Ortega"),
visitors by role ("Scout leader", "child"), the robot as "Ember"; calls
written as pipe-separated incident log notes ("INC 26-4471 | E9, L3 |
structure fire | 14 Birch Ln | out 09:14 in 11:02"); equipment seen with
a state object and an `on` relation.  No robot profile.

The truth is read back from the written lines (`Hall`), never from the
generator's variables.  The questions are the captain's, the lieutenant's
and the crew's, written before h2emv was asked them; nobody tuned on them
(docs/realqa.md, "A seventh fresh untuned source pair (dairy, firehall),
2026-11-27").
"""

import datetime as _dt
import json
import random

from common import QuestionSet, Span, day_of, must_contain, one, \
    parse_time, variants

SEED = 20261210
THU, FRI, SAT = "2026-12-10", "2026-12-11", "2026-12-12"
LOCAL = _dt.timezone(_dt.timedelta(hours=-7))
REYES, PARK = "Capt. Alma Reyes", "Lt. Ken Park"
ORTEGA, MORGAN = "FF Luis Ortega", "FF Dana Morgan"


def stamp(t):
    return _dt.datetime.fromtimestamp(t, LOCAL).strftime(
        "%Y-%m-%dT%H:%M:%S-07:00")


class Writer:
    def __init__(self, seed=SEED):
        self.rng = random.Random(seed)
        self.lines = []
        self.here = "apparatus bay 1"

    def at(self, day, hhmm):
        """Local day and time -> epoch seconds."""
        return int(parse_time("%sT%s:00-07:00" % (day, hhmm))) + \
            self.rng.randint(0, 45)

    def line(self, t, **f):
        ln = {"t": stamp(t)}
        ln.update({k: v for k, v in f.items() if v not in (None, [], "")})
        self.lines.append(ln)

    def task(self, day, hhmm, name, pairs, minutes, status="succeeded",
             where=None, goal=None, reason=None, persons=(), seen=(),
             speech=None, note=None):
        where = where or self.here
        t = self.at(day, hhmm)
        self.line(t, location=where, goal=goal, persons=list(persons),
                  action={"name": name, "args": [list(p) for p in pairs],
                          "status": "running"})
        note = note or ("reason=" + reason if reason else None)
        self.line(t + int(minutes * 60) + self.rng.randint(0, 30),
                  location=where, goal=goal,
                  action={"name": name, "status": status},
                  note=note, objects=list(seen), speech=speech)
        self.here = where

    def say(self, day, hhmm, speaker, text, where=None, persons=()):
        where = where or self.here
        u = text if speaker is None else {"speaker": speaker, "text": text}
        self.line(self.at(day, hhmm), location=where, speech=u,
                  persons=list(persons))

    def note(self, day, hhmm, text, where=None, persons=(), seen=()):
        where = where or self.here
        self.line(self.at(day, hhmm), location=where, note=text,
                  persons=list(persons), objects=list(seen))

    def write(self, path):
        with open(path, "w", encoding="utf-8") as f:
            for ln in sorted(self.lines, key=lambda x: parse_time(x["t"])):
                f.write(json.dumps(ln, ensure_ascii=False) + "\n")
        return len(self.lines)


def generate(seed=SEED):
    w = Writer(seed)
    chk = "B-shift.morning-checks"
    # ---- Thursday -------------------------------------------------------
    d = THU
    for i, (cyl, psi, seat) in enumerate([("SCBA 10", 4500, "E9 seat 1"),
                                          ("SCBA 11", 4480, "E9 seat 2"),
                                          ("SCBA 12", 3900, "E9 seat 3"),
                                          ("SCBA 14", 4500, "E9 seat 4")]):
        w.task(d, "07:%02d" % (i * 4), "ScbaCheck",
               [("cylinder", cyl), ("pressure_psi", psi), ("seat", seat)],
               2, status="failed" if psi < 4050 else "succeeded",
               where="apparatus bay 1", goal=chk,
               reason="SCBA 12 at 3900 psi, below the 4050 psi minimum"
               if psi < 4050 else None)
    w.task(d, "07:30", "RigCheck", [("rig", "Engine 9"), ("items", 42)], 15,
           status="failed", goal=chk,
           reason="halligan bar missing from compartment R2")
    w.say(d, "07:55", "Captain", "Ember, Ortega took the halligan to the "
          "training ground. It will be back on Engine 9 after lunch.",
          persons=[REYES])
    w.say(d, "09:12", None, "Engine 9, Ladder 3, respond structure fire, "
          "14 Birch Lane, cross street Pine")
    w.note(d, "11:05", "INC 26-4471 | E9, L3 | structure fire | 14 Birch Ln "
           "| out 09:14 in 11:02 | kitchen fire, one occupant treated for "
           "smoke", "apparatus bay 1")
    w.task(d, "11:20", "HoseWash", [("hose", "1.75 in attack line"),
                                    ("lengths", 4), ("hang", "hose tower")],
           35, where="hose tower", goal="B-shift.after-call")
    w.task(d, "12:10", "FillCylinders", [("cylinders", 6), ("to_psi", 4500),
                                         ("compressor", "cascade 1")], 30,
           where="compressor room", goal="B-shift.after-call")
    w.note(d, "13:05", "Halligan bar back in compartment R2 on Engine 9, "
           "returned by Luis Ortega.", "apparatus bay 1", persons=[ORTEGA])
    w.task(d, "13:30", "Restock", [("bag", "Medic 12 jump bag"),
                                   ("items", ["gauze", "saline", "OPA kit"])],
           12, where="EMS room")
    w.task(d, "15:00", "MopBay", [("bay", "apparatus bay 2")], 25,
           where="apparatus bay 2")

    # ---- Friday ---------------------------------------------------------
    d = FRI
    w.task(d, "07:00", "ScbaCheck", [("cylinder", "SCBA 12"),
                                     ("pressure_psi", 4010),
                                     ("seat", "E9 seat 3")], 2,
           status="failed", where="apparatus bay 1", goal=chk,
           reason="SCBA 12 still low at 4010 psi; swapped for spare SCBA 20")
    w.task(d, "07:20", "RigCheck", [("rig", "Ladder 3"), ("items", 57)], 20,
           goal=chk, where="apparatus bay 2")
    w.say(d, "08:30", "Park", "Ember, bring me the thermal camera from "
          "Ladder 3, I'm in the training room.", "apparatus bay 2",
          persons=[PARK])
    w.task(d, "08:32", "Bring", [("item", "thermal camera"),
                                 ("from", "Ladder 3"),
                                 ("to", "Lt. Ken Park")], 6,
           where="training room", persons=[PARK])
    w.task(d, "10:00", "TourGroup", [("group", "Cub Scouts Pack 41"),
                                     ("size", 14)], 45,
           where="apparatus bay 1", persons=[MORGAN])
    w.say(d, "10:10", "Scout leader", "Can the kids sit in the fire engine?",
          "apparatus bay 1")
    w.say(d, "10:11", "Ember", "Yes, two at a time, with Firefighter "
          "Morgan watching them.", "apparatus bay 1")
    w.say(d, "12:40", None, "Medic 12, respond chest pain, 41 Oak Street, "
          "apartment 3")
    w.note(d, "13:50", "INC 26-4480 | M12 | medical, chest pain | 41 Oak St "
           "apt 3 | out 12:41 in 13:46 | patient taken to Boulder "
           "Community", "apparatus bay 2")
    w.task(d, "14:00", "CountFoam", [("store", "foam room"), ("pails", 11),
                                     ("type", "class A foam")], 10,
           where="foam room")
    w.task(d, "15:30", "FillCylinders", [("cylinders", 4), ("to_psi", 4500),
                                         ("compressor", "cascade 1")], 9,
           status="aborted", where="compressor room",
           reason="compressor over temperature at 9 minutes")
    w.say(d, "15:45", "Ember", "Captain, the cascade compressor overheated, "
          "I stopped the fill with four bottles still empty.",
          "compressor room", persons=[REYES])
    w.note(d, "16:40", "Compressor cascade 1 serviced by Luis Ortega: "
           "cooling fan belt replaced, back in service.", "compressor room",
           persons=[ORTEGA])

    # ---- Saturday -------------------------------------------------------
    d = SAT
    w.task(d, "07:00", "RigCheck", [("rig", "Engine 9"), ("items", 42)], 15,
           goal=chk, where="apparatus bay 1")
    w.task(d, "07:20", "ScbaCheck", [("cylinder", "SCBA 20"),
                                     ("pressure_psi", 4500),
                                     ("seat", "E9 seat 3")], 2, goal=chk)
    w.note(d, "08:45", "Open house today 10:00-14:00; crew on the floor: "
           "Morgan and Ortega.", "apparatus bay 1",
           persons=[MORGAN, ORTEGA])
    w.task(d, "10:00", "TourGroup", [("group", "open house visitors"),
                                     ("size", 60)], 120,
           where="apparatus bay 1", persons=[MORGAN, ORTEGA])
    w.say(d, "10:30", "child", "Where do the firefighters sleep?",
          "apparatus bay 1")
    w.say(d, "10:31", "Ember", "Upstairs in the bunk room, but it is closed "
          "to visitors today.", "apparatus bay 1")
    w.note(d, "12:15", "Car keys found on the bench; handed to Capt. Reyes "
           "for lost and found.", "apparatus bay 1", persons=[REYES],
           seen=[{"id": "keys_1", "type": "car keys",
                  "state": {"fob": "Subaru"},
                  "relations": [{"to": "bench", "type": "on"}]}])
    w.say(d, "13:00", None, "Ladder 3, respond fire alarm activation, 900 "
          "Main Street")
    w.note(d, "13:40", "INC 26-4493 | L3 | alarm activation | 900 Main St | "
           "out 13:01 in 13:37 | false alarm, burnt toast on the 4th floor",
           "apparatus bay 2")
    w.task(d, "14:30", "HoseWash", [("hose", "2.5 in supply line"),
                                    ("lengths", 2), ("hang", "hose tower")],
           20, where="hose tower")
    w.task(d, "15:20", "FillCylinders", [("cylinders", 5), ("to_psi", 4500),
                                         ("compressor", "cascade 1")], 28,
           where="compressor room")
    w.task(d, "16:00", "MopBay", [("bay", "apparatus bay 1")], 25,
           where="apparatus bay 1")
    return w


def write(path, seed=SEED):
    return generate(seed).write(path)


# ---------------------------------------------------------------------------
# The truth, read back from the lines

class Task:
    def __init__(self, o):
        a = o["action"]
        self.name = a["name"]
        self.args = {k: v for k, v in a.get("args") or []}
        self.t0 = self.t1 = o["_t"]
        self.status = a.get("status")
        self.first = self.final = o

    @property
    def ok(self):
        return self.status == "succeeded"

    @property
    def span(self):
        return Span(self.t0, self.t1, self.name)

    @property
    def reason(self):
        n = self.final.get("note") or ""
        return n[7:] if n.startswith("reason=") else None


class Hall:
    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            self.obs = [json.loads(x) for x in f if x.strip()]
        for o in self.obs:
            o["_t"] = parse_time(o["t"])
        self.tasks, open_ = [], {}
        for o in self.obs:
            a = o.get("action")
            if not a:
                continue
            if a.get("status") == "running":
                open_[a["name"]] = Task(o)
                continue
            k = open_.pop(a["name"])
            k.status, k.t1, k.final = a.get("status"), o["_t"], o
            self.tasks.append(k)
        self.notes = [o for o in self.obs if o.get("note") and
                      not o.get("action")]
        self.speech = []
        for o in self.obs:
            u = o.get("speech")
            if isinstance(u, str):
                self.speech.append((o["_t"], None, u))
            elif u:
                self.speech.append((o["_t"], u.get("speaker"), u["text"]))

    def find(self, name=None, ok=None, day=None, **args):
        return [k for k in self.tasks
                if (not name or k.name == name) and
                (ok is None or k.ok == ok) and
                (not day or day_of(k.t0) == day) and
                all(k.args.get(a) == v for a, v in args.items())]

    def note(self, contains, day=None):
        return [o for o in self.notes if contains.lower() in
                o["note"].lower() and (not day or day_of(o["_t"]) == day)]

    def said(self, speaker=False, contains=None, day=None):
        return [(t, s, x) for t, s, x in self.speech
                if (speaker is False or s == speaker) and
                (not day or day_of(t) == day) and
                (not contains or contains.lower() in x.lower())]

    def seen(self):
        return [(o["_t"], x) for o in self.obs for x in o.get("objects", [])]


def incident(o):
    """'INC 26-4471 | E9, L3 | ... | out 09:14 in 11:02 | ...' -> fields."""
    return [f.strip() for f in o["note"].split("|")]


def local_span(day, f):
    """'out 09:14 in 11:02' on a local day -> a Span in epoch seconds."""
    p = f.split()
    t0 = parse_time("%sT%s:00-07:00" % (day, p[1]))
    t1 = parse_time("%sT%s:00-07:00" % (day, p[3]))
    return Span(t0, t1)


def questions(path):
    H = Hall(path)
    Q = QuestionSet("firehall")
    sun = "2026-12-13 14:30:00"       # Sunday 07:30 local, in UTC
    sat_pm = "2026-12-12 23:59:00"    # Saturday 16:59 local
    last = H.obs[-1]["_t"]

    # ---- when -----------------------------------------------------------
    o = one(H.note("INC 26-4471"))
    f = incident(o)
    t, s, x = one(H.said(None, contains="Birch"))
    Q.time("when", "When did the Birch Lane fire call come in?", sun,
           [Span(t, local_span(THU, f[4]).t0)],
           "tones %s; %s" % (H.obs[[p["_t"] for p in H.obs].index(t)]["t"],
                             f[4]))
    e = one(H.find("Bring"))
    Q.time("when", "What time did you bring Park the thermal camera?", sun,
           [e.span])
    o = one(H.note("Halligan bar back"))
    Q.time("when", "When did the halligan come back?", sun,
           [Span(o["_t"], o["_t"])], o["note"])
    e = H.find("FillCylinders", ok=True)[-1]
    Q.time("when", "When did you last fill the air bottles?", sun, [e.span])
    e = one(H.find("FillCylinders", ok=False))
    Q.time("when", "When did the compressor overheat?", sun,
           [Span(e.t0, e.t1)])
    o = one(H.note("INC 26-4493"))
    back = local_span(SAT, incident(o)[4]).t1
    Q.time("when", "What time did Ladder 3 get back from the Main Street "
           "alarm?", sun, [Span(back, back)], incident(o)[4])

    # ---- where ----------------------------------------------------------
    e = one(H.find("Bring"))
    Q.words("where", "Where did you get the thermal camera from?", sun,
            [variants(e.args["from"])], e.t1, e.args["from"],
            none=["training room"])
    e = one(H.find("HoseWash", day=THU))
    Q.words("where", "Where did you hang the hose after washing it?", sun,
            [variants(e.args["hang"])], e.t1, e.args["hang"])
    t, x = one([(t, x) for t, x in H.seen() if x["type"] == "car keys"])
    Q.words("where", "Where were the car keys found?", sun,
            [variants(x["relations"][0]["to"])], t,
            x["relations"][0]["to"])
    o = one(H.note("INC 26-4471"))
    Q.words("where", "Where was Thursday's structure fire?", sun,
            [["birch"]], o["_t"], incident(o)[3])
    o = one(H.note("INC 26-4480"))
    Q.words("where", "Where did Medic 12 take the chest pain patient?", sun,
            [["boulder community"]], o["_t"], incident(o)[5])
    t, s, x = one(H.said("Ember", contains="bunk"))
    Q.words("where", "Where did you tell the kid the firefighters sleep?",
            sun, [["bunk room", "bunk", "upstairs"]], t, x)
    e = one(H.find("RigCheck", ok=False))
    Q.words("where", "Where was the halligan bar missing from?", sun,
            [["r2", "compartment r2"]], e.t1, e.reason)

    # ---- day ------------------------------------------------------------
    o = one(H.note("INC 26-4493"))
    Q.day("day", "Which day was the burnt toast false alarm?", sun,
          [day_of(o["_t"])], o["_t"])
    e = one(H.find("TourGroup", group="Cub Scouts Pack 41"))
    Q.day("day", "What day did the cub scouts visit?", sun,
          [day_of(e.t0)], e.t1)
    o = one(H.note("serviced"))
    Q.day("day", "On which day was the compressor fixed?", sun,
          [day_of(o["_t"])], o["_t"])

    # ---- who ------------------------------------------------------------
    o = one(H.note("serviced"))
    Q.words("who", "Who fixed the compressor?", sun, [["ortega", "luis"]],
            o["_t"], o["note"])
    o = one(H.note("car keys"))
    Q.words("who", "Who did you give the car keys to?", sun,
            [["reyes", "captain", "capt"]], o["_t"], o["note"])
    t, s, x = one(H.said("Captain", contains="halligan"))
    Q.words("who", "Who took the halligan to the training ground?", sun,
            [["ortega", "luis"]], t, x, none=["reyes"])
    e = one(H.find("Bring"))
    Q.words("who", "Who asked for the thermal camera?", sun,
            [["park", "ken", "lieutenant", "lt"]], e.t0,
            e.args["to"])
    t, s, x = one(H.said(contains="sit in the fire engine"))
    Q.words("who", "Who asked if the kids could sit in the engine?", sun,
            [["scout leader", "leader"]], t, s)
    t, s, x = one(H.said("Ember", contains="Morgan"))
    Q.words("who", "Who watched the kids in the fire engine?", sun,
            [["morgan", "dana"]], t, x)

    # ---- say ------------------------------------------------------------
    t, s, x = one(H.said("Captain"))
    Q.words("say", "What did the captain tell you about the halligan?", sun,
            must_contain(x, ["Ortega", "training ground"]) +
            [["after lunch", "lunch"]], t, x, k=2)
    t, s, x = one(H.said("Ember", contains="compressor"))
    Q.words("say", "What did you tell the captain when the fill "
            "stopped?", sun, must_contain(x, ["overheated"]) +
            [["four", "4"]], t, x, k=1)
    t, s, x = one(H.said(None, contains="Oak"))
    Q.words("say", "What did dispatch say on Friday?", sun,
            must_contain(x, ["chest pain"]) + [["41 oak", "oak street"]],
            t, x)
    t, s, x = one(H.said("Ember", contains="two at a time"))
    Q.words("say", "What did you tell the scout leader?", sun,
            [["two at a time", "2 at a time"], ["morgan"]], t, x, k=1)
    t, s, x = one(H.said("child"))
    Q.words("say", "What did the child ask at the open house?", sun,
            must_contain(x, ["sleep"]), t, x)

    # ---- see ------------------------------------------------------------
    t, x = one([(t, x) for t, x in H.seen() if x["type"] == "car keys"])
    Q.words("see", "What did you find on the bench on Saturday?", sun,
            [["car keys", "keys"]], t, x["type"])

    # ---- which ----------------------------------------------------------
    e = one(H.find("ScbaCheck", ok=False, day=THU))
    Q.words("which", "Which air cylinder failed the check on Thursday?",
            sun, [[e.args["cylinder"].lower(), "12"]], e.t1,
            e.args["cylinder"], none=["scba 10", "scba 11", "scba 14"])
    e = one(H.find("ScbaCheck", ok=False, day=FRI))
    Q.words("which", "Which spare bottle went on seat 3?", sun, [["20"]],
            e.t1, e.reason)
    e = one(H.find("Restock"))
    Q.words("which", "What did you restock the Medic 12 bag with?", sun,
            [[x.lower()] for x in e.args["items"]], e.t1,
            ", ".join(e.args["items"]), k=2)
    e = one(H.find("RigCheck", ok=False))
    Q.words("which", "Which rig was missing a tool on Thursday?", sun,
            [variants(e.args["rig"], "e9", "engine")], e.t1,
            e.args["rig"], none=["ladder 3"])
    e = one(H.find("HoseWash", day=SAT))
    Q.words("which", "Which hose did you wash on Saturday?", sun,
            [["2.5", "supply"]], e.t1, e.args["hose"], none=["1.75"])
    e = one(H.find("CountFoam"))
    Q.words("which", "What kind of foam is in the foam room?", sun,
            [["class a"]], e.t1, e.args["type"])
    ks = H.find(day=THU)
    Q.words("which", "What was the first job you did on Thursday?", sun,
            [["scba", "air cylinder", "cylinder", "air pack"]], ks[0].t1,
            "%s %s" % (ks[0].name, ks[0].args))
    o = one(H.note("INC 26-4480"))
    Q.words("which", "Which unit went to the chest pain call?", sun,
            [["medic 12", "m12"]], o["_t"], incident(o)[1],
            none=["engine 9", "ladder 3"])

    # ---- count ----------------------------------------------------------
    es = H.find("FillCylinders", ok=True)
    Q.count("count", "How many air bottles did you fill this week?", sun,
            sum(k.args["cylinders"] for k in es), es[-1].t1)
    e = one(H.find("CountFoam"))
    Q.count("count", "How many pails of foam are there?", sun,
            e.args["pails"], e.t1)
    e = one(H.find("TourGroup", day=SAT))
    Q.count("count", "How many people came to the open house?", sun,
            e.args["size"], e.t1)
    incs = H.note("INC ")
    Q.count("count", "How many calls did the station run while you were "
            "logging?", sun, len(incs), incs[-1]["_t"])
    es = H.find("HoseWash")
    Q.count("count", "How many lengths of hose did you wash in total?", sun,
            sum(k.args["lengths"] for k in es), es[-1].t1)
    es = H.find("ScbaCheck", day=THU)
    Q.count("count", "How many SCBA cylinders did you check on Thursday?",
            sun, len(es), es[-1].t1)
    e = one(H.find("ScbaCheck", ok=False, day=THU))
    Q.count("count", "What pressure was SCBA 12 at on Thursday, in psi?",
            sun, e.args["pressure_psi"], e.t1)
    e = one(H.find("RigCheck", day=FRI))
    Q.count("count", "How many items are on the Ladder 3 checklist?", sun,
            e.args["items"], e.t1)

    # ---- yes / no -------------------------------------------------------
    Q.yesno("yesno", "Did Ladder 3 go to the Birch Lane fire?", sun,
            "L3" in incident(one(H.note("INC 26-4471")))[1],
            one(H.note("INC 26-4471"))["_t"])
    Q.yesno("yesno", "Did you mop apparatus bay 2 on Saturday?", sun,
            bool(H.find("MopBay", day=SAT, bay="apparatus bay 2")), last)
    es = H.find("RigCheck", rig="Engine 9")
    Q.yesno("yesno", "Did Engine 9 pass its rig check on Saturday?", sun,
            es[-1].ok, es[-1].t1)
    o = one(H.note("INC 26-4493"))
    Q.yesno("yesno", "Was the Main Street alarm a real fire?", sun,
            "false alarm" not in o["note"], o["_t"])
    o = one(H.note("serviced"))
    Q.yesno("yesno", "Is the compressor back in service?", sun,
            "back in service" in o["note"], o["_t"])

    # ---- failed ---------------------------------------------------------
    e = one(H.find("RigCheck", ok=False))
    Q.words("failed", "Why did Engine 9 fail its rig check on Thursday?",
            sun, [["halligan"]], e.t1, e.reason)
    e = one(H.find("FillCylinders", ok=False))
    Q.words("failed", "Why did the bottle filling stop on Friday?", sun,
            [["over temperature", "overheat*", "too hot", "temperature"]],
            e.t1, e.reason)
    e = one(H.find("ScbaCheck", ok=False, day=THU))
    Q.words("failed", "What was wrong with SCBA 12?", sun,
            [["3900", "low", "below", "pressure"]], e.t1, e.reason)
    Q.yesno("failed", "Did anything fail during the morning checks on "
            "Saturday?", sun, not all(k.ok for k in H.find(day=SAT)
                                      if k.t0 < parse_time(
                                          SAT + "T08:00:00-07:00")),
            H.find(day=SAT)[1].t1)
    return Q.items, H


if __name__ == "__main__":
    import sys
    print(write(sys.argv[1] if len(sys.argv) > 1 else "firehall.jsonl"),
          "observations")
