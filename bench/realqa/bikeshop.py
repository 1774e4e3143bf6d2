"""Fresh and untuned (written 2026-11-28, eighth fresh round): "Sprocket",
the workshop robot of Rueda Libre, a bicycle repair shop in Montevideo,
Thursday 2026-10-29 to Saturday 2026-10-31, Uruguay time (-03:00).

A history in a shape of its own: times with a "T", ONE fraction digit and
a -03:00 offset ("2026-10-29T09:05:12.4-03:00"; every line falls between
08:00 and 20:59 local, so the local and the UTC day agree), `t_end` in the
same form; each job ONE line from `t` to `t_end`; skill names that are
lower-case PHRASES WITH SPACES ("check in", "mount on stand", "fetch
part", "bleed brakes", "true wheel", "hand over"); statuses capitalised
("Succeeded", "Failed", "Aborted"); args FLATTENED with DOTTED keys
(`{"wo": "WO-2231", "bike.make": "Trek", "customer.name": "Lucía
Fernández", "part.qty": 1, "paid.uyu": 4850}`), outcomes in the same
args under `result.` keys (`result.wear_pct`, `result.error`,
`result.runout_mm`); the goal the work order alone (`["WO-2231"]`) with
its `goal_status`; names with ACCENTS (Lucía, Martín, Inés, Suárez);
staff and customers present as plain full-name strings, speakers by first
name, a walk-in customer as "customer", the robot as "Sprocket"; a counter
exchange as an ARRAY of utterances on one line; job-card notes that begin
with the work order ("WO-2231: chain worn 0.8 %, ..."); bikes and a lost
helmet seen as objects with a state object and an `on` relation.  No robot
profile.

The truth is read back from the written lines (`Shop`), never from the
generator's variables.  The questions are the head mechanic's, the
owner's and the customers', written before h2emv was asked them; nobody
tuned on them (docs/realqa.md, "An eighth fresh untuned source pair
(datahall, bikeshop), 2026-11-28").
"""

import datetime as _dt
import json
import random

from common import QuestionSet, Span, day_of, must_contain, one, \
    parse_time, variants

SEED = 20261029
THU, FRI, SAT = "2026-10-29", "2026-10-30", "2026-10-31"
UYT = _dt.timezone(_dt.timedelta(hours=-3))
NICO, INES = "Nico Ferreira", "Inés Rodríguez"
LUCIA, MARTIN = "Lucía Fernández", "Martín Silva"
ANA, DIEGO = "Ana Pereira", "Diego Suárez"


def stamp(t10):
    """Tenths of a second since the epoch -> '2026-10-29T09:05:12.4-03:00'."""
    s, f = divmod(t10, 10)
    return _dt.datetime.fromtimestamp(s, UYT).strftime(
        "%Y-%m-%dT%H:%M:%S") + ".%d-03:00" % f


class Writer:
    def __init__(self, seed=SEED):
        self.rng = random.Random(seed)
        self.lines = []
        self.here = "workshop"

    def at(self, day, hhmm):
        t = int(parse_time("%sT%s:00-03:00" % (day, hhmm)))
        return t * 10 + self.rng.randint(0, 400)

    def line(self, t10, **f):
        ln = {"t": stamp(t10)}
        ln.update({k: v for k, v in f.items() if v not in (None, [], "")})
        self.lines.append((t10, ln))

    def job(self, day, hhmm, name, args, minutes, status="Succeeded",
            where=None, persons=(), seen=(), speech=None, note=None):
        where = where or self.here
        t = self.at(day, hhmm)
        end = t + int(minutes * 600) + self.rng.randint(0, 99)
        wo = args.get("wo")
        self.line(t, t_end=stamp(end), location=where,
                  goal=[wo] if wo else None,
                  goal_status=status if wo else None,
                  action={"name": name, "args": args, "status": status},
                  persons=list(persons), objects=list(seen), speech=speech,
                  note=note)
        self.here = where

    def talk(self, day, hhmm, pairs, where=None, persons=()):
        """One counter exchange: [(speaker, text), ...] on one line."""
        where = where or self.here
        self.line(self.at(day, hhmm), location=where, persons=list(persons),
                  speech=[{"speaker": s, "text": x} for s, x in pairs])

    def note(self, day, hhmm, text, where=None, persons=(), seen=()):
        where = where or self.here
        self.line(self.at(day, hhmm), location=where, note=text,
                  persons=list(persons), objects=list(seen))

    def write(self, path):
        with open(path, "w", encoding="utf-8") as f:
            for t, ln in sorted(self.lines, key=lambda x: x[0]):
                f.write(json.dumps(ln, ensure_ascii=False) + "\n")
        return len(self.lines)


def bike_on(stand, wo, make):
    return {"id": "bike_" + wo.lower(), "type": "bicycle",
            "state": {"tag": wo, "make": make},
            "relations": [{"to": stand, "type": "on"}]}


def generate(seed=SEED):
    w = Writer(seed)
    # ---- Thursday -------------------------------------------------------
    d = THU
    w.talk(d, "09:02", [
        ("Lucía", "Hola! The back brake squeals and it skips gears on the "
                  "hills. Can I have it back by Saturday?"),
        ("Sprocket", "Yes, it will be ready on Saturday at noon.")],
        "front counter", persons=[LUCIA])
    w.job(d, "09:05", "check in",
          {"wo": "WO-2231", "bike.make": "Trek", "bike.model": "FX 3",
           "customer.name": LUCIA, "customer.phone": "099 412 377",
           "complaint": "rear brake squeal, gears skip"}, 6,
          where="front counter", persons=[LUCIA])
    w.job(d, "09:20", "mount on stand", {"wo": "WO-2231", "stand": "stand 2"},
          3, where="workshop",
          seen=[bike_on("stand 2", "WO-2231", "Trek")])
    w.job(d, "09:40", "measure chain", {"wo": "WO-2231",
                                        "tool": "chain checker",
                                        "result.wear_pct": 0.8}, 4)
    w.note(d, "09:50", "WO-2231: chain worn 0.8 %, needs a new chain and "
           "cassette; Nico approved the quote of 4850 pesos.",
           persons=[NICO])
    w.job(d, "10:30", "fetch part", {"wo": "WO-2231", "part.name": "chain",
                                     "part.sku": "KMC X10", "part.qty": 1,
                                     "from": "drawer B3"}, 3,
          where="parts wall")
    w.job(d, "10:45", "fetch part", {"wo": "WO-2231",
                                     "part.name": "cassette 11-32 10-speed",
                                     "part.qty": 1, "from": "shelf C1",
                                     "result.error": "shelf C1 empty, none "
                                                     "in stock"}, 4,
          status="Failed", where="parts wall")
    w.talk(d, "11:00", [
        ("Nico", "Sprocket, order a 10-speed cassette from Distribuidora "
                 "Sur, we need it for Lucía's Trek."),
        ("Sprocket", "I ordered one 11-32 cassette from Distribuidora Sur; "
                     "it comes tomorrow morning.")],
        "workshop", persons=[NICO])
    w.job(d, "12:00", "wash bike", {"wo": "WO-2234",
                                    "bike.make": "Specialized",
                                    "bike.model": "Rockhopper",
                                    "customer.name": MARTIN,
                                    "bay": "wash bay"}, 20,
          where="wash bay")
    w.job(d, "14:00", "check in",
          {"wo": "WO-2235", "bike.make": "Brompton", "bike.model": "C Line",
           "customer.name": ANA, "complaint": "flat rear tyre"}, 4,
          where="front counter", persons=[ANA])
    w.job(d, "14:20", "fix flat", {"wo": "WO-2235", "wheel": "rear",
                                   "tube": "16x1.35",
                                   "result.cause": "glass shard in the "
                                                   "tread"}, 15,
          where="workshop")
    w.job(d, "15:00", "inflate", {"wo": "WO-2235", "front.psi": 100,
                                  "rear.psi": 110}, 3)
    w.job(d, "16:30", "hand over", {"wo": "WO-2235", "to": ANA,
                                    "paid.uyu": 650, "paid.method": "cash"},
          5, where="front counter", persons=[ANA])
    w.job(d, "17:30", "sweep floor", {"area": "workshop"}, 15,
          where="workshop")

    # ---- Friday ---------------------------------------------------------
    d = FRI
    w.job(d, "09:10", "receive delivery",
          {"supplier": "Distribuidora Sur", "boxes": 2,
           "items": ["cassette 11-32 10-speed x1", "brake pads x4 pairs",
                     "inner tubes 700x28 x10"]}, 12,
          where="back door", persons=["driver"])
    w.job(d, "09:40", "fit part", {"wo": "WO-2231", "part.name": "chain",
                                   "with": "Nico"}, 15, where="workshop",
          persons=[NICO])
    w.job(d, "10:00", "fit part", {"wo": "WO-2231",
                                   "part.name": "cassette 11-32 10-speed",
                                   "with": "Nico"}, 20, persons=[NICO])
    w.job(d, "10:30", "bleed brakes", {"wo": "WO-2231", "brake": "rear",
                                       "fluid": "mineral oil",
                                       "result.error": "caliper piston "
                                                       "stuck"}, 12,
          status="Failed")
    w.note(d, "11:15", "WO-2231: Inés freed the stuck rear caliper piston "
           "and cleaned it.", persons=[INES])
    w.job(d, "11:30", "bleed brakes", {"wo": "WO-2231", "brake": "rear",
                                       "fluid": "mineral oil"}, 18,
          persons=[INES])
    w.job(d, "13:00", "true wheel", {"wo": "WO-2234", "wheel": "front",
                                     "result.runout_before_mm": 2.1,
                                     "result.runout_mm": 0.4}, 25,
          where="truing stand")
    w.talk(d, "14:05", [
        ("customer", "Do you rent bikes here?"),
        ("Sprocket", "No, we only repair and sell bikes. Bici Montevideo on "
                     "the Rambla rents them.")], "front counter")
    w.job(d, "15:00", "check in",
          {"wo": "WO-2238", "bike.make": "Tern", "bike.model": "GSD",
           "customer.name": DIEGO, "complaint": "e-bike motor cuts out"},
          6, where="front counter", persons=[DIEGO])
    w.note(d, "15:20", "WO-2238: motor fault needs the Bosch diagnostic "
           "tool; Nico will take it to the Bosch service centre on "
           "Monday.", "workshop", persons=[NICO])
    w.job(d, "16:00", "hand over", {"wo": "WO-2234", "to": MARTIN,
                                    "paid.uyu": 2400, "paid.method": "card"},
          6, where="front counter", persons=[MARTIN])
    w.note(d, "17:40", "Helmet left on stand 3, blue, with a sticker of "
           "Nacional; put in the lost and found box.", "workshop",
           seen=[{"id": "helmet_1", "type": "helmet",
                  "state": {"colour": "blue"},
                  "relations": [{"to": "stand 3", "type": "on"}]}])

    # ---- Saturday -------------------------------------------------------
    d = SAT
    w.job(d, "09:30", "brake test", {"wo": "WO-2231",
                                     "result.stop_m": 3.2}, 5,
          where="test lane")
    w.job(d, "10:00", "wash bike", {"wo": "WO-2231", "bike.make": "Trek",
                                    "bay": "wash bay"}, 20,
          where="wash bay")
    w.job(d, "11:50", "hand over", {"wo": "WO-2231", "to": LUCIA,
                                    "paid.uyu": 4850, "paid.method": "card"},
          7, where="front counter", persons=[LUCIA])
    w.talk(d, "11:58", [
        ("Lucía", "It's so quiet now! Was the chain really that worn?"),
        ("Sprocket", "Yes, it was stretched 0.8 %, so we replaced the chain "
                     "and the cassette.")], "front counter",
        persons=[LUCIA])
    w.job(d, "12:30", "count stock", {"item": "inner tubes 700x28",
                                      "counted": 14, "expected": 16}, 10,
          where="parts wall")
    w.talk(d, "12:45", [
        ("Inés", "Sprocket, two 700x28 tubes are missing? I used two on "
                 "the Bianchi this morning and forgot to scan them."),
        ("Sprocket", "Thanks, I will book the two tubes to the Bianchi's "
                     "work order.")], "workshop", persons=[INES])
    w.job(d, "14:00", "mount on stand", {"wo": "WO-2240", "stand": "stand 1"},
          3, where="workshop",
          seen=[bike_on("stand 1", "WO-2240", "Raleigh")])
    w.job(d, "14:10", "fit part", {"wo": "WO-2240",
                                   "part.name": "training wheels",
                                   "result.error": "axle too short for the "
                                                   "training wheel "
                                                   "brackets"}, 9,
          status="Aborted")
    w.talk(d, "14:30", [
        ("Nico", "Sprocket, call Sofía's dad and tell him we need a longer "
                 "axle nut kit, it'll be Tuesday."),
        ("Sprocket", "I will call him now and tell him the training wheels "
                     "will be on by Tuesday.")], "workshop", persons=[NICO])
    w.job(d, "19:00", "sweep floor", {"area": "workshop"}, 15,
          where="workshop")
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
        self.t0 = o["_t"]
        self.t1 = parse_time(o["t_end"])
        self.line = o

    @property
    def ok(self):
        return self.status == "Succeeded"

    @property
    def span(self):
        return Span(self.t0, self.t1, self.name)

    @property
    def wo(self):
        return self.args.get("wo")


class Shop:
    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            self.obs = [json.loads(x) for x in f if x.strip()]
        for o in self.obs:
            o["_t"] = parse_time(o["t"])
        self.jobs = [Job(o) for o in self.obs if o.get("action")]
        self.notes = [o for o in self.obs if o.get("note")]
        self.speech = [(o["_t"], u["speaker"], u["text"])
                       for o in self.obs for u in o.get("speech", [])]

    def find(self, name=None, ok=None, day=None, **args):
        return [j for j in self.jobs
                if (not name or j.name == name) and
                (ok is None or j.ok == ok) and
                (not day or day_of(j.t0) == day) and
                all(j.args.get(k.replace("__", ".")) == v
                    for k, v in args.items())]

    def note(self, contains, day=None):
        return [o for o in self.notes if contains.lower() in
                o["note"].lower() and (not day or day_of(o["_t"]) == day)]

    def said(self, speaker=None, contains=None, day=None):
        return [(t, s, x) for t, s, x in self.speech
                if (not speaker or s == speaker) and
                (not day or day_of(t) == day) and
                (not contains or contains.lower() in x.lower())]

    def seen(self):
        return [(o["_t"], x) for o in self.obs for x in o.get("objects", [])]


def questions(path):
    H = Shop(path)
    Q = QuestionSet("bikeshop")
    sat = "2026-10-31 22:30:00"        # Saturday 19:30 in Montevideo
    last = H.obs[-1]["_t"]

    # ---- when -----------------------------------------------------------
    e = one(H.find("hand over", wo="WO-2231"))
    Q.time("when", "When did Lucía pick up her Trek?", sat, [e.span])
    e = one(H.find("receive delivery"))
    Q.time("when", "What time did the Distribuidora Sur delivery arrive?",
           sat, [e.span])
    e = one(H.find("bleed brakes", ok=True))
    Q.time("when", "When did the rear brake bleed finally work?", sat,
           [e.span])
    e = one(H.find("check in", customer__name=DIEGO))
    Q.time("when", "When did Diego drop off his e-bike?", sat, [e.span])
    o = one(H.note("Helmet"))
    Q.time("when", "When did you find the helmet?", sat,
           [Span(o["_t"], o["_t"])], o["note"])
    e = H.find("sweep floor")[-1]
    Q.time("when", "When did you last sweep the workshop?", sat, [e.span])
    e = one(H.find("fix flat"))
    Q.time("when", "When did you fix the Brompton's flat?", sat, [e.span])

    # ---- where ----------------------------------------------------------
    e = one(H.find("fetch part", ok=True, part__name="chain"))
    Q.words("where", "Where did you get the KMC chain from?", sat,
            [variants(e.args["from"])], e.t1, e.args["from"])
    t, x = one([(t, x) for t, x in H.seen() if x["type"] == "helmet"])
    o = one(H.note("Helmet"))
    Q.words("where", "Where is the blue helmet now?", sat,
            [["lost and found"]], o["_t"], o["note"])
    e = one(H.find("mount on stand", wo="WO-2231"))
    Q.words("where", "Which stand was Lucía's bike on?", sat,
            [[e.args["stand"]]], e.t1, e.args["stand"],
            none=["stand 1", "stand 3"])
    o = one(H.note("Bosch"))
    Q.words("where", "Where is Diego's e-bike going on Monday?", sat,
            [["bosch"]], o["_t"], o["note"])
    t, s, x = one(H.said("Sprocket", contains="rents"))
    Q.words("where", "Where did you send the person who wanted to rent a "
            "bike?", sat, [["bici montevideo"], ["rambla"]], t, x, k=1)

    # ---- day ------------------------------------------------------------
    e = one(H.find("check in", wo="WO-2235"))
    Q.day("day", "Which day did Ana bring in the Brompton?", sat,
          [day_of(e.t0)], e.t1)
    e = one(H.find("true wheel"))
    Q.day("day", "What day did you true Martín's front wheel?", sat,
          [day_of(e.t0)], e.t1)
    e = one(H.find("fetch part", ok=False))
    Q.day("day", "On which day did you find out the cassette was out of "
          "stock?", sat, [day_of(e.t0)], e.t1)

    # ---- who ------------------------------------------------------------
    o = one(H.note("caliper"))
    Q.words("who", "Who freed the stuck caliper?", sat, [["inés", "ines"]],
            o["_t"], o["note"], none=["nico"])
    o = one(H.note("quote"))
    Q.words("who", "Who approved Lucía's quote?", sat, [["nico"]], o["_t"],
            o["note"])
    e = one(H.find("hand over", wo="WO-2234"))
    Q.words("who", "Who picked up the Rockhopper?", sat,
            [["martín", "martin", "silva"]], e.t1, e.args["to"])
    t, s, x = one(H.said(contains="forgot to scan"))
    Q.words("who", "Who used the two missing tubes?", sat,
            [["inés", "ines"]], t, s)
    e = one(H.find("fit part", wo="WO-2231", part__name="chain"))
    Q.words("who", "Who helped you fit the chain?", sat, [["nico"]], e.t1,
            e.args["with"])
    e = one(H.find("check in", wo="WO-2238"))
    Q.words("who", "Whose e-bike cuts out?", sat, [["diego", "suárez",
                                                    "suarez"]],
            e.t1, e.args["customer.name"])

    # ---- say ------------------------------------------------------------
    t, s, x = one(H.said("Lucía", day=THU))
    Q.words("say", "What did Lucía say was wrong with her bike?", sat,
            [["squeal*"], ["skip*", "gears"]], t, x, k=1)
    t, s, x = one(H.said("Sprocket", day=THU, contains="Saturday"))
    Q.words("say", "What did you promise Lucía on Thursday?", sat,
            must_contain(x, ["Saturday"]) + [["noon", "12"]], t, x)
    t, s, x = one(H.said("Sprocket", contains="stretched"))
    Q.words("say", "What did you tell Lucía about her chain?", sat,
            [["stretched", "replaced"]], t, x)
    t, s, x = one(H.said("Nico", day=SAT))
    Q.words("say", "What did Nico ask you to tell Sofía's dad?", sat,
            [["axle"], ["tuesday"]], t, x)
    t, s, x = one(H.said("customer"))
    Q.words("say", "What did the walk-in customer want on Friday?", sat,
            [["rent*"]], t, x)
    t, s, x = one(H.said("Sprocket", day=THU, contains="ordered"))
    Q.words("say", "What did you tell Nico about the cassette order?", sat,
            [["tomorrow", "friday"], ["distribuidora sur", "ordered",
                                      "11 32"]], t, x)

    # ---- see ------------------------------------------------------------
    t, x = one([(t, x) for t, x in H.seen() if x["type"] == "helmet"])
    Q.words("see", "What did you find on stand 3 on Friday evening?", sat,
            [["helmet"]], t, x["type"])
    bikes = [(t, x) for t, x in H.seen() if x["type"] == "bicycle"
             and day_of(t) == SAT]
    Q.words("see", "Which bike did you see on stand 1 on Saturday?", sat,
            [[x["state"]["make"].lower(), x["state"]["tag"].lower()]
             for t, x in bikes], bikes[-1][0],
            ", ".join(x["state"]["make"] for t, x in bikes))

    # ---- which ----------------------------------------------------------
    e = one(H.find("fix flat"))
    Q.words("which", "Which tube size did the Brompton take?", sat,
            [[e.args["tube"]]], e.t1, e.args["tube"])
    e = one(H.find("fix flat"))
    Q.words("which", "What caused Ana's flat?", sat,
            [["glass"]], e.t1, e.args["result.cause"])
    e = one(H.find("bleed brakes", ok=True))
    Q.words("which", "What fluid did you bleed the Trek's brake with?", sat,
            [["mineral oil", "mineral"]], e.t1, e.args["fluid"])
    e = one(H.find("check in", wo="WO-2238"))
    Q.words("which", "What make is Diego's e-bike?", sat,
            [[e.args["bike.make"].lower()]], e.t1,
            "%s %s" % (e.args["bike.make"], e.args["bike.model"]))
    e = one(H.find("hand over", wo="WO-2235"))
    Q.words("which", "How did Ana pay?", sat, [[e.args["paid.method"]]],
            e.t1, e.args["paid.method"], none=["card"])
    e = one(H.find("check in", wo="WO-2231"))
    Q.words("which", "What's the work order number for Lucía's Trek?", sat,
            [[e.wo.lower(), e.wo.split("-")[1]]], e.t1, e.wo)

    # ---- count ----------------------------------------------------------
    e = one(H.find("hand over", wo="WO-2231"))
    Q.count("count", "How much did Lucía pay, in pesos?", sat,
            e.args["paid.uyu"], e.t1)
    es = H.find("hand over")
    Q.count("count", "How much money did we take at the counter this week, "
            "in pesos?", sat, sum(j.args["paid.uyu"] for j in es),
            es[-1].t1)
    es = H.find("hand over")
    Q.count("count", "How many bikes went back to their owners this week?",
            sat, len(es), es[-1].t1)
    e = one(H.find("count stock"))
    Q.count("count", "How many 700x28 tubes are on the shelf?", sat,
            e.args["counted"], e.t1)
    e = one(H.find("receive delivery"))
    Q.count("count", "How many boxes came from Distribuidora Sur?", sat,
            e.args["boxes"], e.t1)
    e = one(H.find("true wheel"))
    Q.words("count", "How far out of true was Martín's front wheel before "
            "you trued it?", sat,
            [["%.1f" % e.args["result.runout_before_mm"]]], e.t1,
            "%.1f mm" % e.args["result.runout_before_mm"])
    e = one(H.find("inflate"))
    Q.count("count", "What pressure did you pump the Brompton's rear tyre "
            "to?", sat, e.args["rear.psi"], e.t1)
    es = H.find("check in")
    Q.count("count", "How many bikes were checked in this week?", sat,
            len(es), es[-1].t1)

    # ---- yes / no -------------------------------------------------------
    es = H.find("hand over", wo="WO-2238")
    Q.yesno("yesno", "Has Diego's e-bike been fixed yet?", sat, bool(es),
            last)
    e = one(H.find("hand over", wo="WO-2234"))
    Q.yesno("yesno", "Did Martín pay by card?", sat,
            e.args["paid.method"] == "card", e.t1)
    Q.yesno("yesno", "Did you wash Ana's Brompton?", sat,
            bool(H.find("wash bike", wo="WO-2235")), last)
    e = one(H.find("fit part", wo="WO-2240"))
    Q.yesno("yesno", "Are the training wheels on?", sat, e.ok, e.t1)
    e = one(H.find("hand over", wo="WO-2231"))
    Q.yesno("yesno", "Was Lucía's bike ready by noon on Saturday?", sat,
            e.t1 <= parse_time(SAT + "T12:00:00-03:00"), e.t1)

    # ---- failed ---------------------------------------------------------
    e = one(H.find("bleed brakes", ok=False))
    Q.words("failed", "Why did the first brake bleed fail?", sat,
            [["piston", "caliper", "stuck"]], e.t1,
            e.args["result.error"])
    e = one(H.find("fit part", wo="WO-2240"))
    Q.words("failed", "Why couldn't you put the training wheels on?", sat,
            [["axle"]], e.t1, e.args["result.error"])
    e = one(H.find("fetch part", ok=False))
    Q.words("failed", "What went wrong when you went for the cassette?",
            sat, [["empty", "stock", "none"]], e.t1,
            e.args["result.error"])
    es = H.find(day=FRI, ok=False)
    Q.words("failed", "What went wrong on Friday?", sat,
            [["brake*", "bleed*", "caliper", "piston"]], es[-1].t1,
            "; ".join("%s %s" % (j.name, j.args.get("result.error"))
                      for j in es))
    Q.yesno("failed", "Did anything fail on Thursday?", sat,
            bool(H.find(day=THU, ok=False)), H.find(day=THU)[-1].t1)
    return Q.items, H


if __name__ == "__main__":
    import sys
    print(write(sys.argv[1] if len(sys.argv) > 1 else "bikeshop.jsonl"),
          "observations")
