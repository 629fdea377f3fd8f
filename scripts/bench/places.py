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
            finally:
                daemon.terminate()
                daemon.wait(timeout=10)
    for row in rows:
        print(" ".join(str(part) for part in row))


if __name__ == "__main__":
    main()
