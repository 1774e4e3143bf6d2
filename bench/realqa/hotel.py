"""Held out, untuned: a hotel and restaurant service robot ("Otto") at a
lakeside hotel, Thursday 2025-08-14 to Saturday 2025-08-16.

An action-list log: each action's running observations and its final one
(statuses capitalised, "Succeeded"), goal stacks named after the service
(`["DinnerService", "ServeDish"]`), skills of its own (`CarryLuggage`,
`DeliverRoomService`, `ServeDish`, `BusTable`, `SetTable`, `RefillMinibar`,
`ReplaceTowels`, `EscortGuest`, `ReturnLostItem`, `Recharge`) with keys of
its own (`guest`, `bags`, `to_room`, `order`, `room`, `dish`, `table`,
`covers`, `items`, `towels`, `to`, `item`, `found_in`, `owner`, `station`),
the receptionist, the chef and guests talking with it, and the robot
speaking as "Otto" with no profile saying so.

The truth is read back from the written lines (world.Log), never from the
generator's variables.  The questions were written before h2emv was asked
them, in the words of a hotel manager or a guest; nobody tuned on them
(docs/realqa.md, "Held out, untuned").
"""

from common import QuestionSet, day_of, must_contain
from world import World, Log, one

SEED = 20250814
THU, FRI, SAT = "2025-08-14", "2025-08-15", "2025-08-16"
ROBOT = "Otto"

PLACES = {
    "lobby": [("desk_1", "reception desk"), ("cart_1", "luggage cart"),
              ("bell_1", "service bell")],
    "kitchen pass": [("pass_1", "heat lamp"), ("tray_1", "tray")],
    "restaurant": [("t2", "table 2"), ("t4", "table 4"), ("t7", "table 7"),
                   ("t9", "table 9"), ("bar_1", "bar counter")],
    "room 204": [("bed_204", "bed"), ("minibar_204", "minibar")],
    "room 311": [("bed_311", "bed"), ("desk_311", "writing desk")],
    "room 115": [("bed_115", "bed"), ("crib_115", "baby crib")],
    "laundry": [("shelf_l", "linen shelf"), ("washer_l", "washing machine")],
    "spa": [("lounger_s", "lounger")],
    "pool": [("umbrella_p", "parasol")],
    "service corridor": [("dock_1", "charging dock")],
}
PEOPLE = {"lobby": ["Marta Kowalski"], "kitchen pass": ["Bruno Ferrari"]}
MARTA, BRUNO = "Marta Kowalski", "Bruno Ferrari"
SATO, OLSEN, OKOYE = "Haruto Sato", "Ingrid Olsen", "Chukwudi Okoye"
DUBOIS = "Claire Dubois"


def generate(seed=SEED):
    w = World(seed, PLACES, PEOPLE, home="service corridor", self_name=ROBOT,
              idle=900, status_case=str.capitalize)

    def dish(day, hhmm, what, table, goal, **kw):
        w.task(day, hhmm, "ServeDish", {"dish": what, "table": table},
               "kitchen pass", "restaurant", goal=[goal, "ServeDish"],
               via="restaurant", minutes=(1, 3), **kw)

    def room_service(day, hhmm, order, room, guest, **kw):
        w.task(day, hhmm, "DeliverRoomService",
               {"order": order, "room": room, "guest": guest},
               "kitchen pass", room, goal=["BreakfastService",
                                           "DeliverRoomService"],
               via="service elevator", persons=[guest], **kw)

    def recharge(day, hhmm):
        w.task(day, hhmm, "Recharge", {"station": "charging dock"},
               w.here, "service corridor", minutes=(1, 2), persons=[])

    # ----- Thursday -----------------------------------------------------
    d = THU
    room_service(d, "08:10", "continental breakfast", "room 204", OLSEN)
    w.task(d, "09:30", "ReplaceTowels", {"room": "room 311", "towels": 4},
           "laundry", "room 311", goal=["Housekeeping", "ReplaceTowels"],
           via="service elevator")
    w.task(d, "11:00", "CarryLuggage", {"guest": SATO, "bags": 2,
                                        "to_room": "room 311"},
           "lobby", "room 311", goal=["CheckIn", "CarryLuggage"],
           via="service elevator", persons=[SATO, MARTA],
           say_start=[(MARTA, "Otto, please bring Mr. Sato's two suitcases "
                              "up to 311.")])
    dish(d, "12:30", "mushroom risotto", "table 7", "LunchService")
    w.task(d, "13:15", "BusTable", {"table": "table 7"}, "restaurant",
           "restaurant", goal=["LunchService", "BusTable"], persons=[])
    w.task(d, "15:00", "RefillMinibar", {"room": "room 204",
                                         "items": "sparkling water and "
                                                  "peanuts"},
           "kitchen pass", "room 204", goal=["Housekeeping",
                                             "RefillMinibar"],
           status="Failed", note="the minibar door was jammed",
           via="service elevator", persons=[])
    w.talk(d, "16:20", "lobby", [
        (SATO, "Could you recommend a good place for sushi nearby?"),
        (ROBOT, "Sakura on Hafenstrasse is a five minute walk from here.")],
        persons=[MARTA])
    dish(d, "19:00", "grilled sea bass", "table 4", "DinnerService",
         persons=[OLSEN])
    dish(d, "19:40", "chocolate tart", "table 4", "DinnerService",
         persons=[OLSEN])
    recharge(d, "21:30")

    # ----- Friday -------------------------------------------------------
    d = FRI
    room_service(d, "07:50", "pancakes and coffee", "room 311", SATO)
    w.task(d, "09:00", "CarryLuggage", {"guest": "Dubois family", "bags": 5,
                                        "to_room": "room 115"},
           "lobby", "room 115", goal=["CheckIn", "CarryLuggage"],
           status="Aborted", note="the service elevator was out of order",
           via="service elevator", persons=[DUBOIS, MARTA])
    w.task(d, "09:40", "CarryLuggage", {"guest": "Dubois family", "bags": 5,
                                        "to_room": "room 115"},
           "lobby", "room 115", goal=["CheckIn", "CarryLuggage"],
           via="guest elevator", persons=[DUBOIS])
    w.task(d, "10:30", "EscortGuest", {"guest": OLSEN, "to": "spa"},
           "lobby", "spa", goal=["Concierge", "EscortGuest"],
           via="garden path", persons=[OLSEN])
    w.talk(d, "11:45", "lobby", [
        (MARTA, "The lady in room 115 lost a blue scarf, keep an eye out "
                "for it."),
        (ROBOT, "Understood, I will look out for a blue scarf.")])
    dish(d, "12:40", "caesar salad", "table 2", "LunchService",
         persons=[DUBOIS])
    w.task(d, "14:00", "ReplaceTowels", {"room": "room 115", "towels": 6},
           "laundry", "room 115", goal=["Housekeeping", "ReplaceTowels"],
           via="service elevator")
    w.task(d, "14:30", "ReturnLostItem", {"item": "blue scarf",
                                          "found_in": "restaurant",
                                          "owner": DUBOIS},
           "restaurant", "room 115", goal=["Concierge", "ReturnLostItem"],
           via="service elevator", persons=[DUBOIS],
           say_end=[(DUBOIS, "Oh thank you, that scarf was a gift from my "
                             "mother!")])
    w.task(d, "18:30", "SetTable", {"table": "table 9", "covers": 6},
           "restaurant", "restaurant", goal=["DinnerService", "SetTable"],
           persons=[])
    dish(d, "19:15", "beef wellington", "table 9", "DinnerService",
         status="Failed", note="a guest stepped into the aisle and the "
                               "tray tipped over", persons=[OKOYE])
    dish(d, "19:30", "beef wellington", "table 9", "DinnerService",
         persons=[OKOYE])
    w.talk(d, "20:10", "restaurant", [
        (OKOYE, "Compliments to the chef, the wellington was excellent."),
        (ROBOT, "Thank you, I will tell Chef Bruno.")])
    recharge(d, "21:40")

    # ----- Saturday -----------------------------------------------------
    d = SAT
    room_service(d, "08:00", "eggs benedict", "room 204", OLSEN)
    w.task(d, "09:15", "BusTable", {"table": "table 2"}, "restaurant",
           "restaurant", goal=["BreakfastService", "BusTable"], persons=[])
    w.task(d, "10:00", "CarryLuggage", {"guest": SATO, "bags": 2,
                                        "to_room": "lobby"},
           "room 311", "lobby", goal=["CheckOut", "CarryLuggage"],
           via="service elevator", persons=[SATO])
    w.talk(d, "10:15", "lobby", [
        (SATO, "Thank you Otto, could you call me a taxi to the airport?"),
        (ROBOT, "Of course, your taxi will be here in ten minutes.")],
        persons=[MARTA])
    w.task(d, "11:30", "RefillMinibar", {"room": "room 204",
                                         "items": "sparkling water and "
                                                  "peanuts"},
           "kitchen pass", "room 204", goal=["Housekeeping",
                                             "RefillMinibar"],
           via="service elevator", persons=[])
    dish(d, "13:00", "mushroom risotto", "table 7", "LunchService")
    w.task(d, "15:00", "EscortGuest", {"guest": "Dubois family",
                                       "to": "pool"},
           "lobby", "pool", goal=["Concierge", "EscortGuest"],
           via="garden path", persons=[DUBOIS])
    w.talk(d, "17:30", "kitchen pass", [
        (BRUNO, "Tonight the guest at table 4 has a nut allergy, keep "
                "peanuts away from that table."),
        (ROBOT, "Noted, no peanuts near table 4.")])
    dish(d, "19:00", "grilled sea bass", "table 4", "DinnerService",
         persons=[OLSEN])
    recharge(d, "21:00")
    return w


def write(path, seed=SEED):
    return generate(seed).write(path)


def questions(path):
    L = Log(path)
    Q = QuestionSet("hotel")
    sun = "2025-08-17T08:30:00Z"      # Sunday morning
    sat_pm = "2025-08-16T22:30:00Z"   # Saturday night

    # ---- when ---------------------------------------------------------
    e = one(L.find("CarryLuggage", ok=True, day=THU, guest=SATO))
    Q.time("when", "What time did you take Mr Sato's bags up when he "
           "checked in?", sun, [e.span])
    es = L.find("DeliverRoomService", ok=True, room="room 204")
    Q.time("when", "When was the last time you brought breakfast up to "
           "204?", sun, [es[-1].span])
    es = L.find("CarryLuggage", ok=True, guest="Dubois family")
    Q.time("when", "when did the Dubois familys luggage finally get to "
           "their room?", sun, [es[-1].span])
    es = L.find("ReturnLostItem", ok=True)
    Q.time("when", "At what time did you give the scarf back?", sun,
           [es[-1].span])
    es = L.find("BusTable", day=SAT)
    Q.time("when", "When did you clear table 2 this morning?", sat_pm,
           [x.span for x in es])

    # ---- where --------------------------------------------------------
    e = one(L.find("EscortGuest", ok=True, guest=OLSEN))
    Q.words("where", "Where did you walk Mrs Olsen to?", sun,
            [[e.args["to"]]], e.t1, e.args["to"])
    e = one(L.find("ReturnLostItem", ok=True))
    Q.words("where", "Where had the blue scarf turned up?", sun,
            [[e.args["found_in"]]], e.t1, e.args["found_in"])
    e = one(L.find("EscortGuest", ok=True, day=SAT))
    Q.words("where", "Where did you take the Dubois kids and their mum "
            "on Saturday afternoon?", sun, [[e.args["to"], "swimming"]],
            e.t1, e.args["to"])
    e = one(L.find("CarryLuggage", ok=True, day=SAT))
    Q.words("where", "Where did you bring Mr Sato's suitcases when he "
            "left?", sun, [[e.args["to_room"], "reception"]], e.t1,
            e.args["to_room"])
    e = one(L.find("DeliverRoomService", ok=True, day=FRI))
    Q.words("where", "Which room got pancakes on Friday?", sun,
            [[e.args["room"], "311"]], e.t1, e.args["room"])

    # ---- day ----------------------------------------------------------
    es = L.find("SetTable", ok=True, table="table 9")
    Q.day("day", "What day did you set table 9 for six?", sun,
          [day_of(x.t0) for x in es], es[-1].t1)
    es = [x for x in L.find("RefillMinibar") if x.ok]
    Q.day("day", "On which day did you finally manage to restock the "
          "minibar in 204?", sun, [day_of(x.t0) for x in es], es[-1].t1)

    # ---- who ----------------------------------------------------------
    (tt, who, text) = one(L.said(contains="suitcases"))
    Q.words("who", "Who asked you to carry Mr Sato's luggage up?", sun,
            [[who, "Marta", "Kowalski", "reception*"]], tt, who)
    e = one(L.find("ReturnLostItem", ok=True))
    Q.words("who", "Whose scarf was it?", sun,
            [[e.args["owner"], "Dubois", "Claire"]], e.t1, e.args["owner"])
    e = one(L.find("DeliverRoomService", ok=True, day=SAT))
    Q.words("who", "Who did you bring eggs benedict to?", sun,
            [[e.args["guest"], "Olsen", "Ingrid"]], e.t1, e.args["guest"])
    (tt, who, text) = one(L.said(contains="sushi"))
    Q.words("who", "Which guest wanted to know about sushi?", sun,
            [[who, "Sato", "Haruto"]], tt, who)

    # ---- say ----------------------------------------------------------
    (tt, who, text) = one(L.said(speaker=BRUNO))
    Q.words("say", "What did the chef tell you before dinner on "
            "Saturday?", sun, must_contain(text, ["allergy"]) +
            [["table 4", "peanut*", "nut"]], tt, text)
    (tt, who, text) = one(L.said(speaker=OKOYE))
    Q.words("say", "what did mr okoye say about the wellington?", sun,
            [["excellent", "compliments"]], tt, text)
    (tt, who, text) = one(L.said(speaker=ROBOT, contains="sushi") or
                          L.said(speaker=ROBOT, contains="Sakura"))
    Q.words("say", "Where did you tell Mr. Sato to go for sushi?", sun,
            must_contain(text, ["Sakura"]), tt, text)
    (tt, who, text) = one(L.said(speaker=MARTA, contains="scarf"))
    Q.words("say", "What did Marta ask you to look out for on Friday?", sun,
            must_contain(text, ["scarf"]), tt, text)

    # ---- see ----------------------------------------------------------
    e = one(L.find("CarryLuggage", ok=True, day=FRI))
    seen = sorted({o["type"] for o in e.last.get("objects") or []})
    Q.words("see", "What was in room 115 when you dropped off the bags?",
            sun, [[c] for c in seen], e.t1, ", ".join(seen),
            k=(len(seen) + 1) // 2)

    # ---- which --------------------------------------------------------
    es = L.find("ServeDish", ok=True, day=THU, table="table 4")
    Q.words("which", "What did table 4 have on Thursday night?", sun,
            [[x.args["dish"]] for x in es], es[-1].t1,
            ", ".join(x.args["dish"] for x in es))
    e = one(L.find("ServeDish", ok=True, day=FRI, table="table 2"))
    Q.words("which", "what did u serve at table two for lunch on friday",
            sun, [[e.args["dish"], "caesar", "salad"]], e.t1,
            e.args["dish"])
    e = one(L.find("DeliverRoomService", ok=True, day=THU))
    Q.words("which", "What did Mrs Olsen order for breakfast on "
            "Thursday?", sun, [[e.args["order"], "continental"]], e.t1,
            e.args["order"])
    e = one(L.find("RefillMinibar", ok=True))
    Q.words("which", "What did you put in the minibar?", sun,
            [["sparkling water", "water"], ["peanut*"]], e.t1,
            e.args["items"])

    # ---- count --------------------------------------------------------
    es = L.find("ServeDish", ok=True)
    Q.count("count", "How many dishes did you serve over the three days?",
            sun, len(es), es[-1].t1)
    es = L.find("DeliverRoomService", ok=True)
    Q.count("count", "How many room service orders did you deliver?", sun,
            len(es), es[-1].t1)
    e = one(L.find("CarryLuggage", ok=True, day=FRI))
    Q.count("count", "How many bags did the Dubois family have?", sun,
            e.args["bags"], e.t1)
    es = L.find("ReplaceTowels", ok=True)
    Q.count("count", "How many times did you bring fresh towels?", sun,
            len(es), es[-1].t1)

    # ---- yes / no -----------------------------------------------------
    es = L.find("ServeDish", day=SAT, table="table 4")
    Q.yesno("yesno", "Did you serve table 4 this evening?", sat_pm,
            any(x.ok for x in es), es[-1].t1)
    es = L.find("ReturnLostItem", ok=True)
    Q.yesno("yesno", "did you ever find that blue scarf?", sun, bool(es),
            es[-1].t1)
    es = L.find("EscortGuest", guest=OKOYE)
    Q.yesno("yesno", "Did you ever escort Mr Okoye anywhere?", sun,
            bool(es), None)
    es = L.find("ServeDish", day=FRI, dish="mushroom risotto")
    Q.yesno("yesno", "Was the risotto served on Friday?", sun, bool(es),
            None)

    # ---- failed -------------------------------------------------------
    es = L.find("ServeDish", ok=False)
    Q.words("failed", "What happened with the beef wellington on Friday?",
            sun, [["tipped", "tray", "aisle"]], es[-1].t1,
            "; ".join(x.last.get("note", "") for x in es))
    es = L.find("CarryLuggage", ok=False)
    Q.words("failed", "Why couldn't you bring the Dubois luggage up the "
            "first time?", sun, [["elevator", "out of order"]], es[-1].t1,
            "; ".join(x.last.get("note", "") for x in es))
    es = [x for x in L.occ if not x.ok and day_of(x.t0) == THU]
    Q.words("failed", "Any problems on thursday?", sun,
            [["minibar", "jammed"]], es[-1].t1,
            "; ".join("%s (%s)" % (x.name, x.last.get("note")) for x in es))
    # the step right after a moment
    e = one(L.find("SetTable", ok=True))
    nxt = [x for x in L.occ if x.t0 > e.t1][0]
    Q.words("which", "What did you do right after setting table 9?", sun,
            [["serve*", "wellington", "beef"]], nxt.t1,
            "%s %s (%s)" % (nxt.name, nxt.args, nxt.status))
    return Q.items, L


if __name__ == "__main__":
    import sys
    print(write(sys.argv[1] if len(sys.argv) > 1 else "hotel.jsonl"),
          "observations")
