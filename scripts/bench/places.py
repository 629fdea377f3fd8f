#!/usr/bin/env python3
"""The offline map's figures for `make bench` (issue 27): for each OSM extract in the tree,
`waypointd map import` time and peak memory, the index's size against the extract's; then the
release `waypointd --simulate` with that index in its state directory, and `search` and
`where` latency through its socket (median and p99 over names and points taken from the
extract: every uniquely named place searched for near itself, a where at each), and the
daemon's RSS before the first query and after the index is open.

    scripts/bench/places.py RELEASE_BIN_DIR

Aims (issue 27): search and where median <= 10 ms, p99 <= 50 ms; the daemon's RSS with the index
open <= 4 MB more than without.

With Routino, walks too (issue 41): the routes' size, and `route plan` latency through the socket
between pairs of those places 300 m to 3 km apart (aim p95 <= 200 ms), with the daemon's RSS and
open descriptors before and after the plans.
"""

import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "Tests", "PlaceIndexTests", "Data")
AIM_MEDIAN_MS = 10
AIM_P99_MS = 50
AIM_RSS_GROWTH_KB = 4 * 1024
QUERIES = 300
AIM_PLAN_P95_MS = 200
PLANS = 200


def rss_kb(pid, field="VmRSS"):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Client:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.file = self.sock.makefile("rb")
        self.file.readline()  # VERSION

    def ask(self, request):
        self.sock.sendall((json.dumps(request) + "\n").encode())
        return json.loads(self.file.readline())


def start_daemon(waypointd, state):
    """`waypointd --simulate` on STATE/control.sock, logging to STATE/daemon.log: the process and
    its socket's path once the socket is there, or the process and None when it never came."""
    sock = os.path.join(state, "control.sock")
    log = open(os.path.join(state, "daemon.log"), "w")
    daemon = subprocess.Popen([waypointd, "--simulate", "--state-dir", state, "--socket", sock], stdout=log, stderr=log)
    for _ in range(200):
        if os.path.exists(sock) or daemon.poll() is not None:
            break
        time.sleep(0.05)
    return daemon, sock if os.path.exists(sock) else None


def queries(extract):
    """Names that occur once, each with a point of it; pyosmium when present, else none."""
    oracle = subprocess.run(["/usr/bin/python3", os.path.join(DATA, "oracle.py"), extract], capture_output=True, text=True)
    if oracle.returncode != 0:
        return []
    places = json.loads(oracle.stdout)["places"]
    counts = {}
    for place in places:
        counts[place["name"]] = counts.get(place["name"], 0) + 1
    unique = [p for p in places if counts[p["name"]] == 1]
    step = max(1, len(unique) // QUERIES)
    return unique[::step][:QUERIES]


def haversine_m(a, b):
    import math
    la1, lo1, la2, lo2 = map(math.radians, (a["lat"], a["lon"], b["lat"], b["lon"]))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * 6371008.8 * math.asin(math.sqrt(h))


def walk_rows(name, state, client, pid, places):
    """`route plan` through the socket between pairs of places 300 m to 3 km apart."""
    routes = os.path.join(state, "routes")
    if not os.path.isdir(routes):
        return [(f"walk.{name}.skipped", 0, "(no routes: needs routino)")]
    size = sum(os.path.getsize(os.path.join(routes, f)) for f in os.listdir(routes))
    rows = [(f"walk.routes.{name}.size", size // 1024, "kB")]
    pairs = [(a, b) for a in places[::7] for b in places[::11] if 300 <= haversine_m(a, b) <= 3000][:PLANS]
    fds_before, rss_before = len(os.listdir(f"/proc/{pid}/fd")), rss_kb(pid)
    times, failed = [], 0
    for a, b in pairs:
        started = time.perf_counter()
        reply = client.ask({"cmd": "route", "action": "plan", "from": {"lat": a["lat"], "lon": a["lon"]},
                            "lat": b["lat"], "lon": b["lon"]})
        elapsed = (time.perf_counter() - started) * 1000
        if reply.get("class") == "PLAN":
            times.append(elapsed)
        else:
            failed += 1
    if times:
        median, p95 = percentile(times, 0.5), percentile(times, 0.95)
        verdict = "ok" if p95 <= AIM_PLAN_P95_MS else "OVER AIM"
        rows.append((f"walk.plan.{name}.latency", f"median {median:.1f} ms, p95 {p95:.1f} ms",
                     f"({len(times)} plans through the socket, {failed} without a route; aim p95 <= {AIM_PLAN_P95_MS} ms: {verdict})"))
    rows.append((f"walk.plan.{name}.daemon", f"rss {rss_before} -> {rss_kb(pid)} kB",
                 f"descriptors {fds_before} -> {len(os.listdir(f'/proc/{pid}/fd'))}"))
    return rows


def main():
    binaries = sys.argv[1]
    waypointd = os.path.join(binaries, "waypointd")
    rows = []
    for name in ("monaco", "andorra"):
        extract = os.path.join(DATA, f"{name}.osm.pbf")
        with tempfile.TemporaryDirectory(prefix="places-bench-") as state:
            started = time.monotonic()
            imported = subprocess.run(["/usr/bin/time", "-f", "%M", waypointd, "map", "import", extract, "--state-dir", state],
                                      capture_output=True, text=True)
            seconds = time.monotonic() - started
            if imported.returncode != 0:
                print(f"# places: import of {name} failed: {imported.stderr.strip()}")
                continue
            peak_kb = int(imported.stderr.strip().splitlines()[-1])
            index_bytes = os.path.getsize(os.path.join(state, "places.sqlite"))
            rows.append((f"places.import.{name}.seconds", f"{seconds:.2f}", "s"))
            rows.append((f"places.import.{name}.peak_rss", peak_kb, "kB"))
            rows.append((f"places.index.{name}.size", index_bytes // 1024, f"kB (extract {os.path.getsize(extract) // 1024} kB)"))

            daemon, sock = start_daemon(waypointd, state)
            try:
                if sock is None:
                    print(f"# places: the daemon did not start: {open(os.path.join(state, 'daemon.log')).read()[-500:]}")
                    continue
                client = Client(sock)
                client.ask({"cmd": "status"})
                time.sleep(1)
                before = rss_kb(daemon.pid)
                searches, wheres = [], []
                for place in queries(extract):
                    started = time.perf_counter()
                    client.ask({"cmd": "search", "query": place["name"][:190], "lat": place["lat"], "lon": place["lon"]})
                    searches.append((time.perf_counter() - started) * 1000)
                    started = time.perf_counter()
                    client.ask({"cmd": "where", "lat": place["lat"], "lon": place["lon"]})
                    wheres.append((time.perf_counter() - started) * 1000)
                after = rss_kb(daemon.pid)
                for label, values in (("search", searches), ("where", wheres)):
                    if values:
                        median, p99 = percentile(values, 0.5), percentile(values, 0.99)
                        verdict = "ok" if median <= AIM_MEDIAN_MS and p99 <= AIM_P99_MS else "OVER AIM"
                        rows.append((f"places.{label}.{name}.latency", f"median {median:.2f} ms, p99 {p99:.2f} ms",
                                     f"({len(values)} through the socket; aim {AIM_MEDIAN_MS}/{AIM_P99_MS} ms: {verdict})"))
                growth = after - before
                rows.append((f"places.daemon.{name}.rss_growth", growth,
                             f"kB ({before} -> {after}; aim <= {AIM_RSS_GROWTH_KB}: {'ok' if growth <= AIM_RSS_GROWTH_KB else 'OVER AIM'})"))
                rows += walk_rows(name, state, client, daemon.pid, queries(extract))
            finally:
                daemon.terminate()
                daemon.wait(timeout=10)
    for row in rows:
        print(" ".join(str(part) for part in row))


if __name__ == "__main__":
    main()
