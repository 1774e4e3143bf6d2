"""An off-domain history: a liquid-handling lab arm on a rail, Thursday
2025-09-18, Friday 2025-09-19 and (after a weekend off) Monday 2025-09-22.

It has a robot profile (lab-profile.json) and goal stacks named after the
protocol being run (["ELISA-12", "SpinDown"]).  Its own skills
(TransferLiquid, SpinDown, Incubate, ShuttlePlate, ReadPlate, ReadLabel,
SealPlate), keys (sample, src_plate, dst_plate, volume_ul, plate, unit,
rpm, temp_c, origin, station, reader, label) and speaker name "Ada".  The
ground truth is read back from the written lines (world.Log).
"""

import os

from common import QuestionSet, day_of, must_contain
from world import World, Log, one, last_name

PROFILE = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       "lab-profile.json")
SEED = 20250918
THU, FRI, MON = "2025-09-18", "2025-09-19", "2025-09-22"

PLACES = {
    "deck": [("rack_a", "tip rack"), ("tubes_a", "tube rack")],
    "centrifuge": [("rotor_1", "rotor")],
    "incubator": [("shelf_i1", "incubator shelf")],
    "plate reader": [("reader_1", "absorbance reader")],
    "sealer": [("sealer_1", "heat sealer")],
    "hotel": [("stack_1", "plate stack")],
}
PEOPLE = {"deck": []}


def generate(seed=SEED):
    w = World(seed, PLACES, PEOPLE, home="hotel", self_name="Ada",
              idle=1800)

    def pip(day, hhmm, sample, src, dst, vol, proto, **kw):
        w.task(day, hhmm, "TransferLiquid",
               {"sample": sample, "src_plate": src, "dst_plate": dst,
                "volume_ul": vol}, "deck", "deck",
               goal=[proto, "TransferLiquid"], minutes=(2, 4), persons=[],
               **kw)

    def spin(day, hhmm, plate, rpm, proto, **kw):
        w.task(day, hhmm, "SpinDown", {"plate": plate, "unit": "centrifuge",
                                       "rpm": rpm}, "deck", "centrifuge",
               goal=[proto, "SpinDown"], minutes=(5, 10), persons=[], **kw)

    def incubate(day, hhmm, plate, temp, proto, **kw):
        w.task(day, hhmm, "Incubate", {"plate": plate, "unit": "incubator",
                                       "temp_c": temp}, "deck", "incubator",
               goal=[proto, "Incubate"], minutes=(30, 45), persons=[], **kw)

    def shuttle(day, hhmm, plate, frm, to, proto, **kw):
        w.task(day, hhmm, "ShuttlePlate", {"plate": plate, "origin": frm,
                                           "station": to}, frm, to,
               goal=[proto, "ShuttlePlate"], minutes=(1, 2), persons=[],
               **kw)

    def read(day, hhmm, plate, proto, **kw):
        w.task(day, hhmm, "ReadPlate", {"plate": plate,
                                        "reader": "plate reader"},
               "deck", "plate reader", goal=[proto, "ReadPlate"],
               minutes=(3, 5), persons=[], **kw)

    def label(day, hhmm, what, proto, at="deck", **kw):
        w.task(day, hhmm, "ReadLabel", {"label": what}, at, at,
               goal=[proto, "ReadLabel"], minutes=(0, 1), persons=[], **kw)

    # ----- Thursday -----------------------------------------------------
    d = THU
    w.talk(d, "08:00", "deck", [
        ("Mei Lin", "Ada, please run the ELISA on plate P-101 with the serum "
                    "samples from patient cohort B."),
        ("Ada", "Starting ELISA on plate P-101.")], persons=["Mei Lin"])
    label(d, "08:05", "P-101", "ELISA-12")
    pip(d, "08:10", "serum", "tube rack", "P-101", 50, "ELISA-12")
    pip(d, "08:20", "antibody", "reagent trough", "P-101", 100, "ELISA-12")
    incubate(d, "08:30", "P-101", 37, "ELISA-12")
    read(d, "09:30", "P-101", "ELISA-12")
    label(d, "11:00", "P-102", "PCR-3")
    pip(d, "11:05", "master mix", "reagent trough", "P-102", 20, "PCR-3")
    spin(d, "11:20", "P-102", 1500, "PCR-3")
    w.talk(d, "12:30", "deck", [
        ("Oscar Diaz", "I am loading fresh tips in rack A, hold on a "
                       "minute."),
        ("Ada", "Waiting until you are done, Oscar.")],
        persons=["Oscar Diaz"])
    w.task(d, "14:00", "SealPlate", {"plate": "P-102"}, "deck", "sealer",
           goal=["PCR-3", "SealPlate"], minutes=(1, 2), persons=[])
    shuttle(d, "14:10", "P-102", "sealer", "hotel", "PCR-3")

    # ----- Friday -------------------------------------------------------
    d = FRI
    label(d, "08:00", "P-103", "ELISA-13")
    pip(d, "08:05", "plasma", "tube rack", "P-103", 50, "ELISA-13")
    spin(d, "08:20", "P-103", 3000, "ELISA-13", status="failed",
         note="the rotor was unbalanced",
         say_end=[("Ada", "The centrifuge reports an unbalanced rotor. "
                          "Please add a counterweight plate.")])
    w.talk(d, "08:40", "centrifuge", [
        ("Oscar Diaz", "I put a balance plate in position 3, try again."),
        ("Ada", "Thank you, spinning P-103 again.")],
        persons=["Oscar Diaz"])
    spin(d, "08:45", "P-103", 3000, "ELISA-13")
    incubate(d, "09:10", "P-103", 37, "ELISA-13")
    read(d, "10:10", "P-103", "ELISA-13")
    spin(d, "13:00", "P-104", 1000, "Wash-2")
    w.talk(d, "15:30", "deck", [
        ("Mei Lin", "Good work this week. Please keep plate P-103 in the "
                    "hotel over the weekend."),
        ("Ada", "Plate P-103 will stay in the hotel.")],
        persons=["Mei Lin"])
    shuttle(d, "15:35", "P-103", "plate reader", "hotel", "ELISA-13")

    # ----- Monday -------------------------------------------------------
    d = MON
    label(d, "09:00", "P-105", "PCR-4", status="failed",
          note="the barcode was smudged")
    label(d, "09:03", "P-105", "PCR-4")
    pip(d, "09:10", "master mix", "reagent trough", "P-105", 20, "PCR-4")
    spin(d, "09:30", "P-105", 1500, "PCR-4")
    incubate(d, "10:00", "P-105", 42, "PCR-4", status="aborted",
             note="the incubator door was open")
    w.talk(d, "10:05", "incubator", [
        ("Ada", "The incubator door is open, I stopped the incubation of "
                "P-105."),
        ("Priya Nair", "Sorry, that was me. It is closed now.")],
        persons=["Priya Nair"])
    incubate(d, "10:15", "P-105", 42, "PCR-4")
    w.task(d, "11:30", "SealPlate", {"plate": "P-105"}, "incubator",
           "sealer", goal=["PCR-4", "SealPlate"], minutes=(1, 2), persons=[])
    shuttle(d, "11:40", "P-105", "sealer", "hotel", "PCR-4")
    return w


def write(path, seed=SEED):
    return generate(seed).write(path)


def questions(path):
    L = Log(path)
    Q = QuestionSet("lab")
    tue = "2025-09-23T08:00:00Z"

    # ---- count --------------------------------------------------------
    es = L.find("SpinDown", ok=True)
    Q.count("count", "How many plates did you spin?", tue, len(es),
            es[-1].t1)
    es = L.find("SpinDown", ok=True, day=FRI)
    Q.count("count", "How many centrifuge runs finished on Friday?", tue,
            len(es), es[-1].t1)
    es = L.find("TransferLiquid", ok=True, day=THU)
    Q.count("count", "How many pipetting steps did you do on Thursday?",
            tue, len(es), es[-1].t1)
    es = L.find("Incubate", ok=True)
    Q.count("count", "How many times did you incubate a plate?", tue,
            len(es), es[-1].t1)

    # ---- when ---------------------------------------------------------
    es = L.find("ReadPlate", ok=True, plate="P-103")
    Q.time("when", "When did you read plate P-103?", tue, [es[-1].span])
    es = L.find("SealPlate", ok=True)
    Q.time("when", "When was the last plate sealed?", tue, [es[-1].span])
    es = L.find("SpinDown", ok=True, plate="P-103")
    Q.time("when", "At what time did P-103 finally get centrifuged?", tue,
           [es[-1].span])
    es = L.find("TransferLiquid", ok=True, sample="serum")
    Q.time("when", "When did you pipette the serum?", tue, [es[0].span])

    # ---- where --------------------------------------------------------
    e = one(L.find("ShuttlePlate", ok=True, day=FRI))
    Q.words("where", "Where did you leave plate P-103 for the weekend?",
            tue, [[e.args["station"]]], e.t1, e.args["station"])
    e = one(L.find("TransferLiquid", ok=True, sample="plasma"))
    Q.words("where", "Where did the plasma come from?", tue,
            [[e.args["src_plate"]]], e.t1, e.args["src_plate"])
    e = one(L.find("ShuttlePlate", ok=True, day=THU))
    Q.words("where", "Where did P-102 go after sealing?", tue,
            [[e.args["station"]]], e.t1, e.args["station"])

    # ---- day ----------------------------------------------------------
    es = L.find("SpinDown", ok=True, plate="P-104")
    Q.day("day", "Which day did you spin P-104?", tue,
          [day_of(x.t0) for x in es], es[-1].t1)
    es = L.find("Incubate", ok=True, temp_c=42)
    Q.day("day", "On which day did you run the 42 degree incubation?", tue,
          [day_of(x.t0) for x in es], es[-1].t1)

    # ---- who ----------------------------------------------------------
    (t, who, text) = one(L.said(contains="balance plate"))
    Q.words("who", "Who fixed the centrifuge balance for you?", tue,
            [[who, last_name(who), who.split()[0]]], t, who)
    (t, who, text) = one(L.said(contains="that was me"))
    Q.words("who", "Who left the incubator door open?", tue,
            [[who, last_name(who), who.split()[0]]], t, who)
    (t, who, text) = one(L.said(contains="ELISA", not_speaker="Ada"))
    Q.words("who", "Who asked you to run the ELISA on Thursday?", tue,
            [[who, last_name(who), who.split()[0]]], t, who)

    # ---- say ----------------------------------------------------------
    (t, who, text) = one(L.said(speaker="Mei Lin", day=FRI))
    Q.words("say", "What did Mei Lin say on Friday afternoon?", tue,
            must_contain(text, ["weekend"]) + [["P-103", "hotel"]], t, text)
    (t, who, text) = one(L.said(speaker="Ada", day=FRI, contains="rotor"))
    Q.words("say", "What did you tell them when the centrifuge complained?",
            tue, must_contain(text, ["unbalanced"]) +
            [["counterweight", "rotor"]], t, text)
    (t, who, text) = one(L.said(speaker="Oscar Diaz", day=THU))
    Q.words("say", "What did Oscar say on Thursday?", tue,
            must_contain(text, ["tips"]), t, text)

    # ---- which --------------------------------------------------------
    e = one(L.find("SpinDown", ok=True, day=THU))
    Q.words("which", "Which plate did you centrifuge on Thursday?", tue,
            [["P-102", "P 102", "102"]], e.t1, e.args["plate"])
    e = one(L.find("TransferLiquid", ok=True, day=MON))
    Q.words("which", "What did you pipette into P-105?", tue,
            [[e.args["sample"]]], e.t1, e.args["sample"])
    es = L.find("ReadLabel", ok=True)
    Q.words("which", "What was the last label you read?", tue,
            [[es[-1].args["label"]]], es[-1].t1, es[-1].args["label"])

    # ---- yes / no -----------------------------------------------------
    es = L.find("ReadPlate", day=MON)
    Q.yesno("yesno", "Did you read any plate on Monday?", tue, bool(es),
            L.find("ReadPlate")[-1].t1)
    es = L.find("SealPlate", ok=True, plate="P-105")
    Q.yesno("yesno", "Did P-105 get sealed?", tue, bool(es), es[-1].t1)
    es = L.find("Incubate", plate="P-105", day=MON)[:1]
    Q.yesno("yesno", "Did the first incubation of P-105 complete?", tue,
            any(x.ok for x in es), es[-1].t1)

    # ---- failed -------------------------------------------------------
    fs = L.find(ok=False, day=FRI)
    Q.words("failed", "What went wrong on Friday?", tue,
            [["spin*", "centrifug*", "rotor", "P-103"]], fs[-1].t1,
            "; ".join("%s %s (%s)" % (x.name, x.args, x.last.get("note"))
                      for x in fs))
    fs = L.find(ok=False, day=MON)
    Q.words("failed", "Which steps failed yesterday?", "2025-09-23T08:00:00Z",
            [["label", "scan*", "read*", "barcode"],
             ["incubat*"]], fs[-1].t1,
            "; ".join("%s %s" % (x.name, x.args) for x in fs), k=1)
    return Q.items, L


if __name__ == "__main__":
    import sys
    print(write(sys.argv[1] if len(sys.argv) > 1 else "lab.jsonl"),
          "observations")
