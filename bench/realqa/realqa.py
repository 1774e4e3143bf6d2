#!/usr/bin/env python3
"""realqa: questions about real robot histories, with ground truth computed
from the raw data by this script, asked of `h2emv ask` in three modes.

usage: realqa.py --h2emv build/h2emv [--data DIR] [--modes none,feedback,default]
                 [--sources armar,teach,hospital,hospital-noprofile,
                            warehouse,office,lab,drone,armar-para,homecare,
                            hotel,dock,library,baggage,pharmacy,
                            kiosk,logbook,shelfscan,vineyard,sitewalk,
                            cafeteria,zookeeper,station,playhouse,
                            dairy,firehall,brewery,engineroom,
                            armaruser,teachuser]
                 [--out DIR] [--work DIR] [--keep] [--jobs N] [--one-build]
                 [--list] [--json] [-v]

Sources: armar (the real ARMAR-7 stream), teach (seven real TEACh EDH
episodes), hospital (an off-domain ward robot history written by
hospital.py, with its robot profile), hospital-noprofile (the same history
without a profile), and three more histories of robots unlike ours
written by warehouse.py, office.py, lab.py (with a profile) and drone.py
(short-form actions, local times with an offset).  Held out (not to be
tuned on): armar-para (the ARMAR-7 questions in other words) and homecare
(a home-care robot's diary, one line per finished action).  Held out and
untuned (nobody looked at h2emv's answers before measuring): hotel (a hotel
and restaurant robot's action list) and dock (a quay robot's logbook of
free-form notes, no actions); and, for issue 19, library (a library
shelving robot: actions, dialog with patrons and notes that start with
their subject) and baggage (an airport baggage robot: one line per finished
action, weights in kg, a supervisor's instructions, notes).  Fresh and
untuned, written after issue 19's round: pharmacy (a hospital pharmacy's
dispensing robot: running and final action lines, local times with an
offset, one utterance per dialog line, notes).  Fresh and untuned, written
later the same day (their own group line): kiosk (a town hall reception
robot's history, mostly dialog, one utterance a line, people known by name
or by role) and logbook (a water pumping station robot's logbook, mostly
free-text notes starting with their subject, jobs with numeric keys).
Fresh and untuned, a third round (its own group line): shelfscan (a
supermarket shelf-scanning robot: dotted goal stacks, running and final
action lines in upper case, dialog as an array of utterances on one line,
objects seen, store notes; millisecond times with an offset).
Fresh and untuned, a fourth round (its own group line): vineyard (a grape
harvester: integer microsecond times, one line per finished action from t
to t_end, snake_case skills and keys, a failure's reason in the action's
args, speakers by first name, weights in kg, sugar readings) and sitewalk (a
building-site inspection robot: times with a space and no zone, short-form
camelCase actions with positional arguments and units in the text, the
outcome in goal_status, findings and reasons in the note, badge ids, one
crane radio call as raw speech).
Fresh and untuned, a fifth round (its own group line): cafeteria (a
primary school's cafeteria robot: lower-case "t" and "z" times with nine
fraction digits, preparing / running / final action lines, args as an
object or a positional array, short-form quick jobs with no status, whole
exchanges as an utterance array, people known by role only) and zookeeper
(a zoo keepers' helper: an `id` on every line, one line per job from t to
t_end with nested args, short-form snake_case jobs, one utterance a line by
role, animals seen with state objects, failure reasons four ways).
Fresh and untuned, a sixth round (its own group line): station (a space
station free-flyer: space-separated millisecond times with Z, one line per
task from t to t_end, UPPER_SNAKE skills with ROS KeyValue-list args) and
playhouse (a theatre's backstage robot: +08:00 centisecond times, dotted
short-form skills with key=value arguments, the outcome on a closing line's
goal_status, headset calls as raw speech).
Fresh and untuned, a seventh round (its own group line): dairy (a dairy
farm's milking robot: millisecond times with no zone, one line per job from
t to t_end, slash-namespaced skills, cows nested as {tag, name}) and
firehall (a fire station robot: whole-second -07:00 times, a running line
with [key, value] pair args and a final line with name and status only,
dispatch tones as raw speech, pipe-separated incident log notes).
Real data asked by a new user (its own group line, REALUSER): armaruser
(the real ARMAR-7 stream) and teachuser (the seven TEACh episodes), asked
in everyday wording by an engineer who never read the product code;
REALUSER2: armaruser2 and teachuser2 (eight other TEACh episodes), a second;
REALUSER3: armaruser3 and teachuser3 (eight more TEACh episodes), a third.
Modes: none (forgetting none), feedback (default
configuration, relevance rules said to the robot before ingest), default.

Per question results go to OUT/results.jsonl; the tables go to stdout (one
JSON object with --json).  The exit status is 0 whenever the run completed:
the scores are data, not failures.  See docs/realqa.md.
"""

import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree

import armar     # noqa: E402
import grade     # noqa: E402
import hospital  # noqa: E402
import teach     # noqa: E402
import drone     # noqa: E402
import lab       # noqa: E402
import office    # noqa: E402
import warehouse  # noqa: E402
import armar_para  # noqa: E402
import homecare  # noqa: E402
import hotel     # noqa: E402
import dock      # noqa: E402
import library   # noqa: E402
import baggage   # noqa: E402
import pharmacy  # noqa: E402
import kiosk     # noqa: E402
import logbook   # noqa: E402
import shelfscan  # noqa: E402
import vineyard  # noqa: E402
import sitewalk  # noqa: E402
import cafeteria  # noqa: E402
import zookeeper  # noqa: E402
import station   # noqa: E402
import playhouse  # noqa: E402
import dairy     # noqa: E402
import firehall  # noqa: E402
import datahall  # noqa: E402
import bikeshop  # noqa: E402
import brewery   # noqa: E402
import engineroom  # noqa: E402
import vetclinic  # noqa: E402
import minecheck  # noqa: E402
import armaruser  # noqa: E402
import teachuser  # noqa: E402
import filmset   # noqa: E402
import carwash   # noqa: E402
import armaruser2  # noqa: E402
import teachuser2  # noqa: E402
import armaruser3  # noqa: E402
import teachuser3  # noqa: E402
import prmchair  # noqa: E402
import sortline  # noqa: E402

# Histories written by this bench for robots unlike ours: module, the robot
# profile to load (None: a robot nobody wrote a profile for).
WRITTEN = {"hospital": (hospital, hospital.PROFILE),
           "warehouse": (warehouse, None),
           "office": (office, None),
           "lab": (lab, lab.PROFILE),
           "drone": (drone, None),
           "homecare": (homecare, None),
           "hotel": (hotel, None),
           "dock": (dock, None),
           "library": (library, None),
           "baggage": (baggage, None),
           "pharmacy": (pharmacy, None),
           "kiosk": (kiosk, None),
           "logbook": (logbook, None),
           "shelfscan": (shelfscan, None),
           "vineyard": (vineyard, None),
           "sitewalk": (sitewalk, None),
           "cafeteria": (cafeteria, None),
           "zookeeper": (zookeeper, None),
           "station": (station, None),
           "playhouse": (playhouse, None),
           "dairy": (dairy, None),
           "firehall": (firehall, None),
           "datahall": (datahall, None), "bikeshop": (bikeshop, None),
           "brewery": (brewery, None), "engineroom": (engineroom, None),
           "vetclinic": (vetclinic, None), "minecheck": (minecheck, None),
           "filmset": (filmset, None), "carwash": (carwash, None),
           "prmchair": (prmchair, None), "sortline": (sortline, None)}
from common import KINDS, parse_time  # noqa: E402

SOURCES = ["armar", "teach", "hospital", "hospital-noprofile", "warehouse",
           "office", "lab", "drone", "armar-para", "homecare", "hotel",
           "dock", "library", "baggage", "pharmacy", "kiosk", "logbook",
           "shelfscan", "vineyard", "sitewalk", "cafeteria", "zookeeper",
           "station", "playhouse", "dairy", "firehall", "armaruser",
           "teachuser", "datahall", "bikeshop",
           "brewery", "engineroom", "filmset", "carwash", "vetclinic",
           "minecheck", "prmchair", "sortline"]
MODES = ["none", "feedback", "default"]
# The overall score is over these; hospital-noprofile repeats hospital's
# questions and is reported on its own line.
MAIN_SOURCES = ["armar", "teach", "hospital"]
# The other-domain histories added later have their own overall line, so the
# figures above stay comparable with the earlier runs.
NEW_SOURCES = ["warehouse", "office", "lab", "drone"]
# Held out: written to measure, not to tune on (docs/realqa.md).
HELD_OUT = ["armar-para", "homecare"]
# Held out and untuned: measured as written, never looked at while changing
# the question answering (docs/realqa.md, "Held out, untuned").
UNTUNED = ["hotel", "dock", "library", "baggage"]
# Fresh and untuned: written after issue 19's round, measured once as written
# (docs/realqa.md, "A fresh untuned source (pharmacy, 2026-11-27)").
FRESH = ["pharmacy"]
# Two more, written after pharmacy was measured and looked at, measured once
# as written (docs/realqa.md, "Two more fresh untuned sources (kiosk,
# logbook), 2026-11-27"); their own group line, apart from pharmacy's.
FRESH2 = ["kiosk", "logbook"]
# A third, written after kiosk and logbook were measured, measured once as
# written (docs/realqa.md, "A third fresh untuned source (shelfscan),
# 2026-11-27"); its own group line.
FRESH3 = ["shelfscan"]
# A fourth pair, written by an outsider after shelfscan was measured and
# tuned on, measured once as written (docs/realqa.md, "A fourth fresh
# untuned source pair (vineyard, sitewalk), 2026-11-27"); its own group line.
FRESH4 = ["vineyard", "sitewalk"]
# A fifth pair, written by an outsider after vineyard and sitewalk were
# measured and tuned on, measured once as written (docs/realqa.md, "A fifth
# fresh untuned source pair (cafeteria, zookeeper), 2026-11-27"); its own
# group line.
FRESH5 = ["cafeteria", "zookeeper"]
# A sixth pair, written by an outsider who read no product code, measured
# once as written (docs/realqa.md, "A sixth fresh untuned source pair
# (station, playhouse), 2026-11-27"); its own group line.
FRESH6 = ["station", "playhouse"]
# A seventh pair, written by an outsider who read no product code, measured
# once as written (docs/realqa.md, "A seventh fresh untuned source pair
# (dairy, firehall), 2026-11-27"); its own group line.
FRESH7 = ["dairy", "firehall"]
# An eighth pair, written the same way (docs/realqa.md, "An eighth fresh
# untuned source pair (datahall, bikeshop), 2026-11-28").
FRESH8 = ["datahall", "bikeshop"]
# A ninth pair, kept apart (docs/realqa.md, "A ninth fresh untuned source
# pair, kept apart (brewery, engineroom), 2026-11-28"); its own group line.
FRESH9 = ["brewery", "engineroom"]
# A tenth pair (docs/realqa.md, "A tenth fresh untuned source pair
# (filmset, carwash), 2026-11-28"); its own group line.
FRESH10 = ["filmset", "carwash"]
# An eleventh pair (docs/realqa.md, "An eleventh fresh untuned source pair
# (vetclinic, minecheck), 2026-11-28"); its own group line.
FRESH11 = ["vetclinic", "minecheck"]
# A twelfth pair (docs/realqa.md, "A twelfth fresh untuned source pair
# (prmchair, sortline), 2026-11-28"); its own group line.
FRESH12 = ["prmchair", "sortline"]
# The real ARMAR-7 and TEACh histories asked by a new user in everyday
# wording, measured once (docs/realqa.md, "Real data asked by a new user
# (armaruser, teachuser), 2026-11-27"); their own group line.
REALUSER = ["armaruser", "teachuser"]
# The real sources' importers: source -> (importer module, questions).
REAL_IMPORT = {"armaruser": ("armar", armaruser.questions),
               "teachuser": ("teach", teachuser.questions)}
# The same real data asked by a second new user, teachuser2 on eight other
# TEACh episodes (docs/realqa.md, "Real data asked by a second new user
# (armaruser2, teachuser2), 2026-11-28"); their own group line.
REALUSER2 = ["armaruser2", "teachuser2"]
SOURCES += REALUSER2
REAL_IMPORT.update({"armaruser2": ("armar", armaruser2.questions),
                    "teachuser2": ("teach", teachuser2.questions)})
REAL_TEACH_ARGS = {"teachuser2": teachuser2.import_args}
# A third new user, teachuser3 on eight more TEACh episodes (docs/realqa.md,
# "Real data asked by a third new user (armaruser3, teachuser3), 2026-11-28").
REALUSER3 = ["armaruser3", "teachuser3"]
SOURCES += REALUSER3
REAL_IMPORT.update({"armaruser3": ("armar", armaruser3.questions),
                    "teachuser3": ("teach", teachuser3.questions)})
REAL_TEACH_ARGS["teachuser3"] = teachuser3.import_args

# The group lines of the table, in order: the key in --json's output, the
# label, the sources.
GROUPS = [
    ("overall", "overall", MAIN_SOURCES),
    ("other_domains", "other domains", NEW_SOURCES),
    ("held_out", "held out", HELD_OUT),
    ("held_out_untuned", "held out (untuned)", UNTUNED),
    ("fresh_untuned", "fresh (untuned, after issue 19's round)", FRESH),
    ("fresh_untuned_2", "fresh (untuned, after pharmacy)", FRESH2),
    ("fresh_untuned_3", "fresh (untuned, third)", FRESH3),
    ("fresh_untuned_4", "fresh (untuned, fourth)", FRESH4),
    ("fresh_untuned_5", "fresh (untuned, fifth)", FRESH5),
    ("fresh_untuned_6", "fresh (untuned, sixth)", FRESH6),
    ("fresh_untuned_7", "fresh (untuned, seventh)", FRESH7),
    ("fresh_untuned_8", "fresh (untuned, eighth)", FRESH8),
    ("fresh_untuned_9", "fresh (untuned, ninth, kept apart)", FRESH9),
    ("fresh_untuned_10", "fresh (untuned, tenth)", FRESH10),
    ("fresh_untuned_11", "fresh (untuned, eleventh)", FRESH11),
    ("fresh_untuned_12", "fresh (untuned, twelfth)", FRESH12),
    ("realuser", "real data, new user (untuned)", REALUSER),
    ("realuser2", "real data, second new user (untuned)", REALUSER2),
    ("realuser3", "real data, third new user (untuned)", REALUSER3),
]

RULES = {
    "armar": [
        "You should always remember what you said to people and who you met.",
        "Always remember where you brought things, where you fetched them "
        "from and which objects you grasped.",
        "Please always remember when something failed.",
    ],
    "teach": [
        "Always remember where you put things.",
        "You should always remember what the Commander told you.",
        "Always remember which objects you sliced, cooked or switched on.",
    ],
    "hospital": [
        "Always remember which medication you delivered to which patient and "
        "room.",
        "You should always remember who you met and what they said.",
        "Always remember every task that failed, and where you took "
        "patients.",
    ],
}
RULES["hospital-noprofile"] = RULES["hospital"]
RULES["warehouse"] = [
    "Always remember where you moved each tote.",
    "You should always remember who talked to you and what they said.",
    "Please always remember when something failed.",
]
RULES["office"] = [
    "Always remember who you delivered parcels to.",
    "You should always remember the guests you met and what people said.",
    "Please always remember when something failed.",
]
RULES["drone"] = [
    "Always remember which rows you sprayed and photographed.",
    "You should always remember what the farmer told you.",
    "Please always remember when something failed.",
]
RULES["lab"] = [
    "Always remember which plates you centrifuged and incubated.",
    "You should always remember what people told you.",
    "Please always remember when something failed.",
]

RULES["armar-para"] = RULES["armar"]
RULES["armaruser"] = RULES["armar"]
RULES["teachuser"] = RULES["teach"]
RULES["armaruser2"], RULES["teachuser2"] = RULES["armar"], RULES["teach"]
RULES["armaruser3"], RULES["teachuser3"] = RULES["armar"], RULES["teach"]
RULES["hotel"] = [
    "Always remember what you served and which room you brought things to.",
    "You should always remember what guests and staff told you.",
    "Please always remember when something failed.",
]
RULES["dock"] = [
    "Always remember which ships you moored and where.",
    "You should always remember who called you and what they said.",
    "Please always remember when something could not be done.",
]
RULES["library"] = [
    "Always remember which shelf you put each book on.",
    "You should always remember what patrons and staff asked you for.",
    "Please always remember when something failed or broke.",
]
RULES["baggage"] = [
    "Always remember which flight and container each bag went to.",
    "You should always remember what the supervisor and passengers told "
    "you.",
    "Please always remember when something failed.",
]
RULES["pharmacy"] = [
    "Always remember which drugs you dispensed to which ward and how many.",
    "You should always remember what the nurses, doctors and pharmacists "
    "told you.",
    "Please always remember when something failed or was not finished.",
]
RULES["kiosk"] = [
    "Always remember what visitors left at the desk and who collected it.",
    "You should always remember who came to the desk, what they asked "
    "for and what you told them.",
    "Please always remember when something failed or someone complained.",
]
RULES["logbook"] = [
    "Always remember how much you dosed, backwashed and cleared, and "
    "every pressure reading.",
    "You should always remember who came to the station and what they "
    "said.",
    "Please always remember every fault, trip and failed job, and why.",
]
RULES["shelfscan"] = [
    "Always remember every gap, wrong price and label you found or "
    "printed, and in which aisle.",
    "You should always remember what customers and staff asked you and "
    "what you told them.",
    "Please always remember when a scan or a job failed or was not "
    "finished, and why.",
]
RULES["vineyard"] = [
    "Always remember which rows you harvested, how many kilos and bins, "
    "and every sugar reading.",
    "You should always remember what Claire and the crew told you.",
    "Please always remember when the harvester failed or stopped, and why.",
]
RULES["sitewalk"] = [
    "Always remember every hazard, crack and finding, and on which level.",
    "You should always remember what the site manager, the engineer and "
    "the workers said.",
    "Please always remember when an inspection failed, and why.",
]
RULES["cafeteria"] = [
    "Always remember what you served, how many portions, and every "
    "temperature reading.",
    "You should always remember what the cook, the head teacher, parents "
    "and pupils said to you and what you told them.",
    "Please always remember when a job failed or was stopped, and why.",
]
RULES["zookeeper"] = [
    "Always remember which animals you fed, how much food they got, and "
    "which enclosures you cleaned.",
    "You should always remember what the keepers, the vet and visitors "
    "told you.",
    "Please always remember when a job failed or was given up, and why.",
]
RULES["station"] = [
    "Always remember where you found or stowed things, and every air "
    "reading.",
    "You should always remember what the crew and CAPCOM told you and what "
    "you told them.",
    "Please always remember when a task failed or was aborted, and why.",
]
RULES["playhouse"] = [
    "Always remember where every prop went and who fixed what.",
    "You should always remember what the director, the stage manager and "
    "the cast said to you and what you told them.",
    "Please always remember when a cue or a check failed, and why.",
]
RULES["dairy"] = [
    "Always remember how much milk each cow gave, every tank reading, and "
    "where you moved the cows.",
    "You should always remember what Tom, Jess, the vet and the tanker "
    "driver told you and what you told them.",
    "Please always remember when a job failed or was aborted, and why.",
]
RULES["firehall"] = [
    "Always remember every call the station ran, every air cylinder "
    "pressure, and how many bottles you filled.",
    "You should always remember what the captain, the crew, dispatch and "
    "visitors said to you and what you told them.",
    "Please always remember when a check or a task failed, and why.",
]
RULES["datahall"] = [
    "Always remember every ticket you worked on, which rack and bay, and "
    "every temperature and power reading.",
    "You should always remember what the shift lead, the technicians, the "
    "NOC and visitors told you and what you told them.",
    "Please always remember when a job failed or was aborted, and why.",
]
RULES["bikeshop"] = [
    "Always remember every work order: whose bike it is, what you fitted "
    "and what the customer paid.",
    "You should always remember what the customers, Nico and Ines said to "
    "you and what you told them.",
    "Please always remember when a job failed or was aborted, and why.",
]
RULES["brewery"] = [
    "Always remember every gravity reading, every keg you filled and which "
    "tank each beer went into.",
    "You should always remember what the brewers, customers and visitors "
    "said to you and what you told them.",
    "Please always remember when a job failed or was aborted, and why.",
]
RULES["engineroom"] = [
    "Always remember every tank sounding, every engine reading and every "
    "spare you fetched.",
    "You should always remember what the bridge and the engineers told you "
    "and what you answered.",
    "Please always remember when a job failed or was aborted, and why.",
]
RULES["filmset"] = [
    "Always remember every take you shot, every track you laid and every "
    "prop you fetched and for whom.",
    "You should always remember what the director, the AD, the crew and "
    "the cast said to you and what you told them.",
    "Please always remember when a job failed or was cancelled, and why.",
]
RULES["carwash"] = [
    "Always remember every car you washed: whose it was, which package, "
    "what they paid and what you found inside.",
    "You should always remember what the customers, Darnell, Tasha and "
    "Luis said to you and what you told them.",
    "Please always remember when a wash or a check failed or was stopped, "
    "and why.",
]
RULES["vetclinic"] = [
    "Always remember every patient you weighed, fed or sent home, with its "
    "owner, and every drug you fetched.",
    "You should always remember what the vets, the owners and the front desk "
    "said to you and what you told them.",
    "Please always remember when a job failed or was cancelled, and why.",
]
RULES["minecheck"] = [
    "Always remember every gas reading, every hazard you tagged and every "
    "pump check.",
    "You should always remember what the shift boss, the crew and dispatch "
    "said on the radio and what you answered.",
    "Please always remember when a job failed or was aborted, and why.",
]
RULES["prmchair"] = [
    "Always remember every passenger you collected or took to a gate, and "
    "whom you handed them over to.",
    "You should always remember what the passengers, the gate agents and "
    "the PRM supervisor said to you and what you told them.",
    "Please always remember when an assist failed or was interrupted, and "
    "why.",
]
RULES["sortline"] = [
    "Always remember every bale you made, how much it weighed and which "
    "truck took it, and every battery or hazard you pulled off the line.",
    "You should always remember what the shift lead, QA, maintenance and "
    "visitors said to you and what you told them.",
    "Please always remember when a job failed or was stopped, and why.",
]
RULES["homecare"] = [
    "Always remember what you brought Rosa and where you found it.",
    "You should always remember who visited and what they said.",
    "Please always remember when something failed.",
]

BUILD_EVERY = 200


class Run:
    def __init__(self, args):
        self.args = args
        self.h2emv = os.path.abspath(args.h2emv)
        self.notes = []
        self.verbose = args.verbose

    def log(self, *a):
        if self.verbose:
            print(*a, file=sys.stderr, flush=True)

    def cli(self, *argv, check=True, timeout=300):
        cmd = [self.h2emv] + [str(a) for a in argv]
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=timeout)
        if check and p.returncode != 0:
            raise RuntimeError("%s: exit %d: %s" % (" ".join(cmd[:3]),
                                                    p.returncode,
                                                    p.stderr.strip()[:500]))
        return p

    def note(self, text):
        if text not in self.notes:
            self.notes.append(text)
            print("realqa: note: " + text, file=sys.stderr, flush=True)

    # -- histories ----------------------------------------------------
    def histories(self, sources, work):
        """source -> (JSON Lines file, questions, import arguments)."""
        data = self.args.data
        out = {}
        if "armar" in sources:
            f = os.path.join(work, "armar.jsonl")
            imp = ["armar", os.path.join(data, armar.PATH)]
            self.cli("import", *imp, "-q", "-o", f)
            out["armar"] = (f, armar.questions(data)[0], imp)
        if "armar-para" in sources:
            f = os.path.join(work, "armar.jsonl")
            imp = ["armar", os.path.join(data, armar.PATH)]
            if "armar" not in sources:
                self.cli("import", *imp, "-q", "-o", f)
            out["armar-para"] = (f, armar_para.questions(data)[0], imp)
        if "teach" in sources:
            f = os.path.join(work, "teach.jsonl")
            imp = ["teach"] + teach.import_args(data)
            self.cli("import", *imp, "-q", "-o", f)
            out["teach"] = (f, teach.questions(data)[0], imp)
        for name in REALUSER + REALUSER2 + REALUSER3:
            if name in sources:
                kind, qfn = REAL_IMPORT[name]
                f = os.path.join(work, name + ".jsonl")
                imp = (["armar", os.path.join(data, armar.PATH)]
                       if kind == "armar" else
                       ["teach"] + REAL_TEACH_ARGS.get(
                           name, teach.import_args)(data))
                self.cli("import", *imp, "-q", "-o", f)
                out[name] = (f, qfn(data)[0], imp)
        for name in NEW_SOURCES + ["homecare"] + UNTUNED + FRESH + FRESH2 +\
                FRESH3 + FRESH4 + FRESH5 + FRESH6 + FRESH7 + FRESH8 + FRESH9 +\
                FRESH10 + FRESH11 + FRESH12:
            if name in sources:
                f = os.path.join(work, name + ".jsonl")
                WRITTEN[name][0].write(f)
                out[name] = (f, WRITTEN[name][0].questions(f)[0], None)
        if "hospital" in sources or "hospital-noprofile" in sources:
            f = os.path.join(work, "hospital.jsonl")
            hospital.write(f)
            qs = hospital.questions(f)[0]
            if "hospital" in sources:
                out["hospital"] = (f, qs, None)
            if "hospital-noprofile" in sources:
                q2 = []
                for q in qs:
                    q = dict(q)
                    q["source"] = "hospital-noprofile"
                    q["id"] = q["id"].replace("hospital-",
                                              "hospital-noprofile-")
                    q2.append(q)
                out["hospital-noprofile"] = (f, q2, None)
        return out

    def import_records_profile(self):
        """Does `h2emv import -m DIR` record the source's profile?"""
        if not hasattr(self, "_imp_m"):
            p = self.cli("import", "--help", check=False)
            self._imp_m = "--mem" in p.stdout + p.stderr
            if not self._imp_m:
                self.note("'h2emv import' has no -m/--mem: the ARMAR-7 and "
                          "TEACh memories get no robot profile from it")
        return self._imp_m

    def set_profile(self, mem, path, source="hospital"):
        """A written history's profile: `config --robot-profile FILE`, else
        `profile set FILE`."""
        p = self.cli("config", "-m", mem, "--robot-profile", path, check=False)
        if p.returncode == 0:
            return
        q = self.cli("profile", "-m", mem, "set", path, check=False)
        if q.returncode == 0:
            self.note(source + ": profile loaded with 'h2emv profile set' "
                      "('config --robot-profile': %s)" %
                      (p.stderr.strip().splitlines() or ["?"])[0])
            return
        self.note(source + ": the profile could not be loaded "
                  "('config --robot-profile': %s; 'profile set': %s); ran "
                  "without it" % ((p.stderr.strip().splitlines() or ["?"])[0],
                                  (q.stderr.strip().splitlines() or ["?"])[0]))

    # -- one memory -----------------------------------------------------
    def prepare(self, source, mode, history, imp, work):
        mem = os.path.join(work, "mem", "%s-%s" % (source, mode))
        shutil.rmtree(mem, ignore_errors=True)
        os.makedirs(os.path.dirname(mem), exist_ok=True)
        self.cli("init", "-m", mem)
        if imp and self.import_records_profile():
            # the product path: the importer records its robot profile in
            # the memory it is told about (the lines are the same)
            history = os.path.join(os.path.dirname(mem),
                                   "%s-%s.jsonl" % (source, mode))
            self.cli("import", *imp, "-q", "-m", mem, "-o", history)
        if source in WRITTEN and WRITTEN[source][1]:
            self.set_profile(mem, WRITTEN[source][1], source)
        if mode == "none":
            self.cli("config", "-m", mem, "--forgetting", "none")
        if mode == "feedback":
            for rule in RULES[source]:
                p = self.cli("say", "-m", mem, "--json", rule, check=False)
                route = None
                try:
                    route = json.loads(p.stdout).get("route")
                except ValueError:
                    pass
                if p.returncode != 0 or route != "feedback":
                    self.note("%s: the rule %r was not taken as feedback "
                              "(exit %d, route %s)" % (source, rule,
                                                       p.returncode, route))
        self.cli("ingest", "-q", "-m", mem, history)
        t0 = time.time()
        if self.args.one_build:
            self.cli("build", "-q", "-m", mem, "-c", BUILD_EVERY)
        else:
            # One snapshot every BUILD_EVERY observations, also where the
            # builder commits only at its read chunks.
            for _ in range(100000):
                p = self.cli("build", "--json", "-m", mem, "-c",
                             BUILD_EVERY, "-n", BUILD_EVERY)
                if json.loads(p.stdout).get("folded", 0) == 0:
                    break
        snaps = []
        p = self.cli("snapshots", "-m", mem, "--json")
        for ln in p.stdout.splitlines():
            if ln.strip():
                s = json.loads(ln)
                snaps.append(s["t_now"] / 1e6)
        self.log("%s/%s: built in %.1f s, %d snapshots" %
                 (source, mode, time.time() - t0, len(snaps)))
        return mem, sorted(snaps)

    def ask(self, mem, q):
        try:
            p = self.cli("ask", "-m", mem, "--at", q["at"], "--json",
                         "--", q["question"], check=False, timeout=120)
        except subprocess.TimeoutExpired:
            return {"error": "timeout"}
        if p.returncode != 0:
            return {"error": "exit %d: %s" % (p.returncode,
                                              p.stderr.strip()[:300])}
        try:
            return json.loads(p.stdout)
        except ValueError:
            return {"error": "not JSON: %s" % p.stdout[:300]}

    def run_one(self, source, mode, history, qs, imp, work):
        mem, snaps = self.prepare(source, mode, history, imp, work)
        out = []
        for q in qs:
            at = parse_time(q["at"])
            older = [s for s in snaps if s <= at]
            lag = (not older) or (q["need"] is not None and
                                  older[-1] < q["need"])
            raw = self.ask(mem, q)
            ans = raw.get("answer", "")
            ok, why = grade.grade(q["expect"], ans, at) if "error" not in raw \
                else (False, raw["error"])
            r = {"source": source, "mode": mode, "id": q["id"],
                 "kind": q["kind"], "question": q["question"], "at": q["at"],
                 "expected": q["truth"], "got": ans, "ok": ok}
            if why:
                r["why"] = why
            if lag:
                r["lag"] = True
            if raw.get("snapshot") is not None:
                r["snapshot"] = raw["snapshot"]
            if raw.get("forgotten"):
                r["forgotten"] = True
            if "error" in raw:
                r["error"] = raw["error"]
            if isinstance(raw.get("tokens"), dict):
                r["tokens"] = raw["tokens"].get("prompt", 0) + \
                    raw["tokens"].get("completion", 0)
            if self.verbose:
                self.log("%s %-8s %-5s %s  [at %s]\n    expected: %s\n    raw: %s"
                         % ("ok " if ok else "BAD", mode, q["kind"],
                            q["question"], q["at"], q["truth"],
                            json.dumps(raw, ensure_ascii=False)))
            out.append(r)
        if not self.args.keep:
            shutil.rmtree(mem, ignore_errors=True)
        return out


def table(results, modes, sources):
    def acc(rs):
        n = len(rs)
        k = sum(1 for r in rs if r["ok"])
        return {"n": n, "ok": k, "acc": round(100.0 * k / n, 1) if n else None}

    main = [r for r in results if r["source"] in MAIN_SOURCES]
    by_kind = {k: {m: acc([r for r in main if r["kind"] == k and
                           r["mode"] == m]) for m in modes}
               for k in KINDS}
    by_source = {s: {m: acc([r for r in results if r["source"] == s and
                             r["mode"] == m]) for m in modes}
                 for s in sources}
    groups = {key: {m: acc([r for r in results if r["source"] in members and
                            r["mode"] == m]) for m in modes}
              for key, _, members in GROUPS}
    lag = {m: sum(1 for r in results if r["mode"] == m and r.get("lag"))
           for m in modes}
    errors = {m: sum(1 for r in results if r["mode"] == m and r.get("error"))
              for m in modes}
    out = {"by_kind": by_kind, "by_source": by_source}
    out.update(groups)
    out.update({"lagging_snapshot": lag, "errors": errors})
    return out


def print_table(t, modes, sources, counts, notes, secs):
    def cell(a):
        return "%5.1f%%" % a["acc"] if a["n"] else "     -"

    w = 20
    head = "%-*s %4s" % (w, "", "n") + "".join(" %9s" % m for m in modes)
    print("realqa: %s; %.0f s" % (", ".join("%s %d" % (s, counts[s])
                                             for s in sources), secs))
    print()
    print(head.replace(" " * 4, "kind", 1) if False else "%-*s" % (w, "kind") + head[w:])
    for k, row in t["by_kind"].items():
        n = row[modes[0]]["n"]
        if n:
            print("%-*s %4d" % (w, k, n) + "".join(" %9s" % cell(row[m])
                                                   for m in modes))
    print()
    print("%-*s" % (w, "source"))
    for s, row in t["by_source"].items():
        print("%-*s %4d" % (w, s, row[modes[0]]["n"]) +
              "".join(" %9s" % cell(row[m]) for m in modes))
    print()
    for key, label, members in GROUPS:
        g = t[key]
        if g[modes[0]]["n"]:
            print("%-*s %4d" % (w, label + " (" + "+".join(
                s for s in members if s in sources) + ")", g[modes[0]]["n"])
                + "".join(" %9s" % cell(g[m]) for m in modes))
    if any(t["lagging_snapshot"].values()):
        print("%-*s %4s" % (w, "asked before a snapshot knew", "") +
              "".join(" %9d" % t["lagging_snapshot"][m] for m in modes))
    if any(t["errors"].values()):
        print("%-*s %4s" % (w, "errors", "") +
              "".join(" %9d" % t["errors"][m] for m in modes))
    for n in notes:
        print("note: " + n)


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Real-data question set for h2emv (docs/realqa.md).")
    ap.add_argument("--h2emv", default=os.path.join(ROOT, "build", "h2emv"),
                    help="the h2emv binary (default: build/h2emv)")
    ap.add_argument("--data", default=os.environ.get("H2EMV_DATA") or None,
                    help="the external data folder (default: $H2EMV_DATA)")
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--sources", default=",".join(SOURCES))
    ap.add_argument("--out", default=os.path.join(ROOT, "build-realqa"),
                    help="where results.jsonl goes (default: build-realqa/)")
    ap.add_argument("--work", help="where the memories are built (default: "
                                   "a temporary folder, removed after)")
    ap.add_argument("--keep", action="store_true",
                    help="keep the memories (under --work)")
    ap.add_argument("--jobs", type=int, default=2,
                    help="memories built and asked at once (default 2)")
    ap.add_argument("--one-build", action="store_true",
                    help="one 'h2emv build -c 200' instead of a build per "
                         "200 observations")
    ap.add_argument("--list", action="store_true",
                    help="print the questions and their truth; ask nothing")
    ap.add_argument("--json", action="store_true",
                    help="print one JSON object instead of the tables")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="each question's raw answer object on stderr")
    args = ap.parse_args(argv)

    modes = [m for m in args.modes.split(",") if m]
    sources = [s for s in args.sources.split(",") if s]
    for m in modes:
        if m not in MODES:
            ap.error("unknown mode %r (%s)" % (m, ", ".join(MODES)))
    for s in sources:
        if s not in SOURCES:
            ap.error("unknown source %r (%s)" % (s, ", ".join(SOURCES)))
    if not args.data:
        ap.error("where is the external data? give --data DIR or set H2EMV_DATA")
    args.data = os.path.abspath(args.data)
    if not os.path.isdir(args.data):
        ap.error("no data folder %s (set --data or H2EMV_DATA)" % args.data)
    if not args.list and not os.access(args.h2emv, os.X_OK):
        ap.error("no h2emv binary at %s (--h2emv)" % args.h2emv)

    run = Run(args)
    t_start = time.time()
    work = args.work or tempfile.mkdtemp(prefix="realqa-")
    os.makedirs(work, exist_ok=True)
    try:
        if args.list:
            # Questions only: the histories are built without h2emv.
            qs = []
            if "armar" in sources:
                qs += armar.questions(args.data)[0]
            if "armar-para" in sources:
                qs += armar_para.questions(args.data)[0]
            if "teach" in sources:
                qs += teach.questions(args.data)[0]
            for name in REALUSER + REALUSER2 + REALUSER3:
                if name in sources:
                    qs += REAL_IMPORT[name][1](args.data)[0]
            if "hospital" in sources or "hospital-noprofile" in sources:
                f = os.path.join(work, "hospital.jsonl")
                hospital.write(f)
                qs += hospital.questions(f)[0]
            for name in NEW_SOURCES + ["homecare"] + UNTUNED + FRESH + FRESH2 +\
                FRESH3 + FRESH4 + FRESH5 + FRESH6 + FRESH7 + FRESH8 + FRESH9 +\
                FRESH10 + FRESH11 + FRESH12:
                if name in sources:
                    f = os.path.join(work, name + ".jsonl")
                    WRITTEN[name][0].write(f)
                    qs += WRITTEN[name][0].questions(f)[0]
            for q in qs:
                print(json.dumps({k: q[k] for k in ("id", "kind", "at",
                                                    "question", "truth")},
                                 ensure_ascii=False) if args.json else
                      "%-14s %-6s %s  %s\n%22s=> %s" % (
                          q["id"], q["kind"], q["at"], q["question"], "",
                          q["truth"]))
            return 0

        hist = run.histories(sources, work)
        jobs = [(s, m) for s in sources for m in modes]
        results = []
        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as ex:
            futs = {ex.submit(run.run_one, s, m, hist[s][0], hist[s][1],
                              hist[s][2], work): (s, m) for (s, m) in jobs}
            for f in concurrent.futures.as_completed(futs):
                s, m = futs[f]
                try:
                    results += f.result()
                except Exception as e:  # a broken run is reported, not fatal
                    run.note("%s/%s did not run: %s" % (s, m, e))
                    for q in hist[s][1]:
                        results.append({"source": s, "mode": m, "id": q["id"],
                                        "kind": q["kind"],
                                        "question": q["question"],
                                        "at": q["at"], "expected": q["truth"],
                                        "got": "", "ok": False,
                                        "error": "run failed: %s" % e})
    finally:
        if not args.work and not args.keep:
            shutil.rmtree(work, ignore_errors=True)

    order = {(s, m): i for i, (s, m) in enumerate(jobs)}
    results.sort(key=lambda r: (order[(r["source"], r["mode"])], r["id"]))
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "results.jsonl"), "w",
              encoding="utf-8") as f:
        for r in results:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    t = table(results, modes, sources)
    counts = {s: len(hist[s][1]) for s in sources}
    secs = time.time() - t_start
    if args.json:
        t.update({"questions": counts, "modes": modes, "notes": run.notes,
                  "seconds": round(secs, 1),
                  "results": os.path.join(args.out, "results.jsonl")})
        print(json.dumps(t, indent=1))
    else:
        print_table(t, modes, sources, counts, run.notes, secs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
