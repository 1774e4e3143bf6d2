"""Untuned (issue 19): an airport baggage robot ("Kiwi") in the baggage hall
of a regional airport, Friday 2026-07-03 to Sunday 2026-07-05.

Its log has a shape of its own: one line per *finished* action, with its
start `t` and end `t_end` and the status in capitals (`SUCCEEDED`,
`FAILED`, `ABORTED`); the goal as a dotted string naming the turnaround
(`"Turnaround.LH2074"`); skills of its own (`LoadBag`, `UnloadFlight`,
`WeighBag`, `ClearJam`, `RecoverBag`, `DeliverItem`, `HoldBags`, `Dock`)
with keys of its own (`tag`, `flight`, `uld`, `weight_kg` as a real,
`origin`, `bags`, `carousel`, `belt`, `limit_kg`, `found_at`, `item`,
`owner`, `gate`); the failure reason in the action line's `note`.  Between
the actions: heartbeat lines, dialog lines holding a whole exchange in one
`speech` array (a supervisor's instructions, a passenger asking for a
suitcase, a gate agent), and free-text notes that start with their subject
("Belt 3 jammed at 14:10; Sam cleared it at 14:25.", "Shift handover (Ilse
Moreau): ...").  The robot speaks as "Kiwi"; no robot profile.

The truth is read back from the written lines (`Hall`), never from the
generator's variables.  The questions are a shift supervisor's and a
passenger's, written before h2emv was asked them; nobody tuned on them
(docs/realqa.md, "Untuned sources (round of issue 19)").
"""

import json
import random
import re

from common import (QuestionSet, Records, Span, day_of, grab, iso, one, parse_time,
                    must_contain)

SEED = 20260703
FRI, SAT, SUN = "2026-07-03", "2026-07-04", "2026-07-05"
ROBOT = "Kiwi"
ILSE, SAM, LUCIA, PETER, FARID = ("Ilse Moreau", "Sam Reyes",
                                  "Lucia Romano", "Peter Novak",
                                  "Farid Haddad")

SEEN = {
    "make-up area": [("belt", "belt 3"), ("uld", "AKE container"),
                     ("cart", "baggage cart")],
    "stand 14": [("plane", "aircraft"), ("loader", "belt loader")],
    "carousel 3": [("carousel", "carousel 3"), ("trolley", "trolley")],
    "carousel 5": [("carousel", "carousel 5"), ("trolley", "trolley")],
    "oversize counter": [("golf", "golf bag"), ("surf", "surfboard"),
                         ("red", "red suitcase")],
    "gate B12": [("desk", "gate desk"), ("stroller", "stroller")],
    "check-in desk 12": [("scale", "baggage scale")],
    "charging point": [("charger", "charger")],
}


class Writer:
    def __init__(self, seed=SEED):
        self.rng = random.Random(seed)
        self.lines = []
        self.clock = 0.0
        self.here = "charging point"

    def start(self, day, hhmm):
        t = parse_time("%sT%s:00Z" % (day, hhmm)) + self.rng.randint(0, 120)
        t = max(t, self.clock + 15)
        # heartbeats every 10 minutes between jobs, 05:00-22:00
        s = self.clock + 600
        while self.clock and s < t - 60:
            if 5 <= (int(s) // 3600) % 24 < 22:
                self.line(s, location=self.here)
            s += 600
        return t

    def line(self, t, **f):
        ln = {"t": iso(t)}
        ln.update({k: v for k, v in f.items() if v not in (None, [], "")})
        self.lines.append(ln)
        self.clock = max(self.clock, parse_time(ln.get("t_end", ln["t"])))

    def seen(self, where):
        return [{"id": "%s_%s" % (i, where.replace(" ", "_")), "type": k}
                for i, k in SEEN.get(where, [])]

    def act(self, day, hhmm, name, args, where, goal=None, status="SUCCEEDED",
            minutes=(2, 6), persons=(), note=None, objects=None):
        t0 = self.start(day, hhmm)
        t1 = t0 + 60 * self.rng.randint(*minutes) + self.rng.randint(0, 59)
        self.line(t0, t_end=iso(t1),
                  action={"name": name, "args": args, "status": status},
                  goal=goal, location=where, persons=list(persons),
                  objects=self.seen(where) if objects is None else objects,
                  note=note)
        self.here = where
        return t0, t1

    def dialog(self, day, hhmm, where, utterances, persons=()):
        t0 = self.start(day, hhmm)
        ppl = sorted(set(list(persons) + [s for s, _ in utterances
                                          if s != ROBOT]))
        self.line(t0, t_end=iso(t0 + 12 * len(utterances)), location=where,
                  persons=ppl, speech=[{"speaker": s, "text": x}
                                       for s, x in utterances])
        self.here = where

    def note(self, day, hhmm, where, text, persons=()):
        t0 = self.start(day, hhmm)
        self.line(t0, location=where, note=text, persons=list(persons))
        self.here = where

    def write(self, path):
        with open(path, "w", encoding="utf-8") as f:
            for ln in self.lines:
                f.write(json.dumps(ln, ensure_ascii=False) + "\n")
        return len(self.lines)


def generate(seed=SEED):
    w = Writer(seed)

    def load(day, hhmm, tag, flight, uld, kg, **kw):
        w.act(day, hhmm, "LoadBag", {"tag": tag, "flight": flight,
                                     "uld": uld, "weight_kg": kg},
              "make-up area", goal="Turnaround." + flight,
              minutes=(1, 3), **kw)

    def dock(day, hhmm):
        w.act(day, hhmm, "Dock", {"station": "charging point"},
              "charging point", minutes=(1, 2))

    # ----- Friday -------------------------------------------------------
    d = FRI
    load(d, "06:10", "LH 220451", "LH2074", "AKE 1204", 18.5)
    load(d, "06:15", "LH 220452", "LH2074", "AKE 1204", 21.0)
    load(d, "06:20", "LH 220455", "LH2074", "AKE 1204", 23.5)
    load(d, "06:26", "LH 220458", "LH2074", "AKE 1207", 15.0)
    load(d, "06:32", "LH 220461", "LH2074", "AKE 1207", 19.0)
    w.dialog(d, "06:50", "gate B12", [
        (FARID, "Kiwi, the Novak family needs their stroller brought to "
                "gate B12 before boarding."),
        (ROBOT, "I will bring the stroller to gate B12 right away.")])
    w.act(d, "06:55", "DeliverItem", {"item": "stroller", "owner": PETER,
                                      "gate": "B12", "flight": "LH2074"},
          "gate B12", goal="Turnaround.LH2074", minutes=(5, 8),
          persons=[PETER, FARID])
    w.act(d, "09:40", "UnloadFlight", {"flight": "BA963",
                                       "origin": "London Heathrow",
                                       "bags": 86, "carousel": 3},
          "carousel 3", goal="Arrival.BA963", minutes=(20, 30),
          persons=[SAM])
    w.dialog(d, "10:30", "make-up area", [
        (ILSE, "Kiwi, hold all bags for KL1782, the Amsterdam flight is "
               "delayed until 16:00."),
        (ROBOT, "Understood, holding the KL1782 bags in the make-up area.")])
    w.act(d, "10:35", "HoldBags", {"flight": "KL1782", "bags": 14},
          "make-up area", goal="Turnaround.KL1782", minutes=(3, 6))
    w.note(d, "11:20", "carousel 5", "Bag LH 220461 misrouted to carousel "
           "5 at 11:20; Sam pulled it off and it went on the next Munich "
           "flight.", persons=[SAM])
    w.note(d, "14:30", "make-up area", "Belt 3 jammed at 14:10; Sam "
           "cleared it at 14:25.", persons=[SAM])
    w.act(d, "16:05", "LoadBag", {"tag": "KL 118002", "flight": "KL1782",
                                  "uld": "AKE 3310", "weight_kg": 22.0},
          "make-up area", goal="Turnaround.KL1782", minutes=(1, 3))
    w.act(d, "16:10", "WeighBag", {"tag": "KL 118004", "weight_kg": 31.5,
                                   "limit_kg": 23},
          "make-up area", goal="Turnaround.KL1782", status="FAILED",
          minutes=(1, 2),
          note="overweight: 31.5 kg against a 23 kg limit; sent back to "
               "check-in desk 12")
    w.note(d, "17:30", "make-up area", "Shift handover (Ilse Moreau): 3 "
           "bags short-shipped on KL1782, they go on the first flight "
           "tomorrow.", persons=[ILSE])
    dock(d, "22:10")

    # ----- Saturday -----------------------------------------------------
    d = SAT
    load(d, "06:20", "KL 118011", "KL1780", "AKE 3312", 20.5)
    load(d, "06:25", "KL 118012", "KL1780", "AKE 3312", 17.5)
    w.act(d, "08:15", "ClearJam", {"belt": "belt 3"}, "make-up area",
          status="FAILED", minutes=(4, 7),
          note="a stroller wheel is stuck in the rollers; needs a "
               "technician")
    w.note(d, "09:05", "make-up area", "Technician Omar fixed belt 3 at "
           "09:00; rollers replaced.")
    w.dialog(d, "11:00", "carousel 3", [
        (LUCIA, "My suitcase didn't come off the belt. It's a red "
                "hard-shell case, tag BA 771302."),
        (ROBOT, "Let me look for it, Ms Romano.")])
    w.act(d, "11:05", "RecoverBag", {"tag": "BA 771302", "flight": "BA963",
                                     "found_at": "oversize counter",
                                     "owner": LUCIA},
          "oversize counter", goal="Arrival.BA963", minutes=(6, 10))
    w.dialog(d, "11:20", "carousel 3", [
        (ROBOT, "I found your suitcase at the oversize counter, you can "
                "collect it there."),
        (LUCIA, "Oh wonderful, thank you so much!")])
    w.act(d, "13:00", "UnloadFlight", {"flight": "EW9040",
                                       "origin": "Palma de Mallorca",
                                       "bags": 143, "carousel": 5},
          "carousel 5", goal="Arrival.EW9040", minutes=(30, 40),
          persons=[SAM])
    w.note(d, "14:50", "carousel 5", "Carousel 5 stopped for 20 minutes: "
           "power fault, electrician called.")
    w.act(d, "17:00", "UnloadFlight", {"flight": "BA965",
                                       "origin": "London Heathrow",
                                       "bags": 72, "carousel": 3},
          "carousel 3", goal="Arrival.BA965", minutes=(15, 25))
    dock(d, "22:00")

    # ----- Sunday -------------------------------------------------------
    d = SUN
    load(d, "06:05", "LH 230101", "LH2076", "AKE 1301", 24.0)
    load(d, "06:10", "LH 230102", "LH2076", "AKE 1301", 12.5)
    w.act(d, "06:20", "LoadBag", {"tag": "LH 230104", "flight": "LH2076",
                                  "uld": "AKE 1302", "weight_kg": 19.5},
          "make-up area", goal="Turnaround.LH2076", status="ABORTED",
          minutes=(1, 2), note="the door of AKE 1302 would not latch")
    w.dialog(d, "07:30", "make-up area", [
        (ILSE, "Kiwi, from now on scan every tag twice before loading, we "
               "had two misreads yesterday."),
        (ROBOT, "Okay, I will scan each tag twice.")])
    w.act(d, "10:00", "UnloadFlight", {"flight": "EW9042",
                                       "origin": "Palma de Mallorca",
                                       "bags": 131, "carousel": 5},
          "carousel 5", goal="Arrival.EW9042", minutes=(30, 40))
    dock(d, "21:30")
    return w


def write(path, seed=SEED):
    return generate(seed).write(path)


class Run:
    def __init__(self, o):
        a = o["action"]
        self.line = o
        self.name, self.args = a["name"], a.get("args") or {}
        self.status = a.get("status", "").lower()
        self.t0 = parse_time(o["t"])
        self.t1 = parse_time(o.get("t_end") or o["t"])

    @property
    def ok(self):
        return self.status == "succeeded"

    @property
    def span(self):
        return Span(self.t0, self.t1, self.name)


class Hall(Records):
    """The written lines read back: actions, notes and what was said."""

    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            self.obs = [json.loads(x) for x in f if x.strip()]
        for o in self.obs:
            o["_t"] = parse_time(o["t"])
        self.runs = [Run(o) for o in self.obs if o.get("action")]
        self.notes = [o for o in self.obs if o.get("note") and
                      not o.get("action")]
        self.speech = [(o["_t"], u["speaker"], u["text"]) for o in self.obs
                       for u in o.get("speech") or []]





def clock_in(o, pattern):
    """The time a note names ("jammed at 14:10") on the note's day, and the
    note's own time: the span a right answer lies in."""
    hhmm = grab(pattern, o["note"])
    return Span(parse_time("%sT%s:00Z" % (day_of(o["_t"]), hhmm)), o["_t"],
                o["note"][:30])


def questions(path):
    H = Hall(path)
    Q = QuestionSet("baggage")
    mon = "2026-07-06T07:00:00Z"      # Monday morning
    sun_pm = "2026-07-05T22:00:00Z"   # Sunday night

    # ---- when ---------------------------------------------------------
    o = one(H.note("Belt 3 jammed", day=FRI))
    Q.time("when", "When did belt 3 jam on Friday?", mon,
           [clock_in(o, r"jammed at (\d\d:\d\d)")])
    es = H.find("LoadBag", ok=True, flight="LH2074")
    Q.time("when", "What time did you load the last bag onto LH2074?", mon,
           [es[-1].span])
    e = one(H.find("UnloadFlight", ok=True, day=FRI,
                   origin="London Heathrow"))
    Q.time("when", "When did the bags from the London flight come off on "
           "Friday?", mon, [e.span])
    e = one(H.find("DeliverItem", ok=True, item="stroller"))
    Q.time("when", "When did you bring the stroller to the gate?", mon,
           [e.span])
    es = H.find("LoadBag", flight="KL1782")
    Q.time("when", "When did you first load a bag for KL1782?", mon,
           [es[0].span])

    # ---- where --------------------------------------------------------
    e = one(H.find("UnloadFlight", ok=True, day=FRI,
                   origin="London Heathrow"))
    Q.words("where", "Which carousel did the London bags go to on "
            "Friday?", mon, [["carousel %d" % e.args["carousel"]]], e.t1,
            "carousel %d" % e.args["carousel"])
    e = one(H.find("DeliverItem", ok=True, owner=PETER))
    Q.words("where", "Where did you take the Novaks' stroller?", mon,
            [["gate " + e.args["gate"], e.args["gate"]]], e.t1,
            "gate " + e.args["gate"])
    e = one(H.find("RecoverBag", ok=True, owner=LUCIA))
    Q.words("where", "Where did you find Lucia Romano's suitcase?", mon,
            [[e.args["found_at"], "oversize"]], e.t1, e.args["found_at"])
    o = one(H.note(contains="misrouted"))
    Q.words("where", "Where did the misrouted Munich bag end up?", mon,
            [[grab(r"to (carousel \d+)", o["note"])]], o["_t"],
            grab(r"to (carousel \d+)", o["note"]))
    e = one(H.find("WeighBag", ok=False))
    Q.words("where", "Where did you send the overweight bag?", mon,
            [[grab(r"back to ([\w -]+\d+)", e.line["note"]), "check in"]],
            e.t1, grab(r"back to ([\w -]+\d+)", e.line["note"]))

    # ---- day ----------------------------------------------------------
    es = H.find("UnloadFlight", ok=True, origin="Palma de Mallorca")
    Q.day("day", "What day did you first unload a Palma flight?", mon,
          [day_of(es[0].t0)], es[0].t1)
    o = one(H.note(start="Carousel 5 stopped"))
    Q.day("day", "On which day did carousel 5 lose power?", mon,
          [day_of(o["_t"])], o["_t"])
    (tt, who, text) = one(H.said(contains="delayed"))
    Q.day("day", "What day was the Amsterdam flight delayed?", mon,
          [day_of(tt)], tt)

    # ---- who ----------------------------------------------------------
    o = one(H.note("Belt 3 jammed"))
    who = grab(r"; (\w+) cleared it", o["note"])
    Q.words("who", "Who cleared belt 3 on Friday?", mon, [[who, SAM]],
            o["_t"], who)
    (tt, who, text) = one(H.said(contains="hold all bags"))
    Q.words("who", "Who told you to hold the Amsterdam bags?", mon,
            [[who, "Ilse", "Moreau", "supervisor"]], tt, who)
    e = one(H.find("DeliverItem", ok=True, item="stroller"))
    Q.words("who", "Whose stroller was it?", mon,
            [[e.args["owner"], "Novak", "Peter"]], e.t1, e.args["owner"])
    (tt, who, text) = one(H.said(contains="red hard-shell"))
    Q.words("who", "Who was missing a red suitcase?", mon,
            [[who, "Lucia", "Romano"]], tt, who)
    (tt, who, text) = one(H.said(contains="stroller", speaker=FARID))
    Q.words("who", "Who asked you to bring the stroller to the gate?", mon,
            [[who, "Farid", "Haddad", "gate agent"]], tt, who)

    # ---- say ----------------------------------------------------------
    (tt, who, text) = one(H.said(speaker=ILSE, contains="KL1782"))
    Q.words("say", "What did Ilse say about KL1782?", mon,
            must_contain(text, ["delayed"]) + [["16:00", "hold*", "4 pm",
                                                "16 00"]], tt, text)
    (tt, who, text) = one(H.said(speaker=ROBOT, contains="oversize"))
    Q.words("say", "What did you tell Lucia when you found her suitcase?",
            mon, must_contain(text, ["oversize counter"]), tt, text)
    (tt, who, text) = one(H.said(speaker=LUCIA, contains="suitcase"))
    Q.words("say", "What did Lucia's suitcase look like?", mon,
            must_contain(text, ["red"]) + [["hard shell", "hardshell"]],
            tt, text, k=1)
    o = one(H.note(start="Shift handover"))
    Q.words("say", "What did Ilse write in the shift handover?", mon,
            [["short shipped", "short-shipped", "3 bags", "three bags"],
             ["first flight", "tomorrow", "KL1782"]], o["_t"], o["note"])
    (tt, who, text) = one(H.said(speaker=ILSE, day=SUN))
    Q.words("say", "What did the supervisor tell you to do on Sunday "
            "morning?", mon, must_contain(text, ["twice"]) +
            [["scan*", "tag*"]], tt, text)

    # ---- see ----------------------------------------------------------
    e = one(H.find("RecoverBag", ok=True))
    seen = sorted({o["type"] for o in e.line.get("objects") or []})
    Q.words("see", "What was at the oversize counter when you found the "
            "red suitcase?", mon, [[c] for c in seen], e.t1,
            ", ".join(seen), k=(len(seen) + 1) // 2)

    # ---- which --------------------------------------------------------
    e = one(H.find("LoadBag", ok=True, tag="LH 220455"))
    Q.words("which", "Which container did bag LH 220455 go into?", mon,
            [[e.args["uld"], e.args["uld"].split()[1]]], e.t1,
            e.args["uld"])
    e = one(H.find("RecoverBag", ok=True, tag="BA 771302"))
    Q.words("which", "Which flight did bag BA 771302 come in on?", mon,
            [[e.args["flight"]]], e.t1, e.args["flight"])
    e = one(H.find("DeliverItem", ok=True, flight="LH2074"))
    Q.words("which", "Which gate was LH2074 at?", mon,
            [["gate " + e.args["gate"], e.args["gate"]]], e.t1,
            "gate " + e.args["gate"])
    o = one(H.note(contains="fixed belt 3"))
    Q.words("who", "Who fixed belt 3 on Saturday?", mon,
            [[grab(r"Technician (\w+)", o["note"])]], o["_t"],
            grab(r"Technician (\w+)", o["note"]))

    # ---- count --------------------------------------------------------
    es = H.find("LoadBag", ok=True, flight="LH2074")
    Q.count("count", "How many bags did you load onto LH2074?", mon,
            len(es), es[-1].t1)
    total = sum(x.args["weight_kg"] for x in es)
    assert total == int(total), total
    Q.count("count", "How much did the LH2074 bags weigh altogether, in "
            "kg?", mon, int(total), es[-1].t1)
    e = one(H.find("UnloadFlight", ok=True, flight="EW9040"))
    Q.count("count", "How many bags came off the Palma flight on "
            "Saturday?", mon, e.args["bags"], e.t1)
    es = H.find("UnloadFlight", ok=True, day=SAT)
    Q.count("count", "How many bags did you unload on Saturday in total?",
            mon, sum(x.args["bags"] for x in es), es[-1].t1)
    o = one(H.note(start="Shift handover"))
    Q.count("count", "How many bags were short-shipped on KL1782?", mon,
            int(grab(r"(\d+) bags short", o["note"])), o["_t"])
    es = H.find("UnloadFlight", ok=True)
    Q.count("count", "How many flights did you unload this weekend?",
            sun_pm, len(es), es[-1].t1)

    # ---- yes / no -----------------------------------------------------
    es = H.find("LoadBag", day=FRI, flight="KL1782")
    Q.yesno("yesno", "Did you load any bags onto KL1782 on Friday?", mon,
            bool(es), es[-1].t1 if es else None)
    es = H.find("RecoverBag", ok=True, owner=LUCIA)
    Q.yesno("yesno", "Did you find Lucia Romano's suitcase?", mon, bool(es),
            es[-1].t1)
    es = H.find("LoadBag", tag="KL 118004")
    Q.yesno("yesno", "Was the overweight bag loaded?", mon, bool(es), None)
    es = H.find("DeliverItem", gate="A7")
    Q.yesno("yesno", "Did you deliver anything to gate A7?", mon, bool(es),
            None)

    # ---- failed -------------------------------------------------------
    e = one(H.find("ClearJam", ok=False, day=SAT))
    Q.words("failed", "Why couldn't you clear belt 3 on Saturday?", mon,
            [["stroller wheel", "wheel", "rollers", "technician"]], e.t1,
            e.line["note"])
    e = one(H.find("WeighBag", ok=False))
    Q.words("failed", "Why did you send bag KL 118004 back?", mon,
            [["overweight", "31.5", "limit", "too heavy"]], e.t1,
            e.line["note"])
    e = one([x for x in H.runs if x.status == "aborted" and
             day_of(x.t0) == SUN])
    Q.words("failed", "What didn't you finish on Sunday?", mon,
            [[e.args["tag"], e.args["tag"].split()[1], e.args["uld"]]],
            e.t1,
            "%s %s (%s)" % (e.name, e.args, e.line.get("note")))
    e = one([x for x in H.runs if x.status == "aborted" and
             day_of(x.t0) == SUN])
    Q.words("failed", "Why did you stop loading AKE 1302?", mon,
            [["latch", "door"]], e.t1, e.line["note"])
    return Q.items, H


if __name__ == "__main__":
    import sys
    print(write(sys.argv[1] if len(sys.argv) > 1 else "baggage.jsonl"),
          "observations")
