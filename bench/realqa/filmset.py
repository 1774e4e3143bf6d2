"""Fresh and untuned (written 2026-11-28, tenth fresh round): "DOLLY-2",
the grip and props robot on the set of the feature film "Low Tide" at
Stage 4 of a Burnaby film studio, shoot days 23 to 25, Thursday 2026-11-19
to Saturday 2026-11-21, Pacific time (-08:00).

A history in a shape of its own: `t` with a "T", WHOLE seconds and a
-08:00 offset ("2026-11-19T07:02:41-08:00"; every line falls between 06:00
and 15:59 local, so the local and the UTC day agree); each job is TWO
lines with no `t_end`: a start line whose status is "in progress" and an
end line stamped when the job ended whose status is one of the other
words robots log ("done", "error", "cancelled"), both carrying the same
args; skill names NAMESPACED BY DEPARTMENT WITH A COLON
(`grip:lay_track`, `props:fetch`, `props:reset`, `camera:push_in`,
`continuity:photo`, `elec:run_cable`, `craft:coffee_run`,
`safety:clear_set`, `grip:wrap_out`); args with SLATE abbreviations (`sc`,
`tk`, `setup`) and lengths, volumes and counts as numbers with the unit in
the key (`track_ft`, `cups`, `cable_m`), a failure's reason in a `why`
key on the end line; the goal an array of the shoot day and the scene
(`["Day 23", "Sc 42A"]`); one utterance a line, speakers by their CREW
ROLE ("1st AD", "DP", "Key Grip", "Script", "Props"), the director by
first name ("Maya") and cast by their first name, the robot as "DOLLY-2";
persons as `{name, id}` with the department as the id ("Jules Okoye" /
"props"); the script supervisor's notes in set shorthand ("SC 42A TK 3
PRINT - boom dipped in at the end") and other notes that start with a
heading ("SAFETY: ...", "WRAP: ..."); props seen as objects with a state
object and TOP-LEVEL relations in the ARRAY form (`["mug_hero", "kitchen
table", "on"]`).  No robot profile.

The truth is read back from the written lines (`Set`), never from the
generator's variables.  The questions are the 1st AD's, the props
master's, the producer's and a cast member's, written before h2emv was
asked them; nobody tuned on them (docs/realqa.md, "A tenth fresh untuned
source pair (filmset, carwash), 2026-11-28").
"""

import datetime as _dt
import json
import random
import re

from common import QuestionSet, Span, day_of, must_contain, one, \
    parse_time, variants

SEED = 20261119
THU, FRI, SAT = "2026-11-19", "2026-11-20", "2026-11-21"
PST = _dt.timezone(_dt.timedelta(hours=-8))
MAYA = {"name": "Maya Lindqvist", "id": "director"}
RAFI = {"name": "Rafi Brennan", "id": "1st AD"}
JULES = {"name": "Jules Okoye", "id": "props"}
TOMAS = {"name": "Tomas Reyes", "id": "grip"}
NORA = {"name": "Nora Kell", "id": "cast"}
BEN = {"name": "Ben Adair", "id": "cast"}
HANNA = {"name": "Hanna Cho", "id": "script"}
DEV = {"name": "Dev Malhotra", "id": "camera"}


def stamp(t):
    return _dt.datetime.fromtimestamp(t, PST).strftime(
        "%Y-%m-%dT%H:%M:%S-08:00")


class Writer:
    def __init__(self, seed=SEED):
        self.rng = random.Random(seed)
        self.lines = []
        self.here = "Stage 4"

    def at(self, day, hhmm):
        return int(parse_time("%sT%s:00-08:00" % (day, hhmm))) + \
            self.rng.randint(0, 50)

    def line(self, t, **f):
        ln = {"t": stamp(t)}
        ln.update({k: v for k, v in f.items() if v not in (None, [], "")})
        self.lines.append((t, len(self.lines), ln))

    def job(self, day, hhmm, name, args, minutes, status="done", where=None,
            goal=None, persons=(), why=None, seen=(), rel=(), note=None):
        where = where or self.here
        t = self.at(day, hhmm)
        self.line(t, location=where, goal=goal, persons=list(persons),
                  action={"name": name, "args": args,
                          "status": "in progress"})
        end = t + int(minutes * 60) + self.rng.randint(0, 40)
        fin = dict(args)
        if why:
            fin["why"] = why
        self.line(end, location=where, goal=goal, persons=list(persons),
                  action={"name": name, "args": fin, "status": status},
                  objects=list(seen), relations=list(rel), note=note)
        self.here = where

    def say(self, day, hhmm, speaker, text, where=None, persons=()):
        where = where or self.here
        self.line(self.at(day, hhmm), location=where, persons=list(persons),
                  speech={"speaker": speaker, "text": text})

    def note(self, day, hhmm, text, where=None, persons=(), seen=(),
             rel=()):
        where = where or self.here
        self.line(self.at(day, hhmm), location=where, note=text,
                  persons=list(persons), objects=list(seen),
                  relations=list(rel))

    def write(self, path):
        with open(path, "w", encoding="utf-8") as f:
            for t, i, ln in sorted(self.lines, key=lambda x: (x[0], x[1])):
                f.write(json.dumps(ln, ensure_ascii=False) + "\n")
        return len(self.lines)


def generate(seed=SEED):
    w = Writer(seed)
    # ---- Thursday, day 23 -----------------------------------------------
    d, day = THU, "Day 23"
    w.note(d, "06:05", "CALL: crew call 06:30, shooting call 07:30, "
           "scenes 42A and 42B (Mara's kitchen), 17 (pier, night-for-day).",
           "production office")
    w.job(d, "06:40", "grip:lay_track", {"track_ft": 24, "setup": "A",
                                         "sc": "42A", "level": "shimmed"},
          22, where="Stage 4 kitchen set", goal=[day, "Sc 42A"],
          persons=[TOMAS])
    w.job(d, "07:05", "props:fetch", {"what": "hero mug", "from":
                                      "props truck", "for": "Nora Kell"},
          8, where="props truck", goal=[day, "Sc 42A"], persons=[JULES])
    w.job(d, "07:20", "props:reset", {"sc": "42A", "items": 6}, 7,
          where="Stage 4 kitchen set", goal=[day, "Sc 42A"],
          seen=[{"id": "mug_hero", "type": "mug",
                 "state": {"coffee": "half full", "handle": "left"}},
                {"id": "letter_1", "type": "letter",
                 "state": {"folded": True}}],
          rel=[["mug_hero", "kitchen table", "on"],
               ["letter_1", "bread bin", "under"]])
    w.say(d, "07:31", "1st AD", "Rolling on 42A. Dolly, stay clear of the "
          "eyeline behind camera left.", "Stage 4 kitchen set",
          persons=[RAFI])
    w.job(d, "07:32", "camera:push_in", {"sc": "42A", "tk": 1, "setup": "A",
                                         "track_ft": 18, "speed": "slow"},
          2, goal=[day, "Sc 42A"], persons=[DEV, NORA])
    w.job(d, "07:40", "camera:push_in", {"sc": "42A", "tk": 2, "setup": "A",
                                         "track_ft": 18, "speed": "slow"},
          1, status="error", goal=[day, "Sc 42A"], persons=[DEV, NORA],
          why="a wheel bumped a track joint and the shot juddered")
    w.say(d, "07:44", "DP", "Dolly, that bump ruined take two. Get Tomas "
          "to re-shim the joint at eight feet.", persons=[DEV])
    w.job(d, "07:46", "grip:shim_track", {"at_ft": 8, "wedges": 2}, 6,
          persons=[TOMAS], goal=[day, "Sc 42A"])
    w.job(d, "07:55", "camera:push_in", {"sc": "42A", "tk": 3, "setup": "A",
                                         "track_ft": 18, "speed": "slow"},
          2, goal=[day, "Sc 42A"], persons=[DEV, NORA])
    w.note(d, "08:00", "SC 42A TK 3 PRINT - boom dipped into frame at the "
           "end, director happy anyway. TK 1 NG (Nora's line), TK 2 NG "
           "(dolly bump).", persons=[HANNA])
    w.say(d, "08:10", "Nora", "Dolly, can someone warm up the coffee in my "
          "mug? It's been stone cold since take one.", persons=[NORA])
    w.say(d, "08:11", "DOLLY-2", "Props says the coffee is only for "
          "continuity; I'll bring you a fresh hot one from crafty instead.",
          persons=[NORA])
    w.job(d, "08:20", "craft:coffee_run", {"cups": 4, "for": ["Nora Kell",
                                                               "Dev Malhotra",
                                                               "Maya",
                                                               "Rafi"],
                                           "from": "craft services tent"},
          12, where="craft services tent")
    w.job(d, "09:30", "elec:run_cable", {"cable_m": 30, "from": "genny 2",
                                         "to": "pier set", "amps": 63}, 25,
          where="Stage 4 pier set", goal=[day, "Sc 17"])
    w.job(d, "11:00", "safety:clear_set", {"sc": "17", "reason": "water "
                                           "tank fill"}, 5,
          where="Stage 4 pier set", goal=[day, "Sc 17"])
    w.note(d, "11:20", "SAFETY: water in the pier tank is 1.2 m deep; "
           "safety diver Kim on standby, nobody on the pier edge without a "
           "vest.", "Stage 4 pier set")
    w.job(d, "13:30", "camera:push_in", {"sc": "17", "tk": 1, "setup": "C",
                                         "track_ft": 12, "speed": "medium"},
          3, goal=[day, "Sc 17"], persons=[DEV, BEN],
          where="Stage 4 pier set")
    w.job(d, "14:00", "props:fetch", {"what": "rope coil", "from":
                                      "props cage", "for": "Ben Adair"}, 10,
          status="cancelled", goal=[day, "Sc 17"], where="props cage",
          why="1st AD cut the rope beat from scene 17")
    w.job(d, "15:30", "grip:wrap_out", {"track_ft": 24, "to": "grip truck"},
          20, where="Stage 4 loading door")
    w.note(d, "15:52", "WRAP: day 23 wrapped at 15:50, 42A and 17 done, 42B "
           "moved to tomorrow.", "Stage 4 loading door")

    # ---- Friday, day 24 -------------------------------------------------
    d, day = FRI, "Day 24"
    w.job(d, "06:45", "props:reset", {"sc": "42B", "items": 6}, 9,
          where="Stage 4 kitchen set", goal=[day, "Sc 42B"],
          seen=[{"id": "mug_hero", "type": "mug",
                 "state": {"coffee": "empty", "handle": "right"}}],
          rel=[["mug_hero", "sink", "in"]],
          note="reset from the day 23 continuity photos")
    w.say(d, "06:58", "Script", "Dolly, the hero mug was half full with the "
          "handle to the left at the end of 42A. Match that.",
          "Stage 4 kitchen set", persons=[HANNA])
    w.job(d, "07:00", "continuity:photo", {"sc": "42B", "shots": 5,
                                           "of": "kitchen table"}, 4,
          goal=[day, "Sc 42B"], persons=[HANNA],
          seen=[{"id": "mug_hero", "type": "mug",
                 "state": {"coffee": "half full", "handle": "left"}}],
          rel=[["mug_hero", "kitchen table", "on"]])
    w.job(d, "07:40", "camera:push_in", {"sc": "42B", "tk": 1, "setup": "B",
                                         "track_ft": 20, "speed": "slow"},
          2, goal=[day, "Sc 42B"], persons=[DEV, NORA, BEN])
    w.job(d, "07:50", "camera:push_in", {"sc": "42B", "tk": 2, "setup": "B",
                                         "track_ft": 20, "speed": "slow"},
          2, goal=[day, "Sc 42B"], persons=[DEV, NORA, BEN])
    w.note(d, "08:00", "SC 42B TK 2 PRINT, TK 1 NG (plane overhead). "
           "Moving on to the insert of the letter.", persons=[HANNA])
    w.say(d, "08:40", "Maya", "I want one more angle on the letter, a low "
          "slider move from the floor. Dolly, can you do two feet?",
          persons=[MAYA])
    w.say(d, "08:41", "DOLLY-2", "Yes. I can do a two-foot slide at ten "
          "centimetres off the floor on the short track.", persons=[MAYA])
    w.job(d, "08:50", "camera:slide", {"sc": "42B", "tk": 1, "setup": "D",
                                       "track_ft": 2, "height_cm": 10}, 3,
          goal=[day, "Sc 42B"], persons=[DEV])
    w.job(d, "10:15", "props:fetch", {"what": "umbrella", "from":
                                      "props truck", "for": "Ben Adair",
                                      "qty": 3}, 9, where="props truck",
          goal=[day, "Sc 31"], persons=[JULES])
    w.say(d, "10:30", "Props", "Dolly, only two of the three umbrellas are "
          "rain-ready; the black one has a snapped rib. Take it back to the "
          "truck.", "Stage 4 street set", persons=[JULES])
    w.job(d, "11:00", "grip:lay_track", {"track_ft": 40, "setup": "E",
                                         "sc": "31", "level": "on ramps"},
          35, status="error", where="Stage 4 street set",
          goal=[day, "Sc 31"], persons=[TOMAS],
          why="the street set floor is cobbled; the ramps rocked past 30 "
              "feet")
    w.job(d, "12:00", "grip:lay_track", {"track_ft": 30, "setup": "E",
                                         "sc": "31", "level": "on plywood"},
          25, where="Stage 4 street set", goal=[day, "Sc 31"],
          persons=[TOMAS])
    w.say(d, "12:40", "1st AD", "Lunch is called for 13:00, half an hour. "
          "We're back on 31 at 13:30 with rain.", "Stage 4 street set",
          persons=[RAFI])
    w.job(d, "13:35", "camera:push_in", {"sc": "31", "tk": 1, "setup": "E",
                                         "track_ft": 30, "speed": "fast"},
          2, goal=[day, "Sc 31"], persons=[DEV, BEN],
          where="Stage 4 street set")
    w.job(d, "13:45", "camera:push_in", {"sc": "31", "tk": 2, "setup": "E",
                                         "track_ft": 30, "speed": "fast"},
          2, goal=[day, "Sc 31"], persons=[DEV, BEN])
    w.job(d, "13:55", "camera:push_in", {"sc": "31", "tk": 3, "setup": "E",
                                         "track_ft": 30, "speed": "fast"},
          2, goal=[day, "Sc 31"], persons=[DEV, BEN])
    w.note(d, "14:05", "SC 31 TK 3 PRINT. TK 2 NG - Ben slipped on the wet "
           "cobbles, not hurt. Rain towers off at 14:10.", persons=[HANNA])
    w.say(d, "14:20", "Ben", "Dolly, tell wardrobe my left shoe split on "
          "the cobbles, I need a second pair for tomorrow.", persons=[BEN])
    w.say(d, "14:22", "DOLLY-2", "I told wardrobe: a second pair of the "
          "brown boots, size 44, will be in your trailer by 06:30.",
          persons=[BEN])
    w.job(d, "15:20", "grip:wrap_out", {"track_ft": 30, "to": "grip truck"},
          18, where="Stage 4 loading door")

    # ---- Saturday, day 25 -----------------------------------------------
    d, day = SAT, "Day 25"
    w.note(d, "06:10", "CALL: crew call 06:30, shooting call 07:15, scene 50 "
           "(Mara's car), visitor from the studio at noon.",
           "production office")
    w.job(d, "06:40", "grip:rig_car", {"car": "1971 Volvo 142",
                                       "mount": "hood mount",
                                       "straps": 4}, 30,
          where="Stage 4 car process", goal=[day, "Sc 50"],
          persons=[TOMAS])
    w.job(d, "07:20", "safety:check_rig", {"straps": 4, "torque_nm": 25},
          5, goal=[day, "Sc 50"], persons=[TOMAS, RAFI])
    w.job(d, "07:30", "camera:track_car", {"sc": "50", "tk": 1,
                                           "setup": "F", "track_ft": 16},
          3, goal=[day, "Sc 50"], persons=[DEV, NORA])
    w.job(d, "07:45", "camera:track_car", {"sc": "50", "tk": 2,
                                           "setup": "F", "track_ft": 16},
          3, status="cancelled", goal=[day, "Sc 50"], persons=[DEV, NORA],
          why="the process light flickered; the gaffer called a hold")
    w.say(d, "07:50", "Gaffer", "Ballast on the process light is going. "
          "Ten minutes to swap it.", persons=[DEV])
    w.job(d, "08:05", "camera:track_car", {"sc": "50", "tk": 3,
                                           "setup": "F", "track_ft": 16},
          3, goal=[day, "Sc 50"], persons=[DEV, NORA])
    w.note(d, "08:15", "SC 50 TK 3 PRINT, TK 1 hold for sound. Nora wants "
           "to try one without the scarf.", persons=[HANNA])
    w.job(d, "09:00", "props:fetch", {"what": "cooler box", "from":
                                      "props cage", "for": "Nora Kell",
                                      "qty": 1}, 6, where="props cage",
          goal=[day, "Sc 50"])
    w.job(d, "10:00", "continuity:photo", {"sc": "50", "shots": 8,
                                           "of": "car interior"}, 6,
          goal=[day, "Sc 50"], where="Stage 4 car process",
          seen=[{"id": "scarf_1", "type": "scarf",
                 "state": {"colour": "red", "worn": False}},
                {"id": "map_1", "type": "road map",
                 "state": {"folded": True}}],
          rel=[["scarf_1", "passenger seat", "on"],
               ["map_1", "glovebox", "in"]])
    w.say(d, "12:05", "1st AD", "Dolly, the studio's VP Gail Stroud is "
          "visiting. Walk her to video village and keep her off the car.",
          "Stage 4 car process", persons=[RAFI])
    w.job(d, "12:07", "guide", {"who": "Gail Stroud", "from": "stage door",
                                "to": "video village"}, 4,
          where="video village", persons=[{"name": "Gail Stroud",
                                           "id": "studio"}])
    w.say(d, "12:20", "Gail", "How far behind are you today?",
          persons=[{"name": "Gail Stroud", "id": "studio"}])
    w.say(d, "12:21", "DOLLY-2", "We are about forty minutes behind: ten "
          "for the light swap and half an hour on the car rig.",
          persons=[{"name": "Gail Stroud", "id": "studio"}])
    w.job(d, "14:00", "grip:derig_car", {"car": "1971 Volvo 142",
                                         "straps": 4}, 20,
          where="Stage 4 car process", persons=[TOMAS])
    w.job(d, "14:40", "grip:wrap_out", {"track_ft": 16, "to": "grip truck"},
          12, where="Stage 4 loading door")
    w.note(d, "15:05", "WRAP: day 25 wrapped 15:00. Tomorrow dark. "
           "Monday: scenes 51-53 on location at Steveston.",
           "Stage 4 loading door")
    return w


def write(path, seed=SEED):
    return generate(seed).write(path)


# ---------------------------------------------------------------------------
# The truth, read back from the lines

class Job:
    """A start line ("in progress") and the end line after it of the same
    skill."""

    def __init__(self, start, end):
        a = end["action"]
        self.name, self.status = a["name"], a["status"]
        self.args = a.get("args") or {}
        self.t0, self.t1 = start["_t"], end["_t"]
        self.start, self.line = start, end

    @property
    def ok(self):
        return self.status == "done"

    @property
    def span(self):
        return Span(self.t0, self.t1, self.name)

    @property
    def minutes(self):
        return (self.t1 - self.t0) / 60.0


class Set:
    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            self.obs = [json.loads(x) for x in f if x.strip()]
        for o in self.obs:
            o["_t"] = parse_time(o["t"])
        self.jobs = []
        open_ = {}
        for o in self.obs:
            a = o.get("action")
            if not a:
                continue
            if a["status"] == "in progress":
                open_[a["name"]] = o
            else:
                self.jobs.append(Job(open_.pop(a["name"]), o))
        assert not open_, open_
        self.notes = [o for o in self.obs if o.get("note")]
        self.speech = [(o["_t"], o["speech"]["speaker"],
                        o["speech"]["text"])
                       for o in self.obs if o.get("speech")]

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
                if (not speaker or s == speaker) and
                (not day or day_of(t) == day) and
                (not contains or contains.lower() in x.lower())]

    def seen(self, day=None):
        return [(o["_t"], x, o) for o in self.obs
                for x in o.get("objects", [])
                if not day or day_of(o["_t"]) == day]

    def where_is(self, oid, day=None):
        """(t, place, relation) of every top-level relation of `oid`."""
        return [(o["_t"], r[1], r[2]) for o in self.obs
                for r in o.get("relations", [])
                if r[0] == oid and (not day or day_of(o["_t"]) == day)]


def questions(path):
    H = Set(path)
    Q = QuestionSet("filmset")
    sat = "2026-11-21 23:40:00"        # Saturday 15:40 in Burnaby
    last = H.obs[-1]["_t"]

    # ---- when -----------------------------------------------------------
    e = one(H.find("camera:push_in", sc="42A", tk=3))
    Q.time("when", "When did we get the printed take of 42A?", sat,
           [e.span])
    e = one(H.find("guide"))
    Q.time("when", "What time did the studio VP arrive on set?", sat,
           [e.span], "%s (walked from the %s)" % (e.args["who"],
                                                  e.args["from"]))
    e = H.find("grip:lay_track")[-1]
    Q.time("when", "When was the last time you laid dolly track?", sat,
           [e.span])
    e = H.find("grip:lay_track")[0]
    Q.time("when", "When did you lay the first track of the week?", sat,
           [e.span])
    o = one(H.note("WRAP", day=THU))
    t = parse_time(THU + "T" + grab_hhmm(o["note"]) + ":00-08:00")
    Q.time("when", "What time did we wrap on Thursday?", sat,
           [Span(t - 60, o["_t"])], o["note"])
    e = one(H.find("safety:check_rig"))
    Q.time("when", "When was the car rig safety-checked?", sat, [e.span])

    # ---- where ----------------------------------------------------------
    e = one(H.find("props:fetch", what="hero mug"))
    Q.words("where", "Where did the hero mug come from?", sat,
            [variants(e.args["from"])], e.t1, e.args["from"],
            none=["props cage"])
    r = H.where_is("map_1")
    Q.words("where", "Where was the road map in the car?", sat,
            [[r[-1][1]]], r[-1][0], "%s the %s" % (r[-1][2], r[-1][1]))
    e = one(H.find("elec:run_cable"))
    Q.words("where", "Where did you run the 63 amp cable from?", sat,
            [variants(e.args["from"], "generator 2")], e.t1,
            e.args["from"], none=["pier set"])
    e = one(H.find("guide"))
    Q.words("where", "Where did you take Gail Stroud?", sat,
            [variants(e.args["to"])], e.t1, e.args["to"],
            none=["stage door"])
    o2 = one(H.note("Steveston"))
    Q.words("where", "Where are we shooting on Monday?", sat,
            [["steveston"]], o2["_t"], o2["note"])
    r = H.where_is("mug_hero", day=THU)
    Q.words("where", "Where was the hero mug at the end of 42A?", sat,
            [variants(r[-1][1])], r[-1][0], "%s the %s" % (r[-1][2],
                                                           r[-1][1]),
            none=["sink"])

    # ---- day ------------------------------------------------------------
    e = one(H.find("elec:run_cable"))
    Q.day("day", "Which day did you cable the pier set?", sat,
          [day_of(e.t0)], e.t1)
    e = one(H.find("camera:slide"))
    Q.day("day", "On what day did we do the low slider shot of the "
          "letter?", sat, [day_of(e.t0)], e.t1)
    e = one(H.find("props:fetch", what="umbrella"))
    Q.day("day", "What day were the umbrellas brought to set?", sat,
          [day_of(e.t0)], e.t1)

    # ---- who ------------------------------------------------------------
    e = one(H.find("grip:shim_track"))
    Q.words("who", "Who re-shimmed the track joint?", sat,
            [["tomas", "reyes"]], e.t1,
            ", ".join(p["name"] for p in e.line["persons"]),
            none=["dev"])
    t, s, x = one(H.said(contains="bump ruined"))
    Q.words("who", "Who complained about the dolly bump?", sat,
            [["dp", "dev", "malhotra", "director of photography"]], t, s)
    e = one(H.find("props:fetch", what="cooler box"))
    Q.words("who", "Who was the cooler box for?", sat,
            [["nora", "kell"]], e.t1, e.args["for"])
    o = one(H.note("diver"))
    Q.words("who", "Who was the safety diver at the pier tank?", sat,
            [["kim"]], o["_t"], o["note"])
    t, s, x = one(H.said(contains="low slider"))
    Q.words("who", "Who asked for the extra angle on the letter?", sat,
            [["maya", "lindqvist", "director"]], t, s, none=["hanna"])
    t, s, x = one(H.said(contains="Ballast"))
    Q.words("who", "Who called the hold on Saturday morning?", sat,
            [["gaffer"]], t, s)

    # ---- say ------------------------------------------------------------
    t, s, x = one(H.said("Nora"))
    Q.words("say", "What did Nora ask for on Thursday?", sat,
            must_contain(x, ["coffee"]) + [["warm", "cold"]], t, x)
    t, s, x = one(H.said("DOLLY-2", contains="behind"))
    Q.words("say", "What did you tell the studio VP about the schedule?",
            sat, [["forty minutes", "40 minutes", "forty", "40"]], t, x)
    t, s, x = one(H.said("DOLLY-2", contains="wardrobe"))
    Q.words("say", "What did you tell Ben about his shoes?", sat,
            [["second pair", "brown boots", "boots"], ["06:30", "6:30",
                                                       "trailer"]], t, x,
            k=1)
    t, s, x = one(H.said("Script"))
    Q.words("say", "What did the script supervisor say about the mug?",
            sat, must_contain(x, ["half full"]) + [["left"]], t, x)
    t, s, x = one(H.said("Props"))
    Q.words("say", "What did Jules tell you about the umbrellas?", sat,
            [["snapped rib", "rib", "black one", "two of the three"]], t, x)
    t, s, x = one(H.said("1st AD", contains="Lunch"))
    Q.words("say", "What did the AD announce before lunch on Friday?", sat,
            [["13:00", "1:00", "lunch"], ["13:30", "1:30", "rain"]], t, x,
            k=1)

    # ---- see ------------------------------------------------------------
    seen = H.seen(day=SAT)
    Q.words("see", "What did you see in the car when you took the "
            "continuity photos?", sat,
            [[x["type"], x["id"].split("_")[0]] for t, x, o in seen],
            max(t for t, x, o in seen),
            ", ".join(x["type"] for t, x, o in seen), k=1,
            others=[["mug"], ["letter"]])
    t, x, o = [(t, x, o) for t, x, o in H.seen(day=FRI)
               if x["id"] == "mug_hero"][0]
    Q.words("see", "What state was the hero mug in when you got in on "
            "Friday morning?", sat, [["empty"], ["sink", "right"]], t,
            "%s, handle %s, in the sink" % (x["state"]["coffee"],
                                            x["state"]["handle"]), k=1,
            none=["half full"])

    # ---- which ----------------------------------------------------------
    e = one(H.find("camera:push_in", sc="42B", ok=True, tk=2))
    o = one(H.note("SC 42B"))
    Q.words("which", "Which take of 42B did we print?", sat,
            [["take 2", "tk 2", "take two", "tk2"]], o["_t"], o["note"],
            none=["take 1", "tk 1"])
    e = one(H.find("grip:rig_car"))
    Q.words("which", "Which car did you rig for scene 50?", sat,
            [["volvo"]], e.t1, e.args["car"])
    e = one(H.find("grip:rig_car"))
    Q.words("which", "What kind of mount went on the car?", sat,
            [["hood mount", "hood"]], e.t1, e.args["mount"])
    e = one(H.find("grip:lay_track", ok=True, sc="31"))
    Q.words("which", "What did you level the street track on in the end?",
            sat, [["plywood"]], e.t1, e.args["level"], none=["ramps"])
    o = one(H.note("SC 31"))
    Q.words("failed", "Why was take 2 of scene 31 no good?", sat,
            [["slipped", "slip*"], ["ben"]], o["_t"], o["note"], k=1)

    # ---- count ----------------------------------------------------------
    e = one(H.find("craft:coffee_run"))
    Q.count("count", "How many coffees did you bring back from crafty?",
            sat, e.args["cups"], e.t1)
    es = H.find("camera:push_in", day=FRI)
    Q.count("count", "How many push-ins did you do on Friday?", sat,
            len(es), es[-1].t1)
    es = H.find("grip:wrap_out")
    Q.words("count", "How many feet of track did you wrap out in total "
            "this week?", sat,
            [[str(sum(j.args["track_ft"] for j in es))]], es[-1].t1,
            "%d ft" % sum(j.args["track_ft"] for j in es))
    e = one(H.find("elec:run_cable"))
    Q.words("count", "How long was the cable run to the pier, in metres?",
            sat, [[str(e.args["cable_m"])]], e.t1,
            "%d m" % e.args["cable_m"])
    e = one(H.find("camera:slide"))
    Q.words("count", "How high off the floor was the slider?", sat,
            [["%d cm" % e.args["height_cm"], "%d centimet*" %
              e.args["height_cm"], str(e.args["height_cm"])]], e.t1,
            "%d cm" % e.args["height_cm"])
    e = one(H.find("safety:check_rig"))
    Q.count("count", "What torque were the rig straps set to?", sat,
            e.args["torque_nm"], e.t1, "%d Nm" % e.args["torque_nm"])
    o = one(H.note("SAFETY"))
    Q.words("count", "How deep was the water in the pier tank?", sat,
            [["1.2"]], o["_t"], o["note"])
    e = one(H.find("grip:rig_car"))
    Q.count("count", "How long did it take to rig the Volvo, in minutes?",
            sat, int(round(e.minutes)), e.t1,
            "%.1f min" % e.minutes)

    # ---- yes / no -------------------------------------------------------
    e = one(H.find("props:fetch", what="rope coil"))
    Q.yesno("yesno", "Did the rope coil ever make it to set?", sat, e.ok,
            e.t1)
    Q.yesno("yesno", "Did we shoot 42B on Thursday?", sat,
            bool(H.find("camera:push_in", sc="42B", day=THU)), last)
    Q.yesno("yesno", "Was the Volvo still rigged when we wrapped "
            "Saturday?", sat, not H.find("grip:derig_car", day=SAT), last)
    t, s, x = one(H.said("DOLLY-2", contains="coffee"))
    Q.yesno("yesno", "Did you warm up Nora's mug coffee?", sat, False, t, x)

    # ---- failed ---------------------------------------------------------
    e = one(H.find("camera:push_in", ok=False))
    Q.words("failed", "What went wrong on take 2 of 42A?", sat,
            [["bump*", "judder*", "joint"]], e.t1, e.args["why"])
    e = one(H.find("grip:lay_track", ok=False))
    Q.words("failed", "Why didn't the first street track work?", sat,
            [["cobble*", "ramps", "rock*"]], e.t1, e.args["why"])
    e = one(H.find("camera:track_car", ok=False))
    Q.words("failed", "Why was take 2 of scene 50 stopped?", sat,
            [["flicker*", "process light", "hold", "ballast"]], e.t1,
            e.args["why"])
    e = one(H.find("props:fetch", what="rope coil"))
    Q.words("failed", "Why didn't Ben get his rope?", sat,
            [["cut", "rope beat"]], e.t1, e.args["why"])
    es = [j for j in H.jobs if day_of(j.t0) == FRI and not j.ok]
    Q.words("failed", "What went wrong on Friday?", sat,
            [["cobble*", "ramps", "track", "rock*"]], es[-1].t1,
            "; ".join("%s: %s" % (j.name, j.args.get("why")) for j in es))

    # ---- questions nobody else asks -------------------------------------
    t, s, x = one(H.said("DOLLY-2", contains="behind"))
    Q.words("count", "How many minutes behind were we on Saturday?", sat,
            [["forty", "40"]], t, x)
    o = one(H.note("CALL", day=SAT))
    Q.words("when", "What was the shooting call on Saturday?", sat,
            [["07:15", "7:15"]], o["_t"], o["note"])
    t, s, x = one(H.said("Props"))
    Q.words("count", "How many of the umbrellas were usable?", sat,
            [["two", "2"]], t, x)
    return Q.items, H


def grab_hhmm(text):
    m = re.search(r"wrapped at (\d{2}:\d{2})", text)
    assert m, text
    return m.group(1)


if __name__ == "__main__":
    import sys
    print(write(sys.argv[1] if len(sys.argv) > 1 else "filmset.jsonl"),
          "observations")
