"""Fresh and untuned (written 2026-11-28, twelfth fresh round): "ROLLI-4",
an autonomous wheelchair of the passengers-with-reduced-mobility (PRM)
service at Vienna airport, Tuesday 2026-11-24 to Thursday 2026-11-26,
local time (+01:00).

A history in a shape of its own: `t` and `t_end` with a SPACE for the
separator, whole seconds and a +01:00 offset ("2026-11-24 07:05:12+01:00";
every line falls between 06:00 and 20:59 local, so the local and the UTC
day agree); each job ONE line with `t_end`, its action in the SHORT STRING
FORM a planner prints (`"Escort(SSR-1104, check-in 14, gate C35)"`,
`"CollectPassenger(SSR-1112, 'Mr Ahmed Saleh', gate D61)"`), so the
arguments are an array of strings with no keys; statuses written
"complete", "failed" and "interrupted"; the goal a DOTTED string of the
service and the special service request (`"PRM.SSR-1104"`); persons as
`{name, id}` with the id a ROLE ("passenger", "gate agent", "PRM
supervisor", "technician", "companion"); dialog as an ARRAY of utterances
in one line, the robot as "Rolli"; the reason of a failure, handovers and
what happened in free `note` sentences; the chair's own battery and things
found on the seat as objects with a state object.  No robot profile.

The truth is read back from the written lines (`Shift`), never from the
generator's variables.  The questions are the PRM supervisor's, the gate
agents' and the passengers', written before h2emv was asked them; nobody
tuned on them (docs/realqa.md, "A twelfth fresh untuned source pair
(prmchair, sortline), 2026-11-28").
"""

import datetime as _dt
import json
import re

from common import QuestionSet, Span, day_of, must_contain, one, \
    parse_time, variants

TUE, WED, THU = "2026-11-24", "2026-11-25", "2026-11-26"
CET = _dt.timezone(_dt.timedelta(hours=1))
PETRA = {"name": "Petra Huber", "id": "gate agent"}
JONAS = {"name": "Jonas Gruber", "id": "PRM agent"}
MARTINA = {"name": "Martina Wolf", "id": "PRM supervisor"}
STEFAN = {"name": "Stefan Koller", "id": "technician"}


def pax(name):
    return {"name": name, "id": "passenger"}


def stamp(t):
    return _dt.datetime.fromtimestamp(t, CET).strftime(
        "%Y-%m-%d %H:%M:%S+01:00")


class Writer:
    def __init__(self):
        self.lines = []
        self.sec = 7

    def at(self, day, hhmm):
        self.sec = (self.sec * 31 + 11) % 59
        return int(parse_time("%sT%s:00+01:00" % (day, hhmm))) + self.sec

    def put(self, t, **f):
        ln = {"t": stamp(t)}
        for k, v in f.items():
            if v not in (None, [], ""):
                ln[k] = stamp(v) if k == "t_end" else v
        self.lines.append((t, ln))

    def job(self, day, hhmm, action, minutes, status="complete", where=None,
            goal=None, persons=(), speech=None, note=None, objects=()):
        t = self.at(day, hhmm)
        # the string action has no status of its own: it rides in
        # goal_status
        self.put(t, t_end=t + int(minutes * 60) + 13, action=action,
                 goal_status=status, location=where, goal=goal,
                 persons=list(persons), speech=speech, note=note,
                 objects=list(objects))

    def talk(self, day, hhmm, where, persons, *pairs):
        self.put(self.at(day, hhmm), location=where, persons=list(persons),
                 speech=[{"speaker": s, "text": x} for s, x in pairs])

    def note(self, day, hhmm, where, text, persons=(), objects=()):
        self.put(self.at(day, hhmm), location=where, note=text,
                 persons=list(persons), objects=list(objects))

    def write(self, path):
        with open(path, "w", encoding="utf-8") as f:
            for t, ln in sorted(self.lines, key=lambda x: x[0]):
                f.write(json.dumps(ln, ensure_ascii=False) + "\n")
        return len(self.lines)


def battery(pct):
    return [{"id": "ROLLI-4", "type": "wheelchair",
             "state": {"battery_pct": pct}}]


def generate():
    w = Writer()
    d = TUE
    w.job(d, "06:40", "Undock(bay W3)", 1, where="PRM lounge, bay W3")
    w.job(d, "07:05", "CollectPassenger(SSR-1104, 'Mrs Ingrid Bauer', "
          "check-in 14)", 6, where="check-in hall 1", goal="PRM.SSR-1104",
          persons=[pax("Ingrid Bauer")])
    w.job(d, "07:12", "Escort(SSR-1104, check-in 14, gate C35)", 19,
          where="gate C35", goal="PRM.SSR-1104",
          persons=[pax("Ingrid Bauer")],
          speech=[{"speaker": "Ingrid Bauer", "text": "My daughter has my "
                   "boarding pass on her phone, she is meeting me at the "
                   "gate."},
                  {"speaker": "Rolli", "text": "No problem, Mrs Bauer, we "
                   "will find her at C35."}])
    w.note(d, "07:33", "gate C35", "Handed Mrs Bauer over to gate agent "
           "Petra Huber at C35, flight OS 455 to London, boarding 07:50.",
           persons=[pax("Ingrid Bauer"), PETRA])
    w.job(d, "08:20", "Escort(SSR-1107, gate F11, baggage belt 7)", 12,
          where="baggage claim", goal="PRM.SSR-1107",
          persons=[pax("Tomasz Nowak")],
          speech=[{"speaker": "Tomasz Nowak", "text": "Can you wait while "
                   "I pick up my suitcase? It is a blue hard case."},
                  {"speaker": "Rolli", "text": "Of course, I will wait with "
                   "you at belt 7."}])
    w.note(d, "08:51", "baggage claim", "The blue suitcase of Mr Nowak came "
           "off belt 7 after 18 minutes.", persons=[pax("Tomasz Nowak")])
    w.job(d, "08:53", "Escort(SSR-1107, baggage belt 7, taxi rank)", 9,
          where="taxi rank", goal="PRM.SSR-1107",
          persons=[pax("Tomasz Nowak")])
    w.job(d, "10:10", "CollectPassenger(SSR-1112, 'Mr Ahmed Saleh', "
          "gate D61)", 14, status="failed", where="gate D61",
          goal="PRM.SSR-1112", persons=[PETRA],
          note="Passenger not at D61: the gate agent says he already left "
          "with his family on foot.")
    w.job(d, "11:30", "Dock(bay W3)", 35, where="PRM lounge, bay W3",
          objects=battery(23))
    w.job(d, "13:15", "Escort(SSR-1120, check-in 9, gate B32)", 16,
          status="interrupted", where="security lane 4",
          goal="PRM.SSR-1120", persons=[pax("Lars Eriksson"), JONAS],
          note="Stopped at security lane 4: Mr Eriksson's oxygen "
          "concentrator needed a manual check, so Jonas Gruber took him "
          "on to B32 in a manual chair.")
    w.note(d, "15:40", "PRM lounge", "Found a walking cane on my seat after "
           "SSR-1120 and handed it to the lost and found desk L2.",
           objects=[{"id": "item-77", "type": "walking cane",
                     "state": {"found": "on seat", "handed_to":
                               "lost and found desk L2"}}])
    w.talk(d, "17:00", "PRM lounge", [MARTINA],
           ("Martina Wolf", "Rolli, tomorrow you start in gate area F, "
            "the Frankfurt and Zurich flights."),
           ("Rolli", "Understood, gate area F from 07:00."))
    w.job(d, "17:10", "Dock(bay W3)", 600, where="PRM lounge, bay W3",
          objects=battery(31))

    d = WED
    w.job(d, "06:50", "Undock(bay W3)", 1, where="PRM lounge, bay W3")
    w.job(d, "07:20", "Escort(SSR-1201, gate F04, arrivals hall)", 22,
          where="arrivals hall", goal="PRM.SSR-1201",
          persons=[pax("Chen Li")],
          speech=[{"speaker": "Chen Li", "text": "Is there a pharmacy before "
                   "passport control?"},
                  {"speaker": "Rolli", "text": "The pharmacy is after "
                   "passport control, in the arrivals hall next to exit 2."}])
    w.job(d, "09:00", "Escort(SSR-1205, check-in 6, gate F22)", 17,
          where="gate F22", goal="PRM.SSR-1205",
          persons=[pax("Paolo Ricci"), {"name": "Giulia Ricci",
                                         "id": "companion"}],
          speech=[{"speaker": "Giulia Ricci", "text": "My father is deaf "
                   "in his left ear, please speak on his right side."},
                  {"speaker": "Rolli", "text": "Thank you, I will use the "
                   "right speaker."}])
    w.note(d, "10:30", "pier F", "Lift 6 at pier F is out of service; "
           "using lift 8 instead.")
    w.job(d, "11:00", "Escort(SSR-1209, check-in 2, gate F31)", 58,
          where="gate F31", goal="PRM.SSR-1209",
          persons=[pax("Aisha Mensah")],
          note="Flight OS 121 to Frankfurt delayed 40 min; waited at the "
          "gate with Ms Mensah until boarding.")
    w.job(d, "12:40", "Escort(SSR-1214, gate F09, transfer desk)", 7,
          status="failed", where="pier F corridor", goal="PRM.SSR-1214",
          persons=[pax("Hanna Schmid")],
          note="Right front wheel motor overcurrent, stopped in the pier F "
          "corridor. Called Martina; she sent manual chair W-12.")
    w.talk(d, "12:55", "pier F corridor", [MARTINA, pax("Hanna Schmid")],
           ("Martina Wolf", "Stay where you are, Stefan is on his way."),
           ("Hanna Schmid", "Never mind, the manual chair is fine for me."))
    w.talk(d, "13:35", "pier F corridor", [STEFAN],
           ("Stefan Koller", "Wheel motor reset: the cable was pinched under "
            "the footrest. You're good to go."))
    w.job(d, "13:40", "SelfTest(drive)", 3, where="pier F corridor",
          persons=[STEFAN])
    w.job(d, "15:00", "Escort(SSR-1220, check-in 11, gate F17)", 15,
          where="gate F17", goal="PRM.SSR-1220",
          persons=[pax("Hanna Schmid")],
          speech=[{"speaker": "Hanna Schmid", "text": "Thank you, you were "
                   "faster than the bus to the remote stand."}])
    w.job(d, "18:30", "Dock(bay W3)", 600, where="PRM lounge, bay W3",
          objects=battery(18))

    d = THU
    w.job(d, "06:45", "Undock(bay W3)", 1, where="PRM lounge, bay W3")
    w.job(d, "07:10", "Escort(SSR-1301, check-in 14, gate C41)", 21,
          where="gate C41", goal="PRM.SSR-1301",
          persons=[pax("Ingo Weber"), PETRA])
    w.job(d, "09:40", "CollectPassenger(SSR-1306, 'Mr Ahmed Saleh', "
          "check-in 3)", 5, where="check-in hall 1", goal="PRM.SSR-1306",
          persons=[pax("Ahmed Saleh")])
    w.job(d, "09:46", "Escort(SSR-1306, check-in 3, gate D61)", 24,
          where="gate D61", goal="PRM.SSR-1306",
          persons=[pax("Ahmed Saleh")],
          speech=[{"speaker": "Ahmed Saleh", "text": "On Tuesday I could not "
                   "find you, so my son pushed me all the way."},
                  {"speaker": "Rolli", "text": "I am sorry, Mr Saleh. I was "
                   "at D61 but we missed each other."}])
    w.job(d, "11:20", "Escort(SSR-1311, gate C12, arrivals hall)", 18,
          where="arrivals hall", goal="PRM.SSR-1311",
          persons=[pax("Greta Lind")])
    w.job(d, "12:30", "Dock(bay W3)", 40, where="PRM lounge, bay W3",
          objects=battery(27))
    return w


def write(path):
    return generate().write(path)


# ---------------------------------------------------------------------------
# The truth, read back from the lines

def split_action(s):
    """'Escort(A, 'b, c', C)' -> ('Escort', ['A', 'b, c', 'C'])."""
    m = re.match(r"^([^(]+)\((.*)\)$", s)
    if not m:
        return s.strip(), []
    args, cur, q = [], "", None
    for ch in m.group(2):
        if q:
            if ch == q:
                q = None
            else:
                cur += ch
        elif ch in "'\"":
            q = ch
        elif ch == ",":
            args.append(cur.strip())
            cur = ""
        else:
            cur += ch
    args.append(cur.strip())
    return m.group(1).strip(), args


class Job:
    def __init__(self, o):
        self.o = o
        self.name, self.args = split_action(o["action"])
        self.status = o.get("goal_status")
        self.t0 = o["_t"]
        self.t1 = parse_time(o["t_end"])
        self.ssr = o.get("goal", "").split(".")[-1] or None

    @property
    def ok(self):
        return self.status == "complete"

    @property
    def span(self):
        return Span(self.t0, self.t1, self.name)

    def pax(self):
        return [p["name"] for p in self.o.get("persons", [])
                if p.get("id") == "passenger"]


class Shift:
    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            self.obs = [json.loads(x) for x in f if x.strip()]
        for o in self.obs:
            o["_t"] = parse_time(o["t"])
        self.jobs = [Job(o) for o in self.obs if o.get("action")]
        self.notes = [o for o in self.obs if o.get("note")]
        self.speech = [(o["_t"], u["speaker"], u["text"]) for o in self.obs
                       for u in o.get("speech", [])]

    def find(self, name=None, ok=None, day=None, ssr=None, pax=None):
        return [j for j in self.jobs
                if (not name or j.name == name) and
                (ok is None or j.ok == ok) and
                (not day or day_of(j.t0) == day) and
                (not ssr or j.ssr == ssr) and
                (not pax or pax in j.pax())]

    def note(self, contains, day=None):
        return [o for o in self.notes if contains.lower() in
                o["note"].lower() and (not day or day_of(o["_t"]) == day)]

    def said(self, speaker=None, contains=None, day=None):
        return [(t, s, x) for t, s, x in self.speech
                if (not speaker or s == speaker) and
                (not day or day_of(t) == day) and
                (not contains or contains.lower() in x.lower())]


def minutes_words(sec):
    m = int(round(sec / 60.0))
    out = []
    for k in (m - 1, m, m + 1):
        if k > 0:
            out += ["%d min*" % k, "%d minute*" % k]
    return out, m


def questions(path):
    S = Shift(path)
    Q = QuestionSet("prmchair")
    fri = "2026-11-27 07:00:00"        # Friday 08:00 in Vienna
    last = S.obs[-1]["_t"]

    # ---- when -----------------------------------------------------------
    e = one(S.find("CollectPassenger", pax="Ingrid Bauer"))
    Q.time("when", "When did you pick up Mrs Bauer?", fri, [e.span])
    e = one(S.find("Escort", pax="Tomasz Nowak", day=TUE)[1:])
    Q.time("when", "What time did you get Mr Nowak to the taxis?", fri,
           [e.span])
    t, s, x = one(S.said("Stefan Koller"))
    Q.time("when", "When did Stefan fix your wheel?", fri,
           [Span(t - 300, t)], x)
    e = S.find("Dock")[-1]
    Q.time("when", "When did you last go to charge?", fri, [e.span])
    e = one(S.find("Undock", day=WED))
    Q.time("when", "What time did you start work on Wednesday?", fri,
           [e.span])
    e = one(S.find("Escort", ssr="SSR-1120"))
    Q.time("when", "When did Mr Eriksson's trip to the gate get stopped?",
           fri, [e.span], e.o["note"])

    # ---- where ----------------------------------------------------------
    o = one(S.note("Handed Mrs Bauer"))
    Q.words("where", "Where did you hand Mrs Bauer over?", fri,
            [["c35", "c 35"]], o["_t"], o["note"], none=["check-in 14"])
    o = one(S.note("walking cane"))
    Q.words("where", "Where did the walking cane go?", fri,
            [["lost and found", "l2"]], o["_t"], o["note"])
    e = one(S.find("Escort", ok=False, day=WED))
    Q.words("where", "Where did your motor give out?", fri,
            [["pier f corridor", "corridor"]], e.t1, e.o["location"])
    e = S.find("Escort", pax="Tomasz Nowak")[0]
    Q.words("where", "Where did Mr Nowak collect his suitcase?", fri,
            [variants(e.args[2], "belt 7")], e.t1, e.args[2])
    e = one(S.find("CollectPassenger", pax=None, day=THU))
    Q.words("where", "Where did you meet Mr Saleh on Thursday?", fri,
            [variants(e.args[2])], e.t1, e.args[2], none=["d61"])
    e = one(S.find("Escort", ssr="SSR-1201"))
    Q.words("where", "Where did you take Mrs Chen?", fri,
            [variants(e.args[2])], e.t1, e.args[2])

    # ---- day ------------------------------------------------------------
    e = one(S.find("Escort", ok=False, day=WED))
    Q.day("day", "Which day did your wheel motor fail?", fri,
          [day_of(e.t0)], e.t1)
    o = one(S.note("Lift 6"))
    Q.day("day", "What day was lift 6 broken?", fri, [day_of(o["_t"])],
          o["_t"])
    e = one(S.find("Escort", pax="Ahmed Saleh"))
    Q.day("day", "On which day did you finally take Mr Saleh to his gate?",
          fri, [day_of(e.t0)], e.t1)

    # ---- who ------------------------------------------------------------
    e = one(S.find("Escort", ssr="SSR-1120"))
    Q.words("who", "Who took over Mr Eriksson when you stopped?", fri,
            [["jonas", "gruber"]], e.t1, e.o["note"], none=["eriksson"])
    t, s, x = one(S.said("Stefan Koller"))
    Q.words("who", "Who repaired your wheel?", fri, [["stefan", "koller"]],
            t, s)
    o = one(S.note("Handed Mrs Bauer"))
    Q.words("who", "Who was the gate agent at C35?", fri,
            [["petra", "huber"]], o["_t"], o["note"])
    e = one(S.find("Escort", ssr="SSR-1205"))
    comp = [p["name"] for p in e.o["persons"] if p["id"] == "companion"][0]
    Q.words("who", "Who was travelling with Mr Ricci?", fri,
            [variants(comp, "giulia", "daughter")], e.t1, comp)
    e = S.find(day=WED, name="Escort")[0]
    Q.words("who", "Who was your first passenger on Wednesday?", fri,
            [["chen", "li"]], e.t1, ", ".join(e.pax()), k=1)
    e = one(S.find("Escort", ssr="SSR-1214"))
    Q.words("who", "Who were you taking to the transfer desk when you broke "
            "down?", fri, [["hanna", "schmid"]], e.t1, ", ".join(e.pax()))
    e = one(S.find("Escort", ssr="SSR-1301"))
    Q.words("who", "Who did you take to gate C41?", fri,
            [["ingo", "weber"]], e.t1, ", ".join(e.pax()), none=["petra"])

    # ---- say ------------------------------------------------------------
    t, s, x = one(S.said("Chen Li"))
    Q.words("say", "What did Mrs Chen ask you?", fri,
            must_contain(x, ["pharmacy"]), t, x)
    t, s, x = one(S.said("Rolli", contains="pharmacy"))
    Q.words("say", "What did you tell Mrs Chen about the pharmacy?", fri,
            must_contain(x, ["after passport control"]) +
            [["exit 2", "arrivals hall"]], t, x, k=1)
    t, s, x = one(S.said("Giulia Ricci"))
    Q.words("say", "What did Mr Ricci's daughter ask you to do?", fri,
            must_contain(x, ["right side"]), t, x)
    t, s, x = one(S.said("Martina Wolf", day=TUE))
    Q.words("say", "What did Martina tell you on Tuesday evening?", fri,
            must_contain(x, ["gate area f"]), t, x)
    t, s, x = one(S.said("Stefan Koller"))
    Q.words("say", "What did the technician say was wrong with the wheel?",
            fri, must_contain(x, ["cable"]) + [["pinched", "footrest"]],
            t, x)
    t, s, x = one(S.said("Hanna Schmid", contains="faster"))
    Q.words("say", "What did Mrs Schmid say about you?", fri,
            must_contain(x, ["faster"]) + [["bus"]], t, x, k=1)
    t, s, x = one(S.said("Ahmed Saleh"))
    Q.words("say", "What did Mr Saleh tell you on Thursday?", fri,
            must_contain(x, ["son"]) + [["could not find", "pushed"]], t, x,
            k=1)
    t, s, x = one(S.said("Tomasz Nowak"))
    Q.words("say", "What did Mr Nowak want you to do?", fri,
            [["wait"], ["suitcase"]], t, x, k=1)

    # ---- see ------------------------------------------------------------
    o = one(S.note("walking cane"))
    Q.words("see", "What did you find on your seat?", fri,
            [["walking cane", "cane"]], o["_t"], o["note"])
    e = one(S.find("Dock", day=TUE)[:1])
    pct = e.o["objects"][0]["state"]["battery_pct"]
    Q.words("see", "How low was your battery at the late-morning charge on "
            "Tuesday?", fri, [["%d" % pct]], e.t0, "%d %%" % pct)

    # ---- which ----------------------------------------------------------
    o = one(S.note("Handed Mrs Bauer"))
    Q.words("which", "Which flight was Mrs Bauer on?", fri,
            [["os 455", "os455"]], o["_t"], o["note"])
    o = one(S.note("Lift 6"))
    Q.words("which", "Which lift did you use instead?", fri,
            [["lift 8", "8"]], o["_t"], o["note"], none=["lift 6"])
    e = one(S.find("Escort", ok=False, day=WED))
    Q.words("which", "Which manual chair did Martina send?", fri,
            [["w-12", "w 12", "w12"]], e.t1, e.o["note"])
    e = one(S.find("Escort", ssr="SSR-1209"))
    Q.words("which", "Which gate did Ms Mensah leave from?", fri,
            [variants(e.args[2])], e.t1, e.args[2])
    e = one(S.find("Escort", ssr="SSR-1209"))
    Q.words("which", "Which flight was delayed on Wednesday?", fri,
            [["os 121", "os121"]], e.t1, e.o["note"])

    # ---- count ----------------------------------------------------------
    ps = sorted({j.ssr for j in S.find(day=TUE) if j.ssr})
    Q.count("count", "How many assistance requests did you get on "
            "Tuesday?", fri, len(ps), S.find(day=TUE)[-1].t1, ", ".join(ps))
    bad = [j for j in S.jobs if j.ssr and not j.ok]
    Q.count("count", "How many assists went wrong this week?", fri,
            len(bad), bad[-1].t1, ", ".join(j.ssr for j in bad))
    o = one(S.note("suitcase"))
    n = int(re.search(r"after (\d+) minutes", o["note"]).group(1))
    Q.words("count", "How long did Mr Nowak wait for his bag?", fri,
            [["%d min*" % n]], o["_t"], "%d min" % n)
    e = one(S.find("Escort", ssr="SSR-1209"))
    n = int(re.search(r"delayed (\d+) min", e.o["note"]).group(1))
    Q.words("count", "How late was Ms Mensah's flight?", fri,
            [["%d min*" % n]], e.t1, "%d min" % n)
    cs = [j for j in S.find("Escort") if j.args[2].startswith("gate C")]
    Q.count("count", "How many people did you bring to the C gates?", fri,
            len(cs), cs[-1].t1, ", ".join(j.args[2] for j in cs))
    ds = S.find("Dock")
    Q.count("count", "How many times did you dock to charge?", fri, len(ds),
            ds[-1].t0)

    # ---- yes / no -------------------------------------------------------
    es = S.find("CollectPassenger", pax=None, day=TUE)
    es = [j for j in es if "Saleh" in " ".join(j.args)]
    Q.yesno("yesno", "Did you manage to pick up Mr Saleh on Tuesday?", fri,
            any(j.ok for j in es), es[-1].t1)
    e = one(S.find("SelfTest"))
    Q.yesno("yesno", "Did your self-test pass after the repair?", fri,
            e.ok, e.t1)
    es = [j for j in S.find("Escort") if j.args[2] == "gate B32"]
    Q.yesno("yesno", "Did you get Mr Eriksson all the way to B32?", fri,
            any(j.ok for j in es), es[-1].t1)
    e = one(S.find("Escort", ssr="SSR-1209"))
    Q.yesno("yesno", "Did Ms Mensah's flight leave on time?", fri,
            "delayed" not in e.o["note"], e.t1)

    # ---- failed ---------------------------------------------------------
    e = one(S.find("CollectPassenger", ok=False))
    Q.words("failed", "Why couldn't you pick up Mr Saleh on Tuesday?", fri,
            [["not at d61", "already left", "on foot", "family"]], e.t1,
            e.o["note"])
    e = one(S.find("Escort", ssr="SSR-1120"))
    Q.words("failed", "What happened with Mr Eriksson at security?", fri,
            [["oxygen", "concentrator", "manual check"]], e.t1, e.o["note"])
    e = one(S.find("Escort", ok=False, day=WED))
    Q.words("failed", "Why did you stop in the corridor on Wednesday?", fri,
            [["motor", "overcurrent", "wheel"]], e.t1, e.o["note"])
    es = [j for j in S.find(day=WED) if not j.ok]
    Q.words("failed", "What went wrong on Wednesday?", fri,
            [["motor", "overcurrent", "wheel"], ["lift 6", "lift"]],
            es[-1].t1, "; ".join(j.o["note"] for j in es), k=1)

    # ---- how long, and what nobody else asks ----------------------------
    e = one(S.find("Escort", ssr="SSR-1209"))
    ws, m = minutes_words(e.t1 - e.t0)
    Q.words("which", "How long were you with Ms Mensah?", fri, [ws], e.t1,
            "%d min" % m)
    e = one(S.find("Escort", ssr="SSR-1306"))
    Q.words("which", "What was the request number for Mr Saleh's trip on "
            "Thursday?", fri, [[e.ssr.lower()]], e.t1, e.ssr,
            none=["ssr-1112"])
    e = S.find("Dock")[-1]
    pct = e.o["objects"][0]["state"]["battery_pct"]
    Q.words("see", "What was your battery level when you last docked?",
            fri, [["%d" % pct]], e.t0, "%d %%" % pct)
    t, s, x = one(S.said("Hanna Schmid", contains="manual chair"))
    Q.yesno("yesno", "Was Mrs Schmid upset about the breakdown?", fri,
            False, t, x)
    return Q.items, S


if __name__ == "__main__":
    import sys
    print(write(sys.argv[1] if len(sys.argv) > 1 else "prmchair.jsonl"),
          "observations")
