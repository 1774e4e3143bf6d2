"""TEACh, asked by a third new user (untuned): a household user typing to
the robot, on eight EDH episodes that teach.py, teachuser.py and
teachuser2.py do not use, one week (Mon 2024-05-06 .. Sat 2024-05-11).

The memory is fed like teach.py: `h2emv import teach FILE... --start ...`,
one start per file; the truth reads the raw `interactions` with the same
time base as teach.Teach (episode start + time_start - first step's
time_start).  "Now" is Sunday 2024-05-12 unless a question says otherwise.
"""

import json
import os

from common import QuestionSet, Span, day_of, must_contain, one, parse_time, \
    variants
from teach import BASE, NAMES, Act, Utt, is_step

EPISODES = [
    ("valid_unseen/0b42b1e6a5ad92ee_8867.edh5.json", "2024-05-06 08:10:00"),
    ("valid_seen/3b305710ae4ff2c1_d082.edh4.json", "2024-05-06 18:30:00"),
    ("train/1c70e34df85e61c8_6282.edh1.json", "2024-05-07 09:40:00"),
    ("valid_unseen/0b161c6f709cde89_4c30.edh2.json", "2024-05-08 12:15:00"),
    ("train/1e31c0c98ac6bad3_0dec.edh3.json", "2024-05-09 07:30:00"),
    ("valid_unseen/1e8fb21f2b41b0b0_db8b.edh4.json", "2024-05-09 17:45:00"),
    ("train/0a57fe74bb28dca3_c887.edh0.json", "2024-05-10 10:20:00"),
    ("valid_unseen/0d1a67f82b3b5854_d74d.edh3.json", "2024-05-11 11:00:00"),
]
SUN = "2024-05-12T10:00:00Z"
MON, TUE, WED, THU, FRI, SAT = ("2024-05-%02d" % d for d in range(6, 12))
KNIVES = ("Knife", "ButterKnife")


def import_args(data_dir):
    """The arguments of `h2emv import teach` for this set."""
    args = [os.path.join(data_dir, BASE, f) for f, _ in EPISODES]
    for _, start in EPISODES:
        args += ["--start", start]
    return args


class Week:
    """The eight episodes read like teach.Teach reads its seven."""

    def __init__(self, data_dir):
        self.acts, self.utts, self.eps = [], [], []
        for n, (path, start) in enumerate(EPISODES):
            with open(os.path.join(data_dir, BASE, path),
                      encoding="utf-8") as f:
                d = json.load(f)
            steps = [i for i in d["interactions"] if is_step(i)]
            base = steps[0]["time_start"]
            t_start = parse_time(start.replace(" ", "T") + "Z")
            held = None
            for i in steps:
                t = t_start + i["time_start"] - base
                a = i["action_id"]
                if a == 100:
                    text = (i.get("corrected_utterance") or
                            i.get("utterance") or "")
                    self.utts.append(Utt(n, t, "Commander" if
                                         i["agent_id"] == 0 else "Driver",
                                         text))
                elif a in NAMES and i["agent_id"] == 1:
                    act = Act(n, t, NAMES[a], i.get("oid"),
                              bool(i["success"]), held if a == 201 else None)
                    self.acts.append(act)
                    if act.ok and a == 200:
                        held = act.type
                    elif act.ok and a == 201:
                        held = None
            self.eps.append((t_start, t_start + steps[-1]["time_start"] -
                             base))

    def find(self, name=None, ok=True, typ=None, held=None, ep=None,
             day=None):
        return [a for a in self.acts
                if (not name or a.name == name) and
                (ok is None or a.ok == ok) and
                (not typ or a.type == typ) and
                (not held or a.held == held) and
                (ep is None or a.ep == ep) and
                (not day or day_of(a.t) == day)]

    def said(self, speaker="Commander", ep=None, contains=None):
        return [u for u in self.utts
                if (not speaker or u.speaker == speaker) and
                (ep is None or u.ep == ep) and
                (not contains or contains.lower() in u.text.lower())]

    def end(self, ep):
        return self.eps[ep][1]

    def opened_before(self, ep, t):
        """The receptacle opened last before time t in episode ep."""
        return one([a for a in self.find(name="Open", ep=ep) if a.t < t], -1)


def add_said(W, Q):
    u = one(W.said(ep=0, contains="slice"))
    Q.words("say", "what did the commander want me to do on monday "
            "morning", SUN, must_contain(u.text, ["slice", "bread"]), u.t,
            u.text)
    u = one(W.said(ep=2, contains="clean"))
    Q.words("say", "On Tuesday, what were you told to clean?", SUN,
            must_contain(u.text, ["plates"]), u.t, u.text)
    u = one(W.said(ep=5, contains="knife"))
    Q.words("say", "thursday evening - what did they say about the knife",
            SUN, must_contain(u.text, ["fridge"]), u.t, u.text)
    u = one(W.said(ep=1, contains="lettuce is"))
    Q.words("say", "For Monday's salad, where did they tell you the lettuce "
            "was?", SUN, must_contain(u.text, ["fridge"]), u.t, u.text)
    us = W.said(ep=3, contains="slice")
    Q.words("say", "I wasn't around Wednesday lunchtime - what did you have "
            "to slice?", SUN,
            must_contain(" ".join(x.text for x in us), ["lettuce",
                                                        "potato"]),
            us[-1].t, " / ".join(x.text for x in us))
    us = [x for x in W.said(ep=7, contains="potato") if "the potato " in
          x.text and (" in " in x.text or " on " in x.text)]
    Q.words("say", "where did the commander say the potato was on saturday",
            SUN, [["black bin", "bin"], ["chair"]], us[-1].t,
            " / ".join(x.text for x in us), k=1)
    d = one(W.said(speaker="Driver", ep=7, contains="only"))
    Q.words("say", "what did you tell them after you checked the black bin",
            SUN, must_contain(d.text, ["tomato"]), d.t, d.text)
    u = one(W.said(ep=4, contains="coffee"))
    Q.words("say", "thursday morning what was the first thing you were "
            "asked to make", SUN, must_contain(u.text, ["coffee"]), u.t,
            u.text)
    u = one(W.said(ep=6))
    Q.words("say", "What was Friday's job?", SUN,
            must_contain(u.text, ["newspapers"]) + [["table"]], u.t, u.text)
    u = one(W.said(ep=2, contains="dirty"))
    Q.words("who", "who told you the plate was dirty", SUN,
            [["commander"]], u.t, "%s: %s" % (u.speaker, u.text))
    u = one(W.said(ep=0, contains="plate"))
    Q.words("say", "which plate were you supposed to use for the toast",
            SUN, must_contain(u.text, ["wall rack"]) + [["clean"]], u.t,
            u.text, k=1)


def last_place(W, held, ep=None, day=None):
    return one([a for a in W.find(name="Place", held=held, ep=ep, day=day)],
               -1)


def add_where(W, Q):
    p = last_place(W, "Newspaper")
    Q.words("where", "where did you put the newspapers", SUN,
            [variants(p.type)], p.t, p.type)
    p = last_place(W, "LettuceSliced", ep=1)
    Q.words("where", "where did the lettuce slice end up on monday evening",
            SUN, [variants(p.type)], p.t, p.type)
    p = last_place(W, "Plate", ep=2)
    Q.words("where", "After rinsing the plate on Tuesday, where did you set "
            "it down?", SUN, [variants(p.type)], p.t, p.type,
            none=["sink"])
    ps = W.find(name="Place", held="PotatoSliced", ep=3)
    dests = [a.type for a in ps]
    top = max(set(dests), key=dests.count)
    Q.words("where", "wednesday: where did you put the potato slices", SUN,
            [variants(top)], ps[-1].t, "%s (%d of %d)" % (
                top, dests.count(top), len(dests)))
    p = last_place(W, "Egg")
    Q.words("where", "where'd the egg go", SUN, [variants(p.type)], p.t,
            p.type)
    p = last_place(W, "Mug", ep=4)
    Q.words("where", "On Thursday morning, where did you put the mug for the "
            "coffee?", SUN, [variants(p.type)], p.t, p.type)
    p = last_place(W, "Knife", ep=0)
    Q.words("where", "after you cut the bread monday, where did you put the "
            "knife down", SUN, [variants(p.type)], p.t, p.type)
    b = one(W.find(name="Pickup", typ="Bowl", ep=5), 0)
    o = W.opened_before(5, b.t)
    Q.words("where", "Where did you fetch the bowl from on Thursday?", SUN,
            [variants(o.type, "cupboard")], b.t, o.type)
    lt = one(W.find(name="Pickup", typ="Lettuce", ep=3), 0)
    o = W.opened_before(3, lt.t)
    Q.words("where", "where was the lettuce you found on wednesday", SUN,
            [variants(o.type, "cupboard")], lt.t, o.type)
    lt = one(W.find(name="Pickup", typ="Lettuce", ep=1), 0)
    o = W.opened_before(1, lt.t)
    Q.words("where", "For the salad on Monday evening, where did you get "
            "the lettuce?", SUN, [variants(o.type)], lt.t, o.type)
    p = last_place(W, "PotatoSliced", ep=7)
    Q.words("where", "saturday, the potato slice you cooked - what did you "
            "put it in?", SUN, [variants(p.type, "frying pan")], p.t, p.type)


def add_when(W, Q):
    tg = W.find(name="ToggleOn", typ="Toaster")
    Q.time("when", "when did you toast the bread?", SUN,
           [a.span for a in tg])
    fa = W.find(name="ToggleOn", typ="Faucet")
    Q.time("when", "last time you turned the tap on?", SUN,
           [one(fa, -1).span])
    sl = one(W.find(name="Slice", typ="Apple"))
    Q.time("when", "what time did you cut up the apple", SUN, [sl.span])
    st = one(W.find(name="ToggleOn", typ="StoveKnob"))
    Q.time("when", "When did you switch the stove on?", SUN, [st.span])
    fr = W.find(name="Open", typ="Fridge")
    Q.time("when", "the last time you opened the fridge, when was that",
           SUN, [one(fr, -1).span])
    kn = [a for a in W.find(name="Pickup") if a.type in KNIVES]
    Q.time("when", "When did you first pick up a knife this week?", SUN,
           [one(kn, 0).span])
    into = one(W.find(name="Place", held="Bowl", typ="SinkBasin", day=THU))
    pour = one(W.find(name="Pour", ep=5, day=THU), -1)
    Q.time("when", "the day before yesterday, when did you rinse the bowl",
           "2024-05-11T20:00:00Z", [Span(into.t, pour.t)])
    nw = W.find(name="Pickup", typ="Newspaper")
    Q.time("when", "yesterday morning, what time did you grab the first "
           "newspaper", "2024-05-11T09:00:00Z", [one(nw, 0).span])


def add_day(W, Q):
    p = last_place(W, "Newspaper")
    Q.day("day", "which day did you tidy up the newspapers", SUN,
          [day_of(p.t)], p.t)
    st = one(W.find(name="ToggleOn", typ="StoveKnob"))
    Q.day("day", "What day did you cook something on the stove?", SUN,
          [day_of(st.t)], st.t)
    pl = W.find(name="Place", held="Plate", typ="SinkBasin")
    on = W.find(name="ToggleOn", typ="Faucet")
    ws = [p for p in pl if any(a.ep == p.ep and a.t > p.t for a in on)]
    Q.day("day", "on which day did you wash the plates", SUN,
          [day_of(p.t) for p in ws], one(ws, -1).t)
    ap = one(W.find(name="Slice", typ="Apple"))
    Q.day("day", "the apple - what day was it sliced?", SUN, [day_of(ap.t)],
          ap.t)


def add_count(W, Q):
    mw = W.find(name="Place", held="PotatoSliced", typ="Microwave")
    Q.count("count", "How many potato slices did you put in the microwave?",
            SUN, len(mw), mw[-1].t)
    bw = W.find(name="Pickup", typ="Bowl", day=THU)
    Q.count("count", "how many times did you pick up the bowl on thursday",
            SUN, len(bw), bw[-1].t)
    nw = W.find(name="Pickup", typ="Newspaper")
    Q.count("count", "How many newspapers did you move?", SUN, len(nw),
            nw[-1].t)
    pf = W.find(name="Place", ok=False)
    Q.count("count", "how many times this week couldn't you put something "
            "down where you wanted", SUN, len(pf), pf[-1].t)
    sl = W.find(name="Slice")
    Q.count("count", "all week, how many times did you cut something with a "
            "knife", SUN, len(sl), sl[-1].t)


def add_yesno(W, Q):
    tp = W.find(name="Place", held="BreadSliced", typ="Plate", ep=0)
    Q.yesno("yesno", "Did you put the toast on the plate like I asked on "
            "Monday?", SUN, bool(tp), W.end(0))
    sl = W.find(name="Slice", typ="Tomato", day=FRI)
    Q.yesno("yesno", "did you slice a tomato on friday", SUN, bool(sl),
            W.end(6))
    mw = W.find(name="Open", typ="Microwave", day=WED)
    Q.yesno("yesno", "Did you open the microwave on Wednesday?", SUN,
            bool(mw), one(mw).t)
    fr = W.find(name="Open", typ="Fridge", day=TUE)
    Q.yesno("yesno", "was the fridge opened at all on tuesday", SUN,
            bool(fr), W.end(2))
    b = W.find(name="Place", held="Bowl", typ="SinkBasin")
    on = [a for a in W.find(name="ToggleOn", typ="Faucet")
          if b and a.t > b[0].t and a.ep == b[0].ep]
    Q.yesno("yesno", "I'm curious, did you wash any bowl this week", SUN,
            bool(b and on), one(on).t)


def add_failed(W, Q):
    pf = {a.held for a in W.find(name="Place", ok=False, day=WED)}
    assert len(pf) == 1, pf
    last = W.find(name="Place", ok=False, day=WED)[-1]
    Q.words("failed", "what did you have trouble putting down on wednesday",
            SUN, [variants(next(iter(pf)), "potato")], last.t,
            next(iter(pf)))
    pf = {a.held for a in W.find(name="Place", ok=False, ep=5)}
    assert len(pf) == 1, pf
    last = W.find(name="Place", ok=False, ep=5)[-1]
    Q.words("failed", "Thursday evening, what were you holding when you "
            "couldn't set it down?", SUN, [variants(next(iter(pf)))],
            last.t, next(iter(pf)))


def add_which(W, Q):
    sl = sorted({a.type for a in W.find(name="Slice")})
    veg = [t for t in sl if t in ("Tomato", "Lettuce", "Potato")]
    Q.words("which", "which vegetables did you slice this week", SUN,
            [[v.lower()] for v in veg], W.find(name="Slice")[-1].t,
            "%s (all sliced: %s)" % (", ".join(veg), ", ".join(sl)),
            others=[[t.lower()] for t in sl if t not in veg])
    fo = one(W.find(name="Open", typ="Fridge", day=MON))
    fc = one([a for a in W.find(name="Close", typ="Fridge", day=MON)
              if a.t > fo.t])
    got = [a for a in W.find(name="Pickup", day=MON) if fo.t < a.t < fc.t]
    Q.words("which", "what did you take out of the fridge on monday "
            "evening", SUN, [variants(a.type) for a in got], fc.t,
            ", ".join(a.type for a in got))
    pl = one(W.find(name="Pickup", typ="Plate", ep=2), 0)
    moved = [a.type for a in W.find(name="Pickup", ep=2) if a.t < pl.t]
    Q.words("which", "tuesday, before you did the plate, what stuff did you "
            "have to move out of the way", SUN,
            [variants(m) for m in moved], pl.t, ", ".join(moved), k=3)
    noon = parse_time(THU + "T12:00:00Z")
    y = sorted({a.type for a in W.find(name="Slice", day=THU)
                if a.t > noon})
    Q.words("which", "yesterday evening what did you slice",
            "2024-05-10T09:00:00Z", [[t.lower()] for t in y],
            W.end(5), ", ".join(y), none=["apple"])


def questions(data_dir):
    W = Week(data_dir)
    Q = QuestionSet("teachuser3")
    for add in (add_said, add_where, add_when, add_day, add_count,
                add_yesno, add_failed, add_which):
        add(W, Q)
    return Q.items, W
