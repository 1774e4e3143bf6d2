"""Fresh and untuned (written 2026-11-28, eleventh fresh round): "Pico",
the ward and front-desk robot of the Clinica Veterinaria Coyoacan, a small
animal clinic in Mexico City, Monday 2026-11-23 to Wednesday 2026-11-25,
local time (-06:00).

A history in a shape of its own: times with a "T", FOUR fraction digits
and a -06:00 offset ("2026-11-23T08:12:33.4821-06:00"; every line falls
between 06:00 and 17:59 local, so the local and the UTC day agree); no
`t_end` anywhere: each job is TWO lines, a "started" line carrying the
job's inputs and, minutes later, a closing line with the same name, the
status written "done", "error" or "cancelled", and in its args ONLY the
outcome (`{"weight_kg": 31.4}`, `{"temp_c": 37.2, "awake": true}`); the
reason of a failure in the closing line's `note` ("error: ...");
lowerCamel skill names (`escortToRoom`, `weighPatient`, `fetchMeds`,
`feedPatients`, `monitorRecovery`, `dischargePatient`, `callOwner`,
`restockFridge`, `cleanKennel`, `deliverSample`, `dock`); the animal as a
nested `patient {name, species, breed, chart}` beside a plain `owner`
string; drugs as `{drug, qty/ml/days}` items; the goal the visit
(`["visit V-2311"]`); persons as plain names or `{name, id}` whose id is
the ROLE ("vet", "vet tech", "reception"); speech one utterance a line,
speakers by first name, role or full name, the robot as "Pico", the far
end of a phone call as RAW speech (a bare string, no speaker); ward notes
that begin with the animal and its chart ("Nala (P-3871): ate nothing
again"); inpatients seen in their kennels with a state object and an
`in` relation.  No robot profile.

The truth is read back from the written lines (`Clinic`), never from the
generator's variables.  The questions are the vets', the receptionist's
and the owners', written before h2emv was asked them; nobody tuned on
them (docs/realqa.md, "An eleventh fresh untuned source pair (vetclinic,
minecheck), 2026-11-28").
"""

import datetime as _dt
import json
import random

from common import QuestionSet, Span, day_of, must_contain, one, \
    parse_time, variants

SEED = 20261123
MON, TUE, WED = "2026-11-23", "2026-11-24", "2026-11-25"
CST = _dt.timezone(_dt.timedelta(hours=-6))
ORTIZ = {"name": "Valeria Ortiz", "id": "vet"}
REYES = {"name": "Samuel Reyes", "id": "vet"}
TOMAS = {"name": "Tomas Pena", "id": "vet tech"}
KARLA = {"name": "Karla Mendoza", "id": "reception"}

BRUNO = {"name": "Bruno", "species": "dog", "breed": "labrador",
         "chart": "P-4471"}
NALA = {"name": "Nala", "species": "cat", "breed": "domestic shorthair",
        "chart": "P-3871"}
TOBY = {"name": "Toby", "species": "dog", "breed": "beagle",
        "chart": "P-3920"}
LUNA = {"name": "Luna", "species": "cat", "breed": "siamese",
        "chart": "P-4502"}
CANELA = {"name": "Canela", "species": "rabbit", "breed": "lop",
          "chart": "P-4488"}
MANGO = {"name": "Mango", "species": "parrot", "breed": "amazon",
         "chart": "P-4510"}
COCO = {"name": "Coco", "species": "dog", "breed": "chihuahua",
        "chart": "P-4519"}


def stamp(t_us):
    """Microseconds since the epoch -> '2026-11-23T08:12:33.4821-06:00'."""
    d = _dt.datetime.fromtimestamp(t_us // 1000000, CST)
    return d.strftime("%Y-%m-%dT%H:%M:%S") + ".%04d-06:00" % (
        (t_us % 1000000) // 100)


class Writer:
    def __init__(self, seed=SEED):
        self.rng = random.Random(seed)
        self.lines = []
        self.here = "ward"

    def at(self, day, hhmm):
        t = int(parse_time("%sT%s:00-06:00" % (day, hhmm)))
        return t * 1000000 + self.rng.randint(0, 50 * 1000000)

    def line(self, t_us, **f):
        ln = {"t": stamp(t_us)}
        ln.update({k: v for k, v in f.items() if v not in (None, [], "", {})})
        self.lines.append((t_us, ln))

    def job(self, day, hhmm, name, args, minutes, status="done", out=None,
            where=None, goal=None, persons=(), seen=(), note=None):
        where = where or self.here
        t = self.at(day, hhmm)
        self.line(t, location=where, goal=goal, persons=list(persons),
                  action={"name": name, "args": args, "status": "started"})
        end = t + int(minutes * 60 * 1000000) + self.rng.randint(0, 9999)
        act = {"name": name, "status": status}
        if out:
            act["args"] = out
        self.line(end, location=where, goal=goal, action=act,
                  persons=list(persons), objects=list(seen), note=note)
        self.here = where

    def say(self, day, hhmm, speaker, text, where=None, persons=()):
        where = where or self.here
        sp = text if speaker is None else {"speaker": speaker, "text": text}
        self.line(self.at(day, hhmm), location=where, persons=list(persons),
                  speech=sp)

    def note(self, day, hhmm, text, where=None, persons=()):
        where = where or self.here
        self.line(self.at(day, hhmm), location=where, note=text,
                  persons=list(persons))

    def write(self, path):
        with open(path, "w", encoding="utf-8") as f:
            for t, ln in sorted(self.lines, key=lambda x: x[0]):
                f.write(json.dumps(ln, ensure_ascii=False) + "\n")
        return len(self.lines)


def kennel(pet, kn, **state):
    return {"id": pet["chart"], "type": pet["species"], "state": state,
            "relations": [{"to": "kennel " + kn, "type": "in"}]}


def generate(seed=SEED):
    w = Writer(seed)
    # ---- Monday ---------------------------------------------------------
    d = MON
    w.job(d, "07:05", "feedPatients", {"kennels": ["K2", "K4"],
                                       "food": "recovery diet"}, 18,
          where="ward",
          seen=[kennel(TOBY, "K2", ate="all", bandage="dry"),
                kennel(NALA, "K4", ate="none", iv="running")])
    w.note(d, "07:30", "Nala (P-3871): ate nothing again, told Tomas",
           "ward", persons=[TOMAS])
    w.say(d, "08:10", "Karla", "Pico, Sarah Hughes is here with Bruno for "
          "his vaccination, please take them to exam 2.", "reception",
          persons=[KARLA, "Sarah Hughes"])
    w.job(d, "08:12", "escortToRoom",
          {"patient": BRUNO, "owner": "Sarah Hughes", "from": "waiting room",
           "room": "exam 2"}, 3, where="exam 2", goal=["visit V-2311"],
          persons=["Sarah Hughes"])
    w.job(d, "08:16", "weighPatient", {"patient": BRUNO}, 2,
          out={"weight_kg": 31.4}, where="exam 2", goal=["visit V-2311"],
          persons=["Sarah Hughes"])
    w.job(d, "08:40", "fetchMeds",
          {"drug": "DHPPi vaccine", "qty": 1, "for": "Bruno",
           "from": "vaccine fridge"}, 4, where="exam 2",
          goal=["visit V-2311"], persons=[ORTIZ, "Sarah Hughes"])
    w.say(d, "09:05", "Sarah Hughes", "Is it normal that he is so sleepy "
          "after the shot?", "exam 2", persons=["Sarah Hughes"])
    w.say(d, "09:06", "Pico", "Yes, a sleepy day after a vaccine is common. "
          "Dr Ortiz says to call us if he vomits or his face swells.",
          "exam 2", persons=["Sarah Hughes"])
    w.job(d, "10:00", "deliverSample",
          {"sample": {"kind": "blood", "tube": "EDTA", "patient": "Nala",
                      "chart": "P-3871"}, "to": "in-house lab"}, 5,
          where="lab", persons=[TOMAS])
    w.say(d, "11:15", "Karla", "Walk-in: Elena Ruiz with her rabbit Canela, "
          "not eating since yesterday. Exam 1 please.", "reception",
          persons=[KARLA, "Elena Ruiz"])
    w.job(d, "11:17", "escortToRoom",
          {"patient": CANELA, "owner": "Elena Ruiz", "from": "waiting room",
           "room": "exam 1"}, 2, where="exam 1", goal=["visit V-2316"],
          persons=["Elena Ruiz"])
    w.job(d, "11:20", "weighPatient", {"patient": CANELA}, 2,
          out={"weight_kg": 1.9}, where="exam 1", goal=["visit V-2316"],
          persons=["Elena Ruiz", ORTIZ])
    w.job(d, "12:30", "cleanKennel", {"kennel": "K3",
                                      "disinfectant": "F10"}, 15,
          where="ward")
    w.job(d, "13:40", "restockFridge",
          {"items": [{"drug": "rabies vaccine", "qty": 20},
                     {"drug": "DHPPi vaccine", "qty": 10}],
           "supplier": "VetSupply"}, 12, where="pharmacy",
          persons=[KARLA, {"id": "VetSupply courier"}])
    w.note(d, "13:55", "VetSupply box: signed for by Karla, cold chain OK "
           "(4.1 C on arrival)", "pharmacy", persons=[KARLA])
    w.job(d, "16:00", "monitorRecovery",
          {"patient": TOBY, "checks": ["temperature", "wound"]}, 6,
          out={"temp_c": 38.6, "wound": "clean"}, where="ward")
    w.job(d, "17:30", "dock", {"station": "charging nook"}, 1,
          where="charging nook")

    # ---- Tuesday --------------------------------------------------------
    d = TUE
    w.job(d, "07:00", "feedPatients", {"kennels": ["K2", "K4"],
                                       "food": "recovery diet"}, 15,
          where="ward",
          seen=[kennel(TOBY, "K2", ate="all", bandage="dry"),
                kennel(NALA, "K4", ate="half", iv="running")])
    w.job(d, "07:40", "escortToRoom",
          {"patient": LUNA, "owner": "Jorge Castillo", "from": "reception",
           "room": "surgery prep"}, 3, where="surgery prep",
          goal=["visit V-2320"], persons=["Jorge Castillo"])
    w.say(d, "07:45", "Jorge Castillo", "Luna has had no food since eight "
          "last night, like you asked. When can I pick her up?",
          "surgery prep", persons=["Jorge Castillo"])
    w.say(d, "07:46", "Pico", "Dr Reyes plans to finish by noon. Reception "
          "will call you; pickup is usually after 4 pm.", "surgery prep",
          persons=["Jorge Castillo"])
    w.job(d, "08:30", "fetchMeds",
          {"drug": "isoflurane", "qty": 1, "unit": "bottle",
           "for": "theatre", "from": "pharmacy cabinet B"}, 3,
          status="error", where="pharmacy",
          note="error: cabinet B stayed locked, my badge was not accepted")
    w.say(d, "08:50", "Tomas", "I opened cabinet B for you, try again.",
          "pharmacy", persons=[TOMAS])
    w.job(d, "08:52", "fetchMeds",
          {"drug": "isoflurane", "qty": 1, "unit": "bottle",
           "for": "theatre", "from": "pharmacy cabinet B"}, 4,
          where="theatre", persons=[TOMAS])
    w.note(d, "09:05", "Luna (P-4502): into theatre for her spay, Dr Reyes "
           "operating, Tomas on anaesthesia", "theatre",
           persons=[REYES, TOMAS])
    w.job(d, "10:00", "dischargePatient",
          {"patient": TOBY, "owner": "Mariana Lopez",
           "meds": [{"drug": "carprofen", "days": 5}], "to": "reception"},
          10, where="reception", goal=["visit V-2290"],
          persons=["Mariana Lopez", KARLA])
    w.say(d, "10:08", "Mariana Lopez", "Thank you! How often should I "
          "change his bandage?", "reception", persons=["Mariana Lopez"])
    w.say(d, "10:09", "Pico", "Every two days. Dr Ortiz wants to see Toby "
          "again next Monday for the stitches.", "reception",
          persons=["Mariana Lopez"])
    w.job(d, "11:30", "monitorRecovery",
          {"patient": LUNA, "checks": ["temperature", "awake"]}, 5,
          out={"temp_c": 37.2, "awake": True}, where="recovery")
    w.job(d, "12:15", "deliverSample",
          {"sample": {"kind": "biopsy", "tube": "formalin pot",
                      "patient": "Luna", "chart": "P-4502"},
           "to": "courier pickup", "lab": "LabVet Norte"}, 6,
          where="reception", persons=[KARLA])
    w.job(d, "13:00", "escortToRoom",
          {"patient": MANGO, "owner": "Paul Becker", "from": "waiting room",
           "room": "exam 3"}, 20, status="cancelled", where="waiting room",
          goal=["visit V-2324"], persons=["Paul Becker"],
          note="cancelled: the owner left before the exam, exam 3 was "
               "still busy")
    w.say(d, "13:18", "Paul Becker", "I can't wait any longer, I have to "
          "get back to work. I'll come back on Thursday.", "waiting room",
          persons=["Paul Becker"])
    w.job(d, "14:30", "cleanKennel", {"kennel": "K2",
                                      "disinfectant": "F10"}, 15,
          where="ward")
    w.job(d, "15:00", "callOwner",
          {"owner": "Jorge Castillo", "phone": "55 1234 8890",
           "about": "Luna pickup"}, 2, where="reception")
    w.say(d, "15:01", "Pico", "Hello Mr Castillo, Luna is awake and doing "
          "well, you can pick her up after 4 pm.", "reception")
    w.say(d, "15:02", None, "okay great I will be there at four thirty",
          "reception")
    w.job(d, "16:35", "dischargePatient",
          {"patient": LUNA, "owner": "Jorge Castillo",
           "meds": [{"drug": "meloxicam", "days": 3}], "cone": True,
           "to": "reception"}, 8, where="reception", goal=["visit V-2320"],
          persons=["Jorge Castillo", KARLA])
    w.job(d, "17:40", "dock", {"station": "charging nook"}, 1,
          where="charging nook")

    # ---- Wednesday ------------------------------------------------------
    d = WED
    w.job(d, "07:00", "feedPatients", {"kennels": ["K4"],
                                       "food": "recovery diet"}, 10,
          where="ward", seen=[kennel(NALA, "K4", ate="all", iv="off")])
    w.note(d, "07:15", "Nala (P-3871): ate the whole bowl, first time since "
           "Saturday", "ward")
    w.job(d, "08:00", "weighPatient", {"patient": NALA}, 3,
          out={"weight_kg": 3.6}, where="ward")
    w.say(d, "09:00", "Dr Ortiz", "Pico, Nala's bloods came back fine. "
          "Prepare her discharge for this afternoon and call Mr Kim.",
          "ward", persons=[ORTIZ])
    w.job(d, "10:15", "escortToRoom",
          {"patient": CANELA, "owner": "Elena Ruiz", "from": "waiting room",
           "room": "exam 1"}, 2, where="exam 1", goal=["visit V-2331"],
          persons=["Elena Ruiz"])
    w.job(d, "10:40", "fetchMeds",
          {"drug": "metoclopramide", "ml": 0.5, "for": "Canela",
           "from": "pharmacy cabinet A"}, 4, where="exam 1",
          goal=["visit V-2331"], persons=[ORTIZ, "Elena Ruiz"])
    w.job(d, "11:30", "restockFridge",
          {"items": [{"drug": "leptospirosis vaccine", "qty": 12}],
           "from": "storeroom"}, 4, status="error", where="pharmacy",
          note="error: vaccine fridge door alarm, 9.8 C inside, stopped "
               "loading")
    w.say(d, "11:50", "Tomas", "The vaccine fridge door seal is torn. I "
          "moved all the vaccines to the small fridge in the lab.",
          "pharmacy", persons=[TOMAS])
    w.job(d, "13:00", "cleanKennel", {"kennel": "K1",
                                      "disinfectant": "F10"}, 12,
          where="ward")
    w.job(d, "14:00", "callOwner",
          {"owner": "Daniel Kim", "phone": "55 9012 3344",
           "about": "Nala pickup"}, 2, where="reception")
    w.say(d, "14:01", "Pico", "Mr Kim, Nala is eating again and can go "
          "home today after 5 pm.", "reception")
    w.job(d, "15:00", "escortToRoom",
          {"patient": COCO, "owner": "Lucy Adams", "from": "waiting room",
           "room": "exam 2"}, 2, where="exam 2", goal=["visit V-2335"],
          persons=["Lucy Adams"])
    w.job(d, "15:04", "weighPatient", {"patient": COCO}, 2,
          out={"weight_kg": 2.8}, where="exam 2", goal=["visit V-2335"],
          persons=["Lucy Adams"])
    w.say(d, "15:10", "Lucy Adams", "He has a bad tooth at the back, he "
          "won't chew his biscuits.", "exam 2", persons=["Lucy Adams"])
    w.job(d, "17:10", "dischargePatient",
          {"patient": NALA, "owner": "Daniel Kim",
           "meds": [{"drug": "mirtazapine", "days": 7}], "to": "reception"},
          9, where="reception", persons=["Daniel Kim", KARLA])
    w.job(d, "17:50", "dock", {"station": "charging nook"}, 1,
          where="charging nook")
    return w


def write(path, seed=SEED):
    return generate(seed).write(path)


# ---------------------------------------------------------------------------
# The truth, read back from the lines

class Job:
    """A started line joined with the next closing line of the same name."""

    def __init__(self, start, end):
        self.name = start["action"]["name"]
        self.status = end["action"]["status"]
        self.args = start["action"].get("args") or {}
        self.out = end["action"].get("args") or {}
        self.t0, self.t1 = start["_t"], end["_t"]
        self.start, self.end = start, end

    @property
    def ok(self):
        return self.status == "done"

    @property
    def span(self):
        return Span(self.t0, self.t1, self.name)

    @property
    def pet(self):
        p = self.args.get("patient")
        return p.get("name") if isinstance(p, dict) else p

    def persons(self):
        return [p if isinstance(p, str) else p.get("name", p.get("id"))
                for p in self.start.get("persons", [])]


class Clinic:
    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            self.obs = [json.loads(x) for x in f if x.strip()]
        for o in self.obs:
            o["_t"] = parse_time(o["t"])
        self.jobs = []
        open_ = {}
        for o in self.obs:
            a = o.get("action")
            if not a:
                continue
            if a["status"] == "started":
                assert a["name"] not in open_, a
                open_[a["name"]] = o
            else:
                self.jobs.append(Job(open_.pop(a["name"]), o))
        assert not open_, open_
        self.notes = [o for o in self.obs if o.get("note")]
        self.speech = []
        for o in self.obs:
            s = o.get("speech")
            if isinstance(s, str):
                self.speech.append((o["_t"], None, s))
            elif s:
                self.speech.append((o["_t"], s["speaker"], s["text"]))

    def find(self, name=None, ok=None, day=None, pet=None, **args):
        return [j for j in self.jobs
                if (not name or j.name == name) and
                (ok is None or j.ok == ok) and
                (not day or day_of(j.t0) == day) and
                (not pet or j.pet == pet) and
                all(j.args.get(k) == v for k, v in args.items())]

    def note(self, contains, day=None):
        return [o for o in self.notes if contains.lower() in
                o["note"].lower() and (not day or day_of(o["_t"]) == day)]

    def said(self, speaker=None, contains=None, day=None, raw=False):
        return [(t, s, x) for t, s, x in self.speech
                if (s is None if raw else (not speaker or s == speaker)) and
                (not day or day_of(t) == day) and
                (not contains or contains.lower() in x.lower())]

    def seen(self, day=None):
        return [(o["_t"], x) for o in self.obs for x in o.get("objects", [])
                if not day or day_of(o["_t"]) == day]


def minutes_words(sec):
    m = int(round(sec / 60.0))
    out = []
    for k in (m - 1, m, m + 1):
        if k > 0:
            out += ["%d min*" % k, "%d minute*" % k]
    return out, m


def questions(path):
    C = Clinic(path)
    Q = QuestionSet("vetclinic")
    thu = "2026-11-26 15:00:00"        # Thursday 09:00 in Mexico City
    last = C.obs[-1]["_t"]

    # ---- when -----------------------------------------------------------
    e = one(C.find("escortToRoom", pet="Bruno"))
    Q.time("when", "When did you take Bruno to his exam room?", thu,
           [e.span])
    e = one(C.find("dischargePatient", pet="Luna"))
    Q.time("when", "What time did Luna go home?", thu, [e.span])
    e = C.find("feedPatients")[-1]
    Q.time("when", "When were the patients last fed?", thu, [e.span])
    t, s, x = one(C.said("Tomas", contains="cabinet B"))
    Q.time("when", "When did Tomas open the pharmacy cabinet for you?", thu,
           [Span(t - 60, t)], x)
    e = C.find("weighPatient")[0]
    Q.time("when", "When did you weigh the first patient this week?", thu,
           [e.span])
    e = one(C.find("restockFridge", ok=False))
    Q.time("when", "When did the vaccine fridge alarm go off?", thu,
           [e.span], e.end["note"])

    # ---- where ----------------------------------------------------------
    e = one(C.find("escortToRoom", pet="Bruno"))
    Q.words("where", "Where did you take Mrs Hughes and her dog?", thu,
            [variants(e.args["room"])], e.t1, e.args["room"],
            none=["waiting room"])
    e = one(C.find("fetchMeds", drug="isoflurane", ok=True))
    Q.words("where", "Where did the isoflurane come from?", thu,
            [["cabinet b"]], e.t1, e.args["from"])
    t, x = [(t, x) for t, x in C.seen() if x["id"] == NALA["chart"]][-1]
    Q.words("where", "Which kennel was Nala in?", thu,
            [variants(x["relations"][0]["to"], "k4")], t,
            x["relations"][0]["to"], none=["k2"])
    t, s, x = one(C.said("Tomas", contains="fridge"))
    Q.words("where", "Where are the vaccines now?", thu,
            [["small fridge", "lab", "fridge in the lab"]], t, x)
    e = one(C.find("deliverSample", ok=True, day=TUE))
    Q.words("where", "Where did Luna's biopsy go?", thu,
            [["labvet norte", "labvet", "courier"]], e.t1,
            "%s (%s)" % (e.args["lab"], e.args["to"]))

    # ---- day ------------------------------------------------------------
    o = one(C.note("spay"))
    Q.day("day", "Which day was Luna spayed?", thu, [day_of(o["_t"])],
          o["_t"])
    e = one(C.find("restockFridge", ok=True))
    Q.day("day", "What day did the VetSupply delivery arrive?", thu,
          [day_of(e.t0)], e.t1)
    e = C.find("escortToRoom", pet="Canela")[0]
    Q.day("day", "On which day did Canela first come in?", thu,
          [day_of(e.t0)], e.t1)

    # ---- who ------------------------------------------------------------
    o = one(C.note("theatre"))
    Q.words("who", "Who operated on Luna?", thu, [["reyes"]], o["_t"],
            o["note"], none=["ortiz"])
    o = one(C.note("signed for"))
    Q.words("who", "Who signed for the VetSupply box?", thu, [["karla"]],
            o["_t"], o["note"])
    e = one(C.find("dischargePatient", pet="Toby"))
    Q.words("who", "Who picked Toby up?", thu,
            [["mariana", "lopez"]], e.t1, e.args["owner"])
    e = one(C.find("callOwner", day=TUE))
    Q.words("who", "Who did you phone on Tuesday afternoon?", thu,
            [["castillo", "jorge"]], e.t1, e.args["owner"])
    e = one(C.find("escortToRoom", pet="Coco"))
    Q.words("who", "Who does Coco belong to?", thu,
            [["lucy", "adams"]], e.t1, e.args["owner"])
    o = one(C.note("anaesthesia"))
    Q.words("who", "Who did the anaesthesia for the spay?", thu,
            [["tomas"]], o["_t"], o["note"], none=["reyes"])

    # ---- say ------------------------------------------------------------
    t, s, x = one(C.said("Sarah Hughes"))
    Q.words("say", "What did Bruno's owner ask you?", thu,
            must_contain(x, ["sleepy"]) + [["shot", "vaccin*"]], t, x)
    t, s, x = one(C.said("Pico", contains="bandage") or
                  C.said("Pico", contains="two days"))
    Q.words("say", "What did you tell Mariana about the bandage?", thu,
            must_contain(x, ["two days"]), t, x)
    t, s, x = one(C.said("Paul Becker"))
    Q.words("say", "What did Mr Becker say before he left?", thu,
            [["work"], ["thursday"]], t, x, k=1)
    t, s, x = one(C.said("Dr Ortiz", day=WED))
    Q.words("say", "What did Dr Ortiz ask you to do on Wednesday morning?",
            thu, must_contain(x, ["discharge"]) + [["call", "kim"]], t, x)
    t, s, x = one(C.said("Pico", contains="Castillo"))
    Q.words("say", "What did you tell Mr Castillo on the phone?", thu,
            [["awake", "doing well"], ["4 pm", "4pm", "after 4"]], t, x,
            k=1)
    t, s, x = one(C.said(raw=True))
    Q.words("say", "What did Mr Castillo say when you called him?", thu,
            must_contain(x, ["four thirty"]), t, x)

    # ---- see ------------------------------------------------------------
    seen = C.seen(day=MON)
    Q.words("see", "Which animals were in the ward on Monday morning?", thu,
            [["toby", "beagle", "dog", "p 3920"],
             ["nala", "cat", "p 3871"]],
            max(t for t, x in seen), ", ".join(x["id"] for t, x in seen))
    t, x = [(t, x) for t, x in C.seen(day=TUE)
            if x["id"] == NALA["chart"]][0]
    Q.words("see", "How much did Nala eat on Tuesday?", thu,
            [[x["state"]["ate"]]], t, x["state"]["ate"],
            none=["none", "nothing"])

    # ---- which ----------------------------------------------------------
    e = one(C.find("fetchMeds", pet=None, **{"for": "Bruno"}))
    Q.words("which", "Which vaccine did Bruno get?", thu,
            [["dhppi"]], e.t1, e.args["drug"], none=["rabies"])
    e = one(C.find("cleanKennel", day=MON))
    Q.words("which", "Which kennel did you clean on Monday?", thu,
            [variants(e.args["kennel"])], e.t1, e.args["kennel"],
            none=["k2", "k1"])
    e = one(C.find("dischargePatient", pet="Luna"))
    Q.words("which", "What painkiller did Luna go home with?", thu,
            [[e.args["meds"][0]["drug"]]], e.t1, e.args["meds"][0]["drug"])
    e = one(C.find("escortToRoom", pet="Bruno"))
    Q.words("which", "What breed is Bruno?", thu,
            [[e.args["patient"]["breed"]]], e.t1, e.args["patient"]["breed"])
    e = one(C.find("escortToRoom", pet="Mango"))
    Q.words("which", "Which room was the parrot supposed to go to?", thu,
            [variants(e.args["room"])], e.t1, e.args["room"])

    # ---- count ----------------------------------------------------------
    e = one(C.find("weighPatient", pet="Bruno"))
    kg = e.out["weight_kg"]
    Q.words("count", "How much does Bruno weigh?", thu, [["%g" % kg]],
            e.t1, "%g kg" % kg)
    e = one(C.find("restockFridge", ok=True))
    n = sum(i["qty"] for i in e.args["items"] if i["drug"] == "rabies vaccine")
    Q.count("count", "How many rabies vaccines came in?", thu, n, e.t1)
    es = C.find("cleanKennel")
    Q.count("count", "How many kennels did you clean this week?", thu,
            len(es), es[-1].t1)
    es = C.find("dischargePatient", ok=True)
    Q.count("count", "How many patients went home this week?", thu,
            len(es), es[-1].t1, ", ".join(j.pet for j in es))
    e = one(C.find("monitorRecovery", pet="Luna"))
    Q.words("count", "What was Luna's temperature after the operation?",
            thu, [["%g" % e.out["temp_c"]]], e.t1, "%g C" % e.out["temp_c"])
    e = one(C.find("fetchMeds", drug="metoclopramide"))
    Q.words("count", "How much metoclopramide did you bring for Canela?",
            thu, [["%g ml" % e.args["ml"], "%g" % e.args["ml"]]], e.t1,
            "%g ml" % e.args["ml"])
    e = one(C.find("weighPatient", pet="Coco"))
    Q.words("count", "How heavy is Coco?", thu, [["%g" % e.out["weight_kg"]]],
            e.t1, "%g kg" % e.out["weight_kg"])
    e = one(C.find("dischargePatient", pet="Toby"))
    Q.count("count", "For how many days did Toby get carprofen?", thu,
            e.args["meds"][0]["days"], e.t1)

    # ---- yes / no -------------------------------------------------------
    es = C.find("escortToRoom", pet="Mango")
    Q.yesno("yesno", "Did the vet see Mr Becker's parrot?", thu,
            any(j.ok for j in es), last)
    t, x = [(t, x) for t, x in C.seen(day=MON)
            if x["id"] == NALA["chart"]][0]
    Q.yesno("yesno", "Did Nala eat anything on Monday?", thu,
            x["state"]["ate"] != "none", t)
    e = one(C.find("monitorRecovery", pet="Toby"))
    Q.yesno("yesno", "Was Toby's wound clean on Monday evening?", thu,
            e.out["wound"] == "clean", e.t1)
    e = C.find("fetchMeds", drug="isoflurane")[0]
    Q.yesno("yesno", "Did you get the isoflurane on the first try?", thu,
            e.ok, e.t1)

    # ---- failed ---------------------------------------------------------
    e = one(C.find("fetchMeds", ok=False))
    Q.words("failed", "Why couldn't you get the isoflurane at first?", thu,
            [["locked", "badge"]], e.t1, e.end["note"])
    e = one(C.find("restockFridge", ok=False))
    Q.words("failed", "What went wrong when you restocked the fridge on "
            "Wednesday?", thu, [["door alarm", "alarm", "9.8", "seal"]],
            e.t1, e.end["note"])
    e = one(C.find("escortToRoom", ok=False))
    Q.words("failed", "Why was the parrot's appointment cancelled?", thu,
            [["left", "work", "busy", "wait"]], e.t1, e.end["note"])
    es = C.find(day=TUE, ok=False)
    Q.words("failed", "What went wrong on Tuesday?", thu,
            [["isoflurane", "cabinet", "badge", "locked"],
             ["parrot", "mango", "becker", "exam 3"]], es[-1].t1,
            "; ".join("%s %s" % (j.name, j.end.get("note")) for j in es),
            k=1)

    # ---- how long, and what nobody else asks ----------------------------
    e = one(C.find("dischargePatient", pet="Luna"))
    ws, m = minutes_words(e.t1 - e.t0)
    Q.words("which", "How long did Luna's discharge take?", thu, [ws],
            e.t1, "%d min" % m)
    o = C.note("Nala")[0]
    Q.words("which", "What is Nala's chart number?", thu,
            [[NALA["chart"].lower()]], o["_t"], o["note"])
    e = one(C.find("callOwner", day=TUE))
    Q.words("which", "What number did you ring Mr Castillo on?", thu,
            [[e.args["phone"]]], e.t1, e.args["phone"])
    t, s, x = one(C.said("Pico", contains="next Monday"))
    Q.words("when", "When does Toby have to come back?", thu,
            [["next monday", "monday"]], t, x)
    t, s, x = one(C.said("Lucy Adams"))
    Q.words("failed", "What's the matter with Coco?", thu,
            must_contain(x, ["tooth"]), t, x)
    return Q.items, C


if __name__ == "__main__":
    import sys
    print(write(sys.argv[1] if len(sys.argv) > 1 else "vetclinic.jsonl"),
          "observations")
