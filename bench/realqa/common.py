"""Shared pieces of the real-data question set: times, questions, word variants.

Every source module (armar.py, teach.py, hospital.py) reads its raw data,
builds its own list of events from it, and returns questions whose expected
answers come from those events.  Nothing here reads h2emv's output.
"""

import datetime as _dt
import re

UTC = _dt.timezone.utc

# The kinds of question, in the order of DESIGN.md section 6's table.
KINDS = ["when", "where", "day", "who", "say", "see", "which", "count",
         "yesno", "failed"]


def parse_time(s):
    """An ISO 8601 / RFC 3339 time, UTC when it has no zone, as epoch seconds."""
    s = s.strip().replace(" ", "T", 1)
    if s.endswith("Z") or s.endswith("z"):
        s = s[:-1] + "+00:00"
    d = _dt.datetime.fromisoformat(s)
    if d.tzinfo is None:
        d = d.replace(tzinfo=UTC)
    return d.timestamp()


def iso(t):
    """Epoch seconds as RFC 3339 UTC with whole seconds ("2024-07-12T15:21:03Z")."""
    return _dt.datetime.fromtimestamp(int(t), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def human(t):
    """Epoch seconds as '2024-07-12 15:21:03' (UTC), for the report."""
    return _dt.datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M:%S")


def day_of(t):
    """The UTC date of epoch seconds, as '2024-07-12'."""
    return _dt.datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d")


def day_span(date):
    """[start, end) of a UTC day '2024-07-12' in epoch seconds."""
    t0 = parse_time(date + "T00:00:00Z")
    return t0, t0 + 86400.0


def weekday(date):
    return _dt.date.fromisoformat(date).strftime("%A")


def camel_words(name):
    """'CounterTop' -> 'counter top', 'soy-milk' -> 'soy milk', 'room_12' -> 'room 12'."""
    s = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name)
    s = re.sub(r"[-_/|]+", " ", s)
    return " ".join(s.lower().split())


def variants(name, *extra):
    """The spellings of a name that count as naming it: 'CounterTop' ->
    ['counter top', 'countertop']; extra spellings (synonyms) are added."""
    w = camel_words(name)
    out = [w]
    if " " in w:
        out.append(w.replace(" ", ""))
    for e in extra:
        if e and e.lower() not in out:
            out.append(e.lower())
    return out


class Span:
    """One occurrence of something in the raw data: [t0, t1] in epoch seconds."""

    def __init__(self, t0, t1=None, what=""):
        self.t0 = t0
        self.t1 = t0 if t1 is None else t1
        self.what = what

    def __repr__(self):
        return "%s..%s %s" % (human(self.t0), human(self.t1)[11:], self.what)


class QuestionSet:
    """Collects the questions of one source.  Each expectation is one of:

      time   spans:  [[t0, t1], ...]  any date-time in the answer within one
                                      span +- 60 s
      day    dates:  ['2024-07-12', ...]
      words  all:    [[any-of], [any-of], ...]  every group must match (or at
                     least `k` groups), none of `none` may appear, and fewer
                     `others` groups (things seen elsewhere) than matched
                     groups may appear
      count  n:      the number
      yesno  yes:    True / False

    `need` is the time by which all the evidence had happened (to tell
    whether the snapshot answered from could know it).
    """

    def __init__(self, source):
        self.source = source
        self.items = []

    def _add(self, kind, q, at, expect, truth, need):
        assert kind in KINDS, kind
        at_t = parse_time(at)
        assert need is None or need <= at_t, (q, human(need), at)
        self.items.append({
            "source": self.source,
            "id": "%s-%02d" % (self.source, len(self.items) + 1),
            "kind": kind,
            "question": q,
            "at": iso(at_t),
            "expect": expect,
            "truth": truth,
            "need": need,
        })

    def time(self, kind, q, at, spans, truth=None):
        spans = [s for s in spans]
        assert spans, q
        self._add(kind, q, at, {"type": "time",
                                "spans": [[s.t0, s.t1] for s in spans]},
                  truth or "; ".join("%s..%s" % (human(s.t0), human(s.t1)[11:])
                                     for s in spans),
                  max(s.t1 for s in spans))

    def day(self, kind, q, at, dates, need, truth=None):
        assert dates, q
        self._add(kind, q, at, {"type": "day", "dates": sorted(set(dates))},
                  truth or " or ".join(sorted(set(dates))), need)

    def words(self, kind, q, at, groups, need, truth, none=(), k=None,
              others=()):
        groups = [[w.lower() for w in g] for g in groups if g]
        assert groups, q
        e = {"type": "words", "all": groups}
        if k is not None and k < len(groups):
            e["k"] = k
        if none:
            e["none"] = [w.lower() for w in none]
        if others:
            e["others"] = [[w.lower() for w in g] for g in others if g]
        self._add(kind, q, at, e, truth, need)

    def count(self, kind, q, at, n, need, truth=None):
        self._add(kind, q, at, {"type": "count", "n": n},
                  truth or str(n), need)

    def yesno(self, kind, q, at, yes, need, truth=None):
        self._add(kind, q, at, {"type": "yesno", "yes": bool(yes)},
                  truth or ("yes" if yes else "no"), need)


def must_contain(text, words):
    """The key words a 'what did X say' question requires, checked against
    the utterance found in the raw data (a wrong pick fails loudly)."""
    low = " " + re.sub(r"[^a-z0-9']+", " ", text.lower()) + " "
    for w in words:
        ww = " " + re.sub(r"[^a-z0-9']+", " ", w.lower()).strip() + " "
        if ww not in low:
            raise AssertionError("%r is not in the utterance %r" % (w, text))
    return [[w] for w in words]


def one(xs, i=0):
    """The i-th of what a truth query found; it must have found something."""
    assert xs, "nothing found"
    return xs[i]


def grab(pattern, text):
    """The first group of `pattern` in `text`, which must match."""
    m = re.search(pattern, text)
    assert m, (pattern, text)
    return m.group(1)


class Records:
    """Queries over a history read back: `runs` (with name, ok, t0, args),
    `notes` (observations with "note" and "_t") and `speech` ((t, speaker,
    text) triples), which the subclass sets."""

    def find(self, name=None, ok=None, day=None, **args):
        return [r for r in self.runs
                if (not name or r.name == name) and
                (ok is None or r.ok == ok) and
                (not day or day_of(r.t0) == day) and
                all(r.args.get(k) == v for k, v in args.items())]

    def note(self, start=None, contains=None, day=None):
        return [o for o in self.notes
                if (not start or o["note"].startswith(start)) and
                (not contains or contains.lower() in o["note"].lower()) and
                (not day or day_of(o["_t"]) == day)]

    def said(self, speaker=None, contains=None, day=None):
        return [(t, s, x) for t, s, x in self.speech
                if (not speaker or s == speaker) and
                (not day or day_of(t) == day) and
                (not contains or contains.lower() in x.lower())]
