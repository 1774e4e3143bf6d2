"""Fresh and untuned (written after issue 19's round): a hospital pharmacy's
dispensing robot ("Tilly") in the central pharmacy of a city hospital,
Monday 2026-02-16 to Wednesday 2026-02-18, local time (+01:00).

Its log has a shape of its own: times with a +01:00 offset; every action
written twice, a `Running` line when it starts and a line with its final
status (`Succeeded`, `Failed`, `Aborted`) when it ends, with the failure
reason in `action.args.reason`; the goal as an array naming the work
(`["WardRound", "FillOrder"]`); skills of its own (`FillOrder`, `Restock`,
`CountCabinet`, `Compound`, `QuarantineLot`, `SendTube`, `ReturnStock`,
`Park`) with keys of its own (`rx`, `drug`, `qty`, `unit`, `ward`,
`drawer`, `lot`, `cabinet`, `counted`, `expected`, `dose_mg`,
`volume_ml`, `station`, `shelf`); persons as `{name, id}`; one utterance
per dialog line (a ward nurse asking for drugs, a doctor complaining, the
lead pharmacist's instructions, the robot's replies), and free-text notes,
some starting with their subject ("Label printer jammed at 10:15; Marco
cleared it at 10:30."), some with a verb ("Moved the expired saline bags
to the returns bin."). The robot speaks as "Tilly"; no robot profile.

The truth is read back from the written lines (`Pharmacy`), never from the
generator's variables.  The questions are a pharmacist's and a nurse's,
written before h2emv was asked them; nobody tuned on them
(docs/realqa.md, "A fresh untuned source (pharmacy, 2026-11-27)").
"""

import datetime as _dt
import json
import random
import re

from common import Records, grab, one, QuestionSet, Span, day_of, parse_time, must_contain

SEED = 20260216
MON, TUE, WED = "2026-02-16", "2026-02-17", "2026-02-18"
ZONE = _dt.timezone(_dt.timedelta(hours=1))
ROBOT = "Tilly"
RAHEL, MARCO, OKAFOR, HANNAH, YUSUF = ("Rahel Tesfaye", "Marco Bianchi",
                                       "Dr. Chidi Okafor",
                                       "Hannah Kowalski", "Yusuf Demir")
IDS = {RAHEL: "staff-0412", MARCO: "staff-0977", OKAFOR: "staff-1203",
       HANNAH: "staff-2318", YUSUF: "staff-2561", ROBOT: "robot-1"}

SEEN = {
    "picking wall": [("bin", "drawer bank A"), ("bin2", "drawer bank B"),
                     ("scan", "barcode scanner")],
    "fridge bay": [("fridge", "medication fridge"), ("pens", "insulin pens"),
                   ("thermo", "thermometer")],
    "cd cabinet": [("safe", "controlled drug safe"),
                   ("book", "register book")],
    "clean room": [("hood", "laminar flow hood"), ("bag", "infusion bag"),
                   ("syringe", "syringe pump")],
    "goods-in": [("pallet", "delivery pallet"), ("crate", "crate")],
    "tube station": [("tube", "pneumatic tube station"),
                     ("carrier", "tube carrier")],
    "quarantine shelf": [("shelf", "quarantine shelf Q2")],
    "dispatch counter": [("tray", "dispatch tray"),
                         ("printer", "label printer")],
    "charger": [("dock", "charging dock")],
}


def stamp(t):
    """Epoch seconds as local time with its offset, '2026-02-16T07:05:12+01:00'."""
    return _dt.datetime.fromtimestamp(int(t), ZONE).isoformat()


def local(day, hhmm):
    return parse_time("%sT%s:00+01:00" % (day, hhmm))


class Writer:
    def __init__(self, seed=SEED):
        self.rng = random.Random(seed)
        self.lines = []
        self.clock = 0.0
        self.here = "charger"

    def start(self, day, hhmm):
        t = local(day, hhmm) + self.rng.randint(0, 90)
        t = max(t, self.clock + 20)
        # status lines every 10 minutes between jobs, 07:00-20:00 local
        s = self.clock + 600
        while self.clock and s < t - 60:
            h = (int(s) // 3600 + 1) % 24
            if 7 <= h < 20:
                self.line(s, location=self.here)
            s += 600
        return t

    def line(self, t, **f):
        ln = {"t": stamp(t)}
        ln.update({k: v for k, v in f.items() if v not in (None, [], "")})
        self.lines.append(ln)
        self.clock = max(self.clock, t)

    def seen(self, where):
        return [{"id": "%s@%s" % (i, where.replace(" ", "-")), "type": k,
                 "state": None}
                for i, k in SEEN.get(where, [])]

    def people(self, names):
        return [{"name": n, "id": IDS[n]} for n in names]

    def act(self, day, hhmm, name, args, where, goal, status="Succeeded",
            minutes=(2, 5), persons=(), reason=None):
        t0 = self.start(day, hhmm)
        t1 = t0 + 60 * self.rng.randint(*minutes) + self.rng.randint(0, 59)
        self.line(t0, action={"name": name, "args": dict(args),
                              "status": "Running"},
                  goal=list(goal), location=where,
                  persons=self.people(persons))
        fin = dict(args)
        if reason:
            fin["reason"] = reason
        self.line(t1, action={"name": name, "args": fin, "status": status},
                  goal=list(goal), location=where,
                  persons=self.people(persons), objects=self.seen(where))
        self.here = where
        return t0, t1

    def say(self, day, hhmm, where, utterances, persons=()):
        t = self.start(day, hhmm)
        ppl = sorted(set(list(persons) + [s for s, _ in utterances
                                          if s != ROBOT]))
        for s, x in utterances:
            self.line(t, location=where, persons=self.people(ppl),
                      speech={"speaker": s, "text": x})
            t += 8 + len(x) // 12
        self.here = where

    def note(self, day, hhmm, where, text, persons=()):
        t = self.start(day, hhmm)
        self.line(t, location=where, note=text, persons=self.people(persons))
        self.here = where

    def write(self, path):
        with open(path, "w", encoding="utf-8") as f:
            for ln in self.lines:
                f.write(json.dumps(ln, ensure_ascii=False) + "\n")
        return len(self.lines)


def generate(seed=SEED):
    w = Writer(seed)

    def fill(day, hhmm, rx, drug, qty, unit, ward, drawer, **kw):
        w.act(day, hhmm, "FillOrder", {"rx": rx, "drug": drug, "qty": qty,
                                       "unit": unit, "ward": ward,
                                       "drawer": drawer},
              "picking wall", ["WardRound", "FillOrder"], **kw)

    def restock(day, hhmm, drug, qty, unit, drawer, lot, where="picking wall"):
        w.act(day, hhmm, "Restock", {"drug": drug, "qty": qty, "unit": unit,
                                     "drawer": drawer, "lot": lot},
              where, ["Replenish", "Restock"], minutes=(4, 9))

    def park(day, hhmm):
        w.act(day, hhmm, "Park", {"station": "charger"}, "charger",
              ["Idle", "Park"], minutes=(1, 2))

    # ----- Monday -------------------------------------------------------
    d = MON
    w.act(d, "07:05", "ReturnStock", {"crate": "C-118", "items": 14},
          "goods-in", ["Replenish", "ReturnStock"], minutes=(8, 12))
    restock(d, "07:30", "insulin glargine", 40, "pens", "F2", "IG-5521",
            where="fridge bay")
    restock(d, "07:50", "heparin 5000 IU", 60, "ampoules", "A7", "HP-0931")
    fill(d, "08:10", "RX-40113", "paracetamol 500 mg", 24, "tablets", "7B",
         "A3")
    fill(d, "08:20", "RX-40114", "amoxicillin 500 mg", 21, "capsules", "7B",
         "B1")
    w.say(d, "08:40", "dispatch counter", [
        (HANNAH, "Tilly, ward 7B is out of paracetamol again, can you send "
                 "us another 30 tablets?"),
        (ROBOT, "Yes, I will fill 30 paracetamol tablets for 7B now.")])
    fill(d, "08:45", "RX-40121", "paracetamol 500 mg", 30, "tablets", "7B",
         "A3", persons=[HANNAH])
    w.act(d, "09:00", "SendTube", {"rx": "RX-40121", "station": "7B",
                                   "carrier": "T-22"},
          "tube station", ["WardRound", "SendTube"], minutes=(1, 3))
    fill(d, "09:30", "RX-40130", "morphine 10 mg", 5, "ampoules", "ICU",
         "CD1", persons=[RAHEL])
    w.act(d, "09:40", "SendTube", {"rx": "RX-40130", "station": "ICU",
                                   "carrier": "T-09"},
          "tube station", ["WardRound", "SendTube"], minutes=(1, 3))
    w.note(d, "10:30", "dispatch counter", "Label printer jammed at 10:15; "
           "Marco cleared it at 10:30.", persons=[MARCO])
    fill(d, "11:10", "RX-40144", "warfarin 3 mg", 28, "tablets", "4A", "B3",
         status="Failed", minutes=(1, 2),
         reason="out of stock: drawer B3 was empty")
    w.say(d, "11:20", "dispatch counter", [
        (ROBOT, "Rahel, the warfarin order for 4A failed, drawer B3 is "
                "empty."),
        (RAHEL, "Thanks Tilly, I will order warfarin from the wholesaler "
                "today.")])
    w.act(d, "13:00", "Compound", {"drug": "vancomycin", "dose_mg": 1250,
                                   "volume_ml": 250, "ward": "ICU",
                                   "rx": "RX-40152"},
          "clean room", ["Aseptic", "Compound"], minutes=(18, 25),
          persons=[MARCO])
    w.say(d, "14:10", "dispatch counter", [
        (OKAFOR, "The antibiotics for bed 12 came forty minutes late this "
                 "morning, that is not acceptable."),
        (ROBOT, "I am sorry, Dr. Okafor. The amoxicillin left at 08:25; "
                "I will send ward 7B orders first from now on.")])
    fill(d, "15:00", "RX-40160", "paracetamol 500 mg", 16, "tablets", "3C",
         "A3")
    w.note(d, "17:45", "picking wall", "Moved the expired saline bags to "
           "the returns bin.")
    park(d, "19:30")

    # ----- Tuesday ------------------------------------------------------
    d = TUE
    w.act(d, "07:10", "CountCabinet", {"cabinet": "CD1",
                                       "drug": "morphine 10 mg",
                                       "counted": 18, "expected": 20},
          "cd cabinet", ["ControlledDrugs", "CountCabinet"],
          status="Failed", minutes=(6, 10),
          reason="count mismatch: 18 ampoules counted, register says 20",
          persons=[RAHEL])
    w.note(d, "07:40", "cd cabinet", "Count of cabinet CD1 rechecked with "
           "Rahel Tesfaye: two ampoules were signed out to ICU on Monday "
           "and not entered in the register; register corrected.",
           persons=[RAHEL])
    restock(d, "08:15", "warfarin 3 mg", 112, "tablets", "B3", "WF-7730",
            where="goods-in")
    fill(d, "08:40", "RX-40144", "warfarin 3 mg", 28, "tablets", "4A", "B3")
    fill(d, "09:05", "RX-40201", "paracetamol 500 mg", 20, "tablets", "7B",
         "A3")
    w.act(d, "09:30", "QuarantineLot", {"drug": "amoxicillin 500 mg",
                                        "lot": "AX-2207", "qty": 84,
                                        "shelf": "Q2"},
          "quarantine shelf", ["Recall", "QuarantineLot"], minutes=(5, 8),
          persons=[RAHEL])
    w.say(d, "09:50", "quarantine shelf", [
        (RAHEL, "Tilly, keep lot AX-2207 on the quarantine shelf until the "
                "supplier collects it on Thursday."),
        (ROBOT, "Understood, lot AX-2207 stays on shelf Q2.")])
    w.note(d, "13:45", "tube station", "Tube station 4 out of service from "
           "13:40; the technician expects it back tomorrow morning.")
    fill(d, "14:00", "RX-40230", "heparin 5000 IU", 10, "ampoules", "ICU",
         "A7")
    w.act(d, "14:10", "SendTube", {"rx": "RX-40230", "station": "ICU",
                                   "carrier": "T-09"},
          "tube station", ["WardRound", "SendTube"], status="Failed",
          minutes=(1, 2), reason="tube station 4 is out of service")
    w.say(d, "14:20", "dispatch counter", [
        (YUSUF, "Tilly, where is the heparin for the ICU? We needed it an "
                "hour ago."),
        (ROBOT, "The tube is down, Yusuf. I have put the heparin on the "
                "dispatch tray for a porter to bring it up.")])
    restock(d, "15:30", "insulin glargine", 25, "pens", "F2", "IG-5602",
            where="fridge bay")
    fill(d, "16:00", "RX-40244", "amoxicillin 500 mg", 21, "capsules", "7B",
         "B1")
    park(d, "19:40")

    # ----- Wednesday ----------------------------------------------------
    d = WED
    w.say(d, "07:15", "dispatch counter", [
        (RAHEL, "Tilly, from today scan the patient label twice before a "
                "bag leaves the clean room."),
        (ROBOT, "Okay, I will scan every patient label twice.")])
    w.act(d, "08:00", "Compound", {"drug": "cefazolin", "dose_mg": 2000,
                                   "volume_ml": 100, "ward": "4A",
                                   "rx": "RX-40301"},
          "clean room", ["Aseptic", "Compound"], status="Aborted",
          minutes=(6, 9), persons=[MARCO],
          reason="laminar flow hood airflow alarm")
    w.note(d, "08:20", "clean room", "Hood 2 airflow alarm at 08:12; "
           "Marco Bianchi reset the filter at 08:40.", persons=[MARCO])
    fill(d, "09:00", "RX-40310", "paracetamol 500 mg", 30, "tablets", "7B",
         "A3", persons=[HANNAH])
    w.say(d, "09:20", "dispatch counter", [
        (HANNAH, "Thank you for the paracetamol, Tilly. Could you also send "
                 "two boxes of gloves with the next carrier?"),
        (ROBOT, "Gloves are not in my stock, Hannah; I will tell Marco.")])
    restock(d, "10:00", "heparin 5000 IU", 40, "ampoules", "A7", "HP-1048")
    fill(d, "11:00", "RX-40322", "insulin glargine", 5, "pens", "4A", "F2")
    w.note(d, "12:30", "fridge bay", "Fridge 2 read 9.1 C at 12:25 after "
           "the door was left open; back to 4 C by 12:50.")
    park(d, "19:00")
    return w


def write(path, seed=SEED):
    return generate(seed).write(path)


class Run:
    """One action's final line."""

    def __init__(self, o, start):
        a = o["action"]
        self.line = o
        self.name, self.args = a["name"], a.get("args") or {}
        self.status = a.get("status", "").lower()
        self.t0 = start
        self.t1 = parse_time(o["t"])

    @property
    def ok(self):
        return self.status == "succeeded"

    @property
    def span(self):
        return Span(self.t0, self.t1, self.name)


class Pharmacy(Records):
    """The written lines read back: actions (running + final), notes, speech."""

    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            self.obs = [json.loads(x) for x in f if x.strip()]
        for o in self.obs:
            o["_t"] = parse_time(o["t"])
        self.runs, started = [], {}
        for o in self.obs:
            a = o.get("action")
            if not a:
                continue
            if a["status"] == "Running":
                started[a["name"]] = o["_t"]
            else:
                self.runs.append(Run(o, started.pop(a["name"])))
        self.notes = [o for o in self.obs if o.get("note")]
        self.speech = [(o["_t"], o["speech"]["speaker"], o["speech"]["text"])
                       for o in self.obs if o.get("speech")]





def clock_in(o, pattern):
    """The local time a note names ("jammed at 10:15") on the note's day,
    up to the note's own time: the span a right answer lies in."""
    hhmm = grab(pattern, o["note"])
    day = _dt.datetime.fromtimestamp(o["_t"], ZONE).strftime("%Y-%m-%d")
    return Span(local(day, hhmm), o["_t"], o["note"][:30])


def questions(path):
    H = Pharmacy(path)
    Q = QuestionSet("pharmacy")
    thu = "2026-02-19T08:00:00+01:00"     # Thursday morning
    wed_pm = "2026-02-18T20:00:00+01:00"  # Wednesday evening

    # ---- when ---------------------------------------------------------
    es = H.find("Restock", ok=True, drug="insulin glargine")
    Q.time("when", "When did you last restock the insulin pens?", thu,
           [es[-1].span])
    es = H.find("FillOrder", ok=True, ward="7B")
    Q.time("when", "When did you fill the first order for ward 7B?", thu,
           [es[0].span])
    o = one(H.note(contains="Label printer jammed"))
    Q.time("when", "What time did the label printer jam on Monday?", thu,
           [clock_in(o, r"jammed at (\d\d:\d\d)")])
    e = one(H.find("Compound", ok=True, drug="vancomycin"))
    Q.time("when", "When did you make up the vancomycin bag?", thu,
           [e.span])

    # ---- where --------------------------------------------------------
    e = one(H.find("SendTube", ok=True, rx="RX-40130"))
    Q.words("where", "Where did you send the morphine by tube?", thu,
            [[e.args["station"], "intensive care"]], e.t1,
            e.args["station"])
    e = one(H.find("QuarantineLot", ok=True))
    Q.words("where", "Where did you put the recalled amoxicillin?", thu,
            [["quarantine", e.args["shelf"]]], e.t1,
            "quarantine shelf " + e.args["shelf"])
    (tt, who, text) = one(H.said(speaker=ROBOT, contains="heparin"))
    Q.words("where", "Where did you leave the ICU heparin when the tube "
            "was down?", thu, must_contain(text, ["dispatch tray"]), tt,
            text)
    o = one(H.note(start="Moved the expired"))
    Q.words("where", "Where did the expired saline bags go?", thu,
            [["returns bin", "returns"]], o["_t"], o["note"])

    # ---- day ----------------------------------------------------------
    e = one(H.find("CountCabinet"))
    Q.day("day", "What day did you count the controlled drug cabinet?",
          thu, [day_of(e.t0)], e.t1)
    (tt, who, text) = one(H.said(speaker=OKAFOR))
    Q.day("day", "On which day did Dr. Okafor complain about the late "
          "antibiotics?", thu, [day_of(tt)], tt)
    o = one(H.note(start="Tube station 4"))
    Q.day("day", "Which day did the tube station break down?", thu,
          [day_of(o["_t"])], o["_t"])

    # ---- who ----------------------------------------------------------
    (tt, who, text) = one(H.said(contains="another 30"))
    Q.words("who", "Who asked you for more paracetamol for 7B on Monday?",
            thu, [[who, "Hannah", "Kowalski"]], tt, who)
    o = one(H.note(start="Label printer"))
    who = grab(r"; (\w+) cleared it", o["note"])
    Q.words("who", "Who fixed the label printer?", thu, [[who]], o["_t"],
            who)
    o = one(H.note(start="Count of cabinet"))
    who = grab(r"rechecked with ([\w ]+):", o["note"])
    Q.words("who", "Who rechecked the morphine count with you?", thu,
            [[who, "Rahel", "Tesfaye"]], o["_t"], who)
    (tt, who, text) = one(H.said(contains="where is the heparin"))
    Q.words("who", "Who was chasing the heparin for the ICU?", thu,
            [[who, "Yusuf", "Demir"]], tt, who)
    e = one(H.find("Compound", ok=True, drug="vancomycin"))
    ppl = [p["name"] for p in e.line.get("persons") or []]
    Q.words("who", "Who was with you in the clean room when you made the "
            "vancomycin?", thu, [[p, p.split()[0]] for p in ppl], e.t1,
            ", ".join(ppl))

    # ---- say ----------------------------------------------------------
    (tt, who, text) = one(H.said(speaker=OKAFOR))
    Q.words("say", "What did Dr. Okafor complain about?", thu,
            must_contain(text, ["late"]) + [["antibiotic*", "bed 12"]],
            tt, text)
    (tt, who, text) = one(H.said(speaker=RAHEL, day=WED))
    Q.words("say", "What did Rahel tell you to do on Wednesday morning?",
            thu, must_contain(text, ["twice"]) + [["scan*", "label*"]], tt,
            text)
    (tt, who, text) = one(H.said(speaker=HANNAH, day=WED))
    Q.words("say", "What did Hannah ask for on Wednesday?", thu,
            must_contain(text, ["gloves"]), tt, text)
    (tt, who, text) = one(H.said(speaker=ROBOT, contains="sorry"))
    Q.words("say", "What did you promise Dr. Okafor?", thu,
            [["7B", "7 b"], ["first"]], tt, text)
    (tt, who, text) = one(H.said(speaker=RAHEL, contains="AX-2207"))
    Q.words("say", "How long did Rahel want the amoxicillin lot kept in "
            "quarantine?", thu, [["Thursday", "supplier", "collect*"]], tt,
            text)

    # ---- see ----------------------------------------------------------
    e = H.find("Restock", ok=True, drug="insulin glargine")[0]
    seen = sorted({o["type"] for o in e.line.get("objects") or []})
    Q.words("see", "What was in the fridge bay when you restocked the "
            "insulin?", thu, [[c] for c in seen], e.t1, ", ".join(seen),
            k=(len(seen) + 1) // 2)

    # ---- which --------------------------------------------------------
    e = one(H.find("QuarantineLot", ok=True))
    Q.words("which", "Which lot of amoxicillin did you quarantine?", thu,
            [[e.args["lot"], e.args["lot"].split("-")[1]]], e.t1,
            e.args["lot"])
    e = one(H.find("Restock", ok=True, day=MON, drug="heparin 5000 IU"))
    Q.words("which", "Which drawer did you put the heparin in?", thu,
            [[e.args["drawer"]]], e.t1, e.args["drawer"])
    e = one(H.find("FillOrder", ok=False))
    Q.words("which", "Which ward was the warfarin order for?", thu,
            [[e.args["ward"]]], e.t1, e.args["ward"])
    e = one(H.find("Restock", ok=True, drug="warfarin 3 mg"))
    Q.words("which", "What lot number was the new warfarin?", thu,
            [[e.args["lot"], e.args["lot"].split("-")[1]]], e.t1,
            e.args["lot"])

    # ---- count --------------------------------------------------------
    es = H.find("FillOrder", ok=True, day=MON, drug="paracetamol 500 mg")
    Q.count("count", "How many paracetamol tablets did you dispense on "
            "Monday?", thu, sum(x.args["qty"] for x in es), es[-1].t1)
    es = H.find("FillOrder", ok=True, ward="7B")
    Q.count("count", "How many orders did you fill for ward 7B?", thu,
            len(es), es[-1].t1)
    es = H.find("Restock", ok=True, drug="insulin glargine")
    Q.count("count", "How many insulin pens did you restock altogether?",
            thu, sum(x.args["qty"] for x in es), es[-1].t1)
    e = one(H.find("CountCabinet"))
    Q.count("count", "How many morphine ampoules did you count in CD1?",
            thu, e.args["counted"], e.t1)
    e = one(H.find("Compound", ok=True, drug="vancomycin"))
    Q.count("count", "What dose of vancomycin went into the bag, in mg?",
            thu, e.args["dose_mg"], e.t1)
    es = H.find("FillOrder", ok=True, day=TUE)
    Q.count("count", "How many orders did you fill on Tuesday?", thu,
            len(es), es[-1].t1)
    es = H.find("Restock", ok=True, drug="heparin 5000 IU")
    Q.count("count", "How much heparin did you put away this week, in "
            "ampoules?", wed_pm, sum(x.args["qty"] for x in es), es[-1].t1)

    # ---- yes / no -----------------------------------------------------
    es = H.find("Restock", ok=True, day=TUE, drug="insulin glargine")
    Q.yesno("yesno", "Did you restock the insulin on Tuesday?", thu,
            bool(es), es[-1].t1 if es else None)
    es = H.find("FillOrder", ward="3A")
    Q.yesno("yesno", "Did you fill anything for ward 3A?", thu, bool(es),
            None)
    es = H.find("FillOrder", ok=True, drug="warfarin 3 mg")
    Q.yesno("yesno", "Did ward 4A get its warfarin in the end?", thu,
            bool(es), es[-1].t1 if es else None)
    es = H.find("Compound", ok=True, drug="cefazolin")
    Q.yesno("yesno", "Was the cefazolin bag finished?", thu, bool(es),
            None)

    # ---- failed -------------------------------------------------------
    e = one(H.find("FillOrder", ok=False))
    Q.words("failed", "Why did the warfarin order fail on Monday?", thu,
            [["out of stock", "empty", "B3"]], e.t1, e.args["reason"])
    e = one(H.find("SendTube", ok=False))
    Q.words("failed", "Why couldn't you send the heparin to the ICU by "
            "tube?", thu, [["out of service", "down", "station 4"]], e.t1,
            e.args["reason"])
    e = one(H.find("CountCabinet", ok=False))
    Q.words("failed", "What went wrong with the controlled drug count?",
            thu, [["mismatch", "18", "20", "missing", "short"]], e.t1,
            e.args["reason"])
    e = one([x for x in H.runs if x.status == "aborted"])
    Q.words("failed", "What didn't you finish on Wednesday?", thu,
            [[e.args["drug"], e.args["rx"], "compound*"]], e.t1,
            "%s %s (%s)" % (e.name, e.args["drug"], e.args["reason"]))
    Q.words("failed", "Why did you stop making the cefazolin bag?", thu,
            [["airflow", "alarm", "hood"]], e.t1, e.args["reason"])
    return Q.items, H


if __name__ == "__main__":
    import sys
    print(write(sys.argv[1] if len(sys.argv) > 1 else "pharmacy.jsonl"),
          "observations")
