"""Fresh and untuned (written 2026-11-28, eleventh fresh round): "Drift",
the underground inspection robot of the Coldwater nickel mine near
Sudbury, Thursday 2026-11-19 to Saturday 2026-11-21, local time (-05:00).

A history in a shape of its own: times with a LOWER-CASE "t",
MILLISECONDS and a -05:00 offset ("2026-11-19t06:50:12.250-05:00"; every
line falls between 06:00 and 18:59 local, so the local and the UTC day
agree), and EVERY line a span from `t` to `t_end` in the same form; skill
names NAMESPACED with "::" (`survey::gas`, `inspect::ground`,
`inspect::refuge`, `pump::check`, `map::scan`, `tag::hazard`,
`tag::remove`, `escort::crew`, `cage::ride`, `park::refuge`, `charge`);
statuses in ROS actionlib CAPITALS (`SUCCEEDED`, `ABORTED`, `PREEMPTED`);
the mine level an INTEGER (`"level": 1200`, feet below the collar) beside
a `heading` ("XC-14"); the location written "1200L/XC-14"; sensor
READINGS and findings as OBJECTS seen, their values in a state object
(`{"id": "gas@XC-16", "type": "gas reading", "state": {"co_ppm": 38,
"o2_pct": 20.6}}`, a rock bolt `{"plate": "missing"}`, pump P-3
`{"flow_lpm": 0, "sump_pct": 91}`); the goal the shift and the round
(`["D-shift 19", "ground control round"]`) with its `goal_status`;
people present as strings with the ROLE in brackets ("Marc Tremblay
(shift boss)"); leaky-feeder RADIO calls as speech, speakers by role
("shift boss", "dispatch") or by first name, the robot as "drift";
findings and faults as HASHTAG notes ("#gas CO 38 ppm at the XC-16 face
after the blast ..."); no failure reason anywhere but in those notes.
No robot profile.

The truth is read back from the written lines (`Mine`), never from the
generator's variables.  The questions are the shift boss's, the mine
captain's, the ventilation tech's and the inspector's, written before
h2emv was asked them; nobody tuned on them (docs/realqa.md, "An eleventh
fresh untuned source pair (vetclinic, minecheck), 2026-11-28").
"""

import datetime as _dt
import json
import random

from common import QuestionSet, Span, day_of, must_contain, one, \
    parse_time

SEED = 20261119
THU, FRI, SAT = "2026-11-19", "2026-11-20", "2026-11-21"
EST = _dt.timezone(_dt.timedelta(hours=-5))
MARC = "Marc Tremblay (shift boss)"
LUC = "Luc Gagnon (scaler)"
AISHA = "Aisha Okoro (geologist)"
DENIS = "Denis Roy (electrician)"
SOPHIE = "Sophie Bergeron (ventilation)"
KEN = "Ken Whitfield (mines inspector)"


def stamp(t_ms):
    """Milliseconds since the epoch -> '2026-11-19t06:50:12.250-05:00'."""
    d = _dt.datetime.fromtimestamp(t_ms // 1000, EST)
    return d.strftime("%Y-%m-%dt%H:%M:%S") + ".%03d-05:00" % (t_ms % 1000)


class Writer:
    def __init__(self, seed=SEED):
        self.rng = random.Random(seed)
        self.lines = []
        self.here = "collar"

    def at(self, day, hhmm):
        t = int(parse_time("%sT%s:00-05:00" % (day, hhmm)))
        return t * 1000 + self.rng.randint(0, 40 * 1000)

    def line(self, t0, t1, **f):
        ln = {"t": stamp(t0), "t_end": stamp(t1)}
        ln.update({k: v for k, v in f.items() if v not in (None, [], "")})
        self.lines.append((t0, ln))

    def job(self, day, hhmm, name, args, minutes, status="SUCCEEDED",
            where=None, goal=None, persons=(), seen=(), note=None):
        where = where or self.here
        t = self.at(day, hhmm)
        end = t + int(minutes * 60 * 1000) + self.rng.randint(0, 999)
        self.line(t, end, location=where, goal=goal,
                  goal_status=status if goal else None,
                  action={"name": name, "status": status, "args": args},
                  persons=list(persons), objects=list(seen), note=note)
        self.here = where

    def radio(self, day, hhmm, speaker, text, where=None, persons=()):
        where = where or self.here
        t = self.at(day, hhmm)
        self.line(t, t + 4000 + self.rng.randint(0, 9000), location=where,
                  persons=list(persons),
                  speech={"speaker": speaker, "text": text})

    def note(self, day, hhmm, text, where=None, persons=()):
        where = where or self.here
        t = self.at(day, hhmm)
        self.line(t, t + 1000, location=where, note=text,
                  persons=list(persons))

    def write(self, path):
        with open(path, "w", encoding="utf-8") as f:
            for t, ln in sorted(self.lines, key=lambda x: x[0]):
                f.write(json.dumps(ln, ensure_ascii=False) + "\n")
        return len(self.lines)


def gas(heading, co, o2, no2=0.2):
    return {"id": "gas@" + heading, "type": "gas reading",
            "state": {"co_ppm": co, "o2_pct": o2, "no2_ppm": no2}}


def pump(flow, sump):
    return {"id": "P-3", "type": "sump pump",
            "state": {"flow_lpm": flow, "sump_pct": sump},
            "relations": [{"to": "1450 main sump", "type": "in"}]}


def generate(seed=SEED):
    w = Writer(seed)
    shift = "D-shift %d"
    # ---- Thursday -------------------------------------------------------
    d = THU
    g = [shift % 19, "pre-entry gas round"]
    w.job(d, "06:30", "cage::ride", {"from": "collar", "to_level": 1200,
                                     "deck": 2}, 6, where="No.2 shaft")
    w.job(d, "06:50", "survey::gas", {"level": 1200, "heading": "XC-14"},
          8, where="1200L/XC-14", goal=g, seen=[gas("XC-14", 12, 20.8)])
    w.job(d, "07:20", "survey::gas", {"level": 1200, "heading": "XC-16"},
          6, where="1200L/XC-16", goal=g, seen=[gas("XC-16", 38, 20.6, 1.4)])
    w.note(d, "07:27", "#gas CO 38 ppm at the XC-16 face after the blast, "
           "over the 25 ppm limit; heading closed until the vent clears it",
           "1200L/XC-16")
    w.radio(d, "07:28", "drift", "Dispatch, drift. XC-16 on twelve hundred "
            "reads 38 ppm CO, I am holding the heading closed.",
            "1200L/XC-16")
    w.radio(d, "07:30", "dispatch", "Copy drift. Sophie is on her way to "
            "check the auxiliary fan.", "1200L/XC-16")
    g = [shift % 19, "ground control round"]
    w.job(d, "08:40", "inspect::ground", {"level": 1200, "heading": "XC-14",
                                          "bolts": 48}, 35,
          where="1200L/XC-14", goal=g,
          seen=[{"id": "bolt XC-14/31", "type": "rock bolt",
                 "state": {"plate": "missing"},
                 "relations": [{"to": "XC-14 north wall", "type": "in"}]}])
    w.radio(d, "09:30", "Sophie", "Drift, the auxiliary fan at XC-16 had a "
            "tripped breaker, Denis reset it. Recheck in thirty minutes.",
            "1200L/XC-14", persons=[SOPHIE, DENIS])
    w.job(d, "10:05", "survey::gas", {"level": 1200, "heading": "XC-16"},
          5, where="1200L/XC-16", goal=[shift % 19, "pre-entry gas round"],
          seen=[gas("XC-16", 9, 20.9)])
    w.note(d, "10:11", "#gas XC-16 reopened, CO down to 9 ppm",
           "1200L/XC-16")
    w.job(d, "11:00", "pump::check", {"level": 1450, "pump": "P-3"}, 10,
          where="1450L/main sump", seen=[pump(310, 62)])
    w.job(d, "12:30", "map::scan", {"level": 1450, "drift": "1450 haulage",
                                    "sensor": "lidar"}, 25, status="ABORTED",
          where="1450L/haulage", goal=[shift % 19, "survey"])
    w.note(d, "12:56", "#fault lidar window fogged up, scan stopped at "
           "140 m along the 1450 haulage", "1450L/haulage")
    w.job(d, "13:30", "tag::hazard",
          {"level": 1450, "where": "1450 haulage at 140 m",
           "hazard": "water on the roadway, 15 cm deep", "tag": "HZ-0457"},
          4, where="1450L/haulage",
          seen=[{"id": "water@1450-140", "type": "standing water",
                 "state": {"depth_cm": 15}}])
    w.job(d, "15:00", "cage::ride", {"from_level": 1450, "to": "collar",
                                     "deck": 1}, 7, where="No.2 shaft")
    w.job(d, "15:20", "charge", {"bay": "shop bay 3"}, 90,
          where="surface shop")

    # ---- Friday ---------------------------------------------------------
    d = FRI
    g = [shift % 20, "ground control round"]
    w.job(d, "06:40", "cage::ride", {"from": "collar", "to_level": 1700,
                                     "deck": 2}, 8, where="No.2 shaft")
    w.job(d, "07:00", "survey::gas", {"level": 1700, "heading": "XC-22"},
          6, where="1700L/XC-22", goal=[shift % 20, "pre-entry gas round"],
          seen=[gas("XC-22", 6, 20.9)])
    w.job(d, "07:40", "inspect::ground", {"level": 1700, "heading": "XC-22",
                                          "bolts": 60}, 30,
          where="1700L/XC-22", goal=g,
          seen=[{"id": "screen XC-22 brow", "type": "screen mesh",
                 "state": {"bagged": True, "loose_rock_kg": 300},
                 "relations": [{"to": "XC-22 brow", "type": "at"}]}])
    w.note(d, "08:12", "#hazard bagged screen at the XC-22 brow, about "
           "300 kg of loose rock in it; Luc to scale", "1700L/XC-22")
    w.radio(d, "08:15", "shift boss", "Drift, nobody goes past the XC-22 "
            "brow until Luc has scaled it. Put a tag on it.", "1700L/XC-22",
            persons=[MARC])
    w.job(d, "08:20", "tag::hazard",
          {"level": 1700, "where": "XC-22 brow", "hazard": "bagged screen, "
           "loose rock", "tag": "HZ-0461"}, 3, where="1700L/XC-22")
    w.radio(d, "10:30", "Luc", "XC-22 is scaled, we pulled down about a "
            "bucket of rock. You can take the tag off.", "1700L/XC-22",
            persons=[LUC])
    w.job(d, "10:45", "tag::remove", {"tag": "HZ-0461"}, 2,
          where="1700L/XC-22", persons=[LUC])
    w.job(d, "11:30", "escort::crew",
          {"crew": ["Aisha Okoro"], "from": "1700 refuge station",
           "to": "XC-22 face"}, 9, where="1700L/XC-22", persons=[AISHA])
    w.radio(d, "11:45", "Aisha", "Can you take a photo of the shear zone on "
            "the east wall? The ore contact is right there.", "1700L/XC-22",
            persons=[AISHA])
    w.radio(d, "11:47", "drift", "Photo taken, it is in today's upload as "
            "IMG 1700-22-04.", "1700L/XC-22", persons=[AISHA])
    w.job(d, "13:00", "pump::check", {"level": 1450, "pump": "P-3"}, 6,
          status="ABORTED", where="1450L/main sump", seen=[pump(0, 91)])
    w.note(d, "13:07", "#fault P-3 not running, sump at 91 %; called "
           "Denis", "1450L/main sump")
    w.radio(d, "13:20", "Denis", "P-3 lost a phase, I'm swapping the "
            "starter now.", "1450L/main sump", persons=[DENIS])
    w.job(d, "14:20", "pump::check", {"level": 1450, "pump": "P-3"}, 8,
          where="1450L/main sump", persons=[DENIS], seen=[pump(305, 70)])
    w.job(d, "15:30", "cage::ride", {"from_level": 1450, "to": "collar",
                                     "deck": 1}, 7, where="No.2 shaft")
    w.job(d, "15:50", "charge", {"bay": "shop bay 3"}, 90,
          where="surface shop")

    # ---- Saturday -------------------------------------------------------
    d = SAT
    g = [shift % 21, "inspection visit"]
    w.job(d, "06:20", "cage::ride", {"from": "collar", "to_level": 1200,
                                     "deck": 2}, 6, where="No.2 shaft",
          persons=[KEN, MARC])
    w.job(d, "06:40", "inspect::refuge", {"level": 1200, "station": "RS-1200"},
          10, where="1200L/refuge station", goal=g,
          seen=[{"id": "RS-1200", "type": "refuge station",
                 "state": {"o2_pct": 20.9, "door_seal": "good",
                           "scsr_units": 24}}])
    w.job(d, "07:20", "escort::crew",
          {"crew": ["Ken Whitfield", "Marc Tremblay"],
           "from": "1200 station", "to": "XC-16"}, 12, where="1200L/XC-16",
          goal=g, persons=[KEN, MARC])
    w.job(d, "07:40", "survey::gas", {"level": 1200, "heading": "XC-16"},
          5, where="1200L/XC-16", goal=g, persons=[KEN, MARC],
          seen=[gas("XC-16", 4, 20.9)])
    w.radio(d, "08:00", "Ken", "How often do you check the oxygen in the "
            "refuge station?", "1200L/XC-16", persons=[KEN])
    w.radio(d, "08:01", "drift", "Every shift. This morning RS-1200 read "
            "20.9 % oxygen and the door seal was good.", "1200L/XC-16",
            persons=[KEN])
    w.note(d, "09:00", "#action inspector wants the plate on bolt 31 at "
           "XC-14 replaced before Monday, order IO-2231", "1200L/XC-14",
           persons=[KEN, MARC])
    w.job(d, "10:00", "inspect::ground", {"level": 1200, "heading": "XC-14",
                                          "bolts": 48}, 9,
          status="PREEMPTED", where="1200L/XC-14",
          goal=[shift % 21, "ground control round"])
    w.radio(d, "10:09", "shift boss", "Drift, stop the round. Blasting on "
            "twelve hundred at 10:30, get to the refuge.", "1200L/XC-14",
            persons=[MARC])
    w.job(d, "10:15", "park::refuge", {"station": "RS-1200"}, 40,
          where="1200L/refuge station")
    w.note(d, "10:31", "#blast 1200L blast fired, waiting out the re-entry "
           "time in RS-1200", "1200L/refuge station")
    w.job(d, "11:30", "cage::ride", {"from_level": 1200, "to": "collar",
                                     "deck": 1}, 6, where="No.2 shaft")
    w.job(d, "11:45", "charge", {"bay": "shop bay 3"}, 120,
          where="surface shop")
    return w


def write(path, seed=SEED):
    return generate(seed).write(path)


# ---------------------------------------------------------------------------
# The truth, read back from the lines

class Job:
    def __init__(self, o):
        a = o["action"]
        self.name, self.status = a["name"], a["status"]
        self.args = a.get("args") or {}
        self.t0, self.t1 = o["_t"], parse_time(o["t_end"])
        self.line = o

    @property
    def ok(self):
        return self.status == "SUCCEEDED"

    @property
    def span(self):
        return Span(self.t0, self.t1, self.name)

    def seen(self, typ=None):
        return [x for x in self.line.get("objects", [])
                if not typ or x["type"] == typ]


class Mine:
    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            self.obs = [json.loads(x) for x in f if x.strip()]
        for o in self.obs:
            o["_t"] = parse_time(o["t"].replace("t", "T"))
            o["t_end"] = o["t_end"].replace("t", "T")
        self.jobs = [Job(o) for o in self.obs if o.get("action")]
        self.notes = [o for o in self.obs if o.get("note")]
        self.speech = [(o["_t"], o["speech"]["speaker"],
                        o["speech"]["text"])
                       for o in self.obs if o.get("speech")]

    def find(self, name=None, ok=None, day=None, **args):
        return [j for j in self.jobs
                if (not name or j.name == name) and
                (ok is None or j.ok == ok) and
                (not day or day_of(j.t0) == day) and
                all(j.args.get(k) == v for k, v in args.items())]

    def note(self, contains, day=None):
        return [o for o in self.notes if contains.lower() in
                o["note"].lower() and (not day or day_of(o["_t"]) == day)]

    def said(self, speaker=None, contains=None, day=None):
        return [(t, s, x) for t, s, x in self.speech
                if (not speaker or s == speaker) and
                (not day or day_of(t) == day) and
                (not contains or contains.lower() in x.lower())]

    def seen(self, typ=None, day=None):
        return [(o["_t"], x) for o in self.obs for x in o.get("objects", [])
                if (not typ or x["type"] == typ) and
                (not day or day_of(o["_t"]) == day)]


def questions(path):
    M = Mine(path)
    Q = QuestionSet("minecheck")
    sun = "2026-11-22 14:00:00"        # Sunday 09:00 in Sudbury
    last = M.obs[-1]["_t"]

    # ---- when -----------------------------------------------------------
    e = [j for j in M.find("survey::gas", heading="XC-16")
         if j.seen()[0]["state"]["co_ppm"] > 25]
    e = one(e)
    Q.time("when", "When did you get the high CO reading at XC-16?", sun,
           [e.span])
    o = one(M.note("reopened"))
    e = M.find("survey::gas", heading="XC-16", day=THU)[-1]
    Q.time("when", "What time was XC-16 opened again on Thursday?", sun,
           [Span(e.t0, o["_t"])], o["note"])
    t, s, x = one(M.said("Luc"))
    Q.time("when", "When did Luc say XC-22 was scaled?", sun,
           [Span(t - 60, t)], x)
    e = M.find("pump::check", pump="P-3")[-1]
    Q.time("when", "When did you last check pump P-3?", sun, [e.span])
    e = M.find("cage::ride")[0]
    Q.time("when", "What time did you first go down the shaft this week?",
           sun, [e.span])
    t, s, x = one(M.said("shift boss", contains="stop"))
    Q.time("when", "When were you called back from the bolt check on "
           "Saturday?", sun, [Span(one(M.find("inspect::ground",
                                                   day=SAT)).t0, t)], x)

    # ---- where ----------------------------------------------------------
    t, x = one(M.seen("screen mesh"))
    Q.words("where", "Where was the bagged screen?", sun,
            [["xc 22"]], t, x["relations"][0]["to"])
    e = one(M.find("tag::hazard", tag="HZ-0457"))
    Q.words("where", "Where did you hang hazard tag HZ-0457?", sun,
            [["1450 haulage", "haulage"], ["140 m", "140"]], e.t1,
            e.args["where"], k=1)
    e = one(M.find("escort::crew", day=FRI))
    Q.words("where", "Where did you take the geologist?", sun,
            [["xc 22 face", "xc 22"]], e.t1, e.args["to"],
            none=["refuge"])
    e = one(M.find("park::refuge"))
    Q.words("where", "Where did you wait out the blast?", sun,
            [["rs 1200", "refuge"]], e.t1, e.args["station"])
    t, x = one(M.seen("rock bolt"))
    Q.words("where", "Where is the bolt with the missing plate?", sun,
            [["xc 14"]], t, x["relations"][0]["to"], none=["xc 22"])

    # ---- day ------------------------------------------------------------
    e = one(M.find("pump::check", ok=False))
    Q.day("day", "Which day did the sump pump stop?", sun, [day_of(e.t0)],
          e.t1)
    t, s, x = one(M.said("Ken"))
    Q.day("day", "What day was the inspector underground?", sun,
          [day_of(t)], t)
    e = one(M.find("map::scan"))
    Q.day("day", "On which day did the lidar scan fail?", sun,
          [day_of(e.t0)], e.t1)

    # ---- who ------------------------------------------------------------
    t, s, x = one(M.said("Sophie"))
    Q.words("who", "Who reset the fan breaker at XC-16?", sun, [["denis"]],
            t, x, none=["sophie"])
    t, s, x = one(M.said("Luc"))
    Q.words("who", "Who scaled the XC-22 brow?", sun, [["luc"]], t, s)
    t, s, x = one(M.said("Denis"))
    Q.words("who", "Who fixed pump P-3?", sun, [["denis"]], t, s)
    e = M.find("cage::ride", day=SAT)[0]
    Q.words("who", "Who rode down with you on Saturday?", sun,
            [["ken", "whitfield", "inspector"], ["marc", "tremblay",
                                                 "shift boss"]], e.t1,
            ", ".join(e.line["persons"]), k=1)
    t, s, x = one(M.said("dispatch"))
    Q.words("who", "Who went to look at the fan on Thursday?", sun,
            [["sophie"]], t, x)
    e = one(M.find("escort::crew", day=FRI))
    Q.words("who", "Who did you escort on Friday?", sun,
            [["aisha", "okoro", "geologist"]], e.t1, e.args["crew"][0])

    # ---- say ------------------------------------------------------------
    t, s, x = one(M.said("shift boss", day=FRI))
    Q.words("say", "What did the shift boss tell you on Friday morning?",
            sun, must_contain(x, ["brow"]) + [["tag"], ["scaled", "nobody"]],
            t, x, k=2)
    t, s, x = one(M.said("drift", contains="Dispatch"))
    Q.words("say", "What did you radio to dispatch about XC-16?", sun,
            [["38"], ["closed", "holding"]], t, x)
    t, s, x = one(M.said("Ken"))
    Q.words("say", "What did the inspector ask you?", sun,
            must_contain(x, ["oxygen"]) + [["refuge"]], t, x)
    t, s, x = one(M.said("drift", day=SAT))
    Q.words("say", "What did you answer the inspector?", sun,
            [["every shift"], ["20.9", "20 9"]], t, x, k=1)
    t, s, x = one(M.said("Aisha"))
    Q.words("say", "What did Aisha want from you?", sun,
            must_contain(x, ["photo"]) + [["shear zone", "east wall"]],
            t, x)
    t, s, x = one(M.said("Denis"))
    Q.words("say", "What did Denis say was wrong with the pump?", sun,
            [["phase"], ["starter"]], t, x, k=1)

    # ---- see ------------------------------------------------------------
    e = one(M.find("inspect::ground", heading="XC-22"))
    x = one(e.seen())
    Q.words("see", "What did you find on the ground check at XC-22?", sun,
            [["screen", "mesh"], ["loose rock", "rock", "bagged"]], e.t1,
            "%s %s" % (x["type"], x["state"]), k=1)
    seen = [(t, x) for t, x in M.seen(day=THU)
            if x["type"] in ("rock bolt", "standing water")]
    Q.words("see", "What hazards did you find on Thursday?", sun,
            [["bolt", "plate"], ["water"]], max(t for t, x in seen),
            ", ".join(x["type"] for t, x in seen), k=1)

    # ---- which ----------------------------------------------------------
    e = [j for j in M.find("survey::gas", day=THU)
         if j.seen()[0]["state"]["co_ppm"] > 25]
    e = one(e)
    Q.words("which", "Which heading had the bad CO reading?", sun,
            [[e.args["heading"].lower()]], e.t1, e.args["heading"],
            none=["xc 14"])
    es = M.find("pump::check")
    Q.words("which", "Which pump did you keep checking?", sun,
            [[es[0].args["pump"].lower()]], es[-1].t1, es[0].args["pump"])
    e = one([j for j in M.find("tag::hazard") if "water" in j.args["hazard"]])
    Q.words("which", "What tag number went on the water hazard?", sun,
            [[e.args["tag"].lower()]], e.t1, e.args["tag"],
            none=["hz 0461"])
    t, s, x = one(M.said("drift", contains="photo"))
    Q.words("which", "Which picture shows the shear zone?", sun,
            [["img 1700 22 04", "1700 22 04"]], t, x)
    e = one(M.find("inspect::ground", heading="XC-22"))
    Q.words("which", "What level is XC-22 on?", sun,
            [[str(e.args["level"])]], e.t1, str(e.args["level"]),
            none=["1200", "1450"])

    # ---- count ----------------------------------------------------------
    e = one([j for j in M.find("survey::gas", heading="XC-16")
             if j.seen()[0]["state"]["co_ppm"] > 25])
    Q.count("count", "How many ppm of CO did XC-16 read after the blast?",
            sun, e.seen()[0]["state"]["co_ppm"], e.t1)
    e = one(M.find("inspect::ground", heading="XC-22"))
    Q.count("count", "How many rock bolts did you check at XC-22?", sun,
            e.args["bolts"], e.t1)
    es = M.find("survey::gas", day=THU)
    Q.count("count", "How many gas checks did you do on Thursday?", sun,
            len(es), es[-1].t1)
    t, x = one(M.seen("refuge station"))
    Q.words("count", "What was the oxygen level in the refuge station?",
            sun, [["%g" % x["state"]["o2_pct"]]], t,
            "%g %%" % x["state"]["o2_pct"])
    e = one(M.find("pump::check", ok=False))
    x = one(e.seen())
    Q.words("count", "How full was the sump when P-3 stopped?", sun,
            [["%d" % x["state"]["sump_pct"]]], e.t1,
            "%d %%" % x["state"]["sump_pct"])
    t, x = one(M.seen("standing water"))
    Q.count("count", "How deep was the water on the 1450 haulage, in cm?",
            sun, x["state"]["depth_cm"], t)
    es = [j for j in M.find("cage::ride") if "to_level" in j.args]
    Q.count("count", "How many times did you go down the shaft this week?",
            sun, len(es), es[-1].t1)
    t, s, x = one(M.said("Luc"))
    Q.words("count", "How much rock did Luc bring down?", sun,
            must_contain(x, ["bucket"]), t, x)

    # ---- yes / no -------------------------------------------------------
    Q.yesno("yesno", "Is the tag on the XC-22 brow still up?", sun,
            not M.find("tag::remove", tag="HZ-0461", ok=True), last)
    e = one(M.find("inspect::ground", day=SAT))
    Q.yesno("yesno", "Did you finish the bolt check on Saturday?", sun,
            e.ok, e.t1)
    e = one(M.find("survey::gas", heading="XC-14", day=THU))
    Q.yesno("yesno", "Was the CO at XC-14 over the limit on Thursday?", sun,
            e.seen()[0]["state"]["co_ppm"] > 25, e.t1)
    e = one(M.find("map::scan"))
    Q.yesno("yesno", "Did the lidar scan of the 1450 haulage get done?",
            sun, e.ok, e.t1)

    # ---- failed ---------------------------------------------------------
    o = one(M.note("lidar"))
    Q.words("failed", "Why did the lidar scan stop?", sun,
            [["fogged", "fog*", "window"]], o["_t"], o["note"])
    o = one(M.note("P-3"))
    Q.words("failed", "What was wrong with pump P-3?", sun,
            [["not running", "phase", "starter", "91"]], o["_t"], o["note"])
    t, s, x = one(M.said("shift boss", day=SAT))
    Q.words("failed", "Why did you stop the bolt round on Saturday?", sun,
            [["blast*"]], t, x)
    es = M.find(day=FRI, ok=False)
    Q.words("failed", "What went wrong on Friday?", sun,
            [["p 3", "pump", "sump", "phase"]], es[-1].t1,
            "; ".join(j.name for j in es))
    t, s, x = one(M.said("Sophie"))
    Q.words("failed", "What was wrong with the fan at XC-16?", sun,
            [["breaker", "tripped"]], t, x)

    # ---- what nobody else asks ------------------------------------------
    o = one(M.note("inspector"))
    Q.words("which", "What does the inspector want done before Monday?",
            sun, [["plate"], ["bolt 31", "bolt"]], o["_t"], o["note"])
    o = one(M.note("lidar"))
    Q.words("count", "How far along the haulage did the scan get?", sun,
            [["140"]], o["_t"], o["note"])
    t, s, x = one(M.said("shift boss", day=SAT))
    Q.words("when", "What time was the blast on twelve hundred?", sun,
            [["10:30", "10 30", "1030", "15 30", "10 31", "15 31"]], t, x)
    e = one(M.find("park::refuge"))
    m = int(round((e.t1 - e.t0) / 60))
    Q.words("when", "How long were you in the refuge for the blast?", sun,
            [["%d min*" % k for k in (m - 1, m, m + 1)] +
             ["%d minute*" % k for k in (m - 1, m, m + 1)]], e.t1,
            "%.0f min" % ((e.t1 - e.t0) / 60))
    return Q.items, M


if __name__ == "__main__":
    import sys
    print(write(sys.argv[1] if len(sys.argv) > 1 else "minecheck.jsonl"),
          "observations")
