"""An off-domain history: an office delivery and telepresence robot,
Monday 2025-05-12 to Wednesday 2025-05-14.

No robot profile; goal stacks such as ["MailRun", "HandOverParcel"].  Its
own skills (CollectMail, HandOverParcel, DropOffLetters, AccompanyGuest,
HostCall, TakeElevator, ReturnHome) and keys (parcel, addressee, letters,
mailbox, guest, meeting_room, caller, floor as a number, target_floor),
its speaker name "Robot".  The ground truth is read back from the written
lines (world.Log).
"""

from common import QuestionSet, day_of, must_contain
from world import World, Log, one, last_name

SEED = 20250512
MON, TUE, WED = "2025-05-12", "2025-05-13", "2025-05-14"

PLACES = {
    "mail room": [("cart_1", "mail cart"), ("shelf_m", "parcel shelf")],
    "reception": [("desk_r", "reception desk"), ("sofa_r", "sofa")],
    "room 3.12": [("desk_312", "desk"), ("plant_312", "plant")],
    "room 2.05": [("desk_205", "desk"), ("printer_205", "printer")],
    "Everest meeting room": [("screen_e", "screen"), ("table_e", "table"),
                             ("whiteboard_e", "whiteboard")],
    "Kilimanjaro meeting room": [("table_k", "table"),
                                 ("phone_k", "speaker phone")],
    "kitchen": [("coffee_1", "coffee machine"), ("fridge_1", "fridge")],
    "dock": [],
}
PEOPLE = {"reception": ["Lena Vogt"], "room 3.12": ["Dana Whitfield"],
          "room 2.05": ["Raj Patel"], "mail room": ["Tom Becker"]}


def generate(seed=SEED):
    w = World(seed, PLACES, PEOPLE, home="dock", self_name="Robot",
              idle=1200, status_case=str.capitalize)

    def parcel(day, hhmm, what, who, floor, room, goal="MailRun", **kw):
        w.task(day, hhmm, "HandOverParcel",
               {"parcel": what, "addressee": who, "floor": floor,
                "room": room}, "mail room", room, goal=[goal,
                                                      "HandOverParcel"],
               via="corridor", **kw)

    def guest(day, hhmm, name, room, **kw):
        w.task(day, hhmm, "AccompanyGuest", {"guest": name,
                                             "meeting_room": room},
               "reception", room, goal=["Visitors", "AccompanyGuest"],
               persons=[name, "Lena Vogt"], **kw)

    # ----- Monday -------------------------------------------------------
    d = MON
    w.task(d, "08:30", "CollectMail", {"mailbox": "mail room"}, "dock",
           "mail room", goal=["MailRun", "CollectMail"])
    parcel(d, "08:45", "box from Acme", "Dana Whitfield", 3, "room 3.12",
           say_end=[("Robot", "Good morning Dana, a parcel from Acme for "
                              "you."),
                    ("Dana Whitfield", "Great, those are the new "
                                       "headphones.")])
    parcel(d, "09:10", "envelope from the bank", "Raj Patel", 2,
           "room 2.05")
    w.talk(d, "10:00", "reception", [
        ("Lena Vogt", "A guest, Mr. Hiroshi Tanaka, is here for the 10:30 "
                      "meeting. Please take him to Everest."),
        ("Robot", "Of course. Hello Mr. Tanaka, please follow me.")],
        persons=["Hiroshi Tanaka"])
    guest(d, "10:02", "Hiroshi Tanaka", "Everest meeting room")
    w.task(d, "11:00", "HostCall", {"caller": "Sofia Mendes",
                                    "meeting_room": "Kilimanjaro meeting "
                                    "room"},
           "Everest meeting room", "Kilimanjaro meeting room",
           goal=["Telepresence", "HostCall"], minutes=(25, 35),
           persons=["Raj Patel"])
    w.task(d, "14:00", "DropOffLetters", {"letters": 6, "floor": 2},
           "mail room", "room 2.05", goal=["MailRun", "DropOffLetters"])
    w.task(d, "17:30", "ReturnHome", {"dock": "dock"}, "room 2.05", "dock",
           goal=["ReturnHome"], persons=[])

    # ----- Tuesday ------------------------------------------------------
    d = TUE
    w.task(d, "08:30", "CollectMail", {"mailbox": "mail room"}, "dock",
           "mail room", goal=["MailRun", "CollectMail"])
    parcel(d, "08:50", "flowers", "Dana Whitfield", 3, "room 3.12",
           status="Failed", note="the elevator did not come",
           say_end=[("Robot", "The elevator to floor 3 is not coming. I "
                              "will try the delivery later.")])
    w.talk(d, "09:20", "mail room", [
        ("Tom Becker", "The elevator is fixed now, you can try floor 3 "
                       "again."),
        ("Robot", "Thanks Tom, I will go right away.")])
    parcel(d, "09:25", "flowers", "Dana Whitfield", 3, "room 3.12",
           say_end=[("Dana Whitfield", "Oh, flowers! Who are they from?"),
                    ("Robot", "The card says they are from Marco.")])
    guest(d, "11:00", "Amelia Brooks", "Kilimanjaro meeting room")
    w.talk(d, "13:30", "kitchen", [
        ("Raj Patel", "Can you remind me about the budget review at 4 "
                      "pm?"),
        ("Robot", "Sure, I will remind you at 3:50 pm.")])
    w.task(d, "15:50", "RemindPerson", {"person": "Raj Patel",
                                        "message": "budget review at 4 pm"},
           "kitchen", "room 2.05", goal=["Reminders", "RemindPerson"],
           say_end=[("Robot", "Raj, your budget review starts in ten "
                              "minutes.")])
    w.task(d, "17:40", "ReturnHome", {"dock": "dock"}, "room 2.05", "dock",
           goal=["ReturnHome"], persons=[])

    # ----- Wednesday ----------------------------------------------------
    d = WED
    w.task(d, "08:30", "CollectMail", {"mailbox": "mail room"}, "dock",
           "mail room", goal=["MailRun", "CollectMail"])
    parcel(d, "08:45", "laptop", "Raj Patel", 2, "room 2.05")
    w.task(d, "09:30", "DropOffLetters", {"letters": 4, "floor": 3},
           "mail room", "room 3.12", goal=["MailRun", "DropOffLetters"])
    guest(d, "10:30", "Hiroshi Tanaka", "Everest meeting room",
          status="Aborted", note="the guest went with a colleague instead")
    w.task(d, "13:00", "HostCall", {"caller": "Sofia Mendes",
                                    "meeting_room": "Everest meeting room"},
           "reception", "Everest meeting room",
           goal=["Telepresence", "HostCall"], minutes=(40, 50),
           persons=["Dana Whitfield", "Raj Patel"])
    parcel(d, "15:00", "toner cartridge", "Lena Vogt", 0, "reception",
           goal="Supplies")
    w.task(d, "17:20", "ReturnHome", {"dock": "dock"}, "reception", "dock",
           goal=["ReturnHome"], persons=[])
    return w


def write(path, seed=SEED):
    return generate(seed).write(path)


def questions(path):
    L = Log(path)
    Q = QuestionSet("office")
    thu = "2025-05-15T09:00:00Z"

    # ---- when ---------------------------------------------------------
    e = one(L.find("HandOverParcel", ok=True, day=MON,
                   addressee="Dana Whitfield"))
    Q.time("when", "What time did you drop off the parcel for Dana on "
           "Monday?", thu, [e.span])
    es = L.find("HandOverParcel", ok=True, parcel="flowers")
    Q.time("when", "When did the flowers finally reach Dana?", thu,
           [es[-1].span])
    es = L.find("HostCall", ok=True)
    Q.time("when", "When did you last host a video call?", thu,
           [es[-1].span])
    es = L.find("AccompanyGuest", ok=True, guest="Hiroshi Tanaka")
    Q.time("when", "When did you take Mr. Tanaka to his meeting?", thu,
           [x.span for x in es])

    # ---- where --------------------------------------------------------
    e = one(L.find("AccompanyGuest", ok=True, guest="Amelia Brooks"))
    Q.words("where", "Which meeting room did you bring Amelia Brooks to?",
            thu, [["Kilimanjaro"]], e.t1, e.args["meeting_room"])
    e = one(L.find("HandOverParcel", ok=True, parcel="laptop"))
    Q.words("where", "Where did the laptop go?", thu,
            [[e.args["room"]], ], e.t1, e.args["room"])
    e = one(L.find("DropOffLetters", ok=True, day=WED))
    Q.words("where", "To which floor did you bring the letters on "
            "Wednesday?", thu, [["3", "third", "three", "3.12"]], e.t1,
            "floor %s" % e.args["floor"])
    e = one(L.find("CollectMail", ok=True, day=TUE))
    Q.words("where", "Where did you pick up the mail on Tuesday?", thu,
            [[e.args["mailbox"]]], e.t1, e.args["mailbox"])

    # ---- day ----------------------------------------------------------
    es = L.find("RemindPerson", ok=True)
    Q.day("day", "Which day did you remind Raj about the budget review?",
          thu, [day_of(x.t0) for x in es], es[-1].t1)
    es = L.find("HandOverParcel", ok=True, parcel="toner cartridge")
    Q.day("day", "On which day did the toner cartridge arrive at "
          "reception?", thu, [day_of(x.t0) for x in es], es[-1].t1)

    # ---- who ----------------------------------------------------------
    e = one(L.find("HandOverParcel", ok=True, parcel="laptop"))
    Q.words("who", "Who got the laptop?", thu,
            [[e.args["addressee"], last_name(e.args["addressee"]),
              "Raj"]], e.t1, e.args["addressee"])
    (t, who, text) = one(L.said(day=MON, contains="Everest"))
    Q.words("who", "Who asked you to take a guest to Everest?", thu,
            [[who, last_name(who), who.split()[0]]], t, who)
    e = one(L.find("AccompanyGuest", ok=True, day=TUE))
    Q.words("who", "Who did you show to a meeting room on Tuesday?", thu,
            [[e.args["guest"], last_name(e.args["guest"])]], e.t1,
            e.args["guest"])
    e = one(L.find("HostCall", ok=True, day=WED))
    Q.words("who", "Who called in through you on Wednesday afternoon?",
            thu, [[e.args["caller"], last_name(e.args["caller"])]], e.t1,
            e.args["caller"])

    # ---- say ----------------------------------------------------------
    (t, who, text) = one(L.said(speaker="Tom Becker"))
    Q.words("say", "What did Tom tell you about the elevator?", thu,
            must_contain(text, ["fixed"]), t, text)
    (t, who, text) = one(L.said(speaker="Raj Patel"))
    Q.words("say", "What did Raj want you to remind him of?", thu,
            must_contain(text, ["budget review"]), t, text)
    (t, who, text) = one(L.said(speaker="Robot", contains="card"))
    Q.words("say", "Who did you say the flowers were from?", thu,
            must_contain(text, ["Marco"]), t, text)

    # ---- see ----------------------------------------------------------
    e = one(L.find("HostCall", ok=True, day=MON))
    seen = sorted({o["type"] for o in e.last.get("objects") or []})
    Q.words("see", "What was in the Kilimanjaro room during Monday's "
            "call?", thu, [[s] for s in seen], e.t1, ", ".join(seen),
            k=(len(seen) + 1) // 2)

    # ---- which --------------------------------------------------------
    e = one(L.find("HandOverParcel", ok=True, day=MON,
                   addressee="Raj Patel"))
    Q.words("which", "What did you deliver to Raj Patel on Monday?", thu,
            [["envelope"]], e.t1, e.args["parcel"])
    e = one(L.find("HandOverParcel", ok=True, addressee="Lena Vogt"))
    Q.words("which", "Which package went to reception?", thu,
            [["toner"]], e.t1, e.args["parcel"])

    # ---- count --------------------------------------------------------
    es = L.find("HandOverParcel", ok=True)
    Q.count("count", "How many parcels did you hand over this week?", thu,
            len(es), es[-1].t1)
    es = L.find("AccompanyGuest", ok=True)
    Q.count("count", "How many guests did you successfully escort?", thu,
            len(es), es[-1].t1)
    es = L.find("CollectMail", ok=True)
    Q.count("count", "How often did you collect the mail?", thu, len(es),
            es[-1].t1)

    # ---- yes / no -----------------------------------------------------
    es = L.find("AccompanyGuest", day=WED)
    Q.yesno("yesno", "Did you bring Hiroshi Tanaka to Everest on "
            "Wednesday?", thu, any(x.ok for x in es), es[-1].t1)
    es = L.find("HandOverParcel", ok=True, day=TUE, parcel="flowers")
    Q.yesno("yesno", "Did Dana get her flowers on Tuesday?", thu, bool(es),
            es[-1].t1)
    es = L.find("HostCall", ok=True, day=TUE)
    Q.yesno("yesno", "Did you host a call on Tuesday?", thu, bool(es),
            L.find("HostCall")[-1].t1)

    # ---- failed -------------------------------------------------------
    fs = L.find(ok=False, day=TUE)
    Q.words("failed", "Was there a problem on Tuesday?", thu,
            [["flowers", "parcel", "deliver*", "hand*", "elevator"]],
            fs[-1].t1, "; ".join("%s %s (%s)" % (x.name, x.args,
                                                 x.last.get("note"))
                                 for x in fs))
    fs = L.find(ok=False, day=WED)
    Q.words("failed", "What didn't work out on Wednesday?", thu,
            [["tanaka", "guest", "accompan*", "escort*", "everest"]],
            fs[-1].t1, "; ".join("%s %s" % (x.name, x.args) for x in fs))
    return Q.items, L


if __name__ == "__main__":
    import sys
    print(write(sys.argv[1] if len(sys.argv) > 1 else "office.jsonl"),
          "observations")
