"""An off-domain history: an agricultural drone, Tuesday 2025-06-10 to
Thursday 2025-06-12.

No robot profile.  Its log is a planner's: actions printed in the short
form "SprayRow(row 3, copper fungicide)" with positional arguments only,
the outcome on the goal stack's goal_status (["Mission", "SprayRow"]), and
times written in local time with a +02:00 offset.  The ground truth is
read back from the written lines (world.Log), in UTC.
"""

from common import QuestionSet, day_of, must_contain
from world import World, Log, one, last_name

SEED = 20250610
TUE, WED, THU = "2025-06-10", "2025-06-11", "2025-06-12"

PLACES = {
    "north field": [("tractor_1", "tractor"), ("pipe_1", "irrigation pipe"),
                    ("scarecrow_1", "scarecrow")],
    "south field": [("pond_1", "pond"), ("pipe_2", "irrigation pipe")],
    "east fence": [("gate_1", "gate"), ("fence_1", "fence post")],
    "pad 1": [("pad_1", "landing pad")],
    "pad 2": [("pad_2", "landing pad"), ("rack_1", "battery rack")],
    "farmyard": [("barn_1", "barn"), ("truck_1", "pickup truck")],
}
PEOPLE = {"farmyard": ["Joost de Vries"]}


def generate(seed=SEED):
    w = World(seed, PLACES, PEOPLE, home="pad 1", self_name="drone",
              idle=1800, short=True, zone="+02:00")

    def t(day, hhmm, skill, args, frm, to, mission="Survey", **kw):
        kw.setdefault("persons", [])
        kw.setdefault("minutes", (2, 5))
        w.task(day, hhmm, skill, args, frm, to, goal=[mission, skill],
               via="in the air", **kw)

    # ----- Tuesday ----------------------------------------------------
    d = TUE
    w.talk(d, "05:30", "farmyard", [
        ("Joost de Vries", "Morning! Please photograph every row of the north "
                           "field, I think row 7 looks yellow."),
        ("drone", "Okay Joost, starting the survey of the north field.")])
    t(d, "05:40", "TakeOff", {"pad": "pad 1"}, "pad 1", "pad 1",
      minutes=(0, 1))
    for i, row in enumerate(["row 5", "row 6", "row 7"]):
        t(d, "05:%02d" % (45 + 4 * i), "PhotographRow",
          {"row": row, "field": "north field"}, "north field",
          "north field", minutes=(1, 3))
    t(d, "06:10", "FlagAnomaly", {"row": "row 7", "what": "leaf blight"},
      "north field", "north field", minutes=(0, 1))
    t(d, "06:20", "SwapBattery", {"pad": "pad 2"}, "north field", "pad 2",
      mission="Power", minutes=(3, 4))
    t(d, "07:00", "InspectFence", {"fence": "east fence"}, "pad 2",
      "east fence", minutes=(6, 9))
    t(d, "07:30", "Land", {"pad": "pad 2"}, "east fence", "pad 2",
      mission="Power", minutes=(1, 2))

    # ----- Wednesday --------------------------------------------------
    d = WED
    w.talk(d, "05:20", "farmyard", [
        ("Amina Diallo", "The photos show leaf blight on row 7. Spray rows 3 "
                         "and 7 with copper fungicide today."),
        ("drone", "Understood, I will spray rows 3 and 7.")])
    t(d, "05:30", "TakeOff", {"pad": "pad 2"}, "pad 2", "pad 2",
      minutes=(0, 1), status="aborted", note="wind gusts above the limit")
    t(d, "06:30", "TakeOff", {"pad": "pad 2"}, "pad 2", "pad 2",
      minutes=(0, 1))
    t(d, "06:35", "SprayRow", {"row": "row 3",
                               "product": "copper fungicide"},
      "pad 2", "north field", mission="Treatment", minutes=(4, 6))
    t(d, "06:50", "SprayRow", {"row": "row 7",
                               "product": "copper fungicide"},
      "north field", "north field", mission="Treatment", minutes=(4, 6),
      status="failed", note="the nozzle was clogged")
    t(d, "07:10", "SwapBattery", {"pad": "pad 2"}, "north field", "pad 2",
      mission="Power", minutes=(3, 4))
    w.talk(d, "07:20", "pad 2", [
        ("drone", "Row 7 is not sprayed, the nozzle is clogged."),
        ("Joost de Vries", "I cleaned the nozzle, go again.")],
        persons=["Joost de Vries"])
    t(d, "07:25", "SprayRow", {"row": "row 7",
                               "product": "copper fungicide"},
      "pad 2", "north field", mission="Treatment", minutes=(4, 6))
    t(d, "08:00", "Land", {"pad": "pad 1"}, "north field", "pad 1",
      mission="Power", minutes=(1, 2))

    # ----- Thursday ---------------------------------------------------
    d = THU
    t(d, "05:30", "TakeOff", {"pad": "pad 1"}, "pad 1", "pad 1",
      minutes=(0, 1))
    t(d, "05:35", "FlyTo", {"waypoint": "waypoint 12"}, "pad 1",
      "south field", minutes=(2, 3))
    t(d, "05:45", "CountPlants", {"row": "row 2", "field": "south field"},
      "south field", "south field", minutes=(5, 8))
    t(d, "06:10", "PhotographRow", {"row": "row 7",
                                    "field": "north field"},
      "south field", "north field", minutes=(1, 3))
    t(d, "06:30", "SwapBattery", {"pad": "pad 2"}, "north field", "pad 2",
      mission="Power", minutes=(3, 4), status="failed",
      note="no charged battery on the rack")
    t(d, "06:40", "Land", {"pad": "pad 2"}, "pad 2", "pad 2",
      mission="Power", minutes=(1, 2))
    w.talk(d, "09:00", "farmyard", [
        ("Joost de Vries", "Row 7 looks much greener today, thank you."),
        ("drone", "You are welcome. The blight spots are smaller.")])
    return w


def write(path, seed=SEED):
    return generate(seed).write(path)


def questions(path):
    L = Log(path)
    Q = QuestionSet("drone")
    fri = "2025-06-13T08:00:00Z"

    # ---- when ---------------------------------------------------------
    es = L.find("SwapBattery", ok=True)
    Q.time("when", "When was the battery last swapped?", fri, [es[-1].span])
    es = L.find("SprayRow", ok=True, row="row 3")
    Q.time("when", "What time did you spray row 3?", fri, [es[0].span])
    es = L.find("PhotographRow", ok=True, row="row 7")
    Q.time("when", "When did you first take pictures of row 7?", fri,
           [es[0].span])
    es = L.find("TakeOff", ok=True, day=WED)
    Q.time("when", "At what time did you manage to take off on Wednesday?",
           fri, [es[0].span])

    # ---- where --------------------------------------------------------
    e = one(L.find("Land", ok=True, day=WED))
    Q.words("where", "Where did you land on Wednesday?", fri,
            [[e.args[0]]], e.t1, e.args[0])
    e = one(L.find("FlyTo", ok=True, day=THU))
    Q.words("where", "Which waypoint did you fly to on Thursday?", fri,
            [[e.args[0]]], e.t1, e.args[0])
    e = one(L.find("CountPlants", ok=True))
    Q.words("where", "In which field did you count plants?", fri,
            [[e.last["location"]]], e.t1, e.last["location"])

    # ---- day ----------------------------------------------------------
    es = L.find("InspectFence", ok=True)
    Q.day("day", "Which day did you inspect the fence?", fri,
          [day_of(x.t0) for x in es], es[-1].t1)
    es = L.find("FlagAnomaly", ok=True)
    Q.day("day", "On what day did you flag the leaf blight?", fri,
          [day_of(x.t0) for x in es], es[-1].t1)

    # ---- who ----------------------------------------------------------
    (tt, who, text) = one(L.said(day=TUE, contains="photograph"))
    Q.words("who", "Who asked you to photograph the north field?", fri,
            [[who, last_name(who), "Joost"]], tt, who)
    (tt, who, text) = one(L.said(contains="copper"))
    Q.words("who", "Who told you to spray the copper fungicide?", fri,
            [[who, last_name(who), "Amina"]], tt, who)
    (tt, who, text) = one(L.said(contains="cleaned"))
    Q.words("who", "Who cleaned the nozzle?", fri,
            [[who, "Joost", "Vries"]], tt, who)

    # ---- say ----------------------------------------------------------
    (tt, who, text) = one(L.said(speaker="Amina Diallo"))
    Q.words("say", "What did Amina say about the photos?", fri,
            must_contain(text, ["leaf blight"]) + [["spray", "copper"]], tt,
            text)
    (tt, who, text) = one(L.said(speaker="Joost de Vries", day=THU))
    Q.words("say", "What did the farmer say on Thursday?", fri,
            must_contain(text, ["greener"]), tt, text)

    # ---- see ----------------------------------------------------------
    e = L.find("PhotographRow", ok=True, day=TUE)[0]
    seen = sorted({o["type"] for o in e.last.get("objects") or []})
    Q.words("see", "What did you see over the north field on Tuesday?", fri,
            [[s] for s in seen], e.t1, ", ".join(seen),
            k=(len(seen) + 1) // 2)

    # ---- which --------------------------------------------------------
    e = one(L.find("CountPlants", ok=True))
    Q.words("which", "Which row did you count the plants in?", fri,
            [[e.args[0]]], e.t1, e.args[0])
    e = one(L.find("FlagAnomaly", ok=True))
    Q.words("which", "Which row had the anomaly you flagged?", fri,
            [[e.args[0]]], e.t1, e.args[0])

    # ---- count --------------------------------------------------------
    es = L.find("PhotographRow", ok=True, day=TUE)
    Q.count("count", "How many rows did you photograph on Tuesday?", fri,
            len(es), es[-1].t1)
    es = L.find("SwapBattery", ok=True)
    Q.count("count", "How many battery swaps went well?", fri, len(es),
            es[-1].t1)
    es = L.find("SprayRow", ok=True)
    Q.count("count", "How many rows did you spray successfully?", fri,
            len(es), es[-1].t1)
    es = L.find("TakeOff", ok=True)
    Q.count("count", "How many times did you take off?", fri, len(es),
            es[-1].t1)

    # ---- yes / no -----------------------------------------------------
    es = L.find("SprayRow", day=THU)
    Q.yesno("yesno", "Did you spray anything on Thursday?", fri, bool(es),
            L.find("SprayRow")[-1].t1)
    es = L.find("SprayRow", row="row 7", day=WED)
    Q.yesno("yesno", "Was row 7 sprayed in the end?", fri,
            any(x.ok for x in es), es[-1].t1)
    es = L.find("Land", ok=True, day=TUE)
    Q.yesno("yesno", "Did you land on pad 1 on Tuesday?", fri,
            any(x.args[0] == "pad 1" for x in es), es[-1].t1)

    # ---- failed -------------------------------------------------------
    fs = L.find(ok=False, day=WED)
    Q.words("failed", "What went wrong on Wednesday?", fri,
            [["spray*", "row 7", "nozzle", "take off", "takeoff", "wind"]],
            fs[-1].t1, "; ".join("%s %s (%s)" % (x.name, x.args,
                                                 x.last.get("note"))
                                 for x in fs))
    fs = L.find(ok=False, day=THU)
    Q.words("failed", "Any failures on Thursday?", fri,
            [["battery", "swap*"]], fs[-1].t1,
            "; ".join("%s %s" % (x.name, x.args) for x in fs))
    return Q.items, L


if __name__ == "__main__":
    import sys
    print(write(sys.argv[1] if len(sys.argv) > 1 else "drone.jsonl"),
          "observations")
