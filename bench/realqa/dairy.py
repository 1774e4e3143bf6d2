"""Fresh and untuned (written 2026-11-27, seventh fresh round): "Clover", the
milking and barn robot of Hale Farm, a small dairy (six named cows in
its log), Monday 2026-12-14 to Wednesday 2026-12-16, UTC.

A history in a shape of its own: times with a "T", MILLISECONDS and NO
zone ("2026-12-14T05:02:11.204", UTC by the format's rule); each job is
ONE line from `t` to `t_end` with skill names NAMESPACED BY A SLASH
(`milk/box`, `feed/push`, `tank/check`, `tank/release`, `cow/sort`,
`calf/feed`, `alley/scrape`, `bed/spread`) and statuses in mixed case
("Succeeded", "FAILED", "Aborted"); `args` objects with the cow NESTED as
`{tag, name}` (cows known by ear tag and by name), the milk in `yield_l`,
readings as text with units ("3.9C", "1840 L") and failure reasons in a
`reason` key, in an "ALERT ..." note or in the robot's words; the goal an
array naming the session (`["PM milking", "box 2"]`); people as {name, id}
with their role as the id ("Tom Hale" / "owner", "Jess" / "relief
milker", "Dr Okafor" / "vet"), the tanker driver known only as "driver";
one utterance per line, the robot speaking as "Clover"; cows seen as
objects with a state object (`lying`, `lame`) and an `in` relation to a
cubicle or pen; barn notes that start with their subject ("Mabel limping
...", "Power cut ...", "Bella calved ...").  No robot profile.

The truth is read back from the written lines (`Barn`), never from the
generator's variables.  The questions are the farmer's, the relief
milker's and the vet's, written before h2emv was asked them; nobody tuned
on them (docs/realqa.md, "A seventh fresh untuned source pair (dairy,
firehall), 2026-11-27").
"""

import datetime as _dt
import json
import random

from common import QuestionSet, Span, day_of, must_contain, one, \
    parse_time, variants

SEED = 20261214
MON, TUE, WED = "2026-12-14", "2026-12-15", "2026-12-16"
UTC = _dt.timezone.utc
COWS = [(412, "Bella"), (377, "Daisy"), (505, "Rosie"), (288, "Mabel"),
        (619, "Clementine"), (143, "Poppy")]
TOM = {"name": "Tom Hale", "id": "owner"}
JESS = {"name": "Jess", "id": "relief milker"}
VET = {"name": "Dr Okafor", "id": "vet"}


def stamp(t_ms):
    s, ms = divmod(t_ms, 1000)
    d = _dt.datetime.fromtimestamp(s, UTC)
    return d.strftime("%Y-%m-%dT%H:%M:%S") + ".%03d" % ms


class Writer:
    def __init__(self, seed=SEED):
        self.rng = random.Random(seed)
        self.lines = []
        self.here = "parlour"

    def at(self, day, hhmm):
        t = int(parse_time("%sT%s:00Z" % (day, hhmm)))
        return t * 1000 + self.rng.randint(0, 50 * 1000 - 1)

    def line(self, t_ms, **f):
        ln = {"t": stamp(t_ms)}
        ln.update({k: v for k, v in f.items() if v not in (None, [], "")})
        self.lines.append(ln)
        return t_ms

    def job(self, day, hhmm, name, args, minutes, status="Succeeded",
            where=None, goal=None, note=None, persons=(), seen=(),
            speech=None):
        where = where or self.here
        t = self.at(day, hhmm)
        t_end = t + int(minutes * 60 * 1000) + self.rng.randint(0, 999)
        self.line(t, t_end=stamp(t_end), location=where,
                  action={"name": name, "args": args, "status": status},
                  goal=goal, note=note, persons=list(persons),
                  objects=list(seen), speech=speech)
        self.here = where
        return t_end

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


def cow(tag, name):
    return {"tag": tag, "name": name}


def seen_cow(name, where, **state):
    o = {"id": "cow_" + name.lower(), "type": "cow",
         "relations": [{"to": where, "type": "in"}]}
    if state:
        o["state"] = state
    return o


def milking(w, d, session, hhmm, special):
    """One session: every named cow in box 1 or 2, one line each."""
    h, m = map(int, hhmm.split(":"))
    for i, (tag, name) in enumerate(COWS):
        mm = m + i * 9
        at = "%02d:%02d" % (h + mm // 60, mm % 60)
        box = "box %d" % (1 + i % 2)
        args = {"cow": cow(tag, name), "box": box,
                "yield_l": round(w.rng.uniform(9.0, 16.0), 1)}
        kw = {"status": "Succeeded"}
        extra = special.get(name)
        if extra:
            args.update(extra.get("args", {}))
            kw = {k: v for k, v in extra.items() if k != "args"}
            kw.setdefault("status", "Succeeded")
        w.job(d, at, "milk/box", args, 7, where="parlour",
              goal=[session, box], **kw)


def generate(seed=SEED):
    w = Writer(seed)
    # ---- Monday ---------------------------------------------------------
    d = MON
    milking(w, d, "AM milking", "05:00", {})
    w.job(d, "06:05", "tank/check", {"tank": "bulk tank", "temp": "3.9C",
                                     "volume": "1840 L"}, 2, where="dairy")
    w.job(d, "07:00", "feed/push", {"lane": "feed lane A", "passes": 3}, 25,
          where="feed lane A")
    w.job(d, "08:30", "calf/feed", {"pen": "calf pen 2", "calves": 4,
                                    "milk": "2 L each"}, 15,
          where="calf shed")
    w.job(d, "10:00", "alley/scrape", {"alley": "north alley"}, 30,
          where="cow shed")
    w.say(d, "11:05", "Tom", "Clover, the milk tanker is coming tomorrow "
          "at nine. Have the outlet valve ready for the driver.", "dairy",
          persons=[TOM])
    w.say(d, "11:06", "Clover", "OK Tom, I will release the bulk tank for "
          "the tanker at nine tomorrow.", "dairy", persons=[TOM])
    w.note(d, "13:00", "Mabel limping on her left hind leg; Tom trimmed "
           "her hoof and put a block on it.", "cow shed", persons=[TOM],
           seen=[seen_cow("Mabel", "crush", lame="score 3")])
    w.job(d, "14:30", "cow/sort", {"cow": cow(288, "Mabel"),
                                   "to": "straw pen"}, 6, where="cow shed",
          persons=[TOM])
    w.job(d, "15:20", "feed/push", {"lane": "feed lane B", "passes": 2},
          4, status="FAILED", where="feed lane B",
          note="ALERT feed push stopped: gate 2 shut across feed lane B.")
    milking(w, d, "PM milking", "16:00", {})
    w.job(d, "17:20", "tank/check", {"tank": "bulk tank", "temp": "3.8C",
                                     "volume": "3960 L"}, 2, where="dairy")

    # ---- Tuesday --------------------------------------------------------
    d = TUE
    milking(w, d, "AM milking", "05:00", {
        "Rosie": {"status": "FAILED",
                  "args": {"reason": "kicked the cluster off twice",
                           "yield_l": 3.2},
                  "speech": {"speaker": "Clover",
                             "text": "Rosie kicked the cups off twice, I "
                                     "stopped her milking."}}})
    w.job(d, "06:10", "tank/check", {"tank": "bulk tank", "temp": "3.7C",
                                     "volume": "5870 L"}, 2, where="dairy")
    w.job(d, "07:00", "feed/push", {"lane": "feed lane A", "passes": 3}, 25,
          where="feed lane A")
    w.say(d, "09:04", "driver", "Morning! Is the tank ready to go?", "dairy")
    w.job(d, "09:06", "tank/release", {"tank": "bulk tank",
                                       "to": "milk tanker"}, 28,
          where="dairy")
    w.say(d, "09:38", "driver", "That's 5,870 litres on board and a sample "
          "taken. See you Thursday.", "dairy")
    w.say(d, "10:30", "Dr Okafor", "Daisy has mastitis in her right front "
          "quarter. I gave her antibiotics; keep her milk out of the tank "
          "for four days.", "cow shed", persons=[VET, TOM])
    w.say(d, "10:31", "Clover", "Understood. I will divert Daisy's milk to "
          "the dump bucket until Saturday.", "cow shed", persons=[VET])
    w.job(d, "10:45", "cow/sort", {"cow": cow(377, "Daisy"),
                                   "to": "hospital pen"}, 5,
          where="cow shed", persons=[VET])
    w.job(d, "12:00", "calf/feed", {"pen": "calf pen 2", "calves": 4,
                                    "milk": "2 L each"}, 15,
          where="calf shed")
    w.note(d, "14:02", "Power cut at 14:02, generator on at 14:06; Jess "
           "reset the vacuum pump.", "parlour", persons=[JESS])
    w.job(d, "15:00", "feed/push", {"lane": "feed lane A", "passes": 3,
                                    "additive": "mineral mix 2 kg"}, 25,
          where="feed lane A")
    milking(w, d, "PM milking", "16:00", {
        "Daisy": {"args": {"divert": "dump bucket"}}})
    w.job(d, "17:20", "tank/check", {"tank": "bulk tank", "temp": "3.9C",
                                     "volume": "2010 L"}, 2, where="dairy")
    w.say(d, "19:00", "Jess", "Clover, did the cows get their minerals "
          "today?", "parlour", persons=[JESS])
    w.say(d, "19:01", "Clover", "Yes, I added two kilos of mineral mix on "
          "feed lane A at three o'clock.", "parlour", persons=[JESS])

    # ---- Wednesday ------------------------------------------------------
    d = WED
    milking(w, d, "AM milking", "05:00", {
        "Daisy": {"args": {"divert": "dump bucket"}}})
    w.job(d, "06:10", "tank/check", {"tank": "bulk tank", "temp": "4.6C",
                                     "volume": "4110 L"}, 2,
          status="FAILED", where="dairy",
          note="ALERT bulk tank at 4.6C, above the 4.5C limit; Tom "
               "restarted the compressor.", persons=[TOM])
    w.job(d, "06:40", "tank/check", {"tank": "bulk tank", "temp": "3.6C",
                                     "volume": "4110 L"}, 2, where="dairy")
    w.job(d, "08:00", "bed/spread", {"cubicles": "1-24", "bales": 3,
                                     "bedding": "straw"}, 40,
          where="cow shed")
    w.note(d, "09:30", "Bella calved at 09:10, a heifer calf, tag 733, "
           "now in the calving pen with her mother.", "calving pen",
           persons=[TOM],
           seen=[seen_cow("Bella", "calving pen"),
                 {"id": "calf_733", "type": "calf", "state": {"lying": True},
                  "relations": [{"to": "calving pen", "type": "in"}]}])
    w.say(d, "11:00", "Tom", "Clover, remind me on Friday to ring the feed "
          "rep about the rolled barley.", "cow shed", persons=[TOM])
    w.say(d, "11:01", "Clover", "I will remind you on Friday at eight to "
          "ring the feed rep.", "cow shed", persons=[TOM])
    w.job(d, "12:30", "calf/feed", {"pen": "calf pen 2", "calves": 5,
                                    "milk": "2 L each"}, 18,
          where="calf shed")
    w.job(d, "13:30", "alley/scrape", {"alley": "south alley"}, 30,
          where="cow shed",
          seen=[seen_cow("Poppy", "cubicle 14", lying=True),
                seen_cow("Clementine", "cubicle 9", lying=False)])
    w.job(d, "15:00", "feed/push", {"lane": "feed lane A", "passes": 2},
          18, where="feed lane A")
    milking(w, d, "PM milking", "16:00", {
        "Daisy": {"args": {"divert": "dump bucket"}},
        "Mabel": {"status": "Aborted",
                  "args": {"reason": "refused to enter the box",
                           "yield_l": 0.0},
                  "note": "Mabel would not come in; Jess milked her by "
                          "hand in the straw pen.",
                  "persons": [JESS]}})
    w.job(d, "17:20", "tank/check", {"tank": "bulk tank", "temp": "3.8C",
                                     "volume": "6230 L"}, 2, where="dairy")
    return w


def write(path, seed=SEED):
    return generate(seed).write(path)


# ---------------------------------------------------------------------------
# The truth, read back from the lines

class Job:
    def __init__(self, o):
        a = o["action"]
        self.name, self.args, self.status = a["name"], a.get("args") or {}, \
            a.get("status")
        self.t0 = o["_t"]
        self.t1 = parse_time(o["t_end"]) if o.get("t_end") else self.t0
        self.line = o

    @property
    def ok(self):
        return (self.status or "").lower() == "succeeded"

    @property
    def span(self):
        return Span(self.t0, self.t1, self.name)

    @property
    def cow(self):
        c = self.args.get("cow")
        return c.get("name") if isinstance(c, dict) else None


class Barn:
    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            self.obs = [json.loads(x) for x in f if x.strip()]
        for o in self.obs:
            o["_t"] = parse_time(o["t"])
        self.jobs = [Job(o) for o in self.obs if o.get("action")]
        self.notes = [o for o in self.obs if o.get("note")]
        self.speech = [(o["_t"], o["speech"].get("speaker"),
                        o["speech"]["text"])
                       for o in self.obs if o.get("speech")]

    def find(self, name=None, ok=None, day=None, cow=None, **args):
        return [j for j in self.jobs
                if (not name or j.name == name) and
                (ok is None or j.ok == ok) and
                (not day or day_of(j.t0) == day) and
                (not cow or j.cow == cow) and
                all(j.args.get(k) == v for k, v in args.items())]

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


def num(s):
    """'3.9C' -> '3.9', '1840 L' -> '1840'."""
    out = ""
    for ch in s:
        if ch.isdigit() or ch in ".-":
            out += ch
        else:
            break
    return out


def questions(path):
    H = Barn(path)
    Q = QuestionSet("dairy")
    thu = "2026-12-17 06:30:00"
    wed_pm = "2026-12-16 18:30:00"
    last = H.obs[-1]["_t"]

    # ---- when -----------------------------------------------------------
    e = one(H.find("tank/release"))
    Q.time("when", "When did the tanker take the milk?", thu, [e.span])
    e = one(H.find("milk/box", ok=False, cow="Rosie"))
    Q.time("when", "What time did Rosie kick the cups off?", thu, [e.span])
    e = one(H.find("cow/sort", cow="Daisy"))
    Q.time("when", "When did you move Daisy to the hospital pen?", thu,
           [e.span])
    o = one(H.note("Power cut"))
    Q.time("when", "when was the power cut", thu,
           [Span(o["_t"] - 60, o["_t"])], o["note"])
    e = H.find("alley/scrape")[-1]
    Q.time("when", "When did you last scrape the alleys?", thu, [e.span])
    e = one(H.find("tank/check", ok=False))
    Q.time("when", "What time was the tank too warm on Wednesday?", thu,
           [e.span])
    e = one(H.find("calf/feed"))
    Q.time("when", "When did the calves first get fed this week?", thu,
           [e.span])

    # ---- where ----------------------------------------------------------
    e = one(H.find("cow/sort", cow="Mabel"))
    Q.words("where", "Where did you put Mabel after her hoof was done?",
            thu, [variants(e.args["to"])], e.t1, e.args["to"])
    e = one(H.find("cow/sort", cow="Daisy"))
    Q.words("where", "Where is Daisy now?", thu, [variants(e.args["to"])],
            e.t1, e.args["to"], none=["parlour"])
    t, x = one([(t, x) for t, x in H.seen() if x["id"] == "cow_poppy"])
    Q.words("where", "Where was Poppy lying down?", thu,
            [variants(x["relations"][0]["to"])], t,
            x["relations"][0]["to"])
    t, s, x = one(H.said("Clover", contains="dump bucket"))
    Q.words("where", "Where is Daisy's milk going?", thu,
            [["dump bucket", "bucket"]], t, x, none=["tank"])
    o = one(H.note("calved"))
    Q.words("where", "Where is Bella's new calf?", thu,
            [["calving pen"]], o["_t"], o["note"])
    o = one(H.note("would not come in"))
    Q.words("where", "Where did Jess milk Mabel on Wednesday evening?", thu,
            [["straw pen"]], o["_t"], o["note"], none=["box 1", "box 2"])

    # ---- day ------------------------------------------------------------
    o = one(H.note("calved"))
    Q.day("day", "What day was Bella's calf born?", thu, [day_of(o["_t"])],
          o["_t"])
    t, s, x = one(H.said("Dr Okafor"))
    Q.day("day", "Which day did the vet come?", thu, [day_of(t)], t)
    e = one(H.find("feed/push", ok=False))
    Q.day("day", "On what day did gate 2 block the feed pusher?", thu,
          [day_of(e.t0)], e.t1)

    # ---- who ------------------------------------------------------------
    o = one(H.note("Power cut"))
    Q.words("who", "Who reset the vacuum pump?", thu, [["jess"]], o["_t"],
            o["note"], none=["tom"])
    o = one(H.note("hoof"))
    Q.words("who", "Who trimmed Mabel's hoof?", thu, [["tom"]], o["_t"],
            o["note"])
    o = one(H.note("compressor"))
    Q.words("who", "Who restarted the compressor?", thu, [["tom"]],
            o["_t"], o["note"])
    t, s, x = one(H.said(contains="antibiotics"))
    Q.words("who", "Who gave Daisy antibiotics?", thu,
            [["okafor", "vet"]], t, s)
    t, s, x = one(H.said("Jess", contains="minerals"))
    Q.words("who", "who asked about the minerals?", thu, [["jess"]], t, s)
    o = one(H.note("would not come in"))
    Q.words("who", "Who milked Mabel by hand?", thu, [["jess"]], o["_t"],
            o["note"])

    # ---- say ------------------------------------------------------------
    t, s, x = one(H.said("Dr Okafor"))
    Q.words("say", "What did the vet say about Daisy?", thu,
            must_contain(x, ["mastitis"]) + [["four days", "4 days",
                                              "antibiotic*"]], t, x)
    t, s, x = one(H.said("driver", contains="litres"))
    Q.words("say", "What did the tanker driver tell you when he left?", thu,
            [["5,870", "5870", "5 870"]] + must_contain(x, ["Thursday"]),
            t, x, k=1)
    t, s, x = one(H.said("Clover", day=TUE, contains="minerals") or
                  H.said("Clover", day=TUE, contains="mineral"))
    Q.words("say", "What did you tell Jess about the minerals?", thu,
            [["two kilos", "2 kg", "two kg", "2 kilos"]] +
            [["feed lane a", "three", "3"]], t, x, k=1)
    t, s, x = one(H.said("Tom", day=WED))
    Q.words("say", "What did Tom ask you to remind him about?", thu,
            must_contain(x, ["feed rep"]) + [["barley"]], t, x, k=1)
    t, s, x = one(H.said("Clover", day=WED))
    Q.words("say", "What did you promise Tom on Wednesday?", thu,
            [["friday"], ["feed rep", "remind"]], t, x)
    t, s, x = one(H.said("Tom", day=MON))
    Q.words("say", "What did Tom tell you on Monday?", thu,
            must_contain(x, ["tanker"]) + [["nine", "9", "valve"]], t, x)

    # ---- see ------------------------------------------------------------
    seen = [(t, x) for t, x in H.seen() if day_of(t) == WED and
            x["id"].startswith("cow_") and
            x["relations"][0]["to"].startswith("cubicle")]
    Q.words("see", "Which cows did you see in the cubicles while scraping "
            "on Wednesday?", thu,
            [[x["id"][4:]] for t, x in seen], max(t for t, x in seen),
            ", ".join(x["id"][4:] for t, x in seen))

    # ---- which ----------------------------------------------------------
    e = one(H.find("feed/push", ok=False))
    Q.words("which", "Which feed lane couldn't you push?", thu,
            [variants(e.args["lane"]), ["b"]], e.t1, e.args["lane"], k=1,
            none=["lane a"])
    e = one(H.find("cow/sort", cow="Daisy"))
    Q.words("which", "Which cow has mastitis?", thu, [["daisy", "377"]],
            e.t1, "Daisy (377)")
    o = one(H.note("calved"))
    Q.words("which", "What tag did the new calf get?", thu, [["733"]],
            o["_t"], o["note"])
    es = H.find("milk/box", day=WED)
    bad = [j for j in es if not j.ok]
    Q.words("which", "Which cow did not get milked in the box on Wednesday "
            "evening?", thu, [[one(bad).cow.lower()]], es[-1].t1,
            one(bad).cow, none=["rosie"])
    e = one(H.find("tank/check", day=MON), 0)
    Q.words("which", "What was the tank temperature on Monday morning?",
            thu, [[num(e.args["temp"]), e.args["temp"]]], e.t1,
            e.args["temp"])
    e = one(H.find("milk/box", ok=False, cow="Rosie"))
    Q.words("which", "Which box was Rosie in when she kicked?", thu,
            [[e.args["box"]]], e.t1, e.args["box"],
            none=["box %d" % (3 - int(e.args["box"][-1]))])
    e = one(H.find("bed/spread"))
    Q.words("which", "What did you spread on the cubicles?", thu,
            [[e.args["bedding"]]], e.t1, e.args["bedding"])

    # ---- count ----------------------------------------------------------
    e = one(H.find("tank/release"))
    t, s, x = one(H.said("driver", contains="litres"))
    Q.count("count", "How many litres did the tanker collect?", thu, 5870,
            t, x)
    es = H.find("milk/box", cow="Bella", day=MON)
    total = round(sum(j.args["yield_l"] for j in es), 1)
    Q.words("count", "How much milk did Bella give on Monday?", thu,
            [["%.1f" % total, "%g" % total]], es[-1].t1, "%.1f L" % total)
    es = H.find("milk/box", day=TUE, ok=True)
    es = [j for j in es if "AM" in j.line["goal"][0]]
    Q.count("count", "How many cows were milked without trouble on Tuesday "
            "morning?", thu, len(es), es[-1].t1)
    e = one(H.find("calf/feed", day=WED))
    Q.count("count", "How many calves did you feed on Wednesday?", thu,
            e.args["calves"], e.t1)
    e = one(H.find("bed/spread"))
    Q.count("count", "How many bales of straw did you use?", thu,
            e.args["bales"], e.t1)
    es = H.find("feed/push", day=TUE)
    Q.count("count", "How many passes did the feed pusher make on "
            "Tuesday?", thu, sum(j.args["passes"] for j in es), es[-1].t1)
    es = H.find("tank/check", day=WED)
    Q.count("count", "How many times did you check the tank on Wednesday?",
            thu, len(es), es[-1].t1)
    es = [j for j in H.find("milk/box", cow="Daisy")
          if j.args.get("divert")]
    Q.count("count", "How many milkings of Daisy went to the dump "
            "bucket?", thu, len(es), es[-1].t1)
    e = H.find("tank/check", day=WED)[-1]
    Q.words("count", "How much milk was in the tank at the last check?",
            thu, [[num(e.args["volume"]), e.args["volume"]]], e.t1,
            e.args["volume"])

    # ---- yes / no -------------------------------------------------------
    es = H.find("milk/box", cow="Rosie", day=TUE)
    Q.yesno("yesno", "Did Rosie get milked on Tuesday evening?", thu,
            any(j.ok and j.line["goal"][0] == "PM milking" for j in es),
            es[-1].t1)
    Q.yesno("yesno", "Did you scrape the north alley on Tuesday?", thu,
            bool(H.find("alley/scrape", day=TUE, alley="north alley")),
            last)
    e = H.find("tank/check", day=WED)[-1]
    Q.yesno("yesno", "Is the tank back under four degrees?", thu,
            float(num(e.args["temp"])) < 4.0, e.t1)
    Q.yesno("yesno", "Did the vet see Rosie?", thu,
            bool(H.said("Dr Okafor", contains="Rosie")), last)
    es = H.find("feed/push", day=TUE)
    Q.yesno("yesno", "Did the feed pushing go OK on Tuesday?", thu,
            all(j.ok for j in es), es[-1].t1)

    # ---- failed ---------------------------------------------------------
    e = one(H.find("feed/push", ok=False))
    Q.words("failed", "Why did the feed push stop on Monday?", thu,
            [["gate 2", "gate"]], e.t1, e.line["note"])
    e = one(H.find("milk/box", ok=False, cow="Rosie"))
    Q.words("failed", "Why was Rosie's milking stopped?", thu,
            [["kick*", "cluster", "cups"]], e.t1, e.args["reason"])
    e = one(H.find("milk/box", cow="Mabel", day=WED, ok=False))
    Q.words("failed", "Why wasn't Mabel milked in the parlour on "
            "Wednesday?", thu, [["refus*", "would not come", "enter"]],
            e.t1, e.args["reason"])
    e = one(H.find("tank/check", ok=False))
    Q.words("failed", "What went wrong with the bulk tank?", thu,
            [["4.6", "too warm", "above", "compressor"]], e.t1,
            e.line["note"])
    Q.yesno("failed", "Did anything go wrong on Monday?", thu,
            bool(H.find(day=MON, ok=False)), one(H.find(day=MON), -1).t1)
    es = H.find(day=WED, ok=False)
    Q.words("failed", "What went wrong yesterday?", thu,
            [["tank", "4.6", "compressor"], ["mabel", "refus*"]],
            es[-1].t1, "; ".join("%s %s" % (j.name, j.args) for j in es),
            k=1)
    return Q.items, H


if __name__ == "__main__":
    import sys
    print(write(sys.argv[1] if len(sys.argv) > 1 else "dairy.jsonl"),
          "observations")
