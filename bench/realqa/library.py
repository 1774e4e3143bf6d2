"""Untuned (issue 19): a public library's shelving robot ("Dewey"),
Monday 2026-03-09 to Wednesday 2026-03-11.

An action list written with world.py (running and final observations,
statuses in lower case, goal stacks named after the shift's work,
`["MorningReturns", "ShelveBook"]`), with skills of its own
(`CollectReturns`, `ShelveBook`, `FetchBook`, `PlaceHold`, `PullHolds`,
`ScanRange`, `GuidePatron`, `StoryTime`, `Recharge`) and keys of its own
(`bin`, `books`, `book`, `call_no`, `shelf`, `floor`, `title`, `patron`,
`deliver_to`, `hold_shelf`, `expired`, `range`, `audience`, `dock`).
Between the actions: patrons and staff talking with it (who asked for
what, what the robot told them, a complaint), and free-text notes that
start with their subject ("Book drop jammed: ...", "Water dripping from
the ceiling ...", "Tomas replaced ..."), as a robot writes them in its
log.  The robot speaks as "Dewey"; no robot profile.

The truth is read back from the written lines (world.Log and the note
lines), never from the generator's variables.  The questions are a
librarian's and a patron's, written before h2emv was asked them; nobody
tuned on them (docs/realqa.md, "Untuned sources (round of issue 19)").
"""

import re

from common import grab, QuestionSet, Span, day_of, parse_time, must_contain
from world import World, Log, one

SEED = 20260309
MON, TUE, WED = "2026-03-09", "2026-03-10", "2026-03-11"
ROBOT = "Dewey"
PRIYA, TOMAS = "Priya Nair", "Tomas Berg"
HELEN, JONAS, AMARA, ERIK = ("Helen Park", "Jonas Weber", "Amara Obi",
                             "Erik Lindqvist")

PLACES = {
    "book drop": [("drop_1", "book drop"), ("cart_1", "returns cart")],
    "circulation desk": [("desk_c", "circulation desk"),
                         ("scanner_1", "barcode scanner")],
    "floor 2 stacks": [("shelf_a4", "shelf A4"), ("shelf_b7", "shelf B7"),
                       ("shelf_c14", "shelf C14")],
    "floor 3 stacks": [("shelf_d2", "shelf D2"), ("ladder_3",
                                                   "rolling ladder")],
    "hold shelf": [("hold_h3", "hold shelf H3")],
    "children's corner": [("rug_1", "reading rug"),
                          ("bin_k", "picture book bin"),
                          ("puppet_1", "hand puppet")],
    "study room 4": [("proj_4", "projector"), ("table_4", "study table"),
                     ("board_4", "whiteboard")],
    "periodicals": [("rack_p", "magazine rack")],
    "back office": [("desk_b", "sorting table")],
    "charging bay": [("dock_l", "charging dock")],
}
PEOPLE = {"circulation desk": [PRIYA]}


def generate(seed=SEED):
    w = World(seed, PLACES, PEOPLE, home="charging bay", self_name=ROBOT,
              idle=1200)

    def note(day, hhmm, where, text, persons=(), objects=None):
        t = w.start_at(day, hhmm)
        w.emit(t, location=where, note=text, persons=list(persons),
               objects=w.objects_in(where) if objects is None else objects)
        w.here = where

    def returns(day, hhmm, books, **kw):
        w.task(day, hhmm, "CollectReturns", {"bin": "book drop",
                                             "books": books},
               "book drop", "circulation desk",
               goal=["MorningReturns", "CollectReturns"],
               via="lobby", **kw)

    def shelve(day, hhmm, book, call_no, shelf, floor, where, **kw):
        w.task(day, hhmm, "ShelveBook", {"book": book, "call_no": call_no,
                                         "shelf": shelf, "floor": floor},
               "circulation desk", where,
               goal=["MorningReturns", "ShelveBook"], via="elevator",
               persons=[], **kw)

    def recharge(day, hhmm):
        w.task(day, hhmm, "Recharge", {"dock": "charging bay"}, w.here,
               "charging bay", persons=[], minutes=(1, 2))

    # ----- Monday -------------------------------------------------------
    d = MON
    returns(d, "08:40", 23)
    shelve(d, "09:10", "Dune", "PS3558.E63 D8", "B7", 2, "floor 2 stacks")
    shelve(d, "09:25", "A Brief History of Time", "QB981 .H377", "C14", 2,
           "floor 2 stacks", status="failed", note="shelf C14 was full")
    shelve(d, "09:40", "The Very Hungry Caterpillar", "E CAR",
           "picture book bin", 1, "children's corner")
    note(d, "10:05", "book drop", "Book drop jammed: a hardcover got stuck "
         "in the chute. Tomas cleared it.", persons=[TOMAS])
    w.talk(d, "11:00", "circulation desk", [
        (HELEN, "Do you have anything by Ursula Le Guin? I'd like to read "
                "The Dispossessed."),
        (ROBOT, "The Dispossessed is on floor 2, call number PS3562.E42 "
                "D5. I will bring it to the desk for you.")],
        persons=[PRIYA])
    w.task(d, "11:05", "FetchBook", {"title": "The Dispossessed",
                                     "call_no": "PS3562.E42 D5",
                                     "patron": HELEN,
                                     "deliver_to": "circulation desk"},
           "floor 2 stacks", "circulation desk",
           goal=["PatronRequest", "FetchBook"], via="elevator",
           persons=[HELEN, PRIYA])
    w.task(d, "13:30", "PlaceHold", {"title": "Braiding Sweetgrass",
                                     "patron": JONAS, "hold_shelf": "H3"},
           "circulation desk", "hold shelf",
           goal=["PatronRequest", "PlaceHold"], persons=[])
    w.task(d, "14:15", "ScanRange", {"range": "QA76-QA80", "floor": 3},
           "floor 3 stacks", "floor 3 stacks", goal=["Inventory",
                                                     "ScanRange"],
           minutes=(12, 18), persons=[])
    note(d, "14:40", "floor 3 stacks", "Range QA76-QA80: 4 books out of "
         "order, put them back in sequence.")
    w.task(d, "16:00", "GuidePatron", {"patron": AMARA,
                                       "to": "study room 4"},
           "circulation desk", "study room 4",
           goal=["PatronRequest", "GuidePatron"], persons=[AMARA])
    note(d, "16:20", "study room 4", "Study room 4 projector does not turn "
         "on; reported it to Priya.")
    w.talk(d, "18:00", "circulation desk", [
        (PRIYA, "Dewey, after six please switch to quiet mode, the chess "
                "club meets in the reading room tonight."),
        (ROBOT, "Quiet mode from six o'clock, understood.")])
    recharge(d, "20:30")

    # ----- Tuesday ------------------------------------------------------
    d = TUE
    returns(d, "08:30", 31)
    shelve(d, "09:00", "A Brief History of Time", "QB981 .H377", "C15", 2,
           "floor 2 stacks")
    shelve(d, "09:20", "Sapiens", "CB113 .H3", "A4", 2, "floor 2 stacks")
    w.talk(d, "10:00", "circulation desk", [
        (JONAS, "Hi, is my hold ready yet? Braiding Sweetgrass."),
        (ROBOT, "Yes, Braiding Sweetgrass is waiting for you on hold shelf "
                "H3 under your name.")], persons=[PRIYA])
    w.task(d, "10:30", "FetchBook", {"title": "The Art of Computer "
                                              "Programming",
                                     "call_no": "QA76.6 .K64",
                                     "patron": AMARA,
                                     "deliver_to": "study room 4"},
           "floor 3 stacks", "study room 4",
           goal=["PatronRequest", "FetchBook"], via="elevator",
           status="failed", persons=[],
           note="not on the shelf at QA76.6; marked it missing in the "
                "catalogue")
    note(d, "11:15", "floor 3 stacks", "Water dripping from the ceiling "
         "above shelf D2; moved 6 books to cart 2 and told Tomas.",
         persons=[TOMAS])
    returns(d, "13:00", 9, status="aborted",
            note="the book drop chute was blocked")
    note(d, "13:45", "book drop", "Book drop chute blocked by a broken "
         "umbrella; Tomas pulled it out.", persons=[TOMAS])
    returns(d, "14:00", 9)
    w.task(d, "15:00", "StoryTime", {"book": "Where the Wild Things Are",
                                     "audience": 12},
           "children's corner", "children's corner",
           goal=["Events", "StoryTime"], minutes=(20, 25), persons=[])
    w.talk(d, "16:30", "circulation desk", [
        (ERIK, "I want to complain: the printer on the ground floor has "
               "been eating my pages all week."),
        (ROBOT, "I am sorry about that, Mr Lindqvist. I will tell the "
                "librarian about the printer.")], persons=[PRIYA])
    recharge(d, "20:00")

    # ----- Wednesday ----------------------------------------------------
    d = WED
    returns(d, "08:30", 17)
    shelve(d, "09:00", "Dune Messiah", "PS3558.E63 D82", "B7", 2,
           "floor 2 stacks")
    w.talk(d, "09:40", "circulation desk", [
        (PRIYA, "Dewey, please pull the expired holds from shelf H3 and "
                "take them to the back office."),
        (ROBOT, "Will do, pulling the expired holds from H3.")])
    w.task(d, "09:50", "PullHolds", {"hold_shelf": "H3", "expired": 5},
           "hold shelf", "back office", goal=["Holds", "PullHolds"],
           persons=[])
    w.task(d, "11:00", "FetchBook", {"title": "The Art of Computer "
                                              "Programming",
                                     "call_no": "QA76.6 .K64",
                                     "patron": AMARA,
                                     "deliver_to": "study room 4"},
           "circulation desk", "study room 4",
           goal=["PatronRequest", "FetchBook"], via="elevator",
           persons=[AMARA],
           say_end=[(AMARA, "You found it! Someone had left it in the "
                            "returns.")])
    w.task(d, "13:00", "GuidePatron", {"patron": HELEN,
                                       "to": "periodicals"},
           "circulation desk", "periodicals",
           goal=["PatronRequest", "GuidePatron"], persons=[HELEN])
    note(d, "14:30", "study room 4", "Tomas replaced the projector bulb in "
         "study room 4; it works again.", persons=[TOMAS])
    shelve(d, "17:50", "Moby-Dick", "PS2384 .M6", "B2", 2,
           "floor 2 stacks", status="aborted",
           note="the library closed; left it on the returns cart")
    recharge(d, "20:00")
    return w


def write(path, seed=SEED):
    return generate(seed).write(path)


class Notes:
    """The note lines that are not an action's (the robot's log entries)."""

    def __init__(self, log):
        self.lines = [o for o in log.obs if o.get("note") and
                      not o.get("action")]

    def find(self, start=None, contains=None, day=None):
        out = []
        for o in self.lines:
            if start and not o["note"].startswith(start):
                continue
            if contains and contains.lower() not in o["note"].lower():
                continue
            if day and day_of(o["_t"]) != day:
                continue
            out.append(o)
        return out



def questions(path):
    L = Log(path)
    N = Notes(L)
    Q = QuestionSet("library")
    thu = "2026-03-12T08:30:00Z"      # Thursday morning
    wed_pm = "2026-03-11T21:00:00Z"   # Wednesday night

    def at_note(o):
        return Span(o["_t"], o["_t"], o["note"][:30])

    # ---- when ---------------------------------------------------------
    e = one(L.find("ShelveBook", ok=True, book="Dune Messiah"))
    Q.time("when", "When did you put Dune Messiah back on the shelf?", thu,
           [e.span])
    o = one(N.find("Book drop jammed", day=MON))
    Q.time("when", "What time did the book drop jam on Monday?", thu,
           [at_note(o)])
    e = one(L.find("FetchBook", ok=True, patron=HELEN))
    Q.time("when", "When did you bring Helen Park her book?", thu, [e.span])
    es = L.find("CollectReturns", day=TUE)
    Q.time("when", "When did you first empty the book drop on Tuesday?",
           thu, [es[0].span])
    es = L.find("FetchBook", ok=True, patron=AMARA)
    Q.time("when", "when did amara finally get her programming book", thu,
           [es[-1].span])

    # ---- where --------------------------------------------------------
    e = one(L.find("ShelveBook", ok=True, book="Dune"))
    Q.words("where", "Which shelf did you put Dune on?", thu,
            [[e.args["shelf"], "shelf " + e.args["shelf"]]], e.t1,
            e.args["shelf"])
    es = L.find("ShelveBook", ok=True, book="A Brief History of Time")
    Q.words("where", "Where did you end up shelving A Brief History of "
            "Time?", thu, [[es[-1].args["shelf"]]], es[-1].t1,
            es[-1].args["shelf"], none=["C14"])
    e = one(L.find("ShelveBook", ok=True, book="Sapiens"))
    Q.words("where", "Which floor is Sapiens on?", thu,
            [["floor %d" % e.args["floor"], "second floor", "2nd floor"]],
            e.t1, "floor %d" % e.args["floor"])
    e = one(L.find("GuidePatron", ok=True, patron=AMARA))
    Q.words("where", "Where did you take Amara Obi on Monday?", thu,
            [[e.args["to"]]], e.t1, e.args["to"])
    o = one(N.find("Water dripping"))
    Q.words("where", "Where did you move the wet books to?", thu,
            [[grab(r"to (cart \d+)", o["note"])]], o["_t"],
            grab(r"to (cart \d+)", o["note"]))
    e = one(L.find("PullHolds", ok=True))
    Q.words("where", "Where did you bring the expired holds?", thu,
            [[e.last["location"]]], e.t1, e.last["location"])

    # ---- day ----------------------------------------------------------
    e = one(L.find("PlaceHold", ok=True, patron=JONAS))
    Q.day("day", "What day did you put Jonas's book on hold?", thu,
          [day_of(e.t0)], e.t1)
    e = one(L.find("StoryTime", ok=True))
    Q.day("day", "Which day was story time?", thu, [day_of(e.t0)], e.t1)
    o = one(N.find("Water dripping"))
    Q.day("day", "On what day was the leak above shelf D2?", thu,
          [day_of(o["_t"])], o["_t"])

    # ---- who ----------------------------------------------------------
    o = one(N.find("Book drop jammed", day=MON))
    who = grab(r"(\w+) cleared it", o["note"])
    Q.words("who", "Who cleared the jammed book drop on Monday?", thu,
            [[who, TOMAS]], o["_t"], who)
    e = one(L.find("FetchBook", ok=True, title="The Dispossessed"))
    Q.words("who", "Who did you fetch The Dispossessed for?", thu,
            [[e.args["patron"], "Helen", "Park"]], e.t1, e.args["patron"])
    (tt, who, text) = one(L.said(contains="quiet mode", not_speaker=ROBOT))
    Q.words("who", "Who asked you to switch to quiet mode?", thu,
            [[who, "Priya", "Nair", "librarian"]], tt, who)
    (tt, who, text) = one(L.said(contains="complain"))
    Q.words("who", "Who complained about the printer?", thu,
            [[who, "Lindqvist", "Erik"]], tt, who)
    e = one(L.find("PlaceHold", ok=True, hold_shelf="H3"))
    Q.words("who", "Whose hold did you put on shelf H3?", thu,
            [[e.args["patron"], "Jonas", "Weber"]], e.t1, e.args["patron"])

    # ---- say ----------------------------------------------------------
    (tt, who, text) = one(L.said(speaker=ERIK))
    Q.words("say", "What did Mr Lindqvist complain about?", thu,
            must_contain(text, ["printer"]) + [["pages", "eating"]], tt,
            text, k=1)
    (tt, who, text) = one(L.said(speaker=ROBOT, contains="hold shelf"))
    Q.words("say", "What did you tell Jonas when he asked about his hold?",
            thu, must_contain(text, ["H3"]) + [["waiting", "hold shelf",
                                                "yes"]], tt, text, k=1)
    (tt, who, text) = one(L.said(speaker=PRIYA, day=WED))
    Q.words("say", "What did Priya ask you to do on Wednesday morning?",
            thu, must_contain(text, ["expired holds"]) +
            [["back office", "H3", "pull*"]], tt, text)
    (tt, who, text) = one(L.said(speaker=HELEN))
    Q.words("say", "What did Helen Park ask for?", thu,
            [["Dispossessed", "Le Guin"]], tt, text)

    # ---- see ----------------------------------------------------------
    e = one(L.find("GuidePatron", ok=True, patron=AMARA))
    seen = sorted({o["type"] for o in e.last.get("objects") or []})
    Q.words("see", "What did you see in study room 4 when you brought Amara "
            "there?", thu, [[c] for c in seen], e.t1, ", ".join(seen),
            k=(len(seen) + 1) // 2)

    # ---- which --------------------------------------------------------
    e = one(L.find("FetchBook", ok=False))
    Q.words("which", "Which book couldn't you find for Amara on Tuesday?",
            thu, [[e.args["title"], "computer programming"]], e.t1,
            e.args["title"])
    e = one(L.find("FetchBook", ok=True, title="The Dispossessed"))
    Q.words("which", "What's the call number of The Dispossessed?", thu,
            [[e.args["call_no"], e.args["call_no"].split()[0]]], e.t1,
            e.args["call_no"])
    e = one(L.find("StoryTime", ok=True))
    Q.words("which", "Which book did you read at story time?", thu,
            [[e.args["book"], "wild things"]], e.t1, e.args["book"])
    e = one(L.find("ScanRange", ok=True, floor=3))
    Q.words("which", "Which range did you scan on floor 3?", thu,
            [[e.args["range"], e.args["range"].split("-")[0]]], e.t1,
            e.args["range"])
    o = one(N.find("Book drop chute blocked"))
    Q.words("which", "What did Tomas pull out of the book drop chute?", thu,
            [["umbrella"]], o["_t"], grab(r"by (a [\w ]+);", o["note"]))

    # ---- count --------------------------------------------------------
    es = L.find("CollectReturns", ok=True, day=TUE)
    Q.count("count", "How many books did you collect from the book drop on "
            "Tuesday?", thu, sum(x.args["books"] for x in es), es[-1].t1)
    es = L.find("ShelveBook", ok=True, day=MON)
    Q.count("count", "How many books did you shelve on Monday?", thu,
            len(es), es[-1].t1)
    e = one(L.find("StoryTime", ok=True))
    Q.count("count", "How many kids came to story time?", thu,
            e.args["audience"], e.t1)
    es = L.find("CollectReturns", ok=True)
    Q.count("count", "How many times did you empty the book drop this "
            "week?", wed_pm, len(es), es[-1].t1)
    o = one(N.find("Range QA76-QA80"))
    Q.count("count", "How many books were out of order in QA76-QA80?", thu,
            int(grab(r"(\d+) books out of order", o["note"])), o["_t"])
    e = one(L.find("PullHolds", ok=True))
    Q.count("count", "How many expired holds did you pull?", thu,
            e.args["expired"], e.t1)

    # ---- yes / no -----------------------------------------------------
    es = L.find("FetchBook", ok=True, patron=AMARA,
                title="The Art of Computer Programming")
    Q.yesno("yesno", "Did you manage to get Amara The Art of Computer "
            "Programming in the end?", thu, bool(es), es[-1].t1)
    es = L.find("ShelveBook", ok=True, floor=3)
    Q.yesno("yesno", "Did you shelve anything on floor 3?", thu, bool(es),
            None)
    es = N.find("Tomas replaced the projector")
    Q.yesno("yesno", "Was the projector in study room 4 fixed?", thu,
            bool(es), es[-1]["_t"])
    es = L.find("GuidePatron", ok=True, to="periodicals")
    Q.yesno("yesno", "Did you show anyone the way to the periodicals?", thu,
            bool(es), es[-1].t1)

    # ---- failed -------------------------------------------------------
    e = one(L.find("ShelveBook", ok=False, day=MON))
    Q.words("failed", "Why couldn't you shelve A Brief History of Time on "
            "Monday?", thu, [["full"]], e.t1, e.last.get("note"))
    e = one(L.find("CollectReturns", ok=False, day=TUE))
    Q.words("failed", "Why did you stop emptying the book drop on Tuesday "
            "afternoon?", thu, [["blocked", "chute", "umbrella"]], e.t1,
            e.last.get("note"))
    e = one([x for x in L.occ if x.status == "aborted" and
             day_of(x.t0) == WED])
    Q.words("failed", "What didn't you finish on Wednesday?", thu,
            [[e.args["book"], "moby"]], e.t1,
            "%s %s (%s)" % (e.name, e.args["book"], e.last.get("note")))
    o = one(N.find("Study room 4 projector"))
    Q.words("failed", "What was wrong with the projector?", thu,
            [["turn on", "does not", "doesnt", "not working"]], o["_t"],
            o["note"])
    es = [x for x in L.occ if not x.ok and day_of(x.t0) == TUE]
    ns = N.find(day=TUE)
    Q.words("failed", "Any problems on Tuesday?", thu,
            [["missing", "not on the shelf", "computer programming",
              "blocked", "umbrella", "chute", "water", "leak*",
              "dripping"]], max(es[-1].t1, ns[-1]["_t"]),
            "; ".join(["%s (%s)" % (x.name, x.last.get("note")) for x in es] +
                      [o["note"] for o in ns]))
    return Q.items, L


if __name__ == "__main__":
    import sys
    print(write(sys.argv[1] if len(sys.argv) > 1 else "library.jsonl"),
          "observations")
