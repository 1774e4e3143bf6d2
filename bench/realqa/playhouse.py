"""Fresh and untuned (written 2026-11-27, sixth fresh round): "Pim", the
backstage robot of the Alder Street Playhouse in Perth, during the tech
week of "The Lighthouse Keeper's Daughter": Monday 2026-12-07 (technical
rehearsal), Tuesday 12-08 (dress rehearsal), Wednesday 12-09 (first
preview), local time (+08:00).

A history in a shape of its own: times with a "T", CENTISECONDS and a
+08:00 offset ("2026-12-08T19:42:05.37+08:00"; every line falls between
05:00 and 15:00 UTC, so the local and the UTC day agree); actions in the
SHORT string form with DOTTED namespaced names and keyword-style arguments
printed as "key=value" text ("props.preset(item=brass key, spot=SL prop
table)", "house.count(section=stalls, seats=180, occupied=164)"); no
action status: each task is TWO lines, the action line with `goal_status`
"running" and a closing line with the same goal, no action, the final
`goal_status` and, when it failed, a "FAIL: ..." note; the goal an array
whose steps have spaces (`["Dress", "Act 2", "Q31"]`, `["Tech",
"Preshow"]`); the stage manager's headset calls as raw speech (a bare
string, no speaker); speakers named with their job in brackets ("Priya
(SM)", "Dev (props)", "Marcus (director)"), the robot as "Pim"; persons as
plain full names; things seen with one-word string states and TOP-LEVEL
relations in the object form (`{"from", "to", "type"}`); backstage notes
that start with their subject or with a heading ("Interval: ...").  No
robot profile.

The truth is read back from the written lines (`Playhouse`, which parses
the short form and pairs each action line with its closing line), never
from the generator's variables.  The questions are the stage manager's,
the director's and the cast's, written before h2emv was asked them;
nobody tuned on them (docs/realqa.md, "A sixth fresh untuned source pair
(station, playhouse), 2026-11-27").
"""

import datetime as _dt
import json
import random
import re

from common import QuestionSet, Span, day_of, must_contain, one, variants

SEED = 20261207
MON, TUE, WED = "2026-12-07", "2026-12-08", "2026-12-09"
PERTH = _dt.timezone(_dt.timedelta(hours=8))
ROBOT = "Pim"


def local(day, hhmm, cs):
    """Epoch centiseconds of a local (+08:00) wall-clock time."""
    d = _dt.datetime.fromisoformat("%sT%s:00" % (day, hhmm)).replace(
        tzinfo=PERTH)
    return int(d.timestamp()) * 100 + cs


def stamp(cs):
    """Centiseconds since the epoch as '2026-12-08T19:42:05.37+08:00'."""
    s, r = divmod(cs, 100)
    d = _dt.datetime.fromtimestamp(s, PERTH)
    return d.strftime("%Y-%m-%dT%H:%M:%S") + ".%02d+08:00" % r


class Writer:
    def __init__(self, seed=SEED):
        self.rng = random.Random(seed)
        self.lines = []
        self.here = "stage"
        self.clock = 0

    def at(self, day, hhmm):
        cs = local(day, hhmm, self.rng.randint(0, 4000))
        cs = max(cs, self.clock + 300)
        self.clock = cs
        return cs

    def line(self, cs, **f):
        ln = {"t": stamp(cs)}
        ln.update({k: v for k, v in f.items() if v not in (None, [], "")})
        self.lines.append(ln)
        self.clock = max(self.clock, cs)

    def task(self, day, hhmm, short, minutes, where, goal, ok=True,
             fail=None, seen=(), rel=(), persons=(), status=None):
        """The action line, then the closing line `minutes` later."""
        t = self.at(day, hhmm)
        self.line(t, location=where, goal=list(goal), goal_status="running",
                  action=short, persons=list(persons))
        end = t + minutes * 6000 + self.rng.randint(0, 1500)
        self.line(end, location=where, goal=list(goal),
                  goal_status=status or ("succeeded" if ok else "failed"),
                  note=("FAIL: " + fail) if fail else None,
                  objects=[dict(o) for o in seen],
                  relations=[dict(r) for r in rel], persons=list(persons))
        self.here = where

    def say(self, day, hhmm, speaker, text, where=None, persons=()):
        where = where or self.here
        self.line(self.at(day, hhmm), location=where, persons=list(persons),
                  speech={"speaker": speaker, "text": text})
        self.here = where

    def headset(self, day, hhmm, text, where=None):
        where = where or self.here
        self.line(self.at(day, hhmm), location=where, speech=text)
        self.here = where

    def note(self, day, hhmm, text, where=None, persons=()):
        where = where or self.here
        self.line(self.at(day, hhmm), location=where, note=text,
                  persons=list(persons))
        self.here = where

    def write(self, path):
        with open(path, "w", encoding="utf-8") as f:
            for ln in self.lines:
                f.write(json.dumps(ln, ensure_ascii=False) + "\n")
        return len(self.lines)


def seen(i, typ, state=None):
    o = {"id": i, "type": typ}
    if state:
        o["state"] = state
    return o


def rel(a, b, r):
    return {"from": a, "to": b, "type": r}


def generate(seed=SEED):
    w = Writer(seed)
    dev, sam, hannah = "Dev Sharma", "Sam Whitlock", "Hannah Cho"
    marcus, olivia, aisha = "Marcus Bell", "Olivia Grant", "Aisha Khan"
    priya, tom = "Priya Nair", "Tom Reyes"

    # ---- Monday: technical rehearsal -----------------------------------
    d, run = MON, "Tech"
    w.task(d, "12:30", "preset.check(act=1, expected=18, found=18)", 20,
           "stage left wings", [run, "Preshow"])
    w.say(d, "13:40", "Dev (props)", "Pim, the brass key goes on the stage "
          "left prop table from now on, not in the desk drawer.",
          "stage left wings", persons=[dev])
    w.say(d, "13:41", ROBOT, "Understood: the brass key lives on the stage "
          "left prop table.", persons=[dev])
    w.task(d, "14:00", "props.preset(item=brass key, spot=SL prop table)",
           3, "stage left wings", [run, "Preshow"])
    w.task(d, "14:30", "stage.sweep(area=downstage)", 15, "stage",
           [run, "Preshow"])
    w.task(d, "15:10", "fly.check(lineset=12, load=lantern drop)", 10,
           "fly floor", [run, "Flies"], ok=False,
           fail="rope lock slipped, the lantern drop crept down 30 cm")
    w.note(d, "15:40", "Sam Whitlock reset the rope lock on lineset 12 and "
           "added a safety tie.", "fly floor", persons=[sam])
    w.say(d, "16:00", "Marcus (director)", "Pim, we're cutting the "
          "umbrella from act two. Take it off the preset.", "stage",
          persons=[marcus, priya])
    w.say(d, "16:01", ROBOT, "Understood, I'll strike the umbrella from the "
          "act two preset.", persons=[marcus, priya])
    w.task(d, "16:10", "props.strike(item=umbrella, from=SR prop table, "
           "to=prop store)", 6, "prop store", [run, "Preshow"])
    w.task(d, "17:30", "fx.fog_test(machine=fog 1, seconds=20)", 4,
           "stage right wings", [run, "Preshow"])
    w.headset(d, "19:04", "standby fog cue fourteen ... fog cue fourteen "
              "go", "stage right wings")
    w.task(d, "19:05", "fx.trigger(cue=Q14, device=fog 1)", 1,
           "stage right wings", [run, "Act 1", "Q14"])
    w.task(d, "21:00", "fx.trigger(cue=Q31, device=trap door)", 1,
           "under stage", [run, "Act 2", "Q31"])
    w.note(d, "22:30", "Tech rehearsal over; notes session in the green "
           "room with Marcus.", "green room", persons=[marcus, priya])

    # ---- Tuesday: dress rehearsal --------------------------------------
    d, run = TUE, "Dress"
    w.task(d, "12:30", "preset.check(act=1, expected=18, found=17)", 20,
           "stage left wings", [run, "Preshow"], ok=False,
           fail="missing: brass key (not on the SL prop table)")
    w.task(d, "12:55", "props.search(item=brass key)", 12, "green room",
           [run, "Preshow"],
           seen=[seen("brass_key", "brass key", "found"),
                 seen("mug_2", "coffee mug"),
                 seen("script_4", "script", "open")],
           rel=[rel("brass_key", "green room couch", "on"),
                rel("mug_2", "green room couch", "next_to")])
    w.task(d, "13:10", "props.preset(item=brass key, spot=SL prop table)",
           3, "stage left wings", [run, "Preshow"])
    w.say(d, "13:40", "Hannah (wardrobe)", "Pim, could you take Olivia's "
          "grey shawl from wardrobe to dressing room 2?", "wardrobe",
          persons=[hannah])
    w.say(d, "13:41", ROBOT, "Taking the grey shawl to dressing room 2 "
          "now.", persons=[hannah])
    w.task(d, "13:45", "props.deliver(item=grey shawl, from=wardrobe, "
           "to=dressing room 2, for=Olivia Grant)", 5, "dressing room 2",
           [run, "Preshow"], persons=[olivia])
    w.task(d, "17:30", "fx.fog_test(machine=fog 1, seconds=20)", 3,
           "stage right wings", [run, "Preshow"], ok=False,
           fail="fluid low, only 6 seconds of fog")
    w.note(d, "17:50", "Dev Sharma refilled fog 1 with 2 litres of fluid.",
           "stage right wings", persons=[dev])
    w.task(d, "18:00", "fx.fog_test(machine=fog 1, seconds=20)", 3,
           "stage right wings", [run, "Preshow"])
    w.headset(d, "19:06", "standby fog cue fourteen ... fog cue fourteen "
              "go", "stage right wings")
    w.task(d, "19:07", "fx.trigger(cue=Q14, device=fog 1)", 1,
           "stage right wings", [run, "Act 1", "Q14"])
    w.note(d, "19:55", "Interval: Olivia Grant caught the grey shawl on the "
           "ladder and tore the hem; Hannah Cho stitched it backstage.",
           "dressing room 2", persons=[olivia, hannah])
    w.headset(d, "21:04", "standby trap cue thirty one ... trap go",
              "under stage")
    w.task(d, "21:05", "fx.trigger(cue=Q31, device=trap door)", 1,
           "under stage", [run, "Act 2", "Q31"], ok=False,
           fail="trap door latch did not release; Tom Reyes made his "
                "entrance from the wings instead", persons=[tom])
    w.say(d, "21:50", "Marcus (director)", "Pim, the trap was a disaster "
          "tonight. Get it looked at before the preview.", "stage",
          persons=[marcus, priya])
    w.say(d, "21:51", ROBOT, "I'll ask Sam to check the trap latch first "
          "thing tomorrow morning.", persons=[marcus, priya])
    w.task(d, "22:10", "stage.sweep(area=full stage)", 20, "stage",
           [run, "Postshow"],
           seen=[seen("earring_1", "silver earring", "lost"),
                 seen("tape_1", "gaffer tape roll")],
           rel=[rel("earring_1", "downstage right", "on"),
                rel("tape_1", "upstage centre", "on")])
    w.task(d, "22:35", "lostprop.stow(item=silver earring, to=SM lost "
           "property box)", 2, "prompt corner", [run, "Postshow"])

    # ---- Wednesday: first preview --------------------------------------
    d, run = WED, "Preview"
    w.note(d, "10:00", "Sam Whitlock replaced the trap door latch spring "
           "and tested it five times.", "under stage", persons=[sam])
    w.task(d, "10:30", "trap.test(cycles=5, passed=5)", 10, "under stage",
           [run, "Preshow"])
    w.task(d, "12:30", "preset.check(act=1, expected=18, found=18)", 20,
           "stage left wings", [run, "Preshow"])
    w.task(d, "12:55", "preset.check(act=2, expected=11, found=11)", 15,
           "stage right wings", [run, "Preshow"])
    w.say(d, "18:20", "Aisha (FOH)", "Pim, a patron in row F spilled a "
          "glass of red wine in the stalls aisle.", "foyer",
          persons=[aisha])
    w.say(d, "18:21", ROBOT, "On my way with the mop.", persons=[aisha])
    w.task(d, "18:25", "house.mop(spot=stalls aisle, row=F)", 8,
           "auditorium", [run, "House"])
    w.task(d, "18:45", "house.count(section=stalls, seats=180, "
           "occupied=164)", 4, "auditorium", [run, "House"])
    w.task(d, "18:50", "house.count(section=circle, seats=60, "
           "occupied=48)", 3, "auditorium", [run, "House"])
    w.headset(d, "19:05", "standby fog cue fourteen ... fog cue fourteen "
              "go", "stage right wings")
    w.task(d, "19:06", "fx.trigger(cue=Q14, device=fog 1)", 1,
           "stage right wings", [run, "Act 1", "Q14"])
    w.say(d, "20:00", "Olivia Grant", "Pim, has anyone handed in a silver "
          "earring? I lost one last night.", "dressing room 2",
          persons=[olivia])
    w.say(d, "20:01", ROBOT, "Yes, I found a silver earring downstage right "
          "last night. It's in the stage manager's lost property box.",
          persons=[olivia])
    w.task(d, "21:00", "fx.trigger(cue=Q31, device=trap door)", 1,
           "under stage", [run, "Act 2", "Q31"], persons=[tom])
    w.note(d, "21:55", "Preview came down to a standing ovation; Marcus "
           "wants the fog in Q14 slower for opening night.", "stage",
           persons=[marcus, priya])
    w.task(d, "22:15", "stage.sweep(area=full stage)", 25, "stage",
           [run, "Postshow"])
    return w


def write(path, seed=SEED):
    return generate(seed).write(path)


# ---------------------------------------------------------------------------
# The truth, read back from the lines

def ts(s):
    """'2026-12-08T19:42:05.37+08:00' -> epoch seconds."""
    m = re.match(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?"
                 r"([+-]\d\d:\d\d)$", s)
    assert m, s
    frac = (m.group(2) or "0")[:6].ljust(6, "0")
    d = _dt.datetime.fromisoformat("%s.%s%s" % (m.group(1), frac,
                                                m.group(3)))
    return d.timestamp()


def short_form(s):
    """'props.preset(item=brass key, spot=SL prop table)' ->
    ('props.preset', {'item': 'brass key', 'spot': 'SL prop table'})."""
    m = re.match(r"\s*([^(]+?)\s*\((.*)\)\s*$", s)
    assert m, s
    args = {}
    for a in m.group(2).split(","):
        k, v = a.split("=", 1)
        args[k.strip()] = v.strip()
    return m.group(1), args


class Job:
    def __init__(self, start, name, args):
        self.name, self.args = name, args
        self.start = start
        self.end = None
        self.t0 = start["_t"]
        self.t1 = None
        self.status = None

    @property
    def ok(self):
        return self.status == "succeeded"

    @property
    def span(self):
        return Span(self.t0, self.t1, self.name)

    @property
    def fail(self):
        n = self.end.get("note") or ""
        return n[len("FAIL: "):] if n.startswith("FAIL: ") else None

    def num(self, k):
        return int(self.args[k])


class Playhouse:
    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            self.obs = [json.loads(x) for x in f if x.strip()]
        for o in self.obs:
            o["_t"] = ts(o["t"])
        self.jobs, open_ = [], {}
        for o in self.obs:
            g = tuple(o.get("goal") or ())
            if o.get("action"):
                n, a = short_form(o["action"])
                assert g not in open_, g
                open_[g] = Job(o, n, a)
            elif g and o.get("goal_status") in ("succeeded", "failed",
                                                "aborted"):
                j = open_.pop(g)
                j.end, j.t1, j.status = o, o["_t"], o["goal_status"]
                self.jobs.append(j)
        assert not open_, open_
        self.jobs.sort(key=lambda j: j.t0)
        self.notes = [o for o in self.obs if o.get("note") and
                      not o.get("goal")]
        self.speech = []
        for o in self.obs:
            sp = o.get("speech")
            if isinstance(sp, str):
                self.speech.append((o["_t"], None, sp))
            elif sp:
                self.speech.append((o["_t"], sp.get("speaker"), sp["text"]))

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
                if (not speaker or (s or "").startswith(speaker)) and
                (not day or day_of(t) == day) and
                (not contains or contains.lower() in x.lower())]

    def where(self, job, obj_id):
        for r in job.end.get("relations") or []:
            if r["from"] == obj_id:
                return r["to"]
        raise AssertionError(obj_id)


def questions(path):
    H = Playhouse(path)
    Q = QuestionSet("playhouse")
    thu = "2026-12-10T10:00:00+08:00"   # Thursday morning, opening day
    wed = "2026-12-09T23:30:00+08:00"   # Wednesday, after the last line

    # ---- when -----------------------------------------------------------
    e = one(H.find("fx.trigger", ok=False))
    Q.time("when", "When did the trap door jam?", thu, [e.span])
    e = one(H.find("props.search", day=TUE))
    Q.time("when", "What time did you find the brass key on Tuesday?", thu,
           [e.span])
    o = one(H.note("latch spring"))
    Q.time("when", "When did Sam fix the trap latch?", thu,
           [Span(o["_t"], o["_t"], o["note"])])
    e = H.find("stage.sweep")[-1]
    Q.time("when", "When did you last sweep the stage?", thu, [e.span])
    e = one(H.find("fx.fog_test", ok=False))
    Q.time("when", "When did the fog machine run low on fluid?", thu,
           [e.span])
    e = one(H.find("props.deliver"))
    Q.time("when", "What time did you take the shawl to dressing room 2?",
           thu, [e.span])
    t, s, x = one(H.said("Aisha"))
    Q.time("when", "When did Aisha call you about the spill?", thu,
           [Span(t, t, x)])

    # ---- where ----------------------------------------------------------
    e = one(H.find("props.search"))
    Q.words("where", "Where did you find the brass key?", thu,
            [["green room"], ["couch"]], e.t1,
            H.where(e, "brass_key"), none=["prop table"])
    t, s, x = one(H.said("Dev", contains="brass key"))
    Q.words("where", "Where did Dev tell you to keep the brass key?", thu,
            [["prop table"], ["stage left", "sl"]], t, x,
            none=["green room"])
    e = one(H.find("stage.sweep", day=TUE))
    Q.words("where", "Where was the silver earring?", thu,
            [["downstage right"]], e.t1, H.where(e, "earring_1"))
    e = one(H.find("lostprop.stow"))
    Q.words("where", "Where did you put the silver earring?", thu,
            [["lost property"]], e.t1, e.args["to"])
    e = one(H.find("props.strike"))
    Q.words("where", "Where did the umbrella go?", thu,
            [["prop store"]], e.t1, e.args["to"])
    e = one(H.find("house.mop"))
    Q.words("where", "Where was the wine spilled?", thu,
            [["aisle", "row f"]], e.t1,
            "%s, row %s" % (e.args["spot"], e.args["row"]))

    # ---- day ------------------------------------------------------------
    e = one(H.find("fly.check", ok=False))
    Q.day("day", "Which day did the rope lock on lineset 12 slip?", thu,
          [day_of(e.t0)], e.t1)
    e = one(H.find("preset.check", ok=False))
    Q.day("day", "What day was the brass key missing?", thu,
          [day_of(e.t0)], e.t1)
    t, s, x = one(H.said("Marcus", contains="umbrella"))
    Q.day("day", "On which day did Marcus cut the umbrella?", thu,
          [day_of(t)], t)
    o = one(H.note("tore the hem"))
    Q.day("day", "what day did Olivia rip her shawl", thu, [day_of(o["_t"])],
          o["_t"])

    # ---- who ------------------------------------------------------------
    o = one(H.note("refilled fog"))
    Q.words("who", "Who refilled the fog machine?", thu,
            [["dev", "sharma"]], o["_t"], o["note"])
    o = one(H.note("rope lock"))
    Q.words("who", "Who fixed the rope lock on lineset 12?", thu,
            [["sam", "whitlock"]], o["_t"], o["note"])
    o = one(H.note("stitched"))
    Q.words("who", "Who stitched the shawl?", thu, [["hannah", "cho"]],
            o["_t"], o["note"], none=["olivia"])
    t, s, x = one(H.said("Hannah"))
    Q.words("who", "Who asked you to bring the shawl over?", thu,
            [["hannah", "cho", "wardrobe"]], t, s)
    t, s, x = one(H.said("Olivia", contains="earring"))
    Q.words("who", "Who lost an earring?", thu, [["olivia", "grant"]], t, s)
    e = one(H.find("fx.trigger", ok=False))
    Q.words("who", "Who had to come on from the wings when the trap "
            "jammed?", thu, [["tom", "reyes"]], e.t1, e.fail)
    e = one(H.find("props.deliver"))
    Q.words("who", "Who was the grey shawl for?", thu,
            [["olivia", "grant"]], e.t1, e.args["for"], none=["hannah"])

    # ---- say ------------------------------------------------------------
    t, s, x = one(H.said("Dev", contains="brass key"))
    Q.words("say", "What did Dev tell you about the brass key?", thu,
            must_contain(x, ["prop table"]) + [["stage left", "drawer"]],
            t, x)
    t, s, x = one(H.said("Marcus", day=TUE))
    Q.words("say", "What did Marcus say after the dress rehearsal?", thu,
            must_contain(x, ["trap"]) + [["disaster", "looked at",
                                          "preview"]], t, x)
    t, s, x = one(H.said(ROBOT, contains="earring"))
    Q.words("say", "What did you tell Olivia about her earring?", thu,
            [["lost property"]], t, x)
    o = one(H.note("opening night"))
    Q.words("say", "What did the director want changed for opening night?",
            thu, [["fog", "q14"], ["slower"]], o["_t"], o["note"])
    t, s, x = one(H.said(ROBOT, contains="latch"))
    Q.words("say", "What did you promise Marcus about the trap?", thu,
            [["sam"], ["latch", "check"]], t, x)
    t, s, x = one(H.said("Aisha"))
    Q.words("say", "What did Aisha tell you on Wednesday?", thu,
            must_contain(x, ["spilled"]) + [["wine"], ["aisle", "row f"]],
            t, x)
    ts_ = [(t, x) for t, s, x in H.said() if s is None and
           day_of(t) == TUE and "trap" in x]
    t, x = one(ts_)
    Q.words("say", "What did you hear on the headset just before the trap "
            "cue on Tuesday?", thu, [["trap"], ["standby"]], t, x)

    # ---- see ------------------------------------------------------------
    e = one(H.find("stage.sweep", day=TUE))
    things = e.end["objects"]
    Q.words("see", "What did you find on the stage after the dress "
            "rehearsal?", thu, [variants(x["type"], "earring")
                                for x in things], e.t1,
            ", ".join(x["type"] for x in things), k=1,
            others=[["brass key"], ["coffee mug", "mug"]])
    e = one(H.find("props.search"))
    things = e.end["objects"]
    Q.words("see", "What did you see in the green room on Tuesday?", thu,
            [variants(x["type"]) for x in things], e.t1,
            ", ".join(x["type"] for x in things), k=2,
            others=[["earring"], ["gaffer tape"]])

    # ---- which ----------------------------------------------------------
    e = one(H.find("fly.check", ok=False))
    Q.words("which", "Which lineset slipped?", thu,
            [["lineset " + e.args["lineset"]]], e.t1,
            "lineset " + e.args["lineset"])
    e = one(H.find("fx.trigger", ok=False))
    Q.words("which", "Which cue went wrong at the dress rehearsal?", thu,
            [["q31", "q 31", "trap*"]], e.t1, e.args["cue"],
            none=["q14"])
    e = one(H.find("preset.check", ok=False))
    Q.words("which", "Which prop was missing on Tuesday?", thu,
            [["brass key"]], e.t1, e.fail)
    e = one(H.find("props.strike"))
    Q.words("which", "Which prop did Marcus cut from the show?", thu,
            [["umbrella"]], e.t1, e.args["item"])
    js = H.find(day=TUE)
    Q.words("which", "What happened at the dress rehearsal on Tuesday?",
            thu, [["brass key", "key"], ["fog*"], ["trap*"],
                  ["shawl"], ["earring"]], js[-1].t1,
            "; ".join("%s %s" % (j.name, "ok" if j.ok else j.fail)
                      for j in js), k=3)
    e = H.find(day=TUE)[-1]
    Q.words("which", "What was the last thing you did on Tuesday?", thu,
            [["earring", "lost property", "stow*"]], e.t1,
            "%s %s" % (e.name, e.args))

    # ---- count ----------------------------------------------------------
    es = H.find("house.count", day=WED)
    Q.count("count", "How many people were in the audience at the "
            "preview?", thu, sum(j.num("occupied") for j in es), es[-1].t1)
    e = one(H.find("house.count", section="stalls"))
    Q.count("count", "How many seats were taken in the stalls?", thu,
            e.num("occupied"), e.t1)
    e = one(H.find("preset.check", day=TUE))
    Q.count("count", "How many props did you find at the act one check on "
            "Tuesday?", thu, e.num("found"), e.t1)
    es = H.find("fx.trigger", ok=True, device="fog 1")
    Q.count("count", "How many times did you fire the fog cue?", thu,
            len(es), es[-1].t1)
    o = one(H.note("litres"))
    Q.count("count", "How many litres of fog fluid did Dev put in?", thu,
            int(re.search(r"(\d+) litres", o["note"]).group(1)), o["_t"])
    e = one(H.find("trap.test"))
    Q.count("count", "How many times was the trap tested on Wednesday?",
            thu, e.num("cycles"), e.t1)
    e = H.find("stage.sweep")[-1]
    Q.count("count", "How many minutes did the last stage sweep take?",
            wed, int(round((e.t1 - e.t0) / 60.0)), e.t1)

    # ---- yes / no -------------------------------------------------------
    e = one(H.find("fx.trigger", day=WED, cue="Q31"))
    Q.yesno("yesno", "Did the trap door work at the preview?", thu, e.ok,
            e.t1)
    e = one(H.find("props.strike"))
    Q.yesno("yesno", "Did you take the umbrella off the preset?", thu, e.ok,
            e.t1)
    e = H.find("fx.fog_test", day=TUE)[0]
    Q.yesno("yesno", "Did the first fog test on Tuesday pass?", thu, e.ok,
            e.t1)
    back = H.note("earring") + [x for x in H.said(contains="earring")
                                if "gave" in x[2] or "handed back" in x[2]]
    Q.yesno("yesno", "Has Olivia got her earring back?", thu, bool(back),
            H.obs[-1]["_t"])
    e = one(H.find("fly.check"))
    Q.yesno("yesno", "Did lineset 12 pass its check on Monday?", thu, e.ok,
            e.t1)

    # ---- failed ---------------------------------------------------------
    e = one(H.find("fx.trigger", ok=False))
    Q.words("failed", "Why didn't the trap open at the dress rehearsal?",
            thu, [["latch"]], e.t1, e.fail)
    e = one(H.find("fx.fog_test", ok=False))
    Q.words("failed", "What went wrong with the fog machine?", thu,
            [["fluid", "low"]], e.t1, e.fail)
    e = one(H.find("preset.check", ok=False))
    Q.words("failed", "Why did the act one preset check fail on Tuesday?",
            thu, [["brass key", "key", "missing"]], e.t1, e.fail)
    e = one(H.find(day=MON, ok=False))
    Q.words("failed", "Did anything go wrong at the tech rehearsal on "
            "Monday?", thu, [["rope lock", "lineset", "lantern", "slipp*",
                              "crept"]], e.t1, e.fail)
    return Q.items, H


if __name__ == "__main__":
    import sys
    print(write(sys.argv[1] if len(sys.argv) > 1 else "playhouse.jsonl"),
          "observations")
