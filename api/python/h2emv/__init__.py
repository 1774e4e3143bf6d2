"""h2emv — lifelong episodic memory for robots, from Python.

A thin ctypes binding of the C library libh2emv (include/h2emv.h is the
manual; every method here names the function it calls). No compiled
extension: the library is found through $H2EMV_LIB (its path), else the
dynamic loader and the usual install prefixes.

    import h2emv
    with h2emv.open("mem", create=True) as m:
        ack = m.ingest([{"id": "r1-1", "t": "2024-09-23T08:30:00Z",
                         "action": "Place(knife, drawer)"}])
        m.build()
        print(m.ask("Where did you put the knife?")["answer"])

Errors are raised as h2emv.Error (a subclass per status code, such as
h2emv.NotFoundError), carrying the library's code, its name and message,
and the input line, column and field when the error is about input.
"""
import ctypes
import datetime as _dt
import json as _json

from . import _lib

# `open` is left out of __all__ so that `from h2emv import *` keeps the
# builtin open; call it as h2emv.open
__all__ = ["Memory", "Error", "version", "time_parse", "time_format"]

_C = _lib.bind(_lib.load())

OK, EINVAL, ENOMEM, EIO, ENOSPC, ECORRUPT, EFORMAT = 0, -1, -2, -3, -4, -5, -6
ENOTFOUND, EEXIST, EBUSY, EPARSE, ELIMIT, EREADONLY, EINTERNAL = -7, -8, -9, -10, -11, -12, -13

OPEN_CREATE, OPEN_READONLY, OPEN_NOSYNC = 0x1, 0x2, 0x4
INGEST_ALLOW_CLOCK_JUMP = 0x1
_FORMATS = {"json": 1, "dot": 2, "html": 3}
_ROUTES = {1: "question", 2: "feedback", 3: "reply"}


class Error(Exception):
    """A failing call of the library. `code` is the status (negative),
    `name` what h2emv_strerror calls it, `message` the library's sentence,
    `line`/`column`/`field` where in the input (0, 0, "" otherwise);
    `index` is the 0-based item of an ingest batch that failed, or None."""

    def __init__(self, code, message="", line=0, column=0, field="", index=None):
        self.code = code
        self.name = _C.h2emv_strerror(code).decode()
        self.message = message or self.name
        self.line, self.column, self.field, self.index = line, column, field, index
        super().__init__("%s (%s, %d)" % (self.message, self.name, code))


def _subclass(cls_name, code):
    return type(cls_name, (Error,), {"__doc__": "h2emv status %d" % code})


InvalidError = _subclass("InvalidError", EINVAL)
NoMemoryError = _subclass("NoMemoryError", ENOMEM)
IOFailure = _subclass("IOFailure", EIO)
NoSpaceError = _subclass("NoSpaceError", ENOSPC)
CorruptError = _subclass("CorruptError", ECORRUPT)
FormatError = _subclass("FormatError", EFORMAT)
NotFoundError = _subclass("NotFoundError", ENOTFOUND)
ExistsError = _subclass("ExistsError", EEXIST)
BusyError = _subclass("BusyError", EBUSY)
ParseError = _subclass("ParseError", EPARSE)
LimitError = _subclass("LimitError", ELIMIT)
ReadOnlyError = _subclass("ReadOnlyError", EREADONLY)
InternalError = _subclass("InternalError", EINTERNAL)
_BY_CODE = {EINVAL: InvalidError, ENOMEM: NoMemoryError, EIO: IOFailure, ENOSPC: NoSpaceError,
            ECORRUPT: CorruptError, EFORMAT: FormatError, ENOTFOUND: NotFoundError,
            EEXIST: ExistsError, EBUSY: BusyError, EPARSE: ParseError, ELIMIT: LimitError,
            EREADONLY: ReadOnlyError, EINTERNAL: InternalError}


def _check(rc, err, index=None):
    if rc == OK:
        return
    cls = _BY_CODE.get(rc, Error)
    raise cls(rc, err.message.decode("utf-8", "replace"), err.line, err.column,
              err.field.decode("utf-8", "replace"), index)


def _text(b):
    return b.decode("utf-8", "replace") if b is not None else None


def version():
    """The loaded library's version, "0.1.0" (h2emv_version)."""
    return _C.h2emv_version(None, None, None).decode()


def time_parse(t):
    """Microseconds since the epoch (h2emv_time) from an int (taken as
    microseconds), a datetime (naive = UTC) or a string h2emv_time_parse
    reads ("2024-09-23T10:00:00Z", "2024-09-23 10:00", "2024-09-23")."""
    if isinstance(t, bool):
        raise TypeError("a time cannot be a bool")
    if isinstance(t, int):
        return t
    if isinstance(t, _dt.datetime):
        if t.tzinfo is None:
            t = t.replace(tzinfo=_dt.timezone.utc)
        delta = t - _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)
        return (delta.days * 86400 + delta.seconds) * 1000000 + delta.microseconds
    out, err = _lib.c_i64(), _lib.Error()
    _check(_C.h2emv_time_parse(ctypes.byref(out), str(t).encode(), ctypes.byref(err)), err)
    return out.value


def time_format(t, human=False):
    """RFC 3339 text of a time in microseconds ("2024-09-23T10:00:00.000000Z"),
    or "2024-09-23 10:00:00" with human=True (h2emv_time_format)."""
    buf = (ctypes.c_char * 32)()
    return _C.h2emv_time_format(buf, int(t), 1 if human else 0).decode()


def _tokens(t):
    return {"prompt": t.prompt, "completion": t.completion, "calls": t.calls}


def _answer_fields(a):
    ev = [{"id": a.evidence[i].id, "version": a.evidence[i].version}
          for i in range(a.n_evidence)]
    return {"evidence": ev, "forgotten": bool(a.forgotten), "quoted": bool(a.quoted),
            "snapshot": a.snapshot, "rounds": a.rounds}


def _rules_dict(r):
    return {"version": r.version, "parent": r.parent, "repaired": bool(r.repaired),
            "items": [_text(r.items[i]) for i in range(r.n)],
            "feedback": _text(r.feedback) or "", "created": r.created,
            "tokens": _tokens(r.tokens)}


def _obs_bytes(o):
    if isinstance(o, (bytes, bytearray)):
        return bytes(o)
    if isinstance(o, str):
        return o.encode()
    return _json.dumps(o, ensure_ascii=False, separators=(",", ":")).encode()


class _Sink:
    """Collects what the library streams through an h2emv_write_fn."""

    def __init__(self):
        self.parts = []

        def write(ctx, data, n):
            self.parts.append(ctypes.string_at(data, n))
            return 0
        self.fn = _lib.WRITE_FN(write)

    def text(self):
        return b"".join(self.parts).decode("utf-8", "replace")


def open(path, create=False, readonly=False, policy=None, llm_config=None):
    """Open the memory in directory `path` (h2emv_mem_open): create=True
    makes a missing one, readonly=True never writes. policy "builtin"
    (the default) or "llm" (with llm_config, a JSON file: docs/llm.md)
    chooses who makes the judgements. Returns a Memory; close it (or use
    `with`)."""
    return Memory(path, create=create, readonly=readonly, policy=policy, llm_config=llm_config)


class Memory:
    """One open memory (h2emv_mem). Methods may be called from several
    threads, as the C API allows; close() only when no call runs."""

    def __init__(self, path, create=False, readonly=False, policy=None, llm_config=None):
        self._m = None
        opts = _lib.OpenOptions(version=_lib.OpenOptions.VERSION)
        opts.flags = (OPEN_CREATE if create else 0) | (OPEN_READONLY if readonly else 0)
        m, err = ctypes.c_void_p(), _lib.Error()
        _check(_C.h2emv_mem_open(ctypes.byref(m), str(path).encode(), ctypes.byref(opts),
                                 ctypes.byref(err)), err)
        self._m = m
        self.path = str(path)
        if policy or llm_config:
            try:
                _check(_C.h2emv_mem_set_policy(m, (policy or "llm").encode(),
                                               llm_config.encode() if llm_config else None,
                                               ctypes.byref(err)), err)
            except Error:
                self.close()
                raise

    def close(self):
        """h2emv_mem_close. Calling it twice is harmless."""
        if self._m:
            _C.h2emv_mem_close(self._m)
            self._m = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()

    def _h(self):
        if not self._m:
            raise InvalidError(EINVAL, "the memory is closed")
        return self._m

    # ------------------------------------------------------------- ingest --
    def ingest(self, observations, allow_clock_jump=False):
        """Store observations durably, all or nothing, in one transaction
        (h2emv_ingest_opts). `observations` is one observation (a dict, or
        its JSON text) or a list of them. An observation with an "id" that
        is already stored is a duplicate: not stored again, answered with
        the seq it has. Returns the acknowledgement, once it is on disk:
        {"stored", "duplicates", "first_seq", "last_seq", "out_of_order",
        "clock", "items": [{"seq", "duplicate"}, ...] (one per input)}.
        A bad item raises (ParseError, ExistsError for an id reused for
        other content, ...) with `index` naming it; nothing is stored."""
        if isinstance(observations, (dict, str, bytes, bytearray)):
            observations = [observations]
        data = [_obs_bytes(o) for o in observations]
        n = len(data)
        if not n:
            return {"stored": 0, "duplicates": 0, "first_seq": 0, "last_seq": 0,
                    "out_of_order": 0, "clock": None, "items": []}
        texts = (ctypes.c_char_p * max(n, 1))(*data)
        lens = (ctypes.c_size_t * max(n, 1))(*[len(d) for d in data])
        items = (_lib.IngestItem * max(n, 1))()
        opts = _lib.IngestOptions(version=_lib.IngestOptions.VERSION, items=items,
                                  flags=INGEST_ALLOW_CLOCK_JUMP if allow_clock_jump else 0)
        res, err = _lib.IngestResult(), _lib.Error()
        rc = _C.h2emv_ingest_opts(ctypes.byref(res), self._h(), texts, lens, n,
                                  ctypes.byref(opts), ctypes.byref(err))
        _check(rc, err, res.failed if res.failed < n else None)
        last = res.first_seq + res.stored - 1 if res.stored else 0
        return {"stored": res.stored, "duplicates": res.duplicates,
                "first_seq": res.first_seq if res.stored else 0, "last_seq": last,
                "out_of_order": res.out_of_order, "clock": res.clock,
                "items": [{"seq": items[i].seq, "duplicate": bool(items[i].duplicate)}
                          for i in range(n)]}

    def validate(self, observation):
        """Check one observation without storing it (h2emv_obs_validate);
        raises ParseError/LimitError naming the column and field."""
        b, err = _obs_bytes(observation), _lib.Error()
        _check(_C.h2emv_obs_validate(b, len(b), 1, ctypes.byref(err)), err)

    def observation(self, seq):
        """Stored observation `seq` as a dict (h2emv_obs_get_json)."""
        p, n, err = ctypes.c_void_p(), ctypes.c_size_t(), _lib.Error()
        _check(_C.h2emv_obs_get_json(ctypes.byref(p), ctypes.byref(n), self._h(), seq,
                                     ctypes.byref(err)), err)
        try:
            return _json.loads(ctypes.string_at(p, n.value))
        finally:
            _C.h2emv_free(p)

    def set_profile(self, profile):
        """Store a robot profile (a dict or JSON text; docs/profiles.md)
        (h2emv_profile_set)."""
        b, err = _obs_bytes(profile), _lib.Error()
        _check(_C.h2emv_profile_set(self._h(), b, len(b), ctypes.byref(err)), err)

    def profile(self):
        """The stored robot profile as a dict, or None (h2emv_profile_get)."""
        p, err = ctypes.c_void_p(), _lib.Error()
        _check(_C.h2emv_profile_get(ctypes.byref(p), self._h(), ctypes.byref(err)), err)
        if not p.value:
            return None
        try:
            return _json.loads(ctypes.string_at(p))
        finally:
            _C.h2emv_free(p)

    # -------------------------------------------------------------- build --
    def build(self, max_obs=0, commit_every=0, no_forget=False):
        """Fold the waiting observations into the tree (h2emv_build).
        Returns the build result as a dict. BusyError while another
        builder runs."""
        opts = _lib.BuildOptions(version=_lib.BuildOptions.VERSION, max_obs=max_obs,
                                 commit_every=commit_every, no_forget=1 if no_forget else 0)
        res, err = _lib.BuildResult(), _lib.Error()
        _check(_C.h2emv_build(ctypes.byref(res), self._h(), ctypes.byref(opts),
                              ctypes.byref(err)), err)
        return self._build_dict(res)

    def forget(self, now):
        """Run forgetting as of `now` (a time; see time_parse) and commit
        (h2emv_forget): this moves the memory's clock to `now` for good."""
        res, err = _lib.BuildResult(), _lib.Error()
        _check(_C.h2emv_forget(ctypes.byref(res), self._h(), time_parse(now),
                               ctypes.byref(err)), err)
        return self._build_dict(res)

    @staticmethod
    def _build_dict(r):
        d = {k: getattr(r, k) for k in ("obs_folded", "snapshots", "nodes_forgotten",
                                        "tree_size", "build_cursor", "obs_skipped",
                                        "obs_missing")}
        d["tokens_build"], d["tokens_forget"] = _tokens(r.tokens_build), _tokens(r.tokens_forget)
        return d

    # ---------------------------------------------------------- questions --
    def ask(self, question, at=None, snapshot=0, trace=False):
        """Answer a question about the past (h2emv_ask), from the newest
        snapshot, snapshot `snapshot`, or as the memory was at time `at`.
        Returns the dict `h2emv ask --json` prints: question, answer,
        evidence [{id, version}], forgotten, quoted, snapshot, rounds,
        tokens, and trace (a list of lines) with trace=True. NotFoundError
        when nothing is built yet or no snapshot is that old."""
        opts = _lib.AskOptions(version=_lib.AskOptions.VERSION, snapshot=snapshot,
                               at=time_parse(at) if at is not None else 0,
                               trace=1 if trace else 0)
        a, err = ctypes.POINTER(_lib.Answer)(), _lib.Error()
        _check(_C.h2emv_ask(ctypes.byref(a), self._h(), question.encode(), ctypes.byref(opts),
                            ctypes.byref(err)), err)
        try:
            ans = a.contents
            d = {"question": question, "answer": _text(ans.text) or ""}
            d.update(_answer_fields(ans))
            d["tokens"] = _tokens(ans.tokens)
            if trace and ans.trace:
                d["trace"] = _text(ans.trace).splitlines()
            return d
        finally:
            _C.h2emv_answer_free(a)

    def say(self, utterance):
        """Talk to the memory (h2emv_say): a question is answered, feedback
        makes a new rules version, small talk is answered directly.
        Returns {"route": "question"|"feedback"|"reply", "text", "answer"
        (for a question), "rules" (for feedback), "tokens"}, as
        `h2emv say --json` prints."""
        r, err = ctypes.POINTER(_lib.Reply)(), _lib.Error()
        _check(_C.h2emv_say(ctypes.byref(r), self._h(), utterance.encode(), ctypes.byref(err)),
               err)
        try:
            rep = r.contents
            d = {"route": _ROUTES.get(rep.route, "reply"), "text": _text(rep.text) or ""}
            if rep.answer:
                d["answer"] = _answer_fields(rep.answer.contents)
            if rep.rules:
                d["rules"] = _rules_dict(rep.rules.contents)
            d["tokens"] = _tokens(rep.tokens)
            return d
        finally:
            _C.h2emv_reply_free(r)

    def _rules_call(self, fn, *args):
        r, err = ctypes.POINTER(_lib.Rules)(), _lib.Error()
        _check(fn(ctypes.byref(r), self._h(), *args, ctypes.byref(err)), err)
        try:
            return _rules_dict(r.contents)
        finally:
            _C.h2emv_rules_free(r)

    def feedback(self, text):
        """Learn from feedback (h2emv_feedback): returns the new rules
        version as a dict (version, parent, repaired, items, feedback,
        created, tokens). InvalidError ("not a rule") for small talk."""
        return self._rules_call(_C.h2emv_feedback, text.encode())

    def rules(self, version=0):
        """Rules version `version`, 0 = the current one (h2emv_rules_get)."""
        return self._rules_call(_C.h2emv_rules_get, version)

    def rules_current(self):
        """The current rules version number (h2emv_rules_current)."""
        v, err = ctypes.c_uint32(), _lib.Error()
        _check(_C.h2emv_rules_current(ctypes.byref(v), self._h(), ctypes.byref(err)), err)
        return v.value

    def rules_history(self):
        """Every rules version, oldest first."""
        return [self.rules(v) for v in range(1, self.rules_current() + 1)] or [self.rules(0)]

    def rules_revert(self, version):
        """A new rules version equal to `version` (h2emv_rules_revert)."""
        return self._rules_call(_C.h2emv_rules_revert, version)

    # ---------------------------------------------------------- snapshots --
    def snapshots(self):
        """Every stored snapshot, oldest first (h2emv_snap_list): dicts of
        seq, root {id, version}, t_now, created, build_cursor,
        rules_version, n_nodes, pinned."""
        arr, n, err = ctypes.POINTER(_lib.SnapInfo)(), ctypes.c_size_t(), _lib.Error()
        _check(_C.h2emv_snap_list(ctypes.byref(arr), ctypes.byref(n), self._h(),
                                  ctypes.byref(err)), err)
        try:
            return [{"seq": s.seq, "root": {"id": s.root.id, "version": s.root.version},
                     "t_now": s.t_now, "created": s.created, "build_cursor": s.build_cursor,
                     "rules_version": s.rules_version, "n_nodes": s.n_nodes,
                     "pinned": bool(s.pinned)} for s in (arr[i] for i in range(n.value))]
        finally:
            _C.h2emv_free(arr)

    def pin(self, seq, name=None):
        """Pin snapshot `seq` (h2emv_snap_pin) under `name` (default
        "pin-SEQ") so gc keeps it; returns the name."""
        name = name or "pin-%d" % seq
        err = _lib.Error()
        _check(_C.h2emv_snap_pin(self._h(), name.encode(), seq, ctypes.byref(err)), err)
        return name

    def unpin(self, name):
        """Remove pin `name` (h2emv_snap_unpin); NotFoundError if none."""
        err = _lib.Error()
        _check(_C.h2emv_snap_unpin(self._h(), name.encode(), ctypes.byref(err)), err)

    def pins(self):
        """Every pin: [{"name", "seq", "created"}] (h2emv_pin_list)."""
        arr, n, err = ctypes.POINTER(_lib.Pin)(), ctypes.c_size_t(), _lib.Error()
        _check(_C.h2emv_pin_list(ctypes.byref(arr), ctypes.byref(n), self._h(),
                                 ctypes.byref(err)), err)
        try:
            return [{"name": _text(p.name), "seq": p.seq, "created": p.created}
                    for p in (arr[i] for i in range(n.value))]
        finally:
            _C.h2emv_free(arr)

    def snapshot_at(self, at):
        """The snapshot showing the memory as it was at `at` (h2emv_snap_at)."""
        out, err = ctypes.c_uint64(), _lib.Error()
        _check(_C.h2emv_snap_at(ctypes.byref(out), self._h(), time_parse(at),
                                ctypes.byref(err)), err)
        return out.value

    # ------------------------------------------------------------- export --
    def export(self, format="json", snapshot=0, at=None, max_depth=-1, min_level=0,
               no_facts=False):
        """A snapshot's tree (h2emv_snap_export) as text: format "json"
        (h2emv-export/1; json.loads it), "dot" (Graphviz) or "html" (the
        viewer page). From the newest snapshot, `snapshot`, or the one at
        time `at`."""
        if format not in _FORMATS:
            raise InvalidError(EINVAL, "format must be json, dot or html")
        seq = self.snapshot_at(at) if at is not None else snapshot
        snap, err = ctypes.c_void_p(), _lib.Error()
        _check(_C.h2emv_snap_open(ctypes.byref(snap), self._h(), seq, ctypes.byref(err)), err)
        try:
            opts = _lib.ExportOptions(version=_lib.ExportOptions.VERSION,
                                      format=_FORMATS[format], max_depth=max_depth,
                                      min_level=min_level, no_facts=1 if no_facts else 0)
            sink = _Sink()
            _check(_C.h2emv_snap_export(snap, sink.fn, None, ctypes.byref(opts),
                                        ctypes.byref(err)), err)
            return sink.text()
        finally:
            _C.h2emv_snap_close(snap)

    def export_observations(self, start=0, end=0):
        """The stored observations whose t lies in [start, end) (end 0 = no
        end) as a list of dicts, in sequence order (h2emv_obs_export)."""
        sink, n, err = _Sink(), ctypes.c_uint64(), _lib.Error()
        _check(_C.h2emv_obs_export(ctypes.byref(n), self._h(), time_parse(start),
                                   time_parse(end), sink.fn, None, _lib.PROGRESS_FN(), None,
                                   ctypes.byref(err)), err)
        return [_json.loads(line) for line in sink.text().splitlines() if line]

    # -------------------------------------------------------- maintenance --
    def stats(self):
        """Counts and sizes (h2emv_mem_stats) as a dict."""
        s, err = _lib.Stats(), _lib.Error()
        _check(_C.h2emv_mem_stats(ctypes.byref(s), self._h(), ctypes.byref(err)), err)
        return {name: getattr(s, name) for name, _ in _lib.Stats._fields_}

    def check(self):
        """The number of problems h2emv_check finds (0 = healthy)."""
        n, err = ctypes.c_uint64(), _lib.Error()
        _check(_C.h2emv_check(ctypes.byref(n), self._h(), None, ctypes.byref(err)), err)
        return n.value

    def backup(self, dest):
        """A consistent copy in the new directory `dest` (h2emv_mem_backup);
        returns its size in bytes."""
        n, err = ctypes.c_uint64(), _lib.Error()
        _check(_C.h2emv_mem_backup(ctypes.byref(n), self._h(), str(dest).encode(),
                                   ctypes.byref(err)), err)
        return n.value

    def maintain(self, force=False):
        """gc and compaction when due, or now with force=True (h2emv_maintain).
        A dict: gc_ran, compacted, compact_deferred (the memory was busy),
        compact_skipped and compact_skipped_why (the copy would not fit on
        the disk; not an error), gc (its counts), bytes_before, bytes_after,
        free_bytes."""
        o, r, err = _lib.MaintainOptions(), _lib.MaintainResult(), _lib.Error()
        o.version, o.force = _lib.MaintainOptions.VERSION, 1 if force else 0
        _check(_C.h2emv_maintain(ctypes.byref(r), self._h(), ctypes.byref(o),
                                 ctypes.byref(err)), err)
        d = {n: getattr(r, n) for n, _ in _lib.MaintainResult._fields_}
        d["gc"] = {n: getattr(r.gc, n) for n, _ in _lib.GcResult._fields_}
        d["compact_skipped_why"] = _text(r.compact_skipped_why)
        return d

    def upgrade(self, backup=None):
        """Give a tree built before typed facts its facts (h2emv_upgrade),
        copying the memory to the new directory `backup` first if given.
        A dict: nodes_read, events, goals, summaries, snapshot (0: nothing
        to upgrade), backup_bytes."""
        o, r, err = _lib.UpgradeOptions(), _lib.UpgradeResult(), _lib.Error()
        o.version = _lib.UpgradeOptions.VERSION
        o.backup = str(backup).encode() if backup is not None else None
        _check(_C.h2emv_upgrade(ctypes.byref(r), self._h(), ctypes.byref(o),
                                ctypes.byref(err)), err)
        return {n: getattr(r, n) for n, _ in _lib.UpgradeResult._fields_}

    def release_pages(self):
        """Let go of the store's pages mapped into this process by reads
        (h2emv_mem_release_pages): a long-running reader calls it to keep its
        resident set to what it works on; open snapshots stay valid."""
        _C.h2emv_mem_release_pages(self._h())
