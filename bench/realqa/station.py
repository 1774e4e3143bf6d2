"""Fresh and untuned (written 2026-11-27, sixth fresh round): "Wren", an
intra-vehicular free-flyer on the commercial space station Halcyon,
Tuesday 2026-12-01 to Thursday 2026-12-03, station time (GMT, UTC).

A history in a shape of its own: times with a SPACE, milliseconds and a
"Z" ("2026-12-01 07:30:12.250Z"); each task is ONE line from `t` to `t_end`
with skill names in UPPER snake case (`INVENTORY_AUDIT`, `AIR_SAMPLE`,
`FETCH_TOOL`, `STOW_TOOL`, `MOVE_ITEM`, `PHOTO_SURVEY`, `LEAK_CHECK`,
`FOLLOW_CREW`, `REMIND`, `NAV_TO`, `DOCK_CHARGE`); most `args` are a ROS
style KeyValue LIST, every value a string (`[{"key": "tool", "value":
"torque wrench"}, {"key": "for", "value": "Raj Patel"}, ...]`), the air
samples an object with a nested `readings` object (`co2_ppm`, `o2_pct`,
`rh_pct`); the goal an array naming the day's plan and the task ticket
(`["PLAN-335", "INV-AUDIT"]`); the failure reason in an `abort_reason` key,
in an "FDIR: ..." note or in the robot's own words; standby lines between
tasks (goal `["STANDBY"]`, no action); crew present as `{name, id}` with
their posts ("CDR", "FE-1", "FE-2"), ground as the speaker "CAPCOM"; the
robot speaks as "WREN" (upper case), the crew call it "Wren"; one
utterance per line; things seen as objects with a state object and
relations (`in`, `next_to`) to racks and panels; crew notes that start
with their subject ("Raj swapped ...", "Yuki Tanaka opened ...").  No robot
profile.

The truth is read back from the written lines (`Station`), never from the
generator's variables.  The questions are the commander's, the crew's and
ground's, written before h2emv was asked them; nobody tuned on them
(docs/realqa.md, "A sixth fresh untuned source pair (station, playhouse),
2026-11-27").
"""

import datetime as _dt
import json
import random

from common import QuestionSet, Span, day_of, must_contain, one, \
    parse_time, variants

SEED = 20261201
TUE, WED, THU = "2026-12-01", "2026-12-02", "2026-12-03"
UTC = _dt.timezone.utc
LENA = {"name": "Lena Fischer", "id": "CDR"}
RAJ = {"name": "Raj Patel", "id": "FE-1"}
YUKI = {"name": "Yuki Tanaka", "id": "FE-2"}


def stamp(ms):
    """Milliseconds since the epoch as '2026-12-01 07:30:12.250Z'."""
    s, r = divmod(ms, 1000)
    d = _dt.datetime.fromtimestamp(s, UTC)
    return d.strftime("%Y-%m-%d %H:%M:%S") + ".%03dZ" % r


def kv(**a):
    """A ROS KeyValue list, every value a string ('for' passed as for_)."""
    return [{"key": k.rstrip("_"), "value": str(v)} for k, v in a.items()]


class Writer:
    def __init__(self, seed=SEED):
        self.rng = random.Random(seed)
        self.lines = []
        self.here = "Node 2"
        self.clock = 0

    def at(self, day, hhmm):
        ms = int(parse_time("%sT%s:00Z" % (day, hhmm))) * 1000 + \
            self.rng.randint(0, 45000)
        ms = max(ms, self.clock + 2000)
        # a standby line every 40 minutes while idle, the same day only
        s = self.clock + 40 * 60000
        while self.clock and s < ms - 5 * 60000 and \
                day_of(s / 1000) == day_of(self.clock / 1000):
            self.line(s, location=self.here, goal=["STANDBY"])
            s += 40 * 60000
        return ms

    def line(self, ms, ms_end=None, **f):
        ln = {"t": stamp(ms)}
        if ms_end:
            ln["t_end"] = stamp(ms_end)
        ln.update({k: v for k, v in f.items() if v not in (None, [], "")})
        self.lines.append(ln)
        self.clock = max(self.clock, ms_end or ms)

    def task(self, day, hhmm, name, args, minutes, where, goal,
             status="succeeded", note=None, seen=(), rel=(), persons=(),
             speech=None):
        t = self.at(day, hhmm)
        self.line(t, t + minutes * 60000 + self.rng.randint(0, 20000),
                  location=where, goal=goal,
                  action={"name": name, "args": args, "status": status},
                  note=note, objects=[dict(o) for o in seen],
                  relations=[list(r) for r in rel], persons=list(persons),
                  speech=speech)
        self.here = where

    def say(self, day, hhmm, speaker, text, where=None, persons=()):
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


def thing(i, typ, **state):
    o = {"id": i, "type": typ}
    if state:
        o["state"] = state
    return o


def generate(seed=SEED):
    w = Writer(seed)

    # ---- Tuesday --------------------------------------------------------
    d, plan = TUE, "PLAN-335"
    w.say(d, "07:05", "CAPCOM", "Good morning Halcyon, and good morning "
          "Wren. Today's plan: the inventory audit of rack PMM-F3 and an air "
          "sample in the lab.", "Node 2", persons=[LENA])
    w.say(d, "07:06", "WREN", "Copy, CAPCOM. Starting the audit of PMM-F3 "
          "at 07:30.", persons=[LENA])
    w.task(d, "07:30", "INVENTORY_AUDIT",
           kv(module="PMM", rack="PMM-F3", expected=14, found=13), 55,
           "PMM", [plan, "INV-AUDIT"],
           note="Audit PMM-F3: 13 of 14 bags found; CTB-2207 (spare WRS "
                "filters) not at its slot.",
           seen=[thing("CTB-1142", "cargo transfer bag", contents="socks"),
                 thing("CTB-1187", "cargo transfer bag",
                       contents="food pouches")],
           rel=[("CTB-1142", "PMM-F3", "in"), ("CTB-1187", "PMM-F3", "in")])
    w.task(d, "08:50", "AIR_SAMPLE",
           {"module": "Lab", "readings": {"co2_ppm": 2650, "o2_pct": 20.8,
                                          "rh_pct": 41}}, 12, "Lab",
           [plan, "ECLSS-SAMPLE"])
    w.say(d, "09:30", "Raj Patel", "Wren, bring me the torque wrench for "
          "the EVA prep, please. I'm in the airlock.", "Lab", persons=[RAJ])
    w.task(d, "09:35", "FETCH_TOOL",
           kv(tool="torque wrench", from_="tool kit drawer B",
              for_="Raj Patel"), 9, "Airlock", [plan, "EVA-PREP"],
           persons=[RAJ])
    w.say(d, "10:20", "Raj Patel", "Thanks Wren. Can you also grab the "
          "spare EVA gloves from the hab?", "Airlock", persons=[RAJ])
    w.say(d, "10:21", "WREN", "On my way to the hab for the spare gloves.",
          persons=[RAJ])
    w.task(d, "10:30", "FETCH_TOOL",
           kv(tool="spare EVA gloves", from_="hab locker 4",
              for_="Raj Patel"), 7, "Hab module", [plan, "EVA-PREP"],
           status="failed",
           speech={"speaker": "WREN", "text": "I can't open hab locker 4: "
                   "its latch won't release for my arm."})
    w.note(d, "11:10", "Yuki Tanaka opened locker 4 by hand and took the "
           "gloves to Raj.", "Hab module", persons=[YUKI])
    w.task(d, "13:00", "PHOTO_SURVEY", kv(module="Node 2", frames=120), 35,
           "Node 2", [plan, "SURVEY"],
           seen=[thing("glasses_1", "reading glasses", attached="velcro"),
                 thing("pouch_17", "water pouch", loose=True),
                 thing("ties_3", "cable tie bag", loose=True)],
           rel=[("glasses_1", "galley table", "next_to"),
                ("pouch_17", "Node 2 ceiling", "next_to")])
    w.say(d, "14:25", "Lena Fischer", "Wren, tell Houston the water "
          "recovery system is showing a low flow alarm.", "Node 2",
          persons=[LENA])
    w.task(d, "14:27", "RELAY_COMMS", kv(to="CAPCOM", channel="S-band 2"),
           2, "Node 2", [plan, "COMMS"],
           speech={"speaker": "WREN", "text": "CAPCOM, Wren relaying for "
                   "the commander: the water recovery system shows a low "
                   "flow alarm."})
    w.say(d, "14:31", "CAPCOM", "Copy, Wren. The ECLSS team will look at "
          "the water recovery data tonight.", "Node 2")
    w.task(d, "15:30", "STOW_TOOL",
           kv(tool="torque wrench", to="tool kit drawer B"), 6, "Node 1",
           [plan, "EVA-PREP"])
    w.task(d, "16:10", "DOCK_CHARGE", kv(dock="Node 2 dock"), 70, "Node 2",
           [plan, "POWER"])

    # ---- Wednesday ------------------------------------------------------
    d, plan = WED, "PLAN-336"
    w.task(d, "06:45", "AIR_SAMPLE",
           {"module": "Hab module", "readings": {"co2_ppm": 3100,
                                                 "o2_pct": 20.6,
                                                 "rh_pct": 47},
            "alert": "CO2 above the 3000 ppm limit"}, 12, "Hab module",
           [plan, "ECLSS-SAMPLE"])
    w.say(d, "07:02", "Lena Fischer", "Wren, what did the CO2 read in the "
          "hab?", "Hab module", persons=[LENA])
    w.say(d, "07:03", "WREN", "3100 ppm in the hab module, above the 3000 "
          "ppm limit. I suggest turning on the second CO2 scrubber.",
          persons=[LENA])
    w.task(d, "07:25", "NAV_TO", kv(target="Cupola"), 4, "Node 3",
           [plan, "SURVEY"], status="aborted",
           note="FDIR: fan 2 impeller stalled; flew back on fan 1 only and "
                "stopped in Node 3.")
    w.note(d, "08:15", "Raj swapped Wren's fan 2 impeller; propulsion "
           "nominal again.", "Node 3", persons=[RAJ])
    w.task(d, "09:00", "INVENTORY_AUDIT",
           kv(module="PMM", rack="PMM-F4", expected=10, found=10), 40,
           "PMM", [plan, "INV-AUDIT"])
    w.task(d, "10:05", "MOVE_ITEM",
           kv(item="CTB-2207", from_="Node 3 aft panel", to="PMM-F3"), 15,
           "Node 3", [plan, "INV-AUDIT"],
           note="Found CTB-2207 (spare WRS filters) strapped behind the "
                "Node 3 aft panel; returned it to PMM-F3.")
    w.say(d, "11:00", "CAPCOM", "Wren, please run a leak check on the "
          "airlock inner hatch seal at 13:00 GMT.", "PMM")
    w.say(d, "11:01", "WREN", "Copy, leak check on the inner hatch seal at "
          "13:00.")
    w.task(d, "13:00", "LEAK_CHECK",
           kv(hatch="airlock inner hatch", dp_mbar_per_hr="0.4",
              limit="1.0"), 20, "Airlock", [plan, "LEAK-CHK"])
    w.task(d, "14:00", "FOLLOW_CREW",
           kv(crew="Yuki Tanaka", task="Veggie lettuce harvest video"), 40,
           "Lab", [plan, "VIDEO"], persons=[YUKI],
           seen=[thing("lettuce_tray", "lettuce plant", count=6),
                 thing("veggie_unit", "plant growth chamber")],
           rel=[("lettuce_tray", "veggie_unit", "in")])
    w.say(d, "15:00", "Yuki Tanaka", "Wren, the lettuce needs water. "
          "Remind me at five.", "Lab", persons=[YUKI])
    w.say(d, "15:01", "WREN", "I'll remind you at 17:00 to water the "
          "lettuce.", persons=[YUKI])
    w.task(d, "17:00", "REMIND", kv(crew="Yuki Tanaka",
                                    text="water the lettuce"), 1, "Lab",
           [plan, "CREW-SUPPORT"], persons=[YUKI],
           speech={"speaker": "WREN", "text": "Yuki, it is five o'clock: "
                   "time to water the lettuce."})
    w.task(d, "17:30", "DOCK_CHARGE", kv(dock="Node 2 dock"), 75, "Node 2",
           [plan, "POWER"])

    # ---- Thursday -------------------------------------------------------
    d, plan = THU, "PLAN-337"
    w.task(d, "06:40", "AIR_SAMPLE",
           {"module": "Hab module", "readings": {"co2_ppm": 2400,
                                                 "o2_pct": 21.0,
                                                 "rh_pct": 44}}, 12,
           "Hab module", [plan, "ECLSS-SAMPLE"])
    w.say(d, "07:00", "CAPCOM", "Halcyon, the ECLSS team found a clogged "
          "filter in the water recovery system. Raj will swap it at 09:00; "
          "Wren, please bring him a spare filter kit.", "Node 2",
          persons=[RAJ, LENA])
    w.task(d, "08:40", "FETCH_TOOL",
           kv(tool="WRS filter kit", from_="PMM-F3", for_="Raj Patel"), 14,
           "Node 3", [plan, "WRS-REPAIR"], persons=[RAJ])
    w.note(d, "09:45", "Raj replaced the WRS filter; the low flow alarm "
           "cleared.", "Node 3", persons=[RAJ])
    w.task(d, "10:30", "INVENTORY_AUDIT",
           kv(module="PMM", rack="PMM-F3", expected=14, found=14), 50,
           "PMM", [plan, "INV-AUDIT"])
    w.task(d, "11:40", "PHOTO_SURVEY", kv(module="Cupola", frames=80,
                                          abort_reason="camera lens fogged "
                                          "after 22 frames"), 9, "Cupola",
           [plan, "SURVEY"], status="aborted")
    w.say(d, "12:15", "Lena Fischer", "Wren, have you seen my reading "
          "glasses anywhere?", "Node 2", persons=[LENA])
    w.say(d, "12:16", "WREN", "Yes: on Tuesday's photo survey they were in "
          "Node 2, velcroed next to the galley table.", persons=[LENA])
    w.task(d, "13:30", "MOVE_ITEM",
           kv(item="water pouches", qty=12, from_="PMM-F4", to="galley"), 18,
           "Node 2", [plan, "GALLEY"])
    w.task(d, "14:10", "MOVE_ITEM",
           kv(item="water pouches", qty=8, from_="PMM-F4", to="galley"), 15,
           "Node 2", [plan, "GALLEY"])
    w.say(d, "14:50", "Lena Fischer", "Good work today, Wren. Dock and "
          "charge, we have a reboost tomorrow.", "Node 2", persons=[LENA])
    w.task(d, "15:00", "DOCK_CHARGE", kv(dock="Node 2 dock"), 80, "Node 2",
           [plan, "POWER"])
    return w


def write(path, seed=SEED):
    return generate(seed).write(path)


# ---------------------------------------------------------------------------
# The truth, read back from the lines

def ts(s):
    """'2026-12-01 07:30:12.250Z' -> epoch seconds."""
    return parse_time(s)


class Task:
    def __init__(self, o):
        a = o["action"]
        self.name, self.status = a["name"], a.get("status")
        raw = a.get("args")
        if isinstance(raw, list):
            self.args = {p["key"]: p["value"] for p in raw}
        else:
            self.args = dict(raw or {})
        self.line = o
        self.ok = self.status == "succeeded"
        self.t0 = o["_t"]
        self.t1 = ts(o["t_end"]) if o.get("t_end") else o["_t"]

    @property
    def span(self):
        return Span(self.t0, self.t1, self.name)

    def get(self, *path):
        x = self.args
        for k in path:
            if not isinstance(x, dict) or k not in x:
                return None
            x = x[k]
        return x


class Station:
    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            self.obs = [json.loads(x) for x in f if x.strip()]
        for o in self.obs:
            o["_t"] = ts(o["t"])
        self.tasks = [Task(o) for o in self.obs if o.get("action")]
        self.notes = [o for o in self.obs if o.get("note") and
                      not o.get("action")]
        self.speech = [(o["_t"], o["speech"].get("speaker"),
                        o["speech"]["text"])
                       for o in self.obs if o.get("speech")]

    def find(self, name=None, ok=None, day=None, **args):
        return [j for j in self.tasks
                if (not name or j.name == name) and
                (ok is None or j.ok == ok) and
                (not day or day_of(j.t0) == day) and
                all(j.get(k) == v for k, v in args.items())]

    def note(self, contains, day=None):
        return [o for o in self.notes if contains.lower() in
                o["note"].lower() and (not day or day_of(o["_t"]) == day)]

    def said(self, speaker=None, contains=None, day=None):
        return [(t, s, x) for t, s, x in self.speech
                if (not speaker or s == speaker) and
                (not day or day_of(t) == day) and
                (not contains or contains.lower() in x.lower())]

    def seen(self, day=None, name=None):
        out = []
        for j in self.tasks:
            if (day and day_of(j.t0) != day) or (name and j.name != name):
                continue
            for x in j.line.get("objects") or []:
                out.append((j, x))
        return out

    def rel(self, obj_id):
        for o in self.obs:
            for a, b, r in o.get("relations") or []:
                if a == obj_id:
                    return o, b, r
        raise AssertionError("no relation for " + obj_id)


def questions(path):
    H = Station(path)
    Q = QuestionSet("station")
    thu_pm = "2026-12-03 17:00:00"    # Thursday, after the last line
    fri = "2026-12-04 06:30:00"       # Friday morning, reboost day

    # ---- when -----------------------------------------------------------
    e = one(H.find("LEAK_CHECK"))
    Q.time("when", "When did you do the leak check on the airlock hatch?",
           fri, [e.span])
    e = one(H.find("FETCH_TOOL", tool="torque wrench"))
    Q.time("when", "What time did you bring Raj the torque wrench?", fri,
           [e.span])
    e = H.find("AIR_SAMPLE")[-1]
    Q.time("when", "When was the last air sample taken?", fri, [e.span])
    t, s, x = one(H.said("CAPCOM", contains="clogged"))
    Q.time("when", "When did ground tell us about the clogged filter?", fri,
           [Span(t, t, x)])
    o = one(H.note("low flow alarm cleared"))
    Q.time("when", "What time did the low flow alarm clear?", fri,
           [Span(o["_t"], o["_t"], o["note"])])
    e = one(H.find("INVENTORY_AUDIT"))
    Q.time("when", "When did you first audit rack PMM-F3?", fri, [e.span])
    e = one(H.find("REMIND"))
    Q.time("when", "When did you remind Yuki to water the lettuce?", fri,
           [e.span])

    # ---- where ----------------------------------------------------------
    e = one(H.find("MOVE_ITEM", item="CTB-2207"))
    Q.words("where", "Where did you find the missing bag CTB-2207?", fri,
            [["node 3"], ["aft panel", "panel"]], e.t1, e.get("from"),
            none=["pmm f4"])
    o, b, r = H.rel("glasses_1")
    Q.words("where", "Where were the commander's reading glasses?", fri,
            [["galley table", "galley"]], o["_t"], "%s %s" % (r, b))
    e = one(H.find("STOW_TOOL"))
    Q.words("where", "Where did you put the torque wrench away?", fri,
            [["drawer b", "tool kit drawer b", "tool kit"]], e.t1,
            e.get("to"))
    e = one(H.find("NAV_TO", ok=False))
    Q.words("where", "Where did you end up when your fan stalled?", fri,
            [["node 3"]], e.t1, e.line["location"], none=["cupola"])
    e = H.find("MOVE_ITEM", item="water pouches")[0]
    Q.words("where", "Where did the water pouches for the galley come "
            "from?", fri, [variants(e.get("from"), "pmm f4", "f4")], e.t1,
            e.get("from"))
    e = one(H.find("FETCH_TOOL", ok=False))
    Q.words("where", "Where were the spare EVA gloves kept?", fri,
            [["locker 4", "hab locker", "hab"]], e.t1, e.get("from"))

    # ---- day ------------------------------------------------------------
    e = one(H.find("NAV_TO", ok=False))
    Q.day("day", "Which day did your fan 2 impeller stall?", fri,
          [day_of(e.t0)], e.t1)
    e = one(H.find("AIR_SAMPLE", ok=True, alert="CO2 above the 3000 ppm "
                   "limit"))
    Q.day("day", "On which day was the CO2 in the hab over the limit?", fri,
          [day_of(e.t0)], e.t1)
    e = one(H.find("PHOTO_SURVEY", module="Cupola"))
    Q.day("day", "What day did you try to survey the cupola?", fri,
          [day_of(e.t0)], e.t1)
    t, s, x = one(H.said("Lena Fischer", contains="houston"))
    Q.day("day", "What day did the commander ask you to report the water "
          "alarm to Houston?", fri, [day_of(t)], t)

    # ---- who ------------------------------------------------------------
    o = one(H.note("fan 2 impeller"))
    Q.words("who", "Who fixed your fan?", fri, [["raj", "patel"]], o["_t"],
            o["note"])
    o = one(H.note("locker 4"))
    Q.words("who", "Who opened locker 4 in the end?", fri,
            [["yuki", "tanaka"]], o["_t"], o["note"], none=["raj"])
    e = one(H.find("FETCH_TOOL", tool="WRS filter kit"))
    Q.words("who", "Who did you bring the filter kit to?", fri,
            [["raj", "patel"]], e.t1, e.get("for"))
    t, s, x = one(H.said(contains="leak check"))
    Q.words("who", "Who asked for the leak check on the hatch?", fri,
            [["capcom", "ground", "houston", "mission control"]], t, s)
    e = one(H.find("FOLLOW_CREW"))
    Q.words("who", "Who were you filming on Wednesday afternoon?", fri,
            [["yuki", "tanaka"]], e.t1, e.get("crew"))
    t, s, x = one(H.said("Lena Fischer", contains="good work"))
    Q.words("who", "who told you to dock and charge on Thursday?", fri,
            [["lena", "fischer", "commander"]], t, s)

    # ---- say ------------------------------------------------------------
    t, s, x = one(H.said("CAPCOM", contains="water recovery data"))
    Q.words("say", "What did CAPCOM say about the low flow alarm on "
            "Tuesday?", fri, must_contain(x, ["ECLSS"]) +
            [["tonight", "look at", "data"]], t, x)
    t, s, x = one(H.said("WREN", contains="3100"))
    Q.words("say", "What did you tell Lena the CO2 reading was?", fri,
            [["3100", "3,100"]], t, x)
    t, s, x = one(H.said("Yuki Tanaka"))
    Q.words("say", "What did Yuki ask you to do?", fri,
            must_contain(x, ["lettuce"]) + [["remind", "water"]], t, x)
    t, s, x = one(H.said("Raj Patel", contains="gloves"))
    Q.words("say", "What did Raj ask you for after the torque wrench?", fri,
            [["glove*"]], t, x)
    t, s, x = one(H.said("WREN", contains="locker 4"))
    Q.words("say", "what did you say when you couldn't open the locker",
            fri, [["latch"]], t, x)
    t, s, x = one(H.said("CAPCOM", day=TUE))
    Q.words("say", "What was the plan ground gave us on Tuesday morning?",
            fri, must_contain(x, ["inventory audit"]) +
            [["air sample", "lab", "pmm f3"]], t, x)

    # ---- see ------------------------------------------------------------
    seen = [x for j, x in H.seen(TUE, "PHOTO_SURVEY")]
    Q.words("see", "What did you see floating around during the Node 2 "
            "photo survey?", fri,
            [variants(x["type"]) for x in seen if x.get("state", {}).get(
                "loose")], one(H.find("PHOTO_SURVEY", day=TUE)).t1,
            ", ".join(x["type"] for x in seen
                      if x.get("state", {}).get("loose")),
            others=[["lettuce"], ["cargo transfer bag", "socks"]])
    seen = [x for j, x in H.seen(WED, "FOLLOW_CREW")]
    Q.words("see", "What did you see in the lab while filming Yuki?", fri,
            [variants(x["type"], "lettuce") for x in seen],
            one(H.find("FOLLOW_CREW")).t1,
            ", ".join(x["type"] for x in seen), k=1,
            others=[["water pouch"], ["reading glasses"]])

    # ---- which ----------------------------------------------------------
    e = one(H.find("INVENTORY_AUDIT", day=TUE))
    o = e.line["note"]
    Q.words("which", "Which bag was missing from PMM-F3 on Tuesday?", fri,
            [["ctb 2207", "ctb2207", "2207"]], e.t1, o)
    e = one(H.find("LEAK_CHECK"))
    Q.words("which", "What leak rate did you measure on the inner hatch?",
            fri, [[e.get("dp_mbar_per_hr")]], e.t1,
            e.get("dp_mbar_per_hr") + " mbar/hr")
    e = one(H.find("AIR_SAMPLE", day=THU))
    Q.words("which", "What was the CO2 level in the hab on Thursday "
            "morning?", thu_pm, [[str(e.get("readings", "co2_ppm")),
                                  "2,400"]], e.t1,
            "%d ppm" % e.get("readings", "co2_ppm"))
    e = one(H.find("AIR_SAMPLE", module="Lab"))
    Q.words("which", "What was the oxygen reading in the lab?", fri,
            [[str(e.get("readings", "o2_pct"))]], e.t1,
            "%s %%" % e.get("readings", "o2_pct"))
    e = one(H.find("FETCH_TOOL", ok=False))
    Q.words("which", "What couldn't you fetch for Raj on Tuesday?", fri,
            [["glove*"]], e.t1, e.get("tool"), none=["torque"])
    tasks = [j for j in H.find(day=THU)]
    Q.words("which", "What did you do on Thursday?", thu_pm,
            [["air sample", "air", "co2"], ["filter*"], ["audit*",
                                                      "inventory"],
             ["survey*", "cupola", "photo*"], ["water pouch*", "pouch*",
                                               "galley"],
             ["dock*", "charg*"]], tasks[-1].t1,
            ", ".join(j.name for j in tasks), k=4)
    e = H.find(day=WED)[0]
    Q.words("which", "What was the first thing you did on Wednesday?", fri,
            [["air sample", "sampl*", "co2", "air"]], e.t1, e.name)

    # ---- count ----------------------------------------------------------
    e = one(H.find("INVENTORY_AUDIT", day=TUE))
    Q.count("count", "How many bags did you find in PMM-F3 on Tuesday?", fri,
            int(e.get("found")), e.t1)
    es = H.find("MOVE_ITEM", item="water pouches")
    Q.count("count", "How many water pouches did you move to the galley "
            "on Thursday?", fri, sum(int(j.get("qty")) for j in es),
            es[-1].t1)
    es = H.find("AIR_SAMPLE")
    Q.count("count", "How many air samples did you take this week?", fri,
            len(es), es[-1].t1)
    e = one(H.find("PHOTO_SURVEY", day=TUE))
    Q.count("count", "How many frames did the Node 2 survey take?", fri,
            int(e.get("frames")), e.t1)
    e = one(H.find("LEAK_CHECK"))
    Q.count("count", "How long did the leak check take, in minutes?", fri,
            int(round((e.t1 - e.t0) / 60.0)), e.t1)
    es = H.find("INVENTORY_AUDIT")
    Q.count("count", "How many inventory audits did you do?", fri,
            len(es), es[-1].t1)
    e = one(H.find("AIR_SAMPLE", day=WED))
    Q.count("count", "how high was the CO2 in the hab on Wednesday, in "
            "ppm?", fri, e.get("readings", "co2_ppm"), e.t1)

    # ---- yes / no -------------------------------------------------------
    e = one(H.find("PHOTO_SURVEY", module="Cupola"))
    Q.yesno("yesno", "Did you finish the cupola photo survey?", fri, e.ok,
            e.t1)
    e = one(H.find("LEAK_CHECK"))
    Q.yesno("yesno", "Did the hatch seal pass the leak check?", fri,
            float(e.get("dp_mbar_per_hr")) <= float(e.get("limit")), e.t1)
    es = H.find("FETCH_TOOL", tool="spare EVA gloves")
    Q.yesno("yesno", "Did you get Raj the spare gloves yourself?", fri,
            any(j.ok for j in es), es[-1].t1)
    e = one(H.find("MOVE_ITEM", item="CTB-2207"))
    Q.yesno("yesno", "Is the spare filter bag back in PMM-F3?", fri,
            e.ok and e.get("to") == "PMM-F3", e.t1)
    Q.yesno("yesno", "Did you go to the cupola on Wednesday?", fri,
            any(j.line.get("location") == "Cupola"
                for j in H.find(day=WED)), H.find(day=WED)[-1].t1)
    Q.yesno("yesno", "Did anything fail on Thursday?", fri,
            any(not j.ok for j in H.find(day=THU)), H.find(day=THU)[-1].t1)

    # ---- failed ---------------------------------------------------------
    e = one(H.find("PHOTO_SURVEY", ok=False))
    Q.words("failed", "Why did you stop the cupola survey?", fri,
            [["fog*", "lens"]], e.t1, e.get("abort_reason"))
    e = one(H.find("NAV_TO", ok=False))
    Q.words("failed", "What went wrong on your way to the cupola on "
            "Wednesday?", fri, [["fan*", "impeller"]], e.t1,
            e.line["note"])
    e = one(H.find("FETCH_TOOL", ok=False))
    Q.words("failed", "Why couldn't you get the gloves?", fri,
            [["latch", "locker"]], e.t1, e.line["speech"]["text"])
    es = H.find(day=TUE, ok=False)
    Q.words("failed", "Any problems on Tuesday?", fri,
            [["glove*", "locker", "latch"]], one(es).t1,
            one(es).line["speech"]["text"])
    return Q.items, H


if __name__ == "__main__":
    import sys
    print(write(sys.argv[1] if len(sys.argv) > 1 else "station.jsonl"),
          "observations")
