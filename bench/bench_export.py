#!/usr/bin/env python3
"""Export speed (issue 12's target: json and html of a 10,000-node snapshot
in under a second).

  python3 bench/bench_export.py --h2emv build/h2emv [--episodes 105] [--runs 3]

Makes a memory from a simulated history (`h2emv sim -n EPISODES`,
forgetting off so every node stays: 105 episodes give about 9,700 nodes),
then times `h2emv export` in each format, best of --runs, in CPU seconds of
the child (user + sys: what an idle machine takes; wall time on a shared
machine is printed beside it). The baseline, run in the same script on the
same document, is Python's json module writing it again from memory
(`json.dumps` of the loaded export, compact): what a script that already
had the tree would spend just on the text. Standard library only.
"""
import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(cmd, **kw):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kw)


def timed(cmd):
    c0, w0 = child_cpu(), time.perf_counter()
    run(cmd)
    return child_cpu() - c0, time.perf_counter() - w0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--h2emv", default="build/h2emv")
    ap.add_argument("--episodes", type=int, default=105)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--keep", action="store_true", help="keep the work directory")
    args = ap.parse_args()
    h = os.path.abspath(args.h2emv)
    work = tempfile.mkdtemp(prefix="bench-export-")
    try:
        mem, hist, out = (os.path.join(work, n) for n in ("mem", "h.jsonl", "out"))
        with open(hist, "w") as f:
            subprocess.run([h, "sim", "-n", str(args.episodes)], check=True, stdout=f,
                           stderr=subprocess.DEVNULL)
        run([h, "init", "-m", mem])
        run([h, "config", "-m", mem, "--forgetting", "none"])
        run([h, "ingest", "-m", mem, hist])
        run([h, "build", "-m", mem])

        rows = []
        for fmt, extra in (("json", []), ("html", []), ("json", ["--no-facts"]),
                           ("dot", [])):
            best = None
            for _ in range(args.runs):
                t = timed([h, "export", "-m", mem, "--format", fmt, "-q", "-o", out] + extra)
                best = t if best is None or t[0] < best[0] else best
            rows.append((" ".join([fmt] + extra), best, os.path.getsize(out)))
            if fmt == "json" and not extra:
                with open(out) as f:
                    doc = json.load(f)

        base = None
        for _ in range(args.runs):
            t0 = time.process_time()
            json.dumps(doc, separators=(",", ":"), ensure_ascii=False)
            t = time.process_time() - t0
            base = t if base is None or t < base else base

        nodes = doc["node_count"]
        facts = sum(len(n.get("facts", [])) for n in doc["nodes"])
        print("h2emv export: %s episodes, %d nodes, %d typed facts (best of %d)"
              % (args.episodes, nodes, facts, args.runs))
        print("%-16s %9s %9s %9s %12s" % ("format", "CPU s", "wall s", "MB", "/ baseline"))
        for name, (cpu, wall), size in rows:
            print("%-16s %9.2f %9.2f %9.1f %12.2f" % (name, cpu, wall, size / 1e6, cpu / base))
        print("%-16s %9.2f %9s %9s %12.2f" % ("baseline: Python json.dumps", base, "", "", 1.0))
        ok = all(cpu < 1.0 for name, (cpu, _), _ in rows if name in ("json", "html"))
        print("target (json and html under 1 s CPU at ~10,000 nodes): %s"
              % ("met" if ok else "NOT met"))
        return 0
    finally:
        if args.keep:
            print("kept", work, file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
