"""An off-domain history: a hospital ward robot, Monday 2024-10-07 to Friday
2024-10-11, written directly as observation JSON Lines (docs/formats.md).

Its vocabulary is its own (DeliverMedication, FetchLinen, EscortPatient,
DockCharger, ScanRoom, ...; arguments medication/room/patient/item/from/to),
and so are its people (nurses, a doctor, patients, visitors).  The schedule
is fixed by the code below; times, durations and the evening patrols are
drawn from a seeded generator, so the history is the same on every run.

The ground truth is NOT taken from the generator's variables: `History`
reads the written JSON Lines back, as it would a real robot's log, pairs each
action's running and final observations into one occurrence, and the
questions are answered from that.
"""

import json
import os
import random

from common import (QuestionSet, Span, day_of, day_span, parse_time,
                    must_contain, variants, iso)

PROFILE = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       "hospital-profile.json")
SEED = 20241007

PATIENTS = {"room 3": "Walter Hughes", "room 5": "Greta Lindqvist",
            "room 7": "Tomasz Nowak", "room 9": "Fatima Haddad",
            "room 12": "Eleanor Price", "room 14": "Ruben Alvarez"}

FURNITURE = {
    "room 3": [("bed_3", "hospital bed"), ("ivpole_3", "IV pole"),
               ("jug_3", "water jug"), ("frame_3", "walking frame")],
    "room 5": [("bed_5", "hospital bed"), ("wheelchair_5", "wheelchair"),
               ("vase_5", "flower vase"), ("glasses_5", "reading glasses")],
    "room 7": [("bed_7", "hospital bed"), ("walker_7", "walker"),
               ("jug_7", "water jug"), ("crutches_7", "crutches")],
    "room 9": [("bed_9", "hospital bed"), ("oxygen_9", "oxygen tank"),
               ("ivpole_9", "IV pole"), ("tv_9", "television")],
    "room 12": [("bed_12", "hospital bed"), ("ivpump_12", "infusion pump"),
                ("cards_12", "get-well cards"), ("armchair_12", "armchair")],
    "room 14": [("bed_14", "hospital bed"), ("oxygen_14", "oxygen tank"),
                ("wheelchair_14", "wheelchair"), ("tray_14", "meal tray")],
    "pharmacy": [("medcart_1", "medication cart")],
    "linen room": [("shelf_1", "linen shelf")],
    "lab": [("samplefridge_1", "sample fridge")],
    "nurses station": [("desk_1", "desk"), ("phone_1", "telephone")],
}


class Gen:
    """Writes observations; `clock` is the end of the last thing written."""

    def __init__(self, seed=SEED):
        self.rng = random.Random(seed)
        self.lines = []
        self.clock = 0.0
        self.here = "charging dock"
        self.absent = set()         # patients not in their rooms
        self.empty_rooms = set()

    def start_at(self, day, hhmm):
        t = parse_time("%sT%s:00Z" % (day, hhmm)) + self.rng.randint(0, 180)
        t = max(t, self.clock + self.rng.randint(20, 60))
        self.idle_until(t)
        return t

    def idle_until(self, t):
        """While nothing happens the robot still reports where it is and what
        is around it: every 15 minutes by day, every hour at night."""
        if not self.clock:
            return
        nxt = self.clock + 900
        while nxt < t - 60:
            hour = (int(nxt) // 3600) % 24
            self.emit(nxt, location=self.here,
                      persons=self.people_in(self.here),
                      objects=self.objects_in(self.here))
            nxt += 900 if 7 <= hour < 21 else 3600

    def people_in(self, place):
        p = PATIENTS.get(place)
        if p and p not in self.absent and place not in self.empty_rooms:
            return [p]
        return []

    def objects_in(self, place):
        out = []
        for oid, typ in FURNITURE.get(place, []):
            o = {"id": oid, "type": typ}
            if typ == "hospital bed":
                o["state"] = "occupied" if self.people_in(place) else "empty"
            out.append(o)
        return out

    def emit(self, t, **f):
        line = {"t": iso(t)}
        line.update({k: v for k, v in f.items() if v not in (None, [], "")})
        self.lines.append(line)
        self.clock = max(self.clock, t)

    def talk(self, day, hhmm, place, utterances, persons=None):
        t = self.start_at(day, hhmm)
        self.here = place
        for i, (who, text) in enumerate(utterances):
            ppl = sorted(set((persons or []) + [w for w, _ in utterances
                                                if w != "robot"]))
            self.emit(t + 6 * i, location=place, persons=ppl,
                      speech=[{"speaker": who, "text": text}])

    def task(self, day, hhmm, skill, args, goal, frm, to, status="succeeded",
             minutes=(3, 8), persons=None, say_start=(), say_end=(),
             note=None, objects_end=None):
        t0 = self.start_at(day, hhmm)
        dur = 60 * self.rng.randint(*minutes) + self.rng.randint(0, 59)
        start_people = persons if persons is not None else self.people_in(frm)
        self.emit(t0, action={"name": skill, "args": args, "status": "running"},
                  goal=goal, goal_status="running", location=frm,
                  persons=sorted(set(start_people + [w for w, _ in say_start
                                                     if w != "robot"])),
                  objects=self.objects_in(frm),
                  speech=[{"speaker": w, "text": x} for w, x in say_start])
        step = self.rng.randint(50, 80)
        for k, tt in enumerate(range(int(t0) + step, int(t0 + dur) - 20, step)):
            self.emit(tt, action={"name": skill, "args": args,
                                  "status": "running"},
                      goal=goal, goal_status="running",
                      location="corridor" if frm != to else frm,
                      persons=[] if frm != to else start_people)
        end_place = to if status == "succeeded" else (
            to if skill in ("DeliverMedication", "DockCharger", "CollectSample")
            else frm)
        end_people = self.people_in(end_place) if persons is None else persons
        self.emit(t0 + dur,
                  action={"name": skill, "args": args, "status": status},
                  goal=goal, goal_status=status, location=end_place,
                  persons=sorted(set(end_people + [w for w, _ in say_end
                                                   if w != "robot"])),
                  objects=objects_end if objects_end is not None
                  else self.objects_in(end_place),
                  note=note)
        for i, (w, x) in enumerate(say_end):
            self.emit(t0 + dur + 4 + 6 * i, location=end_place,
                      persons=sorted(set(end_people + [p for p, _ in say_end
                                                       if p != "robot"])),
                      speech=[{"speaker": w, "text": x}])
        self.here = end_place

    # --- the building blocks of a day ---------------------------------
    def scan(self, day, hhmm, room, goal="MorningRound"):
        self.task(day, hhmm, "ScanRoom", {"room": room}, [goal, "ScanRoom"],
                  room, room, minutes=(1, 2))

    def deliver(self, day, hhmm, med, room, status="succeeded", **kw):
        self.task(day, hhmm, "DeliverMedication",
                  {"medication": med, "room": room,
                   "patient": PATIENTS[room], "from": "pharmacy"},
                  ["MedicationRound", "DeliverMedication"], "pharmacy", room,
                  status=status, **kw)

    def dock(self, day, hhmm, station="dock A", status="succeeded", note=None):
        self.task(day, hhmm, "DockCharger", {"station": station},
                  ["Charging", "DockCharger"], self.here, "charging dock",
                  status=status, minutes=(1, 3), note=note, persons=[])

    def patrols(self, day, hhmms):
        for hhmm in hhmms:
            route = self.rng.choice(["east corridor", "west corridor",
                                     "day room"])
            self.task(day, hhmm, "Patrol", {"route": route},
                      ["Patrol"], self.here, route, minutes=(5, 12),
                      persons=[])


def generate(seed=SEED):
    g = Gen(seed)
    # ----- Monday 2024-10-07 -------------------------------------------
    d = "2024-10-07"
    for i, room in enumerate(["room 3", "room 5", "room 7"]):
        g.scan(d, "07:%02d" % (20 + 8 * i), room)
    g.talk(d, "07:52", "nurses station", [
        ("Amara Okafor", "Good morning! Please bring the insulin to room 3 "
                         "for Mr. Hughes."),
        ("robot", "Good morning, Amara. I will bring the insulin to room 3 "
                  "right away.")])
    g.deliver(d, "08:00", "insulin", "room 3", say_end=[
        ("robot", "Good morning, Mr. Hughes. Here is your insulin."),
        ("Walter Hughes", "Thank you. Could you bring me the newspaper "
                          "later?")])
    g.deliver(d, "08:30", "paracetamol", "room 12", say_end=[
        ("robot", "Here is your paracetamol, Mrs. Price.")])
    g.task(d, "10:00", "FetchLinen", {"item": "blankets", "from": "linen room",
                                      "to": "room 5"},
           ["LinenService", "FetchLinen"], "linen room", "room 5", say_end=[
               ("Greta Lindqvist", "Lovely, it was so cold last night.")])
    g.task(d, "11:00", "EscortPatient", {"patient": "Tomasz Nowak",
                                         "from": "room 7",
                                         "to": "physiotherapy"},
           ["PatientTransport", "EscortPatient"], "room 7", "physiotherapy",
           minutes=(6, 10), persons=["Tomasz Nowak"],
           say_start=[("robot", "Mr. Nowak, I will take you to "
                                "physiotherapy now.")])
    g.dock(d, "12:30")
    g.task(d, "14:00", "RestockSupplies", {"item": "gloves",
                                           "from": "storage room",
                                           "to": "nurses station"},
           ["Logistics", "RestockSupplies"], "storage room", "nurses station")
    g.task(d, "15:30", "CollectSample", {"sample": "blood sample",
                                         "room": "room 9",
                                         "patient": "Fatima Haddad",
                                         "to": "lab"},
           ["Logistics", "CollectSample"], "room 9", "lab", say_start=[
               ("Lukas Brandt", "The blood sample of Ms. Haddad is ready. "
                                "Please take it to the lab."),
               ("robot", "I will take it to the lab.")])
    g.task(d, "16:10", "GreetVisitor", {"visitor": "Sam Price",
                                        "at": "entrance"},
           ["Reception", "GreetVisitor"], "entrance", "entrance",
           minutes=(1, 2), persons=["Sam Price"], say_end=[
               ("robot", "Hello, welcome to ward 3B. How can I help you?"),
               ("Sam Price", "Hi, I'm Sam Price. I'm here to see my mother, "
                             "Eleanor Price.")])
    g.task(d, "16:14", "GuideVisitor", {"visitor": "Sam Price",
                                        "from": "entrance", "to": "room 12"},
           ["Reception", "GuideVisitor"], "entrance", "room 12",
           persons=["Sam Price"])
    g.patrols(d, ["18:10", "19:15"])
    g.dock(d, "20:00")

    # ----- Tuesday 2024-10-08 ------------------------------------------
    d = "2024-10-08"
    for i, room in enumerate(["room 7", "room 9", "room 14"]):
        g.scan(d, "07:%02d" % (20 + 8 * i), room)
    g.deliver(d, "08:00", "insulin", "room 3")
    g.absent.add("Fatima Haddad")
    g.deliver(d, "08:20", "heparin", "room 9", status="failed",
              note="the patient was not in her room",
              say_end=[("robot", "Ms. Haddad is not in her room. I will try "
                                 "again later.")])
    g.talk(d, "08:36", "nurses station", [
        ("Lukas Brandt", "Ms. Haddad is at radiology until noon."),
        ("robot", "Thank you, Lukas. I will bring her heparin this "
                  "afternoon.")])
    g.deliver(d, "08:45", "amoxicillin", "room 14", say_end=[
        ("robot", "Mr. Alvarez, here is your amoxicillin.")])
    g.talk(d, "09:30", "room 5", [
        ("Greta Lindqvist", "Could you bring me two extra pillows, please?"),
        ("robot", "Of course, Ms. Lindqvist. I will get pillows from the "
                  "linen room.")])
    g.task(d, "09:36", "FetchLinen", {"item": "pillows", "from": "linen room",
                                      "to": "room 5"},
           ["LinenService", "FetchLinen"], "linen room", "room 5")
    g.task(d, "11:00", "CollectSample", {"sample": "urine sample",
                                         "room": "room 14",
                                         "patient": "Ruben Alvarez",
                                         "to": "lab"},
           ["Logistics", "CollectSample"], "room 14", "lab")
    g.dock(d, "12:30")
    g.absent.discard("Fatima Haddad")
    g.empty_rooms.add("room 11")
    g.task(d, "14:00", "DisinfectRoom", {"room": "room 11",
                                         "agent": "UV lamp"},
           ["Housekeeping", "DisinfectRoom"], "room 11", "room 11",
           minutes=(15, 20), persons=[])
    g.deliver(d, "15:00", "heparin", "room 9", say_end=[
        ("robot", "Here is your heparin, Ms. Haddad."),
        ("Fatima Haddad", "Thank you, sorry I missed you this morning.")])
    g.task(d, "16:30", "EscortPatient", {"patient": "Walter Hughes",
                                         "from": "room 3", "to": "radiology"},
           ["PatientTransport", "EscortPatient"], "room 3", "radiology",
           minutes=(6, 10), persons=["Walter Hughes"])
    g.patrols(d, ["18:20"])
    g.dock(d, "20:00")

    # ----- Wednesday 2024-10-09 ----------------------------------------
    d = "2024-10-09"
    for i, room in enumerate(["room 3", "room 12"]):
        g.scan(d, "07:%02d" % (20 + 8 * i), room)
    g.talk(d, "07:50", "nurses station", [
        ("Amara Okafor", "Fresh bed sheets came from the laundry. Please "
                         "change the sheets in room 12 this morning."),
        ("robot", "Understood. I will bring bed sheets to room 12.")])
    g.deliver(d, "08:00", "insulin", "room 3")
    g.deliver(d, "08:30", "morphine", "room 7", say_end=[
        ("robot", "Mr. Nowak, here is your morphine."),
        ("Tomasz Nowak", "Thanks, my knee hurts a lot today.")])
    g.task(d, "10:00", "FetchLinen", {"item": "bed sheets",
                                      "from": "linen room", "to": "room 12"},
           ["LinenService", "FetchLinen"], "linen room", "room 12",
           status="failed", note="the linen room door was locked",
           persons=[], say_end=[("robot", "The linen room door is locked. I "
                                          "could not get the bed sheets.")])
    g.task(d, "10:40", "FetchLinen", {"item": "bed sheets",
                                      "from": "laundry cart",
                                      "to": "room 12"},
           ["LinenService", "FetchLinen"], "laundry cart", "room 12",
           say_end=[("Eleanor Price", "Thank you, dear.")])
    g.task(d, "11:30", "EscortPatient", {"patient": "Ruben Alvarez",
                                         "from": "room 14",
                                         "to": "main entrance"},
           ["PatientTransport", "EscortPatient"], "room 14", "main entrance",
           persons=["Ruben Alvarez"], say_start=[
               ("Ruben Alvarez", "Today I am finally going home!"),
               ("robot", "Congratulations, Mr. Alvarez. I will walk you to "
                         "the main entrance.")])
    g.empty_rooms.add("room 14")
    g.task(d, "13:00", "EscortPatient", {"patient": "Greta Lindqvist",
                                         "from": "room 5",
                                         "to": "physiotherapy"},
           ["PatientTransport", "EscortPatient"], "room 5", "physiotherapy",
           minutes=(6, 10), persons=["Greta Lindqvist"])
    g.task(d, "14:30", "RestockSupplies", {"item": "syringes",
                                           "from": "storage room",
                                           "to": "medication cart"},
           ["Logistics", "RestockSupplies"], "storage room", "pharmacy")
    g.talk(d, "16:00", "room 7", [
        ("Ines Moreau", "Please keep an eye on Mr. Nowak. His blood pressure "
                        "was low this morning."),
        ("robot", "Understood, Dr. Moreau. I will check on him every hour.")],
        persons=["Tomasz Nowak"])
    g.scan(d, "17:00", "room 7", goal="Checks")
    g.scan(d, "18:00", "room 7", goal="Checks")
    g.patrols(d, ["18:40"])
    g.dock(d, "20:00", status="failed",
           note="dock A was occupied by the cleaning robot")
    g.dock(d, "20:05", station="dock B")

    # ----- Thursday 2024-10-10 -----------------------------------------
    d = "2024-10-10"
    for i, room in enumerate(["room 5", "room 9", "room 14"]):
        g.scan(d, "07:%02d" % (20 + 8 * i), room)
    g.deliver(d, "08:00", "insulin", "room 3")
    g.deliver(d, "08:20", "heparin", "room 9")
    g.task(d, "09:00", "GreetVisitor", {"visitor": "Hannah Weiss",
                                        "at": "entrance"},
           ["Reception", "GreetVisitor"], "entrance", "entrance",
           minutes=(1, 2), persons=["Hannah Weiss"], say_end=[
               ("Hannah Weiss", "Good morning, I'm Hannah Weiss from the "
                                "hospital pharmacy. I'm here to check the "
                                "medication cart."),
               ("robot", "Good morning, Ms. Weiss. Welcome to ward 3B.")])
    g.task(d, "09:04", "GuideVisitor", {"visitor": "Hannah Weiss",
                                        "from": "entrance",
                                        "to": "nurses station"},
           ["Reception", "GuideVisitor"], "entrance", "nurses station",
           persons=["Hannah Weiss"])
    g.task(d, "10:30", "EscortPatient", {"patient": "Fatima Haddad",
                                         "from": "room 9", "to": "radiology"},
           ["PatientTransport", "EscortPatient"], "room 9", "radiology",
           status="failed", note="the elevator was out of service",
           persons=["Fatima Haddad", "Lukas Brandt"], say_end=[
               ("robot", "The elevator is out of service. I cannot take Ms. "
                         "Haddad to radiology."),
               ("Lukas Brandt", "Don't worry, I will take her down "
                                "myself.")])
    g.task(d, "13:00", "DisinfectRoom", {"room": "room 14",
                                         "agent": "UV lamp"},
           ["Housekeeping", "DisinfectRoom"], "room 14", "room 14",
           minutes=(15, 20), persons=[])
    g.task(d, "14:00", "CollectSample", {"sample": "blood sample",
                                         "room": "room 5",
                                         "patient": "Greta Lindqvist",
                                         "to": "lab"},
           ["Logistics", "CollectSample"], "room 5", "lab")
    g.task(d, "15:00", "FetchLinen", {"item": "blankets",
                                      "from": "linen room", "to": "room 9"},
           ["LinenService", "FetchLinen"], "linen room", "room 9")
    g.task(d, "17:00", "GreetVisitor", {"visitor": "Sam Price",
                                        "at": "entrance"},
           ["Reception", "GreetVisitor"], "entrance", "entrance",
           minutes=(1, 2), persons=["Sam Price"], say_end=[
               ("robot", "Welcome back, Mr. Price."),
               ("Sam Price", "Hello again! How is my mother today?"),
               ("robot", "She slept well last night.")])
    g.task(d, "17:04", "GuideVisitor", {"visitor": "Sam Price",
                                        "from": "entrance", "to": "room 12"},
           ["Reception", "GuideVisitor"], "entrance", "room 12",
           persons=["Sam Price"])
    g.patrols(d, ["18:30", "19:20"])
    g.dock(d, "20:00")

    # ----- Friday 2024-10-11 -------------------------------------------
    d = "2024-10-11"
    for i, room in enumerate(["room 3", "room 7", "room 12"]):
        g.scan(d, "07:%02d" % (20 + 8 * i), room)
    g.deliver(d, "08:00", "insulin", "room 3", say_end=[
        ("robot", "Good morning, Mr. Hughes. Your insulin, as every "
                  "morning."),
        ("Walter Hughes", "You are always on time, thank you!")])
    g.deliver(d, "08:30", "paracetamol", "room 9")
    g.deliver(d, "09:00", "morphine", "room 7")
    g.task(d, "10:00", "EscortPatient", {"patient": "Tomasz Nowak",
                                         "from": "room 7",
                                         "to": "physiotherapy"},
           ["PatientTransport", "EscortPatient"], "room 7", "physiotherapy",
           minutes=(6, 10), persons=["Tomasz Nowak"])
    g.talk(d, "11:00", "room 12", [
        ("Eleanor Price", "Could you tell the nurse that my drip is empty?"),
        ("robot", "Of course. I will tell Nurse Brandt right away.")])
    g.task(d, "11:02", "CallNurse", {"nurse": "Lukas Brandt",
                                     "room": "room 12",
                                     "message": "drip empty"},
           ["Care", "CallNurse"], "room 12", "nurses station",
           persons=["Lukas Brandt"], say_end=[
               ("robot", "Lukas, Mrs. Price in room 12 says her drip is "
                         "empty."),
               ("Lukas Brandt", "Thanks, I'm on my way.")])
    g.task(d, "13:00", "RestockSupplies", {"item": "gloves",
                                           "from": "storage room",
                                           "to": "nurses station"},
           ["Logistics", "RestockSupplies"], "storage room", "nurses station")
    g.task(d, "14:00", "CollectSample", {"sample": "blood sample",
                                         "room": "room 12",
                                         "patient": "Eleanor Price",
                                         "to": "lab"},
           ["Logistics", "CollectSample"], "room 12", "lab", status="failed",
           note="the sample tube had no label", say_end=[
               ("robot", "The sample tube has no label. I cannot take it to "
                         "the lab.")])
    g.scan(d, "15:00", "room 5", goal="Checks")
    g.patrols(d, ["16:30"])
    g.dock(d, "18:00")
    return g.lines


def write(path, seed=SEED):
    lines = generate(seed)
    with open(path, "w", encoding="utf-8") as f:
        for ln in lines:
            f.write(json.dumps(ln, ensure_ascii=False) + "\n")
    return len(lines)


# ======================================================================
# Ground truth: read the JSON Lines back.

class Occ:
    """One occurrence of an action: from its first 'running' observation to
    its final status."""

    def __init__(self, name, args, t0, t1, status, first, last):
        self.name, self.args = name, args
        self.t0, self.t1, self.status = t0, t1, status
        self.first, self.last = first, last   # the observations

    @property
    def ok(self):
        return self.status == "succeeded"

    @property
    def span(self):
        return Span(self.t0, self.t1, self.name)

    def __repr__(self):
        return "%s %s %s" % (self.span, self.status, self.args)


class History:
    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            self.obs = [json.loads(x) for x in f if x.strip()]
        for o in self.obs:
            o["_t"] = parse_time(o["t"])
        self.occ = []
        self.speech = []   # (t, speaker, text)
        open_ = {}
        for o in self.obs:
            a = o.get("action")
            if a:
                key = (a["name"], json.dumps(a.get("args"), sort_keys=True))
                if a["status"] == "running":
                    open_.setdefault(key, o)
                else:
                    first = open_.pop(key, o)
                    self.occ.append(Occ(a["name"], a.get("args") or {},
                                        first["_t"], o["_t"], a["status"],
                                        first, o))
            for u in o.get("speech") or []:
                self.speech.append((o["_t"], u.get("speaker", ""), u["text"]))
        assert not open_, open_

    def find(self, name=None, ok=None, day=None, before=None, **args):
        out = []
        for e in self.occ:
            if name and e.name != name:
                continue
            if ok is not None and e.ok != ok:
                continue
            if day and day_of(e.t0) != day:
                continue
            if before and e.t1 > parse_time(before):
                continue
            if any(e.args.get(k) != v for k, v in args.items()):
                continue
            out.append(e)
        return out

    def said(self, speaker=None, day=None, contains=None, not_speaker=None):
        out = []
        for t, s, x in self.speech:
            if speaker and s != speaker:
                continue
            if not_speaker and s == not_speaker:
                continue
            if day and day_of(t) != day:
                continue
            if contains and contains.lower() not in x.lower():
                continue
            out.append((t, s, x))
        return out


def questions(path):
    H = History(path)
    Q = QuestionSet("hospital")
    MON, TUE, WED, THU, FRI = ("2024-10-07", "2024-10-08", "2024-10-09",
                               "2024-10-10", "2024-10-11")
    sat = "2024-10-12T09:00:00Z"

    def one(xs, i=0):
        assert xs, "no such occurrence"
        return xs[i]

    # ---- where --------------------------------------------------------
    e = one(H.find("DeliverMedication", ok=True, day=MON, medication="insulin"))
    Q.words("where", "Where did you take the insulin on Monday morning?",
            "2024-10-08T12:00:00Z", [[e.args["room"]]], e.t1, e.args["room"])
    e = one(H.find("FetchLinen", ok=True, day=WED, item="bed sheets"), -1)
    Q.words("where", "Where did you drop off the clean bed sheets on "
            "Wednesday?", "2024-10-09T18:00:00Z", [[e.args["to"]]], e.t1,
            e.args["to"])
    Q.words("where", "Where did you finally get the bed sheets from on "
            "Wednesday?", "2024-10-10T09:30:00Z", [[e.args["from"]]], e.t1,
            e.args["from"], none=["linen room"])
    e = one(H.find("EscortPatient", ok=True, day=TUE,
                   patient="Walter Hughes"))
    Q.words("where", "Where did you escort Walter Hughes on Tuesday?", sat,
            [[e.args["to"]]], e.t1, e.args["to"])
    e = one(H.find("RestockSupplies", ok=True, item="syringes"))
    Q.words("where", "Where did you stow the syringes?", sat,
            [[e.args["to"]]], e.t1, e.args["to"])
    e = one(H.find("GuideVisitor", ok=True, day=THU, visitor="Hannah Weiss"))
    Q.words("where", "Where did you bring Hannah Weiss after greeting her "
            "on Thursday?", sat, [[e.args["to"]]], e.t1, e.args["to"])

    # ---- when ---------------------------------------------------------
    e = one(H.find("DeliverMedication", ok=True, medication="morphine"))
    Q.time("when", "When did you bring morphine to anyone for the first "
           "time?", sat, [e.span])
    e = one(H.find("DockCharger", ok=True, before=sat), -1)
    Q.time("when", "When did you last dock at the charger?", sat, [e.span])
    es = H.find("FetchLinen", ok=True)
    Q.time("when", "When did you fetch linen for the second time this week?",
           sat, [one(es, 1).span])
    e = one(H.find("ScanRoom", ok=True, day=FRI, room="room 12"))
    Q.time("when", "When did you check on room 12 this morning?",
           "2024-10-11T19:00:00Z", [e.span])

    # ---- who ----------------------------------------------------------
    e = one(H.find("GreetVisitor", ok=True, day=THU))
    vis = [x.args["visitor"] for x in H.find("GreetVisitor", ok=True, day=THU)]
    Q.words("who", "Who did you greet at the entrance on Thursday, "
            "October 10?", sat, [[v.split()[-1]] for v in vis],
            e.t1, ", ".join(vis))
    e = one(H.find("DeliverMedication", ok=True, medication="amoxicillin"))
    Q.words("who", "Who did you give the amoxicillin to?", sat,
            [[e.args["patient"], e.args["patient"].split()[-1]]], e.t1,
            e.args["patient"])
    (t, who, text) = one(H.said(day=TUE, contains="pillows",
                                not_speaker="robot"))
    Q.words("who", "Who asked you for extra pillows on Tuesday?", sat,
            [[who, who.split()[-1]]], t, who)
    e = one(H.find("EscortPatient", ok=True, day=FRI))
    Q.words("who", "Who did you escort yesterday?", sat,
            [[e.args["patient"], e.args["patient"].split()[-1]]], e.t1,
            e.args["patient"])

    d0, d1 = day_span(FRI)
    met = [(o["_t"], p) for o in H.obs if d0 <= o["_t"] < d1
           and o.get("location") == "nurses station"
           for p in o.get("persons") or []]
    names = sorted({p for _, p in met})
    Q.words("who", "Who did you meet at the nurses station yesterday?", sat,
            [[n, n.split()[-1]] for n in names], max(t for t, _ in met),
            ", ".join(names))

    # ---- say ----------------------------------------------------------
    (t, who, text) = one(H.said(speaker="Amara Okafor", day=WED))
    Q.words("say", "What did Nurse Okafor tell you on Wednesday morning?",
            "2024-10-09T18:00:00Z",
            must_contain(text, ["sheets", "room 12"]), t, text)
    (t, who, text) = one(H.said(speaker="robot", day=FRI, contains="Hughes"))
    Q.words("say", "What did you say to Mr. Hughes when you brought his "
            "insulin yesterday?", sat,
            must_contain(text, ["insulin", "every morning"]),
            t, text)
    (t, who, text) = one(H.said(speaker="Ines Moreau"))
    Q.words("say", "What did the doctor ask you to do?", sat,
            must_contain(text, ["Nowak"]) +
            [["keep an eye", "blood pressure"]], t, text)

    # ---- see ----------------------------------------------------------
    everything = sorted({o["type"] for x in H.obs for o in x.get("objects")
                         or []})

    def others(seen):
        return [variants(s) for s in everything if s not in seen]

    e = one(H.find("ScanRoom", ok=True, day=TUE, room="room 7"))
    seen = sorted({o["type"] for o in e.last.get("objects") or []})
    Q.words("see", "What did you see when you scanned room 7 on Tuesday?",
            sat, [variants(s) for s in seen], e.t1, ", ".join(seen),
            k=(len(seen) + 1) // 2, others=others(seen))
    e = one(H.find("ScanRoom", ok=True, day=THU, room="room 14"))
    seen = sorted({o["type"] for o in e.last.get("objects") or []})
    Q.words("see", "Which objects were in room 14 when you looked in on "
            "Thursday morning?", sat, [variants(s) for s in seen], e.t1,
            ", ".join(seen), k=(len(seen) + 1) // 2, others=others(seen))

    # ---- which --------------------------------------------------------
    e = one(H.find("DeliverMedication", ok=True, day=FRI, room="room 9"))
    Q.words("which", "Which medication did you bring to room 9 on Friday?",
            sat, [[e.args["medication"]]], e.t1, e.args["medication"])
    e = one(H.find("RestockSupplies", ok=True, day=MON))
    Q.words("which", "What did you restock at the nurses station on Monday?",
            sat, [[e.args["item"]]], e.t1, e.args["item"])

    # ---- count --------------------------------------------------------
    es = H.find("DeliverMedication", ok=True, day=TUE)
    Q.count("count", "How many medication deliveries did you complete on "
            "Tuesday?", sat, len(es), es[-1].t1)
    es = H.find("EscortPatient", ok=True)
    Q.count("count", "How many times did you successfully take a patient "
            "somewhere this week?", sat, len(es), es[-1].t1)
    es = [e for e in H.find(ok=True, day=THU) if e.args.get("to") == "lab"]
    Q.count("count", "How often did you go to the lab on Thursday?", sat,
            len(es), es[-1].t1)

    # ---- day ----------------------------------------------------------
    es = H.find("EscortPatient", ok=True, patient="Greta Lindqvist",
                to="physiotherapy")
    Q.day("day", "On what day did you take Greta Lindqvist to "
          "physiotherapy?", sat, [day_of(e.t0) for e in es], es[-1].t1)
    es = H.find("DisinfectRoom", ok=True, room="room 14")
    Q.day("day", "Which day did you disinfect room 14?", sat,
          [day_of(e.t0) for e in es], es[-1].t1)

    # ---- yes / no -----------------------------------------------------
    es = H.find("DeliverMedication", day=TUE, medication="heparin",
                before="2024-10-08T12:00:00Z")
    Q.yesno("yesno", "Did you manage to give Ms. Haddad her heparin on "
            "Tuesday morning?", sat, any(e.ok for e in es), es[-1].t1)
    es = H.find("EscortPatient", day=THU, patient="Fatima Haddad")
    Q.yesno("yesno", "Did you take Fatima Haddad to radiology on Thursday?",
            sat, any(e.ok for e in es), es[-1].t1)
    es = H.find("GreetVisitor", ok=True, day=MON, visitor="Sam Price")
    Q.yesno("yesno", "Did you meet Sam Price on Monday?", sat, bool(es),
            es[-1].t1)

    # ---- failed -------------------------------------------------------
    fs = H.find(ok=False, day=THU)
    assert [e.name for e in fs] == ["EscortPatient"], fs
    Q.words("failed", "What failed on Thursday?", sat,
            [["escort*", "accompan*", "take", "radiology", "haddad"]],
            fs[-1].t1, "%s %s (%s)" % (fs[0].name, fs[0].args,
                                        fs[0].last.get("note")))
    fs = H.find(ok=False, day=WED)
    names = sorted({e.name for e in fs})
    Q.words("failed", "What went wrong on Wednesday?", sat,
            [["linen", "sheets", "fetch*"], ["dock*", "charg*"]],
            fs[-1].t1, "; ".join("%s %s" % (e.name, e.args) for e in fs),
            k=1)
    fs = H.find(ok=False, day=FRI)
    Q.words("failed", "Was there anything you could not do yesterday?", sat,
            [["sample", "collect*", "lab", "label"]], fs[-1].t1,
            "; ".join("%s %s" % (e.name, e.args) for e in fs))
    return Q.items, H


if __name__ == "__main__":
    import sys
    n = write(sys.argv[1] if len(sys.argv) > 1 else "hospital.jsonl")
    print(n, "observations")
