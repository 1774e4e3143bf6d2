"""Fresh and untuned (written 2026-11-27, after pharmacy): the logbook of
"Marlin", the caretaker robot of the Harlow Lane water pumping station,
Friday 2026-06-05 to Sunday 2026-06-07, local time (-04:00).

A history that is MOSTLY FREE-TEXT NOTES, in a shape of its own: times
written with a space and a -04:00 offset ("2026-06-05 07:10:42-04:00"), a
`t_end` on the jobs; notes that begin with their subject ("Pump P2 tripped
at 07:04 on overcurrent; Sam Okoro reset the breaker at 07:20.", "Two
hikers stopped at the gate ..."), hourly round notes, and some jobs as
snake_case actions with numeric keys of their own (`litres`, `bar`, `kg`,
`grams`, `filter`, `pump`, `line`, `tank`, `screen`), the status in lower
case, a failure's or abort's reason in the same line's `note`.  No speech,
no goal stack, no persons (people are only named inside the notes), no
objects, no robot profile.

The truth is read back from the written lines (`Logbook`), never from the
generator's variables.  The questions are the shift lead's and the
inspector's, written before h2emv was asked them; nobody tuned on them
(docs/realqa.md, "Two more fresh untuned sources (kiosk, logbook),
2026-11-27").
"""

import datetime as _dt
import json
import random
import re

from common import QuestionSet, Records, Span, grab, one, parse_time

SEED = 20260605
FRI, SAT, SUN = "2026-06-05", "2026-06-06", "2026-06-07"
ZONE = _dt.timezone(_dt.timedelta(hours=-4))


def stamp(t):
    """'2026-06-05 07:10:42-04:00'."""
    return _dt.datetime.fromtimestamp(int(t), ZONE).isoformat(sep=" ")


def local(day, hhmm):
    return parse_time("%sT%s:00-04:00" % (day, hhmm))


def local_day(t):
    return _dt.datetime.fromtimestamp(t, ZONE).strftime("%Y-%m-%d")


class Writer:
    def __init__(self, seed=SEED):
        self.rng = random.Random(seed)
        self.lines = []
        self.clock = 0.0
        self.here = "control room"

    def at(self, day, hhmm):
        t = local(day, hhmm) + self.rng.randint(0, 120)
        t = max(t, self.clock + 30)
        # a round note on the hour between entries, 06:00-18:00 local
        s = (int(self.clock) // 3600 + 1) * 3600 + 300
        while self.clock and s < t - 300:
            h = (int(s) // 3600 - 4) % 24
            if 6 <= h < 18:
                self.line(s, location=self.here,
                          note=self.rng.choice(ROUNDS))
            s += 3600
        return t

    def line(self, t, **f):
        ln = {"t": stamp(t)}
        ln.update({k: v for k, v in f.items() if v not in (None, [], "")})
        self.lines.append(ln)
        self.clock = max(self.clock, t)

    def note(self, day, hhmm, text, where=None):
        where = where or self.here
        self.line(self.at(day, hhmm), location=where, note=text)
        self.here = where

    def job(self, day, hhmm, name, args, where, status="succeeded",
            why=None, minutes=(3, 12)):
        t0 = self.at(day, hhmm)
        t1 = t0 + 60 * self.rng.randint(*minutes) + self.rng.randint(0, 59)
        self.line(t0, t_end=stamp(t1), location=where,
                  action={"name": name, "args": dict(args), "status": status},
                  note=why)
        self.clock = t1
        self.here = where

    def write(self, path):
        with open(path, "w", encoding="utf-8") as f:
            for ln in self.lines:
                f.write(json.dumps(ln, ensure_ascii=False) + "\n")
        return len(self.lines)


ROUNDS = ["Round: all normal.", "Round done, nothing to report.",
          "Round: pumps quiet, floors dry.", "Round: all normal."]


def generate(seed=SEED):
    w = Writer(seed)
    HALL, FILT, DOSE = "pump hall", "filter gallery", "dosing room"
    YARD, GATE = "yard", "main gate"

    def pressure(day, hhmm, line, bar, status="succeeded", why=None):
        args = {"line": line, "bar": bar} if bar is not None else \
            {"line": line}
        w.job(day, hhmm, "read_pressure", args,
              "valve chamber", status, why, minutes=(1, 3))

    # ----- Friday -------------------------------------------------------
    d = FRI
    w.note(d, "06:00", "Shift start. Reservoir level 4.2 m.", "control room")
    pressure(d, "06:30", "A", 4.4)
    pressure(d, "06:40", "B", 3.9)
    w.note(d, "07:10", "Pump P2 tripped at 07:04 on overcurrent; Sam Okoro "
                       "reset the breaker at 07:20.", HALL)
    w.job(d, "08:00", "backwash", {"filter": "F1", "litres": 16000}, FILT,
          minutes=(15, 20))
    w.job(d, "09:15", "dose_chlorine", {"tank": "T1", "litres": 35}, DOSE)
    w.note(d, "10:05", "Delivery of 800 litres of sodium hypochlorite from "
                       "Aquachem; driver Lena Ruiz, tank T2 filled.", YARD)
    w.job(d, "11:30", "backwash", {"filter": "F3"}, FILT,
          "failed", "valve V7 stuck half open", minutes=(2, 4))
    w.note(d, "11:50", "Valve V7 freed with penetrating oil by Sam Okoro; "
                       "backwash of F3 put off until tomorrow.", FILT)
    w.job(d, "13:00", "grease_bearings", {"pump": "P1", "grams": 40}, HALL)
    w.note(d, "14:20", "Two hikers stopped at the gate and asked for "
                       "drinking water; filled their bottles at the yard "
                       "tap.", GATE)
    pressure(d, "15:10", "B", 3.1)
    w.note(d, "15:20", "Line B pressure low at 3.1 bar; Ravi Menon asked "
                       "for a reading every hour until it recovers.",
           "control room")
    pressure(d, "16:10", "B", 3.4)
    pressure(d, "17:10", "B", 3.8)
    w.note(d, "18:00", "Shift end; P2 and P3 running, P1 on standby.",
           "control room")

    # ----- Saturday -----------------------------------------------------
    d = SAT
    w.note(d, "06:10", "Shift start. Reservoir level 3.9 m.", "control room")
    w.job(d, "06:40", "backwash", {"filter": "F3", "litres": 18500}, FILT,
          minutes=(15, 20))
    w.note(d, "07:30", "Fence by the north gate cut, about one metre "
                       "wide; photos sent to Ravi Menon.", "north gate")
    pressure(d, "08:15", "A", 4.5)
    pressure(d, "08:25", "B", 4.2)
    w.job(d, "09:00", "dose_chlorine", {"tank": "T1", "litres": 30}, DOSE)
    w.note(d, "10:40", "Pump P2 tripped again at 10:32; Ravi Menon says "
                       "the motor goes to the workshop on Monday.", HALL)
    w.job(d, "11:10", "clear_screenings", {"screen": "intake screen",
                                           "kg": 42}, "intake")
    w.note(d, "13:30", "Inspector Amara Osei from the county health "
                       "department visited; she said the chlorine log must "
                       "be signed every day.", "control room")
    w.job(d, "14:00", "grease_bearings", {"pump": "P3"}, YARD,
          "aborted", "heavy rain, the P3 motor housing is outdoors",
          minutes=(1, 2))
    w.note(d, "15:30", "A fox was in the sludge yard again; chased it "
                       "off.", "sludge yard")
    w.job(d, "16:20", "dose_chlorine", {"tank": "T1", "litres": 25}, DOSE)
    w.note(d, "18:00", "Shift end; P2 locked off, P1 and P3 running.",
           "control room")

    # ----- Sunday -------------------------------------------------------
    d = SUN
    w.note(d, "06:05", "Shift start. Reservoir level 3.6 m.", "control room")
    w.note(d, "07:00", "Delivery of 600 litres of sodium hypochlorite from "
                       "Aquachem; driver Lena Ruiz again.", YARD)
    w.job(d, "07:40", "dose_chlorine", {"tank": "T2", "litres": 40}, DOSE)
    w.job(d, "08:30", "backwash", {"filter": "F2", "litres": 17000}, FILT,
          minutes=(15, 20))
    pressure(d, "09:20", "B", 4.3)
    w.job(d, "10:00", "clear_screenings", {"screen": "intake screen",
                                           "kg": 37}, "intake")
    w.note(d, "11:15", "Two cyclists asked the way to the reservoir trail; "
                       "sent them past the north gate.", GATE)
    pressure(d, "12:30", "A", None, "failed", "gauge G4 cracked, no reading")
    w.note(d, "13:00", "Gauge G4 on line A cracked; a new one is on order "
                       "and Sam Okoro will fit it on Tuesday.",
           "valve chamber")
    w.job(d, "14:10", "grease_bearings", {"pump": "P3", "grams": 35}, YARD)
    w.note(d, "15:00", "Pump P2 isolated and tagged out for the workshop; "
                       "Sam Okoro locked valve V2.", HALL)
    w.job(d, "16:00", "backwash", {"filter": "F1"}, FILT,
          "failed", "air scour blower B1 would not start", minutes=(2, 4))
    w.note(d, "17:50", "Shift end. Backwash of F1 still to do.",
           "control room")
    return w


def write(path, seed=SEED):
    return generate(seed).write(path)


class Job:
    def __init__(self, o):
        a = o["action"]
        self.line = o
        self.name, self.args = a["name"], a.get("args") or {}
        self.ok = a.get("status") == "succeeded"
        self.status = a.get("status")
        self.t0 = o["_t"]
        self.t1 = parse_time(o["t_end"]) if o.get("t_end") else self.t0
        self.reason = o.get("note", "")

    @property
    def span(self):
        return Span(self.t0, self.t1, self.name)


class Logbook(Records):
    """The written lines read back: jobs and notes (no speech)."""

    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            self.obs = [json.loads(x) for x in f if x.strip()]
        for o in self.obs:
            o["_t"] = parse_time(o["t"])
        self.runs = [Job(o) for o in self.obs if o.get("action")]
        self.notes = [o for o in self.obs
                      if o.get("note") and not o.get("action")]
        self.speech = []

    def jobs(self, name, ok=None, day=None, **args):
        """Jobs by name on a LOCAL day (the station's logbook day)."""
        return [r for r in self.find(name, ok=ok, **args)
                if not day or local_day(r.t0) == day]

    def lnote(self, start=None, contains=None, day=None):
        return [o for o in self.note(start=start, contains=contains)
                if not day or local_day(o["_t"]) == day]


def clock_in(o, pattern):
    """The local time a note names ("tripped at 07:04"), up to the note's
    own time: the span a right answer lies in."""
    hhmm = grab(pattern, o["note"])
    return Span(local(local_day(o["_t"]), hhmm), o["_t"], o["note"][:30])


def at_note(o):
    return Span(o["_t"], o["_t"], o["note"][:30])


def questions(path):
    H = Logbook(path)
    Q = QuestionSet("logbook")
    mon = "2026-06-08T07:00:00-04:00"   # Monday morning

    # ---- when ---------------------------------------------------------
    o = H.lnote(start="Pump P2 tripped")[0]
    Q.time("when", "When did pump P2 trip the first time?", mon,
           [clock_in(o, r"tripped at (\d\d:\d\d)")])
    e = H.jobs("backwash", ok=True, filter="F3")[-1]
    Q.time("when", "When was filter F3 last backwashed?", mon, [e.span])
    o = one(H.lnote(start="Inspector"))
    Q.time("when", "When did the county inspector come?", mon, [at_note(o)])
    e = H.jobs("grease_bearings", ok=True, pump="P1")[-1]
    Q.time("when", "When did you last grease P1?", mon, [e.span])

    # ---- where --------------------------------------------------------
    o = one(H.lnote(start="Fence"))
    Q.words("where", "Where was the fence cut?", mon,
            [[grab(r"by the (\w+ gate)", o["note"]), "north"]], o["_t"],
            o["note"])
    o = one(H.lnote(contains="hikers"))
    Q.words("where", "Where did the hikers get their water?", mon,
            [[grab(r"at the ([\w ]+?)\.", o["note"]), "tap"]], o["_t"],
            o["note"])
    o = one(H.lnote(contains="fox"))
    Q.words("where", "Where did you see the fox?", mon,
            [[grab(r"in the ([\w ]+?) again", o["note"])]], o["_t"],
            o["note"])
    o = one(H.lnote(contains="cyclists"))
    Q.words("where", "Which way did you send the cyclists?", mon,
            [["north gate", "past the north"]], o["_t"], o["note"])

    # ---- day ----------------------------------------------------------
    o = one(H.lnote(start="Inspector"))
    Q.day("day", "Which day did the inspector visit?", mon,
          [local_day(o["_t"])], o["_t"])
    e = one(H.jobs("read_pressure", ok=False))
    Q.day("day", "On which day did the gauge on line A crack?", mon,
          [local_day(e.t0)], e.t1)
    e = H.jobs("backwash", ok=True, filter="F3")[-1]
    Q.day("day", "What day did F3 finally get its backwash?", mon,
          [local_day(e.t0)], e.t1)

    # ---- who ----------------------------------------------------------
    o = H.lnote(start="Pump P2 tripped")[0]
    who = grab(r"; (\w+ \w+) reset the breaker", o["note"])
    Q.words("who", "Who reset the breaker when P2 tripped on Friday?", mon,
            [[who, who.split()[0]]], o["_t"], who)
    o = one(H.lnote(start="Valve V7"))
    who = grab(r"by (\w+ \w+);", o["note"])
    Q.words("who", "Who freed the stuck valve?", mon,
            [[who, who.split()[0]]], o["_t"], who)
    os_ = H.lnote(start="Delivery of")
    who = grab(r"driver (\w+ \w+)", os_[0]["note"])
    Q.words("who", "Who drove the hypochlorite deliveries?", mon,
            [[who, who.split()[0]]], os_[-1]["_t"], who)
    o = one(H.lnote(contains="every hour"))
    who = grab(r"; (\w+ \w+) asked", o["note"])
    Q.words("who", "Who wanted hourly pressure readings on line B?", mon,
            [[who, who.split()[0]]], o["_t"], who)
    o = one(H.lnote(start="Gauge G4"))
    who = grab(r"and (\w+ \w+) will fit", o["note"])
    Q.words("who", "Who is going to fit the new gauge?", mon,
            [[who, who.split()[0]]], o["_t"], who)
    o = one(H.lnote(start="Inspector"))
    who = grab(r"Inspector (\w+ \w+)", o["note"])
    Q.words("who", "Who came from the county health department?", mon,
            [[who, who.split()[-1]]], o["_t"], who)

    # ---- say ----------------------------------------------------------
    o = one(H.lnote(start="Inspector"))
    Q.words("say", "What did the inspector say about the chlorine log?",
            mon, [["signed", "sign"], ["every day", "daily"]], o["_t"],
            o["note"])
    o = one(H.lnote(contains="tripped again"))
    Q.words("say", "What did Ravi Menon say about pump P2?", mon,
            [["workshop"], ["monday", "motor"]], o["_t"], o["note"], k=1)
    o = one(H.lnote(contains="hikers"))
    Q.words("say", "What did the hikers ask for?", mon,
            [["water", "drinking water"]], o["_t"], o["note"])

    # ---- which --------------------------------------------------------
    e = H.jobs("backwash", ok=False)[0]
    v = grab(r"valve (V\d+)", e.reason)
    Q.words("which", "Which valve was stuck?", mon, [[v, v.lower()]], e.t1,
            v)
    trips = {}
    for o in H.lnote(start="Pump P"):
        if "tripped" in o["note"]:
            p = grab(r"^Pump (P\d)", o["note"])
            trips[p] = trips.get(p, 0) + 1
    twice = [p for p, n in trips.items() if n >= 2]
    Q.words("which", "Which pump tripped twice?", mon, [twice],
            H.lnote(contains="tripped")[-1]["_t"], ", ".join(twice))
    es = H.jobs("backwash", ok=True, day=SUN)
    Q.words("which", "Which filter did you backwash on Sunday?", mon,
            [[x.args["filter"] for x in es]], es[-1].t1,
            ", ".join(x.args["filter"] for x in es))
    e = one(H.jobs("read_pressure", ok=False))
    g = grab(r"gauge (G\d+)", e.reason)
    Q.words("which", "Which gauge cracked?", mon, [[g]], e.t1, g)
    es = H.jobs("dose_chlorine", ok=True, day=SUN)
    Q.words("which", "Which tank did you dose on Sunday?", mon,
            [[x.args["tank"] for x in es]], es[-1].t1,
            ", ".join(x.args["tank"] for x in es))

    # ---- count --------------------------------------------------------
    os_ = H.lnote(start="Delivery of")
    n = sum(int(grab(r"Delivery of (\d+) litres", o["note"])) for o in os_)
    Q.count("count", "How many litres of hypochlorite were delivered in "
            "total?", mon, n, os_[-1]["_t"])
    es = H.jobs("dose_chlorine", ok=True)
    Q.count("count", "How many litres of chlorine did you dose "
            "altogether?", mon, sum(x.args["litres"] for x in es),
            es[-1].t1)
    es = H.jobs("clear_screenings", ok=True)
    Q.count("count", "How many kg of screenings did you clear in total?",
            mon, sum(x.args["kg"] for x in es), es[-1].t1)
    Q.count("count", "How many times did pump P2 trip?", mon,
            trips.get("P2", 0), H.lnote(contains="tripped")[-1]["_t"])
    es = H.jobs("backwash", ok=True)
    Q.count("count", "How many backwashes did you finish?", mon, len(es),
            es[-1].t1)
    e = H.jobs("backwash", ok=True, filter="F3")[-1]
    Q.count("count", "How many litres did the F3 backwash use?", mon,
            e.args["litres"], e.t1)
    es = H.jobs("read_pressure", ok=True, line="B")
    bar = str(es[-1].args["bar"])
    Q.words("count", "What was the pressure on line B at the last "
            "reading?", mon, [[bar]], es[-1].t1, bar + " bar")
    o = one(H.lnote(start="Shift start", day=SUN))
    lvl = grab(r"level ([\d.]+) m", o["note"])
    Q.words("count", "What was the reservoir level on Sunday morning?", mon,
            [[lvl]], o["_t"], lvl + " m")

    # ---- yes / no -----------------------------------------------------
    es = H.jobs("grease_bearings", ok=True, pump="P3")
    Q.yesno("yesno", "Did you grease pump P3 in the end?", mon, bool(es),
            es[-1].t1 if es else None)
    os_ = [o for o in H.lnote(contains="fence")
           if re.search(r"repaired|fixed|mended", o["note"])]
    Q.yesno("yesno", "Has anyone repaired the cut fence?", mon, bool(os_),
            None)
    es = H.jobs("backwash", ok=True, day=SUN, filter="F1")
    Q.yesno("yesno", "Did the F1 backwash on Sunday work?", mon, bool(es),
            None)
    os_ = H.lnote(contains="Lena Ruiz", day=SAT)
    Q.yesno("yesno", "Did Lena Ruiz come on Saturday?", mon, bool(os_),
            None)

    # ---- failed -------------------------------------------------------
    e = H.jobs("backwash", ok=False, day=FRI)[0]
    Q.words("failed", "Why did the backwash of F3 fail on Friday?", mon,
            [["V7", "valve"], ["stuck"]], e.t1, e.reason, k=1)
    e = one(H.jobs("read_pressure", ok=False))
    Q.words("failed", "What went wrong with the pressure reading on line A "
            "on Sunday?", mon, [["G4", "gauge"], ["cracked", "broken"]],
            e.t1, e.reason, k=1)
    e = one([x for x in H.runs if x.status == "aborted"])
    Q.words("failed", "Why didn't you finish greasing P3 on Saturday?", mon,
            [["rain", "outdoors"]], e.t1, e.reason)
    e = H.jobs("backwash", ok=False, filter="F1")[-1]
    Q.words("failed", "Why did the F1 backwash fail?", mon,
            [["blower", "B1", "air scour"]], e.t1, e.reason)
    es = [x for x in H.runs if not x.ok and local_day(x.t0) == SUN]
    Q.words("failed", "What failed on Sunday?", mon,
            [["pressure", "gauge", "G4"], ["backwash", "F1", "blower"]],
            es[-1].t1, "; ".join("%s %s: %s" % (x.name, x.args, x.reason)
                                 for x in es), k=1)
    return Q.items, H


if __name__ == "__main__":
    import sys
    print(write(sys.argv[1] if len(sys.argv) > 1 else "logbook.jsonl"),
          "observations")
