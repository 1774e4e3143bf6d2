"""Fresh and untuned (written 2026-11-28, twelfth fresh round): "SORTA",
the picking and baling robot on line 1 of the Eastgate materials recovery
facility (a recycling sorting plant) in Toronto, Monday 2026-11-23 to
Wednesday 2026-11-25, local time (-05:00).

A history in a shape of its own: `t` and `t_end` with a "T", TWO fraction
digits and a -05:00 offset ("2026-11-23T07:02:41.37-05:00"; every line
falls between 07:00 and 17:59 local, so the local and the UTC day agree);
each job ONE line with `t_end` and a snake_case action (`start_line`,
`pick_contaminants`, `make_bale`, `clear_jam`, `calibrate`, `e_stop`,
`load_truck`, `shutdown_line`) whose status is written "ok", "error" or
"stopped"; quantities as NESTED `{value, unit}` objects (`"mass": {"value":
412, "unit": "kg"}`, `"picked": {"value": 212, "unit": "pcs"}`); the
goal an array of the shift and the line (`["shift A", "line 1"]`); persons
as PLAIN first-and-last names; speech one utterance a line, speakers by
their JOB ("shift lead", "maintenance", "QA", "loader", "visitor"), the
robot as "SORTA"; notes that begin with a capitalised heading ("HAZARD:
...", "QA: ...") or with the machine ("Star screen 2: ..."); bales seen as
objects with a state object (grade, contamination) and an `in` relation
to their bay.  No robot profile.

The truth is read back from the written lines (`Plant`), never from the
generator's variables.  The questions are the shift lead's, the plant
manager's, QA's and a visiting teacher's, written before h2emv was asked
them; nobody tuned on them (docs/realqa.md, "A twelfth fresh untuned
source pair (prmchair, sortline), 2026-11-28").
"""

import datetime as _dt
import json
import re

from common import QuestionSet, Span, day_of, must_contain, one, \
    parse_time, variants

MON, TUE, WED = "2026-11-23", "2026-11-24", "2026-11-25"
EST = _dt.timezone(_dt.timedelta(hours=-5))
DANA, VIKTOR, PRIYA, MO = ("Dana Okafor", "Viktor Hale", "Priya Nair",
                           "Mo Haddad")


def stamp(cs):
    """Hundredths of a second -> '2026-11-23T07:02:41.37-05:00'."""
    d = _dt.datetime.fromtimestamp(cs // 100, EST)
    return d.strftime("%Y-%m-%dT%H:%M:%S") + ".%02d-05:00" % (cs % 100)


def kg(v):
    return {"value": v, "unit": "kg"}


class Writer:
    def __init__(self):
        self.lines = []
        self.k = 3

    def at(self, day, hhmm):
        self.k = (self.k * 37 + 17) % 5701
        return int(parse_time("%sT%s:00-05:00" % (day, hhmm))) * 100 + self.k

    def put(self, cs, goal=("shift A", "line 1"), **f):
        ln = {"t": stamp(cs)}
        for k, v in f.items():
            if v not in (None, [], ""):
                ln[k] = stamp(v) if k == "t_end" else v
        ln["goal"] = list(goal)
        self.lines.append((cs, ln))

    def job(self, day, hhmm, name, args, minutes, status="ok",
            where="line 1", persons=(), objects=(), note=None):
        t = self.at(day, hhmm)
        self.put(t, t_end=t + int(minutes * 6000) + 41,
                 action={"name": name, "args": args, "status": status},
                 location=where, persons=list(persons),
                 objects=list(objects), note=note)

    def say(self, day, hhmm, who, text, where="line 1", persons=()):
        self.put(self.at(day, hhmm), location=where, persons=list(persons),
                 speech={"speaker": who, "text": text})

    def note(self, day, hhmm, text, where="line 1", persons=()):
        self.put(self.at(day, hhmm), location=where, note=text,
                 persons=list(persons))

    def write(self, path):
        with open(path, "w", encoding="utf-8") as f:
            for t, ln in sorted(self.lines, key=lambda x: x[0]):
                f.write(json.dumps(ln, ensure_ascii=False) + "\n")
        return len(self.lines)


def bale(bid, material, grade, contam, bay):
    return {"id": bid, "type": "bale",
            "state": {"material": material, "grade": grade,
                      "contamination_pct": contam},
            "relations": [{"to": bay, "type": "in"}]}


def generate():
    w = Writer()
    d = MON
    w.job(d, "07:02", "start_line", {"line": 1, "stream": "mixed "
                                     "containers"}, 3)
    w.job(d, "07:10", "pick_contaminants",
          {"line": 1, "target": "plastic film",
           "picked": {"value": 212, "unit": "pcs"}}, 110)
    w.note(d, "09:13", "HAZARD: 1 lithium battery (vape pen) pulled off the "
           "line 1 infeed, put in the fire bucket. Told Dana.",
           persons=[DANA])
    w.say(d, "09:20", "shift lead", "Good catch. Log every battery you "
          "find, the fire marshal wants a count at the end of the week.",
          persons=[DANA])
    w.say(d, "09:21", "SORTA", "Understood, I will log each battery.",
          persons=[DANA])
    w.job(d, "10:00", "make_bale", {"material": "PET bottles",
                                    "bale": "PET-2231", "mass": kg(412)},
          14, where="baler",
          objects=[bale("PET-2231", "PET", "A", 1.8, "bay 4")])
    w.job(d, "11:30", "clear_jam", {"machine": "star screen 2"}, 9,
          status="error", where="star screen 2",
          note="Star screen 2: film wrapped round the shafts, out of reach "
          "of the gripper; called maintenance.")
    w.say(d, "11:50", "maintenance", "Lock it out, I'll cut the film off. "
          "Twenty minutes.", where="star screen 2", persons=[VIKTOR])
    w.job(d, "12:15", "clear_jam", {"machine": "star screen 2",
                                    "with": VIKTOR}, 22,
          where="star screen 2", persons=[VIKTOR])
    w.job(d, "13:00", "make_bale", {"material": "aluminium cans",
                                    "bale": "AL-1187", "mass": kg(365)},
          12, where="baler",
          objects=[bale("AL-1187", "aluminium", "A", 0.6, "bay 2")])
    w.job(d, "14:30", "e_stop", {"line": 1, "reason": "propane cylinder "
                                 "on the belt"}, 6, status="stopped",
          persons=[MO], note="HAZARD: 1 lb propane cylinder on line 1, "
          "pressed the e-stop; Mo Haddad took it off the belt.")
    w.job(d, "15:30", "load_truck", {"door": "door 3",
                                     "carrier": "Dufferin Metals",
                                     "bales": ["AL-1187"]}, 25,
          where="loading dock", persons=[MO])
    w.job(d, "17:40", "shutdown_line", {"line": 1}, 4)

    d = TUE
    w.job(d, "07:05", "start_line", {"line": 1, "stream": "mixed "
                                     "containers"}, 3)
    w.job(d, "07:15", "pick_contaminants",
          {"line": 1, "target": "plastic film",
           "picked": {"value": 188, "unit": "pcs"}}, 95)
    w.note(d, "08:40", "HAZARD: 2 lithium batteries (laptop pack, AA pack) "
           "off line 1, both in the fire bucket.")
    w.say(d, "09:30", "QA", "PET-2231 is only grade B, too many caps and "
          "labels. Mark it down and keep it in bay 4.", where="bay 4",
          persons=[PRIYA])
    w.note(d, "09:34", "QA: PET-2231 re-graded B by Priya (caps and labels).",
           where="bay 4", persons=[PRIYA])
    w.job(d, "10:00", "make_bale", {"material": "OCC cardboard",
                                    "bale": "OCC-5540", "mass": kg(620)},
          15, where="baler",
          objects=[bale("OCC-5540", "OCC", "A", 2.5, "bay 6")])
    w.job(d, "11:00", "calibrate", {"camera": "hyperspectral cam 1"}, 6,
          status="error", where="optical sorter",
          note="White reference tile dirty, calibration out of tolerance; "
          "Priya Nair cleaned the tile.", persons=[PRIYA])
    w.job(d, "11:20", "calibrate", {"camera": "hyperspectral cam 1"}, 5,
          where="optical sorter")
    w.job(d, "13:00", "make_bale", {"material": "aluminium cans",
                                    "bale": "AL-1188", "mass": kg(348)},
          11, where="baler",
          objects=[bale("AL-1188", "aluminium", "A", 0.9, "bay 2")])
    w.say(d, "14:00", "visitor", "How many cans does it take to make one "
          "of those bales?", where="visitor gallery",
          persons=["Elena Rossi"])
    w.say(d, "14:01", "SORTA", "About 24,000 cans. Today's bale weighed 348 "
          "kilograms.", where="visitor gallery", persons=["Elena Rossi"])
    w.job(d, "16:00", "load_truck", {"door": "door 1",
                                     "carrier": "GreenFibre",
                                     "bales": ["OCC-5540"]}, 18,
          status="stopped", where="loading dock", persons=[MO],
          note="Truck pulled out before the bale was loaded: the driver "
          "was out of hours.")
    w.job(d, "17:45", "shutdown_line", {"line": 1}, 4)

    d = WED
    w.job(d, "07:00", "start_line", {"line": 1, "stream": "mixed "
                                     "containers"}, 3)
    w.job(d, "07:10", "pick_contaminants",
          {"line": 1, "target": "plastic film",
           "picked": {"value": 240, "unit": "pcs"}}, 100)
    w.job(d, "09:00", "make_bale", {"material": "PET bottles",
                                    "bale": "PET-2232", "mass": kg(398)},
          13, where="baler",
          objects=[bale("PET-2232", "PET", "A", 1.1, "bay 4")])
    w.job(d, "10:15", "e_stop", {"line": 1, "reason": "person on the "
                                 "catwalk"}, 4, status="stopped",
          persons=[MO, DANA], note="Stopped line 1: Mo was on the catwalk "
          "above the belt without a lanyard. Dana spoke to him.")
    w.job(d, "11:00", "load_truck", {"door": "door 3",
                                     "carrier": "Dufferin Metals",
                                     "bales": ["AL-1188"]}, 20,
          where="loading dock", persons=[MO])
    w.job(d, "12:30", "load_truck", {"door": "door 1",
                                     "carrier": "GreenFibre",
                                     "bales": ["OCC-5540"]}, 24,
          where="loading dock", persons=[MO])
    w.note(d, "13:30", "HAZARD: 1 lithium battery (phone) off line 1, fire "
           "bucket.")
    w.say(d, "15:00", "shift lead", "Tomorrow we run glass on line 2, "
          "start at 06:30 and bring the glass gripper.", persons=[DANA])
    w.job(d, "17:30", "shutdown_line", {"line": 1}, 4)
    return w


def write(path):
    return generate().write(path)


# ---------------------------------------------------------------------------
# The truth, read back from the lines

class Job:
    def __init__(self, o):
        self.o = o
        a = o["action"]
        self.name, self.args, self.status = a["name"], a.get("args", {}), \
            a["status"]
        self.t0, self.t1 = o["_t"], parse_time(o["t_end"])

    @property
    def ok(self):
        return self.status == "ok"

    @property
    def span(self):
        return Span(self.t0, self.t1, self.name)


class Plant:
    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            self.obs = [json.loads(x) for x in f if x.strip()]
        for o in self.obs:
            o["_t"] = parse_time(o["t"])
        self.jobs = [Job(o) for o in self.obs if o.get("action")]
        self.notes = [o for o in self.obs if o.get("note")]
        self.speech = [(o["_t"], o["speech"]["speaker"], o["speech"]["text"])
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

    def bales(self):
        return [(j.t1, x) for j in self.jobs for x in j.o.get("objects", [])]


def questions(path):
    P = Plant(path)
    Q = QuestionSet("sortline")
    thu = "2026-11-26 13:00:00"        # Thursday 08:00 in Toronto

    # ---- when -----------------------------------------------------------
    e = one(P.find("make_bale", bale="AL-1187"))
    Q.time("when", "When did you bale the first load of cans?", thu,
           [e.span])
    e = one(P.find("clear_jam", ok=True))
    Q.time("when", "When did star screen 2 get cleared?", thu, [e.span])
    e = P.find("load_truck", ok=True)[-1]
    Q.time("when", "When did the last truck get loaded?", thu, [e.span])
    e = one(P.find("e_stop", day=MON))
    Q.time("when", "What time did you find the propane tank?", thu,
           [e.span], e.o["note"])
    e = one(P.find("calibrate", ok=True))
    Q.time("when", "When was the hyperspectral camera calibrated "
           "properly?", thu, [e.span])
    e = P.find("start_line", day=WED)[0]
    Q.time("when", "When did line 1 start up on Wednesday?", thu, [e.span])

    # ---- where ----------------------------------------------------------
    t, x = [(t, x) for t, x in P.bales() if x["id"] == "PET-2231"][0]
    bay = x["relations"][0]["to"]
    Q.words("where", "Where is bale PET-2231 stored?", thu,
            [variants(bay)], t, bay, none=["bay 2", "bay 6"])
    o = one(P.note("vape"))
    Q.words("where", "Where did the vape battery go?", thu,
            [["fire bucket"]], o["_t"], o["note"])
    e = one(P.find("e_stop", day=WED))
    Q.words("where", "Where was Mo when you stopped the line on Wednesday?",
            thu, [["catwalk"]], e.t1, e.o["note"])
    e = one(P.find("load_truck", carrier="Dufferin Metals", day=WED))
    Q.words("where", "Which door did the metals truck load at?", thu,
            [variants(e.args["door"])], e.t1, e.args["door"],
            none=["door 1"])

    # ---- day ------------------------------------------------------------
    o = one(P.note("re-graded"))
    Q.day("day", "Which day did QA downgrade the PET bale?", thu,
          [day_of(o["_t"])], o["_t"])
    e = one(P.find("load_truck", ok=True, carrier="GreenFibre"))
    Q.day("day", "What day did GreenFibre finally take the cardboard?", thu,
          [day_of(e.t0)], e.t1)
    o = one(P.note("propane"))
    Q.day("day", "Which day was the propane cylinder on the belt?", thu,
          [day_of(o["_t"])], o["_t"])

    # ---- who ------------------------------------------------------------
    e = one(P.find("clear_jam", ok=True))
    Q.words("who", "Who cleared the star screen?", thu,
            [["viktor", "hale"]], e.t1, e.args["with"])
    o = one(P.note("propane"))
    Q.words("who", "Who took the propane cylinder off the belt?", thu,
            [["mo", "haddad"]], o["_t"], o["note"])
    o = one(P.note("reference tile"))
    Q.words("who", "Who cleaned the reference tile?", thu,
            [["priya", "nair"]], o["_t"], o["note"])
    e = one(P.find("load_truck", bales=["AL-1187"]))
    Q.words("who", "Who buys our aluminium?", thu,
            [["dufferin"]], e.t1, e.args["carrier"], none=["greenfibre"])
    o = one(P.note("vape"))
    Q.words("who", "Who did you tell about the vape battery?", thu,
            [["dana", "okafor", "shift lead"]], o["_t"], o["note"])
    t, s, x = one(P.said("visitor"))
    Q.words("who", "Who asked you about the cans on Tuesday?", thu,
            [["elena", "rossi", "visitor"]], t, x)

    # ---- say ------------------------------------------------------------
    t, s, x = one(P.said("maintenance"))
    Q.words("say", "What did Viktor say about the jam?", thu,
            must_contain(x, ["cut the film"]) + [["twenty minutes",
                                                  "lock it out"]], t, x,
            k=1)
    t, s, x = one(P.said("QA"))
    Q.words("say", "What did Priya say about PET-2231?", thu,
            must_contain(x, ["grade b"]) + [["caps", "labels"]], t, x, k=1)
    t, s, x = one(P.said("shift lead", day=MON))
    Q.words("say", "What did Dana ask you to log?", thu,
            must_contain(x, ["every battery"]), t, x)
    t, s, x = one(P.said("SORTA", contains="cans"))
    Q.words("say", "What did you tell the visitor about the cans?", thu,
            must_contain(x, ["24,000"]) + [["348"]], t, x, k=1)
    t, s, x = one(P.said("shift lead", day=WED))
    Q.words("say", "What did the shift lead say about tomorrow?", thu,
            must_contain(x, ["glass"]) + [["line 2", "06:30", "6:30"]], t,
            x, k=1)
    t, s, x = one(P.said("visitor"))
    Q.words("say", "What did Ms Rossi want to know?", thu,
            must_contain(x, ["how many cans"]), t, x)

    # ---- see ------------------------------------------------------------
    t, x = [(t, x) for t, x in P.bales() if x["id"] == "PET-2232"][0]
    Q.words("see", "What grade was PET-2232?", thu,
            [["grade %s" % x["state"]["grade"].lower()]], t,
            x["state"]["grade"],
            none=["grade b"])
    t, x = [(t, x) for t, x in P.bales() if x["id"] == "OCC-5540"][0]
    c = x["state"]["contamination_pct"]
    Q.words("see", "How contaminated was the cardboard bale?", thu,
            [["%g" % c]], t, "%g %%" % c)

    # ---- which ----------------------------------------------------------
    e = one(P.find("clear_jam", ok=False))
    Q.words("which", "Which machine jammed on Monday?", thu,
            [variants(e.args["machine"])], e.t1, e.args["machine"])
    e = one(P.find("calibrate", ok=False))
    Q.words("which", "Which camera did you calibrate?", thu,
            [["hyperspectral", "cam 1"]], e.t1, e.args["camera"])
    e = one(P.find("make_bale", bale="OCC-5540"))
    Q.words("which", "What was in bale OCC-5540?", thu,
            [["cardboard", "occ"]], e.t1, e.args["material"])
    e = one(P.find("pick_contaminants", day=TUE))
    Q.words("which", "What were you picking off the belt on Tuesday "
            "morning?", thu, [variants(e.args["target"], "film")], e.t1,
            e.args["target"])

    # ---- count ----------------------------------------------------------
    ns = P.note("HAZARD:")
    n = sum(int(re.search(r"HAZARD: (\d+) lithium batter", o["note"])
                .group(1)) for o in ns if "lithium" in o["note"])
    Q.count("count", "How many batteries did you pull off the line this "
            "week?", thu, n, ns[-1]["_t"])
    es = P.find("make_bale", ok=True)
    Q.count("count", "How many bales did you make?", thu, len(es),
            es[-1].t1, ", ".join(j.args["bale"] for j in es))
    e = one(P.find("make_bale", bale="AL-1188"))
    m = e.args["mass"]
    Q.words("count", "How much did AL-1188 weigh?", thu,
            [["%d kg" % m["value"], "%d kilo*" % m["value"]]], e.t1,
            "%d %s" % (m["value"], m["unit"]))
    e = one(P.find("pick_contaminants", day=TUE))
    Q.count("count", "How many pieces of film did you pick on Tuesday?",
            thu, e.args["picked"]["value"], e.t1)
    es = [j for j in P.find("make_bale") if "aluminium" in
          j.args["material"]]
    tot = sum(j.args["mass"]["value"] for j in es)
    Q.words("count", "How many kilos of aluminium did you bale in total?",
            thu, [["%d" % tot]], es[-1].t1, "%d kg" % tot)
    es = P.find("e_stop")
    Q.count("count", "How many times did you hit the e-stop?", thu, len(es),
            es[-1].t1)
    es = P.find("pick_contaminants")
    tot = sum(j.args["picked"]["value"] for j in es)
    Q.count("count", "How much plastic film did you pick out over the three "
            "days?", thu, tot, es[-1].t1)

    # ---- yes / no -------------------------------------------------------
    es = P.find("load_truck", day=TUE, carrier="GreenFibre")
    Q.yesno("yesno", "Did the cardboard go out on Tuesday?", thu,
            any(j.ok for j in es), es[-1].t1)
    o = one(P.note("re-graded"))
    Q.yesno("yesno", "Is PET-2231 still grade A?", thu,
            "re-graded A" in o["note"], o["_t"])
    e = P.find("calibrate")[0]
    Q.yesno("yesno", "Did the first calibration work?", thu, e.ok, e.t1)
    Q.yesno("yesno", "Was there a propane cylinder on Wednesday?", thu,
            bool(P.note("propane", day=WED)), P.obs[-1]["_t"])

    # ---- failed ---------------------------------------------------------
    e = one(P.find("load_truck", ok=False))
    Q.words("failed", "Why did the GreenFibre truck leave without the "
            "bale?", thu, [["out of hours", "hours"]], e.t1, e.o["note"])
    e = one(P.find("calibrate", ok=False))
    Q.words("failed", "Why did the calibration fail?", thu,
            [["dirty", "reference tile", "tolerance"]], e.t1, e.o["note"])
    e = one(P.find("clear_jam", ok=False))
    Q.words("failed", "Why couldn't you clear the jam yourself?", thu,
            [["out of reach", "reach", "wrapped"]], e.t1, e.o["note"])
    e = one(P.find("e_stop", day=WED))
    Q.words("failed", "Why did you stop the line on Wednesday?", thu,
            [["catwalk", "lanyard"]], e.t1, e.o["note"])
    es = [j for j in P.find(day=MON) if not j.ok]
    Q.words("failed", "What went wrong on Monday?", thu,
            [["star screen", "jam", "film"], ["propane", "e-stop"]],
            es[-1].t1, "; ".join(j.o["note"] for j in es), k=1)

    # ---- how long, and what nobody else asks ----------------------------
    e = one(P.find("e_stop", day=WED))
    mn = int(round((e.t1 - e.t0) / 60.0))
    Q.words("which", "How long was line 1 down on Wednesday?", thu,
            [["%d min*" % k for k in (mn - 1, mn, mn + 1)] +
             ["%d minute*" % k for k in (mn - 1, mn, mn + 1)]], e.t1,
            "%d min" % mn)
    t, s, x = one(P.said("maintenance"))
    Q.words("which", "How long did maintenance say the fix would take?",
            thu, must_contain(x, ["twenty minutes"]), t, x)
    shipped = {b for j in P.find("load_truck", ok=True)
               for b in j.args["bales"]}
    left = [j.args["bale"] for j in P.find("make_bale")
            if j.args["bale"] not in shipped]
    Q.words("which", "Which bales haven't shipped yet?", thu,
            [[b.lower()] for b in left], P.obs[-1]["_t"], ", ".join(left),
            none=["al-1187", "al-1188", "occ-5540"])
    t, s, x = one(P.said("shift lead", day=WED))
    Q.words("which", "What are we running on line 2 tomorrow?", thu,
            [["glass"]], t, x)
    return Q.items, P


if __name__ == "__main__":
    import sys
    print(write(sys.argv[1] if len(sys.argv) > 1 else "sortline.jsonl"),
          "observations")
