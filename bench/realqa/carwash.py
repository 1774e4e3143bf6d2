"""Fresh and untuned (written 2026-11-28, tenth fresh round): "SUDS", the
attendant robot of Bright Lane Car Wash, a two-lane tunnel wash with a
detail bay in Naperville, Illinois, Monday 2026-11-23 to Wednesday
2026-11-25, Central time (-06:00).

A history in a shape of its own: `t` and `t_end` with a SPACE, WHOLE
seconds and a -06:00 offset ("2026-11-23 07:14:05-06:00"; every line
falls between 07:00 and 17:59 local, so the local and the UTC day agree);
each job is ONE line written when it ends, from `t` to `t_end`; skill
names in HYPHENATED TITLE CASE (`Check-In`, `Tunnel-Wash`,
`Vacuum-Interior`, `Hand-Dry`, `Tire-Shine`, `Refill-Chemical`,
`Clear-Jam`, `Reclaim-Check`, `Guide-Vehicle`, `Cash-Up`); statuses in the
other words the format takes ("ok", "fail", "stopped"); the car NESTED as
`vehicle {plate, make, model, colour}`, the wash package in `pkg`
("Basic", "Shine", "Ultimate"), money as `price {amount, cur}`, water and
chemicals in US units in the key (`water_gal`, `gal`), a failure as a
NESTED error object with a fault code (`err {code, text}`); the goal a
DOTTED string of the lane and the ticket ("Lane2.T-0412"); staff present
as plain first names and customers as `{name, id}` with their plate as
the id; one utterance a line, staff speaking by first name ("Darnell",
"Tasha", "Luis"), customers by "customer" and the robot as "SUDS"; one
drive-up intercom call as raw speech (a bare string, no speaker); the
shift log as notes that start with a bracketed TAG ("[chem] ...",
"[lost+found] ...", "[cash] ..."); things found in cars seen as objects
with a one-word string state and an object relation `{to, type}`.  No
robot profile.

The truth is read back from the written lines (`Wash`), never from the
generator's variables.  The questions are the manager's, the
attendants' and the customers', written before h2emv was asked them;
nobody tuned on them (docs/realqa.md, "A tenth fresh untuned source pair
(filmset, carwash), 2026-11-28").
"""

import datetime as _dt
import json
import random

from common import QuestionSet, Span, day_of, grab, must_contain, one, \
    parse_time, variants

SEED = 20261123
MON, TUE, WED = "2026-11-23", "2026-11-24", "2026-11-25"
CST = _dt.timezone(_dt.timedelta(hours=-6))


def stamp(t):
    return _dt.datetime.fromtimestamp(t, CST).strftime(
        "%Y-%m-%d %H:%M:%S-06:00")


def car(plate, make, model, colour):
    return {"plate": plate, "make": make, "model": model, "colour": colour}


def usd(x):
    return {"amount": x, "cur": "USD"}


CAMRY = car("KJX 4412", "Toyota", "Camry", "silver")
F150 = car("EV 20931", "Ford", "F-150", "red")
MODELY = car("ZLT 7780", "Tesla", "Model Y", "white")
CIVIC = car("DQP 1154", "Honda", "Civic", "blue")
OUTBACK = car("BRN 3306", "Subaru", "Outback", "green")
MINI = car("HVY 5521", "Mini", "Cooper", "yellow")
TAHOE = car("PLW 8890", "Chevrolet", "Tahoe", "black")


def cust(name, v):
    return {"name": name, "id": v["plate"]}


class Writer:
    def __init__(self, seed=SEED):
        self.rng = random.Random(seed)
        self.lines = []
        self.here = "pay station"

    def at(self, day, hhmm):
        return int(parse_time("%sT%s:00-06:00" % (day, hhmm))) + \
            self.rng.randint(0, 45)

    def line(self, t, **f):
        ln = {"t": stamp(t)}
        ln.update({k: v for k, v in f.items() if v not in (None, [], "")})
        self.lines.append((t, len(self.lines), ln))

    def job(self, day, hhmm, name, args, minutes, status="ok", where=None,
            goal=None, persons=(), err=None, seen=(), note=None):
        where = where or self.here
        t = self.at(day, hhmm)
        end = t + int(minutes * 60) + self.rng.randint(0, 30)
        a = dict(args)
        if err:
            a["err"] = {"code": err[0], "text": err[1]}
        self.line(t, t_end=stamp(end), location=where, goal=goal,
                  persons=list(persons), objects=list(seen), note=note,
                  action={"name": name, "args": a, "status": status})
        self.here = where

    def say(self, day, hhmm, speaker, text, where=None, persons=()):
        where = where or self.here
        sp = text if speaker is None else {"speaker": speaker, "text": text}
        self.line(self.at(day, hhmm), location=where, persons=list(persons),
                  speech=sp)

    def note(self, day, hhmm, text, where=None, persons=(), seen=()):
        where = where or self.here
        self.line(self.at(day, hhmm), location=where, note=text,
                  persons=list(persons), objects=list(seen))

    def write(self, path):
        with open(path, "w", encoding="utf-8") as f:
            for t, i, ln in sorted(self.lines, key=lambda x: (x[0], x[1])):
                f.write(json.dumps(ln, ensure_ascii=False) + "\n")
        return len(self.lines)


def generate(seed=SEED):
    w = Writer(seed)
    # ---- Monday ---------------------------------------------------------
    d = MON
    w.job(d, "07:05", "Reclaim-Check", {"tank": "reclaim", "level_pct": 64,
                                        "ph": 7.4}, 4, where="equipment room")
    w.job(d, "07:30", "Check-In", {"vehicle": CAMRY, "pkg": "Ultimate",
                                   "price": usd(24.0), "pay": "card"}, 2,
          where="pay station", goal="Lane1.T-0401",
          persons=[cust("Gloria Mendez", CAMRY)])
    w.job(d, "07:33", "Tunnel-Wash", {"vehicle": CAMRY, "pkg": "Ultimate",
                                      "lane": 1, "water_gal": 41}, 6,
          where="tunnel lane 1", goal="Lane1.T-0401")
    w.job(d, "07:42", "Hand-Dry", {"vehicle": CAMRY, "towels": 3}, 5,
          where="finish area", goal="Lane1.T-0401", persons=["Tasha"])
    w.say(d, "07:50", "customer", "There's still bird mess on the roof "
          "above the driver's door. Can you do it again?", "finish area",
          persons=[cust("Gloria Mendez", CAMRY), "Tasha"])
    w.say(d, "07:51", "SUDS", "Sorry about that. Tasha will spot-clean the "
          "roof by hand now, and your next Ultimate wash is free.",
          "finish area", persons=[cust("Gloria Mendez", CAMRY), "Tasha"])
    w.job(d, "09:10", "Check-In", {"vehicle": F150, "pkg": "Basic",
                                   "price": usd(12.0), "pay": "cash"}, 2,
          where="pay station", goal="Lane2.T-0402",
          persons=[cust("Earl Vance", F150)])
    w.job(d, "09:13", "Tunnel-Wash", {"vehicle": F150, "pkg": "Basic",
                                      "lane": 2, "water_gal": 55}, 5,
          where="tunnel lane 2", goal="Lane2.T-0402")
    w.job(d, "10:20", "Refill-Chemical", {"chem": "tire shine", "gal": 5,
                                          "drum": "drum 3"}, 12,
          where="equipment room", persons=["Luis"])
    w.note(d, "10:40", "[chem] presoak drum 1 at 20 %, order two more "
           "drums before Friday. Luis says the foam arch nozzle 4 is "
           "clogged.", "equipment room", persons=["Luis"])
    w.job(d, "11:15", "Check-In", {"vehicle": MODELY, "pkg": "Shine",
                                   "price": usd(18.0), "pay": "app"}, 2,
          where="pay station", goal="Lane1.T-0403",
          persons=[cust("Priya Raman", MODELY)])
    w.say(d, "11:16", "customer", "Do I need to put it in car wash mode? "
          "It's a Tesla.", "pay station",
          persons=[cust("Priya Raman", MODELY)])
    w.say(d, "11:17", "SUDS", "Yes, please turn on car wash mode and keep "
          "it in neutral; the conveyor pulls the car through.",
          "pay station", persons=[cust("Priya Raman", MODELY)])
    w.job(d, "11:20", "Tunnel-Wash", {"vehicle": MODELY, "pkg": "Shine",
                                      "lane": 1, "water_gal": 38}, 5,
          where="tunnel lane 1", goal="Lane1.T-0403")
    w.job(d, "13:00", "Vacuum-Interior", {"vehicle": CIVIC, "mats": 4,
                                          "bay": "detail bay"}, 18,
          where="detail bay", goal="Detail.T-0404",
          persons=[cust("Kevin O'Brien", CIVIC)],
          seen=[{"id": "found_01", "type": "wedding ring", "state": "gold",
                 "relations": [{"to": "cup holder", "type": "in"}]}])
    w.note(d, "13:20", "[lost+found] gold wedding ring from the cup holder "
           "of the blue Civic DQP 1154; handed to Darnell for the safe.",
           "detail bay", persons=["Darnell"])
    w.job(d, "15:30", "Check-In", {"vehicle": OUTBACK, "pkg": "Shine",
                                   "price": usd(18.0), "pay": "card"}, 2,
          where="pay station", goal="Lane2.T-0405",
          persons=[cust("Mark Ostrowski", OUTBACK)])
    w.job(d, "15:33", "Tunnel-Wash", {"vehicle": OUTBACK, "pkg": "Shine",
                                      "lane": 2, "water_gal": 19}, 3,
          status="stopped", where="tunnel lane 2", goal="Lane2.T-0405",
          err=("E-41", "conveyor roller jammed behind the left front "
                       "wheel"))
    w.job(d, "15:40", "Clear-Jam", {"lane": 2, "roller": 7}, 15,
          where="tunnel lane 2", persons=["Luis"])
    w.job(d, "15:58", "Tunnel-Wash", {"vehicle": OUTBACK, "pkg": "Shine",
                                      "lane": 2, "water_gal": 44}, 5,
          where="tunnel lane 2", goal="Lane2.T-0405")
    w.job(d, "17:45", "Cash-Up", {"drawer": "pay station", "cash":
                                  usd(12.0), "cards": 3, "app": 1}, 8,
          where="office", persons=["Darnell"])

    # ---- Tuesday --------------------------------------------------------
    d = TUE
    w.job(d, "07:02", "Reclaim-Check", {"tank": "reclaim", "level_pct": 18,
                                        "ph": 8.9}, 4,
          status="fail", where="equipment room",
          err=("R-07", "reclaim tank under 20 %, fresh water only"))
    w.note(d, "07:10", "[water] reclaim tank low (18 %) after the "
           "overnight drain; running on fresh city water until Luis "
           "checks the float valve.", "equipment room")
    w.say(d, "08:30", "Luis", "SUDS, the float valve was stuck shut. I "
          "freed it; the reclaim tank is filling again.", "equipment room",
          persons=["Luis"])
    w.job(d, "09:00", "Check-In", {"vehicle": TAHOE, "pkg": "Ultimate",
                                   "price": usd(24.0), "pay": "card"}, 2,
          where="pay station", goal="Lane1.T-0411",
          persons=[cust("Dana Whitfield", TAHOE)])
    w.job(d, "09:03", "Tunnel-Wash", {"vehicle": TAHOE, "pkg": "Ultimate",
                                      "lane": 1, "water_gal": 63}, 7,
          where="tunnel lane 1", goal="Lane1.T-0411")
    w.job(d, "09:12", "Tire-Shine", {"vehicle": TAHOE, "wheels": 4,
                                     "oz": 6}, 4, where="finish area",
          goal="Lane1.T-0411")
    w.say(d, "10:05", None, "Hi, is the wash open? My side mirror folds, "
          "will it get knocked off?", "pay station")
    w.say(d, "10:06", "SUDS", "We are open. Please fold the mirrors in "
          "before the tunnel; the brushes will not harm them.",
          "pay station")
    w.job(d, "10:10", "Check-In", {"vehicle": MINI, "pkg": "Basic",
                                   "price": usd(12.0), "pay": "card"}, 2,
          where="pay station", goal="Lane2.T-0412",
          persons=[cust("Sophie Laurent", MINI)])
    w.job(d, "10:13", "Tunnel-Wash", {"vehicle": MINI, "pkg": "Basic",
                                      "lane": 2, "water_gal": 33}, 5,
          where="tunnel lane 2", goal="Lane2.T-0412")
    w.job(d, "11:30", "Vacuum-Interior", {"vehicle": TAHOE, "mats": 6,
                                          "bay": "detail bay"}, 25,
          where="detail bay", goal="Detail.T-0413",
          persons=[cust("Dana Whitfield", TAHOE)],
          seen=[{"id": "found_02", "type": "car key", "state": "spare",
                 "relations": [{"to": "third row seat", "type": "under"}]},
                {"id": "found_03", "type": "dog toy", "state": "chewed",
                 "relations": [{"to": "trunk", "type": "in"}]}])
    w.say(d, "12:00", "customer", "You found my spare key! I've been "
          "looking for it since August.", "detail bay",
          persons=[cust("Dana Whitfield", TAHOE)])
    w.job(d, "13:30", "Guide-Vehicle", {"vehicle": F150, "from": "street",
                                        "to": "tunnel lane 2",
                                        "reason": "trailer hitch check"},
          3, where="tunnel lane 2", persons=[cust("Earl Vance", F150)])
    w.job(d, "13:34", "Tunnel-Wash", {"vehicle": F150, "pkg": "Shine",
                                      "lane": 2, "water_gal": 57}, 1,
          status="fail", where="tunnel lane 2", goal="Lane2.T-0414",
          err=("E-12", "vehicle too tall for lane 2 with the ladder rack "
                       "(over 7 ft)"))
    w.say(d, "13:40", "Darnell", "SUDS, send tall trucks to the detail bay "
          "for a hand wash from now on, and refund Earl's Shine.",
          "tunnel lane 2", persons=["Darnell"])
    w.job(d, "13:45", "Refund", {"vehicle": F150, "price": usd(18.0),
                                 "to": "card", "ticket": "T-0414"}, 2,
          where="pay station", persons=[cust("Earl Vance", F150)])
    w.job(d, "14:20", "Refill-Chemical", {"chem": "presoak", "gal": 30,
                                          "drum": "drum 1"}, 15,
          where="equipment room", persons=["Luis"])
    w.job(d, "17:40", "Cash-Up", {"drawer": "pay station", "cash":
                                  usd(0.0), "cards": 2, "app": 0}, 6,
          where="office", persons=["Darnell"])

    # ---- Wednesday ------------------------------------------------------
    d = WED
    w.job(d, "07:03", "Reclaim-Check", {"tank": "reclaim", "level_pct": 71,
                                        "ph": 7.6}, 4, where="equipment room")
    w.note(d, "07:20", "[shift] Day before Thanksgiving: Darnell expects "
           "a rush from 11:00, Tasha and Marcus on towels, both lanes "
           "open.", "office", persons=["Darnell"])
    w.job(d, "08:15", "Check-In", {"vehicle": CAMRY, "pkg": "Ultimate",
                                   "price": usd(0.0), "pay": "voucher"}, 2,
          where="pay station", goal="Lane1.T-0421",
          persons=[cust("Gloria Mendez", CAMRY)])
    w.job(d, "08:18", "Tunnel-Wash", {"vehicle": CAMRY, "pkg": "Ultimate",
                                      "lane": 1, "water_gal": 40}, 6,
          where="tunnel lane 1", goal="Lane1.T-0421")
    w.say(d, "08:30", "customer", "Much better this time, thank you. The "
          "roof is spotless.", "finish area",
          persons=[cust("Gloria Mendez", CAMRY)])
    w.job(d, "11:05", "Check-In", {"vehicle": CIVIC, "pkg": "Shine",
                                   "price": usd(18.0), "pay": "card"}, 2,
          where="pay station", goal="Lane2.T-0422",
          persons=[cust("Kevin O'Brien", CIVIC)])
    w.say(d, "11:06", "SUDS", "Mr O'Brien, we found a gold ring in your "
          "cup holder on Monday. Darnell has it in the office safe.",
          "pay station", persons=[cust("Kevin O'Brien", CIVIC)])
    w.say(d, "11:07", "customer", "My wife's ring! She thought she lost it "
          "at the gym. I'll pick it up after the wash.", "pay station",
          persons=[cust("Kevin O'Brien", CIVIC)])
    w.job(d, "11:08", "Tunnel-Wash", {"vehicle": CIVIC, "pkg": "Shine",
                                      "lane": 2, "water_gal": 36}, 5,
          where="tunnel lane 2", goal="Lane2.T-0422")
    w.job(d, "11:20", "Check-In", {"vehicle": OUTBACK, "pkg": "Basic",
                                   "price": usd(12.0), "pay": "cash"}, 2,
          where="pay station", goal="Lane1.T-0423",
          persons=[cust("Mark Ostrowski", OUTBACK)])
    w.job(d, "11:23", "Tunnel-Wash", {"vehicle": OUTBACK, "pkg": "Basic",
                                      "lane": 1, "water_gal": 42}, 5,
          where="tunnel lane 1", goal="Lane1.T-0423")
    w.job(d, "12:10", "Hand-Dry", {"vehicle": OUTBACK, "towels": 2}, 2,
          status="stopped", where="finish area", goal="Lane1.T-0423",
          persons=["Marcus"],
          err=("H-03", "customer drove off before the drying was done"))
    w.note(d, "14:00", "[cash] Wednesday rush: 14 cars between 11:00 and "
           "14:00, longest wait 22 min. Nozzle 4 still clogged, foam "
           "patchy on lane 1.", "office")
    w.job(d, "17:30", "Cash-Up", {"drawer": "pay station", "cash":
                                  usd(12.0), "cards": 1, "app": 0,
                                  "vouchers": 1}, 7, where="office",
          persons=["Darnell"])
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
        return self.status == "ok"

    @property
    def span(self):
        return Span(self.t0, self.t1, self.name)

    @property
    def plate(self):
        return (self.args.get("vehicle") or {}).get("plate")

    @property
    def car(self):
        return self.args.get("vehicle") or {}

    @property
    def minutes(self):
        return (self.t1 - self.t0) / 60.0


class Wash:
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
                self.speech.append((o["_t"], s["speaker"], s["text"]))

    def find(self, name=None, ok=None, day=None, plate=None, **args):
        return [j for j in self.jobs
                if (not name or j.name == name) and
                (ok is None or j.ok == ok) and
                (not day or day_of(j.t0) == day) and
                (not plate or j.plate == plate) and
                all(j.args.get(k) == v for k, v in args.items())]

    def note(self, contains, day=None):
        return [o for o in self.notes if contains.lower() in
                o["note"].lower() and (not day or day_of(o["_t"]) == day)]

    def said(self, speaker=None, contains=None, day=None, raw=False):
        return [(t, s, x) for t, s, x in self.speech
                if (not raw or s is None) and
                (not speaker or s == speaker) and
                (not day or day_of(t) == day) and
                (not contains or contains.lower() in x.lower())]

    def owner(self, plate):
        for o in self.obs:
            for p in o.get("persons", []):
                if isinstance(p, dict) and p.get("id") == plate:
                    return p["name"]
        raise AssertionError(plate)

    def seen(self, day=None):
        return [(o["_t"], x) for o in self.obs for x in o.get("objects", [])
                if not day or day_of(o["_t"]) == day]


def questions(path):
    H = Wash(path)
    Q = WashQuestions(H)
    return Q.items, H


def WashQuestions(H):
    Q = QuestionSet("carwash")
    wed = "2026-11-25 23:59:00"        # Wednesday 17:59 in Naperville
    last = H.obs[-1]["_t"]
    camry = [j for j in H.find("Check-In") if j.car.get("model") == "Camry"]

    # ---- when -----------------------------------------------------------
    e = one(H.find("Tunnel-Wash", plate=camry[0].plate, day=MON))
    Q.time("when", "When did the silver Camry go through the tunnel on "
           "Monday?", wed, [e.span])
    e = H.find("Cash-Up")[-1]
    Q.time("when", "When did you last cash up the drawer?", wed, [e.span])
    e = one(H.find("Clear-Jam"))
    Q.time("when", "What time was the lane 2 jam cleared?", wed, [e.span])
    t, s, x = one(H.said("Luis", contains="float valve"))
    Q.time("when", "When did Luis fix the float valve?", wed,
           [Span(t - 60, t)], x)
    e = H.find("Tunnel-Wash")[0]
    Q.time("when", "When did the first car of the week go through?", wed,
           [e.span], "%s %s" % (e.car["colour"], e.car["model"]))
    e = one(H.find("Refund"))
    Q.time("when", "When did Earl get his refund?", wed, [e.span])

    # ---- where ----------------------------------------------------------
    t, x = one([(t, x) for t, x in H.seen() if x["type"] == "car key"])
    Q.words("where", "Where was Dana's spare key?", wed,
            [variants(x["relations"][0]["to"])], t,
            "%s the %s" % (x["relations"][0]["type"],
                           x["relations"][0]["to"]), none=["trunk"])
    o = one(H.note("wedding ring"))
    Q.words("where", "Where is the wedding ring being kept?", wed,
            [["safe"]], o["_t"], o["note"])
    e = one(H.find("Refill-Chemical", chem="tire shine"))
    Q.words("where", "Which drum did the tire shine go into?", wed,
            [[e.args["drum"]]], e.t1, e.args["drum"], none=["drum 1"])
    t, s, x = one(H.said("Darnell", contains="tall"))
    Q.words("where", "Where should tall trucks go now?", wed,
            [["detail bay"]], t, x)
    t, x = one([(t, x) for t, x in H.seen() if x["type"] == "dog toy"])
    Q.words("where", "Where in the Tahoe was the dog toy?", wed,
            [[x["relations"][0]["to"]]], t, x["relations"][0]["to"],
            none=["third row"])

    # ---- day ------------------------------------------------------------
    e = one(H.find("Vacuum-Interior", plate="DQP 1154"))
    Q.day("day", "Which day did you find the ring?", wed, [day_of(e.t0)],
          e.t1)
    e = one(H.find("Reclaim-Check", ok=False))
    Q.day("day", "On which day was the reclaim tank low?", wed,
          [day_of(e.t0)], e.t1)
    e = one(H.find("Refill-Chemical", chem="presoak"))
    Q.day("day", "What day did the presoak drum get topped up?", wed,
          [day_of(e.t0)], e.t1)

    # ---- who ------------------------------------------------------------
    e = one(H.find("Clear-Jam"))
    Q.words("who", "Who cleared the jam on lane 2?", wed, [["luis"]], e.t1,
            ", ".join(e.line["persons"]), none=["darnell"])
    e = one(H.find("Hand-Dry", ok=False))
    Q.words("who", "Whose car drove off before it was dried?", wed,
            [["mark", "ostrowski", "outback"]], e.t1,
            H.owner(e.plate))
    e = one(H.find("Tunnel-Wash", ok=False, day=TUE))
    Q.words("who", "Whose truck was too tall for lane 2?", wed,
            [["earl", "vance"]], e.t1, H.owner(e.plate))
    t, s, x = one(H.said("Darnell", contains="refund"))
    Q.words("who", "Who said to refund the F-150?", wed,
            [["darnell"]], t, s, none=["luis"])
    e = one(H.find("Check-In", pay="voucher"))
    Q.words("who", "Who paid with a voucher?", wed,
            [["gloria", "mendez"]], e.t1, H.owner(e.plate))
    o = one(H.note("Thanksgiving"))
    Q.words("who", "Who was on towels on Wednesday?", wed,
            [["tasha"], ["marcus"]], o["_t"], o["note"], k=1)
    e = one(H.find("Check-In", plate="ZLT 7780"))
    Q.words("who", "Who drove the Tesla?", wed, [["priya", "raman"]], e.t1,
            H.owner(e.plate))

    # ---- say ------------------------------------------------------------
    t, s, x = one(H.said("customer", day=MON, contains="roof"))
    Q.words("say", "What did Gloria complain about on Monday?", wed,
            must_contain(x, ["bird"]) + [["roof"]], t, x, k=1)
    t, s, x = one(H.said("SUDS", day=MON, contains="free"))
    Q.words("say", "What did you promise Gloria?", wed,
            [["free"], ["spot clean*", "roof", "by hand"]], t, x)
    t, s, x = one(H.said("SUDS", contains="car wash mode"))
    Q.words("say", "What did you tell the Tesla driver to do?", wed,
            [["car wash mode"], ["neutral"]], t, x, k=1)
    t, s, x = one(H.said(raw=True))
    Q.words("say", "What did the person on the intercom ask on Tuesday?",
            wed, must_contain(x, ["mirror"]) + [["open", "knocked"]], t, x,
            k=1)
    t, s, x = one(H.said("SUDS", contains="mirrors"))
    Q.words("say", "What did you answer about the mirrors?", wed,
            [["fold*"]], t, x)
    t, s, x = one(H.said("customer", contains="ring"))
    Q.words("say", "What did Kevin O'Brien say about the ring?", wed,
            [["wife*"], ["gym"]], t, x, k=1)
    t, s, x = one(H.said("Luis"))
    Q.words("say", "What did Luis report on Tuesday morning?", wed,
            [["float valve"], ["stuck", "freed", "filling"]], t, x)

    # ---- see ------------------------------------------------------------
    seen = H.seen(day=TUE)
    Q.words("see", "What did you find when you vacuumed the Tahoe?", wed,
            [[x["type"], x["type"].split()[-1]] for t, x in seen],
            max(t for t, x in seen), ", ".join(x["type"] for t, x in seen),
            k=1, others=[["ring"]])
    t, x = one([(t, x) for t, x in H.seen() if x["type"] == "wedding ring"])
    Q.words("see", "What did you find in the Civic?", wed,
            [["ring"]], t, x["type"], others=[["key"], ["dog toy", "toy"]])

    # ---- which ----------------------------------------------------------
    e = one(H.find("Check-In", plate="ZLT 7780"))
    Q.words("which", "Which package did the Tesla get?", wed,
            [[e.args["pkg"].lower()]], e.t1, e.args["pkg"],
            none=["ultimate", "basic"])
    e = one(H.find("Tunnel-Wash", ok=False, day=MON))
    Q.words("which", "Which lane jammed on Monday?", wed,
            [["lane 2"]], e.t1, "lane %d" % e.args["lane"],
            none=["lane 1"])
    e = one(H.find("Clear-Jam"))
    Q.words("which", "Which roller was jammed?", wed,
            [[str(e.args["roller"])]], e.t1, "roller %d" % e.args["roller"])
    e = one(H.find("Tunnel-Wash", ok=False, day=MON))
    Q.words("which", "What fault code came up when the conveyor jammed?",
            wed, [[e.args["err"]["code"].lower()]], e.t1,
            e.args["err"]["code"])
    o = one(H.note("nozzle 4", day=MON))
    Q.words("which", "Which nozzle on the foam arch is clogged?", wed,
            [["nozzle 4", "number 4", "no 4"]], o["_t"], o["note"])

    # ---- count ----------------------------------------------------------
    es = H.find("Tunnel-Wash", day=MON)
    Q.count("count", "How many gallons of water did the tunnel use on "
            "Monday?", wed, sum(j.args["water_gal"] for j in es), es[-1].t1)
    es = H.find("Check-In")
    Q.count("count", "How much did we take in at check-in this week, in "
            "dollars?", wed, int(sum(j.args["price"]["amount"] for j in es)),
            es[-1].t1)
    es = H.find("Tunnel-Wash", ok=True, day=TUE)
    Q.count("count", "How many cars went through the tunnel on Tuesday?",
            wed, len(es), es[-1].t1, "%d (%s)" % (len(es), ", ".join(
                j.car["model"] for j in es)))
    e = one(H.find("Reclaim-Check", ok=False))
    Q.count("count", "How full was the reclaim tank on Tuesday morning, in "
            "percent?", wed, e.args["level_pct"], e.t1)
    e = one(H.find("Refill-Chemical", chem="presoak"))
    Q.count("count", "How many gallons of presoak did Luis put in?", wed,
            e.args["gal"], e.t1)
    o = one(H.note("longest wait"))
    Q.count("count", "How many cars came in the Wednesday rush?", wed,
            int(grab(r"(\d+) cars", o["note"])), o["_t"], o["note"])
    e = one(H.find("Vacuum-Interior", plate="PLW 8890"))
    Q.count("count", "How long did vacuuming the Tahoe take, in minutes?",
            wed, int(round(e.minutes)), e.t1, "%.1f min" % e.minutes)
    es = H.find("Tunnel-Wash", plate="KJX 4412")
    Q.count("count", "How many times did the Camry come through this "
            "week?", wed, len(es), es[-1].t1)

    # ---- yes / no -------------------------------------------------------
    Q.yesno("yesno", "Did Dana Whitfield get her Tahoe's tires shined?",
            wed, bool(H.find("Tire-Shine", plate="PLW 8890")), last)
    Q.yesno("yesno", "Did Earl's F-150 get washed on Tuesday?", wed,
            bool(H.find("Tunnel-Wash", plate="EV 20931", day=TUE,
                        ok=True)), last)
    Q.yesno("yesno", "Has nozzle 4 been unclogged yet?", wed,
            not H.note("still clogged"), last)
    e = one(H.find("Check-In", plate="ZLT 7780"))
    Q.yesno("yesno", "Did the Tesla owner pay by card?", wed,
            e.args["pay"] == "card", e.t1, e.args["pay"])

    # ---- failed ---------------------------------------------------------
    e = one(H.find("Tunnel-Wash", ok=False, day=TUE))
    Q.words("failed", "Why didn't the F-150 wash go through on Tuesday?",
            wed, [["tall", "ladder rack", "7 ft", "height"]], e.t1,
            e.args["err"]["text"])
    e = one(H.find("Tunnel-Wash", ok=False, day=MON))
    Q.words("failed", "What stopped the Outback on Monday?", wed,
            [["roller", "jam*", "conveyor"]], e.t1, e.args["err"]["text"])
    e = one(H.find("Reclaim-Check", ok=False))
    t, s, x = one(H.said("Luis", contains="float valve"))
    Q.words("failed", "Why was the reclaim tank so low?", wed,
            [["float valve", "overnight drain", "drain"]], t,
            e.args["err"]["text"] + " / " + x)
    e = one(H.find("Hand-Dry", ok=False))
    Q.words("failed", "Why wasn't the Outback dried on Wednesday?", wed,
            [["drove off", "drove", "left"]], e.t1, e.args["err"]["text"])
    es = [j for j in H.find(day=TUE) if not j.ok]
    Q.words("failed", "What went wrong on Tuesday?", wed,
            [["reclaim", "tank", "float"], ["tall", "f 150", "ladder"]],
            es[-1].t1, "; ".join(j.args["err"]["text"] for j in es), k=1)

    # ---- questions nobody else asks -------------------------------------
    o = one(H.note("longest wait"))
    Q.words("count", "What was the longest wait during the rush?", wed,
            [["22"]], o["_t"], o["note"])
    e = one(H.find("Check-In", plate="KJX 4412", day=WED))
    Q.yesno("yesno", "Did Gloria actually get her free wash?", wed,
            e.args["price"]["amount"] == 0, e.t1,
            "%s, paid %.2f" % (e.args["pay"], e.args["price"]["amount"]))
    e = one(H.find("Refund"))
    Q.words("count", "How much did we refund Earl?", wed,
            [["18", "18.00", "eighteen"]], e.t1,
            "%.2f %s" % (e.args["price"]["amount"], e.args["price"]["cur"]))
    return Q


if __name__ == "__main__":
    import sys
    print(write(sys.argv[1] if len(sys.argv) > 1 else "carwash.jsonl"),
          "observations")
