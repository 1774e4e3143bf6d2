"""Fresh and untuned (written 2026-11-28, ninth fresh round): "Rivet", the
engine-room robot of the bulk carrier MV Anna Sophie on passage from
Colombo to Singapore, Monday 2026-11-09 to Wednesday 2026-11-11, ship's
time (+05:30).

A history in a shape of its own: times with a "T", MICROSECONDS and a
half-hour offset ("2026-11-09T06:10:42.118034+05:30"; every line falls
between 06:00 and 19:00 ship's time, so the ship's and the UTC day agree);
each job is ONE line from `t` to `t_end`, skill names in Title Case WITH
SPACES (`Take Readings`, `Sound Tank`, `Clean Purifier`, `Transfer Fuel`,
`Pump Bilge`, `Fetch Spare`, `Bring Tool`, `Change Filter`, `Inspect`,
`Escort`, `Fire Round`, `Clean Strainer`), statuses capitalised;
quantities in the args as VALUE-UNIT OBJECTS (`"vol": {"v": 38.6, "u":
"m3"}`), a failure's reason in a `fault` key; the gauge readings of a
round NOT in the args but as the machines' object states (`{"id": "ME",
"type": "main engine", "state": {"rpm": 96, "exh_c": 342, "lo_bar":
4.2}}`); the engine log as notes that begin with the four-digit ship's
time ("1415 DG2 tripped on ..."); the bridge's calls as raw speech (a bare
string, no speaker); crew present as `{name, id}` with the rank as the id
and speakers by rank ("C/E", "2/E", "3/E", "Cadet"), in notes by rank and
surname ("2/E Osei", "Oiler Ramos"); the robot speaking as "Rivet"; things
found on a round or in a strainer seen as objects with a state word and
an `at` relation.  No robot profile.

The truth is read back from the written lines (`EngineLog`), never from
the generator's variables.  The questions are the chief engineer's, the
second engineer's and the cadet's, written before h2emv was asked them;
nobody tuned on them (docs/realqa.md, "A ninth fresh untuned source pair
(brewery, engineroom), 2026-11-28").
"""

import datetime as _dt
import json
import random

from common import QuestionSet, Span, day_of, must_contain, one, \
    parse_time, variants

SEED = 20270301
MON, TUE, WED = "2026-11-09", "2026-11-10", "2026-11-11"
SHIP = _dt.timezone(_dt.timedelta(hours=5, minutes=30))
CHIEF = {"name": "Ivan Petrov", "id": "C/E"}
SECOND = {"name": "Kwame Osei", "id": "2/E"}
THIRD = {"name": "Ravi Menon", "id": "3/E"}
OILER = {"name": "Jun Ramos", "id": "Oiler"}
CADET = {"name": "Lena Hoff", "id": "Cadet"}


def stamp(t_us):
    s, us = divmod(t_us, 1000000)
    return _dt.datetime.fromtimestamp(s, SHIP).strftime(
        "%Y-%m-%dT%H:%M:%S") + ".%06d+05:30" % us


def q(v, u):
    return {"v": v, "u": u}


class Writer:
    def __init__(self, seed=SEED):
        self.rng = random.Random(seed)
        self.lines = []
        self.here = "engine control room"

    def at(self, day, hhmm):
        t = int(parse_time("%sT%s:00+05:30" % (day, hhmm)))
        return t * 1000000 + self.rng.randint(0, 40 * 1000000)

    def line(self, t_us, **f):
        ln = {"t": stamp(t_us)}
        ln.update({k: v for k, v in f.items() if v not in (None, [], "")})
        self.lines.append(ln)
        return t_us

    def job(self, day, hhmm, name, args, minutes, status="Succeeded",
            where=None, persons=(), seen=(), note=None):
        where = where or self.here
        t = self.at(day, hhmm)
        t_end = t + int(minutes * 60 * 1000000) + \
            self.rng.randint(0, 30 * 1000000)
        self.line(t, t_end=stamp(t_end), location=where,
                  action={"name": name, "args": args, "status": status},
                  persons=[dict(p) for p in persons], objects=list(seen),
                  note=note)
        self.here = where
        return t_end

    def say(self, day, hhmm, speaker, text, where=None, persons=()):
        where = where or self.here
        sp = text if speaker is None else {"speaker": speaker, "text": text}
        self.line(self.at(day, hhmm), location=where,
                  persons=[dict(p) for p in persons], speech=sp)

    def log(self, day, hhmm, text, where=None, persons=(), seen=()):
        """An engine log entry: the text starts with the ship's time."""
        where = where or self.here
        t = int(parse_time("%sT%s:00+05:30" % (day, hhmm)))
        t_us = (t + 60 + self.rng.randint(0, 120)) * 1000000
        self.line(t_us, location=where, note=hhmm.replace(":", "") + " " +
                  text, persons=[dict(p) for p in persons],
                  objects=list(seen))

    def write(self, path):
        with open(path, "w", encoding="utf-8") as f:
            for ln in sorted(self.lines, key=lambda x: x["t"]):
                f.write(json.dumps(ln, ensure_ascii=False) + "\n")
        return len(self.lines)


def machine(mid, typ, **state):
    return {"id": mid, "type": typ, "state": state}


def thing(tid, typ, state, at):
    return {"id": tid, "type": typ, "state": state,
            "relations": [{"to": at, "type": "at"}]}


def readings(w, d, hhmm, rpm, dgs, steam):
    seen = [machine("ME", "main engine", rpm=rpm,
                    exh_c=300 + rpm // 2 + w.rng.randint(-4, 4),
                    lo_bar=round(w.rng.uniform(4.0, 4.4), 1))]
    for dg, kw in dgs:
        st = {"kw": kw, "ht_c": w.rng.randint(78, 86)} if kw else \
            {"running": False}
        seen.append(machine(dg, "diesel generator", **st))
    seen.append(machine("AB1", "boiler", steam_bar=steam))
    w.job(d, hhmm, "Take Readings", {"round": "UMS round"}, 20,
          where="engine room", seen=seen)


def monday(w):
    d = MON
    readings(w, d, "06:10", 96, [("DG1", 420), ("DG2", 410)], 6.8)
    w.job(d, "07:00", "Sound Tank", {"tank": "FO 3P", "ullage": q(142, "cm"),
                                     "vol": q(38.6, "m3")}, 8,
          where="tank deck")
    w.job(d, "07:15", "Sound Tank", {"tank": "FO 3S", "ullage": q(130, "cm"),
                                     "vol": q(41.2, "m3")}, 8,
          where="tank deck")
    w.say(d, "08:00", "C/E", "Rivet, clean the HFO purifier this morning, "
          "it keeps alarming on sludge.", "engine control room",
          persons=[CHIEF])
    w.say(d, "08:01", "Rivet", "Understood, Chief. I will open up the HFO "
          "purifier after the tank soundings.", "engine control room",
          persons=[CHIEF])
    w.job(d, "08:30", "Clean Purifier", {"unit": "HFO purifier No.1",
                                         "bowl_discs": 92}, 100,
          where="purifier room")
    w.log(d, "09:45", "HFO purifier bowl: heavy sludge, about 3 litres. "
          "Discs cleaned, new O-ring fitted.", "purifier room")
    w.job(d, "10:40", "Transfer Fuel", {"from": "FO 3P",
                                        "to": "HFO settling tank",
                                        "qty": q(12, "m3")}, 40,
          where="engine control room")
    w.say(d, "11:50", None, "Engine room, bridge. Reduce to 85 rpm at "
          "twelve hundred, heavy weather ahead.", "engine control room")
    w.say(d, "11:51", "Rivet", "Bridge, engine room. 85 rpm at twelve "
          "hundred, understood.", "engine control room")
    w.log(d, "12:00", "ME reduced to 85 rpm on bridge order, heavy "
          "weather.", "engine control room")
    w.log(d, "14:15", "DG2 tripped on HT cooling water high temperature "
          "(96 C). 2/E Osei started DG3 and put it on the board.",
          "engine room", persons=[SECOND])
    w.job(d, "14:40", "Inspect", {"target": "DG2 HT cooling water pump",
                                  "finding": "impeller worn, two vanes "
                                             "broken"}, 25,
          where="engine room", persons=[SECOND])
    w.job(d, "15:30", "Fetch Spare", {"part": "HT pump impeller",
                                      "part_no": "DG-4471",
                                      "qty": q(1, "pc"),
                                      "from": "spare parts store",
                                      "for": "2/E"}, 20,
          where="spare parts store", persons=[SECOND])
    w.job(d, "17:00", "Pump Bilge", {"well": "aft bilge well",
                                     "to": "bilge holding tank",
                                     "qty": q(1.8, "m3")}, 30,
          where="engine room")
    readings(w, d, "18:00", 85, [("DG1", 430), ("DG3", 400)], 6.9)


def tuesday(w):
    d = TUE
    readings(w, d, "06:10", 85, [("DG1", 425), ("DG2", None), ("DG3", 395)],
             6.7)
    w.job(d, "07:00", "Sound Tank", {"tank": "FO 3P", "ullage": q(124, "cm"),
                                     "vol": q(31.0, "m3")}, 8,
          where="tank deck")
    w.job(d, "08:30", "Change Filter", {"filter": "ME LO auto filter",
                                        "cartridges": 6,
                                        "fault": "cover bolt seized"}, 20,
          status="Failed", where="engine room")
    w.log(d, "09:05", "ME LO filter cover bolt seized; Oiler Ramos freed it "
          "with penetrating oil.", "engine room", persons=[OILER])
    w.job(d, "09:20", "Change Filter", {"filter": "ME LO auto filter",
                                        "cartridges": 6}, 35,
          where="engine room", persons=[OILER])
    w.say(d, "10:00", "2/E", "Rivet, bring me the torque wrench and the 36 "
          "mm socket at DG2.", "engine room", persons=[SECOND])
    w.say(d, "10:01", "Rivet", "On my way with the torque wrench and the 36 "
          "mm socket.", "engine room", persons=[SECOND])
    w.job(d, "10:10", "Bring Tool", {"tool": "torque wrench",
                                     "with": "36 mm socket", "to": "DG2",
                                     "for": "2/E"}, 10,
          where="engine room", persons=[SECOND])
    w.log(d, "13:30", "DG2: new HT pump impeller fitted by 2/E Osei and "
          "Oiler Ramos; test run 30 min OK, back in service.",
          "engine room", persons=[SECOND, OILER])
    w.job(d, "14:00", "Escort", {"who": "Cadet Hoff",
                                 "to": "steering gear room",
                                 "purpose": "familiarisation"}, 30,
          where="steering gear room", persons=[CADET])
    w.job(d, "15:00", "Fire Round", {"route": "engine room, purifier room, "
                                              "steering gear room, "
                                              "emergency generator room"},
          35, where="purifier room",
          seen=[thing("rag_1", "oily rag", "fire risk", "purifier room"),
                thing("FE-12", "fire extinguisher", "pressure low",
                      "purifier room")])
    w.say(d, "15:40", "Rivet", "Chief, extinguisher FE-12 in the purifier "
          "room shows low pressure, and I removed an oily rag from the "
          "floor there.", "engine control room", persons=[CHIEF])
    w.say(d, "15:41", "C/E", "Good. Swap FE-12 for a spare from the CO2 "
          "room tomorrow morning.", "engine control room", persons=[CHIEF])
    w.job(d, "17:00", "Pump Bilge", {"well": "aft bilge well",
                                     "to": "overboard via OWS",
                                     "qty": q(0.4, "m3"),
                                     "fault": "oily water separator alarm, "
                                              "over 15 ppm"}, 10,
          status="Aborted", where="engine room")


def wednesday(w):
    d = WED
    readings(w, d, "06:10", 96, [("DG1", 415), ("DG2", 405)], 7.0)
    w.job(d, "07:00", "Sound Tank", {"tank": "FO 3S", "ullage": q(136, "cm"),
                                     "vol": q(39.0, "m3")}, 8,
          where="tank deck")
    w.job(d, "08:00", "Fetch Spare", {"part": "CO2 extinguisher",
                                      "part_no": "FE-S3", "qty": q(1, "pc"),
                                      "from": "CO2 room",
                                      "for": "purifier room"}, 15,
          where="purifier room")
    w.log(d, "08:30", "FE-12 replaced with spare FE-S3 from the CO2 room; "
          "FE-12 tagged for refill ashore.", "purifier room")
    w.job(d, "09:30", "Clean Strainer", {"strainer": "sea water strainer",
                                         "side": "port"}, 40,
          where="engine room",
          seen=[thing("bag_1", "plastic bag", "torn",
                      "sea water strainer"),
                thing("shells_1", "mussel shells", "crushed",
                      "sea water strainer")])
    w.say(d, "11:00", None, "Engine room, bridge. ETA Singapore pilot "
          "station tomorrow at 0600, we need full manoeuvring from 0500.",
          "engine control room")
    w.say(d, "11:01", "Rivet", "Bridge, engine room. Understood, we will "
          "be on standby from 0500.", "engine control room")
    w.log(d, "12:45", "3/E Menon cleaned the OWS sensor cell; 15 ppm alarm "
          "reset.", "engine room", persons=[THIRD])
    w.job(d, "13:00", "Pump Bilge", {"well": "aft bilge well",
                                     "to": "overboard via OWS",
                                     "qty": q(2.1, "m3")}, 35,
          where="engine room")
    w.job(d, "14:30", "Transfer Fuel", {"from": "FO 3S",
                                        "to": "HFO settling tank",
                                        "qty": q(10, "m3")}, 35,
          where="engine control room")
    w.say(d, "16:00", "Cadet", "Rivet, where is the emergency fire pump?",
          "engine control room", persons=[CADET])
    w.say(d, "16:01", "Rivet", "In the steering gear flat, starboard side, "
          "next to the emergency generator room door.",
          "engine control room", persons=[CADET])
    readings(w, d, "17:30", 96, [("DG1", 420), ("DG2", 410)], 6.9)


def generate(seed=SEED):
    w = Writer(seed)
    monday(w)
    tuesday(w)
    wednesday(w)
    return w


def write(path, seed=SEED):
    return generate(seed).write(path)


# ---------------------------------------------------------------------------
# The truth, read back from the lines

class Job:
    def __init__(self, o):
        a = o["action"]
        self.name, self.args = a["name"], a.get("args") or {}
        self.status = (a.get("status") or "").lower()
        self.t0 = o["_t"]
        self.t1 = parse_time(o["t_end"]) if o.get("t_end") else self.t0
        self.line = o

    @property
    def ok(self):
        return self.status == "succeeded"

    @property
    def span(self):
        return Span(self.t0, self.t1, self.name)

    def v(self, key):
        return self.args[key]["v"]


class EngineLog:
    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            self.obs = [json.loads(x) for x in f if x.strip()]
        for o in self.obs:
            o["_t"] = parse_time(o["t"])
        self.jobs = [Job(o) for o in self.obs if o.get("action")]
        self.notes = [o for o in self.obs if o.get("note")]
        self.speech = []
        for o in self.obs:
            s = o.get("speech")
            if isinstance(s, str):
                self.speech.append((o["_t"], None, s))
            elif s:
                self.speech.append((o["_t"], s.get("speaker"), s["text"]))

    def find(self, name=None, ok=None, day=None, **args):
        return [j for j in self.jobs
                if (not name or j.name == name) and
                (ok is None or j.ok == ok) and
                (not day or day_of(j.t0) == day) and
                all(j.args.get(k) == v for k, v in args.items())]

    def note(self, contains, day=None):
        return [o for o in self.notes if contains.lower() in
                o["note"].lower() and (not day or day_of(o["_t"]) == day)]

    def said(self, speaker="any", contains=None, day=None):
        return [(t, s, x) for t, s, x in self.speech
                if (speaker == "any" or s == speaker) and
                (not day or day_of(t) == day) and
                (not contains or contains.lower() in x.lower())]

    def state(self, job, mid):
        return one([x["state"] for x in job.line.get("objects", [])
                    if x["id"] == mid])

    def seen(self, job):
        return job.line.get("objects", [])


def note_t(o):
    """A log entry's own time: the four digits it starts with, on its day."""
    hhmm = o["note"][:4]
    assert hhmm.isdigit(), o["note"]
    return parse_time("%sT%s:%s:00+05:30" % (day_of(o["_t"]), hhmm[:2],
                                             hhmm[2:]))


def fmt(x):
    return "%g" % x


def minutes_words(sec):
    m = int(round(sec / 60.0))
    h, mm = divmod(m, 60)
    out = ["%d min" % m, "%d minutes" % m]
    if h:
        out += ["%d hour %d" % (h, mm), "%d hours %d" % (h, mm),
                "%d h %d" % (h, mm), "%d hour and %d" % (h, mm),
                "%d %02d" % (h, mm)]
        if h == 1:
            out += ["an hour and %d" % mm, "one hour and %d" % mm,
                    "one hour %d" % mm]
    return out, m


def questions(path):
    H = EngineLog(path)
    Q = QuestionSet("engineroom")
    thu = "2026-11-12T02:30:00Z"       # Thursday 08:00 ship's time
    last = H.obs[-1]["_t"]

    # ---- when -----------------------------------------------------------
    o = one(H.note("DG2 tripped"))
    Q.time("when", "When did DG2 trip?", thu,
           [Span(note_t(o), o["_t"])], o["note"])
    e = one(H.find("Clean Purifier"))
    Q.time("when", "When did you clean the purifier?", thu, [e.span])
    t, s, x = one(H.said(None, contains="reduce"))
    Q.time("when", "When did the bridge tell us to slow down?", thu,
           [Span(t, t)], x)
    e = [j for j in H.find("Pump Bilge") if j.ok][-1]
    Q.time("when", "When did you last pump the bilge?", thu, [e.span])
    o = one(H.note("back in service"))
    Q.time("when", "What time was DG2 back on line?", thu,
           [Span(note_t(o), o["_t"])], o["note"])
    e = H.find("Sound Tank", tank="FO 3P")[0]
    Q.time("when", "When did you first sound FO 3P this week?", thu,
           [e.span])

    # ---- where ----------------------------------------------------------
    e = one(H.find("Escort"))
    Q.words("where", "Where did you take the cadet?", thu,
            [variants(e.args["to"], "steering gear")], e.t1, e.args["to"])
    e = one(H.find("Fire Round"))
    rag = one([x for x in H.seen(e) if x["type"] == "oily rag"])
    Q.words("where", "Where did you find the oily rag?", thu,
            [variants(rag["relations"][0]["to"])], e.t1,
            rag["relations"][0]["to"])
    e = one(H.find("Fetch Spare", part="CO2 extinguisher"))
    Q.words("where", "Where did the replacement extinguisher come from?",
            thu, [variants(e.args["from"])], e.t1, e.args["from"])
    e = one(H.find("Transfer Fuel", day=MON))
    Q.words("where", "Where did you transfer the fuel to on Monday?", thu,
            [variants(e.args["to"], "settling tank")], e.t1, e.args["to"])
    e = one(H.find("Pump Bilge", day=MON))
    Q.words("where", "Where did Monday's bilge water go?", thu,
            [variants(e.args["to"], "holding tank")], e.t1, e.args["to"],
            none=["overboard"])
    t, s, x = one(H.said("Rivet", contains="steering gear flat"))
    Q.words("where", "Where's the emergency fire pump?", thu,
            must_contain(x, ["steering gear flat"]), t, x)

    # ---- day ------------------------------------------------------------
    e = one(H.find("Change Filter", ok=False))
    Q.day("day", "Which day did the LO filter cover bolt seize?", thu,
          [day_of(e.t0)], e.t1)
    o = one(H.note("DG2 tripped"))
    Q.day("day", "What day did DG2 trip?", thu, [day_of(o["_t"])], o["_t"])
    e = one([j for j in H.find("Pump Bilge") if not j.ok])
    Q.day("day", "On which day did the OWS alarm stop the bilge pumping?",
          thu, [day_of(e.t0)], e.t1)

    # ---- who ------------------------------------------------------------
    o = one(H.note("started DG3"))
    Q.words("who", "Who started DG3?", thu, [["osei", "2/e", "second"]],
            o["_t"], o["note"])
    o = one(H.note("bolt seized"))
    Q.words("who", "Who freed the seized bolt?", thu,
            [["ramos", "oiler"]], o["_t"], o["note"])
    o = one(H.note("impeller fitted"))
    Q.words("who", "Who fitted the new impeller on DG2?", thu,
            [["osei", "2/e", "second"]], o["_t"], o["note"])
    t, s, x = one(H.said(contains="HFO purifier", day=MON))
    Q.words("who", "Who told you to clean the purifier?", thu,
            [["c/e", "chief", "petrov"]], t, s)
    o = one(H.note("OWS sensor"))
    Q.words("who", "Who fixed the oily water separator?", thu,
            [["menon", "3/e", "third"]], o["_t"], o["note"],
            none=["osei", "ramos"])
    t, s, x = one(H.said(contains="emergency fire pump"))
    Q.words("who", "Who asked you where the emergency fire pump is?", thu,
            [["cadet", "lena", "hoff"]], t, s)

    # ---- say ------------------------------------------------------------
    t, s, x = one(H.said(None, day=WED))
    Q.words("say", "What did the bridge tell us on Wednesday?", thu,
            must_contain(x, ["Singapore"]) +
            [["pilot", "0600", "0500", "manoeuvring"]], t, x)
    t, s, x = one(H.said("C/E", day=TUE))
    Q.words("say", "What did the chief say about the extinguisher?", thu,
            [["spare"], ["co2 room", "swap", "tomorrow"]], t, x)
    t, s, x = one(H.said("Rivet", contains="FE-12"))
    Q.words("say", "What did you report to the chief after the fire round?",
            thu, must_contain(x, ["low pressure"]) +
            [["oily rag", "rag"]], t, x, k=1)
    t, s, x = one(H.said("2/E"))
    Q.words("say", "What did the second engineer ask you to bring?", thu,
            must_contain(x, ["torque wrench"]) + [["36 mm", "socket"]], t,
            x)
    t, s, x = one(H.said("Rivet", day=WED, contains="standby"))
    Q.words("say", "What did you answer the bridge on Wednesday?", thu,
            [["standby", "stand by"]], t, x)

    # ---- see ------------------------------------------------------------
    e = one(H.find("Clean Strainer"))
    got = [x["type"] for x in H.seen(e)]
    Q.words("see", "What did you find in the sea water strainer?", thu,
            [[g] for g in got], e.t1, ", ".join(got), k=1,
            others=[["oily rag"], ["extinguisher"]])
    e = one(H.find("Fire Round"))
    got = [x["type"] for x in H.seen(e)]
    Q.words("see", "What did you come across on Tuesday's fire round?",
            thu, [["oily rag", "rag"], ["extinguisher", "fe 12"]], e.t1,
            ", ".join(got), k=1,
            others=[["plastic bag"], ["mussel*", "shells"]])

    # ---- which ----------------------------------------------------------
    o = one(H.note("tripped"))
    Q.words("which", "Which generator tripped?", thu, [["dg2", "dg 2"]],
            o["_t"], o["note"], none=["dg1"])
    e = one(H.find("Fetch Spare", day=MON))
    Q.words("which", "What spare did you fetch for DG2?", thu,
            [["impeller"]], e.t1, e.args["part"])
    e = one(H.find("Change Filter", ok=True))
    Q.words("which", "Which filter did you change on Tuesday?", thu,
            [["lo", "lube oil", "auto filter"]], e.t1, e.args["filter"])
    e = H.find("Take Readings", day=MON)[0]
    rpm = H.state(e, "ME")["rpm"]
    Q.words("which", "What were the main engine revs on Monday morning?",
            thu, [[str(rpm)]], e.t1, "%d rpm" % rpm)
    e = H.find("Take Readings", day=WED)[0]
    bar = H.state(e, "AB1")["steam_bar"]
    Q.words("which", "What was the boiler steam pressure on Wednesday "
            "morning?", thu, [["%.1f" % bar, fmt(bar)]], e.t1,
            "%s bar" % fmt(bar))
    e = one(H.find("Fire Round"))
    fe = one([x for x in H.seen(e) if x["type"] == "fire extinguisher"])
    Q.words("which", "Which extinguisher was low on pressure?", thu,
            [variants(fe["id"], "fe12")], e.t1, fe["id"])
    e = one(H.find("Fetch Spare", day=MON))
    Q.words("which", "What's the part number of the HT pump impeller?",
            thu, [variants(e.args["part_no"], "dg4471")], e.t1,
            e.args["part_no"])

    # ---- count ----------------------------------------------------------
    e = one(H.find("Sound Tank", tank="FO 3P", day=TUE))
    Q.words("count", "How much fuel was in FO 3P on Tuesday morning?", thu,
            [["%.1f" % e.v("vol"), fmt(e.v("vol"))]], e.t1,
            "%s %s" % (fmt(e.v("vol")), e.args["vol"]["u"]))
    es = [j for j in H.find("Transfer Fuel") if j.ok]
    n = sum(j.v("qty") for j in es)
    Q.words("count", "How many cubic metres of fuel did you transfer in "
            "total?", thu, [[fmt(n), "%.1f" % n]], es[-1].t1, "%s m3" % fmt(n))
    e = one(H.find("Pump Bilge", day=MON))
    Q.words("count", "How much bilge water did you pump on Monday?", thu,
            [[fmt(e.v("qty"))]], e.t1, "%s m3" % fmt(e.v("qty")))
    es = H.find("Take Readings")
    Q.count("count", "How many times did you take the engine readings?",
            thu, len(es), es[-1].t1)
    e = one(H.find("Clean Purifier"))
    Q.count("count", "How many discs are in the purifier bowl?", thu,
            e.args["bowl_discs"], e.t1)
    o = one(H.note("sludge"))
    Q.count("count", "How many litres of sludge came out of the purifier?",
            thu, 3, o["_t"], o["note"])
    assert "about 3 litres" in o["note"]
    e = one(H.find("Change Filter", ok=True))
    Q.count("count", "How many cartridges did the LO filter take?", thu,
            e.args["cartridges"], e.t1)
    es = H.find("Sound Tank", day=MON)
    Q.count("count", "How many tanks did you sound on Monday?", thu,
            len({j.args["tank"] for j in es}), es[-1].t1)

    # ---- how long (no other source asks for a duration) -----------------
    e = one(H.find("Clean Purifier"))
    ws, m = minutes_words(e.t1 - e.t0)
    Q.words("which", "How long did the purifier job take?", thu, [ws],
            e.t1, "%d min" % m)

    # ---- yes / no -------------------------------------------------------
    o = one(H.note("back in service"))
    Q.yesno("yesno", "Is DG2 running again?", thu,
            "back in service" in o["note"], o["_t"])
    es = H.find("Pump Bilge", day=TUE)
    Q.yesno("yesno", "Did the bilge pumping go through on Tuesday?", thu,
            all(j.ok for j in es), es[-1].t1)
    Q.yesno("yesno", "Was FE-12 replaced?", thu,
            bool(H.find("Fetch Spare", part="CO2 extinguisher", ok=True)),
            last)
    Q.yesno("yesno", "Did you sound FO 3S on Tuesday?", thu,
            bool(H.find("Sound Tank", tank="FO 3S", day=TUE)), last)

    # ---- failed ---------------------------------------------------------
    e = one([j for j in H.find("Pump Bilge") if not j.ok])
    Q.words("failed", "Why did you stop pumping the bilge on Tuesday?", thu,
            [["ows", "oily water separator", "15 ppm", "ppm"]], e.t1,
            e.args["fault"])
    o = one(H.note("DG2 tripped"))
    Q.words("failed", "Why did DG2 trip?", thu,
            [["ht", "cooling water", "high temp*", "96"]], o["_t"],
            o["note"])
    es = [j for j in H.find(day=TUE) if not j.ok]
    Q.words("failed", "What went wrong on Tuesday?", thu,
            [["bolt", "seized", "filter"], ["ows", "separator", "ppm",
                                             "bilge"]],
            es[-1].t1, "; ".join(j.args["fault"] for j in es), k=1)
    e = one(H.find("Change Filter", ok=False))
    Q.words("failed", "Why did the first LO filter change fail?", thu,
            [["bolt", "seized"]], e.t1, e.args["fault"])
    t, s, x = one(H.said(None, contains="reduce"))
    Q.words("failed", "Why did we slow down on Monday?", thu,
            [["heavy weather", "weather"]], t, x)

    # ---- what is coming (no other source asks this) ---------------------
    t, s, x = one(H.said("Rivet", day=WED, contains="standby"))
    wed_eve = "2026-11-11T12:30:00Z"  # Wednesday 18:00 ship's time
    Q.words("which", "From what time do we have to be on standby "
            "tomorrow?", wed_eve, [["0500", "05:00", "5 am", "five"]], t, x)
    return Q.items, H


if __name__ == "__main__":
    import sys
    print(write(sys.argv[1] if len(sys.argv) > 1 else "engineroom.jsonl"),
          "observations")
