#!/usr/bin/env python3
"""The offline map at a region's size, for `make bench` (issue 39): a synthetic city
(scripts/synthetic-city.py, 3.1 million places by default) written once and kept under
.build/bench-city/, imported by the release `waypointd map import` whenever that program
changed (its time and peak memory, the index's bytes a place), then searched through the
socket of `waypointd --simulate` with the city's own queries, each asked a few hundred metres
from its place: latency (median, p95) and correctness against the generator's truths, per kind.

    scripts/bench/city.py RELEASE_BIN_DIR [--places N]

A kind's queries stop after --budget seconds (default 60): a search that takes seconds is
reported with how many of its queries were asked, not waited for for an hour.

The import builds Routino's walking database too when Routino is installed (issue 41): its time
and memory are in the import's, its size on a row of its own.

Aims (issue 39): import <= 180 s and <= 128 MB peak; <= 120 bytes a place; search p95 <= 20 ms
for each kind (where <= 10 ms); the nearest instance of a repeated name in the first 3 and an
address first for >= 95 % and >= 99 % of their queries, a category's first result within 5 m of
the nearest of its kind for >= 95 %; the daemon's RSS with the index open <= 4 MB more than
without.
"""

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

# The socket client and the figures' helpers are places.py's, beside this file.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from places import Client, percentile, rss_kb, start_daemon  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EARTH_M = 6371000.0
AIMS = {"category": 20.0, "name": 20.0, "address": 20.0, "where": 10.0}


def distance_m(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * EARTH_M * math.asin(min(1.0, math.sqrt(h)))


def city(places, cache):
    """The city's PBF and queries, written once."""
    os.makedirs(cache, exist_ok=True)
    pbf, queries = os.path.join(cache, "city.osm.pbf"), os.path.join(cache, "queries.json")
    if not (os.path.exists(pbf) and os.path.exists(queries)):
        started = time.monotonic()
        # Written beside its place, then renamed: an interrupted run leaves no half city.
        partial = os.path.join(cache, "partial.osm.pbf")
        subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "scripts", "synthetic-city.py"), "--places", str(places),
                        "--out", partial, "--queries", queries + ".new"], check=True)
        os.replace(partial, pbf)
        os.replace(queries + ".new", queries)
        print(f"# city: {places} places written in {time.monotonic() - started:.0f} s to {cache}", flush=True)
    with open(queries) as file:
        return pbf, json.load(file)


def tree_rss_kb(root):
    """The resident memory of `root` and every process under it, and the anonymous part of it
    (kB): osmium's node index is a file it maps, whose pages the kernel can take back."""
    total = anon = 0
    pids, seen = [root], set()
    while pids:
        pid = pids.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            with open(f"/proc/{pid}/status") as file:
                for line in file:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
                    elif line.startswith("RssAnon:"):
                        anon += int(line.split()[1])
            with open(f"/proc/{pid}/task/{pid}/children") as file:
                pids += [int(child) for child in file.read().split()]
        except (FileNotFoundError, ProcessLookupError, ValueError):
            continue
    return total, anon


def directory_bytes(path):
    """The bytes of the files in a directory (Routino's database), or None when there is none."""
    if not os.path.isdir(path):
        return None
    return sum(os.path.getsize(os.path.join(path, name)) for name in os.listdir(path))


def sample_tree(process, peak):
    """Keeps the highest sums of tree_rss_kb while `process` runs, every 20 ms."""
    while process.poll() is None:
        total, anon = tree_rss_kb(process.pid)
        peak["rss"] = max(peak["rss"], total)
        peak["anon"] = max(peak["anon"], anon)
        time.sleep(0.02)


def imported(waypointd, pbf, cache):
    """The index and its import's figures, again whenever waypointd changed."""
    stamp = os.stat(waypointd)
    key = f"{stamp.st_size}-{int(stamp.st_mtime)}"
    state = os.path.join(cache, "state")
    figures_path = os.path.join(cache, "import.json")
    if os.path.exists(figures_path):
        with open(figures_path) as file:
            figures = json.load(file)
        if figures.get("waypointd") == key and os.path.exists(os.path.join(state, "places.sqlite")):
            return state, figures
    shutil.rmtree(state, ignore_errors=True)
    os.makedirs(state)
    started = time.monotonic()
    process = subprocess.Popen([waypointd, "map", "import", pbf, "--state-dir", state], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    peak = {"rss": 0, "anon": 0}
    sampler = threading.Thread(target=sample_tree, args=(process, peak), daemon=True)
    sampler.start()
    stdout, stderr = process.communicate()
    seconds = time.monotonic() - started
    sampler.join()
    if process.returncode != 0:
        sys.exit(f"city.py: the import failed: {stderr.strip()[-500:]}")
    figures = {"waypointd": key, "seconds": seconds, "peak_kb": peak["rss"], "peak_anon_kb": peak["anon"],
               "bytes": os.path.getsize(os.path.join(state, "places.sqlite")), "summary": stdout,
               "routes_bytes": directory_bytes(os.path.join(state, "routes"))}
    with open(figures_path, "w") as file:
        json.dump(figures, file)
    return state, figures


def judge(query, reply):
    """Whether a reply holds the query's true answer where it must."""
    truth = query["truth"]
    if query["kind"] == "where":
        return reply.get("street") == truth["street"] and reply.get("housenumber") == truth["housenumber"]
    results = reply.get("results") or []
    if query["kind"] == "category":
        if not results:
            return False
        return distance_m(query["lat"], query["lon"], results[0]["lat"], results[0]["lon"]) <= truth["meters"] + 5
    window = results[:3] if query["kind"] == "name" else results[:1]
    return any(distance_m(r["lat"], r["lon"], truth["lat"], truth["lon"]) <= 1.0 for r in window)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binaries", help="the release build's directory")
    parser.add_argument("--places", type=int, default=int(os.environ.get("WAYPOINT_BENCH_CITY_PLACES", "3100000")))
    parser.add_argument("--budget", type=float, default=60.0, help="seconds of queries for each kind at the most")
    args = parser.parse_args()
    waypointd = os.path.join(args.binaries, "waypointd")
    cache = os.path.join(ROOT, ".build", "bench-city", str(args.places))
    pbf, data = city(args.places, cache)
    state, figures = imported(waypointd, pbf, cache)
    places = data["city"]["places"]
    rows = [
        ("city.places", places, f"({data['city']['buildings']} addressed buildings, a {data['city']['side_m'] / 1000:.1f} km square)"),
        ("city.import.seconds", f"{figures['seconds']:.0f}", f"s (aim <= 180: {'ok' if figures['seconds'] <= 180 else 'OVER AIM'})"),
        ("city.import.peak_rss", figures["peak_kb"],
         f"kB, waypointd and its child programs together ({figures['peak_anon_kb']} kB of it anonymous; aim <= 131072: "
         f"{'ok' if figures['peak_kb'] <= 131072 else 'OVER AIM'})"),
        ("city.index.bytes_per_place", f"{figures['bytes'] / places:.0f}",
         f"bytes ({figures['bytes'] // 1048576} MiB; aim <= 120: {'ok' if figures['bytes'] / places <= 120 else 'OVER AIM'})"),
    ]
    if figures.get("routes_bytes") is not None:
        rows.append(("city.routes.bytes", figures["routes_bytes"] // 1048576,
                     "MiB (Routino's walking database, built within the import's time and peak above)"))
    else:
        rows.append(("city.routes.bytes", "none", "(Routino is not installed: the import's figures are the index's alone)"))
    with tempfile.TemporaryDirectory(prefix="run-", dir=cache) as run_state:
        # The daemon's own state beside a link to the cached index, which it only reads.
        os.link(os.path.join(state, "places.sqlite"), os.path.join(run_state, "places.sqlite"))
        daemon, sock = start_daemon(waypointd, run_state)
        try:
            if sock is None:
                sys.exit(f"city.py: the daemon did not start: {open(os.path.join(run_state, 'daemon.log')).read()[-500:]}")
            client = Client(sock)
            client.ask({"cmd": "status"})
            time.sleep(1)
            before = rss_kb(daemon.pid)
            for kind in ("category", "name", "address", "where"):
                asked = [q for q in data["queries"] if q["kind"] == kind]
                times, right = [], 0
                deadline = time.monotonic() + args.budget
                for query in asked:
                    if time.monotonic() > deadline:
                        break
                    request = ({"cmd": "where", "lat": query["lat"], "lon": query["lon"]} if kind == "where" else
                               {"cmd": "search", "query": query["query"], "lat": query["lat"], "lon": query["lon"], "limit": 10})
                    started = time.perf_counter()
                    reply = client.ask(request)
                    times.append((time.perf_counter() - started) * 1000)
                    right += judge(query, reply)
                if not times:
                    continue
                p95 = percentile(times, 0.95)
                share = 100.0 * right / len(times)
                need = 99 if kind == "address" else 95
                rows.append((f"city.{kind}.latency", f"median {percentile(times, 0.5):.1f} ms, p95 {p95:.1f} ms",
                             f"({len(times)} of {len(asked)} asked; aim p95 <= {AIMS[kind]:.0f}: {'ok' if p95 <= AIMS[kind] else 'OVER AIM'})"))
                what = {"category": "first within 5 m of the nearest of its kind", "name": "nearest instance in the first 3",
                        "address": "found first", "where": "the nearest address"}[kind]
                rows.append((f"city.{kind}.right", f"{share:.1f}",
                             f"% {what} (aim >= {need}: {'ok' if share >= need else 'UNDER AIM'})"))
            growth = rss_kb(daemon.pid) - before
            rows.append(("city.daemon.rss_growth", growth, f"kB (aim <= 4096: {'ok' if growth <= 4096 else 'OVER AIM'})"))
        finally:
            daemon.terminate()
            daemon.wait(timeout=10)
    for row in rows:
        print(" ".join(str(part) for part in row))


if __name__ == "__main__":
    main()
