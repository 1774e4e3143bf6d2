"""The C library as ctypes sees it: where libh2emv is found, the structs of
include/h2emv.h this package uses, and each function's prototype.

Keep this file in step with include/h2emv.h: a struct here must have the
header's fields in the header's order, and every options struct is passed
with the version number written here (the library keeps older versions
working, so an older binding still runs against a newer library).
"""
import ctypes
import ctypes.util
import os
import sys

c_u32, c_u64, c_i64 = ctypes.c_uint32, ctypes.c_uint64, ctypes.c_int64
c_size, c_int, c_uint = ctypes.c_size_t, ctypes.c_int, ctypes.c_uint
c_char_p, c_void_p = ctypes.c_char_p, ctypes.c_void_p
P = ctypes.POINTER

SONAME = "libh2emv.so.0"


def _candidates():
    """Where to look for the library, in order: $H2EMV_LIB (a file), the
    library directory this package was installed under by CMake, the
    dynamic loader's own search (ld.so.cache, LD_LIBRARY_PATH, the rpath),
    then the lib folders of this Python's prefix and of /usr/local, where
    `cmake --install` puts it by default."""
    env = os.environ.get("H2EMV_LIB")
    if env:
        yield env
        return
    # installed by `cmake --install` into LIBDIR/h2emv/python/h2emv/
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, os.pardir, os.pardir, os.pardir, SONAME)
    yield SONAME
    found = ctypes.util.find_library("h2emv")
    if found:
        yield found
    for prefix in (sys.prefix, "/usr/local", "/usr"):
        for sub in ("lib", "lib64", "lib/x86_64-linux-gnu", "lib/aarch64-linux-gnu"):
            yield os.path.join(prefix, sub, SONAME)


def load():
    """The loaded library; OSError naming what was tried when none loads."""
    tried = []
    for name in _candidates():
        try:
            return ctypes.CDLL(name)
        except OSError as e:
            tried.append("%s (%s)" % (name, e))
    raise OSError("h2emv: cannot load libh2emv; set H2EMV_LIB to the library's "
                  "path (e.g. build/libh2emv.so) or install it (cmake --install). "
                  "Tried: " + "; ".join(tried))


class Error(ctypes.Structure):
    _fields_ = [("status", c_int), ("line", c_u64), ("column", c_u64),
                ("field", ctypes.c_char * 96), ("message", ctypes.c_char * 512)]


class Tokens(ctypes.Structure):
    _fields_ = [("prompt", c_u64), ("completion", c_u64), ("calls", c_u64)]


class Ref(ctypes.Structure):
    _fields_ = [("id", c_u64), ("version", c_u32)]


class OpenOptions(ctypes.Structure):
    VERSION = 1
    _fields_ = [("version", c_uint), ("flags", c_uint), ("initial_map_size", c_u64),
                ("max_map_size", c_u64), ("dict_train_after", c_u32)]


class IngestItem(ctypes.Structure):
    _fields_ = [("seq", c_u64), ("duplicate", c_int)]


class IngestOptions(ctypes.Structure):
    VERSION = 2
    _fields_ = [("version", c_uint), ("flags", c_uint), ("lines", P(c_u64)),
                ("now", c_i64), ("items", P(IngestItem))]


class IngestResult(ctypes.Structure):
    _fields_ = [("first_seq", c_u64), ("failed", c_size), ("out_of_order", c_u64),
                ("clock", c_i64), ("stored", c_u64), ("duplicates", c_u64)]


PROGRESS_FN = ctypes.CFUNCTYPE(c_int, c_void_p, c_char_p, c_u64, c_u64)
WRITE_FN = ctypes.CFUNCTYPE(c_int, c_void_p, c_void_p, c_size)


class BuildOptions(ctypes.Structure):
    VERSION = 2
    _fields_ = [("version", c_uint), ("max_obs", c_u64), ("commit_every", c_u64),
                ("no_forget", c_int), ("progress", PROGRESS_FN), ("progress_ctx", c_void_p)]


class BuildResult(ctypes.Structure):
    _fields_ = [("obs_folded", c_u64), ("snapshots", c_u64), ("nodes_forgotten", c_u64),
                ("tree_size", c_u64), ("build_cursor", c_u64), ("tokens_build", Tokens),
                ("tokens_forget", Tokens), ("obs_skipped", c_u64), ("obs_missing", c_u64)]


class SnapInfo(ctypes.Structure):
    _fields_ = [("seq", c_u64), ("root", Ref), ("t_now", c_i64), ("created", c_i64),
                ("build_cursor", c_u64), ("rules_version", c_u32), ("n_nodes", c_u64),
                ("pinned", c_int)]


class Pin(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char * 208), ("seq", c_u64), ("created", c_i64)]


class AskOptions(ctypes.Structure):
    VERSION = 1
    _fields_ = [("version", c_uint), ("snapshot", c_u64), ("at", c_i64), ("trace", c_int)]


class Answer(ctypes.Structure):
    _fields_ = [("text", c_char_p), ("evidence", P(Ref)), ("n_evidence", c_size),
                ("forgotten", c_int), ("snapshot", c_u64), ("rounds", c_uint),
                ("tokens", Tokens), ("trace", c_char_p), ("quoted", c_int)]


class Rules(ctypes.Structure):
    _fields_ = [("version", c_u32), ("items", P(c_char_p)), ("n", c_size),
                ("feedback", c_char_p), ("created", c_i64), ("parent", c_u32),
                ("repaired", c_int), ("tokens", Tokens)]


class Reply(ctypes.Structure):
    _fields_ = [("route", c_int), ("text", c_char_p), ("answer", P(Answer)),
                ("rules", P(Rules)), ("tokens", Tokens)]


class ExportOptions(ctypes.Structure):
    VERSION = 1
    _fields_ = [("version", c_uint), ("format", c_int), ("start", Ref), ("max_depth", c_int),
                ("min_level", c_int), ("no_facts", c_int), ("progress", PROGRESS_FN),
                ("progress_ctx", c_void_p)]


class Stats(ctypes.Structure):
    _fields_ = [(n, c_u64) for n in (
        "obs_count", "obs_last_seq", "build_cursor", "node_versions", "dead_versions",
        "snapshots", "last_snapshot", "pins", "dicts", "rules_versions", "relcache_entries",
        "file_bytes", "used_bytes", "map_bytes", "obs_bytes", "node_bytes")] + [
        ("format", c_u32), ("relcache_bytes", c_u64), ("generation", c_u64),
        ("reserve_bytes", c_u64)]


class GcOptions(ctypes.Structure):
    VERSION = 3
    _fields_ = [("version", c_uint), ("keep_snapshots", c_u32), ("keep_age", c_i64),
                ("now", c_i64), ("batch", c_u32), ("progress", c_void_p),
                ("progress_ctx", c_void_p), ("keep_log", c_int), ("purge", c_int)]


class GcResult(ctypes.Structure):
    _fields_ = [(n, c_u64) for n in (
        "snapshots_dropped", "versions_deleted", "batches", "obs_reclaimed",
        "obs_bytes_reclaimed", "cache_collected")]


class MaintainOptions(ctypes.Structure):
    VERSION = 1
    _fields_ = [("version", c_uint), ("gc_every_snapshots", c_u32), ("gc_every", c_i64),
                ("compact_free_share", ctypes.c_double), ("compact_min_bytes", c_u64),
                ("force", c_int), ("gc", GcOptions)]


class MaintainResult(ctypes.Structure):
    _fields_ = [("gc_ran", c_int), ("compacted", c_int), ("compact_deferred", c_int),
                ("gc", GcResult), ("bytes_before", c_u64), ("bytes_after", c_u64),
                ("free_bytes", c_u64), ("compact_skipped", c_int),
                ("compact_skipped_why", ctypes.c_char * 512)]


class UpgradeOptions(ctypes.Structure):
    VERSION = 1
    _fields_ = [("version", c_uint), ("backup", c_char_p), ("progress", c_void_p),
                ("progress_ctx", c_void_p)]


class UpgradeResult(ctypes.Structure):
    _fields_ = [(n, c_u64) for n in (
        "nodes_read", "events", "goals", "summaries", "snapshot", "backup_bytes")]


def _proto(lib, name, args, res=c_int):
    f = getattr(lib, name)
    f.argtypes = args
    f.restype = res
    return f


def bind(lib):
    """Give each function of the header this package calls its prototype."""
    E = P(Error)
    M = c_void_p  # h2emv_mem *
    S = c_void_p  # h2emv_snap *
    protos = {
        "h2emv_version": ([P(c_int), P(c_int), P(c_int)], c_char_p),
        "h2emv_strerror": ([c_int], c_char_p),
        "h2emv_free": ([c_void_p], None),
        "h2emv_time_parse": ([P(c_i64), c_char_p, E], c_int),
        "h2emv_time_format": ([ctypes.c_char * 32, c_i64, c_int], c_char_p),
        "h2emv_mem_open": ([P(M), c_char_p, P(OpenOptions), E], c_int),
        "h2emv_mem_close": ([M], None),
        "h2emv_mem_set_policy": ([M, c_char_p, c_char_p, E], c_int),
        "h2emv_profile_set": ([M, c_char_p, c_size, E], c_int),
        "h2emv_profile_get": ([P(c_void_p), M, E], c_int),
        "h2emv_obs_validate": ([c_char_p, c_size, c_u64, E], c_int),
        "h2emv_ingest_opts": ([P(IngestResult), M, P(c_char_p), P(c_size), c_size,
                               P(IngestOptions), E], c_int),
        "h2emv_obs_get_json": ([P(c_void_p), P(c_size), M, c_u64, E], c_int),
        "h2emv_build": ([P(BuildResult), M, P(BuildOptions), E], c_int),
        "h2emv_forget": ([P(BuildResult), M, c_i64, E], c_int),
        "h2emv_snap_open": ([P(S), M, c_u64, E], c_int),
        "h2emv_snap_close": ([S], None),
        "h2emv_snap_list": ([P(P(SnapInfo)), P(c_size), M, E], c_int),
        "h2emv_snap_pin": ([M, c_char_p, c_u64, E], c_int),
        "h2emv_snap_unpin": ([M, c_char_p, E], c_int),
        "h2emv_pin_list": ([P(P(Pin)), P(c_size), M, E], c_int),
        "h2emv_snap_at": ([P(c_u64), M, c_i64, E], c_int),
        "h2emv_ask": ([P(P(Answer)), M, c_char_p, P(AskOptions), E], c_int),
        "h2emv_answer_free": ([P(Answer)], None),
        "h2emv_rules_get": ([P(P(Rules)), M, c_u32, E], c_int),
        "h2emv_rules_free": ([P(Rules)], None),
        "h2emv_rules_current": ([P(c_u32), M, E], c_int),
        "h2emv_feedback": ([P(P(Rules)), M, c_char_p, E], c_int),
        "h2emv_rules_revert": ([P(P(Rules)), M, c_u32, E], c_int),
        "h2emv_say": ([P(P(Reply)), M, c_char_p, E], c_int),
        "h2emv_reply_free": ([P(Reply)], None),
        "h2emv_mem_stats": ([P(Stats), M, E], c_int),
        "h2emv_check": ([P(c_u64), M, c_void_p, E], c_int),
        "h2emv_mem_backup": ([P(c_u64), M, c_char_p, E], c_int),
        "h2emv_maintain": ([P(MaintainResult), M, P(MaintainOptions), E], c_int),
        "h2emv_upgrade": ([P(UpgradeResult), M, P(UpgradeOptions), E], c_int),
        "h2emv_mem_release_pages": ([M], None),
        "h2emv_snap_export": ([S, WRITE_FN, c_void_p, P(ExportOptions), E], c_int),
        "h2emv_obs_export": ([P(c_u64), M, c_i64, c_i64, WRITE_FN, c_void_p, PROGRESS_FN,
                              c_void_p, E], c_int),
    }
    for name, (args, res) in protos.items():
        _proto(lib, name, args, res)
    return lib
