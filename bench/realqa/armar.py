"""ARMAR-7 (KIT, 2024-06-26 .. 2024-07-13): questions with ground truth from the
raw tree file `hierarchical-emv/armarx_lt_mem/2024-07-a7a-summary.tree.json`.

The file is read by path and never copied (it has no license).  The memory is
fed with the product importer (`h2emv import armar`); the truth below comes
from the raw SceneGraphInstant / RawDataInstant nodes only.

Raw model used here:
  * an *instant* is a SceneGraphInstant: objects [{obj_class, instance_id}],
    and raw: timestamp (UTC, no zone), current_action, current_action_state
    (Preparing, Running, Succeeded, Failed, Aborted),
    current_action_parameters {parameters, trigger}, current_goal 'A.B.C';
  * an *execution* of a skill runs from its first Preparing/Running instant to
    its Succeeded/Failed/Aborted instant with the same current_goal path (the
    skill stack down to the skill); its parameters are those of that instant.
"""

import json
import os
import re

from common import (QuestionSet, Span, day_of, day_span, parse_time,
                    must_contain)

PATH = os.path.join("hierarchical-emv", "armarx_lt_mem",
                    "2024-07-a7a-summary.tree.json")
TERMINAL = ("Succeeded", "Failed", "Aborted")


def load_instants(data_dir):
    with open(os.path.join(data_dir, PATH), encoding="utf-8") as f:
        tree = json.load(f)
    out = []
    stack = [tree]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            if n.get("_type") == "SceneGraphInstant":
                out.append(n)
                continue
            stack.extend(n.values())
        elif isinstance(n, list):
            stack.extend(n)
    out.sort(key=lambda s: s["raw"]["timestamp"])
    return out


class Exec:
    def __init__(self, name, goal, t0, t1, status, params, trigger):
        self.name, self.goal = name, goal
        self.t0, self.t1, self.status = t0, t1, status
        self.params, self.trigger = params or {}, trigger or ""

    @property
    def ok(self):
        return self.status == "Succeeded"

    @property
    def span(self):
        return Span(self.t0, self.t1, self.name)

    @property
    def root(self):
        return self.goal.split(".")[0]

    def __repr__(self):
        return "%s %s %s %s" % (self.span, self.status, self.goal,
                                json.dumps(self.params)[:80])


def executions(instants):
    """Skill executions, in order of their end."""
    open_ = {}
    out = []
    for s in instants:
        r = s["raw"]
        a, st, g = r["current_action"], r["current_action_state"], r["current_goal"]
        if not a or not g:
            continue
        t = parse_time(r["timestamp"])
        p = r.get("current_action_parameters") or {}
        key = g
        if st in ("Preparing", "Running"):
            if key in open_ and open_[key][1] == "Preparing" and st == "Running":
                continue
            if key in open_ and st == "Preparing":
                # a new run started before the old one ended: the old one
                # left no end; keep it, unfinished
                t0, _, p0, last = open_.pop(key)
                out.append(Exec(a, g, t0, last, "Unfinished",
                                p0.get("parameters"), p0.get("trigger")))
            if key not in open_:
                open_[key] = [t, st, p, t]
            else:
                open_[key][3] = t
        elif st in TERMINAL:
            t0 = open_.pop(key)[0] if key in open_ else t
            out.append(Exec(a, g, t0, t, st, p.get("parameters"),
                            p.get("trigger")))
    for key, (t0, _, p0, last) in open_.items():
        out.append(Exec(key.split(".")[-1], key, t0, last, "Unfinished",
                        p0.get("parameters"), p0.get("trigger")))
    out.sort(key=lambda e: e.t1)
    return out


def strip_markup(text):
    """Say texts carry SSML: '<phoneme ...>Stark Watzinger</phoneme>'."""
    return re.sub(r"<[^>]*>", "", text or "")


class Armar:
    def __init__(self, data_dir):
        self.instants = load_instants(data_dir)
        self.ex = executions(self.instants)
        # objects seen: (t, obj_class)
        self.seen = [(parse_time(s["raw"]["timestamp"]), o["obj_class"])
                     for s in self.instants for o in s.get("objects") or []]

    def find(self, name=None, status=None, day=None, before=None, root=None,
             pred=None):
        out = []
        for e in self.ex:
            if name and e.name != name:
                continue
            if status and e.status not in (status if isinstance(status, tuple)
                                           else (status,)):
                continue
            if root and e.root != root:
                continue
            if day and day_of(e.t0) != day:
                continue
            if before and e.t1 > parse_time(before):
                continue
            if pred and not pred(e):
                continue
            out.append(e)
        return out

    def says(self, **kw):
        """Succeeded Say executions (the robot said it), with clean text."""
        return [e for e in self.find(name="Say", status="Succeeded", **kw)
                if e.params.get("text")]


def text_of(e):
    return strip_markup(e.params.get("text", ""))


def questions(data_dir):
    A = Armar(data_dir)
    Q = QuestionSet("armar")
    one = lambda xs, i: xs[i] if xs else _missing()  # noqa: E731

    # ---- when ---------------------------------------------------------
    # The first time the robot said its name (2024-06-26, GUI-triggered Say).
    at = "2024-06-27T14:40:00Z"
    s = [e for e in A.says(before=at) if "my name is" in text_of(e).lower()]
    Q.time("when", "When did you tell someone your name for the very first time?",
           at, [one(s, 0).span])

    # Greeting the minister (Introduction.Say 'Hello Minister ...').
    at = "2024-07-12T17:00:00Z"
    s = [e for e in A.says(before=at) if "minister" in text_of(e).lower()]
    Q.time("when", "At what time did you say hello to the minister?", at,
           [e.span for e in s])

    # Last successful delivery of the milk (BringNamedObjectFromNamedLocationToHuman).
    at = "2024-07-14T09:00:00Z"
    b = A.find(name="BringNamedObjectFromNamedLocationToHuman",
               status="Succeeded", before=at)
    Q.time("when", "When was the last time you brought somebody the milk?", at,
           [one(b, -1).span])

    # First successful bring: 2024-07-12.
    Q.time("when", "When did you first succeed in bringing the milk from "
           "somewhere to a person?",
           "2024-07-13T13:30:00Z",
           [one(A.find(name="BringNamedObjectFromNamedLocationToHuman",
                       status="Succeeded"), 0).span])

    # Second drive to the sideboard on 2024-06-26.
    nav = A.find(name="NavigateToNamedLocation", status="Succeeded",
                 day="2024-06-26",
                 pred=lambda e: e.params.get("locationName") == "sideboard")
    Q.time("when", "On June 26, when did you drive to the sideboard for the "
           "second time?", "2024-06-27T14:40:00Z", [one(nav, 1).span])

    # The last dishwasher loading.
    at = "2024-07-14T08:00:00Z"
    ld = A.find(name="LoadDishwasher", status="Succeeded", before=at)
    Q.time("when", "When did you last put dishes into the dishwasher?", at,
           [one(ld, -1).span])

    # The last wave of the hand (Introduction.Wave), asked the next morning.
    wv = A.find(name="Wave", status="Succeeded", before=at)
    Q.time("when", "What time was it when you last waved at someone?", at,
           [one(wv, -1).span])

    # ---- where --------------------------------------------------------
    nav26 = A.find(name="NavigateToNamedLocation", status="Succeeded",
                   day="2024-06-26")
    first = one(nav26, 0)
    Q.words("where", "Where did you navigate to first on June 26?",
            "2024-06-27T14:40:00Z", [[first.params["locationName"]]], first.t1,
            first.params["locationName"])

    # Where the milk came from the last time it was brought (graspLocationName
    # is ASR text, 'sidewalk'; the map location reached is MobileKitchen/sideboard).
    at = "2024-07-14T09:00:00Z"
    last = one(A.find(name="BringNamedObjectFromNamedLocationToHuman",
                      status="Succeeded", before=at), -1)
    navs = [e for e in A.find(name="NavigateToLocation", status="Succeeded")
            if e.goal.startswith("BringNamedObjectFromNamedLocationToHuman")
            and last.t0 <= e.t0 <= last.t1]
    grasp_loc = navs[0].params.get("location", "").split("/")[-1]
    Q.words("where", "Where did you fetch the milk from the last time you "
            "brought it to someone?", at,
            [[last.params["graspLocationName"], grasp_loc]], last.t1,
            "%s (map location %s)" % (last.params["graspLocationName"],
                                      grasp_loc))

    # Where it was handed over on Saturday.
    sat = A.find(name="BringNamedObjectFromNamedLocationToHuman",
                 status="Succeeded", day="2024-07-13")
    hl = sorted({e.params["handoverLocationName"] for e in sat})
    Q.words("where", "Where did you hand the milk over on Saturday?",
            "2024-07-14T09:00:00Z", [hl], max(e.t1 for e in sat), ", ".join(hl))

    # Where the milk was grasped the first time on Saturday afternoon.
    f = sat[0]
    Q.words("where", "Where did you grab the milk the first time on "
            "Saturday, July 13?", "2024-07-14T09:00:00Z",
            [[f.params["graspLocationName"]]], f.t1,
            f.params["graspLocationName"])

    # ---- day ----------------------------------------------------------
    ld = A.find(name="LoadDishwasher", status="Succeeded")
    Q.day("day", "On which day did you load the dishwasher for the first time?",
          "2024-07-14T09:00:00Z", [day_of(one(ld, 0).t0)], one(ld, 0).t1)
    # any step under a bring skill counts as trying (2024-06-27's attempt left
    # no instant of the bring skill itself, only its failed navigation)
    br = A.find(pred=lambda e: e.root in (
        "BringNamedObjectFromNamedLocationToHuman", "BringObjectToHuman"))
    Q.day("day", "What day was it when you first tried to fetch the milk for "
          "someone?", "2024-07-14T09:00:00Z", [day_of(one(br, 0).t0)],
          one(br, 0).t1)
    intro = A.find(name="Introduction", status="Succeeded")
    Q.day("day", "On what day did you give your full introduction for the "
          "first time?", "2024-07-13T14:00:00Z", [day_of(one(intro, 0).t0)],
          one(intro, 0).t1)

    # ---- who ----------------------------------------------------------
    at = "2024-07-13T14:00:00Z"
    s = [e for e in A.says(day="2024-06-27") if "minister" in text_of(e).lower()]
    name = re.search(r"Minister\s+([A-Z][\w-]+(?:\s+[A-Z][\w-]+)*)", text_of(s[0]))
    Q.words("who", "Who did you greet on Thursday, June 27?", at,
            [["watzinger", "stark watzinger", "minister"]], s[0].t1,
            "Minister " + name.group(1))

    lp = A.find(name="LearnCurrentPerson", day="2024-07-12",
                pred=lambda e: e.params.get("name"))
    Q.words("who", "Whose face did you try to learn yesterday?",
            "2024-07-13T14:00:00Z",
            [[one(lp, 0).params["name"], one(lp, 0).params["name"].split()[0]]],
            one(lp, 0).t1, one(lp, 0).params["name"])

    # ---- say ----------------------------------------------------------
    s = [e for e in A.says(day="2024-06-27") if "minister" in text_of(e).lower()]
    Q.words("say", "What did you tell Minister Stark Watzinger?",
            "2024-07-13T14:00:00Z",
            [["dream", "reference platform", "robotics institute"]],
            s[0].t1, text_of(s[0]))

    at = "2024-07-13T15:30:00Z"
    wc = [e for e in A.says(day="2024-07-13", before=at)
          if e.goal == "WhatCanYouSeeNow.Say"]
    t = text_of(one(wc, -1))
    Q.words("say", "Today, what did you answer the last time someone asked "
            "what you could see?", at,
            must_contain(t, ["apple tea", "nesquik"]), one(wc, -1).t1, t)

    un = [e for e in A.says(day="2024-06-26") if "do not know" in text_of(e)]
    t = text_of(one(un, 0))
    Q.words("say", "What did you say on June 26 when you saw an object you "
            "did not know?", "2024-06-27T14:40:00Z",
            [["do not know", "don't know", "unknown"], ["name"]], un[0].t1, t)

    # ---- see ----------------------------------------------------------
    d0, d1 = day_span("2024-06-27")
    seen = sorted({c for (t, c) in A.seen if d0 <= t < d1})
    everything = sorted({c for (t, c) in A.seen})
    Q.words("see", "What objects did you see on Thursday?",
            "2024-07-13T14:00:00Z",
            [variants_obj(c) for c in seen],
            max(t for (t, c) in A.seen if d0 <= t < d1), ", ".join(seen),
            k=(len(seen) + 1) // 2,
            others=[variants_obj(c) for c in everything if c not in seen])

    # The LookAhead scenes of Saturday 13:12-13:13.
    la = [e for e in A.find(name="LookAhead", day="2024-07-13")]
    seen = sorted({c for (t, c) in A.seen
                   if any(e.t0 - 1 <= t <= e.t1 + 1 for e in la)})
    Q.words("see", "Which things did you notice when you looked straight "
            "ahead on Saturday?", "2024-07-14T09:00:00Z",
            [variants_obj(c) for c in seen],
            max(t for (t, c) in A.seen if any(e.t0 - 1 <= t <= e.t1 + 1
                                               for e in la)),
            ", ".join(seen), k=(len(seen) + 1) // 2,
            others=[variants_obj(c) for c in everything if c not in seen])

    # ---- which --------------------------------------------------------
    g = A.find(name="GraspNamedObjectWithinReach", day="2024-06-27")
    Q.words("which", "Which object did you try to grasp on June 27?",
            "2024-07-13T14:00:00Z", [[one(g, 0).params["graspObjectName"]]],
            one(g, 0).t1, one(g, 0).params["graspObjectName"])

    ol = [e for e in A.says(day="2024-06-26") if "learned the object" in
          text_of(e)]
    m = re.search(r"with the name (.+)$", text_of(one(ol, 0)))
    Q.words("which", "Which object did you learn the name of on Wednesday?",
            "2024-06-27T14:40:00Z",
            [[m.group(1).strip(), "robot control"]], ol[0].t1, m.group(1))

    # ---- count --------------------------------------------------------
    def intros(day):
        return [e for e in A.says(day=day)
                if e.root == "Introduction"
                and "my name is armar seven" in text_of(e).lower()]
    n13 = intros("2024-07-13")
    Q.count("count", "How many times did you introduce yourself on Saturday?",
            "2024-07-14T09:00:00Z", len(n13), max(e.t1 for e in n13))
    sat = A.find(name="BringNamedObjectFromNamedLocationToHuman",
                 status="Succeeded", day="2024-07-13")
    Q.count("count", "On July 13, how often did you successfully bring the "
            "milk to someone?", "2024-07-14T09:00:00Z", len(sat),
            max(e.t1 for e in sat))
    wv = A.find(name="Wave", status="Succeeded", day="2024-07-13")
    Q.count("count", "How many times did you wave on Saturday?",
            "2024-07-14T09:00:00Z", len(wv), max(e.t1 for e in wv))

    # ---- yes / no -----------------------------------------------------
    lp = A.find(name="LearnCurrentPerson", day="2024-07-12")
    Q.yesno("yesno", "Did you manage to learn John Handover's face?",
            "2024-07-13T14:00:00Z", any(e.ok for e in lp),
            max(e.t1 for e in lp))
    ld = A.find(name="LoadDishwasher", status="Succeeded", day="2024-07-13")
    Q.yesno("yesno", "Did you load the dishwasher yesterday?",
            "2024-07-14T09:00:00Z", bool(ld), max(e.t1 for e in ld))
    g = A.find(name="GraspNamedObjectWithinReach", day="2024-06-27")
    Q.yesno("yesno", "Were you able to grasp the milk on June 27?",
            "2024-07-13T14:00:00Z", any(e.ok for e in g),
            max(e.t1 for e in g))

    # ---- failed -------------------------------------------------------
    # The bring of 2024-06-27: its navigation to the counter failed.
    br = A.find(name="BringNamedObjectFromNamedLocationToHuman",
                day="2024-06-27")
    fails = [e for e in A.find(status=("Failed", "Aborted"), day="2024-06-27")
             if e.goal.startswith("BringNamedObjectFromNamedLocationToHuman")]
    assert [e.name for e in fails] == ["NavigateToLocation",
                                       "NavigateToNamedLocation"], fails
    Q.words("failed", "What went wrong when you tried to bring the milk on "
            "June 27?", "2024-07-13T14:00:00Z",
            [["navigat*", "drive", "driving", "go to", "get to", "reach*"]],
            max(e.t1 for e in fails),
            "NavigateToNamedLocation to %s failed" %
            fails[-1].params.get("locationName"))
    fr = A.find(status="Failed", day="2024-07-12")
    names = sorted({e.name for e in fr})
    Q.words("failed", "Which of your actions failed on Friday, July 12?",
            "2024-07-13T14:00:00Z",
            [["grasp*", "grab*", "learn*", "look*", "navigat*", "person",
              "face"]], max(e.t1 for e in fr), ", ".join(names))
    return Q.items, A


def variants_obj(c):
    """ARMAR object classes and how a person would name them."""
    extra = {"soy-milk": ["milk"], "apple-tea": ["tea"],
             "vanilla-cookies": ["cookies"], "mobile-dishwasher": ["dishwasher"],
             "talo-you-q-160x80": ["talo"]}.get(c, [])
    from common import variants
    return variants(c, *extra)


def _missing():
    raise AssertionError("the raw data has no such event")
