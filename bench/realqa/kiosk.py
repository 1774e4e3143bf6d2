"""Fresh and untuned (written 2026-11-27, after pharmacy): the reception
robot ("Juno") at the front desk of Riverside Town Hall, Tuesday 2026-04-14
to Thursday 2026-04-16.

A history that is MOSTLY DIALOG, in a shape of its own: times as integers
of microseconds since the epoch; one utterance per line, `speech` as a
single `{speaker, text}` object (never an array), the robot's replies on
their own line after the line they answer, the robot speaking as "Juno";
people named when they gave a name, else by their role as the speaker
("courier", "delivery driver"), and present as `persons` with a visitor
badge id (`{"name", "id": "V-0417"}`, a role's badge with no name); the few
actions with their arguments as an array of strings (`{"name":
"StoreItem", "args": ["parcel SP-88213", "behind the front desk"],
"status": "succeeded"}`), the reason of a failure in the same line's
`note`; a handful of notes.  No goal stack, no
objects, no robot profile.

The truth is read back from the written lines (`Kiosk`), never from the
generator's variables.  The questions are a receptionist's and a
visitor's, written before h2emv was asked them; nobody tuned on them
(docs/realqa.md, "Two more fresh untuned sources (kiosk, logbook),
2026-11-27").
"""

import json
import random
import re

from common import (Records, QuestionSet, Span, day_of, grab, must_contain,
                    one, parse_time)

SEED = 20260414
TUE, WED, THU = "2026-04-14", "2026-04-15", "2026-04-16"
ROBOT = "Juno"
COURIER, DRIVER = "courier", "delivery driver"
LUIS, OMAR, GRETA, BEA, HENDRIK = ("Luis Ferreira", "Omar Haddad",
                                   "Greta Lindqvist", "Beatrice Onyango",
                                   "Hendrik Vos")
KAI, AMIRA, SOFIA, PIETER, DOROTA = ("Kai Watanabe", "Amira Saleh",
                                     "Sofia Brandt", "Pieter de Wit",
                                     "Dorota Nowak")
FARAH, NOOR, JONAS, TOBIAS = ("Farah Idris", "Noor Hamidi", "Jonas Berg",
                              "Tobias Keller")

STAFF = {OMAR: "TH-staff-031", GRETA: "TH-staff-007", NOOR: "TH-staff-112"}


def usec(day, hhmm, sec=0):
    return int(parse_time("%sT%s:00Z" % (day, hhmm)) + sec) * 1000000


class Writer:
    def __init__(self, seed=SEED):
        self.rng = random.Random(seed)
        self.lines = []
        self.clock = 0
        self.badges = {}

    def badge(self, who):
        if who not in self.badges:
            self.badges[who] = "V-%04d" % (401 + 7 * len(self.badges))
        return self.badges[who]

    def present(self, who):
        out = []
        for w in who:
            if w in (COURIER, DRIVER):
                out.append({"id": self.badge(w + str(len(self.lines)))})
            elif w in STAFF:
                out.append({"name": w, "id": STAFF[w]})
            else:
                out.append({"name": w, "id": self.badge(w)})
        return out

    def at(self, day, hhmm):
        t = usec(day, hhmm, self.rng.randint(0, 100))
        t = max(t, self.clock + 15000000)
        # an idle line every 20 minutes while the desk is open (08-17 UTC)
        s = self.clock + 1200000000
        while self.clock and s < t - 60000000:
            if 8 <= (s // 3600000000) % 24 < 17:
                self.line(s, location="front desk")
            s += 1200000000
        return t

    def line(self, t, **f):
        ln = {"t": t}
        ln.update({k: v for k, v in f.items() if v not in (None, [], "")})
        self.lines.append(ln)
        self.clock = max(self.clock, t)

    def talk(self, day, hhmm, turns, where="front desk", present=()):
        """Turns are (speaker, text) or ('do', action, status, note)."""
        t = self.at(day, hhmm)
        ppl = list(present)
        for tu in turns:
            if tu[0] not in (ROBOT, "do") and tu[0] not in ppl:
                ppl.append(tu[0])
        persons = self.present(ppl)
        for tu in turns:
            if tu[0] == "do":
                name, args = short_args(tu[1])
                self.line(t, location=where, persons=persons,
                          action={"name": name, "args": args,
                                  "status": tu[2]},
                          note=tu[3] if len(tu) > 3 else None)
                t += self.rng.randint(20, 70) * 1000000
                continue
            self.line(t, location=where, persons=persons,
                      speech={"speaker": tu[0], "text": tu[1]})
            t += (5 + len(tu[1]) // 14 + self.rng.randint(0, 4)) * 1000000

    def note(self, day, hhmm, text, where="front desk"):
        self.line(self.at(day, hhmm), location=where, note=text)

    def write(self, path):
        with open(path, "w", encoding="utf-8") as f:
            for ln in self.lines:
                f.write(json.dumps(ln, ensure_ascii=False) + "\n")
        return len(self.lines)


def do(action, status="succeeded", note=None):
    """An action said in the planner's short form; written as an object
    with its arguments as an array of strings."""
    return ("do", action, status, note) if note else ("do", action, status)


def generate(seed=SEED):
    w = Writer(seed)
    J = ROBOT

    # ----- Tuesday ------------------------------------------------------
    d = TUE
    w.note(d, "07:58", "Front doors open; six people waiting outside.")
    w.talk(d, "08:05", [
        (LUIS, "Good morning. I need to renew my passport, where do I go?"),
        (J, "Good morning. The passport office is on the first floor, "
            "counter 4. Here is your ticket, A-031."),
        do("PrintTicket(A-031, 'passport office')")])
    w.talk(d, "08:20", [
        (COURIER, "Morning! I'm Tomasz from Swiftpost, I have a parcel for "
                  "the mayor's office. Somebody has to sign for it."),
        (J, "One moment, I will call Omar Haddad from the mayor's office "
            "to sign."),
        do("CallStaff('Omar Haddad')"),
        (OMAR, "I'll sign for it. Juno, keep it at the desk until noon, "
               "the mayor will come down for it herself."),
        (J, "Okay, the parcel stays behind the front desk until noon."),
        do("StoreItem(parcel SP-88213, 'behind the front desk')")])
    w.talk(d, "08:50", [
        ("Mehmet Aydin", "I have an appointment about my residence permit."),
        (J, "Residence permits are at counter 2 on the ground floor. Your "
            "ticket is A-032."),
        do("PrintTicket(A-032, 'residence permits')")])
    w.talk(d, "09:10", [
        (BEA, "Hello! Is the registry office open today? We want to book a "
              "date for our wedding."),
        (J, "Yes, the registry office is open until 16:00. It is room 12 on "
            "the ground floor. Your ticket is R-014."),
        do("PrintTicket(R-014, 'registry office')")])
    w.talk(d, "09:40", [
        (HENDRIK, "I have been waiting forty minutes for the passport "
                  "counter. This is ridiculous, there is only one clerk!"),
        (J, "I am sorry, Mr. Vos. There are three people ahead of you. I "
            "have told the supervisor."),
        do("CallStaff('Greta Lindqvist')")])
    w.talk(d, "10:30", [
        (DRIVER, "Twelve boxes of printer paper for the print room. Where "
                 "can I unload?"),
        (J, "Please use the loading bay at the back, door C. The print room "
            "is right next to it.")])
    w.talk(d, "11:15", [
        (KAI, "I found this umbrella by the lift. It isn't mine."),
        (J, "Thank you! I will keep it in the lost property cupboard."),
        do("StoreItem(black umbrella LF-07, 'lost property cupboard')")])
    w.talk(d, "11:50", [
        (OMAR, "Juno, I'll take the Swiftpost parcel up to the mayor now."),
        (J, "Here it is, Omar."),
        do("HandOver(parcel SP-88213, 'Omar Haddad')")])
    w.talk(d, "13:20", [
        (AMIRA, "The screen says it cannot print my ticket."),
        do("PrintTicket(A-044, 'passport office')", "failed",
           "ticket printer out of paper"),
        (J, "Sorry, my printer is out of paper. Please take a paper number "
            "from the counter, I have asked Greta to refill it.")])
    w.talk(d, "13:40", [
        (GRETA, "Refilled your printer, Juno. Next time use the big rolls "
                "from the second drawer."),
        (J, "Thank you, Greta, the big rolls in the second drawer.")])
    w.talk(d, "14:05", [
        ("Ana Costa", "Where do I pay a parking fine?"),
        (J, "Parking fines are paid at the cash desk, counter 6, ground "
            "floor. Your ticket is C-118."),
        do("PrintTicket(C-118, 'cash desk')")])
    w.talk(d, "14:40", [
        (LUIS, "Hello again. I left my reading glasses at counter 4 this "
               "morning. Has anyone handed them in?"),
        (J, "No glasses have been handed in so far. I will ask the passport "
            "office to look.")])
    w.talk(d, "15:30", [
        ("Ravi Shah", "I need a copy of my birth certificate."),
        (J, "The registry office does copies, room 12. Your ticket is "
            "R-019."),
        do("PrintTicket(R-019, 'registry office')")])
    w.note(d, "17:02", "Front doors closed.")

    # ----- Wednesday ----------------------------------------------------
    d = WED
    w.note(d, "07:57", "Front doors open.")
    w.talk(d, "08:10", [
        (GRETA, "Juno, the council meets tonight at 18:00 in the council "
                "chamber. Send all the press to the side entrance."),
        (J, "Understood: the press goes to the side entrance tonight.")])
    w.talk(d, "08:45", [
        (COURIER, "Hi, Ines from Rapid Kurier. Two parcels for the planning "
                  "department."),
        (J, "The planning department will collect them. I will keep them "
            "behind the front desk."),
        do("StoreItem(parcel RK-4410, 'behind the front desk')"),
        do("StoreItem(parcel RK-4411, 'behind the front desk')")])
    w.talk(d, "09:30", [
        (BEA, "We booked the 20th of June for our wedding! Can we see the "
              "wedding hall?"),
        (J, "Congratulations! The wedding hall is room 21 on the second "
            "floor. I will take you there."),
        do("Guide('Beatrice Onyango', 'wedding hall')")])
    w.talk(d, "10:15", [
        (SOFIA, "I think I left a black umbrella here yesterday."),
        (J, "A black umbrella was handed in yesterday, found by the lift. "
            "What does the handle look like?"),
        (SOFIA, "It has a wooden handle with a red band."),
        (J, "That matches. Here it is."),
        do("HandOver(black umbrella LF-07, 'Sofia Brandt')")])
    w.talk(d, "11:00", [
        (PIETER, "Pieter de Wit, Riverside Gazette. Where is the council "
                 "meeting tonight?"),
        (J, "In the council chamber on the second floor. The press comes "
            "in by the side entrance from 17:30.")])
    w.talk(d, "11:20", [
        ("Lea Fischer", "I'd like to register my new address."),
        (J, "That is the residents' office, counter 3. Your ticket is "
            "B-207."),
        do("PrintTicket(B-207, 'residents office')")])
    w.talk(d, "12:30", [
        (DRIVER, "Lunch for the IT office, it's paid already."),
        (J, "The IT office is room 31 on the third floor. You can take the "
            "west lift.")])
    w.talk(d, "13:10", [
        (DOROTA, "The lift on the east side has been broken since Monday! "
                 "My mother cannot take the stairs."),
        (J, "I am very sorry. I have reported the east lift to facilities. "
            "The west lift works, it is behind the cafe."),
        do("ReportFault('east lift', facilities)")])
    w.talk(d, "14:00", [
        ("Jan Novak", "Passport photo rules, do you know them?"),
        (J, "The photo must be 35 by 45 millimetres and less than six "
            "months old. Your ticket is A-061."),
        do("PrintTicket(A-061, 'passport office')")])
    w.talk(d, "15:20", [
        (AMIRA, "Could you take me to social services?"),
        do("Guide('Amira Saleh', 'social services')", "failed",
           "corridor B blocked by the cleaning cart"),
        (J, "Sorry, corridor B is blocked. Social services is room 18: turn "
            "left after the cafe.")])
    w.talk(d, "16:30", [
        (OMAR, "Juno, someone left a driving licence at the registry desk. "
               "The name on it is Farah Idris."),
        (J, "I will keep it in the safe drawer and call her."),
        do("StoreItem(driving licence LF-08, 'safe drawer')"),
        do("CallVisitor('Farah Idris')", "failed",
           "no answer, voicemail full")])
    w.note(d, "17:01", "Front doors closed; press let in by the side "
                       "entrance until 18:00.")

    # ----- Thursday -----------------------------------------------------
    d = THU
    w.note(d, "07:59", "Front doors open.")
    w.talk(d, "08:20", [
        (FARAH, "Hello, I think I left my driving licence here yesterday."),
        (J, "Yes, Omar found it at the registry desk. Could you show me "
            "a bank card with your name?"),
        (FARAH, "Here you are."),
        do("HandOver(driving licence LF-08, 'Farah Idris')")])
    w.talk(d, "09:00", [
        (COURIER, "Swiftpost again, it's Tomasz. Just picking up a return "
                  "for the IT office."),
        (J, "The IT office left a box for you, return label RT-5520."),
        do("HandOver(box RT-5520, courier)")])
    w.talk(d, "09:45", [
        (HENDRIK, "Juno, my passport appointment was moved and nobody "
                  "called me. That is the second time this week I waste "
                  "my morning here."),
        (J, "I am sorry, Mr. Vos. Your new slot is Friday at 10:30, counter "
            "4.")])
    w.talk(d, "10:30", [
        ("Olga Petrova", "Dog licence, please."),
        (J, "Dog licences are at the cash desk, counter 6. Your ticket is "
            "C-131."),
        do("PrintTicket(C-131, 'cash desk')")])
    w.talk(d, "11:10", [
        (NOOR, "Noor from planning. I'm here for our two parcels."),
        (J, "Here they are, both from Rapid Kurier."),
        do("HandOver(parcel RK-4410, 'Noor Hamidi')"),
        do("HandOver(parcel RK-4411, 'Noor Hamidi')")])
    w.talk(d, "11:55", [
        (JONAS, "Good morning, we have a tour of the council chamber at "
                "noon. I am here with 24 pupils from Hillside School."),
        (J, "Welcome! I will take you up, Omar is waiting at the chamber."),
        do("Guide('Hillside School group', 'council chamber')")])
    w.talk(d, "14:30", [
        (DRIVER, "Replacement motor for the east lift."),
        (J, "Thank you. The technician is waiting at the east lift, ground "
            "floor.")])
    w.talk(d, "15:10", [
        (TOBIAS, "Is the passport office still taking people?"),
        do("PrintTicket(A-071, 'passport office')"),
        (J, "Yes. Your ticket A-071 is printed, please take it."),
        (TOBIAS, "Actually, I'll come back tomorrow.")])
    w.note(d, "15:14", "Tobias Keller left without his ticket A-071; "
                       "ticket voided.")
    w.note(d, "17:00", "Front doors closed.")
    return w


def write(path, seed=SEED):
    return generate(seed).write(path)


ACTION = re.compile(r"^(\w+)\((.*)\)$")


def short_args(text):
    """'StoreItem(parcel X, 'behind the desk')' -> ('StoreItem', [...])."""
    m = ACTION.match(text)
    assert m, text
    args = [a.strip().strip("'") for a in
            re.findall(r"'[^']*'|[^,]+", m.group(2))]
    return m.group(1), [a for a in args if a]


class Act:
    def __init__(self, o):
        self.line = o
        a = o["action"]
        self.name, self.args = a["name"], a.get("args") or []
        self.ok = a.get("status") == "succeeded"
        self.t0 = self.t1 = o["_t"]
        self.reason = o.get("note", "")

    @property
    def span(self):
        return Span(self.t0, self.t1, self.name)


class Kiosk(Records):
    """The written lines read back: actions, notes, speech."""

    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            self.obs = [json.loads(x) for x in f if x.strip()]
        for o in self.obs:
            o["_t"] = o["t"] / 1e6
        self.runs = [Act(o) for o in self.obs if o.get("action")]
        self.notes = [o for o in self.obs
                      if o.get("note") and not o.get("action")]
        self.speech = [(o["_t"], o["speech"]["speaker"], o["speech"]["text"])
                       for o in self.obs if o.get("speech")]

    def acts(self, name, ok=None, day=None, arg=None):
        """Actions by name; `arg`: text one of the arguments contains."""
        return [r for r in self.find(name, ok=ok, day=day)
                if arg is None or any(arg.lower() in a.lower()
                                      for a in r.args)]

    def reply(self, t):
        """The robot's first line after time t."""
        return one([(tt, s, x) for tt, s, x in self.speech
                    if tt > t and s == ROBOT])


def questions(path):
    H = Kiosk(path)
    Q = QuestionSet("kiosk")
    fri = "2026-04-17T07:30:00Z"   # Friday morning, before the doors open

    # ---- when ---------------------------------------------------------
    (tt, who, text) = H.said(speaker=COURIER, contains="Swiftpost")[0]
    Q.time("when", "When did the Swiftpost courier first come by?", fri,
           [Span(tt - 5, H.reply(tt)[0])])
    e = one(H.acts("HandOver", ok=True, arg="umbrella"))
    Q.time("when", "When did Sofia Brandt get her umbrella back?", fri,
           [e.span])
    e = one(H.acts("PrintTicket", ok=False))
    Q.time("when", "What time did your ticket printer run out of paper?",
           fri, [e.span])
    e = H.acts("HandOver", ok=True, arg="courier")[-1]
    Q.time("when", "When did you last hand something over to a courier?",
           fri, [e.span])

    # ---- where --------------------------------------------------------
    (tt, who, text) = H.said(speaker=LUIS)[0]
    (tr, _, rep) = H.reply(tt)
    Q.words("where", "Where did you send Luis Ferreira for his passport?",
            fri, [must_contain(rep, ["counter 4"])[0] + ["first floor"]],
            tr, rep)
    e = one(H.acts("StoreItem", arg="SP-88213"))
    Q.words("where", "Where did you keep the parcel for the mayor?", fri,
            [[e.args[-1], "front desk", "desk"]], e.t1, e.args[-1])
    (tt, who, text) = one(H.said(speaker=DRIVER, contains="printer paper"))
    (tr, _, rep) = H.reply(tt)
    Q.words("where", "Where did you tell the delivery driver to unload the "
            "paper?", fri, [must_contain(rep, ["loading bay"])[0] +
                            ["door c"]], tr, rep)
    (tt, who, text) = one(H.said(contains="found this umbrella"))
    place = grab(r"umbrella (by the \w+)", text)
    Q.words("where", "Where was the black umbrella found?", fri,
            [[place.split()[-1]]], tt, place)
    (tt, who, text) = one(H.said(speaker=ROBOT, contains="wedding hall is"))
    Q.words("where", "Where is the wedding hall?", fri,
            [must_contain(text, ["room 21"])[0] + ["second floor"]], tt,
            text)
    (tt, who, text) = one(H.said(speaker=GRETA, contains="press"))
    Q.words("where", "Which way did Greta want the press to come in for "
            "the council meeting?", fri,
            must_contain(text, ["side entrance"]), tt, text)

    # ---- day ----------------------------------------------------------
    (tt, who, text) = H.said(speaker=HENDRIK)[0]
    Q.day("day", "Which day did Mr. Vos first complain?", fri,
          [day_of(tt)], tt)
    e = one(H.acts("ReportFault", arg="east lift"))
    Q.day("day", "On which day did you report the east lift?", fri,
          [day_of(e.t0)], e.t1)
    e = one(H.acts("HandOver", ok=True, arg="driving licence"))
    Q.day("day", "What day did Farah Idris collect her driving licence?",
          fri, [day_of(e.t0)], e.t1)

    # ---- who ----------------------------------------------------------
    (tt, who, text) = one(H.said(contains="found this umbrella"))
    Q.words("who", "Who handed in the umbrella?", fri,
            [[who, who.split()[0]]], tt, who)
    (tt, who, text) = one(H.said(contains="I'll sign"))
    Q.words("who", "Who signed for the parcel for the mayor's office?", fri,
            [[who, who.split()[0]]], tt, who)
    (tt, who, text) = one(H.said(contains="east side"))
    Q.words("who", "Who complained about the broken lift?", fri,
            [[who, who.split()[0]]], tt, who)
    es = H.acts("HandOver", ok=True, arg="RK-44")
    who = es[-1].args[-1]
    Q.words("who", "Who picked up the parcels for planning?", fri,
            [[who, who.split()[0]]], es[-1].t1, who)
    o = one(H.note(contains="left without"))
    who = grab(r"^(\w+ \w+) left without", o["note"])
    Q.words("who", "Who left without taking their ticket?", fri,
            [[who, who.split()[0]]], o["_t"], who)
    (tt, who, text) = H.said(speaker=COURIER, contains="Swiftpost")[0]
    name = grab(r"I'm (\w+)", text)
    Q.words("who", "What was the name of the Swiftpost courier?", fri,
            [[name]], tt, name)
    (tt, who, text) = one(H.said(contains="Refilled"))
    Q.words("who", "Who refilled the ticket printer?", fri,
            [[who, who.split()[0]]], tt, who)

    # ---- say ----------------------------------------------------------
    # No bare numbers among the accepted words: "12" or "40" would match
    # inside any time an answer prints ("11:51:12").
    (tt, who, text) = H.said(speaker=HENDRIK, day=TUE)[0]
    Q.words("say", "What did Hendrik Vos complain about on Tuesday?", fri,
            must_contain(text, ["waiting"]) +
            [["forty", "one clerk", "passport"]], tt, text)
    (tt, who, text) = H.said(speaker=DRIVER, day=TUE)[0]
    Q.words("say", "What did the delivery driver bring on Tuesday?", fri,
            must_contain(text, ["printer paper"]), tt, text)
    (tt, who, text) = one(H.said(speaker=OMAR, contains="until noon"))
    Q.words("say", "What did Omar ask you to do with the Swiftpost parcel?",
            fri, [["noon", "midday"], ["keep", "desk", "mayor"]], tt, text)
    e = one(H.acts("PrintTicket", ok=False))
    (tr, _, rep) = H.reply(e.t0)
    Q.words("say", "What did you tell Amira Saleh when her ticket would "
            "not print?", fri, [["out of paper", "paper number"]], tr, rep)
    (tt, who, text) = H.said(speaker=BEA, day=TUE)[0]
    Q.words("say", "What did Beatrice Onyango want on Tuesday?", fri,
            must_contain(text, ["wedding"]) + [["book*", "date",
                                                "registry"]], tt, text)
    (tt, who, text) = H.said(speaker=HENDRIK, day=THU)[0]
    (tr, _, rep) = H.reply(tt)
    Q.words("say", "What did you tell Mr. Vos about his new appointment?",
            fri, must_contain(rep, ["Friday"]) + [["10:30", "10.30"]], tr,
            rep)
    (tt, who, text) = one(H.said(speaker=PIETER))
    Q.words("say", "What did the journalist from the Gazette want to "
            "know?", fri, must_contain(text, ["council"]) +
            [["where", "meeting"]], tt, text)

    # ---- which --------------------------------------------------------
    e = H.acts("PrintTicket", ok=True, day=TUE)[0]
    Q.words("which", "Which ticket number did Luis Ferreira get?", fri,
            [[e.args[0], e.args[0].replace("-", " ")]], e.t1, e.args[0])
    (tt, who, text) = one(H.said(speaker=COURIER, contains="planning"))
    firm = grab(r"from ([A-Z]\w+ [A-Z]\w+)", text)
    Q.words("which", "Which courier company brought the parcels for the "
            "planning department?", fri, [[firm]], tt, firm)
    e = one(H.acts("ReportFault"))
    Q.words("which", "Which lift was broken?", fri, [[e.args[0].split()[0]]],
            e.t1, e.args[0], none=["west lift is broken"])
    (tt, who, text) = H.said(speaker=ROBOT, contains="registry office is")[0]
    Q.words("which", "Which room is the registry office in?", fri,
            must_contain(text, ["room 12"]), tt, text)

    # ---- count --------------------------------------------------------
    es = H.acts("PrintTicket", ok=True, day=TUE)
    Q.count("count", "How many tickets did you print on Tuesday?", fri,
            len(es), es[-1].t1)
    es = H.acts("StoreItem", arg="RK-")
    Q.count("count", "How many parcels did Rapid Kurier leave?", fri,
            len(es), es[-1].t1)
    (tt, who, text) = one(H.said(speaker=JONAS))
    n = int(grab(r"with (\d+) pupils", text))
    Q.count("count", "How many pupils came with the school group?", fri, n,
            tt)
    ss = H.said(speaker=HENDRIK)
    Q.count("count", "How many times did Hendrik Vos complain?", fri,
            len(ss), ss[-1][0])
    es = H.acts("StoreItem", arg="LF-")
    Q.count("count", "How many lost items were handed in to you this "
            "week?", fri, len(es), es[-1].t1)

    # ---- yes / no -----------------------------------------------------
    es = H.acts("StoreItem", arg="glasses")
    Q.yesno("yesno", "Did anyone hand in Luis Ferreira's glasses?", fri,
            bool(es), None)
    es = H.acts("HandOver", ok=True, arg="Sofia")
    Q.yesno("yesno", "Did Sofia Brandt get her umbrella back?", fri,
            bool(es), es[-1].t1 if es else None)
    es = H.acts("CallVisitor", ok=True, arg="Farah")
    Q.yesno("yesno", "Did you reach Farah Idris by phone?", fri, bool(es),
            None)

    # ---- failed -------------------------------------------------------
    e = one(H.acts("PrintTicket", ok=False))
    Q.words("failed", "Why couldn't you print Amira Saleh's ticket?", fri,
            [["paper"]], e.t1, e.reason)
    e = one(H.acts("Guide", ok=False))
    Q.words("failed", "Why couldn't you take Amira to social services?",
            fri, [["corridor b", "blocked", "cleaning cart"]], e.t1,
            e.reason)
    es = H.acts(None, ok=False, day=WED)
    Q.words("failed", "What went wrong on Wednesday?", fri,
            [["guid*", "social services", "corridor", "blocked"],
             ["call*", "Farah", "voicemail", "phone"]], es[-1].t1,
            "; ".join("%s(%s): %s" % (e.name, ", ".join(e.args), e.reason)
                      for e in es), k=1)
    e = one(H.acts("CallVisitor", ok=False))
    Q.words("failed", "Why couldn't you get hold of Farah Idris?", fri,
            [["no answer", "voicemail"]], e.t1, e.reason)
    return Q.items, H


if __name__ == "__main__":
    import sys
    print(write(sys.argv[1] if len(sys.argv) > 1 else "kiosk.jsonl"),
          "observations")
