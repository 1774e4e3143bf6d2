"""TEACh asked by a new user: questions a person would ask the robot about the
seven real TEACh episodes of `teach.py` (Monday 2024-03-04 .. Friday
03-08), in everyday wording, with truth computed from the raw
`interactions` lists by teach.py's own reader (`Teach`).

Written for issue 19 by an engineer who did not read the product code; none
of these questions is in teach.py.  The memory is fed exactly as for the
`teach` source (`h2emv import teach FILE... --start ...`).
"""

import re

from teach import Teach
from common import QuestionSet, day_of, one, variants

SAT = "2024-03-09T10:00:00Z"


def commander(T, ep):
    return [u for u in T.utts if u.ep == ep and u.speaker == "Commander"]


def ep_on(T, date, afternoon=None):
    """The episode started on `date` (in the morning or afternoon)."""
    out = []
    for n, (t0, _) in enumerate(T.eps):
        if day_of(t0) != date:
            continue
        hour = (t0 % 86400) / 3600.0
        if afternoon is None or (hour >= 12) == afternoon:
            out.append(n)
    assert len(out) == 1, (date, afternoon, out)
    return out[0]


def questions(data_dir):
    T = Teach(data_dir)
    Q = QuestionSet("teachuser")
    add_said(T, Q)
    add_where(T, Q)
    add_which(T, Q)
    add_other(T, Q)
    return Q.items, T


def add_said(T, Q):
    ep = ep_on(T, "2024-03-07", afternoon=False)
    cs = commander(T, ep)
    assert any("toast" in u.text for u in cs), [u.text for u in cs]
    Q.words("say", "What did the Commander ask you to make on Thursday "
            "morning?", SAT, [["toast*"]], cs[-1].t,
            " / ".join(u.text for u in cs))

    ep = ep_on(T, "2024-03-08", afternoon=True)
    cs = commander(T, ep)
    assert any("coffee" in u.text for u in cs), [u.text for u in cs]
    Q.words("say", "What did the Commander want on Friday afternoon?", SAT,
            [["coffee"]], cs[0].t, cs[0].text)

    ep = ep_on(T, "2024-03-04", afternoon=True)
    cs = commander(T, ep)
    t = [u for u in cs if "potato" in u.text][0]
    Q.words("say", "What did the Commander ask you to do on Monday "
            "afternoon?", SAT, [["boil*"], ["potato*"]], t.t, t.text)

    m = [u for u in T.utts if u.speaker == "Commander"
         and re.search(r"\btomato is on the (.+)$", u.text)]
    where = re.search(r"\btomato is on the (.+)$", one(m, 0).text).group(1)
    Q.words("where", "Where did the Commander say the tomato was on Monday?",
            SAT, [[where.split()[-1]]], m[0].t, m[0].text)

    m = [u for u in T.utts if u.speaker == "Commander" and "mug" in u.text]
    assert "fridge" in one(m, 0).text, m[0].text
    Q.words("where", "Where did the Commander tell you the mug was?", SAT,
            [["fridge", "refrigerator"]], m[0].t, m[0].text)

    ep = ep_on(T, "2024-03-08", afternoon=True)
    who = sorted({u.speaker for u in T.utts if u.ep == ep
                  and "coffee" in u.text.lower()})
    Q.words("who", "Who asked you to make coffee?", SAT,
            [[w.lower() for w in who]], commander(T, ep)[0].t,
            ", ".join(who))


def add_where(T, Q):
    r = T.find(name="Place", ok=True, held="RemoteControl")
    Q.words("where", "Where did you put the remote control?", SAT,
            [variants(one(r, -1).type, "couch")], r[-1].t, r[-1].type)
    p = T.find(name="Place", ok=True, held="Potato")
    Q.words("where", "Where did the potato end up?", SAT,
            [variants(one(p, -1).type)], p[-1].t, p[-1].type)
    p = T.find(name="Place", ok=True, held="Pot", day="2024-03-04")
    Q.words("where", "Where did you put the pot on Monday in the end?", SAT,
            [variants(one(p, -1).type, "stove", "burner")], p[-1].t,
            p[-1].type)
    sl = one(T.find(name="Slice", ok=True, typ="Bread"), 0)
    k = [a for a in T.find(name="Place", ok=True, held="Knife", ep=sl.ep)
         if a.t > sl.t]
    Q.words("where", "Where did you put the knife after you cut the bread?",
            SAT, [variants(one(k, 0).type, "counter")], k[0].t, k[0].type)
    m = T.find(name="Place", ok=True, held="Mug")
    Q.words("where", "Where did you leave the mug in the end?", SAT,
            [variants(one(m, -1).type, "coffee maker")], m[-1].t,
            m[-1].type)


def add_which(T, Q):
    tue = T.find(name="Pickup", ok=True, day="2024-03-05")
    typs = sorted({a.type for a in tue})
    Q.words("which", "Which things did you pick up on Tuesday?", SAT,
            [variants(t) for t in typs], tue[-1].t, ", ".join(typs))
    sl = T.find(name="Slice", ok=True)
    typs = sorted({a.type for a in sl})
    Q.words("which", "What did you slice this week?", SAT,
            [variants(t) for t in typs], sl[-1].t, ", ".join(typs))
    taken = []
    for o in T.find(name="Open", ok=True, typ="Fridge", day="2024-03-04"):
        cl = [a for a in T.find(name="Close", ok=True, typ="Fridge", ep=o.ep)
              if a.t > o.t]
        t_close = cl[0].t if cl else 1e18
        taken += [a for a in T.find(name="Pickup", ok=True, ep=o.ep)
                  if o.t < a.t < t_close]
    typs = sorted({a.type for a in taken})
    Q.words("which", "What did you take out of the fridge on Monday?", SAT,
            [variants(t) for t in typs], one(taken, -1).t, ", ".join(typs))
    fri = T.find(name="Pickup", ok=True, day="2024-03-08")
    Q.words("which", "What was the first thing you picked up on Friday?",
            SAT, [variants(one(fri, 0).type)], fri[0].t, fri[0].type)
    sl = one(T.find(name="Slice", ok=True, typ="Tomato", day="2024-03-08"), 0)
    nxt = [a for a in T.acts if a.ep == sl.ep and a.t > sl.t and a.ok]
    a = one(nxt, 0)
    assert a.name == "Place", a
    Q.words("which", "What did you do right after you sliced the tomato on "
            "Friday?", SAT, [variants(a.held), variants(a.type, "counter")],
            a.t, "%s %s on %s" % (a.name, a.held, a.type))


def add_other(T, Q):
    ep = ep_on(T, "2024-03-08", afternoon=True)
    on = [a for a in T.find(name="ToggleOn", ep=ep)]
    done = any(a.ok and a.type == "CoffeeMachine" for a in on)
    Q.yesno("yesno", "Did you finish making the coffee?", SAT, done,
            one(on, -1).t)
    k = T.find(name="ToggleOn", ok=True, typ="StoveKnob", day="2024-03-04")
    Q.yesno("yesno", "Did you turn on the stove on Monday?", SAT, bool(k),
            one(k, -1).t)
    th = T.find(name="Open", typ="Fridge", day="2024-03-07")
    last = [a for a in T.acts if day_of(a.t) == "2024-03-07"][-1]
    Q.yesno("yesno", "Did you open the fridge on Thursday?", SAT, bool(th),
            last.t)
    s = T.find(name="Place", ok=True, typ="Sofa")
    Q.count("count", "How many times did you put something on the sofa?",
            SAT, len(s), s[-1].t)
    w = T.find(name="Pickup", ok=True, typ="Watch")
    Q.count("count", "How many times did you pick up the watch?", SAT,
            len(w), w[-1].t)
    t = T.find(name="Place", ok=True, held="BreadSliced", typ="Toaster")
    Q.time("when", "When did you put the bread in the toaster?", SAT,
           [a.span for a in t])
    st = T.find(name="Place", ok=True, held="Watch", typ="SideTable")
    Q.day("day", "Which day did you put the watch on the side table?", SAT,
          [day_of(a.t) for a in st], st[-1].t)
    p = T.find(name="Pour", ok=True)
    Q.words("where", "Where did you pour the water out of the mug?", SAT,
            [variants(one(p, 0).type, "sink")], p[0].t, p[0].type)
