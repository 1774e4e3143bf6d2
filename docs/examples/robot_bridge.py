#!/usr/bin/env python3
"""A robot bridge for `h2emv serve`, with the Python standard library only.

It streams a robot's observations to the memory in batches (each batch is
acknowledged with its sequence numbers once it is on disk), waits until the
background builder has folded them into the tree, and asks questions.

    h2emv serve -m robot-memory --create &
    python3 docs/examples/robot_bridge.py --url http://127.0.0.1:7878
    python3 docs/examples/robot_bridge.py --file day.jsonl --ask "Where did you put the knife?"

Without --file it streams a small made-up history: three mornings in which
the robot tidies the keys away (shelf, table, then drawer). See docs/serve.md.
"""
import argparse
import json
import sys
import time
import urllib.error
import urllib.request


class Memory:
    """A client of one `h2emv serve`."""

    def __init__(self, url, token=None, timeout=30):
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout

    def call(self, method, path, body=None, content_type="application/json"):
        """One request; returns (status, decoded JSON). 4xx answers carry
        {"error": {"code", "message"}} and are returned, not raised."""
        data = None
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", content_type)
        if self.token:
            req.add_header("Authorization", "Bearer " + self.token)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                return resp.status, json.loads(resp.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"{}")

    def send(self, observations, retries=5):
        """Store a batch (a list of dicts) durably, as JSON Lines. Retries a
        request that got no answer (refused, reset, timed out): with an "id"
        on each observation a resend is harmless, since the server stores an
        id once and answers a resent one with the seq it already has. An
        answer is final."""
        body = "".join(json.dumps(o) + "\n" for o in observations).encode()
        for attempt in range(retries):
            try:
                return self.call("POST", "/v1/observations", body, "application/x-ndjson")
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if attempt + 1 == retries:
                    raise
                time.sleep(0.2 * 2 ** attempt)
        raise AssertionError("unreachable")

    def wait_built(self, timeout=30):
        """Poll /v1/status until no stored observation waits for the builder."""
        deadline = time.time() + timeout
        while True:
            status, st = self.call("GET", "/v1/status")
            if status == 200 and st["lag"]["observations"] == 0 and st["newest_snapshot"]["seq"]:
                return st
            if time.time() > deadline:
                raise TimeoutError("the builder did not catch up in %d s" % timeout)
            time.sleep(0.1)

    def ask(self, question, **opts):
        return self.call("POST", "/v1/ask", dict(question=question, **opts))


def made_up_history(days=3):
    """Mornings of tidying up: the keys go to the shelf, the table, the drawer."""
    places = ["shelf_0", "table_0", "drawer_0"]
    for d in range(days):
        day = "2024-10-%02dT" % (1 + d)
        where = places[d % len(places)]
        yield {"t": day + "08:00:00Z", "location": "hallway",
               "objects": [{"id": "keys_0", "type": "keys"}],
               "relations": [{"from": "keys_0", "to": "floor_0", "type": "on"}]}
        yield {"t": day + "08:00:05Z", "action": {"name": "Pickup", "args": {"object": "keys_0"},
                                                 "status": "succeeded"},
               "goal": ["Tidy", "Transport"], "objects": [{"id": "keys_0", "type": "keys"}],
               "relations": [{"from": "keys_0", "to": "robot_hand", "type": "in"}]}
        yield {"t": day + "08:00:20Z", "action": {"name": "Place",
                                                 "args": {"object": "keys_0", "target": where},
                                                 "status": "succeeded"},
               "goal": ["Tidy", "Transport"], "objects": [{"id": "keys_0", "type": "keys"}],
               "relations": [{"from": "keys_0", "to": where, "type": "in"}]}
        yield {"t": day + "08:01:00Z", "speech": {"speaker": "robot",
                                                 "text": "The keys are on the %s." % where[:-2]}}


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--url", default="http://127.0.0.1:7878", help="where h2emv serve listens")
    ap.add_argument("--token-file", help="the server's bearer token (its --token-file)")
    ap.add_argument("--file", help="observations to stream (JSON Lines); default: made up")
    ap.add_argument("--batch", type=int, default=5, help="observations per request")
    ap.add_argument("--ask", action="append", help="a question (repeatable)")
    ap.add_argument("--id-prefix", help="ids given to observations without one are "
                    "PREFIX-LINE (default: the file's name)")
    args = ap.parse_args()

    token = None
    if args.token_file:
        with open(args.token_file, encoding="utf-8") as f:
            token = f.readline().strip()
    mem = Memory(args.url, token)

    obs = list(read_jsonl(args.file)) if args.file else list(made_up_history())
    # An id per observation makes resends harmless (see Memory.send); one
    # made from the file and the line also makes running this twice on the
    # same file store it once.
    prefix = args.id_prefix or (args.file.rsplit("/", 1)[-1] if args.file else "demo")
    for n, o in enumerate(obs, 1):
        o.setdefault("id", "%s-%d" % (prefix, n))
    stored, refused, dups, first, last, batches = 0, 0, 0, None, None, 0
    for i in range(0, len(obs), args.batch):
        status, ack = mem.send(obs[i:i + args.batch])
        batches += 1
        if status not in (200, 422):  # 422: some lines refused, the rest stored
            print("batch %d: %d %s" % (batches, status, ack["error"]["message"]), file=sys.stderr)
            return 1
        for e in ack.get("errors", []):
            print("refused: line %d of batch %d: %s" % (e["line"], batches, e["message"]))
        stored += ack["stored"]
        refused += ack["refused"]
        dups += ack.get("duplicates", 0)
        if ack["stored"]:
            first = first or ack["first_seq"]
            last = ack["last_seq"]
    seqs = "seqs %d..%d" % (first, last) if stored else "nothing new"
    print("streamed %d observations in %d batches (%s), %d refused, %d already stored"
          % (stored, batches, seqs, refused, dups))

    st = mem.wait_built()
    print("built: snapshot %d, %d nodes, %d observations waiting"
          % (st["newest_snapshot"]["seq"], st["newest_snapshot"]["nodes"],
             st["lag"]["observations"]))

    for q in args.ask or ["Where did you put the keys?", "When did you last pick up the keys?"]:
        status, a = mem.ask(q)
        if status != 200:
            print("Q: %s\nerror %d: %s" % (q, status, a["error"]["message"]))
            return 1
        print("Q: %s\nA: %s" % (q, a["answer"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
