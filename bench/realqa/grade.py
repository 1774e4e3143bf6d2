"""Deterministic grading of one answer text against one expectation.

  time   any date-time in the answer within one accepted span +- 60 s; an
         answer naming more than 4 different date-times is a list, not an
         answer, and is wrong.  A time without a date takes the nearest date
         named in the answer, else 'today'/'yesterday' in it, else the date
         of the asking time.
  day    the expected date named (2024-07-12, 2024/07/12, July 12, 12 July,
         'yesterday'/'today' relative to the asking time) and at most two
         different dates named.
  words  every group (or at least k groups) has one of its words or phrases,
         matched on word boundaries, case-insensitive, '-', '_' and '/' read
         as spaces, apostrophes dropped; 'stem*' matches a prefix.  None of
         the `none` words may appear.  For "what did you see": the answer
         must name fewer things seen elsewhere (`others`) than right ones.
  count  the first number in the answer (digits, number words, once, twice),
         dates and times left out, equals the expected one.
  yesno  the answer's first word is yes or no, as expected.

"I could not find that..." and "I have forgotten that..." are always wrong.
"""

import datetime as _dt
import re

UTC = _dt.timezone.utc
SLACK = 60.0
MAX_TIMES = 4

MONTHS = {m: i + 1 for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july",
     "august", "september", "october", "november", "december"])}
for _m, _i in list(MONTHS.items()):
    MONTHS[_m[:3]] = _i
MONTHS["sept"] = 9
_MON = r"(january|february|march|april|may|june|july|august|september|" \
       r"october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|" \
       r"oct|nov|dec)\.?"

NUMBER_WORDS = {
    "zero": 0, "no": None, "none": 0, "never": 0, "once": 1, "one": 1,
    "twice": 2, "two": 2, "thrice": 3, "three": 3, "four": 4, "five": 5,
    "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11,
    "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
    "twenty": 20,
}

NOT_AN_ANSWER = re.compile(r"^\W*(i\s+could\s+not\s+find|i\s+couldn't\s+find|"
                           r"i\s+have\s+forgotten|i've\s+forgotten)", re.I)


def _date(y, m, d):
    try:
        return _dt.date(int(y), int(m), int(d))
    except ValueError:
        return None


def _zones_to_utc(text):
    """'2024-07-12T17:21:03+02:00' -> '2024-07-12 15:21:03'."""
    def conv(m):
        date, hms, zone = m.group(1), m.group(2), m.group(3)
        if len(hms) == 5:
            hms += ":00"
        try:
            d = _dt.datetime.fromisoformat("%sT%s" % (date.replace("/", "-"),
                                                      hms))
        except ValueError:
            return m.group(0)
        if zone not in ("Z", "z"):
            sign = 1 if zone[0] == "+" else -1
            hh, mm = int(zone[1:3]), int(zone[-2:])
            d -= sign * _dt.timedelta(hours=hh, minutes=mm)
        return d.strftime("%Y-%m-%d %H:%M:%S")
    return re.sub(r"(\d{4}[-/]\d{2}[-/]\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)"
                  r"(?:\.\d+)?(Z|z|[+-]\d{2}:?\d{2})(?![\d:])", conv, text)


def dates_in(text, at):
    """[(start, end, date)] for every date the text names."""
    at_d = _dt.datetime.fromtimestamp(at, UTC).date()
    out = []
    for m in re.finditer(r"(?<!\d)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)",
                         text):
        d = _date(*m.groups())
        if d:
            out.append((m.start(), m.end(), d))
    for m in re.finditer(r"\b" + _MON + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b"
                         r"(?:,?\s+(\d{4}))?", text, re.I):
        d = _date(m.group(3) or at_d.year, MONTHS[m.group(1).lower()],
                  m.group(2))
        if d:
            out.append((m.start(), m.end(), d))
    for m in re.finditer(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MON +
                         r"(?:,?\s+(\d{4}))?", text, re.I):
        d = _date(m.group(3) or at_d.year, MONTHS[m.group(2).lower()],
                  m.group(1))
        if d:
            out.append((m.start(), m.end(), d))
    for m in re.finditer(r"\b(today|this morning|this afternoon|this evening|"
                         r"tonight|yesterday)\b", text, re.I):
        w = m.group(1).lower()
        d = at_d - _dt.timedelta(days=1) if w == "yesterday" else at_d
        out.append((m.start(), m.end(), d))
    out.sort()
    return out


def times_in(text, at):
    """Every date-time the text names, as epoch seconds."""
    text = _zones_to_utc(text)
    dates = dates_in(text, at)
    at_d = _dt.datetime.fromtimestamp(at, UTC).date()
    out = []
    for m in re.finditer(r"(?<![\d:])(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?"
                         r"(?![\d:])\s*(a\.?m\.?|p\.?m\.?)?", text, re.I):
        h, mi, s = int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)
        ap = (m.group(4) or "").lower().replace(".", "")
        if ap == "pm" and h < 12:
            h += 12
        elif ap == "am" and h == 12:
            h = 0
        if h > 23 or mi > 59 or s > 59:
            continue
        if dates:
            def dist(dd):
                a, b, _ = dd
                return a - m.end() if a >= m.end() else (
                    m.start() - b if b <= m.start() else 0)
            d = min(dates, key=dist)[2]
        else:
            d = at_d
        out.append(_dt.datetime(d.year, d.month, d.day, h, mi, s,
                                tzinfo=UTC).timestamp())
    return out


def _norm(s):
    s = s.lower().replace("'", "").replace("\u2019", "")
    s = re.sub(r"[-_/|]+", " ", s)
    s = re.sub(r"[^a-z0-9]+", " ", s)
    return " " + " ".join(s.split()) + " "


def _has(norm_text, word):
    star = word.endswith("*")
    w = _norm(word.rstrip("*")).strip()
    if not w:
        return False
    pat = r"(?<![a-z0-9])" + re.escape(w).replace(r"\ ", r"\s+") + (
        "" if star else r"(?![a-z0-9])")
    return re.search(pat, norm_text) is not None


def first_number(text, at):
    t = _zones_to_utc(text)
    for a, b, _ in reversed(dates_in(t, at)):
        t = t[:a] + " " + t[b:]
    t = re.sub(r"\d{1,2}:\d{2}(?::\d{2})?(?:\.\d+)?", " ", t)
    for m in re.finditer(r"\b(\d+|[a-z]+)\b", t.lower()):
        w = m.group(1)
        if w.isdigit():
            return int(w)
        if w in NUMBER_WORDS and NUMBER_WORDS[w] is not None:
            return NUMBER_WORDS[w]
    return None


def grade(expect, answer, at):
    """(ok, why) for the answer text."""
    if not answer or NOT_AN_ANSWER.search(answer):
        return False, "no answer"
    typ = expect["type"]
    if typ == "time":
        ts = sorted(set(times_in(answer, at)))
        if not ts:
            return False, "no time"
        if len(ts) > MAX_TIMES:
            return False, "%d times named" % len(ts)
        for t in ts:
            for t0, t1 in expect["spans"]:
                if t0 - SLACK <= t <= t1 + SLACK:
                    return True, ""
        return False, "time outside the span"
    if typ == "day":
        ds = {d.isoformat() for _, _, d in dates_in(_zones_to_utc(answer), at)}
        if not ds:
            return False, "no date"
        if len(ds) > 2:
            return False, "%d dates named" % len(ds)
        return (bool(ds & set(expect["dates"])),
                "" if ds & set(expect["dates"]) else "other date")
    if typ == "words":
        n = _norm(answer)
        for w in expect.get("none", []):
            if _has(n, w):
                return False, "names %r" % w
        hit = sum(1 for g in expect["all"] if any(_has(n, w) for w in g))
        need = expect.get("k", len(expect["all"]))
        if hit < need:
            return False, "%d of %d key words" % (hit, need)
        wrong = sum(1 for g in expect.get("others", [])
                    if any(_has(n, w) for w in g))
        if wrong >= hit:
            return False, "names %d things seen elsewhere, %d right" % (
                wrong, hit)
        return True, ""
    if typ == "count":
        got = first_number(answer, at)
        return got == expect["n"], "" if got == expect["n"] else "number %s" % got
    if typ == "yesno":
        m = re.match(r"\W*([a-z]+)", answer.lower())
        w = m.group(1) if m else ""
        yes = w in ("yes", "yeah", "yep")
        no = w in ("no", "nope")
        if not (yes or no):
            return False, "no leading yes/no"
        return yes == expect["yes"], "" if yes == expect["yes"] else "wrong %s" % w
    raise ValueError(typ)


def _selftest():
    from common import parse_time
    at = parse_time("2024-07-14T09:00:00Z")
    sp = {"type": "time", "spans": [[parse_time("2024-07-12T15:20:00Z"),
                                      parse_time("2024-07-12T15:21:03Z")]]}
    for a in ["At 2024/07/12, 15:21:03.", "2024-07-12 15:21",
              "at 15:21 on 2024/07/12", "On July 12 at 3:20 pm",
              "2024-07-12T17:21:03+02:00", "From 2024/07/12, 15:19:30 to 15:22"]:
        assert grade(sp, a, at)[0], a
    for a in ["At 2024/07/13, 15:21:03.", "I could not find that in my memory.",
              "At 15:21."]:
        assert not grade(sp, a, at)[0], a
    assert grade({"type": "time", "spans": [[parse_time("2024-07-13T15:21:00Z")] * 2]},
                 "Yesterday at 15:21.", at)[0]
    dy = {"type": "day", "dates": ["2024-07-12"]}
    for a in ["At 2024/07/12.", "On Friday, July 12.", "12 July 2024", "On 2024-07-12 at 10:00"]:
        assert grade(dy, a, at)[0], a
    assert not grade(dy, "On 2024/07/13.", at)[0]
    w = {"type": "words", "all": [["side table", "sidetable"]], "none": ["sofa"]}
    assert grade(w, "At the side-table.", at)[0]
    assert not grade(w, "On the sofa, then the side table.", at)[0]
    assert grade({"type": "words", "all": [["navigat*"]]}, "Navigation failed", at)[0]
    assert grade({"type": "words", "all": [["nurses station"]]}, "At the nurse's station.", at)[0]
    assert not grade({"type": "words", "all": [["room 1"]]}, "room 12", at)[0]
    see = {"type": "words", "all": [["walker"], ["crutches"], ["water jug"]], "k": 2,
           "others": [["television"], ["oxygen tank"]]}
    assert grade(see, "A walker, crutches and a television.", at)[0]
    assert not grade(see, "A walker, a television, crutches, an oxygen tank.", at)[0]
    c = {"type": "count", "n": 2}
    for a in ["2 times.", "Twice.", "Two times, on 2024/07/13 at 13:40 and 14:13."]:
        assert grade(c, a, at)[0], a
    assert not grade(c, "On 2024/07/13, 3 times.", at)[0]
    assert grade({"type": "yesno", "yes": False}, "No, it failed.", at)[0]
    assert not grade({"type": "yesno", "yes": False}, "I did not.", at)[0]
    print("grade: self-test ok")


if __name__ == "__main__":
    _selftest()
