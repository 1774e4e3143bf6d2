"""Fresh and untuned (written 2026-11-28, eighth fresh round): "Sable", the
floor robot of data hall DH2 at the NorthGrid Pune-2 colocation data
centre, Monday 2026-11-09 to Wednesday 2026-11-11, India time (+05:30).

A history in a shape of its own: `t` written with a SPACE, MICROSECONDS
and a +05:30 offset ("2026-11-09 07:31:04.118204+05:30"; every line falls
between 06:00 and 23:59 local, so the local and the UTC day agree) while
`t_end` is an INTEGER of microseconds since the epoch; each job is TWO
lines: a "preparing" line some seconds before it starts, and a final line
stamped at the job's start with its `t_end`, its status and its args again
with a NESTED `result` object (`{"max_inlet_c": 29.0, "hot_rack": "D11"}`,
`{"error": "..."}`); skill names in KEBAB case (`disk-swap`,
`thermal-scan`, `cable-reseat`, `blank-panels`, `rack-audit`, `tape-load`,
`tape-unload`, `rack-mount`, `escort`, `haul`, `receive`, `pdu-read`,
`dock`), args with a nested `target` (`{hall, row, rack, u, bay}`) and
`part` or `device`; the goal an array of the shift and the ticket
(`["night shift", "INC-7781"]`); people talking over the team CHAT, known
by their handles ("priya.nair", "arjun.m", "noc") and writing "@sable",
people on the floor speaking by name or role ("Lena", "Security",
"courier"), the robot as "sable"; persons as `{name, id}` with badge ids
("E-2231", "V-118"); building alarms and the robot's own findings as
LOGFMT notes (`sev=warn src=bms unit=CRAC-3 msg="..."`); things seen in
the aisles with a state object and an `in` relation.  No robot profile.

The truth is read back from the written lines (`Hall`), never from the
generator's variables.  The questions are the shift lead's, a
technician's and a customer's, written before h2emv was asked them;
nobody tuned on them (docs/realqa.md, "An eighth fresh untuned source pair
(datahall, bikeshop), 2026-11-28").
"""

import datetime as _dt
import json
import random
import re

from common import QuestionSet, Span, day_of, must_contain, one, \
    parse_time, variants

SEED = 20261109
MON, TUE, WED = "2026-11-09", "2026-11-10", "2026-11-11"
IST = _dt.timezone(_dt.timedelta(hours=5, minutes=30))
PRIYA = {"name": "Priya Nair", "id": "E-2231"}
ARJUN = {"name": "Arjun Mehta", "id": "E-2417"}
FARHAN = {"name": "Farhan Sheikh", "id": "E-1090"}
LENA = {"name": "Lena Vogel", "id": "V-118"}
RAHUL = {"name": "Rahul Kulkarni", "id": "V-121"}
COURIER = {"id": "V-125"}


def stamp(t_us):
    d = _dt.datetime.fromtimestamp(t_us // 1000000, IST)
    return d.strftime("%Y-%m-%d %H:%M:%S") + ".%06d+05:30" % (t_us % 1000000)


class Writer:
    def __init__(self, seed=SEED):
        self.rng = random.Random(seed)
        self.lines = []
        self.here = "DH2 control room"

    def at(self, day, hhmm):
        t = int(parse_time("%sT%s:00+05:30" % (day, hhmm)))
        return t * 1000000 + self.rng.randint(0, 40 * 1000000)

    def line(self, t_us, **f):
        ln = {"t": stamp(t_us)}
        ln.update({k: v for k, v in f.items() if v not in (None, [], "")})
        self.lines.append((t_us, ln))

    def job(self, day, hhmm, name, args, minutes, status="succeeded",
            where=None, goal=None, result=None, persons=(), seen=(),
            note=None):
        where = where or self.here
        t = self.at(day, hhmm)
        self.line(t - self.rng.randint(5, 30) * 1000000, location=where,
                  goal=goal, action={"name": name, "args": args,
                                     "status": "preparing"})
        end = t + int(minutes * 60 * 1000000) + self.rng.randint(0, 999999)
        fin = dict(args)
        if result:
            fin["result"] = result
        self.line(t, t_end=end, location=where, goal=goal,
                  action={"name": name, "args": fin, "status": status},
                  persons=list(persons), objects=list(seen), note=note)
        self.here = where

    def say(self, day, hhmm, speaker, text, where=None, persons=()):
        where = where or self.here
        self.line(self.at(day, hhmm), location=where, persons=list(persons),
                  speech={"speaker": speaker, "text": text})

    def note(self, day, hhmm, text, where=None, persons=(), seen=()):
        where = where or self.here
        self.line(self.at(day, hhmm), location=where, note=text,
                  persons=list(persons), objects=list(seen))

    def write(self, path):
        with open(path, "w", encoding="utf-8") as f:
            for t, ln in sorted(self.lines, key=lambda x: x[0]):
                f.write(json.dumps(ln, ensure_ascii=False) + "\n")
        return len(self.lines)


def rack(row, rk, u=None, bay=None):
    t = {"hall": "DH2", "row": row, "rack": rk}
    if u is not None:
        t["u"] = u
    if bay is not None:
        t["bay"] = bay
    return t


def generate(seed=SEED):
    w = Writer(seed)
    day_shift = "day shift"
    # ---- Monday ---------------------------------------------------------
    d = MON
    w.job(d, "06:10", "thermal-scan", {"rows": ["A", "B", "C", "D"]}, 35,
          where="DH2 cold aisles", goal=[day_shift, "morning rounds"],
          result={"max_inlet_c": 27.1, "hot_rack": "B04"})
    w.say(d, "07:00", "noc", "@sable INC-7781 SRV-C07-22 drive bay 3 "
          "predictive failure. Spare SSD is in the cage store, shelf 2. "
          "Swap when ready.", "DH2 control room")
    w.say(d, "07:02", "sable", "Ack INC-7781, I will swap bay 3 on "
          "SRV-C07-22 at 07:30.", "DH2 control room")
    w.job(d, "07:30", "disk-swap",
          {"ticket": "INC-7781", "target": rack("C", "C07", 22, 3),
           "part": {"kind": "SSD", "serial": "S6KN0R512", "size": "3.84 TB"}},
          14, where="DH2 row C", goal=[day_shift, "INC-7781"],
          result={"rebuild": "started"})
    w.job(d, "09:15", "escort",
          {"visitor": {"name": "Lena Vogel", "org": "HPE"},
           "from": "loading bay", "to": "rack C09"}, 8, where="DH2 row C",
          persons=[LENA], goal=[day_shift, "CHG-20931"])
    w.say(d, "09:25", "Lena", "Rack C09 has to stay powered while I "
          "replace the controller board, please don't touch its PDUs.",
          "DH2 row C", persons=[LENA])
    w.say(d, "09:26", "sable", "Understood. I will keep both PDUs of C09 "
          "on and hang a work in progress tag on the rack.", "DH2 row C",
          persons=[LENA])
    w.note(d, "11:00", 'sev=warn src=bms unit=CRAC-3 msg="return air 29.4C, '
           'above the 28C setpoint"', "DH2 control room")
    w.job(d, "11:05", "thermal-scan", {"rows": ["D"]}, 12,
          where="DH2 cold aisles", goal=[day_shift, "CRAC-3 alarm"],
          result={"max_inlet_c": 29.0, "hot_rack": "D11"})
    w.say(d, "11:40", "priya.nair", "@sable CRAC-3 is in maintenance mode, "
          "Arjun is on it. Put blanking panels in D11 please.",
          "DH2 cold aisles")
    w.job(d, "11:50", "blank-panels", {"target": rack("D", "D11"),
                                       "panels": 6, "size": "1U"}, 20,
          where="DH2 row D", goal=[day_shift, "CRAC-3 alarm"])
    w.job(d, "13:30", "cable-reseat",
          {"target": rack("C", "C07", 22), "port": "eth1",
           "cable": "DAC 3m"}, 6, status="failed", where="DH2 row C",
          result={"error": "latch broken on the DAC cable, it will not "
                           "stay in"})
    w.note(d, "13:45", 'sev=info src=sable unit=SRV-C07-22 msg="eth1 needs '
           'a new DAC 3m cable; asked the store for one"', "DH2 row C")
    w.job(d, "15:00", "tape-load", {"library": "TL-1", "tapes": 12,
                                    "media": "LTO-9", "slots": "1-12"}, 25,
          where="tape room", goal=[day_shift, "backup rotation"])
    w.job(d, "16:30", "rack-audit", {"row": "A", "racks": 10}, 40,
          where="DH2 row A",
          result={"missing_labels": 2, "open_doors": 1},
          seen=[{"id": "door_A03", "type": "rack door",
                 "state": {"open": True},
                 "relations": [{"to": "rack A03", "type": "in"}]}])
    w.say(d, "17:10", "arjun.m", "CRAC-3 fixed, the fan belt was worn and "
          "I replaced it. Return air is back to 24C.", "DH2 control room")

    # ---- Tuesday --------------------------------------------------------
    d = TUE
    w.job(d, "06:10", "thermal-scan", {"rows": ["A", "B", "C", "D"]}, 35,
          where="DH2 cold aisles", goal=[day_shift, "morning rounds"],
          result={"max_inlet_c": 24.6, "hot_rack": None})
    w.job(d, "07:45", "cable-reseat",
          {"target": rack("C", "C07", 22), "port": "eth1",
           "cable": "DAC 3m (new)"}, 5, where="DH2 row C",
          persons=[ARJUN])
    w.job(d, "09:00", "escort",
          {"visitor": {"name": "Rahul Kulkarni", "org": "Acme Bank"},
           "from": "reception", "to": "cage 14"}, 3, status="aborted",
          where="DH2 mantrap", persons=[RAHUL],
          result={"error": "visitor badge V-121 not activated at the "
                           "mantrap"})
    w.say(d, "09:10", "Security", "Badge V-121 is active now, you can "
          "bring Mr Kulkarni through.", "DH2 mantrap",
          persons=[FARHAN, RAHUL])
    w.job(d, "09:12", "escort",
          {"visitor": {"name": "Rahul Kulkarni", "org": "Acme Bank"},
           "from": "reception", "to": "cage 14"}, 6, where="cage 14",
          persons=[RAHUL])
    w.say(d, "10:30", "Rahul", "Can you check whether our rack 14-2 has "
          "any amber lights?", "cage 14", persons=[RAHUL])
    w.say(d, "10:32", "sable", "Rack 14-2 has one amber light, on power "
          "supply 2 of the top switch.", "cage 14", persons=[RAHUL])
    w.job(d, "11:00", "rack-mount",
          {"target": rack("C", "C11", "30-31"),
           "device": {"model": "DL380 Gen11", "asset": "SRV-C11-30"},
           "rails": True}, 45, where="DH2 row C", persons=[ARJUN],
          goal=[day_shift, "CHG-20940"])
    w.job(d, "13:00", "disk-swap",
          {"ticket": "INC-7790", "target": rack("C", "C03", 8, 1),
           "part": {"kind": "SAS", "serial": "ZA1K7T09", "size": "1.92 TB"}},
          9, status="failed", where="DH2 row C",
          goal=[day_shift, "INC-7790"],
          result={"error": "the spare is a SAS drive, bay 1 needs NVMe"})
    w.say(d, "13:20", "sable", "@priya.nair INC-7790 is blocked: the spare "
          "on shelf 2 is SAS and SRV-C03-08 needs an NVMe drive.",
          "DH2 row C")
    w.say(d, "13:24", "priya.nair", "OK, I ordered an NVMe spare from the "
          "vendor, it arrives tomorrow morning.", "DH2 row C")
    w.job(d, "15:00", "aisle-sweep", {"aisles": ["A", "B", "C", "D"]}, 30,
          where="DH2 cold aisles",
          seen=[{"id": "box_1", "type": "cardboard box",
                 "state": {"blocking": True},
                 "relations": [{"to": "cold aisle B", "type": "in"}]},
                {"id": "ladder_1", "type": "step ladder",
                 "state": {"folded": False},
                 "relations": [{"to": "row D", "type": "in"}]}])
    w.job(d, "15:40", "haul", {"item": "cardboard box",
                               "from": "cold aisle B",
                               "to": "recycling cage"}, 7,
          where="loading bay")
    w.job(d, "18:00", "tape-unload", {"library": "TL-1", "tapes": 12,
                                      "into": "offsite case 7"}, 20,
          where="tape room", goal=[day_shift, "backup rotation"])
    w.say(d, "18:30", "courier", "Picking up offsite case 7 for Iron "
          "Vault, sign here please.", "loading bay", persons=[COURIER])

    # ---- Wednesday ------------------------------------------------------
    d = WED
    w.job(d, "06:10", "thermal-scan", {"rows": ["A", "B", "C", "D"]}, 35,
          where="DH2 cold aisles", goal=[day_shift, "morning rounds"],
          result={"max_inlet_c": 31.2, "hot_rack": "C05"})
    w.note(d, "06:50", 'sev=crit src=sable unit=C05 msg="inlet 31.2C, fan '
           'tray 2 stopped"', "DH2 row C")
    w.say(d, "07:40", "arjun.m", "Swapped fan tray 2 in C05, inlet is at "
          "25C now.", "DH2 row C")
    w.job(d, "09:40", "receive", {"carrier": "BlueDart", "parcels": 3,
                                  "contents": ["NVMe spare 1.92 TB",
                                               "DAC 3m cable x4",
                                               "rail kit"]}, 10,
          where="loading bay", persons=[COURIER])
    w.job(d, "10:30", "disk-swap",
          {"ticket": "INC-7790", "target": rack("C", "C03", 8, 1),
           "part": {"kind": "NVMe", "serial": "PHAB1122", "size": "1.92 TB"}},
          11, where="DH2 row C", goal=[day_shift, "INC-7790"],
          result={"rebuild": "started"})
    w.job(d, "12:00", "pdu-read", {"racks": ["C05", "C07", "C09"]}, 6,
          where="DH2 row C",
          result={"kw": {"C05": 6.2, "C07": 5.8, "C09": 7.4}})
    w.job(d, "14:00", "escort",
          {"visitor": {"name": "Lena Vogel", "org": "HPE"},
           "from": "reception", "to": "rack C09"}, 7, where="DH2 row C",
          persons=[LENA], goal=[day_shift, "CHG-20931"])
    w.say(d, "15:10", "Lena", "The controller board in C09 is replaced and "
          "the array is healthy again. You can take the tag off.",
          "DH2 row C", persons=[LENA])
    w.job(d, "16:00", "rack-audit", {"row": "C", "racks": 12}, 45,
          where="DH2 row C", result={"missing_labels": 0, "open_doors": 0})
    w.job(d, "17:30", "dock", {"station": "charger 2"}, 2,
          where="DH2 control room")
    return w


def write(path, seed=SEED):
    return generate(seed).write(path)


# ---------------------------------------------------------------------------
# The truth, read back from the lines

class Job:
    def __init__(self, o):
        a = o["action"]
        self.name, self.status = a["name"], a["status"]
        self.args = a.get("args") or {}
        self.result = self.args.get("result") or {}
        self.t0 = o["_t"]
        self.t1 = o["t_end"] / 1e6
        self.line = o

    @property
    def ok(self):
        return self.status == "succeeded"

    @property
    def span(self):
        return Span(self.t0, self.t1, self.name)

    @property
    def rack(self):
        return (self.args.get("target") or {}).get("rack")

    @property
    def visitor(self):
        return (self.args.get("visitor") or {}).get("name")


class Hall:
    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            self.obs = [json.loads(x) for x in f if x.strip()]
        for o in self.obs:
            o["_t"] = parse_time(o["t"])
        self.jobs = [Job(o) for o in self.obs if o.get("action") and
                     o["action"]["status"] != "preparing"]
        self.notes = [o for o in self.obs if o.get("note")]
        self.speech = [(o["_t"], o["speech"]["speaker"],
                        o["speech"]["text"])
                       for o in self.obs if o.get("speech")]

    def find(self, name=None, ok=None, day=None, rack=None, **args):
        return [j for j in self.jobs
                if (not name or j.name == name) and
                (ok is None or j.ok == ok) and
                (not day or day_of(j.t0) == day) and
                (not rack or j.rack == rack) and
                all(j.args.get(k) == v for k, v in args.items())]

    def note(self, contains, day=None):
        return [o for o in self.notes if contains.lower() in
                o["note"].lower() and (not day or day_of(o["_t"]) == day)]

    def said(self, speaker=None, contains=None, day=None):
        return [(t, s, x) for t, s, x in self.speech
                if (not speaker or s == speaker) and
                (not day or day_of(t) == day) and
                (not contains or contains.lower() in x.lower())]

    def seen(self):
        return [(o["_t"], x) for o in self.obs for x in o.get("objects", [])]


def logfmt(note):
    """'sev=warn src=bms msg="a b"' -> {'sev': 'warn', 'msg': 'a b'}."""
    return {k: v.strip('"') for k, v in
            re.findall(r'(\w+)=("[^"]*"|\S+)', note)}


def questions(path):
    H = Hall(path)
    Q = QuestionSet("datahall")
    thu = "2026-11-12 03:30:00"        # Thursday 09:00 in Pune
    last = H.obs[-1]["_t"]

    # ---- when -----------------------------------------------------------
    e = one(H.find("disk-swap", ticket="INC-7781"))
    Q.time("when", "When did you swap the drive for INC-7781?", thu,
           [e.span])
    e = H.find("disk-swap", ticket="INC-7790", ok=True)[-1]
    Q.time("when", "When was INC-7790 finally fixed?", thu, [e.span])
    o = one(H.note("CRAC-3"))
    Q.time("when", "What time did the CRAC-3 alarm go off?", thu,
           [Span(o["_t"] - 60, o["_t"])], o["note"])
    e = H.find("escort", ok=True)
    e = [j for j in e if j.visitor == "Lena Vogel"][-1]
    Q.time("when", "When did you last take Lena to her rack?", thu,
           [e.span])
    e = one(H.find("tape-unload"))
    Q.time("when", "When were the tapes taken out of the library for "
           "offsite?", thu, [e.span])
    t, s, x = one(H.said("arjun.m", contains="CRAC-3"))
    Q.time("when", "When did Arjun say CRAC-3 was fixed?", thu,
           [Span(t, t)], x)

    # ---- where ----------------------------------------------------------
    e = one(H.find("haul"))
    Q.words("where", "Where did you take the cardboard box?", thu,
            [variants(e.args["to"], "recycling")], e.t1, e.args["to"],
            none=["cold aisle b"])
    t, x = one([(t, x) for t, x in H.seen() if x["type"] == "step ladder"])
    Q.words("where", "Where was the step ladder left?", thu,
            [variants(x["relations"][0]["to"])], t, x["relations"][0]["to"])
    t, s, x = one(H.said("noc", contains="spare"))
    Q.words("where", "Where was the spare SSD kept?", thu,
            [["shelf 2"], ["cage store", "store"]], t, x, k=1)
    e = one(H.find("rack-mount"))
    Q.words("where", "Where did the new DL380 go?", thu,
            [["c11"]], e.t1, "%s U%s" % (e.rack, e.args["target"]["u"]))
    e = H.find("escort", ok=True)
    e = one([j for j in e if j.visitor == "Rahul Kulkarni"])
    Q.words("where", "Where did you bring Mr Kulkarni?", thu,
            [variants(e.args["to"])], e.t1, e.args["to"],
            none=["reception"])

    # ---- day ------------------------------------------------------------
    e = one(H.find("rack-mount"))
    Q.day("day", "Which day was the new server racked?", thu,
          [day_of(e.t0)], e.t1)
    e = one(H.find("tape-load"))
    Q.day("day", "What day did you load the LTO-9 tapes?", thu,
          [day_of(e.t0)], e.t1)
    o = one(H.note("fan tray"))
    Q.day("day", "On which day did a fan tray stop?", thu,
          [day_of(o["_t"])], o["_t"])

    # ---- who ------------------------------------------------------------
    t, s, x = one(H.said("arjun.m", contains="CRAC-3"))
    Q.words("who", "Who fixed CRAC-3?", thu, [["arjun"]], t, s,
            none=["priya"])
    t, s, x = one(H.said("Security"))
    Q.words("who", "Who activated Mr Kulkarni's badge?", thu,
            [["security", "farhan"]], t, s)
    t, s, x = one(H.said("priya.nair", contains="NVMe"))
    Q.words("who", "Who ordered the NVMe spare?", thu, [["priya"]], t, s)
    t, s, x = one(H.said("arjun.m", contains="fan tray"))
    Q.words("who", "Who swapped the fan tray in C05?", thu, [["arjun"]], t,
            s)
    e = one(H.find("escort", day=MON))
    Q.words("who", "Who did you escort on Monday?", thu,
            [["lena", "vogel"]], e.t1, e.visitor)
    e = one(H.find("cable-reseat", ok=True))
    Q.words("who", "Who was with you when you replaced the eth1 cable?",
            thu, [["arjun"]], e.t1,
            ", ".join(p["name"] for p in e.line["persons"]))
    t, s, x = one(H.said("courier"))
    Q.words("who", "Who picked up the offsite case?", thu,
            [["iron vault", "courier"]], t, x)

    # ---- say ------------------------------------------------------------
    t, s, x = one(H.said("Lena", day=MON))
    Q.words("say", "What did Lena ask you on Monday?", thu,
            must_contain(x, ["C09"]) + [["powered", "touch",
                                         "controller"]], t, x)
    t, s, x = one(H.said("sable", contains="amber"))
    Q.words("say", "What did you tell the Acme Bank customer about his "
            "rack?", thu, [["amber"], ["power supply 2", "power supply",
                                       "psu"]], t, x)
    t, s, x = one(H.said("Lena", day=WED))
    Q.words("say", "What did the HPE engineer say on Wednesday?", thu,
            [["controller board", "controller"], ["healthy", "replaced"]],
            t, x)
    t, s, x = one(H.said("priya.nair", contains="blanking"))
    Q.words("say", "What did Priya ask you to do about D11?", thu,
            [["blanking panel*", "blanking", "panel*"]], t, x)
    t, s, x = one(H.said("sable", contains="INC-7790"))
    Q.words("say", "what did you tell priya about INC-7790", thu,
            [["sas"], ["nvme"]], t, x)
    t, s, x = one(H.said("noc"))
    Q.words("say", "What did the NOC message you about on Monday "
            "morning?", thu, [["c07", "inc 7781", "bay 3", "drive",
                               "predictive"]], t, x)

    # ---- see ------------------------------------------------------------
    seen = [(t, x) for t, x in H.seen() if day_of(t) == TUE]
    Q.words("see", "What did you find in the aisles during "
            "Tuesday's sweep?", thu, [[x["type"], x["type"].split()[-1]]
                                for t, x in seen],
            max(t for t, x in seen), ", ".join(x["type"] for t, x in seen),
            k=1)
    t, x = one([(t, x) for t, x in H.seen() if x["type"] == "rack door"])
    Q.words("see", "Which rack door was open during the row A audit?", thu,
            [["a03"]], t, x["relations"][0]["to"])

    # ---- which ----------------------------------------------------------
    e = one(H.find("disk-swap", ticket="INC-7781"))
    Q.words("which", "Which bay did you swap the drive in on Monday?", thu,
            [["bay 3"]], e.t1, "bay %s" % e.args["target"]["bay"],
            none=["bay 1"])
    e = one(H.find("thermal-scan", day=WED))
    Q.words("which", "Which rack was running hottest on Wednesday "
            "morning?", thu, [[e.result["hot_rack"].lower()]], e.t1,
            e.result["hot_rack"], none=["d11", "b04"])
    e = one(H.find("cable-reseat", ok=False))
    Q.words("which", "Which port had the bad cable?", thu,
            [[e.args["port"]]], e.t1, e.args["port"])
    e = one(H.find("pdu-read"))
    top = max(e.result["kw"], key=e.result["kw"].get)
    Q.words("which", "Which of the three racks draws the most power?", thu,
            [[top.lower()]], e.t1, "%s %.1f kW" % (top, e.result["kw"][top]),
            none=[r.lower() for r in e.result["kw"] if r != top])
    e = H.find("disk-swap", ticket="INC-7790", ok=True)[-1]
    Q.words("which", "What kind of drive went into SRV-C03-08 in the "
            "end?", thu, [["nvme"]], e.t1, e.args["part"]["kind"],
            none=["sas"])
    e = one(H.find("receive"))
    Q.words("which", "Which courier company brought the parcels?", thu,
            [["bluedart", "blue dart"]], e.t1, e.args["carrier"])

    # ---- count ----------------------------------------------------------
    e = one(H.find("blank-panels"))
    Q.count("count", "How many blanking panels did you put in D11?", thu,
            e.args["panels"], e.t1)
    e = one(H.find("tape-load"))
    Q.count("count", "How many tapes did you load into TL-1?", thu,
            e.args["tapes"], e.t1)
    es = H.find("disk-swap")
    Q.count("count", "How many drive swaps did you try this week?", thu,
            len(es), es[-1].t1)
    e = one(H.find("receive"))
    Q.count("count", "How many parcels came on Wednesday?", thu,
            e.args["parcels"], e.t1)
    e = one(H.find("rack-audit", day=MON))
    Q.count("count", "How many missing labels did you find in row A?", thu,
            e.result["missing_labels"], e.t1)
    e = one(H.find("pdu-read"))
    kw = e.result["kw"]["C09"]
    Q.words("count", "How much power was C09 drawing?", thu,
            [["%.1f" % kw, "%g" % kw]], e.t1, "%.1f kW" % kw)
    e = one(H.find("thermal-scan", day=MON, rows=["D"]))
    Q.words("count", "What was the hottest inlet temperature when you "
            "scanned row D on Monday?", thu,
            [["%.1f" % e.result["max_inlet_c"], "%g" % e.result["max_inlet_c"]]],
            e.t1, "%.1f C" % e.result["max_inlet_c"], none=["29.4"])

    # ---- yes / no -------------------------------------------------------
    e = H.find("cable-reseat", rack="C07")[-1]
    Q.yesno("yesno", "Is eth1 on SRV-C07-22 working now?", thu, e.ok, e.t1)
    Q.yesno("yesno", "Did you rack a new server in row D?", thu,
            bool([j for j in H.find("rack-mount")
                  if j.args["target"]["row"] == "D"]), last)
    e = one(H.find("rack-audit", day=WED))
    Q.yesno("yesno", "Were any rack doors open in row C yesterday?", thu,
            e.result["open_doors"] > 0, e.t1)
    Q.yesno("yesno", "Did Lena come back after Monday?", thu,
            len([j for j in H.find("escort", ok=True)
                 if j.visitor == "Lena Vogel"]) > 1, last)

    # ---- failed ---------------------------------------------------------
    e = one(H.find("escort", ok=False))
    Q.words("failed", "Why couldn't you take the Acme Bank visitor in the "
            "first time?", thu, [["badge", "not activated", "v 121"]], e.t1,
            e.result["error"])
    e = one(H.find("disk-swap", ok=False))
    Q.words("failed", "What went wrong with the drive swap on Tuesday?",
            thu, [["sas", "nvme", "wrong"]], e.t1, e.result["error"])
    e = one(H.find("cable-reseat", ok=False))
    Q.words("failed", "Why did the cable reseat fail?", thu,
            [["latch"]], e.t1, e.result["error"])
    o = one(H.note("fan tray"))
    Q.words("failed", "What was wrong with C05?", thu,
            [["fan tray", "fan", "31.2"]], o["_t"], logfmt(o["note"])["msg"])
    es = H.find(day=TUE, ok=False)
    Q.words("failed", "What failed on Tuesday?", thu,
            [["escort", "badge", "kulkarni"], ["drive", "disk", "sas",
                                              "nvme", "inc 7790"]],
            es[-1].t1, "; ".join("%s %s" % (j.name, j.result) for j in es),
            k=1)
    Q.yesno("failed", "Did anything fail on Wednesday?", thu,
            bool(H.find(day=WED, ok=False)), one(H.find(day=WED), -1).t1)

    # ---- questions nobody else asks -------------------------------------
    e = one(H.find("disk-swap", ticket="INC-7781"))
    Q.words("which", "What's the serial number of the SSD you put in "
            "C07?", thu, [[e.args["part"]["serial"].lower()]], e.t1,
            e.args["part"]["serial"])
    e = one(H.find("rack-mount"))
    Q.words("which", "What asset tag did the new server get?", thu,
            [[e.args["device"]["asset"].lower()]], e.t1,
            e.args["device"]["asset"])
    return Q.items, H


if __name__ == "__main__":
    import sys
    print(write(sys.argv[1] if len(sys.argv) > 1 else "datahall.jsonl"),
          "observations")
