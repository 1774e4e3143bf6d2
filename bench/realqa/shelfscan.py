"""Fresh and untuned (written 2026-11-27, third fresh round): "Tally", the
shelf-scanning robot of the Greenmarket supermarket in Westfield, Monday
2026-10-19 to Wednesday 2026-10-21, local time (+02:00).

A history in a shape of its own: times with milliseconds and a +02:00
offset ("2026-10-19T06:02:11.480+02:00"); the robot's job as a DOTTED goal
stack ("NightAudit.Aisle07", "Opening.Customers"); actions as objects with
keys of their own (`aisle`, `gaps`, `sku`, `product`, `shelf_price`,
`till_price`, `units`, `to_aisle`, `what`, `copies`, `dock`), the status in
upper case ("SUCCEEDED", "FAILED", "ABORTED") and a failure's reason in the
same line's `note` ("reason: ..."); dialog as an ARRAY of utterances on one
line (the customer's words and Tally's answer together), people present as
bare names; objects seen (spills, pallets, wet-floor signs) with a state;
store notes that start with their subject.  No robot profile.

The truth is read back from the written lines (`Store`), never from the
generator's variables.  The questions are the store manager's and the
stockers', written before h2emv was asked them; nobody tuned on them
(docs/realqa.md, "A third fresh untuned source (shelfscan), 2026-11-27").
"""

import datetime as _dt
import json
import random

from common import QuestionSet, Records, Span, grab, must_contain, one, \
    parse_time, variants

SEED = 20261019
MON, TUE, WED = "2026-10-19", "2026-10-20", "2026-10-21"
ZONE = _dt.timezone(_dt.timedelta(hours=2))
ROBOT = "Tally"
INES, TOMASZ, PRIYA = "Ines Moreau", "Tomasz Gruber", "Priya Nair"
DARIO, HANA, ALBERT = "Dario Russo", "Hana Kobayashi", "Albert Fink"
MEI, JOEL = "Mei Lin", "Joel Ackerman"


RESULTS = ("gaps", "till_price", "units")


def stamp(t_ms):
    """Milliseconds since the epoch as '2026-10-19T06:02:11.480+02:00'."""
    d = _dt.datetime.fromtimestamp(t_ms / 1000.0, ZONE)
    return d.strftime("%Y-%m-%dT%H:%M:%S.") + "%03d" % (t_ms % 1000) + \
        d.strftime("%z")[:3] + ":" + d.strftime("%z")[3:]


def local_ms(day, hhmm):
    return int(parse_time("%sT%s:00+02:00" % (day, hhmm))) * 1000


def local_day(t):
    return _dt.datetime.fromtimestamp(t, ZONE).strftime("%Y-%m-%d")


class Writer:
    def __init__(self, seed=SEED):
        self.rng = random.Random(seed)
        self.lines = []
        self.clock = 0
        self.here = "charging dock"

    def at(self, day, hhmm):
        t = local_ms(day, hhmm) + self.rng.randint(0, 90000)
        t = max(t, self.clock + 20000)
        # a position line every 30 minutes while the robot waits
        s = self.clock + 1800000
        while self.clock and s < t - 120000:
            self.line(s, location=self.here)
            s += 1800000
        return t

    def line(self, t, **f):
        ln = {"t": stamp(t)}
        ln.update({k: v for k, v in f.items() if v not in (None, [], "")})
        self.lines.append(ln)
        self.clock = max(self.clock, t)

    def act(self, day, hhmm, goal, name, args, where, status="SUCCEEDED",
            why=None, seen=(), persons=(), minutes=(2, 9)):
        t = self.at(day, hhmm)
        # what a job finds (gaps, the till's price, a count) is known
        # only on its final line
        ask = {k: v for k, v in args.items() if k not in RESULTS}
        self.line(t, goal=goal, location=where,
                  action={"name": name, "args": ask,
                          "status": "RUNNING"}, persons=list(persons))
        t1 = t + 1000 * (60 * self.rng.randint(*minutes) +
                         self.rng.randint(0, 59))
        self.line(t1, goal=goal, location=where,
                  action={"name": name, "args": dict(args),
                          "status": status},
                  objects=[dict(o) for o in seen], persons=list(persons),
                  note=("reason: " + why) if why else None)
        self.here = where

    def talk(self, day, hhmm, where, turns, goal="Opening.Customers"):
        """All the turns of one exchange on one line, as an array."""
        t = self.at(day, hhmm)
        who = []
        for s, _ in turns:
            if s != ROBOT and s not in who:
                who.append(s)
        self.line(t, goal=goal, location=where, persons=who,
                  speech=[{"speaker": s, "text": x} for s, x in turns])
        self.here = where

    def note(self, day, hhmm, text, where=None, seen=()):
        where = where or self.here
        self.line(self.at(day, hhmm), location=where, note=text,
                  objects=[dict(o) for o in seen])
        self.here = where

    def write(self, path):
        with open(path, "w", encoding="utf-8") as f:
            for ln in self.lines:
                f.write(json.dumps(ln, ensure_ascii=False) + "\n")
        return len(self.lines)


def aisle(n):
    return "aisle %d" % n


def generate(seed=SEED):
    w = Writer(seed)
    T = ROBOT

    def scan(day, hhmm, n, gaps, status="SUCCEEDED", why=None, seen=(),
             minutes=(8, 14)):
        args = {"aisle": n, "gaps": gaps} if gaps is not None else \
            {"aisle": n}
        w.act(day, hhmm, "NightAudit.Aisle%02d" % n, "ScanShelf", args,
              aisle(n), status, why, seen, minutes=minutes)

    def price(day, hhmm, n, sku, product, shelf, till):
        w.act(day, hhmm, "NightAudit.PriceCheck", "CheckPrice",
              {"sku": sku, "product": product, "shelf_price": shelf,
               "till_price": till}, aisle(n), minutes=(1, 2))

    def label(day, hhmm, product, copies, status="SUCCEEDED", why=None):
        w.act(day, hhmm, "NightAudit.Relabel", "PrintLabel",
              {"product": product, "copies": copies}, "back office",
              status, why, minutes=(1, 3))

    def dock(day, hhmm):
        w.act(day, hhmm, "Recharge", "Dock", {"dock": "D1"},
              "charging dock", minutes=(25, 40))

    # ----- Monday -------------------------------------------------------
    d = MON
    w.note(d, "05:40", "Night shift start; store closed, lights at 50 %.",
           "charging dock")
    scan(d, "05:50", 3, 2)
    scan(d, "06:10", 4, 5)
    scan(d, "06:30", 7, 9)
    price(d, "06:50", 7, "400112", "arabica coffee 500 g", 6.49, 7.29)
    price(d, "06:55", 9, "400857", "oat milk 1 l", 1.89, 1.89)
    label(d, "07:05", "arabica coffee 500 g", 12)
    w.talk(d, "07:20", aisle(7), [
        (TOMASZ, "Tally, the pasta bay in aisle 7 is empty again, which "
                 "sizes are missing?"),
        (T, "Spaghetti 500 g and penne 1 kg are out, four facings in all."),
        (TOMASZ, "Right, I'll bring two cases up from the back.")],
        goal="NightAudit.Aisle07")
    w.note(d, "07:45", "Pasta bay in aisle 7 restocked by Tomasz Gruber "
                       "with two cases.", aisle(7))
    w.talk(d, "08:15", aisle(11), [
        (ALBERT, "Excuse me, where is the gluten-free pasta?"),
        (T, "Gluten-free pasta is in aisle 11, top shelf on the left. "
            "Follow me.")])
    w.act(d, "08:16", "Opening.Customers", "GuideCustomer",
          {"customer": ALBERT, "product": "gluten-free pasta",
           "to_aisle": 11}, aisle(11), persons=[ALBERT], minutes=(1, 2))
    w.talk(d, "09:30", aisle(7), [
        (HANA, "The coffee is 6.49 on the shelf but the till charged me "
               "7.29. That is the second time this month!"),
        (T, "I am sorry. I have reported the wrong price to the manager and "
            "new labels are printed."),
        (HANA, "I want the difference back.")])
    w.talk(d, "09:40", "customer service", [
        (INES, "Tally, Hana Kobayashi gets 80 cents back for the coffee. "
               "Recheck every coffee price in aisle 7 tonight."),
        (T, "I will recheck all coffee prices in aisle 7 tonight.")],
        goal="Opening.Manager")
    w.note(d, "11:20", "Freezer F3 alarm at 11:12, temperature -12 C; "
                       "Priya Nair moved the ice cream to freezer F4.",
           "frozen foods")
    w.act(d, "13:00", "Opening.Hazards", "ReportSpill",
          {"aisle": 4, "what": "broken jar of pickles"}, aisle(4),
          seen=[{"id": "spill_1", "type": "spill", "state": "glass"},
                {"id": "sign_1", "type": "wet floor sign", "state": "placed"}],
          minutes=(1, 2))
    w.note(d, "13:20", "Spill in aisle 4 cleaned up by Joel Ackerman.",
           aisle(4))
    dock(d, "14:00")

    # ----- Tuesday ------------------------------------------------------
    d = TUE
    w.note(d, "05:35", "Night shift start; delivery lorry late.",
           "charging dock")
    scan(d, "05:45", 7, 3)
    price(d, "06:05", 7, "400112", "arabica coffee 500 g", 7.29, 7.29)
    price(d, "06:08", 7, "400119", "decaf coffee 250 g", 3.99, 4.49)
    scan(d, "06:30", 12, None, "FAILED",
         "camera lens fogged up in the cold of the frozen aisle")
    scan(d, "06:55", 9, 4,
         seen=[{"id": "pallet_1", "type": "pallet", "state": "unattended"}])
    w.talk(d, "07:10", aisle(9), [
        (DARIO, "Whose pallet is that blocking aisle 9?"),
        (T, "It came with the dairy delivery, no one has moved it yet."),
        (DARIO, "It is a fire-exit route, it has to be gone before we "
                "open.")], goal="NightAudit.Aisle09")
    label(d, "07:30", "decaf coffee 250 g", 8, "FAILED",
          "label printer out of paper")
    w.talk(d, "08:30", "back office", [
        (INES, "Tally, count the AA batteries at the tills, I think we are "
               "short."),
        (T, "I will count the AA batteries at the tills.")],
        goal="Opening.Manager")
    w.act(d, "08:40", "Opening.Stock", "CountStock",
          {"product": "AA batteries 4-pack", "units": 14}, "tills",
          minutes=(2, 4))
    w.talk(d, "09:15", aisle(2), [
        (MEI, "Do you have baby food without sugar?"),
        (T, "Yes, the no-sugar jars are in aisle 2, bottom shelf. I will "
            "take you there.")])
    w.act(d, "09:16", "Opening.Customers", "GuideCustomer",
          {"customer": MEI, "product": "baby food", "to_aisle": 2},
          aisle(2), persons=[MEI], minutes=(1, 2))
    w.note(d, "10:00", "Pallet in aisle 9 moved to the dairy cold room by "
                       "Priya Nair.", aisle(9))
    w.talk(d, "12:30", aisle(7), [
        (HANA, "Is the coffee price right now? I do not want to be "
               "overcharged again."),
        (T, "Yes, arabica coffee 500 g is 7.29 on the shelf and at the "
            "till.")])
    dock(d, "13:30")

    # ----- Wednesday ----------------------------------------------------
    d = WED
    w.note(d, "05:40", "Night shift start; paper roll fitted in the label "
                       "printer.", "charging dock")
    label(d, "05:50", "decaf coffee 250 g", 8)
    scan(d, "06:10", 12, 6)
    scan(d, "06:35", 3, 1)
    scan(d, "06:55", 5, 7)
    price(d, "07:15", 5, "402230", "olive oil 750 ml", 8.99, 9.49)
    label(d, "07:25", "olive oil 750 ml", 6)
    w.talk(d, "08:20", aisle(5), [
        (PRIYA, "Tally, what did you find in aisle 5?"),
        (T, "Seven gaps, and the olive oil label said 8.99 but the till "
            "says 9.49; the new label is printed.")],
        goal="Opening.Staff")
    w.talk(d, "09:30", aisle(11), [
        (ALBERT, "The gluten-free pasta is gone, when do you get more?"),
        (T, "I have flagged it for the stock team; the next delivery is "
            "Friday.")])
    w.note(d, "10:15", "Freezer F3 alarm again at 10:05; the engineer is "
                       "booked for Thursday.", "frozen foods")
    scan(d, "11:00", 8, None, "ABORTED",
         "store manager asked to clear the aisle for a promotion stand",
         minutes=(2, 4))
    w.note(d, "13:30", "Scan of aisle 8 still to do; aisle blocked by the "
                       "promotion stand.", aisle(8))
    dock(d, "14:00")
    return w


def write(path, seed=SEED):
    return generate(seed).write(path)


class Run:
    def __init__(self, o):
        a = o["action"]
        self.line = o
        self.name, self.args = a["name"], a.get("args") or {}
        self.status = a.get("status", "").lower()
        self.ok = self.status == "succeeded"
        self.t0 = self.t1 = o["_t"]
        self.reason = o.get("note", "")[len("reason: "):] \
            if o.get("note", "").startswith("reason: ") else ""

    @property
    def span(self):
        return Span(self.t0, self.t1, self.name)


class Store(Records):
    """The written lines read back: an action's RUNNING line opens it, the
    next line with the same action name and a final status closes it."""

    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            self.obs = [json.loads(x) for x in f if x.strip()]
        for o in self.obs:
            o["_t"] = parse_time(o["t"])
        self.runs = []
        start = {}
        for o in self.obs:
            a = o.get("action")
            if not a:
                continue
            if a["status"].lower() == "running":
                start[a["name"]] = o["_t"]
                continue
            r = Run(o)
            r.t0 = start.pop(a["name"], r.t1)
            self.runs.append(r)
        self.notes = [o for o in self.obs
                      if o.get("note") and not o.get("action")]
        self.speech = [(o["_t"], u["speaker"], u["text"])
                       for o in self.obs for u in o.get("speech") or []]
        self.lines = self.obs

    def acts(self, name=None, ok=None, day=None, **args):
        """Actions on a LOCAL day (the store's day)."""
        return [r for r in self.find(name, ok=ok, **args)
                if not day or local_day(r.t0) == day]

    def lnote(self, start=None, contains=None, day=None):
        return [o for o in self.note(start=start, contains=contains)
                if not day or local_day(o["_t"]) == day]

    def lsaid(self, speaker=None, contains=None, day=None):
        return [x for x in self.said(speaker=speaker, contains=contains)
                if not day or local_day(x[0]) == day]

    def reply_to(self, t):
        """Tally's utterance(s) on the line of time t."""
        return [x for tt, s, x in self.speech if tt == t and s == ROBOT]


def at(t, what=""):
    return Span(t, t, what)


def names(who):
    return [who, who.split()[0], who.split()[-1]]


def questions(path):
    H = Store(path)
    Q = QuestionSet("shelfscan")
    thu = "2026-10-22T07:30:00+02:00"   # Thursday morning

    # ---- when ---------------------------------------------------------
    e = H.acts("ScanShelf", ok=True, aisle=7)[-1]
    Q.time("when", "When did you last scan aisle 7?", thu, [e.span])
    e = one(H.acts("ReportSpill"))
    Q.time("when", "When did you find the broken jar?", thu, [e.span])
    t, s, x = one(H.lsaid(speaker=INES, contains="recheck"))
    Q.time("when", "When did the manager tell you to recheck the coffee "
           "prices?", thu, [at(t, x)])
    e = H.acts("Dock", ok=True)[-1]
    Q.time("when", "When did you last go to the charger?", thu, [e.span])

    # ---- where --------------------------------------------------------
    e = one(H.acts("ReportSpill"))
    Q.words("where", "Where was the spill?", thu,
            [["aisle %d" % e.args["aisle"]]], e.t1, e.line["location"])
    e = one(H.acts("GuideCustomer", customer=ALBERT))
    Q.words("where", "Where did you take the man who wanted gluten-free "
            "pasta?", thu, [["aisle %d" % e.args["to_aisle"]]], e.t1,
            "aisle %d" % e.args["to_aisle"])
    o = one([o for o in H.lines if any(
        b["type"] == "pallet" for b in o.get("objects") or [])])
    Q.words("where", "Where did you see the pallet that was left "
            "unattended?", thu, [[o["location"]]], o["_t"], o["location"])
    o = one(H.lnote(start="Pallet"))
    dest = grab(r"moved to the ([\w ]+?) by", o["note"])
    Q.words("where", "Where was the pallet moved to?", thu,
            [[dest, "cold room"]], o["_t"], dest)

    # ---- day ----------------------------------------------------------
    es = [x for x in H.acts("CheckPrice", ok=True)
          if "decaf" in x.args["product"] and
          x.args["shelf_price"] != x.args["till_price"]]
    Q.day("day", "Which day did you find the wrong decaf price?", thu,
          [local_day(one(es).t0)], one(es).t1)
    os_ = H.lnote(start="Freezer F3 alarm")
    Q.day("day", "On which day did the freezer alarm go off first?", thu,
          [local_day(os_[0]["_t"])], os_[0]["_t"])
    e = one(H.acts("ScanShelf", ok=False, day=TUE))
    Q.day("day", "Which day did the frozen aisle scan fail?", thu,
          [local_day(e.t0)], e.t1)

    # ---- who ----------------------------------------------------------
    t, s, x = one(H.lsaid(contains="till charged me"))
    Q.words("who", "Who complained that the till overcharged her for "
            "coffee?", thu, [names(s)], t, s)
    o = one(H.lnote(start="Pasta bay"))
    who = grab(r"restocked by (\w+ \w+)", o["note"])
    Q.words("who", "Who restocked the pasta?", thu, [names(who)], o["_t"],
            who)
    t, s, x = one(H.lsaid(contains="AA batteries", speaker=INES))
    Q.words("who", "Who asked you to count the batteries?", thu,
            [names(s)], t, s)
    e = one(H.acts("GuideCustomer", product="baby food"))
    who = e.args["customer"]
    Q.words("who", "Who did you take to the baby food?", thu, [names(who)],
            e.t1, who)
    o = one(H.lnote(start="Spill in aisle"))
    who = grab(r"cleaned up by (\w+ \w+)", o["note"])
    Q.words("who", "Who cleaned up the broken jar?", thu, [names(who)],
            o["_t"], who)
    o = one(H.lnote(start="Freezer F3 alarm", day=MON))
    who = grab(r"; (\w+ \w+) moved", o["note"])
    Q.words("who", "Who moved the ice cream when the freezer failed?", thu,
            [names(who)], o["_t"], who)

    # ---- say ----------------------------------------------------------
    t, s, x = H.lsaid(speaker=HANA, day=MON)[0]
    Q.words("say", "What did Hana Kobayashi complain about?", thu,
            must_contain(x, ["coffee"]) + [["till", "charged", "7.29"]],
            t, x)
    t, s, x = one(H.lsaid(speaker=ALBERT, day=MON))
    r = one(H.reply_to(t))
    Q.words("say", "What did you tell the man looking for gluten-free "
            "pasta?", thu, must_contain(r, ["aisle 11"]) +
            [["top shelf", "follow me"]], t, r, k=1)
    t, s, x = one(H.lsaid(speaker=DARIO))
    Q.words("say", "What did the security guard say about the pallet?", thu,
            [["fire exit", "fire-exit"], ["before we open", "gone"]], t,
            " / ".join(y for tt, ss, y in H.speech
                       if tt == t and ss == DARIO), k=1)
    t, s, x = one(H.lsaid(speaker=INES, contains="recheck"))
    Q.words("say", "What did Ines ask you to do on Monday?", thu,
            must_contain(x, ["recheck", "coffee"]), t, x)
    t, s, x = one(H.lsaid(speaker=ALBERT, day=WED))
    r = one(H.reply_to(t))
    Q.words("say", "What did you tell Albert Fink about the next "
            "delivery?", thu, must_contain(r, ["Friday"]), t, r)

    # ---- which --------------------------------------------------------
    es = [x for x in H.acts("CheckPrice", ok=True)
          if x.args["shelf_price"] != x.args["till_price"]]
    prods = sorted({x.args["product"].split()[0] for x in es})
    Q.words("which", "Which products had the wrong price on the shelf?",
            thu, [[p] for p in prods], es[-1].t1,
            ", ".join(x.args["product"] for x in es), k=2)
    es = H.acts("ScanShelf", ok=True, day=MON)
    top = max(es, key=lambda x: x.args["gaps"])
    Q.words("which", "Which aisle had the most gaps on Monday?", thu,
            [["aisle %d" % top.args["aisle"]]], es[-1].t1,
            "aisle %d (%d gaps)" % (top.args["aisle"], top.args["gaps"]))
    e = one(H.acts("ScanShelf", ok=False, day=TUE))
    Q.words("which", "Which aisle couldn't you scan on Tuesday?", thu,
            [["aisle %d" % e.args["aisle"], "frozen"]], e.t1,
            "aisle %d" % e.args["aisle"])
    es = H.acts("PrintLabel", ok=True)
    Q.words("which", "Which products did you print new labels for?", thu,
            [[x.args["product"].split()[0]] for x in es], es[-1].t1,
            ", ".join(x.args["product"] for x in es), k=2)

    # ---- count --------------------------------------------------------
    es = H.acts("ScanShelf", ok=True)
    Q.count("count", "How many gaps did you find in total?", thu,
            sum(x.args["gaps"] for x in es), es[-1].t1)
    es = [x for x in H.acts("CheckPrice", ok=True)
          if x.args["shelf_price"] != x.args["till_price"]]
    Q.count("count", "How many price mismatches did you find?", thu,
            len(es), es[-1].t1)
    es = H.acts("PrintLabel", ok=True)
    Q.count("count", "How many labels did you print altogether?", thu,
            sum(x.args["copies"] for x in es), es[-1].t1)
    es = H.acts("GuideCustomer", ok=True)
    Q.count("count", "How many customers did you guide to a shelf?", thu,
            len(es), es[-1].t1)
    e = one(H.acts("CountStock", ok=True))
    Q.count("count", "How many packs of AA batteries were there?", thu,
            e.args["units"], e.t1)
    es = H.acts("ScanShelf", ok=True, day=WED)
    Q.count("count", "How many aisles did you scan on Wednesday?", thu,
            len({x.args["aisle"] for x in es}), es[-1].t1)
    e = H.acts("CheckPrice", ok=True, sku="400112")[0]
    till = "%.2f" % e.args["till_price"]
    Q.words("count", "What did the till charge for the arabica coffee?",
            thu, [[till]], e.t1, till)

    # ---- yes / no -----------------------------------------------------
    es = H.acts("ScanShelf", ok=True, day=TUE, aisle=12)
    Q.yesno("yesno", "Did you scan the frozen aisle on Tuesday?", thu,
            bool(es), None)
    os_ = H.lnote(start="Pallet", contains="moved")
    Q.yesno("yesno", "Was the pallet in aisle 9 moved?", thu, bool(os_),
            os_[-1]["_t"] if os_ else None)
    days = {local_day(t) for t, s, x in H.lsaid(speaker=HANA)}
    Q.yesno("yesno", "Did Hana Kobayashi come back after her complaint?",
            thu, len(days) > 1, max(t for t, s, x in H.lsaid(speaker=HANA)))
    os_ = H.lnote(contains="freezer F3")
    fixed = [o for o in os_ if "repaired" in o["note"] or
             "fixed" in o["note"]]
    Q.yesno("yesno", "Has the freezer been repaired?", thu, bool(fixed),
            None)

    # ---- failed -------------------------------------------------------
    e = one(H.acts("ScanShelf", ok=False, day=TUE))
    Q.words("failed", "Why couldn't you scan aisle 12 on Tuesday?", thu,
            [["camera", "lens"], ["fogged", "fog", "cold"]], e.t1, e.reason,
            k=1)
    e = one(H.acts("PrintLabel", ok=False))
    Q.words("failed", "Why did the label printer fail?", thu,
            [["paper"]], e.t1, e.reason)
    e = one([x for x in H.runs if x.status == "aborted" and
             local_day(x.t0) == WED])
    Q.words("failed", "What didn't you finish on Wednesday?", thu,
            [["aisle %d" % e.args["aisle"], "scan"] + variants(e.name)],
            e.t1,
            "%s aisle %d: %s" % (e.name, e.args["aisle"], e.reason))
    Q.words("failed", "Why did you stop scanning aisle 8?", thu,
            [["promotion", "stand"]], e.t1, e.reason)
    return Q.items, H


if __name__ == "__main__":
    import sys
    print(write(sys.argv[1] if len(sys.argv) > 1 else "shelfscan.jsonl"),
          "observations")
