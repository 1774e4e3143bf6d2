"""Fresh and untuned (written 2026-11-28, ninth fresh round): "Hopper", the
brewhouse and cellar robot of Brouwerij De Drie Kranen, a small craft
brewery in Utrecht, Tuesday 2026-11-17 to Thursday 2026-11-19, local time
(+01:00).

A history in a shape of its own: times with a SPACE, ONE fraction digit
(tenths of a second) and a +01:00 offset ("2026-11-17 06:05:12.4+01:00";
every line falls between 06:00 and 19:00 local, so the local and the UTC
day agree); each job is TWO lines with the same skill name in KEBAB case
(`mill-grist`, `mash-in`, `lauter`, `boil`, `knock-out`, `gravity-check`,
`dry-hop`, `fill-kegs`, `load-order`, `move-pallet`, `cip`, `guide`,
`cellar-round`): a "running" line with the job's settings in `args` and a
final line ("succeeded", "failed", "aborted") whose `args` hold only an
`out` object with what came of it (`{"out": {"og_plato": 11.8}}`, `{"out":
{"why": "stuck mash ...", "filled": 11}}`); the goal an array of the day's
work and the batch ("brew day", "B27-031 Polder Pils"); hop additions as
an array of objects inside the args; the brewer's log as notes that start
with a batch hashtag or with their subject ("#B27-031 pitched ...",
"Roller mill jammed at 06:12 ..."); people present as plain full names
("Annelies de Vries", "Joost Kramer", "Henk Bakker") while the speakers are
first names, a surname or a role ("Annelies", "Joost", "Bakker", "driver",
"inspector"); one utterance a line, the robot speaking as "Hopper";
fermenters seen as objects with a state object (`stage`, `plato`,
`temp_c`) and a `holds` relation to the beer.  No robot profile.

The truth is read back from the written lines (`Brewhouse`), never from
the generator's variables.  The questions are the head brewer's, the
cellarman's and a customer's, written before h2emv was asked them; nobody
tuned on them (docs/realqa.md, "A ninth fresh untuned source pair
(brewery, engineroom), 2026-11-28").
"""

import datetime as _dt
import json
import random

from common import QuestionSet, Span, day_of, must_contain, one, \
    parse_time, variants

SEED = 20270209
TUE, WED, THU = "2026-11-17", "2026-11-18", "2026-11-19"
LOCAL = _dt.timezone(_dt.timedelta(hours=1))
ANNELIES, JOOST = "Annelies de Vries", "Joost Kramer"
BAKKER, VISSER = "Henk Bakker", "Ms Visser"
PILS = ["brew day", "B27-031 Polder Pils"]
BOK = ["brew day", "B27-032 Winterbok"]
CELLAR = ["cellar work"]
ORDERS = ["orders"]


def stamp(t10):
    """Tenths of a second since the epoch -> '2026-11-17 06:05:12.4+01:00'."""
    s, d = divmod(t10, 10)
    return _dt.datetime.fromtimestamp(s, LOCAL).strftime(
        "%Y-%m-%d %H:%M:%S") + ".%d+01:00" % d


class Writer:
    def __init__(self, seed=SEED):
        self.rng = random.Random(seed)
        self.lines = []
        self.here = "brewhouse"

    def at(self, day, hhmm):
        """Local day and time -> tenths of a second since the epoch."""
        t = int(parse_time("%sT%s:00+01:00" % (day, hhmm)))
        return t * 10 + self.rng.randint(0, 400)

    def line(self, t10, **f):
        ln = {"t": stamp(t10)}
        ln.update({k: v for k, v in f.items() if v not in (None, [], "")})
        self.lines.append(ln)
        return t10

    def job(self, day, hhmm, name, args, minutes, out=None,
            status="succeeded", where=None, goal=None, persons=(),
            seen=()):
        where = where or self.here
        t = self.at(day, hhmm)
        self.line(t, location=where, goal=goal, persons=list(persons),
                  action={"name": name, "status": "running", "args": args})
        t2 = t + int(minutes * 600) + self.rng.randint(0, 300)
        self.line(t2, location=where, goal=goal, persons=list(persons),
                  objects=list(seen),
                  action={"name": name, "status": status,
                          "args": {"out": out or {}}})
        self.here = where
        return t2

    def say(self, day, hhmm, speaker, text, where=None, persons=()):
        where = where or self.here
        self.line(self.at(day, hhmm), location=where, persons=list(persons),
                  speech={"speaker": speaker, "text": text})

    def note(self, day, hhmm, text, where=None, persons=(), seen=()):
        where = where or self.here
        self.line(self.at(day, hhmm), location=where, note=text,
                  persons=list(persons), objects=list(seen))

    def write(self, path):
        with open(path, "w", encoding="utf-8") as f:
            for ln in sorted(self.lines, key=lambda x: x["t"]):
                f.write(json.dumps(ln, ensure_ascii=False) + "\n")
        return len(self.lines)


def tank(name, beer, stage, plato=None, temp_c=None):
    st = {"stage": stage}
    if plato is not None:
        st["plato"] = plato
    if temp_c is not None:
        st["temp_c"] = temp_c
    o = {"id": name, "type": "fermenter" if name.startswith("FV") else
         "bright tank", "state": st}
    if beer:
        o["relations"] = [{"to": beer, "type": "holds"}]
    return o


def tuesday(w):
    d = TUE
    w.job(d, "06:05", "mill-grist", {"malt": "pilsner malt", "kg": 420,
                                     "mill": "roller mill"}, 25,
          {"grist_kg": 418}, where="mill room", goal=PILS)
    w.job(d, "06:40", "mash-in", {"vessel": "mash tun", "water_hl": 12,
                                  "strike_c": 63}, 75, {"ph": 5.4},
          where="brewhouse", goal=PILS)
    w.job(d, "08:10", "lauter", {"vessel": "lauter tun", "to": "kettle"}, 25,
          {"why": "stuck mash, the grain bed compacted"}, status="failed",
          goal=PILS)
    w.note(d, "08:40", "Lauter stuck at 08:35. Annelies raked the bed and "
           "added 15 kg of rice hulls.", persons=[ANNELIES])
    w.job(d, "09:05", "lauter", {"vessel": "lauter tun", "to": "kettle"}, 60,
          {"wort_hl": 22}, goal=PILS, persons=[ANNELIES])
    w.job(d, "10:15", "boil", {"vessel": "kettle", "minutes": 70,
                               "hops": [{"variety": "Saaz", "g": 2800,
                                         "at_min": 60},
                                        {"variety": "Saaz", "g": 1500,
                                         "at_min": 10}]}, 75,
          {"og_plato": 11.8}, goal=PILS)
    w.job(d, "12:10", "knock-out", {"from": "kettle", "to": "FV3",
                                    "at_c": 11.5}, 30, {"hl": 20.5},
          where="cellar", goal=PILS)
    w.note(d, "12:48", "#B27-031 pitched 2 packs of W-34/70 lager yeast "
           "into FV3 at 11.5 C - Annelies", where="cellar",
           persons=[ANNELIES])
    w.job(d, "13:30", "cip", {"target": "kettle", "caustic_pct": 2,
                              "rinse": "hot"}, 45, {"conductivity": "ok"},
          where="brewhouse", goal=CELLAR)
    w.say(d, "14:10", "driver", "Afternoon! I've got 40 sacks of Maris "
          "Otter and 10 sacks of Munich malt for you. Where do you want "
          "them?", where="loading bay")
    w.say(d, "14:11", "Hopper", "Put them on the pallets by the door, "
          "please. I'll bring them into the grain store.", where="loading bay")
    w.job(d, "14:20", "move-pallet", {"load": "malt sacks", "count": 50,
                                      "from": "loading bay",
                                      "to": "grain store"}, 35, {},
          where="grain store", goal=CELLAR)
    w.job(d, "15:30", "gravity-check", {"tank": "FV1", "beer": "Kraan IPA"},
          6, {"plato": 3.1, "temp_c": 18.2}, where="cellar", goal=CELLAR,
          seen=[tank("FV1", "Kraan IPA", "fermenting", 3.1, 18.2)])
    w.job(d, "16:00", "dry-hop", {"tank": "FV1", "hops": "Citra", "kg": 6},
          20, {}, where="cellar", goal=CELLAR)
    w.say(d, "16:40", "Joost", "Hopper, FV2 is nearly empty. Don't fill "
          "kegs from it tomorrow until I've checked it.", where="cellar",
          persons=[JOOST])
    w.say(d, "16:41", "Hopper", "OK Joost, I'll wait for your check before "
          "I touch FV2.", where="cellar", persons=[JOOST])
    w.job(d, "17:30", "fill-kegs", {"from": "BBT1", "beer": "Stadsblond",
                                    "kegs": 24, "size_l": 30}, 50,
          {"filled": 24}, where="keg line", goal=CELLAR)
    w.job(d, "18:25", "move-pallet", {"load": "full kegs", "count": 24,
                                      "from": "keg line",
                                      "to": "cold store"}, 15, {},
          where="cold store", goal=CELLAR)


def wednesday(w):
    d = WED
    w.job(d, "07:00", "gravity-check", {"tank": "FV3",
                                        "beer": "Polder Pils"}, 6,
          {"plato": 10.2, "temp_c": 11.7}, where="cellar", goal=CELLAR,
          seen=[tank("FV3", "Polder Pils", "fermenting", 10.2, 11.7)])
    w.job(d, "07:20", "gravity-check", {"tank": "FV1", "beer": "Kraan IPA"},
          6, {"plato": 2.6, "temp_c": 14.0}, where="cellar", goal=CELLAR,
          seen=[tank("FV1", "Kraan IPA", "fermenting", 2.6, 14.0)])
    w.say(d, "08:00", "Bakker", "Good morning! I'm here for the order for "
          "Cafe 't Hoekje: six kegs of Stadsblond and two of the Kraan "
          "IPA.", where="loading bay", persons=[BAKKER])
    w.say(d, "08:01", "Hopper", "Six Stadsblond are ready for you. The IPA "
          "isn't kegged yet; it will be ready on Friday.",
          where="loading bay", persons=[BAKKER])
    w.job(d, "08:10", "load-order", {"customer": "Cafe 't Hoekje",
                                     "beer": "Stadsblond", "kegs": 6,
                                     "into": "Bakker's van"}, 15, {},
          where="loading bay", goal=ORDERS, persons=[BAKKER])
    w.say(d, "10:30", "inspector", "Good morning, food safety. I'd like to "
          "see the cleaning records for the kettle and the fermenters.",
          where="office", persons=[VISSER, ANNELIES])
    w.say(d, "10:31", "Hopper", "The kettle was cleaned yesterday at half "
          "past one with two percent caustic. I'll print the log for you.",
          where="office", persons=[VISSER])
    w.job(d, "10:45", "guide", {"visitor": "Ms Visser", "to": "cellar"},
          20, {}, where="cellar", goal=["inspection"], persons=[VISSER])
    w.note(d, "11:40", "Inspection by Ms Visser (NVWA): no findings. She "
           "wants a new thermometer calibration certificate by March.",
           where="office", persons=[VISSER, ANNELIES])
    w.say(d, "13:00", "Joost", "FV2 checked, there's still beer in it. Go "
          "ahead and keg the Winterbok.", where="cellar", persons=[JOOST])
    w.say(d, "13:01", "Hopper", "Filling FV2's Winterbok into 20 litre "
          "kegs now.", where="cellar", persons=[JOOST])
    w.job(d, "13:10", "fill-kegs", {"from": "FV2", "beer": "Winterbok",
                                    "kegs": 16, "size_l": 20}, 35,
          {"why": "tank ran dry", "filled": 11}, status="aborted",
          where="keg line", goal=CELLAR)
    w.note(d, "14:30", "Keg washer leaking at the inlet valve; Joost "
           "fitted a new seal at 15:05.", where="keg line", persons=[JOOST])
    w.job(d, "15:30", "cip", {"target": "FV2", "caustic_pct": 2,
                              "rinse": "cold"}, 60, {"conductivity": "ok"},
          where="cellar", goal=CELLAR)
    w.say(d, "17:00", "Annelies", "Hopper, tomorrow we brew the Winterbok "
          "again. Have 380 kilos of Munich malt milled by seven.",
          where="brewhouse", persons=[ANNELIES])
    w.say(d, "17:01", "Hopper", "Will do: 380 kg of Munich malt milled by "
          "07:00.", where="brewhouse", persons=[ANNELIES])


def thursday(w):
    d = THU
    w.job(d, "06:00", "mill-grist", {"malt": "Munich malt", "kg": 380,
                                     "mill": "roller mill"}, 12,
          {"why": "rollers jammed"}, status="failed", where="mill room",
          goal=BOK)
    w.note(d, "06:20", "Roller mill jammed at 06:12 - a stone in a Munich "
           "sack. Joost cleared it.", where="mill room", persons=[JOOST])
    w.job(d, "06:35", "mill-grist", {"malt": "Munich malt", "kg": 380,
                                     "mill": "roller mill"}, 22,
          {"grist_kg": 379}, where="mill room", goal=BOK, persons=[JOOST])
    w.job(d, "07:20", "mash-in", {"vessel": "mash tun", "water_hl": 11,
                                  "strike_c": 67}, 80, {"ph": 5.5},
          where="brewhouse", goal=BOK)
    w.job(d, "09:00", "lauter", {"vessel": "lauter tun", "to": "kettle"}, 70,
          {"wort_hl": 19}, goal=BOK)
    w.job(d, "10:30", "boil", {"vessel": "kettle", "minutes": 90,
                               "hops": [{"variety": "Hallertau Mittelfrueh",
                                         "g": 1800, "at_min": 60}]}, 95,
          {"og_plato": 16.5}, goal=BOK)
    w.job(d, "12:30", "knock-out", {"from": "kettle", "to": "FV2",
                                    "at_c": 12}, 30, {"hl": 18},
          where="cellar", goal=BOK)
    w.job(d, "13:05", "gravity-check", {"tank": "FV3",
                                        "beer": "Polder Pils"}, 6,
          {"plato": 7.4, "temp_c": 11.9}, where="cellar", goal=CELLAR,
          seen=[tank("FV3", "Polder Pils", "fermenting", 7.4, 11.9)])
    w.say(d, "13:20", "Annelies", "The Pils smells a bit of sulphur. "
          "That's normal for a lager, leave it alone.", where="cellar",
          persons=[ANNELIES])
    w.job(d, "14:00", "fill-kegs", {"from": "FV1", "beer": "Kraan IPA",
                                    "kegs": 14, "size_l": 20}, 40,
          {"filled": 14}, where="keg line", goal=CELLAR)
    w.job(d, "15:40", "cellar-round", {"route": "FV1-FV3, BBT1"}, 15, {},
          where="cellar", goal=CELLAR,
          seen=[tank("FV1", None, "empty"),
                tank("FV2", "Winterbok", "fermenting", 16.5, 12.0),
                tank("FV3", "Polder Pils", "fermenting", 7.4, 11.9),
                tank("BBT1", None, "empty")])
    w.note(d, "16:20", "CO2 delivery: 4 full cylinders in, 4 empties out.",
           where="loading bay")
    w.job(d, "17:00", "cip", {"target": "kettle", "caustic_pct": 2,
                              "rinse": "hot"}, 45, {"conductivity": "ok"},
          where="brewhouse", goal=CELLAR)


def generate(seed=SEED):
    w = Writer(seed)
    tuesday(w)
    wednesday(w)
    thursday(w)
    return w


def write(path, seed=SEED):
    return generate(seed).write(path)


# ---------------------------------------------------------------------------
# The truth, read back from the lines

class Job:
    """A running line and the final line after it with the same name."""

    def __init__(self, start, end):
        self.name = start["action"]["name"]
        self.args = start["action"].get("args") or {}
        self.out = (end["action"].get("args") or {}).get("out") or {}
        self.status = end["action"]["status"].lower()
        self.t0, self.t1 = start["_t"], end["_t"]
        self.line, self.end = start, end

    @property
    def ok(self):
        return self.status == "succeeded"

    @property
    def span(self):
        return Span(self.t0, self.t1, self.name)


class Brewhouse:
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
            if a["status"].lower() == "running":
                open_[a["name"]] = o
            else:
                self.jobs.append(Job(open_.pop(a["name"]), o))
        assert not open_, open_
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

    def seen(self, day=None):
        return [(o["_t"], x) for o in self.obs for x in o.get("objects", [])
                if not day or day_of(o["_t"]) == day]


def grab_num(text, before):
    """The number just before the word `before` in text ('15 kg' -> '15')."""
    words = text.replace("-", " ").split()
    for i, w in enumerate(words):
        if w.strip(".,;:").lower() == before and i > 0:
            return words[i - 1]
    raise AssertionError((before, text))


def questions(path):
    H = Brewhouse(path)
    Q = QuestionSet("brewery")
    fri = "2026-11-20T07:00:00Z"       # Friday 08:00 local
    last = H.obs[-1]["_t"]

    # ---- when -----------------------------------------------------------
    e = one(H.find("lauter", ok=False))
    Q.time("when", "When did the lauter get stuck?", fri, [e.span])
    o = one(H.note("pitched"))
    Q.time("when", "what time was the yeast pitched into FV3?", fri,
           [Span(o["_t"] - 600, o["_t"])], o["note"])
    t, s, x = one(H.said("driver"))
    Q.time("when", "When did the malt delivery come in?", fri,
           [Span(t, one(H.find("move-pallet", load="malt sacks")).t1)], x)
    e = H.find("cip", target="kettle")[-1]
    Q.time("when", "When was the kettle last cleaned?", fri, [e.span])
    e = one(H.find("load-order"))
    Q.time("when", "What time did Henk Bakker pick up his kegs?", fri,
           [e.span])
    e = H.find("gravity-check", tank="FV3")[0]
    Q.time("when", "When did you first take a gravity reading on the "
           "Pils?", fri, [e.span])
    e = one(H.find("mill-grist", ok=False))
    Q.time("when", "When did the mill jam?", fri,
           [e.span, Span(e.t0, one(H.note("mill jammed"))["_t"])])

    # ---- where ----------------------------------------------------------
    e = one(H.find("move-pallet", load="malt sacks"))
    Q.words("where", "Where did you put the malt sacks?", fri,
            [variants(e.args["to"])], e.t1, e.args["to"],
            none=["loading bay"])
    e = one(H.find("knock-out", day=TUE))
    Q.words("where", "Where did the Pils wort go after the boil?", fri,
            [variants(e.args["to"])], e.t1, e.args["to"])
    o = one(H.note("new seal"))
    Q.words("where", "Where was the leak Joost fixed?", fri,
            [["keg washer", "inlet valve"]], o["_t"], o["note"])
    e = one(H.find("guide"))
    Q.words("where", "Where did you take the inspector?", fri,
            [variants(e.args["to"])], e.t1, e.args["to"])
    e = one(H.find("knock-out", day=THU))
    Q.words("where", "Which tank is the new Winterbok in?", fri,
            [variants(e.args["to"])], e.t1, e.args["to"],
            none=["fv1", "fv3"])

    # ---- day ------------------------------------------------------------
    t, s, x = one(H.said("inspector"))
    Q.day("day", "Which day did the food safety inspector come?", fri,
          [day_of(t)], t)
    e = one(H.find("boil", day=TUE))
    Q.day("day", "What day did we brew the Polder Pils?", fri,
          [day_of(e.t0)], e.t1)
    e = one(H.find("fill-kegs", ok=False))
    Q.day("day", "On which day did FV2 run dry during kegging?", fri,
          [day_of(e.t0)], e.t1)

    # ---- who ------------------------------------------------------------
    o = one(H.note("raked"))
    Q.words("who", "Who freed the stuck mash?", fri, [["annelies"]],
            o["_t"], o["note"], none=["joost"])
    o = one(H.note("mill jammed"))
    Q.words("who", "who cleared the roller mill", fri, [["joost"]],
            o["_t"], o["note"])
    e = one(H.find("load-order"))
    t, s, x = one(H.said(contains="Stadsblond", day=WED))
    Q.words("who", "Who collected the six kegs of Stadsblond?", fri,
            [["bakker", "henk"]], e.t1, s + ": " + x)
    t, s, x = one(H.said(contains="nearly empty"))
    Q.words("who", "Who told you to hold off on kegging FV2?", fri,
            [[s.lower()]], t, s)

    # ---- say ------------------------------------------------------------
    t, s, x = one(H.said("inspector"))
    Q.words("say", "What did the inspector ask for?", fri,
            must_contain(x, ["cleaning records"]) +
            [["kettle", "fermenters"]], t, x)
    t, s, x = one(H.said("Hopper", contains="IPA"))
    Q.words("say", "What did you tell Mr Bakker about his IPA?", fri,
            must_contain(x, ["Friday"]) + [["isnt kegged", "not kegged",
                                            "ready"]], t, x, k=1)
    t, s, x = one(H.said("Annelies", day=WED))
    Q.words("say", "What did Annelies ask you to get ready for Thursday's "
            "brew?", fri, must_contain(x, ["380"]) +
            must_contain(x, ["Munich"]), t, x)
    t, s, x = one(H.said("driver"))
    Q.words("say", "What did the delivery driver bring?", fri,
            must_contain(x, ["Maris Otter"]) + [["munich"]], t, x)
    t, s, x = one(H.said("Annelies", day=THU))
    Q.words("say", "What did Annelies say about the Pils yesterday?", fri,
            must_contain(x, ["sulphur"]) + [["normal", "leave it"]], t, x,
            k=1)
    t, s, x = one(H.said("Hopper", contains="Joost") or
                  H.said("Hopper", day=TUE, contains="FV2"))
    Q.words("say", "What did you promise Joost about FV2?", fri,
            [["wait", "check"]], t, x)

    # ---- see ------------------------------------------------------------
    rnd = one(H.find("cellar-round"))
    seen = [x for t, x in H.seen() if t == rnd.t1]
    ferm = [x["id"] for x in seen if x["state"]["stage"] == "fermenting"]
    idle = [x["id"] for x in seen if x["state"]["stage"] != "fermenting"]
    Q.words("see", "Which tanks were still fermenting on your cellar round "
            "yesterday afternoon?", fri, [[f.lower()] for f in ferm],
            rnd.t1, ", ".join(ferm), others=[[f.lower()] for f in idle])

    # ---- which ----------------------------------------------------------
    e = one(H.find("boil", day=TUE))
    hops = sorted({h["variety"] for h in e.args["hops"]})
    Q.words("which", "Which hops went into the Pils?", fri,
            [[h.lower()] for h in hops], e.t1, ", ".join(hops),
            none=["citra"])
    e = one(H.find("dry-hop"))
    Q.words("which", "Which tank did you dry-hop?", fri,
            [[e.args["tank"].lower()]], e.t1, e.args["tank"],
            none=["fv3"])
    e = one(H.find("fill-kegs", day=TUE))
    Q.words("which", "Which beer did you keg on Tuesday?", fri,
            [variants(e.args["beer"])], e.t1, e.args["beer"])
    e = one(H.find("mill-grist", ok=False))
    Q.words("which", "What malt were you milling when the mill jammed?",
            fri, [["munich"]], e.t1, e.args["malt"], none=["pilsner"])
    e = one(H.find("boil", day=THU))
    Q.words("which", "What was the original gravity of the Winterbok?",
            fri, [["%g" % e.out["og_plato"]]], e.t1,
            "%g °P" % e.out["og_plato"])
    e = one(H.find("mash-in", day=TUE))
    Q.words("which", "What temperature did you mash the Pils in at?", fri,
            [["%g" % e.args["strike_c"]]], e.t1,
            "%g C" % e.args["strike_c"])
    e = one(H.find("mash-in", day=TUE))
    Q.words("which", "what was the mash pH on Tuesday", fri,
            [["%g" % e.out["ph"]]], e.t1, "%g" % e.out["ph"])
    e = H.find("gravity-check", tank="FV3")[-1]
    Q.words("which", "How far down is the Pils now? What was its last "
            "gravity?", fri, [["%g" % e.out["plato"]]], e.t1,
            "%g °P" % e.out["plato"])

    # ---- count ----------------------------------------------------------
    e = one(H.find("fill-kegs", day=TUE))
    Q.count("count", "How many kegs did you fill on Tuesday?", fri,
            e.out["filled"], e.t1)
    e = one(H.find("fill-kegs", beer="Winterbok"))
    Q.count("count", "How many kegs of Winterbok did you manage to fill?",
            fri, e.out["filled"], e.t1)
    o = one(H.note("rice hulls"))
    Q.count("count", "How many kilos of rice hulls went into the mash?",
            fri, int(grab_num(o["note"], "kg")), o["_t"], o["note"])
    e = one(H.find("lauter", ok=True, day=TUE))
    Q.words("count", "How much wort did we get off the Pils?", fri,
            [["%g" % e.out["wort_hl"]]], e.t1, "%g hl" % e.out["wort_hl"])
    e = one(H.find("boil", day=TUE))
    g = sum(h["g"] for h in e.args["hops"])
    Q.words("count", "How many grams of Saaz did the Pils get in total?",
            fri, [["%d" % g, "{:,}".format(g), "%g kg" % (g / 1000.0)]],
            e.t1, "%d g" % g)
    es = H.find("cip")
    Q.count("count", "How many CIP cleans did you run this week?", fri,
            len(es), es[-1].t1)
    e = one(H.find("move-pallet", load="malt sacks"))
    Q.count("count", "How many sacks of malt were delivered?", fri,
            e.args["count"], e.t1)
    es = H.find("gravity-check", day=WED)
    Q.count("count", "How many gravity checks did you do on Wednesday?",
            fri, len(es), es[-1].t1)
    e = one(H.find("boil", day=THU))
    Q.count("count", "How many minutes did the Winterbok boil for?", fri,
            e.args["minutes"], e.t1)
    es = H.find("fill-kegs")
    n = sum(j.out.get("filled", 0) for j in es)
    Q.count("count", "How many kegs did you fill altogether this week?",
            fri, n, es[-1].t1)

    # ---- yes / no -------------------------------------------------------
    Q.yesno("yesno", "Did you dry-hop FV3?", fri,
            bool(H.find("dry-hop", tank="FV3")), last)
    o = one(H.note("Inspection"))
    Q.yesno("yesno", "Did the inspector find anything wrong?", fri,
            "no findings" not in o["note"], o["_t"])
    es = H.find("fill-kegs", beer="Kraan IPA", ok=True)
    Q.yesno("yesno", "Is the IPA kegged yet?", fri, bool(es), last)
    es = H.find("lauter", day=THU)
    Q.yesno("yesno", "Did the lauter go all right on Thursday?", fri,
            all(j.ok for j in es), es[-1].t1)
    Q.yesno("yesno", "Did Bakker take any IPA with him?", fri,
            bool(H.find("load-order", beer="Kraan IPA")), last)

    # ---- failed ---------------------------------------------------------
    e = one(H.find("lauter", ok=False))
    Q.words("failed", "Why did the lauter get stuck?", fri,
            [["stuck mash", "compacted", "grain bed", "bed"]], e.t1,
            e.out["why"])
    e = one(H.find("fill-kegs", ok=False))
    Q.words("failed", "Why did the Winterbok kegging stop early?", fri,
            [["ran dry", "empty", "dry"]], e.t1, e.out["why"])
    o = one(H.note("mill jammed"))
    Q.words("failed", "What went wrong with the mill on Thursday?", fri,
            [["stone", "jam*"]], o["_t"], o["note"])
    es = H.find(day=WED, ok=False)
    o = one(H.note("leaking"))
    Q.words("failed", "What went wrong on Wednesday?", fri,
            [["fv2", "winterbok", "ran dry", "kegging", "kegs"],
             ["keg washer", "leak*", "seal"]], o["_t"],
            "; ".join("%s %s" % (j.name, j.out) for j in es) + "; " +
            o["note"], k=1)

    # ---- what is still owed (no other source asks this) -----------------
    t, s, x = one(H.said("Bakker"))
    Q.words("which", "What does Cafe 't Hoekje still have coming from "
            "their order?", fri, must_contain(x, ["IPA"]) +
            [["two", "2"]], t, x)
    o = one(H.note("Inspection"))
    Q.words("which", "What does the inspector want from us by March?", fri,
            [["calibration", "thermometer"]], o["_t"], o["note"])
    return Q.items, H


if __name__ == "__main__":
    import sys
    print(write(sys.argv[1] if len(sys.argv) > 1 else "brewery.jsonl"),
          "observations")
