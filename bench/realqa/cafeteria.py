"""Fresh and untuned (written 2026-11-27, fifth fresh round): "Pip", the
cafeteria robot of Greenfield Primary School, Monday 2026-11-16 to
Wednesday 2026-11-18, UTC.

A history in a shape of its own: times with a LOWER-CASE "t" and "z" and
NINE fraction digits ("2026-11-16t07:41:09.482913774z", UTC; the format
allows both and truncates below the microsecond); most actions written as
three lines, "preparing", "running" and the final status, as objects whose
`args` are sometimes an object and sometimes a positional JSON ARRAY
(`Deliver ["fruit box", "Class 3B", 1]`); a few quick jobs in the short
string form with no status ("restock(milk cartons, 60, cooler 1)",
"mop(table 3)"); skill names in camelCase (`servePortions`,
`allergyCheck`, `fetchStock`), snake_case (`check_temp`, `wipe_tables`,
`dishwash_cycle`, `setup_hall`) and plain words (`Deliver`, `Sweep`);
readings with units written different ways ("3.8 C", "4.1°C", "-19 C",
"2.5kg"); failure reasons written three ways (a "failed: ..." note on the
final line, a `problem` key in the args, the robot saying so); whole
exchanges as an array of utterances on one line, people known by their
role ("Cook", "Head teacher", "Caretaker", "Parent", "Pupil"); lost
property seen as objects on tables; kitchen notes that start with their
subject.  No robot profile.

The truth is read back from the written lines (`Canteen`), never from the
generator's variables.  The questions are the cook's, the head teacher's
and a parent's, written before h2emv was asked them; nobody tuned on them
(docs/realqa.md, "A fifth fresh untuned source pair (cafeteria,
zookeeper), 2026-11-27").
"""

import datetime as _dt
import json
import random
import re

from common import QuestionSet, Span, day_of, must_contain, one, \
    parse_time, variants

SEED = 20261116
MON, TUE, WED = "2026-11-16", "2026-11-17", "2026-11-18"
UTC = _dt.timezone.utc


def stamp(t_ns):
    """Nanoseconds since the epoch as '2026-11-16t07:41:09.482913774z'."""
    s, ns = divmod(t_ns, 10 ** 9)
    d = _dt.datetime.fromtimestamp(s, UTC)
    return d.strftime("%Y-%m-%dt%H:%M:%S") + ".%09dz" % ns


class Writer:
    def __init__(self, seed=SEED):
        self.rng = random.Random(seed)
        self.lines = []
        self.here = "kitchen"

    def at(self, day, hhmm):
        t = int(parse_time("%sT%s:00Z" % (day, hhmm)))
        return t * 10 ** 9 + self.rng.randint(0, 40 * 10 ** 9 - 1)

    def line(self, t_ns, **f):
        ln = {"t": stamp(t_ns)}
        ln.update({k: v for k, v in f.items() if v not in (None, [], "")})
        self.lines.append(ln)

    def act(self, day, hhmm, name, args, minutes, status="succeeded",
            where=None, note=None, persons=(), seen=(), speech=None):
        """preparing, running, then the final line `minutes` later."""
        where = where or self.here
        t = self.at(day, hhmm)
        self.line(t, location=where,
                  action={"name": name, "args": args, "status": "preparing"})
        self.line(t + 20 * 10 ** 9 + self.rng.randint(0, 10 ** 9),
                  location=where,
                  action={"name": name, "args": args, "status": "running"})
        self.line(t + minutes * 60 * 10 ** 9 + self.rng.randint(0, 10 ** 9),
                  location=where,
                  action={"name": name, "args": args, "status": status},
                  note=note, persons=list(persons),
                  objects=[dict(o) for o in seen], speech=speech)
        self.here = where

    def quick(self, day, hhmm, short, where=None, note=None):
        where = where or self.here
        self.line(self.at(day, hhmm), location=where, action=short, note=note)
        self.here = where

    def talk(self, day, hhmm, pairs, where=None, persons=()):
        where = where or self.here
        self.line(self.at(day, hhmm), location=where, persons=list(persons),
                  speech=[{"speaker": s, "text": x} for s, x in pairs])
        self.here = where

    def note(self, day, hhmm, text, where=None, persons=(), seen=()):
        where = where or self.here
        self.line(self.at(day, hhmm), location=where, note=text,
                  persons=list(persons), objects=[dict(o) for o in seen])
        self.here = where

    def look(self, day, hhmm, seen, where=None):
        where = where or self.here
        self.line(self.at(day, hhmm), location=where,
                  objects=[dict(o) for o in seen])
        self.here = where

    def write(self, path):
        """In time order (two serving lines overlap); the stamps sort as
        text."""
        with open(path, "w", encoding="utf-8") as f:
            for ln in sorted(self.lines, key=lambda x: x["t"]):
                f.write(json.dumps(ln, ensure_ascii=False) + "\n")
        return len(self.lines)


def obj(i, typ, state=None, on=None):
    o = {"id": i, "type": typ}
    if state is not None:
        o["state"] = state
    if on:
        o["relations"] = [{"to": on, "type": "on"}]
    return o


def generate(seed=SEED):
    w = Writer(seed)

    # ---- Monday ---------------------------------------------------------
    d = MON
    w.act(d, "07:40", "check_temp", {"unit": "walk-in fridge",
                                     "reading": "3.8 C"}, 2,
          where="kitchen")
    w.quick(d, "07:55", "restock(milk cartons, 60, cooler 1)", "servery")
    w.act(d, "08:10", "Deliver", ["fruit box", "Class 3B", 1], 9,
          where="corridor B")
    w.talk(d, "10:50", [
        ("Cook", "Pip, we're short on lasagne today. When it runs out, "
                 "start the vegetable curry on line 1."),
        ("Pip", "Understood: vegetable curry on line 1 once the lasagne "
                "is gone.")], "kitchen", persons=["Cook"])
    w.act(d, "11:30", "servePortions", {"dish": "lasagne", "portions": 38,
                                        "line": 2}, 35, where="servery")
    w.act(d, "11:36", "allergyCheck", {"tray": "tray 14",
                                       "allergen": "sesame",
                                       "result": "flagged"}, 1,
          where="servery",
          note="Sesame seeds on the bread roll for tray 14; swapped it for "
               "a plain roll.")
    w.act(d, "12:10", "servePortions", {"dish": "vegetable curry",
                                        "portions": 21, "line": 1}, 25,
          where="servery")
    w.act(d, "12:40", "wipe_tables", {"tables": [1, 2, 3, 4, 5, 6],
                                      "spray": "sanitiser"}, 15,
          where="dining hall",
          seen=[obj("lunchbox_1", "lunchbox", "blue", on="table_4"),
                obj("table_4", "table")])
    w.act(d, "13:10", "dishwash_cycle", {"racks": 14, "cycle": "heavy"},
          40, where="dish room")
    w.note(d, "13:55", "Table 6 leg was wobbly; the caretaker fixed it with "
                       "a new bolt.", "dining hall", persons=["Caretaker"])
    w.act(d, "14:05", "Sweep", {"area": "dining hall"}, 20,
          where="dining hall")
    w.talk(d, "14:40", [
        ("Head teacher", "Pip, please set up the hall for parents' "
                         "evening on Wednesday afternoon."),
        ("Pip", "I will. How many chairs?"),
        ("Head teacher", "Eighty chairs, in rows facing the stage.")],
        "dining hall", persons=["Head teacher"])

    # ---- Tuesday --------------------------------------------------------
    d = TUE
    w.act(d, "07:42", "check_temp", {"unit": "walk-in fridge",
                                     "reading": "4.1°C"}, 2,
          where="kitchen")
    w.act(d, "07:50", "check_temp", {"unit": "chest freezer",
                                     "reading": "-19 C"}, 2,
          where="kitchen")
    w.quick(d, "08:00", "restock(yoghurt pots, 40, cooler 2)", "servery")
    w.act(d, "08:15", "Deliver", ["fruit box", "Class 4A", 1], 6,
          status="failed", where="corridor C",
          note="failed: the Class 4A door was locked and nobody answered")
    w.act(d, "09:30", "Deliver", ["fruit box", "Class 4A", 1], 7,
          where="corridor C")
    w.act(d, "11:20", "check_temp", {"unit": "bain-marie 2",
                                     "reading": "58 C",
                                     "problem": "below 63 C, fish pie too "
                                                "cold"}, 2,
          status="failed", where="servery")
    w.talk(d, "11:24", [
        ("Pip", "Bain-marie 2 reads 58 degrees."),
        ("Cook", "I'll reheat the fish pie. Hold line 2 for ten minutes.")],
        "servery", persons=["Cook"])
    w.act(d, "11:45", "servePortions", {"dish": "fish pie", "portions": 33,
                                        "line": 2}, 30, where="servery")
    w.act(d, "11:50", "servePortions", {"dish": "jacket potatoes",
                                        "portions": 19, "line": 1}, 30,
          where="servery")
    w.act(d, "11:58", "allergyCheck", {"tray": "tray 9",
                                       "allergen": "peanut",
                                       "result": "clear"}, 1,
          where="servery")
    w.talk(d, "12:20", [
        ("Parent", "Is there any gluten-free bread left for my son?"),
        ("Pip", "Yes, there are two slices in the allergen cupboard.")],
        "servery", persons=["Parent"])
    w.note(d, "12:33", "Spill at table 3: a pupil knocked over a 2 l jug of "
                       "orange juice.", "dining hall", persons=["Pupil"])
    w.quick(d, "12:35", "mop(table 3)", "dining hall")
    w.act(d, "13:05", "dishwash_cycle", {"racks": 12, "cycle": "eco"}, 8,
          status="aborted", where="dish room",
          note="Aborted - rinse aid ran out halfway through.")
    w.note(d, "13:25", "Caretaker refilled the rinse aid (5 litres).",
           "dish room", persons=["Caretaker"])
    w.act(d, "13:40", "dishwash_cycle", {"racks": 12, "cycle": "eco"}, 35,
          where="dish room")
    w.look(d, "14:20", [obj("bottle_1", "water bottle", "red", on="bench_2"),
                        obj("glove_1", "glove", "green", on="bench_2"),
                        obj("bench_2", "bench")], "dining hall")
    w.talk(d, "14:45", [
        ("Head teacher", "Has anyone collected the blue lunchbox yet?"),
        ("Pip", "Not yet. It is in the lost property crate by the door.")],
        "dining hall", persons=["Head teacher"])

    # ---- Wednesday ------------------------------------------------------
    d = WED
    w.act(d, "07:40", "check_temp", {"unit": "walk-in fridge",
                                     "reading": "3.9 C"}, 2,
          where="kitchen")
    w.quick(d, "07:55", "restock(milk cartons, 48, cooler 1)", "servery")
    w.act(d, "08:10", "fetchStock", {"item": "peas", "qty": "2.5kg",
                                     "from": "chest freezer"}, 4,
          status="failed", where="store room",
          speech={"speaker": "Pip", "text": "I couldn't open the chest "
                  "freezer: the lid is frozen shut."})
    w.note(d, "08:35", "Caretaker freed the chest freezer lid with warm "
                       "water.", "store room", persons=["Caretaker"])
    w.act(d, "08:45", "fetchStock", {"item": "peas", "qty": "2.5kg",
                                     "from": "chest freezer"}, 5,
          where="store room")
    w.act(d, "11:30", "servePortions", {"dish": "chicken pie",
                                        "portions": 41, "line": 2}, 35,
          where="servery")
    w.act(d, "11:35", "servePortions", {"dish": "vegetable curry",
                                        "portions": 17, "line": 1}, 30,
          where="servery")
    w.act(d, "11:52", "allergyCheck", {"tray": "tray 22", "allergen": "milk",
                                       "result": "flagged"}, 1,
          where="servery",
          note="Custard contains milk; gave tray 22 a fruit pot instead.")
    w.talk(d, "12:20", [
        ("Pupil", "Can I have seconds of the custard?"),
        ("Pip", "Sorry, seconds start at a quarter to one.")],
        "servery", persons=["Pupil"])
    w.act(d, "12:50", "wipe_tables", {"tables": [1, 2, 3, 4, 5, 6, 7, 8],
                                      "spray": "sanitiser"}, 18,
          where="dining hall")
    w.act(d, "13:15", "dishwash_cycle", {"racks": 16, "cycle": "heavy"},
          42, where="dish room")
    w.note(d, "13:40", "Blue lunchbox collected from lost property by a "
                       "parent, Mr Adeyemi.", "dining hall",
           persons=[{"name": "Mr Adeyemi", "id": "parent"}])
    w.act(d, "14:30", "setup_hall", {"chairs": 80,
                                     "for": "parents' evening"}, 50,
          where="main hall")
    w.act(d, "15:30", "Sweep", {"area": "dining hall"}, 20,
          where="dining hall")
    return w


def write(path, seed=SEED):
    return generate(seed).write(path)


# ---------------------------------------------------------------------------
# The truth, read back from the lines

def short_form(s):
    """'restock(milk cartons, 60, cooler 1)' -> ('restock', [...])."""
    m = re.match(r"\s*([^(]+?)\s*\((.*)\)\s*$", s)
    if not m:
        return s.strip(), []
    return m.group(1), [a.strip() for a in m.group(2).split(",")]


class Job:
    """One occurrence: from its first line (preparing) to its final one."""

    def __init__(self, o, name, args, status):
        self.name, self.args, self.status = name, args, status
        self.t0 = self.t1 = o["_t"]
        self.final = o

    @property
    def ok(self):
        return self.status in (None, "succeeded")

    @property
    def span(self):
        return Span(self.t0, self.t1, self.name)

    def arg(self, k):
        if isinstance(self.args, dict):
            return self.args.get(k)
        return None


class Canteen:
    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            self.obs = [json.loads(x) for x in f if x.strip()]
        for o in self.obs:
            s = o["t"]    # '2026-11-16t07:41:09.482913774z'
            o["_t"] = parse_time(s[:10] + "T" + s[11:26] + "Z")
        self.jobs = []
        open_ = {}
        for o in self.obs:
            a = o.get("action")
            if isinstance(a, str):
                n, args = short_form(a)
                self.jobs.append(Job(o, n, args, None))
            elif a:
                key = (a["name"], json.dumps(a.get("args"), sort_keys=True))
                st = a.get("status")
                if st in ("preparing", "running"):
                    if key not in open_:
                        open_[key] = Job(o, a["name"], a.get("args"), st)
                    continue
                j = open_.pop(key, None) or Job(o, a["name"], a.get("args"),
                                                st)
                j.status, j.t1, j.final = st, o["_t"], o
                self.jobs.append(j)
        self.jobs.sort(key=lambda j: j.t0)
        self.notes = [o for o in self.obs if o.get("note") and
                      not o.get("action")]
        self.speech = []
        for o in self.obs:
            sp = o.get("speech")
            sp = sp if isinstance(sp, list) else [sp] if sp else []
            for u in sp:
                self.speech.append((o["_t"], u.get("speaker"), u["text"]))

    def find(self, name=None, ok=None, day=None, **args):
        return [j for j in self.jobs
                if (not name or j.name == name) and
                (ok is None or j.ok == ok) and
                (not day or day_of(j.t0) == day) and
                all(j.arg(k) == v for k, v in args.items())]

    def note(self, contains, day=None):
        return [o for o in self.notes if contains.lower() in
                o["note"].lower() and (not day or day_of(o["_t"]) == day)]

    def said(self, speaker=None, contains=None, day=None):
        return [(t, s, x) for t, s, x in self.speech
                if (not speaker or s == speaker) and
                (not day or day_of(t) == day) and
                (not contains or contains.lower() in x.lower())]

    def seen(self, day=None):
        out = []
        for o in self.obs:
            if day and day_of(o["_t"]) != day:
                continue
            for x in o.get("objects") or []:
                out.append((o["_t"], x))
        return out


def dayname(date):
    d = _dt.date.fromisoformat(date)
    return [d.strftime("%A").lower(), d.strftime("%B %-d").lower(),
            d.strftime("%-d %B").lower(), date]


def questions(path):
    H = Canteen(path)
    Q = QuestionSet("cafeteria")
    wed_pm = "2026-11-18 16:30:00"   # Wednesday, after the last line
    thu = "2026-11-19 07:30:00"      # Thursday morning before breakfast

    # ---- when -----------------------------------------------------------
    e = one(H.find("servePortions", dish="fish pie"))
    Q.time("when", "When did you serve the fish pie?", thu, [e.span])
    e = one(H.find("fetchStock", ok=False))
    Q.time("when", "what time did the freezer lid get stuck?", thu, [e.span])
    e = one(H.find("setup_hall"))
    Q.time("when", "When were the chairs for parents evening ready?", thu,
           [Span(e.t1, e.t1)])
    o = one(H.note("orange juice"))
    Q.time("when", "When did the orange juice get spilled?", thu,
           [Span(o["_t"], o["_t"])])
    e = one(H.find("check_temp", day=WED, unit="walk-in fridge"))
    Q.time("when", "when did u check the walk-in fridge yesterday", thu,
           [e.span])
    e = H.find("Deliver", ok=True)
    e = [j for j in e if "Class 4A" in j.args]
    Q.time("when", "What time did 4A finally get their fruit?", thu,
           [one(e).span])

    # ---- where ----------------------------------------------------------
    t, x = one([(t, x) for t, x in H.seen() if x["type"] == "lunchbox"])
    tbl = x["relations"][0]["to"]
    Q.words("where", "Where did you find the blue lunchbox?", thu,
            [variants(tbl)], t, "on %s" % tbl)
    e = one(H.find("restock"), 1)
    Q.words("where", "Where did you put the yoghurt pots?", thu,
            [variants(e.args[2])], e.t1, e.args[2])
    e = one(H.find("fetchStock", ok=True))
    Q.words("where", "Where did the peas come from?", thu,
            [variants(e.arg("from"), "freezer")], e.t1, e.arg("from"))
    t, s, x = one(H.said("Pip", contains="lost property"))
    Q.words("where", "Where did you tell the head teacher the lunchbox "
            "was?", thu, [["lost property"]], t, x)

    # ---- day ------------------------------------------------------------
    e = one(H.find("dishwash_cycle", ok=False))
    Q.day("day", "Which day did the dishwasher run out of rinse aid?", thu,
          [day_of(e.t0)], e.t1)
    t, s, x = one(H.said("Head teacher", contains="parents"))
    Q.day("day", "What day did the head teacher ask you to set up the "
          "hall?", thu, [day_of(t)], t)
    e = one(H.find("allergyCheck", allergen="sesame"))
    Q.day("day", "On which day did you catch the sesame?", thu,
          [day_of(e.t0)], e.t1)

    # ---- who ------------------------------------------------------------
    o = one(H.note("rinse aid ("))
    Q.words("who", "Who refilled the rinse aid?", thu,
            [["caretaker"]], o["_t"], o["note"])
    o = one(H.note("collected"))
    Q.words("who", "Who picked up the blue lunchbox?", thu,
            [["adeyemi", "parent"]], o["_t"], o["note"])
    o = one(H.note("Table 6"))
    Q.words("who", "who fixed the wobbly table?", thu, [["caretaker"]],
            o["_t"], o["note"])
    t, s, x = one(H.said("Parent"))
    Q.words("who", "Who asked about gluten-free bread?", thu,
            [["parent", "mother", "father", "mum", "dad"]], t, s)

    # ---- say ------------------------------------------------------------
    t, s, x = one(H.said("Cook", day=MON))
    Q.words("say", "What did the cook tell you on Monday?", thu,
            must_contain(x, ["lasagne"]) + [["curry", "vegetable"]], t, x)
    t, s, x = one(H.said("Parent"))
    Q.words("say", "What did the parent ask you on Tuesday?", thu,
            must_contain(x, ["gluten-free"]) + [["bread"]], t, x)
    t, s, x = one(H.said("Pip", contains="seconds"))
    Q.words("say", "What did you tell the kid who wanted more custard?",
            thu, [["quarter to one", "12:45", "12.45"]], t, x)
    t, s, x = one(H.said("Cook", day=TUE))
    Q.words("say", "What did the cook say about the fish pie?", thu,
            must_contain(x, ["reheat"]) + [["ten minutes", "10 minutes",
                                            "hold"]], t, x)
    t, s, x = one(H.said("Pip", contains="two slices"))
    Q.words("say", "What did you tell the parent about the bread?", thu,
            [["two slices", "2 slices"], ["allergen cupboard", "cupboard"]],
            t, x)

    # ---- see ------------------------------------------------------------
    tue = [(t, x) for t, x in H.seen(TUE)
           if x["type"] not in ("bench", "table")]
    Q.words("see", "What lost property did you spot on Tuesday?", thu,
            [variants(x["type"]) for t, x in tue],
            max(t for t, x in tue), ", ".join(x["type"] for t, x in tue),
            others=[["lunchbox"]])

    # ---- which ----------------------------------------------------------
    es = H.find("servePortions", day=WED)
    Q.words("which", "Which dishes did you serve on Wednesday?", thu,
            [variants(j.arg("dish")) for j in es], es[-1].t1,
            ", ".join(j.arg("dish") for j in es),
            none=["lasagne", "fish pie"])
    e = one(H.find("Deliver", ok=False))
    Q.words("which", "Which class didn't get its fruit box on time?", thu,
            [[e.args[1].lower(), "4a"]], e.t1, e.args[1],
            none=["3b"])
    e = one(H.find("allergyCheck", day=WED))
    Q.words("which", "which allergen did you flag this morning?",
            wed_pm, [[e.arg("allergen")]], e.t1, e.arg("allergen"))
    e = one(H.find("allergyCheck", allergen="sesame"))
    Q.words("which", "Which tray had the sesame roll?", thu,
            [[e.arg("tray")]], e.t1,
            e.arg("tray"))
    es = [j for j in H.find("servePortions", day=TUE)]
    e = max(es, key=lambda j: j.arg("portions"))
    Q.words("which", "Which dish was the most popular on Tuesday?", thu,
            [variants(e.arg("dish"))], es[-1].t1,
            "%s (%d portions)" % (e.arg("dish"), e.arg("portions")))
    e = one(H.find(day=MON))
    Q.words("which", "What was the first thing you did on Monday?", thu,
            [["fridge", "temperature", "temp*"]], e.t1,
            "%s %s" % (e.name, e.args))
    e = H.find(day=WED)[-1]
    Q.words("which", "What was the last job you did yesterday?", thu,
            [["sweep*", "swept"]], e.t1, "%s %s" % (e.name, e.args))
    o = one([o for o in H.notes if day_of(o["_t"]) == TUE and
             "12:00:00" <= o["t"][11:19] < "13:00:00"])
    Q.words("which", "What happened at table 3 between 12 and 1 pm on "
            "Tuesday?", thu, [["spill*", "knocked", "orange juice"]],
            o["_t"], o["note"])
    days = sorted({day_of(j.t0) for j in H.find("servePortions",
                                                 dish="vegetable curry")})
    Q.words("which", "On which days was the vegetable curry served?", thu,
            [dayname(x) for x in days], max(
                j.t1 for j in H.find("servePortions",
                                     dish="vegetable curry")),
            " and ".join(days), none=["tuesday"])

    # ---- count ----------------------------------------------------------
    es = H.find("servePortions", dish="vegetable curry")
    Q.count("count", "How many portions of vegetable curry did you serve "
            "altogether?", thu, sum(j.arg("portions") for j in es),
            es[-1].t1)
    es = H.find("servePortions", day=TUE)
    Q.count("count", "How many meals went out on Tuesday in total?", thu,
            sum(j.arg("portions") for j in es), es[-1].t1)
    es = [j for j in H.find("restock") if j.args[0] == "milk cartons"]
    Q.count("count", "How many milk cartons did you restock this week?",
            thu, sum(int(j.args[1]) for j in es), es[-1].t1)
    es = H.find("dishwash_cycle", day=TUE, ok=True)
    Q.count("count", "How many dishwasher cycles finished on Tuesday?", thu,
            len(es), max(j.t1 for j in H.find("dishwash_cycle", day=TUE)))
    e = one(H.find("dishwash_cycle", day=MON))
    Q.count("count", "how many racks went through the dishwasher on "
            "monday", thu, e.arg("racks"), e.t1)
    es = H.find("check_temp", day=TUE)
    Q.count("count", "How many temperature checks did you do on Tuesday?",
            thu, len(es), es[-1].t1)
    t, s, x = one(H.said("Head teacher", contains="chairs,"))
    Q.count("count", "How many chairs did the head teacher want?", thu,
            {"eighty": 80}[x.split()[0].lower()], t)
    es = H.find("wipe_tables", day=WED)
    Q.count("count", "How many tables did you wipe on Wednesday?", thu,
            len(one(es).arg("tables")), one(es).t1)

    # ---- which (a reading) ----------------------------------------------
    e = one(H.find("check_temp", day=TUE, unit="walk-in fridge"))
    Q.words("which", "What was the fridge temperature on Tuesday morning?",
            thu, [[re.match(r"-?[\d.]+", e.arg("reading")).group(0)]], e.t1,
            e.arg("reading"))

    # ---- yes / no -------------------------------------------------------
    es = [j for j in H.find("Deliver") if "Class 4A" in j.args]
    Q.yesno("yesno", "Did 4A get their fruit box in the end?", thu,
            es[-1].ok, es[-1].t1)
    e = one(H.find("check_temp", unit="bain-marie 2"))
    Q.yesno("yesno", "Did the bain-marie pass its temperature check on "
            "Tuesday?", thu, e.ok, e.t1)
    ret = [o for o in H.note("collected") if "bottle" in o["note"].lower()]
    Q.yesno("yesno", "Has anyone collected the red water bottle?", thu,
            bool(ret), H.obs[-1]["_t"])
    Q.yesno("yesno", "Did you wipe the tables on Tuesday?", thu,
            bool(H.find("wipe_tables", day=TUE)), H.obs[-1]["_t"])
    Q.yesno("yesno", "did you mop up the juice?", thu,
            bool(H.find("mop", day=TUE)), one(H.find("mop")).t1)

    # ---- failed ---------------------------------------------------------
    e = one(H.find("Deliver", ok=False))
    Q.words("failed", "Why couldn't you deliver the fruit to 4A the first "
            "time?", thu, [["locked", "nobody answered", "no one answered",
                            "no answer"]], e.t1, e.final["note"])
    e = one(H.find("dishwash_cycle", ok=False))
    Q.words("failed", "What went wrong with the dishwasher?", thu,
            [["rinse aid"]], e.t1, e.final["note"])
    e = one(H.find("check_temp", ok=False))
    Q.words("failed", "Why did the bain-marie check fail?", thu,
            [["58", "too cold", "below 63", "63"]], e.t1,
            e.arg("problem"))
    e = one(H.find("fetchStock", ok=False))
    Q.words("failed", "What went wrong this morning?", wed_pm,
            [["freezer", "lid", "frozen"]], e.t1,
            e.final["speech"]["text"])
    Q.yesno("failed", "Did any of your jobs fail on Monday?", thu,
            bool(H.find(day=MON, ok=False)), one(H.find(day=MON), -1).t1)
    return Q.items, H


if __name__ == "__main__":
    import sys
    print(write(sys.argv[1] if len(sys.argv) > 1 else "cafeteria.jsonl"),
          "observations")
