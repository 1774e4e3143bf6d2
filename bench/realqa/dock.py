"""Held out, untuned: a quay robot ("Kestrel") at a container terminal,
Tuesday 2026-01-13 to Thursday 2026-01-15.

A logbook, not an action list: no observation has an `action`, a `goal` or
a status.  Each entry is a span (`t` .. `t_end`) with a free-form `note`
in the robot's own words ("Made fast MV Nordlicht at berth 4 ...", "Could
not reach bollard 17: ..."), the `location`, who was there as `{name, id}`
persons, several utterances in one `speech` array, and what it looked at as
`objects` with string states and top-level `relations` in the array form.
Standby entries span the quiet time between jobs.  The robot speaks as
"Kestrel"; no robot profile.

The truth is read back from the written lines (`Logbook`): an event is the
entry whose note begins with its verb, and its details are read from the
note's words, the persons, the speech and the objects of that entry, never
from the generator's variables.  The questions are a harbour master's and
a shift lead's, written before h2emv was asked them; nobody tuned on them
(docs/realqa.md, "Held out, untuned").
"""

import json
import random
import re

from common import grab, one, QuestionSet, Span, day_of, iso, parse_time, must_contain

SEED = 20260113
TUE, WED, THU = "2026-01-13", "2026-01-14", "2026-01-15"
ROBOT = "Kestrel"

CREW = {
    "Piet Jansen": "hm-01",          # harbour master
    "Aylin Demir": "crane-07",       # crane operator
    "Sven Holm": "nordlicht-cpt",    # captain of MV Nordlicht
    "Maarten de Vries": "pilot-3",   # pilot
    "Kofi Mensah": "lash-12",        # lasher
    "Greta Lund": "aurora-cpt",      # captain of MV Aurora
}


class Writer:
    def __init__(self, seed=SEED):
        self.rng = random.Random(seed)
        self.lines = []
        self.clock = 0.0
        self.here = "quay shed"

    def start(self, day, hhmm):
        t = parse_time("%sT%s:00Z" % (day, hhmm)) + self.rng.randint(0, 180)
        t = max(t, self.clock + 20)
        # standby entries, each a span of up to 10 minutes, 05:00-21:00
        s = self.clock
        while self.clock and s + 300 < t - 60:
            e = min(s + 600, t - 60)
            if 5 <= (int(s) // 3600) % 24 < 21:
                self.entry(s + 5, e, self.here, "Standby, battery %d %%."
                           % self.rng.randint(55, 98))
            s = e
        return t

    def entry(self, t, t_end, where, note, persons=(), speech=(),
              objects=(), relations=()):
        line = {"t": iso(t), "t_end": iso(t_end), "location": where,
                "note": note}
        if persons:
            line["persons"] = [{"name": p, "id": CREW[p]} for p in persons]
        if speech:
            line["speech"] = [{"speaker": s, "text": x} for s, x in speech]
        if objects:
            line["objects"] = list(objects)
        if relations:
            line["relations"] = [list(r) for r in relations]
        self.lines.append(line)
        self.clock = max(self.clock, t_end)

    def job(self, day, hhmm, where, note, minutes=(5, 20), **kw):
        t0 = self.start(day, hhmm)
        t1 = t0 + 60 * self.rng.randint(*minutes) + self.rng.randint(0, 59)
        self.entry(t0, t1, where, note, **kw)
        self.here = where
        return t0, t1

    def radio(self, day, hhmm, where, utterances, persons=()):
        t0 = self.start(day, hhmm)
        ppl = sorted(set(list(persons) + [s for s, _ in utterances
                                          if s != ROBOT]))
        self.entry(t0, t0 + 15 * len(utterances), where,
                   "Radio call.", persons=ppl, speech=utterances)
        self.here = where

    def write(self, path):
        with open(path, "w", encoding="utf-8") as f:
            for ln in self.lines:
                f.write(json.dumps(ln, ensure_ascii=False) + "\n")
        return len(self.lines)


def box(cid, state=None):
    o = {"id": cid.replace(" ", ""), "type": "container"}
    if state:
        o["state"] = state
    return o


def generate(seed=SEED):
    w = Writer(seed)
    P, A, S, M, K, G = ("Piet Jansen", "Aylin Demir", "Sven Holm",
                        "Maarten de Vries", "Kofi Mensah", "Greta Lund")

    # ----- Tuesday ------------------------------------------------------
    d = TUE
    w.job(d, "06:10", "berth 4", "Made fast MV Nordlicht at berth 4: bow, "
          "stern and two spring lines on bollards 11 to 14.",
          persons=[S, K], objects=[{"id": "bollard_11", "type": "bollard"},
                                   {"id": "bollard_14", "type": "bollard"}])
    w.job(d, "07:30", "berth 4", "Carried the pilot's bag from the gangway "
          "of MV Nordlicht to the pilot boat.", minutes=(4, 8),
          persons=[M], objects=[{"id": "bag_p", "type": "holdall"}],
          relations=[("bag_p", "pilot boat", "on")])
    w.radio(d, "08:20", "quay shed", [
        (P, "Kestrel, a skipper says the fender at berth 2 is damaged, go "
            "and have a look."),
        (ROBOT, "On my way to berth 2.")])
    w.job(d, "08:35", "berth 2", "Inspected the fender at berth 2: the "
          "rubber is torn over half a metre; reported to the harbour "
          "master.", objects=[{"id": "fender_b2", "type": "fender",
                               "state": "torn"}])
    w.job(d, "10:00", "bay 12", "Checked the lashing of container MSKU "
          "447120 on bay 12: two twistlocks loose, tightened them.",
          persons=[K], objects=[box("MSKU 447120", "lashed")],
          relations=[("MSKU447120", "MV Nordlicht", "on")])
    w.job(d, "10:40", "bay 12", "Checked the lashing of container TGHU "
          "880231 on bay 12: all fine.", objects=[box("TGHU 880231",
                                                      "lashed")],
          relations=[("TGHU880231", "MV Nordlicht", "on")])
    w.job(d, "13:00", "berth 6", "Made fast MV Aurora at berth 6: four "
          "lines on bollards 21 to 24.", persons=[G],
          objects=[{"id": "bollard_21", "type": "bollard"}])
    w.job(d, "14:20", "berth 6", "Read the draft marks of MV Aurora: 7.4 m "
          "forward, 7.9 m aft.", minutes=(3, 6),
          objects=[{"id": "hull_aurora", "type": "hull"}])
    w.job(d, "16:00", "quay shed", "Stowed the spare mooring line in "
          "locker 3 of the quay shed.", minutes=(2, 4),
          objects=[{"id": "line_s", "type": "mooring line"},
                   {"id": "locker_3", "type": "locker"}],
          relations=[("line_s", "locker_3", "in")])
    w.job(d, "19:30", "quay shed", "Charging at the quay shed.",
          minutes=(40, 60))

    # ----- Wednesday ----------------------------------------------------
    d = WED
    w.job(d, "06:30", "slipway 2", "Cleared a fishing net from the "
          "propeller guard of the workboat at slipway 2.",
          objects=[{"id": "net_1", "type": "fishing net"},
                   {"id": "workboat_1", "type": "workboat"}])
    w.job(d, "07:05", "slipway 2", "Spotted a seal resting on slipway 2; "
          "kept clear of it.", minutes=(1, 3),
          objects=[{"id": "seal_1", "type": "seal"},
                   {"id": "buoy_4", "type": "buoy"}])
    w.job(d, "09:00", "berth 4", "Cast off MV Nordlicht from berth 4.",
          persons=[S, K],
          speech=[(S, "Thanks Kestrel, see you next Tuesday, we are back "
                      "with a full load."),
                  (ROBOT, "Fair winds, Captain Holm.")])
    w.job(d, "09:30", "berth 4", "Coiled the Nordlicht's old lines and "
          "took them to the quay shed.", minutes=(5, 10),
          objects=[{"id": "coil_1", "type": "rope coil"}])
    w.job(d, "11:15", "bollard 17", "Could not reach bollard 17: the quay "
          "was blocked by a reach stacker.", minutes=(1, 3),
          objects=[{"id": "stacker_2", "type": "reach stacker"}])
    w.job(d, "14:10", "fuel pier", "Refuelled the tug Bjorn at the fuel "
          "pier: 1200 litres of diesel.", minutes=(15, 25),
          objects=[{"id": "tug_bjorn", "type": "tug"},
                   {"id": "pump_2", "type": "fuel pump"}])
    w.radio(d, "15:30", "reefer yard", [
        (A, "Kestrel, reefer MSKU 553001 is showing an alarm, can you "
            "check it?"),
        (ROBOT, "Checking MSKU 553001 now.")])
    w.job(d, "15:40", "reefer yard", "Counted 48 reefer containers in the "
          "reefer yard; MSKU 553001 reads 9 degrees, 4 above its set "
          "point.", minutes=(10, 20),
          objects=[box("MSKU 553001", "alarm"),
                   {"id": "tower_r", "type": "power tower"}],
          speech=[(ROBOT, "Aylin, MSKU 553001 reads 9 degrees, 4 above its "
                          "set point; I have logged it.")],
          persons=[A])
    w.job(d, "19:45", "quay shed", "Charging at the quay shed.",
          minutes=(40, 60))

    # ----- Thursday -----------------------------------------------------
    d = THU
    w.radio(d, "06:00", "quay shed", [
        (P, "A storm is coming tonight. Double the lines on every ship "
            "along the quay."),
        (ROBOT, "Understood, doubling the lines.")])
    w.job(d, "06:30", "berth 6", "Doubled the mooring lines of MV Aurora "
          "at berth 6 ahead of the storm.", persons=[G],
          objects=[{"id": "bollard_21", "type": "bollard"}])
    w.job(d, "08:30", "bay 20", "Checked the lashing of container CMAU "
          "301977 on bay 20: one lashing rod bent, replaced it.",
          persons=[K], objects=[box("CMAU 301977", "lashed")],
          relations=[("CMAU301977", "MV Aurora", "on")])
    w.job(d, "09:20", "bay 20", "Stopped the lashing round at bay 20: wind "
          "gusts above 20 m/s.", minutes=(1, 2),
          objects=[{"id": "anemometer_1", "type": "anemometer"}])
    w.job(d, "11:00", "berth 2", "Inspected the fender at berth 2 again: "
          "a new fender has been fitted.", minutes=(3, 6),
          objects=[{"id": "fender_b2n", "type": "fender", "state": "new"}])
    w.job(d, "13:30", "gatehouse", "Escorted the customs officer from the "
          "gatehouse to MV Aurora.", minutes=(6, 10),
          persons=[G])
    w.job(d, "15:00", "quay shed", "Took the spare mooring line out of "
          "locker 3 and laid it at berth 6 for the storm.",
          minutes=(3, 6), objects=[{"id": "line_s", "type": "mooring line"}],
          relations=[("line_s", "berth 6", "at")])
    w.job(d, "18:00", "quay shed", "Charging at the quay shed.",
          minutes=(40, 60))
    return w


def write(path, seed=SEED):
    return generate(seed).write(path)


class Entry:
    def __init__(self, o):
        self.o = o
        self.t0 = parse_time(o["t"])
        self.t1 = parse_time(o.get("t_end") or o["t"])
        self.note = o.get("note", "")
        self.where = o.get("location", "")
        self.persons = [p.get("name") or p.get("id")
                        for p in o.get("persons") or []]
        self.speech = [(u.get("speaker", ""), u["text"])
                       for u in o.get("speech") or []]
        self.objects = o.get("objects") or []

    @property
    def span(self):
        return Span(self.t0, self.t1, self.note[:30])

    def __repr__(self):
        return "%s %s" % (self.span, self.note)


class Logbook:
    """The written lines read back: one entry per line, its note, who was
    there and what was said."""

    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            self.entries = [Entry(json.loads(x)) for x in f if x.strip()]

    def find(self, start=None, contains=None, day=None):
        """Entries whose note begins with `start` (a verb) and contains
        `contains`, on `day`."""
        out = []
        for e in self.entries:
            if start and not e.note.startswith(start):
                continue
            if contains and contains.lower() not in e.note.lower():
                continue
            if day and day_of(e.t0) != day:
                continue
            out.append(e)
        return out

    def said(self, speaker=None, contains=None, day=None):
        return [(e.t0, s, x) for e in self.entries for s, x in e.speech
                if (not speaker or s == speaker) and
                (not day or day_of(e.t0) == day) and
                (not contains or contains.lower() in x.lower())]

    def jobs(self):
        """Entries that record work: not standby, radio or charging."""
        return [e for e in self.entries
                if not e.note.startswith(("Standby", "Radio", "Charging"))]




def questions(path):
    B = Logbook(path)
    Q = QuestionSet("dock")
    fri = "2026-01-16T09:00:00Z"      # Friday morning
    thu_pm = "2026-01-15T20:30:00Z"   # Thursday evening

    # ---- when ---------------------------------------------------------
    e = one(B.find("Made fast", "Nordlicht"))
    Q.time("when", "When did you tie up the Nordlicht?", fri, [e.span])
    e = one(B.find("Cast off", "Nordlicht"))
    Q.time("when", "what time did the Nordlicht leave?", fri, [e.span])
    es = B.find("Checked the lashing")
    Q.time("when", "When was the last time you checked the lashings on a "
           "container?", fri, [es[-1].span])
    e = one(B.find("Spotted", "seal"))
    Q.time("when", "When did you see the seal?", fri, [e.span])
    e = one(B.find("Refuelled", day=WED))
    Q.time("when", "What time did you fuel up the tug yesterday "
           "afternoon?", thu_pm, [e.span])

    # ---- where --------------------------------------------------------
    e = one(B.find("Made fast", "Aurora"))
    Q.words("where", "Where is the Aurora berthed?", fri,
            [[grab(r"at (berth \d+)", e.note)]], e.t1,
            grab(r"at (berth \d+)", e.note))
    e = one(B.find("Inspected the fender", "torn"))
    Q.words("where", "Where was the torn fender?", fri,
            [[grab(r"at (berth \d+)", e.note)]], e.t1,
            grab(r"at (berth \d+)", e.note))
    e = one(B.find("Carried the pilot"))
    Q.words("where", "Where did you take the pilot's bag to?", fri,
            [[grab(r"to the (pilot boat)", e.note)]], e.t1, "pilot boat")
    e = one(B.find("Cleared a fishing net"))
    Q.words("where", "where was that fishing net stuck?", fri,
            [["propeller*", "slipway 2", "workboat"]], e.t1, e.note)
    e = one(B.find("Stowed", "spare mooring line"))
    Q.words("where", "Where did you leave the spare mooring line on "
            "Tuesday?", fri, [["locker 3", "locker"]], e.t1,
            grab(r"in (locker \d+)", e.note), none=["berth 6"])
    es = B.find("Took the spare mooring line")
    Q.words("where", "Where's the spare line now?", fri,
            [["berth 6"]], es[-1].t1, grab(r"at (berth \d+)", es[-1].note),
            none=["locker"])

    # ---- day ----------------------------------------------------------
    e = one(B.find("Read the draft", "Aurora"))
    Q.day("day", "Which day did you read the Aurora's draft?", fri,
          [day_of(e.t0)], e.t1)
    e = one(B.find("Could not reach", "reach stacker"))
    Q.day("day", "What day was the reach stacker in your way?", fri,
          [day_of(e.t0)], e.t1)

    # ---- who ----------------------------------------------------------
    (tt, who, text) = one(B.said(contains="fender"))
    Q.words("who", "Who sent you to look at the fender at berth 2?", fri,
            [[who, "Jansen", "Piet", "harbour master", "harbor master"]],
            tt, who)
    e = one(B.find("Carried the pilot"))
    Q.words("who", "Whose bag did you carry on Tuesday morning?", fri,
            [e.persons + ["de Vries", "Maarten", "pilot"]], e.t1,
            ", ".join(e.persons))
    e = one(B.find("Cast off", "Nordlicht"))
    Q.words("who", "Who was on the quay with you when the Nordlicht cast "
            "off?", fri, [[p, p.split()[-1]] for p in e.persons], e.t1,
            ", ".join(e.persons), k=1)
    (tt, who, text) = one(B.said(contains="alarm"))
    Q.words("who", "Who called you about the reefer alarm?", fri,
            [[who, "Aylin", "Demir", "crane operator"]], tt, who)

    # ---- say ----------------------------------------------------------
    (tt, who, text) = one(B.said(speaker="Sven Holm"))
    Q.words("say", "What did the Nordlicht's captain say when you cast "
            "off?", fri, must_contain(text, ["Tuesday"]) +
            [["back", "see you"]], tt, text)
    (tt, who, text) = one(B.said(speaker="Piet Jansen", contains="storm"))
    Q.words("say", "What did Piet say about the storm?", fri,
            must_contain(text, ["storm"]) + [["double*", "lines"]], tt,
            text)
    (tt, who, text) = one(B.said(speaker=ROBOT, contains="set point"))
    Q.words("say", "What did you tell Aylin about the reefer?", fri,
            must_contain(text, ["9 degrees"]) + [["set point", "553001",
                                                   "logged"]], tt, text)

    # ---- see ----------------------------------------------------------
    e = one(B.find("Spotted", "seal"))
    seen = sorted({o["type"] for o in e.objects})
    Q.words("see", "What did you see on slipway 2 on Wednesday morning?",
            fri, [["seal"]], e.t1, ", ".join(seen))

    # ---- which --------------------------------------------------------
    e = one(B.find("Checked the lashing", "twistlocks loose"))
    cid = grab(r"container (\w+ \d+)", e.note)
    Q.words("which", "Which container had the loose twistlocks?", fri,
            [[cid, cid.replace(" ", ""), cid.split()[1]]], e.t1, cid)
    e = one(B.find("Refuelled"))
    Q.words("which", "Which boat did you refuel?", fri,
            [["Bjorn"]], e.t1, grab(r"the (tug \w+)", e.note))
    e = one(B.find("Read the draft", "Aurora"))
    Q.words("which", "what were the aurora's draft readings?", fri,
            [["7.4"], ["7.9"]], e.t1, e.note)
    e = one(B.find("Cast off", "Nordlicht"))
    nxt = [x for x in B.jobs() if x.t0 >= e.t1][0]
    Q.words("which", "What did you do right after the Nordlicht left?", fri,
            [["coil*", "old lines", "lines"]], nxt.t1, nxt.note)

    # ---- count --------------------------------------------------------
    es = B.find("Checked the lashing")
    Q.count("count", "How many containers did you check the lashings on "
            "this week?", fri, len(es), es[-1].t1)
    es = B.find("Made fast", day=TUE)
    Q.count("count", "How many ships did you moor on Tuesday?", fri,
            len(es), es[-1].t1)
    e = one(B.find("Refuelled"))
    Q.count("count", "How many litres of diesel went into the tug?", fri,
            int(grab(r"(\d+) litres", e.note)), e.t1)
    e = one(B.find("Counted", "reefer"))
    Q.count("count", "how many reefers were in the yard when you counted "
            "them?", fri, int(grab(r"Counted (\d+)", e.note)), e.t1)

    # ---- yes / no -----------------------------------------------------
    es = B.find("Made fast", "berth 5")
    Q.yesno("yesno", "Did you ever moor a ship at berth 5?", fri, bool(es),
            None)
    es = B.find("Doubled", "Aurora")
    Q.yesno("yesno", "Did you double up the Aurora's lines before the "
            "storm?", fri, bool(es), es[-1].t1 if es else None)
    es = B.find("Could not reach", "reach stacker")
    Q.yesno("yesno", "did the reach stacker get in ur way?", fri, bool(es),
            es[-1].t1 if es else None)
    es = B.find("Refuelled", day=THU)
    Q.yesno("yesno", "Did you refuel anything on Thursday?", fri, bool(es),
            None)

    # ---- failed -------------------------------------------------------
    e = one(B.find("Could not reach", "bollard 17"))
    Q.words("failed", "What went wrong at bollard 17?", fri,
            [["reach stacker", "blocked"]], e.t1, e.note)
    es = [x for x in B.jobs() if day_of(x.t0) == THU and
          x.note.startswith(("Could not", "Stopped"))]
    Q.words("failed", "Why did you stop the lashing round on Thursday?",
            fri, [["wind", "gust*", "storm"]], es[-1].t1, es[-1].note)
    es = [x for x in B.jobs() if day_of(x.t0) == WED and
          x.note.startswith(("Could not", "Stopped"))]
    Q.words("failed", "Was there anything you couldn't do on Wednesday?",
            fri, [["bollard 17", "reach stacker", "blocked"]], es[-1].t1,
            "; ".join(x.note for x in es))
    return Q.items, B


if __name__ == "__main__":
    import sys
    print(write(sys.argv[1] if len(sys.argv) > 1 else "dock.jsonl"),
          "observations")
