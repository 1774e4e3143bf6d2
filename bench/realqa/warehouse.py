"""An off-domain history: a mobile robot in a distribution warehouse,
Monday 2025-03-03 to Wednesday 2025-03-05.

No robot profile and no goal stack: a flat list of actions with this
robot's own names (MoveTote, PickOrder, ScanBarcode, CycleCount,
SwapBattery, UnloadTruck) and keys (tote, from_loc, to_loc, sku, bin,
order, code, shelf, dock, bay), status words in upper case, object ids
such as "tote_42" where people say "tote 42".  The ground truth is read
back from the written lines (world.Log).
"""

from common import day_of, day_span, must_contain
from world import World, Log, one, last_name

SEED = 20250303
MON, TUE, WED = "2025-03-03", "2025-03-04", "2025-03-05"

PLACES = {
    "inbound dock 1": [("pallet_17", "pallet"), ("truck_9", "truck")],
    "inbound dock 2": [("pallet_21", "pallet"), ("forklift_2", "forklift")],
    "shelf B3": [("tote_42", "tote"), ("bin_B3_1", "bin")],
    "shelf C7": [("bin_C7_2", "bin"), ("bin_C7_4", "bin"),
                 ("box_551", "carton")],
    "packing station": [("scale_1", "scale"), ("tape_1", "tape dispenser")],
    "returns area": [("cage_1", "roll cage")],
    "battery bay": [("battery_rack", "battery rack")],
}
PEOPLE = {"packing station": ["Jon Reyes"], "inbound dock 2": ["Ade Okoro"]}


def generate(seed=SEED):
    w = World(seed, PLACES, PEOPLE, home="battery bay",
              status_case=str.upper, goals=False)

    def move(day, hhmm, tote, frm, to, **kw):
        w.task(day, hhmm, "MoveTote", {"tote": tote, "from_loc": frm,
                                       "to_loc": to}, frm, to, **kw)

    def scan(day, hhmm, code, at, **kw):
        w.task(day, hhmm, "ScanBarcode", {"code": code}, at, at,
               minutes=(0, 1), **kw)

    def pick(day, hhmm, sku, bin_, order, shelf, **kw):
        w.task(day, hhmm, "PickOrder", {"sku": sku, "bin": bin_,
                                        "order": order}, shelf,
               "packing station", **kw)

    # ----- Monday -------------------------------------------------------
    d = MON
    w.talk(d, "06:05", "battery bay", [
        ("Marta Kowalski", "Morning. Truck 9 is at dock 1, please unload it "
                           "first."),
        ("robot", "Understood, Marta. Going to inbound dock 1.")])
    w.task(d, "06:10", "UnloadTruck", {"dock": "inbound dock 1",
                                       "truck": "truck_9"},
           "battery bay", "inbound dock 1", minutes=(12, 16))
    scan(d, "06:35", "pallet_17", "inbound dock 1")
    move(d, "06:40", "tote_42", "inbound dock 1", "shelf B3")
    move(d, "07:05", "tote_17", "inbound dock 1", "shelf C7")
    pick(d, "08:10", "usb cables", "bin_C7_2", "order 5531", "shelf C7")
    pick(d, "08:40", "hdmi adapters", "bin_C7_4", "order 5532", "shelf C7")
    w.task(d, "10:00", "CycleCount", {"shelf": "shelf C7"}, "shelf C7",
           "shelf C7", minutes=(4, 6), persons=[])
    w.task(d, "12:00", "SwapBattery", {"bay": "battery bay"}, "shelf C7",
           "battery bay", minutes=(3, 4), persons=[])
    move(d, "13:30", "tote_8", "returns area", "shelf B3")
    w.talk(d, "14:10", "packing station", [
        ("Jon Reyes", "Can you bring me an empty tote from the returns "
                      "area?"),
        ("robot", "Sure, Jon. I will bring an empty tote.")])
    move(d, "14:12", "tote_5", "returns area", "packing station")

    # ----- Tuesday ------------------------------------------------------
    d = TUE
    w.task(d, "06:00", "UnloadTruck", {"dock": "inbound dock 2",
                                       "truck": "truck_12"},
           "battery bay", "inbound dock 2", minutes=(10, 14))
    scan(d, "06:30", "pallet_21", "inbound dock 2")
    move(d, "06:45", "tote_42", "shelf B3", "inbound dock 2",
         status="failed", note="aisle 4 was blocked by a forklift",
         say_end=[("robot", "Aisle 4 is blocked by a forklift. I could not "
                            "move tote 42."),
                  ("Ade Okoro", "Sorry, I will move the forklift in ten "
                                "minutes.")])
    move(d, "07:10", "tote_42", "shelf B3", "inbound dock 2")
    pick(d, "09:00", "phone cases", "bin_B3_1", "order 5540", "shelf B3")
    pick(d, "09:30", "usb cables", "bin_C7_2", "order 5541", "shelf C7",
         status="failed", note="bin C7-2 was empty",
         say_end=[("robot", "Bin C7-2 is empty, order 5541 is short one "
                            "item.")])
    w.talk(d, "09:45", "packing station", [
        ("Marta Kowalski", "Order 5541 can wait until the restock "
                           "tomorrow."),
        ("robot", "Okay, I will hold order 5541.")])
    w.task(d, "11:30", "SwapBattery", {"bay": "battery bay"}, "shelf C7",
           "battery bay", minutes=(3, 4), persons=[])
    scan(d, "13:00", "tote_5", "packing station")
    move(d, "13:20", "tote_5", "packing station", "returns area")
    w.task(d, "15:00", "CycleCount", {"shelf": "shelf B3"}, "shelf B3",
           "shelf B3", minutes=(4, 6), persons=[])

    # ----- Wednesday ----------------------------------------------------
    d = WED
    w.talk(d, "06:02", "battery bay", [
        ("Marta Kowalski", "Today restock bin C7-2 with usb cables from "
                           "pallet 21, then finish order 5541."),
        ("robot", "Will do. Restocking bin C7-2 first.")])
    w.task(d, "06:10", "Restock", {"sku": "usb cables", "from_loc":
                                   "inbound dock 2", "bin": "bin_C7_2"},
           "inbound dock 2", "shelf C7", minutes=(6, 9))
    pick(d, "06:40", "usb cables", "bin_C7_2", "order 5541", "shelf C7")
    scan(d, "07:30", "box_551", "shelf C7")
    move(d, "08:00", "tote_42", "inbound dock 2", "shelf C7")
    w.task(d, "10:15", "SwapBattery", {"bay": "battery bay"}, "shelf C7",
           "battery bay", minutes=(3, 4), persons=[], status="aborted",
           note="no charged battery in the rack")
    w.task(d, "10:40", "SwapBattery", {"bay": "battery bay"}, "battery bay",
           "battery bay", minutes=(3, 4), persons=[])
    pick(d, "13:00", "hdmi adapters", "bin_C7_4", "order 5550", "shelf C7",
         say_end=[("Jon Reyes", "Thanks, that completes the afternoon "
                                "batch.")])
    scan(d, "14:00", "pallet_21", "inbound dock 2")
    return w


def write(path, seed=SEED):
    return generate(seed).write(path)


def questions(path):
    from common import QuestionSet
    L = Log(path)
    Q = QuestionSet("warehouse")
    thu = "2025-03-06T08:00:00Z"

    # ---- where --------------------------------------------------------
    es = L.find("MoveTote", ok=True, tote="tote_42")
    e = es[-1]
    Q.words("where", "Which shelf did tote 42 end up on?", thu,
            [[e.args["to_loc"]]], e.t1, e.args["to_loc"],
            none=[es[0].args["to_loc"]])
    e = one(L.find("MoveTote", ok=True, day=MON, tote="tote_17"))
    Q.words("where", "Where did you put tote 17 on Monday?", thu,
            [[e.args["to_loc"]]], e.t1, e.args["to_loc"])
    e = one(L.find("MoveTote", ok=True, day=MON, tote="tote_8"))
    Q.words("where", "Where did tote 8 come from?", thu,
            [[e.args["from_loc"]]], e.t1, e.args["from_loc"])
    e = one(L.find("UnloadTruck", ok=True, day=TUE))
    Q.words("where", "At which dock did you unload the truck on Tuesday "
            "morning?", thu, [[e.args["dock"], "dock 2"]], e.t1,
            e.args["dock"])
    # the robot's place at a time of day
    t = day_span(TUE)[0] + 11 * 3600 + 32 * 60
    loc, when = L.where_at(t)
    Q.words("where", "Where were you at about 11:32 on Tuesday?", thu,
            [[loc]], when, loc)

    # ---- when ---------------------------------------------------------
    es = L.find("SwapBattery", ok=True)
    Q.time("when", "When was the battery last swapped?", thu, [es[-1].span])
    es = L.find("ScanBarcode", ok=True, code="pallet_21")
    Q.time("when", "What time did you scan pallet 21 for the first time?",
           thu, [es[0].span])
    e = one(L.find("PickOrder", ok=True, order="order 5541"))
    Q.time("when", "When did order 5541 finally get picked?", thu, [e.span])
    e = one(L.find("UnloadTruck", ok=True, day=MON))
    Q.time("when", "When did you start unloading truck 9?", thu, [e.span])

    # ---- day ----------------------------------------------------------
    es = L.find("CycleCount", ok=True, shelf="shelf B3")
    Q.day("day", "Which day did you do the stock count on shelf B3?", thu,
          [day_of(x.t0) for x in es], es[-1].t1)
    es = L.find("Restock", ok=True)
    Q.day("day", "On what day was bin C7-2 refilled?", thu,
          [day_of(x.t0) for x in es], es[-1].t1)

    # ---- who ----------------------------------------------------------
    (t, who, text) = one(L.said(day=MON, contains="empty tote"))
    Q.words("who", "Who asked you for an empty tote?", thu,
            [[who, last_name(who)]], t, who)
    (t, who, text) = one(L.said(day=TUE, contains="forklift",
                                not_speaker="robot"))
    Q.words("who", "Who was driving the forklift that blocked you on "
            "Tuesday?", thu, [[who, last_name(who)]], t, who)
    (t, who, text) = one(L.said(day=WED, contains="restock"))
    Q.words("who", "Who told you to restock the usb cables?", thu,
            [[who, last_name(who)]], t, who)

    # ---- say ----------------------------------------------------------
    (t, who, text) = one(L.said(speaker="Marta Kowalski", day=TUE))
    Q.words("say", "What did Marta say about order 5541?", thu,
            must_contain(text, ["wait"]) + [["restock", "tomorrow"]], t,
            text)
    (t, who, text) = one(L.said(speaker="robot", day=TUE, contains="empty"))
    Q.words("say", "What did you report when the bin was empty?", thu,
            must_contain(text, ["empty"]) + [["5541", "C7"]], t, text)
    (t, who, text) = one(L.said(speaker="Marta Kowalski", day=MON))
    Q.words("say", "What were your instructions on Monday morning?", thu,
            must_contain(text, ["unload"]) + [["truck", "dock"]], t, text)

    # ---- see ----------------------------------------------------------
    e = one(L.find("CycleCount", ok=True, day=MON))
    seen = sorted({o["type"] for o in e.last.get("objects") or []})
    Q.words("see", "What was on shelf C7 when you counted it?", thu,
            [[s, s + "s"] for s in seen], e.t1, ", ".join(seen),
            k=(len(seen) + 1) // 2)

    # ---- which --------------------------------------------------------
    e = one(L.find("PickOrder", ok=True, order="order 5532"))
    Q.words("which", "What item did you pick for order 5532?", thu,
            [[e.args["sku"], "hdmi"]], e.t1, e.args["sku"])
    es = L.find("ScanBarcode", ok=True)
    e = [x for x in es if x.t1 <= L.obs[-1]["_t"]][-1]
    Q.words("which", "What was the last thing you scanned?", thu,
            [[e.args["code"], e.args["code"].replace("_", " ")]], e.t1,
            e.args["code"])
    e = one(L.find("MoveTote", ok=True, day=MON, to_loc="packing station"))
    Q.words("which", "Which tote did you bring to the packing station on "
            "Monday?", thu, [[e.args["tote"], "tote 5", "5"]], e.t1,
            e.args["tote"])

    # ---- count --------------------------------------------------------
    es = L.find("MoveTote", ok=True, day=MON)
    Q.count("count", "How many totes did you move on Monday?", thu, len(es),
            es[-1].t1)
    es = L.find("PickOrder", ok=True)
    Q.count("count", "How many orders did you pick successfully?", thu,
            len(es), es[-1].t1)
    es = L.find("SwapBattery", ok=True, day=WED)
    Q.count("count", "How many times did you change your battery on "
            "Wednesday?", thu, len(es), es[-1].t1)
    es = L.find("ScanBarcode", day=TUE)
    Q.count("count", "How many barcodes did you scan on Tuesday?", thu,
            len(es), es[-1].t1)

    # ---- yes / no -----------------------------------------------------
    es = L.find("UnloadTruck", day=WED)
    Q.yesno("yesno", "Did you unload a truck on Wednesday?", thu, bool(es),
            L.find("UnloadTruck")[-1].t1)
    es = L.find("PickOrder", order="order 5541", day=TUE)
    Q.yesno("yesno", "Were you able to pick order 5541 on Tuesday?", thu,
            any(x.ok for x in es), es[-1].t1)
    es = L.find("CycleCount", ok=True, shelf="shelf C7")
    Q.yesno("yesno", "Did you count the stock on shelf C7?", thu, bool(es),
            es[-1].t1)

    # ---- failed -------------------------------------------------------
    fs = L.find(ok=False, day=TUE)
    Q.words("failed", "Did anything go wrong on Tuesday?", thu,
            [["tote", "move*", "forklift", "usb", "pick*", "order", "bin"]],
            fs[-1].t1, "; ".join("%s %s" % (x.name, x.args) for x in fs))
    fs = L.find(ok=False, day=WED)
    Q.words("failed", "What problems did you have on Wednesday?", thu,
            [["battery", "swap*", "chang*"]], fs[-1].t1,
            "; ".join("%s %s (%s)" % (x.name, x.args, x.last.get("note"))
                      for x in fs))
    return Q.items, L


if __name__ == "__main__":
    import sys
    print(write(sys.argv[1] if len(sys.argv) > 1 else "warehouse.jsonl"),
          "observations")
