"""ARMAR-7 asked by a new user: questions a person living with the robot would
ask, in everyday wording, with truth computed from the raw tree file.

Written for issue 19 by an engineer who did not read the product code; none
of these questions is in armar.py or armar_para.py.  The history is the same
real ARMAR-7 stream (read by path from $H2EMV_DATA, never copied: it has no
license), fed with `h2emv import armar` like the `armar` source.  The raw
model and the executions are armar.py's (`Armar`, `executions`): an
execution runs from its first Preparing/Running instant to its final
instant with the same skill stack (`current_goal`).

Days: Wednesday 2024-06-26, Thursday 06-27, Friday 07-12, Saturday 07-13
(UTC).  Most questions are asked on Sunday 2024-07-14 at 09:00, so "this
week" is Monday 07-08 .. Sunday 07-14.
"""

import re

from armar import Armar, text_of
from common import QuestionSet, Span, day_of, day_span, must_contain, one

SUN = "2024-07-14T09:00:00Z"
FRI_EVE = "2024-07-12T18:00:00Z"
THU_EVE = "2024-06-27T18:00:00Z"

# What a person would call each top-level skill (for "what did you do").
DOING = {
    "NavigateToNamedLocation": ["navigat*", "drove", "drive*", "went",
                                "go to", "moved to"],
    "NavigateToLocation": ["navigat*", "drove", "drive*", "went", "go to",
                           "moved to"],
    "Introduction": ["introduc*", "my name is"],
    "BringNamedObjectFromNamedLocationToHuman": ["bring*", "brought",
                                                 "fetch*", "deliver*"],
    "BringObjectToHuman": ["bring*", "brought", "fetch*", "deliver*"],
    "GraspNamedObjectWithinReach": ["grasp*", "grab*", "pick* up"],
    "WhatCanYouSeeNow": ["what i could see", "what you can see",
                         "what can you see", "i can see", "scan*"],
    "WhatCanYouSee": ["what i could see", "what you can see",
                      "what can you see", "i can see", "scan*"],
    "LoadDishwasher": ["dishwasher"],
    "ReceiveObjectFromHuman": ["receiv*", "was handed", "handed me",
                               "took an object", "take an object"],
    "HandOverObjectToHuman": ["hand* over", "handover", "gave", "give"],
    "LearnCurrentPerson": ["learn*"],
    "ObjectLearning": ["learn*"],
}
# Skills that are gestures of the head or hand, not something a person
# would list as "what you did".
MINOR = ("LookAhead", "LookAt", "LookUp", "LookDown", "LookLeft",
         "LookAtHumanFace", "LookAtHumanHand", "HomePose", "ShapeHand",
         "MoveJointsToPosition", "MoveJointsToNamedConfiguration",
         "SetCustomGazeTarget", "OpenHand", "CloseHand", "Say",
         "MoveJointsWithVelocity", "ExecuteTraj", "MoveRelativePlanar")


def place(e):
    """The map location a navigation reached: 'MobileKitchen/sideboard' ->
    'sideboard', 'R007/home' -> 'home'."""
    loc = e.params.get("location") or e.params.get("locationName") or ""
    parts = [p for p in loc.split("/") if p]
    if parts and parts[-1] == "inFrontOf":
        parts = parts[:-1]
    return parts[-1] if parts else ""


def place_words(p):
    """How a person names a map location."""
    p = re.sub(r":\d+$", "", p)
    return {"sideboard": ["sideboard", "side board"],
            "home": ["home"],
            "countertop": ["counter", "countertop", "counter top"],
            "counter": ["counter", "countertop", "counter top"],
            "OpenDishwasher": ["dishwasher"],
            "center": ["center", "centre"]}.get(p, [p.lower()])


def navigations(A, **kw):
    """Successful drives (NavigateToLocation), with the place reached."""
    return [e for e in A.find(name="NavigateToLocation", status="Succeeded",
                              **kw) if place(e)]


def top(A, day=None, before=None, after=None):
    """Top-level executions (the skill stack has one skill), in order of
    their start, without head and hand gestures."""
    out = [e for e in A.find(day=day)
           if "." not in e.goal and e.name not in MINOR]
    if before is not None:
        out = [e for e in out if e.t0 < before]
    if after is not None:
        out = [e for e in out if e.t0 > after]
    return sorted(out, key=lambda e: e.t0)


def episodes(execs, gap=60.0):
    """Executions grouped into episodes: a gap of more than `gap` seconds
    starts a new one.  [(t0, t1, [execs])]."""
    out = []
    for e in sorted(execs, key=lambda e: e.t0):
        if out and e.t0 - out[-1][1] <= gap:
            out[-1][1] = max(out[-1][1], e.t1)
            out[-1][2].append(e)
        else:
            out.append([e.t0, e.t1, [e]])
    return out


def duration_words(secs, slack=2):
    """Spellings of a duration a person would accept, within `slack` seconds
    (the raw times have fractions of a second): 106 s -> '1 minute 46',
    '105 seconds', 'about 2 minutes', '1:47', ..."""
    out = []
    for d in range(-slack, slack + 1):
        for w in _duration_words(secs + d):
            if w not in out:
                out.append(w)
    return out


def _duration_words(secs):
    secs = int(round(secs))
    m, s = divmod(secs, 60)
    out = ["%d seconds" % secs, "%d s" % secs, "%d:%02d" % (m, s)]
    if m:
        out += ["%d minute %d" % (m, s), "%d minutes %d" % (m, s),
                "%d min %d" % (m, s), "%d minutes and %d" % (m, s),
                "%d minute and %d" % (m, s)]
    r = int(round(secs / 60.0))
    if r:
        out += ["%d minute" % r, "%d minutes" % r,
                "about %d minutes" % r]
        words = {1: "one", 2: "two", 3: "three"}
        if r in words:
            out += ["%s minute" % words[r], "%s minutes" % words[r]]
    return out


def receives(A, **kw):
    """Objects handed to the robot: episodes of ReceiveObjectFromHuman in
    which its hand closed (CloseHand succeeded); an episode that only
    opened the hand received nothing."""
    rc = [e for e in A.find(**kw) if e.root == "ReceiveObjectFromHuman"]
    return [ep for ep in episodes(rc)
            if any(e.name == "CloseHand" and e.ok for e in ep[2])]


def seen_runs(A, cls, gap=60.0):
    """Sightings of an object class, grouped: [(t0, t1)].  A sighting is an
    object of the scene graph, or the object named in the robot's own
    report of what it sees ('I can see an apple tea, ...', said by
    WhatCanYouSee(Now), even when the speech was cut off: its text is what
    the robot perceived)."""
    name = cls.replace("-", " ")
    ts = [t for (t, c) in A.seen if c == cls]
    for e in A.find(name="Say"):
        if e.root.startswith("WhatCanYouSee") and \
                re.search(r"\b%s\b" % re.escape(name), text_of(e).lower()):
            ts += [e.t0, e.t1]
    ts = sorted(ts)
    out = []
    for t in ts:
        if out and t - out[-1][1] <= gap:
            out[-1][1] = t
        else:
            out.append([t, t])
    return out


def questions(data_dir):
    A = Armar(data_dir)
    Q = QuestionSet("armaruser")
    add_when(A, Q)
    add_where(A, Q)
    add_day(A, Q)
    add_who_say(A, Q)
    add_see(A, Q)
    add_which(A, Q)
    add_count(A, Q)
    add_yesno(A, Q)
    add_failed(A, Q)
    return Q.items, A


def add_when(A, Q):
    home = [e for e in navigations(A) if place(e) == "home"]
    last = home[-1]
    Q.time("when", "When did you last drive home?", SUN, [last.span])

    fri = A.says(day="2024-07-12")
    Q.time("when", "When did you first say something on Friday?", SUN,
           [one(fri, 0).span])

    wc = [e for e in A.says(before=SUN) if e.root == "WhatCanYouSeeNow"]
    Q.time("when", "When did you last tell someone what you could see?", SUN,
           [one(wc, -1).span])

    ep = one(receives(A, before=SUN), -1)
    Q.time("when", "When did somebody last hand you something?", SUN,
           [Span(ep[0], ep[1])])

    ld = A.find(name="LoadDishwasher", status="Succeeded", day="2024-07-13")
    Q.time("when", "What time did you start loading the dishwasher on "
           "Saturday the first time?", SUN, [Span(one(ld, 0).t0)])

    intro = episodes([e for e in A.find(day="2024-07-12")
                      if e.root == "Introduction"], gap=20)
    Q.time("when", "At what time did you introduce yourself on Friday?",
           SUN, [Span(t0, t1) for t0, t1, _ in intro])

    gf = [e for e in A.find(status="Failed", before=SUN)
          if "Grasp" in e.name]
    last = one(gf, -1)
    Q.time("when", "When did you last fail to grab something?", SUN,
           [Span(e.t0, e.t1) for e in gf if last.t1 - e.t1 <= 5])

    vc = seen_runs(A, "vanilla-cookies")
    Q.time("when", "When did you last see the vanilla cookies?", SUN,
           [Span(one(vc, -1)[0], vc[-1][1])])

    at = seen_runs(A, "apple-tea")
    Q.time("when", "When did you see the apple tea for the first time?", SUN,
           [Span(one(at, 0)[0], at[0][1])])

    # how long
    ld = one(A.find(name="LoadDishwasher", status="Succeeded",
                    day="2024-07-12"), 0)
    Q.words("when", "How long did it take you to load the dishwasher on "
            "Friday?", SUN, [duration_words(ld.t1 - ld.t0)], ld.t1,
            "%.0f s (%s)" % (ld.t1 - ld.t0, ld.span))
    it = one(A.find(name="Introduction", status="Succeeded",
                    day="2024-07-13"), 0)
    Q.words("when", "How long was your first introduction on Saturday?", SUN,
            [duration_words(it.t1 - it.t0)], it.t1,
            "%.0f s (%s)" % (it.t1 - it.t0, it.span))


def add_where(A, Q):
    # where it went right after the last successful milk delivery
    br = A.find(name="BringNamedObjectFromNamedLocationToHuman",
                status="Succeeded", before=SUN)
    last = one(br, -1)
    nxt = [e for e in navigations(A) if e.t0 > last.t1]
    Q.words("where", "Where did you go after you handed over the milk the "
            "last time?", SUN, [place_words(place(one(nxt, 0)))], nxt[0].t1,
            place(nxt[0]))

    # the failed drive of June 27 (its target)
    fn = A.find(name="NavigateToNamedLocation", status="Failed",
                day="2024-06-27")
    tgt = one(fn, 0).params.get("locationName", "")
    Q.words("where", "Where were you trying to drive to when your drive "
            "failed on June 27?", SUN,
            [place_words(tgt.split("/")[-1])], fn[0].t1, tgt)

    # where the milk was picked up on Friday: the drive before the
    # successful grasp
    g = A.find(name="GraspNamedObjectWithinReach", status="Succeeded",
               day="2024-07-12")
    before = [e for e in navigations(A) if e.t1 <= one(g, 0).t0]
    # the bring's own (speech-recognised) name of the place counts too, as
    # in armar.py ('side side' for the sideboard)
    br = [e for e in A.find(name="BringNamedObjectFromNamedLocationToHuman")
          if e.t0 <= g[0].t0 <= e.t1]
    asr = [e.params.get("graspLocationName", "") for e in br]
    Q.words("where", "Where did you pick up the milk on Friday?", SUN,
            [place_words(place(before[-1])) + [a.lower() for a in asr if a]],
            g[0].t1, "%s (called %s)" % (place(before[-1]), ", ".join(asr)))

    intro = one(A.find(name="Introduction", day="2024-07-13"), 0)
    before = [e for e in navigations(A) if e.t1 <= intro.t0]
    Q.words("where", "Where were you when you introduced yourself for the "
            "first time on Saturday?", SUN,
            [place_words(place(before[-1]))], intro.t0, place(before[-1]))

    ld = one(A.find(name="LoadDishwasher", status="Succeeded", before=SUN), -1)
    nxt = [e for e in navigations(A) if e.t0 > ld.t1]
    Q.words("where", "Where did you go after loading the dishwasher the "
            "last time?", SUN, [place_words(place(one(nxt, 0)))], nxt[0].t1,
            place(nxt[0]))


def add_day(A, Q):
    rc = one(receives(A), 0)
    Q.day("day", "On which day did someone hand you an object for the first "
          "time?", SUN, [day_of(rc[0])], rc[1])
    lp = A.find(name="LearnCurrentPerson", status="Failed")
    Q.day("day", "What day was it when you could not learn a person's face?",
          SUN, [day_of(e.t0) for e in lp], one(lp, -1).t1)
    wc = [e for e in A.says() if e.root == "WhatCanYouSeeNow"]
    Q.day("day", "On what day did you first manage to tell someone what you "
          "could see?", SUN, [day_of(one(wc, 0).t0)], wc[0].t1)
    ct = [e for e in navigations(A)
          if place(e) in ("counter", "countertop")]
    Q.day("day", "When was the last day you drove to the counter?", SUN,
          [day_of(one(ct, -1).t0)], ct[-1].t1)


def add_who_say(A, Q):
    br = A.find(name="BringNamedObjectFromNamedLocationToHuman",
                status="Succeeded", day="2024-07-13")
    trig = {e.trigger for e in br}
    assert trig == {"user speech command"}, trig
    Q.words("who", "Who asked you to bring the milk on Saturday?", SUN,
            [["speech", "spoke", "spoken", "voice", "command", "user"]],
            one(br, -1).t1, "a user, by speech "
            "command (trigger 'user speech command')")
    nv = A.find(name="NavigateToNamedLocation", status="Succeeded",
                day="2024-06-26")
    trig = {e.trigger for e in nv}
    assert trig == {"GUI"}, trig
    Q.words("who", "Who told you to drive home on June 26?", SUN,
            [["gui", "interface", "operator", "screen", "graphical"]],
            one(nv, -1).t1, "an operator through the GUI (trigger 'GUI')")

    intro_end = [e for e in A.says() if e.root == "Introduction"
                 and "how can i help" in text_of(e).lower()]
    t = text_of(one(intro_end, 0))
    Q.words("say", "What did you say at the end of your introduction?", SUN,
            must_contain(t, ["glad", "help"]), intro_end[0].t1, t)

    hands = [e for e in A.says() if "hands" in text_of(e)]
    t = text_of(one(hands, 0))
    assert "five-finger" in t, t
    Q.words("say", "What did you tell people about your hands?", SUN,
            [["five finger", "underactuated", "two hands"],
             ["grasp*", "tools", "objects"]], hands[0].t1, t)

    wc = [e for e in A.says(day="2024-07-12") if e.root == "WhatCanYouSeeNow"]
    t = text_of(one(wc, -1))
    Q.words("say", "On Friday, what did you say you could see the last time "
            "you were asked?", SUN,
            must_contain(t, ["nesquik", "vanilla cookies"]), wc[-1].t1, t,
            none=["apple tea"] if "apple tea" not in t else ())

    goal = [e for e in A.says() if "my goal" in text_of(e).lower()]
    t = text_of(one(goal, 0))
    Q.words("say", "What did you say your goal was?", SUN,
            must_contain(t, ["help", "daily life"]), goal[0].t1, t)

    learn = [e for e in A.says() if "able to learn" in text_of(e)]
    t = text_of(one(learn, 0))
    Q.words("say", "What did you tell people you are able to learn?", SUN,
            must_contain(t, ["skills"]) + [["watching humans", "watch*",
                                            "humans"]], learn[0].t1, t)

    plat = [e for e in A.says() if "platform" in text_of(e)
            and "narrow" in text_of(e)]
    t = text_of(one(plat, 0))
    Q.words("say", "What did you say about your platform?", SUN,
            [["holonomic", "arbitrary direction*", "any direction*"],
             ["narrow"]], plat[0].t1, t)


def add_see(A, Q):
    from armar import variants_obj
    d0, d1 = day_span("2024-07-13")
    seen = sorted({c for (t, c) in A.seen if d0 <= t < d1})
    everything = sorted({c for (t, c) in A.seen})
    Q.words("see", "What did you see on Saturday?", SUN,
            [variants_obj(c) for c in seen],
            max(t for (t, c) in A.seen if d0 <= t < d1), ", ".join(seen),
            k=(len(seen) + 1) // 2,
            others=[variants_obj(c) for c in everything if c not in seen])
    d0, d1 = day_span("2024-06-27")
    nq = any(c == "nesquik" and d0 <= t < d1 for (t, c) in A.seen)
    Q.yesno("see", "Did you see the nesquik on June 27?", SUN, nq,
            max(e.t1 for e in A.find(day="2024-06-27")))


def add_which(A, Q):
    br = A.find(name="BringNamedObjectFromNamedLocationToHuman",
                status="Succeeded", day="2024-07-13")
    objs = sorted({e.params["graspObjectName"] for e in br})
    Q.words("which", "Which things did you carry to people on Saturday?",
            SUN, [[o] for o in objs], one(br, -1).t1, ", ".join(objs))

    fr = navigations(A, day="2024-07-12")
    places = sorted({place(e) for e in fr})
    Q.words("which", "Which places did you drive to on Friday?", SUN,
            [place_words(p) for p in places], one(fr, -1).t1,
            ", ".join(places), k=(len(places) + 1) // 2)

    # the first skill of its own that day, or the skill the day's first
    # recorded step ran under (an arm motion left over from an
    # introduction, 12:32)
    sat = top(A, day="2024-07-13")
    f = one(sat, 0)
    r0 = one(A.find(day="2024-07-13"), 0).root
    Q.words("which", "What was the first thing you did on Saturday?", SUN,
            [DOING[f.name] + DOING.get(r0, [])], f.t1,
            "%s to %s (the day's first step ran under %s)" %
            (f.name, place(f), r0))

    ld = one(A.find(name="LoadDishwasher", day="2024-07-12"), 0)
    # the skill that ran just before (sub-skills count by their root)
    roots = [e for e in A.ex if e.t1 <= ld.t0 and e.root not in MINOR]
    r = one(sorted(roots, key=lambda e: e.t1), -1).root
    Q.words("which", "What did you do just before you loaded the dishwasher "
            "on Friday?", SUN, [DOING[r]], ld.t0, r)

    intros = A.find(name="Introduction", status="Succeeded", day="2024-07-13")
    second = intros[1]
    nxt = top(A, after=second.t1)
    r = one(nxt, 0).name
    Q.words("which", "What did you do right after your second introduction "
            "on Saturday?", SUN, [DOING[r]], nxt[0].t1, r)

    def did(day):
        # a skill counts when something more than a glance or a hand
        # shape ran under it
        roots = sorted({e.root for e in A.find(day=day)
                        if e.name not in MINOR})
        roots = [r for r in roots if r in DOING]
        return roots
    for day, q, k in (("2024-06-27", "What did you do on Thursday, June 27?",
                       2),
                      ("2024-07-13", "What did you do on Saturday?", 3)):
        roots = did(day)
        groups = []
        for r in roots:
            if DOING[r] not in groups:
                groups.append(DOING[r])
        Q.words("which", q, SUN, groups,
                max(e.t1 for e in A.find(day=day)), ", ".join(roots),
                k=min(k, len(groups)))


def add_count(A, Q):
    d0 = "2024-07-08T00:00:00Z"
    from common import parse_time
    ld = [e for e in A.find(name="LoadDishwasher", status="Succeeded",
                            before=SUN) if e.t0 >= parse_time(d0)]
    Q.count("count", "How many times did you load the dishwasher this week?",
            SUN, len(ld), max(e.t1 for e in ld))
    wc = A.find(name="WhatCanYouSeeNow", status="Succeeded", day="2024-07-13")
    Q.count("count", "How many times did you tell someone what you could see "
            "on Saturday?", SUN, len(wc), max(e.t1 for e in wc))
    gf = [e for e in A.find(name="GraspNamedObjectWithinReach",
                            status="Failed", before=SUN)
          if e.t0 >= parse_time(d0)
          and e.params.get("graspObjectName") == "milk"]
    Q.count("count", "How many times did you fail to grasp the milk this "
            "week?", SUN, len(gf), max(e.t1 for e in gf))
    eps = receives(A, day="2024-07-13")
    Q.count("count", "How many times did someone hand you something on "
            "Saturday?", SUN, len(eps), eps[-1][1])


def add_yesno(A, Q):
    ck = [e for e in A.find(name="BringNamedObjectFromNamedLocationToHuman",
                            status="Succeeded")
          if "cookie" in e.params.get("graspObjectName", "")]
    last = A.find(name="BringNamedObjectFromNamedLocationToHuman")[-1]
    Q.yesno("yesno", "Did you ever bring anyone the cookies?", SUN, bool(ck),
            last.t1)
    wed = navigations(A, day="2024-06-26")
    Q.yesno("yesno", "Did you go to the counter on Wednesday?", SUN,
            any(place(e) in ("counter", "countertop") for e in wed),
            wed[-1].t1)
    rc = receives(A, day="2024-07-12")
    Q.yesno("yesno", "Did anyone give you an object on Friday?", SUN,
            bool(rc), one(rc, -1)[1])
    ld = A.find(name="LoadDishwasher", day="2024-07-12")
    Q.yesno("yesno", "Did you finish loading the dishwasher on Friday?", SUN,
            any(e.ok for e in ld), one(ld, -1).t1)
    w = A.find(name="Wave", status="Succeeded", day="2024-07-12")
    Q.yesno("yesno", "Did you wave to anyone on Friday?", SUN, bool(w),
            one(w, -1).t1)


def add_failed(A, Q):
    sat = A.find(name="BringNamedObjectFromNamedLocationToHuman",
                 status="Failed", day="2024-07-13")
    first, second = sat[0], sat[1]
    sub = [e for e in A.find(status="Failed")
           if e.goal.startswith(first.goal + ".")
           and first.t0 <= e.t0 <= first.t1]
    assert any("Grasp" in e.name for e in sub), sub
    Q.words("failed", "Why couldn't you bring the milk shortly after two on "
            "Saturday afternoon?", SUN,
            [["grasp*", "grab*", "pick* up", "get hold", "pick*"]],
            first.t1, "GraspNamedObjectWithinReach failed (%s)" % first.span)
    sub = [e for e in A.find(status="Failed")
           if e.goal.startswith(second.goal + ".")
           and second.t0 <= e.t0 <= second.t1]
    assert [e.name for e in sub] == ["NavigateToNamedLocation"], sub
    loc = sub[0].params["locationName"]
    Q.words("failed", "What went wrong when I asked you for the milk at a "
            "quarter to three on Saturday?", SUN,
            [[loc, "navigat*", "drive", "location", "find the"]],
            second.t1, "NavigateToNamedLocation to %r failed (%s)" %
            (loc, second.span))
    wed = A.find(status="Failed", day="2024-06-26")
    roots = sorted({e.root for e in wed})
    groups = []
    for r in roots:
        if r in DOING and DOING[r] not in groups:
            groups.append(DOING[r])
    Q.words("failed", "What went wrong on Wednesday?", SUN, groups,
            max(e.t1 for e in wed), ", ".join(roots), k=1)
    fr = A.find(status=("Failed", "Aborted"), day="2024-07-12",
                pred=lambda e: "." not in e.goal)
    roots = sorted({e.name for e in fr})
    groups = []
    for r in roots:
        if r in DOING and DOING[r] not in groups:
            groups.append(DOING[r])
    Q.words("failed", "Which of the things I asked you to do on Friday did "
            "not work?", SUN, groups,
            max(e.t1 for e in fr), ", ".join(roots), k=2)
