"""Shared pieces of the off-domain histories (warehouse.py, office.py,
lab.py): a small generator that writes a robot's day as observation JSON
Lines (docs/formats.md), and `Log`, which reads such a file back the way a
real robot's log would be read, for the ground truth.

Each history keeps its own vocabulary: skill names, argument keys, status
spelling, goal stacks or none, and the robot's own speaker name.  Nothing
here knows h2emv's verbs or roles.
"""

import json
import random

from common import Span, day_of, parse_time, iso


class World:
    """Writes observations.  `places` maps a place to the things there as
    (id, type) pairs; `people` maps a place to who is usually there."""

    def __init__(self, seed, places, people=None, home="charger",
                 self_name="robot", status_case=str.lower, idle=900,
                 goals=True, short=False, zone=None):
        self.rng = random.Random(seed)
        self.places = places
        self.people = people or {}
        self.lines = []
        self.clock = 0.0
        self.here = home
        self.self_name = self_name
        self.case = status_case
        self.idle = idle
        self.goals = goals
        # short: actions printed as "Name(a, b)" (a planner's log); the
        # status then rides on the goal stack's goal_status
        self.short = short
        self.zone = zone            # "+02:00": times written in local time

    def start_at(self, day, hhmm):
        t = parse_time("%sT%s:00Z" % (day, hhmm)) + self.rng.randint(0, 150)
        t = max(t, self.clock + self.rng.randint(20, 60))
        self.idle_until(t)
        return t

    def idle_until(self, t):
        if not self.clock or not self.idle:
            return
        nxt = self.clock + self.idle
        while nxt < t - 60:
            self.emit(nxt, location=self.here,
                      persons=list(self.people.get(self.here, [])),
                      objects=self.objects_in(self.here))
            hour = (int(nxt) // 3600) % 24
            nxt += self.idle if 6 <= hour < 22 else 4 * self.idle

    def objects_in(self, place):
        return [{"id": i, "type": t} for i, t in self.places.get(place, [])]

    def emit(self, t, **f):
        line = {"t": iso(t)}
        if self.zone:
            sign = 1 if self.zone[0] == "+" else -1
            off = sign * (int(self.zone[1:3]) * 3600 + int(self.zone[4:6]) * 60)
            line["t"] = iso(t + off)[:-1] + self.zone
        a = f.get("action")
        if self.short and isinstance(a, dict):
            vals = list(a["args"].values()) if isinstance(a["args"], dict) \
                else a["args"]
            f["action"] = "%s(%s)" % (a["name"], ", ".join(str(v)
                                                          for v in vals))
            f["goal_status"] = a["status"]
        line.update({k: v for k, v in f.items() if v not in (None, [], "")})
        self.lines.append(line)
        self.clock = max(self.clock, t)

    def talk(self, day, hhmm, place, utterances, persons=()):
        t = self.start_at(day, hhmm)
        self.here = place
        ppl = sorted(set(list(persons) + [w for w, _ in utterances
                                          if w != self.self_name]))
        for i, (who, text) in enumerate(utterances):
            self.emit(t + 7 * i, location=place, persons=ppl,
                      speech=[{"speaker": who, "text": text}])

    def task(self, day, hhmm, skill, args, frm, to, goal=None,
             status="succeeded", minutes=(2, 6), persons=None, say_start=(),
             say_end=(), note=None, seen_end=None, via="aisle"):
        t0 = self.start_at(day, hhmm)
        dur = 60 * self.rng.randint(*minutes) + self.rng.randint(0, 59)
        ppl0 = list(self.people.get(frm, [])) if persons is None else persons
        g = {}
        if goal and self.goals:
            g = {"goal": goal, "goal_status": self.case("running")}
        act = {"name": skill, "args": args, "status": self.case("running")}
        self.emit(t0, action=act, location=frm, objects=self.objects_in(frm),
                  persons=sorted(set(ppl0 + [w for w, _ in say_start
                                             if w != self.self_name])),
                  speech=[{"speaker": w, "text": x} for w, x in say_start],
                  **g)
        step = self.rng.randint(50, 80)
        for tt in range(int(t0) + step, int(t0 + dur) - 20, step):
            self.emit(tt, action=act, location=via if frm != to else frm,
                      persons=[] if frm != to else ppl0, **g)
        end = to if status == "succeeded" else frm
        ppl1 = list(self.people.get(end, [])) if persons is None else persons
        if goal and self.goals:
            g = {"goal": goal, "goal_status": self.case(status)}
        self.emit(t0 + dur, action=dict(act, status=self.case(status)),
                  location=end,
                  objects=self.objects_in(end) if seen_end is None
                  else seen_end,
                  persons=sorted(set(ppl1 + [w for w, _ in say_end
                                             if w != self.self_name])),
                  note=note, **g)
        for i, (w, x) in enumerate(say_end):
            self.emit(t0 + dur + 5 + 6 * i, location=end,
                      persons=sorted(set(ppl1 + [p for p, _ in say_end
                                                 if p != self.self_name])),
                      speech=[{"speaker": w, "text": x}])
        self.here = end

    def write(self, path):
        with open(path, "w", encoding="utf-8") as f:
            for ln in self.lines:
                f.write(json.dumps(ln, ensure_ascii=False) + "\n")
        return len(self.lines)


class Occ:
    """One run of an action, from its first running observation to its
    final status (lower case)."""

    def __init__(self, name, args, first, last):
        self.name, self.args = name, args
        self.t0, self.t1 = first["_t"], last["_t"]
        self.status = last["action"]["status"].lower()
        self.first, self.last = first, last

    @property
    def ok(self):
        return self.status == "succeeded"

    @property
    def span(self):
        return Span(self.t0, self.t1, self.name)

    def __repr__(self):
        return "%s %s %s" % (self.span, self.status, self.args)


class Log:
    """A written history read back: runs of actions, speech, presence."""

    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            self.obs = [json.loads(x) for x in f if x.strip()]
        for o in self.obs:
            o["_t"] = parse_time(o["t"])
        self.occ, self.speech, open_ = [], [], {}
        for o in self.obs:
            a = o.get("action")
            if isinstance(a, str):
                name, _, rest = a.partition("(")
                args = [x.strip() for x in rest.rstrip(")").split(",")
                        if x.strip()]
                a = o["action"] = {"name": name.strip(), "args": args,
                                   "status": o.get("goal_status", "")}
            if a:
                key = (a["name"], json.dumps(a.get("args"), sort_keys=True))
                if a["status"].lower() == "running":
                    open_.setdefault(key, o)
                else:
                    self.occ.append(Occ(a["name"], a.get("args") or {},
                                        open_.pop(key, o), o))
            for u in o.get("speech") or []:
                self.speech.append((o["_t"], u.get("speaker", ""), u["text"]))
        assert not open_, open_

    def find(self, name=None, ok=None, day=None, before=None, after=None,
             **args):
        out = []
        for e in self.occ:
            if name and e.name != name:
                continue
            if ok is not None and e.ok != ok:
                continue
            if day and day_of(e.t0) != day:
                continue
            if before and e.t1 > parse_time(before):
                continue
            if after and e.t0 < parse_time(after):
                continue
            if isinstance(e.args, list):
                if any(v not in e.args for v in args.values()):
                    continue
            elif any(e.args.get(k) != v for k, v in args.items()):
                continue
            out.append(e)
        return out

    def said(self, speaker=None, day=None, contains=None, not_speaker=None):
        out = []
        for t, s, x in self.speech:
            if speaker and s != speaker:
                continue
            if not_speaker and s == not_speaker:
                continue
            if day and day_of(t) != day:
                continue
            if contains and contains.lower() not in x.lower():
                continue
            out.append((t, s, x))
        return out

    def where_at(self, t):
        """The robot's location at the newest observation not after t."""
        loc, when = None, None
        for o in self.obs:
            if o["_t"] > t:
                break
            if o.get("location"):
                loc, when = o["location"], o["_t"]
        return loc, when


def one(xs, i=0):
    assert xs, "no such occurrence"
    return xs[i]


def last_name(n):
    return n.split()[-1]


def days_of(es):
    return sorted({day_of(e.t0) for e in es})
