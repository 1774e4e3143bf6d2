"""TEACh asked by a second new user: questions a person in the household
would ask about a week of chores, in everyday wording, with truth computed
from the raw `interactions` lists.

Written for issue 19 by an engineer who read no product code and not the
questions of teach.py or teachuser.py.  The episodes are eight real TEACh EDH
instances (CDLA-Sharing-1.0) that teach.py does not use; they are fed with
the product importer the same way, one `--start` per file:
`h2emv import teach FILE... --start 'YYYY-MM-DD HH:MM:SS' ...`, so the time
of a step is "episode start + its time_start - the first step's time_start"
(teach.py's definition, its `is_step`, `obj_type`, `Act` and `Utt`).
Days: Monday 2024-04-08 .. Saturday 04-13; asked on Sunday 04-14.
"""

import json
import os

from common import QuestionSet, day_of, must_contain, one, parse_time, \
    variants
from teach import BASE, NAMES, Act, Utt, is_step

# (file, start, what the Commander wanted)
EPISODES = [
    ("train/0b2e762fcbe2b1ce_ac58.edh13.json", "2024-04-08 08:30:00"),
    ("valid_seen/4ba5604e5d3a4ecb_7550.edh5.json", "2024-04-08 18:10:00"),
    ("train/2e0921fb56f5d875_a9e0.edh8.json", "2024-04-09 07:50:00"),
    ("valid_unseen/0fc859faf40296d7_c87e.edh6.json", "2024-04-10 08:05:00"),
    ("valid_seen/3f117593619d88bd_94db.edh2.json", "2024-04-10 16:20:00"),
    ("train/0bdf5b6f19e8f7d8_b836.edh0.json", "2024-04-11 11:00:00"),
    ("train/2ede20d029522a7c_0781.edh2.json", "2024-04-12 12:30:00"),
    ("train/0b8ded42ab9d39d1_8fef.edh3.json", "2024-04-13 10:00:00"),
]
SUN = "2024-04-14T10:00:00Z"


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

    def find(self, name=None, ok=None, typ=None, held=None, ep=None,
             day=None):
        return [a for a in self.acts
                if (not name or a.name == name) and
                (ok is None or a.ok == ok) and
                (not typ or a.type == typ) and
                (not held or a.held == held) and
                (ep is None or a.ep == ep) and
                (not day or day_of(a.t) == day)]

    def said(self, speaker=None, ep=None, contains=None):
        return [u for u in self.utts
                if (not speaker or u.speaker == speaker) and
                (ep is None or u.ep == ep) and
                (not contains or contains.lower() in u.text.lower())]


def first_after(xs, t):
    return one([x for x in xs if x.t > t])


def places(W, held, ep=None, typ=None):
    return [a for a in W.find(name="Place", ok=True, held=held, ep=ep)
            if not typ or a.type == typ]


def questions(data_dir):
    W = Week(data_dir)
    Q = QuestionSet("teachuser2")
    day = [day_of(t0) for t0, _ in W.eps]
    cmd = lambda ep: W.said("Commander", ep)  # noqa: E731
    drv = lambda ep: W.said("Driver", ep)  # noqa: E731

    # ---- what the Commander asked for --------------------------------
    for ep, q, words in [
            (0, "What did the Commander want done on Monday morning?",
             ["clean", "tableware"]),
            (1, "What did the Commander ask for on Monday evening?",
             ["potato", "cooked"]),
            (3, "What did the Commander ask you to make on Wednesday "
             "morning?", ["coffee"]),
            (5, "What did the Commander ask you to put on the bed?",
             ["alarm clocks"]),
            (6, "What kind of salad did the Commander want on Friday?",
             ["lettuce", "tomato", "potato"])]:
        u = [x for x in cmd(ep) if all(w in x.text.lower() for w in words)]
        Q.words("say", q, SUN, must_contain(one(u).text, words), one(u).t,
                one(u).text, k=2 if len(words) > 2 else None)
    u = one(W.said("Commander", 2, "also needs"))
    Q.words("say", "What did the Commander say the sandwich still needed?",
            SUN, must_contain(u.text, ["tomato"]), u.t, u.text)
    ask = one(W.said("Driver", 6, "find a knife"))
    ans = first_after(cmd(6), ask.t)
    Q.words("say", "On Friday, where did the Commander say the knife was?",
            SUN, must_contain(ans.text, ["fridge"]), ans.t, ans.text)
    ask = one(W.said("Driver", 2, "plate"))
    ans = first_after(cmd(2), ask.t)
    Q.words("say", "Where did the Commander tell you to look for a plate "
            "on Tuesday?", SUN, must_contain(ans.text, ["cabinet", "sink"]),
            ans.t, ans.text)
    u = [x for x in cmd(4) if "fruit on the" in x.text]
    Q.words("say", "Where did the Commander say the fruit was?", SUN,
            must_contain(one(u).text, ["chair"]), one(u).t, one(u).text)
    ask = one(W.said("Driver", 7, "where"))
    Q.words("say", "What did you ask the Commander on Saturday?", SUN,
            must_contain(ask.text, ["knife"]), ask.t, ask.text)
    done = one(W.said("Driver", 2, "toasted"))
    ans = first_after(cmd(2), done.t)
    Q.words("say", "What did the Commander say when you had toasted the "
            "bread?", SUN, must_contain(ans.text, ["great job"]), ans.t,
            ans.text)

    # ---- where things went ---------------------------------------------
    def where(q, acts, none=(), i=-1):
        a = one(acts, i)
        Q.words("where", q, SUN, [variants(a.type)], a.t, a.type,
                none=none)

    where("Where did you put the alarm clocks?", places(W, "AlarmClock"))
    fr = places(W, "Apple", 4) + places(W, "Tomato", 4)
    assert len({a.type for a in fr}) == 1
    where("Where did you put the fruit on Wednesday afternoon?", fr)
    where("Where did the cooked potato slices end up on Monday evening?",
          places(W, "PotatoSliced", 1))
    mugs = places(W, "Mug", 3)
    assert mugs[0].type == mugs[-1].type == "CoffeeMachine"
    where("Where did you put the mugs to make the coffee?", mugs)
    sl = one(W.find(name="Slice", ok=True, typ="Tomato", ep=2))
    kn = first_after(places(W, "Knife", 2), sl.t)
    Q.words("where", "Where did you leave the knife after cutting the "
            "tomato on Tuesday?", SUN, [variants(kn.type)], kn.t, kn.type,
            none=["counter", "countertop"])
    where("Where did you toast the bread?", places(W, "BreadSliced", 2,
                                                    "Toaster"))
    pan = places(W, "PotatoSliced", 6, "Pan")
    Q.words("where", "What did you cook the potato slices in on Friday?",
            SUN, [["pan"]], one(pan, -1).t, "Pan (on the StoveBurner)")
    where("Where did you put the plates on Tuesday in the end?",
          places(W, "Plate", 2))

    # ---- which: sliced, cooked, washed ---------------------------------
    sl = W.find(name="Slice", ok=True)
    typs = sorted({a.type for a in sl})
    Q.words("which", "What did you slice this week?", SUN,
            [variants(t) for t in typs], sl[-1].t, ", ".join(typs),
            k=len(typs) - 1)
    fri = W.find(name="Slice", ok=True, ep=6)
    typs = sorted({a.type for a in fri})
    Q.words("which", "Which vegetables did you cut on Friday?", SUN,
            [variants(t) for t in typs], fri[-1].t, ", ".join(typs))
    washed = [a for a in W.find(name="Place", ok=True, ep=0, typ="SinkBasin")]
    typs = sorted({a.held for a in washed})
    Q.words("which", "What did you wash on Monday morning?", SUN,
            [variants(t) for t in typs], washed[-1].t, ", ".join(typs),
            none=["plate"])
    mw = places(W, None, 1, "Microwave")
    typs = sorted({a.held for a in mw})
    on = W.find(name="ToggleOn", ok=True, typ="Microwave")
    assert typs == ["PotatoSliced"] and on
    Q.words("which", "What did you heat up in the microwave?", SUN,
            [["potato"]], on[-1].t, "potato slices")

    def out_of_fridge(ep):
        o = one(W.find(name="Open", ok=True, typ="Fridge", ep=ep))
        return first_after(W.find(name="Pickup", ok=True, ep=ep), o.t)
    p = out_of_fridge(3)
    Q.words("which", "What did you take out of the fridge on Wednesday?",
            SUN, [variants(p.type)], p.t, p.type)
    p = out_of_fridge(0)
    Q.words("which", "What did you find in the fridge on Monday morning?",
            SUN, [variants(p.type)], p.t, p.type, none=["mug"])
    pl = places(W, None, 6, "Plate")
    typs = sorted({a.held for a in pl})
    Q.words("which", "What did you put on the plate on Friday?", SUN,
            [variants(t.replace("Sliced", "")) for t in typs], pl[-1].t,
            ", ".join(typs))
    cl = places(W, None, 3, "SinkBasin")
    typs = sorted({a.held for a in cl})
    Q.words("which", "What did you clean on Wednesday morning?", SUN,
            [variants(t) for t in typs], cl[-1].t, ", ".join(typs),
            none=["mug"])

    # ---- how many -------------------------------------------------------
    def count(q, acts):
        Q.count("count", q, SUN, len(acts), one(acts, -1).t)

    count("How many times did you rinse a mug on Monday?",
          places(W, "Mug", 0, "SinkBasin"))
    count("How many potato slices did you put on the plate on Monday "
          "evening?", places(W, "PotatoSliced", 1, "Plate"))
    count("How many times did you turn the tap on on Monday morning?",
          W.find(name="ToggleOn", ok=True, typ="Faucet", ep=0))
    count("How many cupboards did you open on Monday evening looking for a "
          "plate?", W.find(name="Open", ok=True, typ="Cabinet", ep=1))
    count("How many slices of bread did you put in the toaster?",
          places(W, "BreadSliced", None, "Toaster"))
    count("How many alarm clocks did you move?",
          W.find(name="Pickup", ok=True, typ="AlarmClock"))
    # The whole week: the fruit of Wednesday and Tuesday's tomato slice.
    fruit = ("Apple", "Tomato", "AppleSliced", "TomatoSliced")
    count("How many pieces of fruit did you put on the dining table?",
          [a for a in places(W, None, None, "DiningTable")
           if a.held in fruit])
    count("How many times did you slice something this week?",
          W.find(name="Slice", ok=True))
    count("How many times did you fail to pick something up on Monday "
          "evening?", W.find(name="Pickup", ok=False, ep=1))

    # ---- when ------------------------------------------------------------
    def when(q, a):
        Q.time("when", q, SUN, [a.span])

    when("When did you cut the lettuce on Saturday?",
         one(W.find(name="Slice", ok=True, typ="Lettuce", ep=7)))
    when("When did you switch on the coffee machine?",
         one(W.find(name="ToggleOn", ok=True, typ="CoffeeMachine")))
    when("When did you put the first alarm clock on the bed?",
         one(places(W, "AlarmClock", 5, "Bed")))
    when("When did you start the microwave for the first time?",
         one(W.find(name="ToggleOn", ok=True, typ="Microwave")))
    when("When did you last open the fridge?",
         one(W.find(name="Open", ok=True, typ="Fridge"), -1))

    # ---- which day -------------------------------------------------------
    u = one(W.said("Commander", contains="make a sandwich"))
    Q.day("day", "On which day did you make a sandwich?", SUN, [day[u.ep]],
          u.t)
    a = one(places(W, "AlarmClock", None, "Bed"), -1)
    Q.day("day", "What day did you tidy the alarm clocks onto the bed?",
          SUN, [day_of(a.t)], a.t)
    a = one(W.find(name="ToggleOn", ok=True, typ="CoffeeMachine"))
    Q.day("day", "Which day did you make coffee?", SUN, [day_of(a.t)], a.t)

    # ---- yes / no ----------------------------------------------------------
    ts = places(W, None, None, "Toaster")
    Q.yesno("yesno", "Did you ever use the toaster?", SUN, bool(ts),
            one(ts).t)
    egg = W.find(name="Pickup", ok=True, typ="Egg")
    cooked = [a for a in W.find(name="Place", ok=True, held="Egg")
              if a.type in ("Pan", "Pot", "Microwave", "StoveBurner")]
    Q.yesno("yesno", "Did you cook an egg this week?", SUN, bool(cooked),
            one(egg).t)
    ap = W.find(name="Slice", typ="Apple", ep=3)
    u = one(W.said("Commander", 3, "slice of apple"))
    Q.yesno("yesno", "Did you slice the apple on Wednesday?", SUN, bool(ap),
            u.t)
    bed = places(W, None, 5, "Bed")
    Q.yesno("yesno", "Did both alarm clocks end up on the bed?", SUN,
            len(bed) == 2, bed[-1].t)

    # ---- trouble ------------------------------------------------------------
    wh = [x for x in drv(6) if x.text.lower().startswith("where")]
    Q.words("failed", "What couldn't you find on Friday?", SUN,
            [["knife"], ["pan"]], wh[-1].t,
            "; ".join(x.text for x in wh), k=1)
    return Q.items, W
