"""Fresh and untuned (written 2026-11-27, fourth fresh round): "Bruno", the
grape harvester of the Domaine des Trois Chenes, Tuesday 2026-09-15 to
Thursday 2026-09-17, UTC.

A history in a shape of its own: times as INTEGER microseconds since the
epoch, every action on ONE line from `t` to `t_end` (the line is written
when the action ends); actions as objects whose names and keys are
snake_case (`harvest_row {row_id, variety, block, bins_filled, weight_kg}`,
`sample_brix {row_id, brix}`, `unload_bins {bins, trailer, to}`,
`scout_rows {rows, finding}`, `go_charge {station}`), the status in lower
case and a failure's reason inside the action's own args (`error`); dialog
one utterance a line with speakers known by FIRST name only ("Claire",
"Jonas") while the people present are listed by full name; objects seen in
the rows (boar damage, a bird net) with a state; weather and first-aid notes
that start with their subject.  No robot profile.

The truth is read back from the written lines (`Rows`), never from the
generator's variables.  The questions are the winemaker's and the vineyard
manager's, written before h2emv was asked them; nobody tuned on them
(docs/realqa.md, "A fourth fresh untuned source pair (vineyard, sitewalk),
2026-11-27").
"""

import datetime as _dt
import json
import random

from common import QuestionSet, Span, day_of, grab, must_contain, one, \
    parse_time

SEED = 20260915
TUE, WED, THU = "2026-09-15", "2026-09-16", "2026-09-17"
ROBOT = "Bruno"
CLAIRE, JONAS, MATEO = "Claire Dubois", "Jonas Weber", "Mateo Ruiz"
LUCIA, PEDRO, HANNAH = "Lucia Ferrer", "Pedro Alves", "Hannah Berg"
NADIA = "Nadia Okafor"


def us(day, hhmm):
    return int(parse_time("%sT%s:00Z" % (day, hhmm))) * 1000000


class Writer:
    def __init__(self, seed=SEED):
        self.rng = random.Random(seed)
        self.lines = []
        self.clock = 0
        self.here = "machine shed"

    def at(self, day, hhmm):
        t = us(day, hhmm) + self.rng.randint(0, 50) * 1000000
        t = max(t, self.clock + 5000000)
        # a position line every 30 minutes while the robot waits, the
        # same day only (it is switched off overnight)
        s = self.clock + 1800000000
        while self.clock and s < t - 120000000 and \
                day_of(s / 1e6) == day_of(self.clock / 1e6):
            self.line(s, location=self.here)
            s += 1800000000
        return t

    def line(self, t, **f):
        ln = {"t": t}
        ln.update({k: v for k, v in f.items() if v not in (None, [], "")})
        self.lines.append(ln)
        self.clock = max(self.clock, ln.get("t_end", t))

    def act(self, day, hhmm, name, args, where, minutes, status="succeeded",
            persons=(), seen=()):
        t = self.at(day, hhmm)
        t1 = t + (60 * minutes + self.rng.randint(0, 59)) * 1000000
        self.line(t, t_end=t1, location=where,
                  action={"name": name, "args": dict(args),
                          "status": status},
                  persons=list(persons), objects=[dict(o) for o in seen])
        self.here = where

    def say(self, day, hhmm, speaker, text, persons=(), where=None):
        where = where or self.here
        self.line(self.at(day, hhmm), location=where, persons=list(persons),
                  speech={"speaker": speaker, "text": text})
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


def generate(seed=SEED):
    w = Writer(seed)
    B = ROBOT
    crew_a = [MATEO, LUCIA]
    crew_b = [MATEO, LUCIA, NADIA]
    crew_c = [MATEO, NADIA]

    def row(day, hhmm, rid, variety, block, bins, kg, minutes=45,
            status="succeeded", error=None, crew=crew_a, seen=()):
        args = {"row_id": rid, "variety": variety, "block": block,
                "bins_filled": bins, "weight_kg": kg}
        if error:
            args["error"] = error
        w.act(day, hhmm, "harvest_row", args, "row %s" % rid[1:], minutes,
              status, crew, seen)

    def brix(day, hhmm, rid, value):
        w.act(day, hhmm, "sample_brix", {"row_id": rid, "brix": value},
              "row %s" % rid[1:], 3)

    def unload(day, hhmm, bins, trailer):
        w.act(day, hhmm, "unload_bins", {"bins": bins, "trailer": trailer,
                                         "to": "press house"},
              "loading bay", 12, persons=[JONAS])

    def charge(day, hhmm):
        w.act(day, hhmm, "go_charge", {"station": "shed charger"},
              "machine shed", 40)

    # ----- Tuesday -------------------------------------------------------
    d = TUE
    w.note(d, "06:30", "Dew heavy in the lower block; harvest start pushed "
                       "to 07:15.", "machine shed")
    row(d, "07:15", "R12", "merlot", "lower block", 6, 1450, 48)
    brix(d, "08:10", "R12", 23.4)
    row(d, "08:30", "R13", "merlot", "lower block", 5, 1210, 44)
    w.say(d, "09:25", JONAS.split()[0], "Bruno, trailer T2 is full, I'm "
          "taking it to the press house now.", [JONAS], "loading bay")
    unload(d, "09:30", 11, "T2")
    w.say(d, "10:00", CLAIRE.split()[0], "Keep the merlot from row 13 "
          "separate, it goes into the reserve tank.", [CLAIRE])
    w.say(d, "10:01", B, "Understood, row 13 merlot goes to the reserve "
          "tank.", [CLAIRE])
    row(d, "10:20", "R14", "merlot", "lower block", 1, 180, 9, "failed",
        "picking head jammed by a trellis wire")
    w.note(d, "10:50", "Trellis wire on post 22 of row 14 re-tied by Mateo "
                       "Ruiz; picking head cleared.", "row 14", [MATEO])
    row(d, "11:10", "R14", "merlot", "lower block", 4, 960, 38)
    brix(d, "12:00", "R14", 22.8)
    charge(d, "14:00")

    # ----- Wednesday -----------------------------------------------------
    d = WED
    w.note(d, "06:45", "Rain overnight, 4 mm in the gauge; leaves still "
                       "wet.", "machine shed")
    row(d, "07:30", "R21", "chardonnay", "upper block", 7, 1630, 50,
        crew=crew_b)
    row(d, "08:40", "R22", "chardonnay", "upper block", 3, 700, 21,
        "aborted", "wild boar damage, half the row trampled", crew=crew_b,
        seen=[{"id": "vines_r22_b", "type": "damaged vines",
               "state": "trampled"},
              {"id": "net_r22", "type": "bird net", "state": "torn"}])
    w.say(d, "09:05", "Hannah", "Can my tour group take photos of the "
          "robot while it picks?", [HANNAH], "row 22")
    w.say(d, "09:06", B, "Yes, please stay two metres behind the picking "
          "head.", [HANNAH])
    unload(d, "09:30", 10, "T1")
    brix(d, "10:10", "R21", 21.9)
    w.say(d, "11:00", CLAIRE.split()[0], "The chardonnay at 21.9 is too "
          "low, skip rows 23 and 24 until next week.", [CLAIRE], "row 21")
    w.say(d, "11:01", B, "Rows 23 and 24 are off the plan until next week.",
          [CLAIRE])
    w.act(d, "13:00", "scout_rows", {"rows": ["R30", "R31"],
                                     "finding": "downy mildew on 3 vines"},
          "row 30", 35)
    w.note(d, "15:00", "Lucia Ferrer cut her hand on a sorting tray; first "
                       "aid by Jonas Weber, she went home at 15:20.",
           "loading bay", [LUCIA, JONAS])
    charge(d, "15:40")

    # ----- Thursday ------------------------------------------------------
    d = THU
    w.note(d, "06:40", "Dry morning, 11 C, no dew.", "machine shed")
    row(d, "07:00", "R15", "merlot", "lower block", 6, 1380, 46,
        crew=crew_c)
    row(d, "08:00", "R16", "merlot", "lower block", 0, 0, 4, "failed",
        "hydraulic pressure low, oil leaking at the left shaker arm",
        crew=crew_c)
    w.say(d, "08:30", "Pedro", "The hose on the left shaker arm is cracked, "
          "I need two hours to change it.", [PEDRO], "row 16")
    w.note(d, "10:40", "Hose on the left shaker arm replaced by Pedro Alves; "
                       "pressure back to 180 bar.", "row 16", [PEDRO])
    row(d, "11:00", "R16", "merlot", "lower block", 5, 1150, 41,
        crew=crew_c)
    unload(d, "12:00", 11, "T2")
    brix(d, "12:30", "R16", 24.1)
    w.say(d, "13:00", CLAIRE.split()[0], "Good, 24.1 on row 16. Tomorrow "
          "we start the syrah on the hill.", [CLAIRE], "row 16")
    charge(d, "14:00")
    return w


def write(path, seed=SEED):
    return generate(seed).write(path)


# ---------------------------------------------------------------------------
# The truth, read back from the lines

class Act:
    def __init__(self, o):
        a = o["action"]
        self.line = o
        self.name = a["name"]
        self.args = a.get("args") or {}
        self.status = a.get("status", "")
        self.ok = self.status == "succeeded"
        self.t0 = o["t"] / 1e6
        self.t1 = o.get("t_end", o["t"]) / 1e6
        self.error = self.args.get("error", "")

    @property
    def span(self):
        return Span(self.t0, self.t1, self.name)


class Rows:
    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            self.obs = [json.loads(x) for x in f if x.strip()]
        for o in self.obs:
            o["_t"] = o["t"] / 1e6
        self.acts_ = [Act(o) for o in self.obs if o.get("action")]
        self.notes = [o for o in self.obs if o.get("note")]
        self.speech = [(o["_t"], o["speech"]["speaker"], o["speech"]["text"])
                       for o in self.obs if o.get("speech")]

    def acts(self, name=None, ok=None, day=None, **args):
        return [a for a in self.acts_
                if (not name or a.name == name) and
                (ok is None or a.ok == ok) and
                (not day or day_of(a.t0) == day) and
                all(a.args.get(k) == v for k, v in args.items())]

    def note(self, contains, day=None):
        return [o for o in self.notes if contains.lower() in
                o["note"].lower() and (not day or day_of(o["_t"]) == day)]

    def said(self, speaker=None, contains=None, day=None):
        return [(t, s, x) for t, s, x in self.speech
                if (not speaker or s == speaker) and
                (not day or day_of(t) == day) and
                (not contains or contains.lower() in x.lower())]

    def present(self, name, day):
        return any(name in (o.get("persons") or []) for o in self.obs
                   if day_of(o["_t"]) == day)


def rowname(rid):
    """'R12' -> the spellings that name it."""
    return [rid.lower(), "row " + rid[1:], "row" + rid[1:]]


def names(who):
    return [who, who.split()[0], who.split()[-1]]


def questions(path):
    H = Rows(path)
    Q = QuestionSet("vineyard")
    fri = "2026-09-18T06:30:00Z"      # Friday morning, before the syrah

    # ---- when -----------------------------------------------------------
    e = one(H.acts("harvest_row", row_id="R12"))
    Q.time("when", "When did you finish row 12?", fri,
           [Span(e.t1, e.t1, "end of R12")])
    e = one(H.acts("harvest_row", ok=False, row_id="R14"))
    Q.time("when", "When did the picking head jam?", fri, [e.span])
    e = H.acts("unload_bins")[-1]
    Q.time("when", "When did Jonas last take the bins to the press?", fri,
           [e.span])
    e = one([a for a in H.acts("harvest_row", ok=False) if
             "hydraulic" in a.error])
    Q.time("when", "When did the hydraulics give out?", fri, [e.span])

    # ---- where ----------------------------------------------------------
    es = H.acts("unload_bins")
    Q.words("where", "Where did the full bins go?", fri,
            [[es[0].args["to"]]], es[0].t1, es[0].args["to"])
    o = one([o for o in H.obs if any(b["type"] == "damaged vines"
                                     for b in o.get("objects") or [])])
    Q.words("where", "Where did you see the boar damage?", fri,
            [[o["location"], "r22"]], o["_t"], o["location"])
    e = one(H.acts("scout_rows"))
    Q.words("where", "Where did you find downy mildew?", fri,
            [rowname(r) for r in e.args["rows"]], e.t1,
            ", ".join(e.args["rows"]), k=1)
    o = one(H.note("cut her hand"))
    Q.words("where", "Where was Lucia when she got hurt?", fri,
            [[o["location"], "sorting tray"]], o["_t"], o["location"])

    # ---- day ------------------------------------------------------------
    es = H.acts("harvest_row", variety="chardonnay")
    Q.day("day", "Which day did you pick the chardonnay?", fri,
          [day_of(x.t0) for x in es], es[-1].t1)
    o = one(H.note("Rain"))
    Q.day("day", "What day did we have rain?", fri, [day_of(o["_t"])],
          o["_t"])
    o = one(H.note("cut her hand"))
    Q.day("day", "On what day did Lucia cut her hand?", fri,
          [day_of(o["_t"])], o["_t"])

    # ---- who ------------------------------------------------------------
    o = one(H.note("Trellis wire"))
    who = grab(r"re-tied by (\w+ \w+)", o["note"])
    Q.words("who", "Who fixed the trellis wire?", fri, [names(who)],
            o["_t"], who)
    e = H.acts("unload_bins")[0]
    who = one(e.line["persons"])
    Q.words("who", "Who drove the trailer?", fri, [names(who)], e.t1, who)
    o = one(H.note("first aid"))
    who = grab(r"first aid by (\w+ \w+)", o["note"])
    Q.words("who", "Who gave Lucia first aid?", fri, [names(who)], o["_t"],
            who)
    o = one(H.note("Hose on the left"))
    who = grab(r"replaced by (\w+ \w+)", o["note"])
    Q.words("who", "Who replaced the hose?", fri, [names(who)], o["_t"],
            who)
    t, s, x = one(H.said(contains="photos"))
    Q.words("who", "Who asked if they could take photos?", fri,
            [names(HANNAH)], t, "%s (%s)" % (s, HANNAH))
    t, s, x = one(H.said(contains="reserve tank", speaker="Claire"))
    Q.words("who", "Who wanted row 13 kept apart?", fri, [names(CLAIRE)], t,
            "%s (%s)" % (s, CLAIRE))

    # ---- say ------------------------------------------------------------
    t, s, x = one(H.said(speaker="Claire", contains="row 13"))
    Q.words("say", "What did Claire say about row 13?", fri,
            must_contain(x, ["reserve tank"]), t, x)
    t, s, x = one(H.said(speaker="Pedro"))
    Q.words("say", "What did the mechanic say?", fri,
            must_contain(x, ["hose"]) + [["cracked", "two hours"]], t, x)
    t, s, x = one(H.said(speaker=ROBOT, contains="metres"))
    Q.words("say", "What did you tell the tour guide?", fri,
            must_contain(x, ["two metres"]), t, x)
    t, s, x = one(H.said(speaker="Claire", contains="chardonnay"))
    Q.words("say", "What did Claire say about the chardonnay?", fri,
            [["too low", "21.9"], ["skip", "23", "24"]], t, x)
    t, s, x = H.said(speaker="Claire", day=THU)[-1]
    Q.words("say", "What did Claire tell you yesterday?", fri,
            must_contain(x, ["syrah"]) + [["hill", "tomorrow", "24.1"]], t,
            x)

    # ---- which ----------------------------------------------------------
    es = H.acts("harvest_row", ok=True, day=TUE)
    rows = sorted({x.args["row_id"] for x in es})
    Q.words("which", "Which rows did you harvest on Tuesday?", fri,
            [rowname(r) for r in rows], es[-1].t1, ", ".join(rows))
    es = H.acts("harvest_row")
    vs = sorted({x.args["variety"] for x in es if x.args["weight_kg"]})
    Q.words("which", "Which grapes did we pick this week?", fri,
            [[v] for v in vs], es[-1].t1, ", ".join(vs))
    es = H.acts("sample_brix")
    top = max(es, key=lambda x: x.args["brix"])
    Q.words("which", "Which row had the sweetest grapes?", fri,
            [rowname(top.args["row_id"])], es[-1].t1,
            "%s (%.1f brix)" % (top.args["row_id"], top.args["brix"]))
    t, s, x = one(H.said(speaker="Claire", contains="skip"))
    Q.words("which", "Which rows are we supposed to skip?", fri,
            [["23"], ["24"]], t, x)
    e = H.acts("unload_bins", day=WED)[0]
    Q.words("which", "Which trailer did Jonas use on Wednesday?", fri,
            [[e.args["trailer"]]], e.t1, e.args["trailer"])
    e = H.acts("harvest_row", day=WED)[0]
    Q.words("which", "Which row did you start with on Wednesday?", fri,
            [rowname(e.args["row_id"])], e.t1, e.args["row_id"])
    e = H.acts("harvest_row", ok=True)[-1]
    Q.words("which", "What was the last row you harvested?", fri,
            [rowname(e.args["row_id"])], e.t1, e.args["row_id"])

    # ---- count ----------------------------------------------------------
    es = H.acts("harvest_row", variety="merlot")
    Q.count("count", "How many kilos of merlot did you pick in total?", fri,
            sum(x.args["weight_kg"] for x in es), es[-1].t1,
            "%d kg (%s)" % (sum(x.args["weight_kg"] for x in es),
                            " + ".join(str(x.args["weight_kg"]) for x in es)))
    es = H.acts("unload_bins")
    Q.count("count", "How many bins did you unload altogether?", fri,
            sum(x.args["bins"] for x in es), es[-1].t1)
    es = H.acts("sample_brix")
    Q.count("count", "How many times did you measure the sugar?", fri,
            len(es), es[-1].t1)
    es = H.acts("harvest_row", ok=True, day=THU)
    Q.count("count", "How many rows did you finish on Thursday?", fri,
            len({x.args["row_id"] for x in es}), es[-1].t1)
    es = H.acts("harvest_row", ok=False)
    es = [x for x in es if x.status == "failed"]
    Q.count("count", "How many times did the harvester break down?", fri,
            len(es), es[-1].t1)
    es = H.acts("harvest_row", day=WED)
    Q.count("count", "How many kilos did you bring in on Wednesday?", fri,
            sum(x.args["weight_kg"] for x in es), es[-1].t1)
    o = one(H.note("Rain"))
    mm = grab(r"(\d+) mm", o["note"])
    Q.words("count", "How much rain fell?", fri, [[mm + " mm"]], o["_t"],
            mm + " mm")
    e = one(H.acts("sample_brix", row_id="R21"))
    Q.words("count", "What was the sugar reading on row 21?", fri,
            [["%.1f" % e.args["brix"]]], e.t1, "%.1f" % e.args["brix"])

    # ---- yes / no -------------------------------------------------------
    es = H.acts("harvest_row", row_id="R23")
    Q.yesno("yesno", "Did you pick row 23?", fri, bool(es), None)
    last = max(t for t, s, x in H.speech) if H.speech else None
    back = H.present(LUCIA, THU)
    o = one(H.note("cut her hand"))
    Q.yesno("yesno", "Did Lucia come back to work after she cut her hand?",
            fri, back, o["_t"])
    os_ = H.note("replaced")
    Q.yesno("yesno", "Was the hydraulic hose fixed?", fri, bool(os_),
            os_[-1]["_t"] if os_ else None)
    es = H.acts("harvest_row", ok=True, row_id="R22")
    Q.yesno("yesno", "Did you finish row 22?", fri, bool(es), last)

    # ---- failed ---------------------------------------------------------
    e = one([a for a in H.acts("harvest_row") if a.status == "aborted"])
    Q.words("failed", "Why did you stop on row 22?", fri,
            [["boar"], ["trampled", "damage"]], e.t1, e.error, k=1)
    e = one(H.acts("harvest_row", ok=False, row_id="R14"))
    Q.words("failed", "Why did row 14 go wrong the first time?", fri,
            [["jam*"], ["wire", "trellis", "picking head"]], e.t1, e.error)
    e = one(H.acts("harvest_row", ok=False, day=THU))
    # asked on Thursday after the robot's last line: the bench keeps a
    # snapshot every 200 lines, so a question asked in the middle of this
    # short history would find none (the first run asked it at 09:00)
    end = max(o.get("t_end", o["t"]) for o in H.obs) / 1e6 + 1800
    assert day_of(end) == THU
    Q.words("failed", "What went wrong this morning?",
            _dt.datetime.fromtimestamp(end, _dt.timezone.utc).isoformat(),
            [["hydraulic*", "oil", "pressure"]], e.t1, e.error)
    Q.words("failed", "What broke down yesterday?", fri,
            [["hydraulic*", "oil", "hose", "shaker"]], e.t1, e.error)
    return Q.items, H


if __name__ == "__main__":
    import sys
    print(write(sys.argv[1] if len(sys.argv) > 1 else "vineyard.jsonl"),
          "observations")
