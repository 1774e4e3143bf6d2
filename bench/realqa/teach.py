"""TEACh (real EDH instances, CDLA-Sharing-1.0): seven episodes over one week,
with ground truth from the raw `interactions` lists.

The memory is fed with the product importer, one `--start` per file, so the
dates are ours:  `h2emv import teach FILE... --start 'YYYY-MM-DD HH:MM:SS' ...`.
The importer's documented time base is "episode start + time_start - the first
step's time_start", where the steps are the Driver's actions (motion, object
interaction, text) and the Commander's utterances; progress checks (500-502)
and the Commander's camera moves are not steps.  The truth uses the same
definition, computed here from the raw file.

Raw model used here: an interaction {agent_id (0 Commander, 1 Driver),
action_id, time_start, success, oid, utterance / corrected_utterance}.  Object
interactions are 200 Pickup, 201 Place (oid = the receptacle; the object
placed is the one held since the last successful Pickup), 202 Open, 203 Close,
204 ToggleOn, 205 ToggleOff, 206 Slice, 211 Pour.
"""

import json
import os
import re

from common import QuestionSet, Span, day_of, parse_time, variants

BASE = "teach-edh-emma"

# (file, start): Monday 2024-03-04 .. Friday 2024-03-08.
EPISODES = [
    ("train/1ad6faa0ffe15318_36af.edh1.json", "2024-03-04 09:00:00"),
    ("valid_unseen/0ad91909295bf186_134b.edh0.json", "2024-03-04 14:30:00"),
    ("valid_seen/7f8000bdc9a6df46_e4c4.edh2.json", "2024-03-05 10:15:00"),
    ("valid_seen/3a45b72592fe5714_365c.edh2.json", "2024-03-07 08:40:00"),
    ("valid_unseen/1a8b00c643110183_ebc6.edh2.json", "2024-03-07 17:05:00"),
    ("valid_unseen/1e8fb21f2b41b0b0_bc36.edh1.json", "2024-03-08 09:20:00"),
    ("train/0e137379e033a29e_5b37.edh0.json", "2024-03-08 13:45:00"),
]

NAMES = {200: "Pickup", 201: "Place", 202: "Open", 203: "Close",
         204: "ToggleOn", 205: "ToggleOff", 206: "Slice", 207: "Dirty",
         208: "Clean", 209: "Fill", 210: "Empty", 211: "Pour", 212: "Break"}
MOTION = set(range(0, 14)) | {300}


def files(data_dir):
    return [os.path.join(data_dir, BASE, f) for f, _ in EPISODES]


def import_args(data_dir):
    """The arguments of `h2emv import teach` for this set."""
    args = []
    for f, start in EPISODES:
        args.append(os.path.join(data_dir, BASE, f))
    for f, start in EPISODES:
        args += ["--start", start]
    return args


def is_step(i):
    if i["agent_id"] == 1:
        a = i["action_id"]
        return a in MOTION or a in NAMES or a in (100, 101)
    return i["action_id"] == 100


def obj_type(oid):
    """'Potato|-01.95|+00.59|+02.67' -> 'Potato';
    'Sink|-01.99|+01.14|-00.98|SinkBasin' -> 'SinkBasin';
    'Bread|...|BreadSliced_3' -> 'BreadSliced'."""
    if not oid:
        return None
    parts = oid.split("|")
    last = parts[-1]
    if len(parts) > 1 and not re.match(r"^[-+]?\d", last):
        return re.sub(r"_\d+$", "", last)
    return parts[0]


class Act:
    def __init__(self, ep, t, name, oid, ok, held):
        self.ep, self.t, self.name, self.ok = ep, t, name, ok
        self.oid, self.type, self.held = oid, obj_type(oid), held

    @property
    def span(self):
        return Span(self.t, self.t, "%s %s" % (self.name, self.type))

    def __repr__(self):
        return "%s ok=%s held=%s" % (self.span, self.ok, self.held)


class Utt:
    def __init__(self, ep, t, speaker, text):
        self.ep, self.t, self.speaker, self.text = ep, t, speaker, text


class Teach:
    def __init__(self, data_dir):
        self.acts, self.utts, self.eps = [], [], []
        for n, (path, start) in enumerate(EPISODES):
            with open(os.path.join(data_dir, BASE, path), encoding="utf-8") as f:
                d = json.load(f)
            steps = [i for i in d["interactions"] if is_step(i)]
            base = steps[0]["time_start"]
            t_start = parse_time(start.replace(" ", "T") + "Z")
            held = None
            for i in steps:
                t = t_start + i["time_start"] - base
                a = i["action_id"]
                if a == 100:
                    text = i.get("corrected_utterance") or i.get("utterance") or ""
                    self.utts.append(Utt(n, t, "Commander" if i["agent_id"] == 0
                                         else "Driver", text))
                elif a in NAMES and i["agent_id"] == 1:
                    act = Act(n, t, NAMES[a], i.get("oid"), bool(i["success"]),
                              held if a == 201 else None)
                    self.acts.append(act)
                    if act.ok and a == 200:
                        held = act.type
                    elif act.ok and a == 201:
                        held = None
            self.eps.append((t_start, t_start + steps[-1]["time_start"] - base))

    def find(self, name=None, ok=None, typ=None, held=None, day=None,
             ep=None):
        out = []
        for a in self.acts:
            if name and a.name != name:
                continue
            if ok is not None and a.ok != ok:
                continue
            if typ and a.type != typ:
                continue
            if held and a.held != held:
                continue
            if day and day_of(a.t) != day:
                continue
            if ep is not None and a.ep != ep:
                continue
            out.append(a)
        return out


def questions(data_dir):
    T = Teach(data_dir)
    Q = QuestionSet("teach")
    end = max(e for _, e in T.eps)
    sat = "2024-03-09T10:00:00Z"
    fri_eve = "2024-03-08T18:00:00Z"

    # ---- where --------------------------------------------------------
    w = T.find(name="Place", ok=True, held="Watch")
    Q.words("where", "Where did you put the watch in the end?", fri_eve,
            [variants(w[-1].type)], w[-1].t, w[-1].type,
            none=["sofa", "couch"])
    c = T.find(name="Place", ok=True, held="CreditCard", day="2024-03-05")
    dests = sorted({a.type for a in c})
    assert len(dests) == 1, dests
    Q.words("where", "Where did you leave the credit card on Tuesday?", fri_eve,
            [variants(dests[0], "couch")], c[-1].t, dests[0])
    b = T.find(name="Place", ok=True, held="BaseballBat")
    Q.words("where", "Where did you set down the baseball bat?", sat,
            [variants(b[-1].type)], b[-1].t, b[-1].type)
    s = T.find(name="Place", ok=True, held="BreadSliced")
    Q.words("where", "Where did you put the slice of bread to toast it?", sat,
            [variants(s[0].type)], s[0].t, s[0].type)

    # ---- which --------------------------------------------------------
    sl = T.find(name="Slice", ok=True, day="2024-03-04")
    typs = sorted({a.type for a in sl})
    Q.words("which", "What did you cut with the knife on Monday?", fri_eve,
            [variants(t) for t in typs], sl[-1].t, ", ".join(typs))
    # taken out of the fridge: picked up between opening and closing it
    taken = []
    for o in T.find(name="Open", ok=True, typ="Fridge", day="2024-03-08"):
        cl = [a for a in T.find(name="Close", ok=True, typ="Fridge", ep=o.ep)
              if a.t > o.t]
        t_close = cl[0].t if cl else 1e18
        taken += [a for a in T.find(name="Pickup", ok=True, ep=o.ep)
                  if o.t < a.t < t_close]
    typs = sorted({a.type for a in taken})
    Q.words("which", "What did you take out of the fridge on Friday afternoon?",
            sat, [variants(t) for t in typs], taken[-1].t, ", ".join(typs))

    # ---- when ---------------------------------------------------------
    s = T.find(name="Slice", ok=True, typ="Lettuce")
    Q.time("when", "When did you slice the lettuce?", sat, [a.span for a in s])
    o = T.find(name="Open", ok=True, typ="Fridge")
    Q.time("when", "When did you open the fridge for the first time?", sat,
           [o[0].span])
    k = T.find(name="ToggleOn", ok=True, typ="StoveKnob")
    Q.time("when", "When did you last switch on the stove?", fri_eve,
           [k[-1].span])

    # ---- count --------------------------------------------------------
    p = T.find(name="Pickup", ok=True, typ="Pot", day="2024-03-04")
    Q.count("count", "How many times did you pick up the pot on Monday?",
            fri_eve, len(p), p[-1].t)
    f = T.find(name="ToggleOff", ok=True, typ="Faucet", day="2024-03-08")
    Q.count("count", "How many times did you turn the faucet off on Friday?",
            sat, len(f), f[-1].t)

    # ---- day ----------------------------------------------------------
    t = T.find(name="Place", ok=True, held="BreadSliced", typ="Toaster")
    Q.day("day", "On which day did you make toast?", sat, [day_of(t[0].t)],
          t[0].t)
    p = T.find(name="Place", ok=True, held="Potato", typ="Pot")
    Q.day("day", "What day did you put a potato in the pot to boil it?", sat,
          [day_of(p[0].t)], p[0].t)

    # ---- say / who ----------------------------------------------------
    mon = [u for u in T.utts if u.ep == 0 and u.speaker == "Commander"]
    Q.words("say", "What did the Commander ask you to do on Monday morning?",
            fri_eve, [["slice*", "cut*"], ["tomato*"]], mon[-1].t,
            " / ".join(u.text for u in mon))
    assert any("slice tomato" in u.text for u in mon)
    tue = [u for u in T.utts if day_of(u.t) == "2024-03-05"
           and u.speaker == "Driver"]
    Q.words("say", "What was the first thing you said on Tuesday?", fri_eve,
            [["what should i do", "what should i do today"]], tue[0].t,
            tue[0].text)
    assert "what should i do" in tue[0].text.lower()
    kn = [u for u in T.utts if "knife is in the fridge" in u.text.lower()]
    spk = sorted({u.speaker for u in kn})
    Q.words("who", "Who told you that the knife was in the fridge?", sat,
            [[s.lower() for s in spk]], kn[0].t, ", ".join(spk))

    # ---- failed -------------------------------------------------------
    cof = [a for a in T.acts if a.ep == 6 and not a.ok]
    names = sorted({a.name for a in cof})
    assert names == ["Close", "ToggleOn"], names
    Q.words("failed", "What went wrong while you were making coffee on Friday?",
            sat, [["clos*", "toggl*", "turn* on", "switch* on", "start*"]],
            cof[-1].t, ", ".join(names) + " (no object)")

    # ---- yes / no -----------------------------------------------------
    t = T.find(name="Place", ok=True, held="BreadSliced", typ="Toaster")
    Q.yesno("yesno", "Did you put bread in the toaster this week?", sat,
            bool(t), t[0].t)
    sp = T.find(name="Slice", ok=True, typ="Potato")
    Q.yesno("yesno", "Did you slice a potato this week?", sat, bool(sp), end)
    return Q.items, T
