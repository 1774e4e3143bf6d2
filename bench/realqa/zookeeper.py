"""Fresh and untuned (written 2026-11-27, fifth fresh round): "Kit", the
keepers' helper robot of Riverside Zoo, Friday 2026-11-20 to Sunday
2026-11-22, UTC.

A history in a shape of its own: times with an explicit "+00:00" offset;
every line carries its own `id` ("kit-20261120-0007"); each job is ONE
line written when it ends, from `t` to `t_end`, with its status, and
NESTED args (`feedAnimals {enclosure: {name, zone}, food: {type,
amount_kg}}`, `weighAnimal {animal: {name, species}, mass}`, `Guide
{group: {kind, size}, to}`); some quick jobs in the short string form with
snake_case names and no status ("refill_water(giraffe house, trough 2)",
"patrol(path C)"); skill names camelCase (`feedAnimals`, `weighAnimal`),
snake_case (`clean_enclosure`, `hide_enrichment`) and plain words
(`Count`, `Guide`, `Recharge`); the
goal an array of the round and the zone; quantities written several ways
(`amount_kg: 3.7`, "6 kg", "8kg", "41.3 kg"); failure reasons written four
ways (an `outcome.error` inside the args, a "gave up: ..." note, the robot
saying so, a "Reason: ..." note); one utterance per line, speakers by role
("head keeper", "vet", "maintenance", "radio", "visitor", "child"), persons
as {name, id} or {id} only for visitors; animals seen as objects with a
state object (`count`, `gait`) and an `in` relation to their enclosure;
keepers' notes in their own style ("obs: ...").  No robot profile.

The truth is read back from the written lines (`Zoo`), never from the
generator's variables.  The questions are the head keeper's, the vet's and
the curator's, written before h2emv was asked them; nobody tuned on them
(docs/realqa.md, "A fifth fresh untuned source pair (cafeteria,
zookeeper), 2026-11-27").
"""

import datetime as _dt
import json
import random
import re

from common import QuestionSet, Span, day_of, must_contain, one, \
    parse_time, variants

SEED = 20261120
FRI, SAT, SUN = "2026-11-20", "2026-11-21", "2026-11-22"
UTC = _dt.timezone.utc
HEAD = {"name": "head keeper"}
VET = {"name": "Dr Amara Singh", "id": "vet"}
MAINT = {"name": "maintenance"}


def stamp(t):
    return _dt.datetime.fromtimestamp(t, UTC).strftime(
        "%Y-%m-%dT%H:%M:%S+00:00")


class Writer:
    def __init__(self, seed=SEED):
        self.rng = random.Random(seed)
        self.lines = []
        self.clock = 0
        self.here = "keepers' yard"
        self.goal = None

    def at(self, day, hhmm):
        t = int(parse_time("%sT%s:00Z" % (day, hhmm))) + \
            self.rng.randint(0, 50)
        t = max(t, self.clock + 5)
        # a heartbeat every 30 minutes while idle, the same day only
        s = self.clock + 1800
        while self.clock and s < t - 300 and day_of(s) == day_of(self.clock):
            self.line(s, location=self.here)
            s += 1800
        return t

    def line(self, t, t_end=None, **f):
        ln = {"id": "kit-%s-%04d" % (stamp(t)[:10].replace("-", ""),
                                     len(self.lines) + 1),
              "t": stamp(t)}
        if t_end:
            ln["t_end"] = stamp(t_end)
        ln.update({k: v for k, v in f.items() if v not in (None, [], "")})
        self.lines.append(ln)
        self.clock = max(self.clock, t_end or t)

    def job(self, day, hhmm, name, args, minutes, where, status="succeeded",
            goal=None, note=None, seen=(), speech=None, persons=()):
        t = self.at(day, hhmm)
        action = name if isinstance(name, str) and args is None else \
            {"name": name, "args": args, "status": status}
        self.line(t, t + minutes * 60 + self.rng.randint(0, 30),
                  location=where, action=action, goal=goal, note=note,
                  objects=[dict(o) for o in seen], speech=speech,
                  persons=list(persons))
        self.here = where

    def say(self, day, hhmm, speaker, text, where=None, persons=()):
        where = where or self.here
        self.line(self.at(day, hhmm), location=where, persons=list(persons),
                  speech={"speaker": speaker, "text": text})
        self.here = where

    def note(self, day, hhmm, text, where=None, persons=()):
        where = where or self.here
        self.line(self.at(day, hhmm), location=where, note=text,
                  persons=list(persons))
        self.here = where

    def write(self, path):
        with open(path, "w", encoding="utf-8") as f:
            for ln in self.lines:
                f.write(json.dumps(ln, ensure_ascii=False) + "\n")
        return len(self.lines)


def animal(i, typ, pen, **state):
    o = {"id": i, "type": typ, "relations": [{"to": pen, "type": "in"}]}
    if state:
        o["state"] = state
    return o


def feed(pen, zone, food, kg, **extra):
    a = {"enclosure": {"name": pen, "zone": zone},
         "food": {"type": food, "amount_kg": kg}}
    a.update(extra)
    return a


def generate(seed=SEED):
    w = Writer(seed)
    am, pm = ["MorningRound"], ["AfternoonRound"]

    # ---- Friday ---------------------------------------------------------
    d = FRI
    w.say(d, "08:00", "head keeper", "Kit, give the penguins an extra half "
          "kilo of herring today, the chicks are growing.",
          "keepers' yard", persons=[HEAD])
    w.say(d, "08:01", "Kit", "OK, 3.7 kg of herring for penguin beach.",
          persons=[HEAD])
    w.job(d, "08:20", "feedAnimals",
          feed("penguin beach", "B", "herring", 3.7), 15, "penguin beach",
          goal=am + ["Zone B"],
          seen=[animal("penguins_1", "penguin", "penguin beach", count=14)])
    w.job(d, "08:50", "feedAnimals",
          feed("red panda wood", "A", "bamboo", 2.0,
               outcome={"error": "gate latch jammed"}), 6,
          "red panda wood", status="failed", goal=am + ["Zone A"])
    w.note(d, "09:20", "Maintenance oiled the red panda gate latch; it "
           "opens again.", "red panda wood", persons=[MAINT])
    w.job(d, "09:30", "feedAnimals",
          feed("red panda wood", "A", "bamboo", 2.0), 12, "red panda wood",
          goal=am + ["Zone A"])
    w.job(d, "10:00", "clean_enclosure",
          {"enclosure": {"name": "reptile house"},
           "tools": ["mop", "disinfectant"], "waste": "6 kg"}, 50,
          "reptile house", goal=am + ["Zone D"])
    w.job(d, "11:10", "patrol(path C)", None, 30, "path C",
          seen=[animal("zuri", "giraffe", "giraffe paddock", gait="limping"),
                animal("zebras_1", "zebra", "giraffe paddock", count=3),
                animal("ostrich_1", "ostrich", "giraffe paddock")])
    w.note(d, "11:42", "obs: Zuri (giraffe) limping on her left foreleg - "
           "told the vet.", "path C")
    w.job(d, "12:00", "clean_enclosure",
          {"enclosure": {"name": "lemur island"}, "tools": ["rake"],
           "waste": "4.5 kg"}, 40, "lemur island", goal=pm + ["Zone A"])
    w.job(d, "13:30", "refill_water(giraffe house, trough 2)", None, 10,
          "giraffe house")
    w.job(d, "14:00", "hide_enrichment",
          {"enclosure": {"name": "sun bear den"},
           "item": "frozen fruit blocks", "count": 6}, 20, "sun bear den",
          goal=pm + ["Zone C"])
    w.say(d, "15:00", "visitor", "Excuse me, where are the sloths?",
          "main plaza", persons=[{"id": "visitor-03"}])
    w.say(d, "15:01", "Kit", "In the rainforest dome, just past the cafe.",
          persons=[{"id": "visitor-03"}])
    w.job(d, "16:00", "Recharge", {"dock": "service yard"}, 60,
          "service yard")

    # ---- Saturday -------------------------------------------------------
    d = SAT
    w.job(d, "08:15", "feedAnimals",
          feed("penguin beach", "B", "herring", 3.5), 15, "penguin beach",
          goal=am + ["Zone B"])
    w.job(d, "08:45", "weighAnimal",
          {"animal": {"name": "Bo", "species": "tortoise"},
           "scale": "floor scale"}, 15, "tortoise house", status="aborted",
          goal=am + ["Zone D"],
          note="gave up: Bo walked off the scale twice")
    w.job(d, "09:30", "feedAnimals",
          feed("otter pool", "C", "smelt", 1.2), 10, "otter pool",
          goal=am + ["Zone C"])
    w.job(d, "10:00", "clean_enclosure",
          {"enclosure": {"name": "otter pool"},
           "tools": ["hose", "scrubber"], "waste": "8kg"}, 25, "otter pool",
          status="failed", goal=am + ["Zone C"],
          speech={"speaker": "Kit", "text": "I had to stop cleaning the "
                  "otter pool: the drain pump tripped."})
    w.say(d, "11:00", "vet", "Weigh Bo again tomorrow morning, and no more "
          "strawberries for him.", "tortoise house", persons=[VET])
    w.note(d, "11:20", "Vet checked Zuri: a stone bruise, two days of rest "
           "in the giraffe house.", "giraffe house", persons=[VET])
    w.job(d, "12:00", "Guide",
          {"group": {"kind": "school group", "size": 24},
           "to": "reptile house"}, 40, "reptile house")
    w.job(d, "13:00", "refill_water(elephant yard, trough 1)", None, 10,
          "elephant yard")
    w.say(d, "14:10", "child", "I dropped my hat into the lemur enclosure!",
          "lemur island", persons=[{"id": "visitor-11"}])
    w.say(d, "14:11", "Kit", "Don't worry, I'll ask a keeper to get it "
          "after feeding.", persons=[{"id": "visitor-11"}])
    w.note(d, "15:10", "Keeper Jo got the yellow hat back from lemur island "
           "and returned it at the gift shop.", "lemur island",
           persons=[{"name": "Jo", "id": "keeper"}])
    w.job(d, "15:40", "patrol(path A)", None, 30, "path A",
          seen=[animal("meerkats_1", "meerkat", "meerkat mound", count=11),
                animal("lemurs_1", "lemur", "lemur island", count=7)])
    w.job(d, "16:30", "Recharge", {"dock": "service yard"}, 60,
          "service yard")

    # ---- Sunday ---------------------------------------------------------
    d = SUN
    w.job(d, "07:50", "Count", {"species": "meerkats", "expected": 11,
                                "counted": 10}, 10, "meerkat mound",
          goal=am + ["Zone A"], note="one meerkat missing at the count")
    w.job(d, "08:10", "feedAnimals",
          feed("penguin beach", "B", "herring", 3.9), 15, "penguin beach",
          goal=am + ["Zone B"])
    w.job(d, "08:40", "weighAnimal",
          {"animal": {"name": "Bo", "species": "tortoise"},
           "scale": "floor scale", "mass": "41.3 kg"}, 20,
          "tortoise house", goal=am + ["Zone D"])
    w.note(d, "09:40", "Missing meerkat found asleep in the back burrow.",
           "meerkat mound")
    w.say(d, "10:30", "radio", "All staff: the north gate is closed, send "
          "visitors round by the service road.", "main plaza")
    w.say(d, "11:00", "maintenance", "The otter pool pump is fixed, it was "
          "a blocked impeller.", "otter pool", persons=[MAINT])
    w.job(d, "11:30", "clean_enclosure",
          {"enclosure": {"name": "otter pool"},
           "tools": ["hose", "scrubber"], "waste": "7 kg"}, 35, "otter pool",
          goal=pm + ["Zone C"])
    w.job(d, "13:00", "Guide",
          {"group": {"kind": "birthday party", "size": 9},
           "to": "reptile house"}, 5, "reptile house", status="failed",
          note="Reason: reptile house closed for a snake check")
    w.job(d, "13:20", "Guide",
          {"group": {"kind": "birthday party", "size": 9},
           "to": "butterfly house"}, 30, "butterfly house")
    w.job(d, "14:00", "refill_water(giraffe house, trough 2)", None, 10,
          "giraffe house")
    w.job(d, "14:30", "hide_enrichment",
          {"enclosure": {"name": "otter pool"}, "item": "ice fish blocks",
           "count": 4}, 15, "otter pool", goal=pm + ["Zone C"])
    w.job(d, "15:30", "Recharge", {"dock": "service yard"}, 60,
          "service yard")
    return w


def write(path, seed=SEED):
    return generate(seed).write(path)


# ---------------------------------------------------------------------------
# The truth, read back from the lines

def short_form(s):
    m = re.match(r"\s*([^(]+?)\s*\((.*)\)\s*$", s)
    if not m:
        return s.strip(), []
    return m.group(1), [a.strip() for a in m.group(2).split(",")]


class Job:
    def __init__(self, o):
        a = o["action"]
        if isinstance(a, str):
            self.name, self.args = short_form(a)
            self.status = None
        else:
            self.name, self.args = a["name"], a.get("args") or {}
            self.status = a.get("status")
        self.line = o
        self.ok = self.status in (None, "succeeded")
        self.t0 = o["_t"]
        self.t1 = parse_time(o["t_end"]) if o.get("t_end") else o["_t"]

    @property
    def span(self):
        return Span(self.t0, self.t1, self.name)

    def get(self, *path):
        """A nested argument: get('enclosure', 'name')."""
        x = self.args
        for k in path:
            if not isinstance(x, dict) or k not in x:
                return None
            x = x[k]
        return x


class Zoo:
    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            self.obs = [json.loads(x) for x in f if x.strip()]
        for o in self.obs:
            o["_t"] = parse_time(o["t"])
        self.jobs = [Job(o) for o in self.obs if o.get("action")]
        self.notes = [o for o in self.obs if o.get("note") and
                      not o.get("action")]
        self.speech = [(o["_t"], o["speech"].get("speaker"),
                        o["speech"]["text"])
                       for o in self.obs if o.get("speech")]

    def find(self, name=None, ok=None, day=None, where=None):
        return [j for j in self.jobs
                if (not name or j.name == name) and
                (ok is None or j.ok == ok) and
                (not day or day_of(j.t0) == day) and
                (not where or j.get("enclosure", "name") == where or
                 where in j.args)]

    def note(self, contains, day=None):
        return [o for o in self.notes if contains.lower() in
                o["note"].lower() and (not day or day_of(o["_t"]) == day)]

    def said(self, speaker=None, contains=None, day=None):
        return [(t, s, x) for t, s, x in self.speech
                if (not speaker or s == speaker) and
                (not day or day_of(t) == day) and
                (not contains or contains.lower() in x.lower())]


def kilos(x):
    """3.7 or '6 kg' or '8kg' -> a float."""
    if isinstance(x, (int, float)):
        return float(x)
    return float(re.match(r"\s*([\d.]+)\s*kg\s*$", x).group(1))


def dec(x):
    return ("%.1f" % x).rstrip("0").rstrip(".")


def questions(path):
    H = Zoo(path)
    Q = QuestionSet("zookeeper")
    mon = "2026-11-23 08:00:00"   # Monday morning
    sun = "2026-11-22 17:30:00"   # Sunday, after the last line

    # ---- when -----------------------------------------------------------
    e = one(H.find("feedAnimals", day=SAT, where="penguin beach"))
    Q.time("when", "When did you feed the penguins on Saturday?", mon,
           [e.span])
    e = one(H.find("clean_enclosure", ok=False))
    Q.time("when", "When did the otter pool pump trip?", mon, [e.span])
    t, s, x = one(H.said("vet"))
    Q.time("when", "What time did the vet come by on Saturday?", mon,
           [Span(t, t, x)])
    t, s, x = one(H.said("radio"))
    Q.time("when", "when did the radio say the north gate was shut", mon,
           [Span(t, t, x)])
    e = one(H.find("feedAnimals", where="otter pool"))
    Q.time("when", "When did you first feed the otters?", mon, [e.span])
    e = one(H.find("weighAnimal", ok=True))
    Q.time("when", "When did you finally get Bo weighed?", mon, [e.span])

    # ---- where ----------------------------------------------------------
    t, s, x = one(H.said("Kit", contains="sloth") or
                  H.said("Kit", contains="dome"))
    Q.words("where", "Where did you tell the visitor the sloths were?", mon,
            [["rainforest dome", "rainforest"]], t, x)
    t, s, x = one(H.said("child"))
    Q.words("where", "Where did the kid drop the hat?", mon,
            [["lemur*"]], t, x)
    o = one(H.note("found asleep"))
    Q.words("where", "Where was the missing meerkat?", mon,
            [["back burrow", "burrow"]], o["_t"], o["note"])
    e = one([j for j in H.find("hide_enrichment")
             if j.get("item") == "frozen fruit blocks"])
    Q.words("where", "Where did you hide the frozen fruit blocks?", mon,
            [variants(e.get("enclosure", "name"), "sun bear")], e.t1,
            e.get("enclosure", "name"))
    e = one([j for j in H.find("Guide")
             if j.get("group", "kind") == "school group"])
    Q.words("where", "Where did you take the school group?", mon,
            [variants(e.get("to"), "reptile*")], e.t1, e.get("to"))

    # ---- day ------------------------------------------------------------
    o = one(H.note("limping"))
    Q.day("day", "Which day did you notice the giraffe limping?", mon,
          [day_of(o["_t"])], o["_t"])
    e = one([j for j in H.find("Guide")
             if j.get("group", "kind") == "school group"])
    Q.day("day", "What day did the school group come?", mon,
          [day_of(e.t0)], e.t1)
    e = one(H.find("feedAnimals", ok=False))
    Q.day("day", "On which day was the red panda gate stuck?", mon,
          [day_of(e.t0)], e.t1)

    # ---- who ------------------------------------------------------------
    o = one(H.note("hat back"))
    Q.words("who", "Who got the hat back?", mon, [["jo", "keeper"]],
            o["_t"], o["note"])
    t, s, x = one(H.said("head keeper", contains="penguins"))
    Q.words("who", "Who asked you to give the penguins more fish?", mon,
            [["head keeper"]], t, s)
    t, s, x = one(H.said(contains="impeller"))
    Q.words("who", "Who fixed the otter pool pump?", mon,
            [["maintenance"]], t, s)
    t, s, x = one(H.said(contains="strawberries"))
    Q.words("who", "Who said Bo can't have strawberries any more?", mon,
            [["vet", "singh", "amara"]], t, s)
    o = one(H.note("latch"))
    Q.words("who", "who sorted out the red panda gate?", mon,
            [["maintenance"]], o["_t"], o["note"])
    t, s, x = one([(t, s, x) for t, s, x in H.said(day=SAT)
                   if s != "Kit" and "14:00:00" <= _dt.datetime.fromtimestamp(
                       t, UTC).strftime("%H:%M:%S") < "15:00:00"])
    Q.words("who", "Who talked to you between 2 and 3 pm on Saturday?",
            mon, [["child", "kid", "visitor", "boy", "girl"]], t, s)

    # ---- say ------------------------------------------------------------
    t, s, x = one(H.said("vet"))
    Q.words("say", "What did the vet say about Bo?", mon,
            must_contain(x, ["weigh"]) + [["strawberr*", "tomorrow"]], t, x)
    t, s, x = one(H.said("head keeper", day=FRI))
    Q.words("say", "What did the head keeper tell you on Friday?", mon,
            must_contain(x, ["penguins"]) + [["herring", "half kilo",
                                              "half a kilo"]], t, x)
    t, s, x = one(H.said("radio"))
    Q.words("say", "What came over the radio yesterday?", mon,
            must_contain(x, ["north gate"]) + [["service road", "closed"]],
            t, x)
    t, s, x = one(H.said("maintenance"))
    Q.words("say", "What did maintenance say was wrong with the pump?",
            mon, must_contain(x, ["impeller"]), t, x)
    t, s, x = one(H.said("Kit", contains="hat") or
                  H.said("Kit", contains="keeper"))
    Q.words("say", "What did you tell the child who lost a hat?", mon,
            [["keeper"], ["after feeding", "get it", "feeding"]], t, x)

    # ---- see ------------------------------------------------------------
    e = one(H.find("patrol", day=FRI))
    seen = e.line["objects"]
    Q.words("see", "What animals did you see on your patrol on Friday?",
            mon, [variants(o["type"]) for o in seen], e.t1,
            ", ".join(o["type"] for o in seen),
            others=[["meerkat*"], ["lemur*"]])

    # ---- which ----------------------------------------------------------
    es = H.find("clean_enclosure", day=FRI)
    Q.words("which", "Which enclosures did you clean on Friday?", mon,
            [variants(j.get("enclosure", "name")) for j in es], es[-1].t1,
            ", ".join(j.get("enclosure", "name") for j in es),
            none=["otter*"])
    e = one(H.find("feedAnimals", ok=False))
    Q.words("which", "Which animals didn't get fed on time on Friday?", mon,
            [["red panda*"]], e.t1, e.get("enclosure", "name"),
            none=["penguin*"])
    e = one(H.find("feedAnimals", where="otter pool"))
    Q.words("which", "What did the otters eat?", mon,
            [[e.get("food", "type")]], e.t1, e.get("food", "type"))
    o = one(H.note("Vet checked"))
    Q.words("which", "What's wrong with Zuri?", mon,
            [["bruise", "stone bruise", "limp*"]], o["_t"], o["note"])
    es = [j for j in H.find("refill_water") if j.args[0] == "giraffe house"]
    Q.words("which", "Which trough did you refill in the giraffe house?",
            mon, [[es[0].args[1]]], es[-1].t1, es[0].args[1],
            none=["trough 1"])
    e = H.find(day=SAT)[-1]
    Q.words("which", "What was the last thing you did on Saturday?", mon,
            [["recharg*", "charg*", "dock*"]], e.t1, e.name)
    e = one(H.find("weighAnimal", ok=True))
    Q.words("which", "How heavy is Bo?", mon,
            [[re.match(r"[\d.]+", e.get("mass")).group(0)]], e.t1,
            e.get("mass"))

    # ---- count ----------------------------------------------------------
    es = H.find("feedAnimals", where="penguin beach")
    tot = sum(j.get("food", "amount_kg") for j in es)
    Q.words("count", "How much herring did the penguins get in total?", mon,
            [[dec(tot)]], es[-1].t1, "%s kg" % dec(tot))
    Q.words("count", "How much herring did the penguins get each day?", mon,
            [[dec(j.get("food", "amount_kg"))] for j in es], es[-1].t1,
            ", ".join("%s %s kg" % (day_of(j.t0),
                                    dec(j.get("food", "amount_kg")))
                      for j in es))
    es = H.find("clean_enclosure", day=FRI)
    tot = sum(kilos(j.get("waste")) for j in es)
    Q.words("count", "How many kilos of waste did you clear out of the "
            "enclosures on Friday?", mon, [[dec(tot)]], es[-1].t1,
            "%s kg" % dec(tot))
    e = one(H.find("Count", day=SUN))
    Q.count("count", "How many meerkats did you count on Sunday?", mon,
            e.get("counted"), e.t1)
    e = one([j for j in H.find("Guide")
             if j.get("group", "kind") == "school group"])
    Q.count("count", "How many kids were in the school group?", mon,
            e.get("group", "size"), e.t1)
    es = H.find("refill_water")
    Q.count("count", "How many times did you refill water troughs?", mon,
            len(es), es[-1].t1)
    e = one([j for j in H.find("hide_enrichment")
             if j.get("item") == "frozen fruit blocks"])
    Q.count("count", "How many frozen fruit blocks did you hide?", mon,
            e.get("count"), e.t1)

    # ---- yes / no -------------------------------------------------------
    es = H.find("feedAnimals", day=FRI, where="red panda wood")
    Q.yesno("yesno", "Did the red pandas get fed on Friday in the end?",
            mon, es[-1].ok, es[-1].t1)
    e = one(H.find("clean_enclosure", day=SAT))
    Q.yesno("yesno", "Did you finish cleaning the otter pool on Saturday?",
            mon, e.ok, e.t1)
    e = one(H.find("weighAnimal", day=SAT))
    Q.yesno("yesno", "Did you manage to weigh Bo on Saturday?", mon, e.ok,
            e.t1)
    o = one(H.note("limping"))
    Q.yesno("yesno", "Was the giraffe limping?", mon, True, o["_t"])
    e = one([j for j in H.find("Guide")
             if j.get("group", "kind") == "birthday party" and
             j.get("to") == "reptile house"])
    Q.yesno("yesno", "Did the birthday party get to see the reptiles?", mon,
            e.ok, e.t1)

    # ---- failed ---------------------------------------------------------
    e = one(H.find("weighAnimal", ok=False))
    Q.words("failed", "Why couldn't you weigh the tortoise on Saturday?",
            mon, [["walked off", "off the scale", "scale"]], e.t1,
            e.line["note"])
    e = one(H.find("feedAnimals", ok=False))
    Q.words("failed", "What went wrong with the red panda feed?", mon,
            [["latch", "gate"]], e.t1, e.get("outcome", "error"))
    e = one(H.find("clean_enclosure", ok=False))
    Q.words("failed", "Why did you stop cleaning the otter pool?", mon,
            [["drain pump", "pump"]], e.t1, e.line["speech"]["text"])
    e = one(H.find(day=SUN, ok=False))
    Q.words("failed", "What went wrong yesterday?", mon,
            [["reptile*", "snake check", "closed"]], e.t1, e.line["note"])
    e = one(H.find(day=SUN, ok=False))
    Q.words("failed", "anything go wrong this afternoon?", sun,
            [["reptile*", "snake check", "closed"]], e.t1, e.line["note"])
    return Q.items, H


if __name__ == "__main__":
    import sys
    print(write(sys.argv[1] if len(sys.argv) > 1 else "zookeeper.jsonl"),
          "observations")
