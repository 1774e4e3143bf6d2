#!/usr/bin/env python3
"""Load test of `h2emv serve` on the loopback (issue 12's targets).

  python3 bench/bench_serve.py --h2emv build/h2emv [--seconds 60] [--askers 8]
                               [--minutes 10]

In one run, on a simulated household history (`h2emv sim`):
 1. ingest rate: the first --seed-obs observations go to a fresh server over
    HTTP in batches of 1,000, and to another fresh memory with `h2emv
    ingest`; the ratio is HTTP / CLI;
 2. idle asks: once the builder has caught up, one asker, then --askers
    askers, ask questions (`h2emv questions` over the history) for
    --idle-seconds each, nothing else running;
 3. load: --askers askers and one ingester streaming the rest of the
    history at --rate observations a second (batches every 0.1 s) for
    --seconds; every request must succeed and every acknowledged
    observation must be stored exactly once and built;
 4. memory: --minutes of mixed load (askers, the ingester, tree exports,
    status and metrics) on the same server; its resident memory (RSS, and
    its anonymous part RssAnon) at the end must be within 1.5x of its value
    after the first minute (issue 21; with --minutes under 2, after the
    first half).
Prints a table of p50/p99 and the ratios; exits 1 if a request failed, an
observation was lost or the RSS grew past 1.5x. Standard library only.
"""
import argparse
import calendar
import http.client
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time


class Client:
    def __init__(self, port):
        self.port = port
        self.conn = None

    def call(self, method, path, body=None):
        """(status, parsed JSON); raises on a transport error."""
        for attempt in range(2):  # a keep-alive connection the server closed: reopen once
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            try:
                # a body names its type, or the server answers 415 (docs/serve.md)
                headers = {"Content-Type": "application/json"} if body is not None else {}
                self.conn.request(method, path, body=body, headers=headers)
                r = self.conn.getresponse()
                data = r.read()
                return r.status, json.loads(data)
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.conn.close()
                self.conn = None
                if attempt:
                    raise
        raise AssertionError("unreachable")


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * (len(xs) - 1) + 0.5))] if xs else float("nan")


def start_server(h2emv, mem):
    # without the guard process, so that the pid is the server's (its RSS)
    env = dict(os.environ, H2EMV_NO_GUARD="1")
    p = subprocess.Popen([h2emv, "serve", "-m", mem, "--create", "--listen", "127.0.0.1:0"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    line = p.stdout.readline()
    return p, int(line.rsplit(":", 1)[1])


def wait_built(c, timeout=600):
    t0 = time.time()
    while time.time() - t0 < timeout:
        st, s = c.call("GET", "/v1/status")
        if st == 200 and s["lag"]["observations"] == 0 and s["newest_snapshot"]["seq"]:
            return s
        time.sleep(0.2)
    raise TimeoutError("builder did not catch up")


def stamp(t):
    """Seconds since the epoch of "YYYY-MM-DDTHH:MM:SS[.fff]Z" (whole seconds)."""
    return calendar.timegm(time.strptime(t[:19], "%Y-%m-%dT%H:%M:%S"))


def rss_kb(pid):
    """(VmRSS, RssAnon, RssFile) of the process, kB: RssFile is mostly the
    store's pages mapped by LMDB, which grow with the store and which the
    kernel drops when it needs to; RssAnon is what the server allocated."""
    v = {}
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            k = line.split(":")[0]
            if k in ("VmRSS", "RssAnon", "RssFile"):
                v[k] = int(line.split()[1])
    return (v.get("VmRSS", 0), v.get("RssAnon", 0), v.get("RssFile", 0))


def mixed_load(port, pid, questions, lines, start, a):
    """--minutes of askers, an ingester (the history from `start` on, then
    again and again, each time moved after its end), tree exports and
    status polls; RSS sampled every 5 s. Returns (samples [(s, kB)], failed
    requests, counts)."""
    seconds = a.minutes * 60
    stop_at = time.time() + seconds
    stats = {"lat": [], "failed": 0}
    ts = askers(port, questions, a.askers, seconds, stats)
    extra = {"failed": 0, "exports": 0, "batches": 0, "error": ""}

    def ingester():
        # the history again and again, each round moved after the last one
        # (new observations, so the builder keeps folding)
        ci = Client(port)
        first, last = (stamp(json.loads(lines[i])["t"]) for i in (0, -1))
        round_, pos = 0, start
        while time.time() < stop_at:
            if pos >= len(lines):
                round_, pos = round_ + 1, 0
            shift = round_ * (last - first + 86400)
            batch = []
            for line in lines[pos:pos + 10]:
                if shift:
                    o = json.loads(line)
                    o["t"] = time.strftime("%Y-%m-%dT%H:%M:%S",
                                           time.gmtime(stamp(o["t"]) + shift)) + o["t"][19:]
                    line = json.dumps(o).encode() + b"\n"
                batch.append(line)
            pos += 10
            try:
                st, ack = ci.call("POST", "/v1/observations", b"".join(batch))
                extra["batches"] += 1
                if st != 200:
                    extra["failed"] += 1
                    extra["error"] = extra["error"] or json.dumps(ack)[:300]
            except Exception:
                extra["failed"] += 1
            time.sleep(0.1)

    def exporter():
        while time.time() < stop_at:
            try:
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
                c.request("GET", "/v1/tree")
                r = c.getresponse()
                r.read()
                c.close()
                extra["exports"] += 1
                if r.status not in (200, 503):
                    extra["failed"] += 1
            except Exception:
                extra["failed"] += 1
            time.sleep(2)

    ts += [threading.Thread(target=ingester)] + [threading.Thread(target=exporter)
                                                   for _ in range(3)]
    for t in ts[-4:]:
        t.start()
    samples = []
    t0 = time.time()
    while time.time() < stop_at:
        samples.append((time.time() - t0, rss_kb(pid)))
        time.sleep(5)
    # no sample after the load ends: with no reader left the store's pages
    # are let go of within 0.1 s, and the figure would say nothing
    for t in ts:
        t.join()
    return samples, stats["failed"] + extra["failed"], extra


def askers(port, questions, n, seconds, stats):
    """n threads asking in a loop for `seconds`; latencies (s) and failures."""
    stop = time.time() + seconds
    lock = threading.Lock()

    def run(k):
        c = Client(port)
        i = k
        while time.time() < stop:
            q = questions[i % len(questions)]
            i += n
            body = json.dumps({"question": q})
            t0 = time.perf_counter()
            try:
                st, _ = c.call("POST", "/v1/ask", body)
                ok = st == 200
            except Exception:
                ok = False
            dt = time.perf_counter() - t0
            with lock:
                if ok:
                    stats["lat"].append(dt)
                else:
                    stats["failed"] += 1

    ts = [threading.Thread(target=run, args=(k,)) for k in range(n)]
    for t in ts:
        t.start()
    return ts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--h2emv", default="build/h2emv")
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--idle-seconds", type=float, default=15)
    ap.add_argument("--askers", type=int, default=8)
    ap.add_argument("--rate", type=float, default=100, help="observations per second streamed")
    ap.add_argument("--seed-obs", type=int, default=5000)
    ap.add_argument("--episodes", type=int, default=300)
    ap.add_argument("--minutes", type=float, default=10,
                    help="minutes of mixed load for the RSS check (0: skip it)")
    ap.add_argument("--keep", action="store_true", help="keep the work directory")
    a = ap.parse_args()
    h2emv = os.path.abspath(a.h2emv)
    work = tempfile.mkdtemp(prefix="bench-serve-")
    hist = os.path.join(work, "history.jsonl")
    # from 2012: the memory phase streams the history again and again, each
    # round moved after the last, and a round past this computer's clock by
    # more than max_clock_jump (30 days) is refused (docs/formats.md)
    subprocess.run([h2emv, "sim", "-n", str(a.episodes), "-s", "3", "--start", "2012-01-01",
                    "-q", "-o", hist], check=True)
    lines = open(hist, "rb").read().splitlines(keepends=True)
    seed, rest = lines[:a.seed_obs], lines[a.seed_obs:]
    seed_file = os.path.join(work, "seed.jsonl")
    with open(seed_file, "wb") as f:
        f.writelines(seed)
    qs = subprocess.run([h2emv, "questions", "--pairs", "20", seed_file], check=True,
                        capture_output=True, text=True).stdout.splitlines()
    questions = [json.loads(l)["question"] for l in qs if l.strip()]
    failed = 0

    # 1. ingest rate, HTTP (batches of 1,000) against the command line
    t0 = time.perf_counter()
    subprocess.run([h2emv, "ingest", "-q", "-m", os.path.join(work, "cli-mem"), "--create",
                    seed_file], check=True)
    cli_rate = len(seed) / (time.perf_counter() - t0)
    proc, port = start_server(h2emv, os.path.join(work, "mem"))
    c = Client(port)
    acked = []
    t0 = time.perf_counter()
    for i in range(0, len(seed), 1000):
        st, ack = c.call("POST", "/v1/observations", b"".join(seed[i:i + 1000]))
        if st != 200:
            failed += 1
        acked += [s for s in ack.get("seqs", []) if s]
    http_rate = len(seed) / (time.perf_counter() - t0)
    wait_built(c)

    # 2. idle asks
    idle1 = {"lat": [], "failed": 0}
    for t in askers(port, questions, 1, a.idle_seconds, idle1):
        t.join()
    idleN = {"lat": [], "failed": 0}
    for t in askers(port, questions, a.askers, a.idle_seconds, idleN):
        t.join()

    # 3. load: askers and one ingester
    load = {"lat": [], "failed": 0}
    ing = {"batches": 0, "failed": 0, "obs": 0, "max_lag_obs": 0, "max_lag_s": 0.0, "pos": 0}
    stop_at = time.time() + a.seconds

    def ingester():
        ci = Client(port)
        per = max(1, int(a.rate / 10))
        pos = 0
        next_t = time.time()
        while time.time() < stop_at and pos < len(rest):
            batch = rest[pos:pos + per]
            pos += len(batch)
            ing["pos"] = pos
            try:
                st, ack = ci.call("POST", "/v1/observations", b"".join(batch))
                if st != 200:
                    raise RuntimeError(ack)
                acked.extend(s for s in ack["seqs"] if s)
                ing["obs"] += len(batch)
                ing["batches"] += 1
            except Exception as e:
                print("ingest failed:", e, file=sys.stderr)
                ing["failed"] += 1
            next_t += 0.1
            time.sleep(max(0, next_t - time.time()))

    def watcher():
        cw = Client(port)
        while time.time() < stop_at:
            st, s = cw.call("GET", "/v1/status")
            if st == 200:
                ing["max_lag_obs"] = max(ing["max_lag_obs"], s["lag"]["observations"])
                ing["max_lag_s"] = max(ing["max_lag_s"], s["lag"]["seconds"])
            time.sleep(1)

    ts = askers(port, questions, a.askers, a.seconds, load)
    ts += [threading.Thread(target=ingester), threading.Thread(target=watcher)]
    for t in ts[-2:]:
        t.start()
    for t in ts:
        t.join()
    t0 = time.time()
    final = wait_built(c)
    catch_up = time.time() - t0

    # 4. memory over mixed load
    rss = None
    if a.minutes > 0:
        samples, rss_failed, rss_extra = mixed_load(port, proc.pid, questions, lines,
                                                    len(lines) - len(rest) + ing["pos"], a)
        failed += rss_failed
        base_t = 60 if a.minutes >= 2 else a.minutes * 30
        # a sample is what readers mapped in the last instant (a tree export
        # maps the store faster than any release drops it): the medians of
        # the minute after base_t and of the last minute, field by field
        span = base_t
        end_t = samples[-1][0] - span
        med = lambda sel: tuple(sorted(kb[i] for _, kb in sel)[len(sel) // 2] for i in range(3))
        base = med([x for x in samples if base_t <= x[0] < base_t + span] or samples[-1:])
        end = med([x for x in samples if x[0] >= end_t] or samples[-1:])
        rss = (base, end, max(kb[0] for _, kb in samples), rss_extra, samples)
    proc.terminate()
    proc.wait(timeout=60)

    # every acknowledged observation stored once, in order, and built
    expected = list(range(1, len(seed) + ing["obs"] + 1))
    lost = len(set(expected) - set(acked)) + (len(acked) - len(set(acked)))
    lost += final["observations"]["last_seq"] != len(expected)
    lost += final["observations"]["build_cursor"] != len(expected)
    failed += idle1["failed"] + idleN["failed"] + load["failed"] + ing["failed"]

    ms = lambda x: "%.1f" % (x * 1e3)
    print("h2emv serve load test: %s, %d questions, history of %d observations"
          % (time.strftime("%Y-%m-%d"), len(questions), len(lines)))
    print("ingest: HTTP (batches of 1,000) %.0f obs/s, h2emv ingest %.0f obs/s, ratio %.2f"
          % (http_rate, cli_rate, http_rate / cli_rate))
    print("%-36s %8s %8s %8s" % ("asks", "n", "p50 ms", "p99 ms"))
    print("%-36s %8d %8s %8s" % ("idle, 1 asker", len(idle1["lat"]), ms(pct(idle1["lat"], .5)),
                                  ms(pct(idle1["lat"], .99))))
    print("%-36s %8d %8s %8s" % ("idle, %d askers" % a.askers, len(idleN["lat"]),
                                  ms(pct(idleN["lat"], .5)), ms(pct(idleN["lat"], .99))))
    print("%-36s %8d %8s %8s" % ("%d askers + ingester %.0f obs/s" % (a.askers, a.rate),
                                  len(load["lat"]), ms(pct(load["lat"], .5)),
                                  ms(pct(load["lat"], .99))))
    for name, base in (("1 asker", idle1), ("%d askers" % a.askers, idleN)):
        print("load / idle %s: p50 x%.2f, p99 x%.2f" % (name, pct(load["lat"], .5) / pct(base["lat"], .5),
                                                       pct(load["lat"], .99) / pct(base["lat"], .99)))
    print("streamed %d observations in %d batches over %.0f s; build lag max %d obs, %.1f s; "
          "caught up %.1f s after the end"
          % (ing["obs"], ing["batches"], a.seconds, ing["max_lag_obs"], ing["max_lag_s"], catch_up))
    rss_bad = False
    if rss:
        base, end, peak, ex, samples = rss
        ratio = [e / b if b else float("inf") for b, e in zip(base, end)]
        # the check, read literally: the whole resident set (the server lets
        # go of the store's mapped pages every 0.1 s, so they count too),
        # and the allocated (anonymous) part alone
        rss_bad = ratio[0] > 1.5 or ratio[1] > 1.5
        print("memory: %.1f min of mixed load (%d askers, %d batches, %d tree exports), median "
              "of the samples (every 5 s) of the %s after the first -> of the last: "
              "RSS %.0f -> %.0f MB (x%.2f, limit x1.5; peak %.0f MB), of which "
              "anonymous (RssAnon) %.0f -> %.0f MB (x%.2f) and file-backed (RssFile: the "
              "store's mapped pages, the program) %.0f -> %.0f MB (x%.2f)%s"
              % (a.minutes, a.askers, ex["batches"], ex["exports"],
                 "minute" if a.minutes >= 2 else "quarter", base[0] / 1024, end[0] / 1024,
                 ratio[0], peak / 1024, base[1] / 1024, end[1] / 1024, ratio[1],
                 base[2] / 1024, end[2] / 1024, ratio[2], " -- TOO MUCH" if rss_bad else ""))
        print("memory samples (s: RSS / anon / file MB):", " ".join(
            "%.0f:%.0f/%.0f/%.0f" % (t, kb[0] / 1024, kb[1] / 1024, kb[2] / 1024)
            for t, kb in samples[::12]))
        if ex["error"]:
            print("memory phase, first refused batch:", ex["error"])
    print("failed requests: %d; lost observations: %d" % (failed, lost))
    if a.keep:
        print("work directory:", work)
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed or lost or rss_bad else 0


if __name__ == "__main__":
    sys.exit(main())
