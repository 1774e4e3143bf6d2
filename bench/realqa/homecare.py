"""Held-out: a home-care robot ("Tess") living with Rosa Alvarez, Monday
2025-11-03 to Wednesday 2025-11-05.

Written as a new user from another domain would write it, in a log shape
none of the other sources has: one line per finished action, with its start
`t` and its end `t_end` (no running observations, no goal stack), skill
names in snake_case (`serve_meal`, `pill_reminder`, `walk_assist`), argument
keys of its own (`dish`, `meal`, `pills`, `thing`, `from_spot`, `to_spot`,
`plant`, `contact`, `visitor`, `route`), heartbeat lines while idle, the
fridge's contents as objects with an `in` relation, and the robot speaking
as "Tess".  No robot profile.

The truth is read back from the written lines (`Diary`), never from the
generator's variables.  The questions are phrased the way a family member
or a carer would ask (relative days, colloquial forms, a typo, plurals),
and were written before h2emv was asked them: they are a held-out set, not
to be tuned on (docs/realqa.md).
"""

import json
import random

from common import one, QuestionSet, Span, day_of, iso, parse_time, must_contain

SEED = 20251103
MON, TUE, WED = "2025-11-03", "2025-11-04", "2025-11-05"
ROBOT = "Tess"

ROOMS = {
    "kitchen": [("fridge_1", "fridge"), ("kettle_1", "kettle"),
                ("pillbox_1", "pill organizer")],
    "living room": [("sofa_1", "sofa"), ("armchair_1", "armchair"),
                    ("tv_1", "television"), ("fern_1", "fern")],
    "bedroom": [("bed_1", "bed"), ("nightstand_1", "nightstand"),
                ("orchid_1", "orchid"), ("closet_1", "closet")],
    "hallway": [("rug_1", "rug"), ("coatrack_1", "coat rack")],
    "front door": [("door_1", "front door"), ("mat_1", "doormat")],
    "garden": [("bench_1", "garden bench"), ("rose_1", "rose bush"),
               ("feeder_1", "bird feeder")],
    "dining room": [("table_1", "dining table")],
}


class Writer:
    def __init__(self, seed=SEED):
        self.rng = random.Random(seed)
        self.lines = []
        self.clock = 0.0
        self.here = "living room"

    def at(self, day, hhmm):
        t = parse_time("%sT%s:00Z" % (day, hhmm)) + self.rng.randint(0, 120)
        t = max(t, self.clock + 30)
        # heartbeats every 20 minutes while idle, between 06:00 and 22:00
        nxt = self.clock + 1200
        while self.clock and nxt < t - 60:
            h = (int(nxt) // 3600) % 24
            if 6 <= h < 22:
                self.emit(nxt, location=self.here,
                          objects=self.things(self.here),
                          note="idle, battery ok")
            nxt += 1200
        return t

    def things(self, room, extra=()):
        return [{"id": i, "type": k} for i, k in ROOMS.get(room, [])] + \
            list(extra)

    def emit(self, t, t_end=None, **f):
        ms = self.rng.randint(0, 999)
        line = {"t": iso(t)[:-1] + ".%03dZ" % ms}
        if t_end is not None:
            line["t_end"] = iso(t_end)[:-1] + ".%03dZ" % ms
        line.update({k: v for k, v in f.items() if v not in (None, [], "")})
        self.lines.append(line)
        self.clock = max(self.clock, t_end or t)

    def act(self, day, hhmm, name, args, room, status="succeeded",
            minutes=(2, 6), persons=(), note=None, objects=None, end=None):
        t0 = self.at(day, hhmm)
        t1 = t0 + 60 * self.rng.randint(*minutes) + self.rng.randint(0, 59)
        where = end or room
        self.emit(t0, t1, action={"name": name, "args": args,
                                  "status": status},
                  location=where, persons=list(persons),
                  objects=self.things(where) if objects is None else objects,
                  note=note)
        self.here = where
        return t1

    def talk(self, day, hhmm, room, utterances, persons=()):
        t = self.at(day, hhmm)
        self.here = room
        ppl = sorted(set(list(persons) + [w for w, _ in utterances
                                          if w != ROBOT]))
        for i, (who, text) in enumerate(utterances):
            self.emit(t + 8 * i, location=room, persons=ppl,
                      speech={"speaker": who, "text": text})

    def write(self, path):
        with open(path, "w", encoding="utf-8") as f:
            for ln in self.lines:
                f.write(json.dumps(ln, ensure_ascii=False) + "\n")
        return len(self.lines)


FRIDGE_MON = ["milk carton", "yogurt", "orange juice"]
FRIDGE_TUE = ["milk carton", "yogurt", "apple", "butter"]


def fridge(contents):
    objs = [{"id": "fridge_1", "type": "fridge", "state": "open"}]
    for i, c in enumerate(contents):
        objs.append({"id": "%s_%d" % (c.replace(" ", "_"), i), "type": c,
                     "relations": [{"to": "fridge_1", "type": "in"}]})
    return objs


def generate(seed=SEED):
    w = Writer(seed)
    R = "Rosa Alvarez"

    # ----- Monday -----------------------------------------------------
    d = MON
    w.act(d, "07:30", "open_blinds", {"room": "bedroom"}, "bedroom",
          minutes=(1, 2), persons=[R])
    w.act(d, "07:45", "make_drink", {"drink": "tea", "for": "Rosa"},
          "kitchen", minutes=(3, 5))
    w.act(d, "08:00", "pill_reminder", {"pills": "blood pressure tablets",
                                        "person": "Rosa"},
          "living room", minutes=(1, 2), persons=[R])
    w.talk(d, "08:03", "living room", [
        (ROBOT, "Rosa, it is time for your blood pressure tablets."),
        (R, "Thank you, dear.")])
    w.act(d, "09:10", "fetch", {"thing": "reading glasses",
                                "from_spot": "bedroom nightstand",
                                "to_spot": "living room"},
          "bedroom", end="living room", persons=[R])
    w.act(d, "10:30", "water", {"plant": "fern", "room": "living room"},
          "living room", minutes=(1, 3))
    w.act(d, "11:00", "check_fridge", {"appliance": "fridge"}, "kitchen",
          minutes=(1, 2), objects=fridge(FRIDGE_MON))
    w.act(d, "12:00", "serve_meal", {"meal": "lunch",
                                     "dish": "vegetable soup"},
          "kitchen", end="dining room", minutes=(10, 15), persons=[R])
    w.act(d, "14:00", "video_call", {"contact": "Lena Alvarez"},
          "living room", minutes=(12, 18), persons=[R])
    w.talk(d, "14:05", "living room", [
        ("Lena Alvarez", "Hi Mom! I will visit you on Wednesday afternoon."),
        (R, "Wonderful, I will bake a cake.")], persons=[R])
    w.act(d, "15:30", "walk_assist", {"person": "Rosa",
                                      "route": "garden path"},
          "garden", status="aborted", minutes=(4, 6), persons=[R],
          note="it started to rain", end="living room")
    w.act(d, "18:00", "serve_meal", {"meal": "dinner",
                                     "dish": "baked salmon"},
          "kitchen", end="dining room", minutes=(10, 15), persons=[R])
    w.act(d, "20:00", "pill_reminder", {"pills": "sleeping pill",
                                        "person": "Rosa"},
          "bedroom", minutes=(1, 2), persons=[R])
    w.act(d, "21:00", "lock", {"door": "front door"}, "front door",
          minutes=(0, 1))

    # ----- Tuesday ----------------------------------------------------
    d = TUE
    w.act(d, "07:35", "open_blinds", {"room": "bedroom"}, "bedroom",
          minutes=(1, 2), persons=[R])
    w.act(d, "08:05", "pill_reminder", {"pills": "blood pressure tablets",
                                        "person": "Rosa"},
          "living room", minutes=(1, 2), persons=[R])
    w.act(d, "09:00", "fetch", {"thing": "newspaper",
                                "from_spot": "front door",
                                "to_spot": "living room"},
          "front door", end="living room", persons=[R])
    w.act(d, "09:40", "vacuum", {"room": "hallway"}, "hallway",
          status="failed", minutes=(3, 5), note="a sock got stuck in the "
                                                "brush")
    w.act(d, "10:15", "vacuum", {"room": "hallway"}, "hallway",
          minutes=(8, 12))
    w.act(d, "11:00", "greet_visitor", {"visitor": "Tom Becker"},
          "front door", minutes=(1, 2), persons=["Tom Becker"])
    w.talk(d, "11:03", "front door", [
        ("Tom Becker", "Good morning, I am the community nurse. I am here "
                       "to check Rosa's blood pressure."),
        (ROBOT, "Welcome Tom, Rosa is in the living room.")])
    w.act(d, "12:10", "serve_meal", {"meal": "lunch",
                                     "dish": "chicken salad"},
          "kitchen", end="dining room", minutes=(10, 15), persons=[R])
    w.act(d, "13:00", "fetch", {"thing": "blanket",
                                "from_spot": "bedroom closet",
                                "to_spot": "living room"},
          "bedroom", end="living room", persons=[R])
    w.act(d, "15:00", "walk_assist", {"person": "Rosa",
                                      "route": "garden path"},
          "garden", minutes=(15, 20), persons=[R], end="living room")
    w.act(d, "16:00", "check_fridge", {"appliance": "fridge"}, "kitchen",
          minutes=(1, 2), objects=fridge(FRIDGE_TUE),
          note="the milk expires tomorrow")
    w.talk(d, "16:04", "kitchen", [
        (ROBOT, "The milk expires tomorrow. Shall I put it on the "
                "shopping list?"),
        (R, "Yes please, and add eggs too.")])
    w.act(d, "16:08", "update_shopping_list", {"add": ["milk", "eggs"]},
          "kitchen", minutes=(0, 1))
    w.act(d, "18:15", "serve_meal", {"meal": "dinner",
                                     "dish": "pasta with tomato sauce"},
          "kitchen", end="dining room", minutes=(10, 15), persons=[R])
    w.act(d, "21:05", "lock", {"door": "front door"}, "front door",
          minutes=(0, 1))

    # ----- Wednesday --------------------------------------------------
    d = WED
    w.act(d, "07:30", "open_blinds", {"room": "bedroom"}, "bedroom",
          minutes=(1, 2), persons=[R])
    w.act(d, "08:00", "pill_reminder", {"pills": "blood pressure tablets",
                                        "person": "Rosa"},
          "living room", minutes=(1, 2), persons=[R])
    w.act(d, "08:30", "make_drink", {"drink": "coffee", "for": "Rosa"},
          "kitchen", minutes=(3, 5))
    w.act(d, "10:00", "water", {"plant": "orchid", "room": "bedroom"},
          "bedroom", minutes=(1, 3))
    w.act(d, "10:10", "water", {"plant": "fern", "room": "living room"},
          "living room", minutes=(1, 3))
    w.act(d, "11:30", "fetch", {"thing": "tv remote", "from_spot": "sofa",
                                "to_spot": "armchair"},
          "living room", status="failed", minutes=(2, 3),
          note="the remote was not on the sofa", persons=[R])
    w.act(d, "11:40", "fetch", {"thing": "tv remote",
                                "from_spot": "kitchen counter",
                                "to_spot": "armchair"},
          "kitchen", end="living room", minutes=(2, 3), persons=[R])
    w.act(d, "12:15", "serve_meal", {"meal": "lunch", "dish": "omelette"},
          "kitchen", end="dining room", minutes=(10, 15), persons=[R])
    w.act(d, "15:10", "greet_visitor", {"visitor": "Lena Alvarez"},
          "front door", minutes=(1, 2), persons=["Lena Alvarez"])
    w.talk(d, "15:13", "front door", [
        ("Lena Alvarez", "Hello Tess! Where is my mother?"),
        (ROBOT, "Rosa is sitting in the garden.")])
    w.act(d, "15:40", "take_photo", {"subject": "Rosa and Lena"}, "garden",
          minutes=(1, 2), persons=[R, "Lena Alvarez"])
    w.act(d, "18:00", "serve_meal", {"meal": "dinner",
                                     "dish": "lentil stew"},
          "kitchen", end="dining room", minutes=(10, 15),
          persons=[R, "Lena Alvarez"])
    w.act(d, "21:00", "lock", {"door": "front door"}, "front door",
          minutes=(0, 1))
    return w


def write(path, seed=SEED):
    return generate(seed).write(path)


class Run:
    def __init__(self, o):
        a = o["action"]
        self.name, self.args, self.status = a["name"], a.get("args") or {}, \
            a["status"]
        self.t0, self.t1 = parse_time(o["t"]), parse_time(o["t_end"])
        self.line = o

    @property
    def ok(self):
        return self.status == "succeeded"

    @property
    def span(self):
        return Span(self.t0, self.t1, self.name)


class Diary:
    """The written lines read back: one run per action line, speech."""

    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            self.obs = [json.loads(x) for x in f if x.strip()]
        self.runs, self.speech = [], []
        for o in self.obs:
            if o.get("action"):
                self.runs.append(Run(o))
            s = o.get("speech")
            if s:
                self.speech.append((parse_time(o["t"]), s.get("speaker", ""),
                                    s["text"]))

    def find(self, name=None, ok=None, day=None, **args):
        out = []
        for r in self.runs:
            if name and r.name != name:
                continue
            if ok is not None and r.ok != ok:
                continue
            if day and day_of(r.t0) != day:
                continue
            if any(r.args.get(k) != v for k, v in args.items()):
                continue
            out.append(r)
        return out

    def said(self, speaker=None, contains=None, day=None):
        return [(t, s, x) for (t, s, x) in self.speech
                if (not speaker or s == speaker) and
                (not day or day_of(t) == day) and
                (not contains or contains.lower() in x.lower())]



def questions(path):
    D = Diary(path)
    Q = QuestionSet("homecare")
    thu = "2025-11-06T09:00:00Z"      # Thursday morning
    wed_pm = "2025-11-05T23:30:00Z"   # Wednesday night

    # ---- when ---------------------------------------------------------
    r = D.find("pill_reminder")[-1]
    Q.time("when", "When did you last remind Rosa about her pills?", thu,
           [r.span])
    r = one(D.find("greet_visitor", visitor="Tom Becker"))
    (tt, who, text) = one(D.said(speaker="Tom Becker"))
    Q.time("when", "what time did the nurse come by?", thu,
           [r.span, Span(tt, tt + 10)])
    rs = D.find("vacuum", day=TUE)
    Q.time("when", "When did u vacuum the hallway yesterday?", wed_pm,
           [x.span for x in rs])
    r = one(D.find("lock", day=MON))
    Q.time("when", "When did you lock up on Monday night?", thu, [r.span])
    r = one(D.find("fetch", thing="blanket"))
    Q.time("when", "When was the blanket brought to the living room?", thu,
           [r.span])

    # ---- where --------------------------------------------------------
    rs = D.find("fetch", thing="tv remote")
    good = [x for x in rs if x.ok][-1]
    bad = [x.args["from_spot"] for x in rs if not x.ok]
    Q.words("where", "Where did you find the TV remote in the end?", thu,
            [[good.args["from_spot"], "counter"]], good.t1,
            good.args["from_spot"], none=bad)
    r = one(D.find("fetch", thing="reading glasses"))
    Q.words("where", "Where'd you get the reading glasses from?", thu,
            [[r.args["from_spot"], "nightstand"]], r.t1, r.args["from_spot"])
    rs = D.find("walk_assist")
    routes = sorted({x.args["route"] for x in rs})
    Q.words("where", "Where did you take Rosa for her walks?", thu,
            [routes + ["garden"]], rs[-1].t1, ", ".join(routes))
    rs = D.find("vacuum", day=TUE)
    rooms = sorted({x.args["room"] for x in rs})
    Q.words("where", "Which room did you vacuum on Tuesday?", thu,
            [rooms], rs[-1].t1, ", ".join(rooms))
    r = one(D.find("water", plant="orchid"))
    Q.words("where", "Where is the orchid you watered?", thu,
            [[r.args["room"]]], r.t1, r.args["room"])

    # ---- day ----------------------------------------------------------
    r = one(D.find("greet_visitor", visitor="Lena Alvarez"))
    Q.day("day", "Which day did Lena come over?", thu, [day_of(r.t0)], r.t1)
    rs = [x for x in D.find("walk_assist") if not x.ok]
    Q.day("day", "On what day did the walk get cut short?", thu,
          [day_of(x.t0) for x in rs], rs[-1].t1)

    # ---- who ----------------------------------------------------------
    rs = D.find("greet_visitor", day=TUE)
    Q.words("who", "Who came to visit on Tuesday?", thu,
            [[x.args["visitor"] for x in rs] + ["Becker", "Tom"]],
            rs[-1].t1, ", ".join(x.args["visitor"] for x in rs))
    r = one(D.find("video_call", day=MON))
    Q.words("who", "Who did you video call on Monday?", thu,
            [[r.args["contact"], "Lena"]], r.t1, r.args["contact"])
    (tt, who, text) = one(D.said(contains="eggs"))
    Q.words("who", "Who wanted eggs on the shopping list?", thu,
            [[who, "Rosa"]], tt, who)

    # ---- say ----------------------------------------------------------
    (tt, who, text) = one(D.said(speaker="Lena Alvarez", day=MON))
    Q.words("say", "What did Lena say on the video call?", thu,
            must_contain(text, ["visit", "Wednesday"]), tt, text)
    (tt, who, text) = one(D.said(speaker="Tom Becker"))
    Q.words("say", "What did the nurse say when he arrived?", thu,
            must_contain(text, ["blood pressure"]), tt, text)
    (tt, who, text) = one(D.said(speaker=ROBOT, contains="garden"))
    Q.words("say", "What did you tell Lena when she asked where her mother "
            "was?", thu, must_contain(text, ["garden"]), tt, text)

    # ---- see ----------------------------------------------------------
    r = one(D.find("check_fridge", day=TUE))
    inside = [o["type"] for o in r.line["objects"]
              if any(x.get("to") == "fridge_1" for x in o.get("relations")
                     or [])]
    allin = sorted({o["type"] for x in D.find("check_fridge")
                    for o in x.line["objects"]
                    if o.get("relations")} - set(inside))
    Q.words("see", "What was in the fridge yesterday afternoon?", wed_pm,
            [[c] + c.split()[:1] for c in inside], r.t1, ", ".join(inside),
            k=(len(inside) + 1) // 2, others=[[c] for c in allin])
    r = one(D.find("take_photo"))
    seen = sorted({o["type"] for o in r.line["objects"]})
    Q.words("see", "What did you see in the garden when you took the "
            "photo?", thu, [[c] for c in seen], r.t1, ", ".join(seen),
            k=(len(seen) + 1) // 2)

    # ---- which --------------------------------------------------------
    r = one(D.find("serve_meal", day=TUE, meal="lunch"))
    Q.words("which", "What did you make for lunch on Tuesday?", thu,
            [[r.args["dish"], "chicken"]], r.t1, r.args["dish"])
    r = one(D.find("serve_meal", day=TUE, meal="dinner"))
    Q.words("which", "What did you serve for dinner the day before "
            "yesterday?", thu, [[r.args["dish"], "pasta"]], r.t1,
            r.args["dish"])
    rs = D.find("water", day=WED)
    Q.words("which", "Which plants did you water on Wednesday?", thu,
            [[x.args["plant"]] for x in rs], rs[-1].t1,
            ", ".join(x.args["plant"] for x in rs))
    r = one(D.find("fetch", from_spot="bedroom closet"))
    Q.words("which", "What did you bring Rosa from the bedroom closet?", thu,
            [[r.args["thing"]]], r.t1, r.args["thing"])
    r = one(D.find("make_drink", day=WED))
    Q.words("which", "What drink did you make this morning?", wed_pm,
            [[r.args["drink"]]], r.t1, r.args["drink"])

    # ---- count --------------------------------------------------------
    rs = D.find("serve_meal", day=TUE)
    Q.count("count", "How many meals did you serve on Tuesday?", thu,
            len(rs), rs[-1].t1)
    rs = D.find("pill_reminder")
    Q.count("count", "How many times did you remind Rosa to take her "
            "medicine?", thu, len(rs), rs[-1].t1)
    rs = D.find("water")
    Q.count("count", "How many times did you water the plants?", thu,
            len(rs), rs[-1].t1)

    # ---- yes / no -----------------------------------------------------
    rs = D.find("open_blinds", day=TUE)
    Q.yesno("yesno", "Did you open the blinds on Tuesday?", thu, bool(rs),
            rs[-1].t1 if rs else None)
    rs = D.find("walk_assist", day=MON)
    Q.yesno("yesno", "Did you manage to go for a walk with Rosa on Monday?",
            thu, any(x.ok for x in rs), rs[-1].t1)
    rs = [x for x in D.runs if "mop" in x.name]
    Q.yesno("yesno", "Did you ever mop the kitchen floor?", thu, bool(rs),
            None)
    rs = D.find("greet_visitor", day=WED, visitor="Tom Becker")
    Q.yesno("yesno", "Did the nurse come on Wednesday?", thu, bool(rs), None)

    # ---- failed -------------------------------------------------------
    rs = [x for x in D.find("vacuum") if not x.ok]
    Q.words("failed", "What went wrong with the vacuuming?", thu,
            [["sock", "brush"]], rs[-1].t1,
            "; ".join(x.line.get("note", "") for x in rs))
    rs = [x for x in D.runs if not x.ok and day_of(x.t0) == WED]
    Q.words("failed", "Was there any trouble yesterday?", thu,
            [["remote", "sofa"]], rs[-1].t1,
            "; ".join("%s %s (%s)" % (x.name, x.args, x.line.get("note"))
                      for x in rs))
    rs = [x for x in D.find("walk_assist", day=MON) if not x.ok]
    Q.words("failed", "Why did the walk on Monday stop early?", thu,
            [["rain*"]], rs[-1].t1, rs[-1].line.get("note"))
    return Q.items, D


if __name__ == "__main__":
    import sys
    print(write(sys.argv[1] if len(sys.argv) > 1 else "homecare.jsonl"),
          "observations")
