"""Fresh and untuned (written 2026-11-27, fourth fresh round): "Ada", the
inspection robot of the Harbour View tower building site, Monday 2026-11-02
to Wednesday 2026-11-04, UTC.

A history in a shape of its own: times as date and time with a SPACE and
no zone ("2026-11-02 07:14:05", UTC by the format's rule); actions in the
SHORT string form with camelCase names and positional arguments, units
inside the text ("measureCrack(L1, column C7, 0.6 mm)",
"countDelivery(gate, plasterboard, 120 sheets)"); no action status: the
outcome is the goal's (`goal` an array such as ["DailyWalk", "L5"],
`goal_status` succeeded / failed / aborted) and the reason of a failure or
a finding is the same line's note ("because: ...", "finding: ..."); people
present as {name, id} with badge ids, speakers by full name, and one crane
radio call as raw speech (a bare string, no speaker); objects seen (a
missing guardrail, an unclipped harness, a wedge) with a state; site notes
that start with their subject.  No robot profile.

The truth is read back from the written lines (`Site`, which parses the
short form itself), never from the generator's variables.  The questions
are the site manager's and the engineer's, written before h2emv was asked
them; nobody tuned on them (docs/realqa.md, "A fourth fresh untuned source
pair (vineyard, sitewalk), 2026-11-27").
"""

import datetime as _dt
import json
import random
import re

from common import QuestionSet, Span, day_of, grab, must_contain, one, \
    parse_time, variants

SEED = 20261102
MON, TUE, WED = "2026-11-02", "2026-11-03", "2026-11-04"
ROBOT = "Ada"
MARTA = ("Marta Kowalczyk", "badge-0412")
KARIM = ("Karim Haddad", "badge-0588")
EMIL = ("Emil Brandt", "badge-0731")
SOFIA = ("Sofia Lindqvist", "badge-0090")
UTC = _dt.timezone.utc


def stamp(t):
    return _dt.datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M:%S")


def person(p):
    return {"name": p[0], "id": p[1]}


class Writer:
    def __init__(self, seed=SEED):
        self.rng = random.Random(seed)
        self.lines = []
        self.clock = 0
        self.here = "site container"

    def at(self, day, hhmm):
        t = int(parse_time("%sT%s:00Z" % (day, hhmm))) + \
            self.rng.randint(0, 40)
        t = max(t, self.clock + 5)
        # a position line every 20 minutes while the robot waits, the same
        # day only
        s = self.clock + 1200
        while self.clock and s < t - 120 and day_of(s) == day_of(self.clock):
            self.line(s, location=self.here)
            s += 1200
        return t

    def line(self, t, **f):
        ln = {"t": stamp(t)}
        ln.update({k: v for k, v in f.items() if v not in (None, [], "")})
        self.lines.append(ln)
        self.clock = max(self.clock, t)

    def step(self, day, hhmm, goal, action, where, status="succeeded",
             note=None, persons=(), seen=()):
        """One step: the action in short form, the goal and its outcome."""
        self.line(self.at(day, hhmm), location=where, action=action,
                  goal=list(goal), goal_status=status, note=note,
                  persons=[person(p) for p in persons],
                  objects=[dict(o) for o in seen])
        self.here = where

    def say(self, day, hhmm, who, text, where=None, persons=()):
        where = where or self.here
        speaker = who[0] if isinstance(who, tuple) else who
        ps = [person(p) for p in persons]
        if isinstance(who, tuple) and person(who) not in ps:
            ps.insert(0, person(who))
        self.line(self.at(day, hhmm), location=where, persons=ps,
                  speech={"speaker": speaker, "text": text})
        self.here = where

    def radio(self, day, hhmm, text, where):
        self.line(self.at(day, hhmm), location=where, speech=text)
        self.here = where

    def note(self, day, hhmm, text, where=None, persons=()):
        where = where or self.here
        self.line(self.at(day, hhmm), location=where, note=text,
                  persons=[person(p) for p in persons])
        self.here = where

    def write(self, path):
        with open(path, "w", encoding="utf-8") as f:
            for ln in self.lines:
                f.write(json.dumps(ln, ensure_ascii=False) + "\n")
        return len(self.lines)


def generate(seed=SEED):
    w = Writer(seed)

    def walk(day, hhmm, level, route, status="succeeded", note=None,
             persons=(), seen=()):
        w.step(day, hhmm, ["DailyWalk", level],
               "walkRoute(%s, %s)" % (level, route),
               "%s %s" % (level, route), status, note, persons, seen)

    def crack(day, hhmm, column, mm):
        w.step(day, hhmm, ["StructureWatch", "L1"],
               "measureCrack(L1, column %s, %s mm)" % (column, mm),
               "L1 column %s" % column)

    def photo(day, hhmm, column, n):
        w.step(day, hhmm, ["StructureWatch", "L1"],
               "photograph(L1, column %s, %d photos)" % (column, n),
               "L1 column %s" % column)

    def delivery(day, hhmm, what, qty):
        w.step(day, hhmm, ["GateLog"], "countDelivery(gate, %s, %s)" %
               (what, qty), "site gate")

    def dock(day, hhmm):
        w.step(day, hhmm, ["Recharge"], "dock(charger container)",
               "site container")

    # ----- Monday --------------------------------------------------------
    d = MON
    w.note(d, "06:55", "Site open; 14 workers signed in; wind 35 km/h, crane "
                       "on standby.", "site gate")
    walk(d, "07:10", "L1", "full loop")
    w.step(d, "07:40", ["DailyWalk", "L2"],
           "checkGuardrail(L2, south edge)", "L2 south edge",
           note="finding: 2 m of guardrail missing between grid 4 and 5",
           seen=[{"id": "guardrail_L2S_4", "type": "guardrail",
                  "state": "missing"}])
    w.step(d, "08:05", ["DailyWalk", "L2"],
           "reportHazard(L2, 'missing guardrail, south edge', "
           "Marta Kowalczyk)", "L2 south edge", persons=[MARTA])
    w.say(d, "08:10", MARTA, "Nobody goes on the L2 south edge until the "
          "rail is back. I'll call the scaffolders.")
    w.note(d, "09:30", "Guardrail on the L2 south edge refitted by Emil "
                       "Brandt's scaffolding crew.", "L2 south edge", [EMIL])
    crack(d, "10:00", "C4", "0.3")
    crack(d, "10:30", "C7", "0.6")
    w.say(d, "11:00", SOFIA, "0.6 mm on C7 is above our 0.4 mm limit; I "
          "want photos of it every day this week.", "L1 column C7")
    photo(d, "11:05", "C7", 8)
    w.step(d, "13:00", ["PourCheck", "L4"],
           "checkRebar(L4, slab bay 3, 150 mm spacing)", "L4 slab bay 3",
           note="finding: bay 3 ready for pour")
    w.step(d, "13:40", ["PourCheck", "L4"],
           "checkRebar(L4, slab bay 4, 210 mm spacing)", "L4 slab bay 4",
           note="finding: spacing 210 mm, drawing says 150 mm; bay 4 not "
                "ready for pour")
    dock(d, "14:30")

    # ----- Tuesday -------------------------------------------------------
    d = TUE
    w.note(d, "06:50", "Site open; 17 workers signed in; dry, wind 10 km/h.",
           "site gate")
    walk(d, "07:05", "L5", "full loop", "failed",
         "because: stair door to L5 locked, no key holder on site")
    walk(d, "07:30", "L3", "full loop", persons=[KARIM],
         note="finding: worker on the L3 formwork with harness not clipped",
         seen=[{"id": "harness_1", "type": "harness", "state": "unclipped"}])
    w.say(d, "07:35", ROBOT, "Karim, please clip your harness to the "
          "lifeline.", "L3 full loop", [KARIM])
    w.say(d, "07:36", KARIM, "Sorry, clipping on now.", "L3 full loop")
    w.step(d, "08:00", ["DailyWalk", "L3"],
           "reportHazard(L3, 'harness not clipped', Marta Kowalczyk)",
           "L3 full loop", persons=[MARTA])
    w.radio(d, "08:45", "crane two lifting steel over zone C, keep clear "
                        "for twenty minutes", "zone C")
    photo(d, "09:10", "C7", 8)
    crack(d, "09:15", "C7", "0.7")
    w.say(d, "10:00", EMIL, "Ada, the rebar in bay 4 has been re-spaced, can "
          "you check it again?", "L4 slab bay 4")
    w.step(d, "10:20", ["PourCheck", "L4"],
           "checkRebar(L4, slab bay 4, 150 mm spacing)", "L4 slab bay 4",
           note="finding: bay 4 ready for pour")
    delivery(d, "11:00", "plasterboard", "120 sheets")
    delivery(d, "11:20", "cement", "40 bags")
    w.note(d, "13:00", "Concrete pour on the L4 slab done by the Beton Nord "
                       "crew, 38 m3.", "L4 slab bay 4")
    dock(d, "14:30")

    # ----- Wednesday -----------------------------------------------------
    d = WED
    w.note(d, "06:50", "Site open; 15 workers signed in; fog until 08:00.",
           "site gate")
    walk(d, "07:10", "L5", "full loop", persons=[MARTA],
         note="finding: none; stair door key from Marta Kowalczyk")
    walk(d, "07:40", "L6", "roof", "failed",
         "because: lidar blinded by fog at the roof edge")
    photo(d, "08:30", "C7", 8)
    crack(d, "08:35", "C7", "0.7")
    w.say(d, "09:00", SOFIA, "The crack in C7 has stopped growing; we will "
          "inject it with epoxy on Friday.", "L1 column C7")
    w.step(d, "10:00", ["FireSafety", "L2"],
           "checkFireDoor(L2, stair B)", "L2 stair B",
           note="finding: door closes and latches")
    w.step(d, "10:15", ["FireSafety", "L3"],
           "checkFireDoor(L3, stair B)", "L3 stair B", "failed",
           note="because: door propped open with a wooden wedge",
           seen=[{"id": "wedge_1", "type": "wedge", "state": "under door"}])
    w.say(d, "10:20", ROBOT, "Marta, the stair B fire door on L3 is wedged "
          "open.", "L3 stair B", [MARTA])
    w.say(d, "10:21", MARTA, "Thanks, I'll have Karim take the wedge out.",
          "L3 stair B")
    delivery(d, "11:00", "windows", "24 units")
    walk(d, "11:30", "L6", "roof")
    w.note(d, "13:00", "Karim Haddad left site at 12:40 without signing out.",
           "site gate")
    dock(d, "14:00")
    return w


def write(path, seed=SEED):
    return generate(seed).write(path)


# ---------------------------------------------------------------------------
# The truth, read back from the lines

def short_form(s):
    """'measureCrack(L1, column C7, 0.6 mm)' -> ('measureCrack', [...]),
    quotes removed, commas inside quotes kept."""
    m = re.match(r"\s*([^(]+?)\s*\((.*)\)\s*$", s)
    if not m:
        return s.strip(), []
    args = re.findall(r"\s*('[^']*'|[^,]+)\s*(?:,|$)", m.group(2))
    return m.group(1), [a.strip().strip("'") for a in args]


class Step:
    def __init__(self, o):
        self.line = o
        self.name, self.args = short_form(o["action"])
        self.goal = o.get("goal") or []
        self.status = o.get("goal_status", "")
        self.ok = self.status == "succeeded"
        self.t0 = self.t1 = o["_t"]
        n = o.get("note", "")
        self.reason = n[len("because: "):] if n.startswith("because: ") \
            else ""
        self.finding = n[len("finding: "):] if n.startswith("finding: ") \
            else ""

    @property
    def span(self):
        return Span(self.t0, self.t1, self.name)


class Site:
    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            self.obs = [json.loads(x) for x in f if x.strip()]
        for o in self.obs:
            o["_t"] = parse_time(o["t"])
        self.steps_ = [Step(o) for o in self.obs if o.get("action")]
        self.notes = [o for o in self.obs if o.get("note") and
                      not o.get("action")]
        self.speech = []
        for o in self.obs:
            sp = o.get("speech")
            if isinstance(sp, str):
                self.speech.append((o["_t"], None, sp))
            elif sp:
                self.speech.append((o["_t"], sp.get("speaker"), sp["text"]))

    def steps(self, name=None, ok=None, day=None, arg=None):
        return [s for s in self.steps_
                if (not name or s.name == name) and
                (ok is None or s.ok == ok) and
                (not day or day_of(s.t0) == day) and
                (not arg or arg in s.args)]

    def note(self, contains, day=None):
        return [o for o in self.notes if contains.lower() in
                o["note"].lower() and (not day or day_of(o["_t"]) == day)]

    def said(self, speaker=None, contains=None, day=None):
        return [(t, s, x) for t, s, x in self.speech
                if (not speaker or s == speaker) and
                (not day or day_of(t) == day) and
                (not contains or contains.lower() in x.lower())]


def names(who):
    return [who, who.split()[0], who.split()[-1]]


def level(lv):
    return [lv.lower(), "level " + lv[1:]]


def written(step):
    """The step's own written names (its action, its goal's steps): the
    spellings that name the job that failed ("DailyWalk", "daily walk")."""
    out = []
    for n in [step.name] + list(step.goal):
        out += variants(n)
    return out


def number(text):
    return int(grab(r"(\d+)", text))


def questions(path):
    H = Site(path)
    Q = QuestionSet("sitewalk")
    thu = "2026-11-05 06:45:00"      # Thursday, before the site opens

    # ---- when -----------------------------------------------------------
    e = one(H.steps("checkGuardrail"))
    Q.time("when", "When did you find the missing guardrail?", thu,
           [e.span])
    t, s, x = one(H.said(contains="every day"))
    Q.time("when", "When did the engineer ask for daily photos of the "
           "crack?", thu, [Span(t, t, x)])
    e = H.steps("measureCrack", arg="column C7")[-1]
    Q.time("when", "When did you last measure the crack in C7?", thu,
           [e.span])
    t, s, x = one(H.said(contains="crane"))
    Q.time("when", "When was the crane lifting over zone C?", thu,
           [Span(t, t, x)])

    # ---- where ----------------------------------------------------------
    e = one(H.steps("checkGuardrail"))
    Q.words("where", "Where was the guardrail missing?", thu,
            [level(e.args[0]) + ["second floor"], ["south edge", "south"]],
            e.t1, e.line["location"])
    o = one([o for o in H.obs if any(b["type"] == "harness"
                                     for b in o.get("objects") or [])])
    Q.words("where", "Where did you see the worker without his harness "
            "clipped?", thu, [level(grab(r"^(L\d)", o["location"])) +
                              ["formwork"]], o["_t"], o["location"])
    o = one([o for o in H.obs if any(b["type"] == "wedge"
                                     for b in o.get("objects") or [])])
    Q.words("where", "Where was the fire door wedged open?", thu,
            [level(grab(r"^(L\d)", o["location"]))], o["_t"],
            o["location"])
    es = H.steps("measureCrack")
    top = max(es, key=lambda s: float(s.args[2].split()[0]))
    Q.words("where", "Where is the widest crack?", thu,
            [[top.args[1], top.args[1].split()[-1]]], es[-1].t1,
            "%s (%s)" % (top.args[1], top.args[2]))

    # ---- day ------------------------------------------------------------
    o = one(H.note("Concrete pour"))
    Q.day("day", "What day was the L4 slab poured?", thu, [day_of(o["_t"])],
          o["_t"])
    e = one(H.steps("walkRoute", ok=False, arg="L5"))
    Q.day("day", "Which day couldn't you get into level 5?", thu,
          [day_of(e.t0)], e.t1)
    o = one(H.note("fog"))
    Q.day("day", "Which morning was foggy?", thu, [day_of(o["_t"])], o["_t"])

    # ---- who ------------------------------------------------------------
    o = one(H.note("Guardrail on"))
    who = grab(r"refitted by (\w+ \w+)", o["note"])
    Q.words("who", "Who put the guardrail back?", thu, [names(who)],
            o["_t"], who)
    e = one([s for s in H.steps() if "harness" in s.finding])
    who = one(e.line["persons"])["name"]
    Q.words("who", "Who wasn't clipped on?", thu, [names(who)], e.t1, who)
    t, s, x = one(H.said(contains="check it again"))
    Q.words("who", "Who asked you to recheck bay 4?", thu, [names(s)], t, s)
    o = one(H.note("without signing out"))
    who = grab(r"^(\w+ \w+) left", o["note"])
    Q.words("who", "Who left the site without signing out?", thu,
            [names(who)], o["_t"], who)
    e = one([s for s in H.steps() if "key from" in s.finding])
    who = grab(r"key from (\w+ \w+)", e.finding)
    Q.words("who", "Who gave you the key for level 5?", thu, [names(who)],
            e.t1, who)
    o = one(H.note("Concrete pour"))
    who = grab(r"by the ([\w ]+?) crew", o["note"])
    Q.words("who", "Who poured the L4 slab?", thu, [[who]], o["_t"], who)

    # ---- say ------------------------------------------------------------
    t, s, x = one(H.said(speaker=MARTA[0], contains="south edge"))
    Q.words("say", "What did the site manager say about the south edge?",
            thu, [["nobody", "until the rail"], ["scaffolders"]], t, x, k=1)
    t, s, x = H.said(speaker=SOFIA[0], day=WED)[-1]
    Q.words("say", "What did the structural engineer say yesterday?", thu,
            must_contain(x, ["epoxy"]) + [["stopped growing", "friday"]],
            t, x)
    t, s, x = one(H.said(speaker=ROBOT, contains="harness"))
    Q.words("say", "What did you tell Karim?", thu,
            must_contain(x, ["clip", "harness"]), t, x)
    t, s, x = one(H.said(contains="crane"))
    Q.words("say", "What came over the radio about the crane?", thu,
            must_contain(x, ["steel"]) + [["zone c", "keep clear"]], t, x)
    t, s, x = one(H.said(speaker=MARTA[0], contains="wedge"))
    Q.words("say", "What did Marta say about the wedge?", thu,
            must_contain(x, ["Karim"]) + [["take the wedge out", "out"]], t,
            x)

    # ---- which ----------------------------------------------------------
    es = H.steps("measureCrack")
    cols = sorted({s.args[1] for s in es})
    Q.words("which", "Which columns did you measure cracks on?", thu,
            [[c, c.split()[-1]] for c in cols], es[-1].t1, ", ".join(cols))
    es = H.steps("walkRoute", ok=True, day=TUE)
    lv = sorted({s.args[0] for s in es})
    Q.words("which", "Which levels did you walk on Tuesday?", thu,
            [level(x) for x in lv], es[-1].t1, ", ".join(lv))
    es = [s for s in H.steps("checkRebar", day=MON) if "not ready" in
          s.finding]
    e = one(es)
    Q.words("which", "Which slab bay wasn't ready for the pour on Monday?",
            thu, [[e.args[1], e.args[1].split()[-1]]], e.t1, e.args[1])
    es = H.steps("countDelivery", day=TUE)
    Q.words("which", "What was delivered on Tuesday?", thu,
            [[s.args[1]] for s in es], es[-1].t1,
            ", ".join("%s (%s)" % (s.args[1], s.args[2]) for s in es))
    es = [s for s in H.steps(day=TUE) if s.status == "failed"]
    e = es[0]
    Q.words("which", "What was the first thing that failed on Tuesday?",
            thu, [level(e.args[0]) + ["walk*", "route"] + written(e)], e.t1,
            "%s %s: %s" % (e.name, " ".join(e.args), e.reason))

    # ---- count ----------------------------------------------------------
    o = one(H.note("signed in", day=TUE))
    Q.count("count", "How many workers were on site on Tuesday?", thu,
            number(grab(r"(\d+) workers", o["note"])), o["_t"])
    es = H.steps("photograph", arg="column C7")
    n = sum(number(s.args[2]) for s in es)
    Q.count("count", "How many photos of column C7 have you taken in "
            "total?", thu, n, es[-1].t1,
            "%d (%s)" % (n, " + ".join(s.args[2] for s in es)))
    es = H.steps("reportHazard")
    Q.count("count", "How many hazards did you report?", thu, len(es),
            es[-1].t1)
    e = one(H.steps("measureCrack", arg="column C7", day=MON))
    Q.words("count", "How wide was the crack on C7 on Monday?", thu,
            [[e.args[2]]], e.t1, e.args[2])
    o = one(H.note("Concrete pour"))
    m3 = number(grab(r"(\d+) m3", o["note"]))
    Q.count("count", "How many cubic metres of concrete went into the L4 "
            "slab?", thu, m3, o["_t"])
    e = one([s for s in H.steps("countDelivery") if "plasterboard" in
             s.args])
    Q.count("count", "How many sheets of plasterboard came in?", thu,
            number(e.args[2]), e.t1)
    es = H.steps("measureCrack", arg="column C7")
    Q.count("count", "How many times did you measure the crack in column "
            "C7?", thu, len(es), es[-1].t1)
    es = H.steps("walkRoute", ok=False)
    Q.count("count", "How many of your walks failed?", thu, len(es),
            es[-1].t1)

    # ---- yes / no -------------------------------------------------------
    es = H.steps("walkRoute", ok=True, arg="roof")
    Q.yesno("yesno", "Did you get onto the roof in the end?", thu, bool(es),
            es[-1].t1 if es else None)
    es = H.steps("checkRebar", arg="slab bay 4")
    Q.yesno("yesno", "Is the rebar in bay 4 ready now?", thu,
            "not ready" not in es[-1].finding, es[-1].t1)
    o = one(H.note("signing out"))
    Q.yesno("yesno", "Did Karim sign out when he left?", thu,
            "without signing out" not in o["note"], o["_t"])
    es = H.steps("walkRoute", ok=True, arg="L5", day=TUE)
    Q.yesno("yesno", "Did you walk level 5 on Tuesday?", thu, bool(es),
            None)

    # ---- failed ---------------------------------------------------------
    e = one(H.steps("walkRoute", ok=False, arg="L5"))
    Q.words("failed", "Why couldn't you inspect level 5 on Tuesday?", thu,
            [["locked", "key"]], e.t1, e.reason)
    e = one(H.steps("walkRoute", ok=False, arg="roof"))
    Q.words("failed", "Why did the roof walk fail?", thu,
            [["fog"], ["lidar"]], e.t1, e.reason, k=1)
    # asked on Wednesday after the robot's last line: the bench keeps a
    # snapshot every 200 lines, so a question asked in the middle of this
    # short history would find none (the first run asked it at 08:00, when
    # only the roof walk had failed); both of the morning's failures count
    end = H.obs[-1]["_t"] + 1800
    assert day_of(end) == WED
    es = [s for s in H.steps(day=WED) if s.status == "failed" and
          s.t0 < parse_time(WED + "T12:00:00Z")]
    Q.words("failed", "What went wrong this morning?", stamp(end),
            [["roof", "l6", "level 6", "fog", "lidar", "fire door",
              "wedge*", "propped"] + sum((written(x) for x in es), [])],
            es[-1].t1,
            "; ".join("%s %s: %s" % (x.name, " ".join(x.args), x.reason)
                      for x in es))
    e = one(H.steps("checkGuardrail"))
    Q.words("failed", "What problem did you find on level 2?", thu,
            [["guardrail", "rail"]], e.t1, e.finding)
    e = one(H.steps("checkFireDoor", ok=False))
    Q.words("failed", "Why did the fire door check fail?", thu,
            [["wedge*", "propped"]], e.t1, e.reason)
    return Q.items, H


if __name__ == "__main__":
    import sys
    print(write(sys.argv[1] if len(sys.argv) > 1 else "sitewalk.jsonl"),
          "observations")
