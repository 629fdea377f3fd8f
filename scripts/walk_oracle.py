#!/usr/bin/env python3
"""Independent walking-distance oracle for the walk router's tests.

This script reads an OpenStreetMap extract (.osm.pbf) with pyosmium and answers two
questions about walking on it, without using Routino or any of the project's own code,
so that tests can hold the project's walking router to an independent reference:

``pairs``
    Builds an undirected graph of the walkable ways (OSM nodes joined by consecutive way
    nodes, weighted by haversine length; oneway is ignored, since a walker may go both
    ways), snaps addresses (``addr:housenumber`` on nodes and on closed ways) to their
    nearest graph node, draws random address pairs a given straight distance apart and
    runs a Dijkstra between them. Prints the connected pairs as JSON with the oracle's
    walking distance ``oracle_m = snap_from_m + path_m + snap_to_m``.

``near``
    For polylines given in a JSON file (for instance the router's walk shapes), samples
    a point every ``--step`` metres and measures how far each point lies from the nearest
    segment of a walkable way. Prints how many points lie within ``--threshold`` metres.

Only the Python standard library and pyosmium (Debian: ``python3-pyosmium``) are used.
A missing or unreadable input file is reported on stderr with exit status 2.

Examples::

    python3 scripts/walk_oracle.py pairs monaco.osm.pbf --count 40 --seed 7 --min 300 --max 3000
    python3 scripts/walk_oracle.py near monaco.osm.pbf shapes.json --step 5 --threshold 8
"""

import argparse
import heapq
import json
import math
import os
import random
import sys

EARTH_RADIUS_M = 6371008.8
DEG = math.pi / 180.0

WALKABLE_HIGHWAYS = frozenset((
    "footway", "pedestrian", "path", "steps", "living_street", "residential", "service",
    "unclassified", "tertiary", "tertiary_link", "secondary", "secondary_link", "primary",
    "primary_link", "trunk", "trunk_link", "track", "cycleway", "road", "corridor", "bridleway",
))
FORBIDDING = frozenset(("no", "private"))
FOOT_ALLOWED = frozenset(("yes", "designated", "permissive"))
AREA_HIGHWAYS = frozenset(("pedestrian", "footway"))

SNAP_CELL_M = 100.0
SNAP_MAX_M = 200.0
NEAR_CELL_M = 50.0
NEAR_MAX_M = 100.0


def fail(message):
    print("walk_oracle.py: " + message, file=sys.stderr)
    sys.exit(2)


def import_osmium():
    """Imports pyosmium; if this interpreter lacks it (say a pyenv Python), retries once
    under the system /usr/bin/python3, where Debian's python3-pyosmium lives."""
    try:
        import osmium
        return osmium
    except ImportError:
        system = "/usr/bin/python3"
        if (os.environ.get("WALK_ORACLE_REEXEC") != "1" and os.path.exists(system)
                and os.path.realpath(sys.executable) != os.path.realpath(system)):
            os.environ["WALK_ORACLE_REEXEC"] = "1"
            sys.stdout.flush()
            sys.stderr.flush()
            os.execv(system, [system] + sys.argv)
        fail("cannot import osmium (install python3-pyosmium)")


def haversine(lat1, lon1, lat2, lon2):
    """Great-circle distance in metres on a sphere of the mean Earth radius."""
    p1 = lat1 * DEG
    p2 = lat2 * DEG
    dp = p2 - p1
    dl = (lon2 - lon1) * DEG
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_M * math.asin(min(1.0, math.sqrt(h)))


def is_walkable(tags):
    highway = tags.get("highway")
    if highway not in WALKABLE_HIGHWAYS:
        return False
    foot = tags.get("foot")
    if foot in FORBIDDING:
        return False
    if tags.get("access") in FORBIDDING and foot not in FOOT_ALLOWED:
        return False
    if tags.get("area") == "yes" and highway not in AREA_HIGHWAYS:
        return False
    return True


def read_extract(path, want_graph, want_addresses, want_segments):
    """One pass over the extract. Returns (coords, adjacency, addresses, segments):
    coords {node id: (lat, lon)} and adjacency {node id: [(neighbour, metres), ...]} of the
    walkable graph, addresses [(lat, lon), ...] without duplicates, segments
    [(lat1, lon1, lat2, lon2), ...] of the walkable ways."""
    osmium = import_osmium()

    coords = {}
    adjacency = {}
    addresses = []
    seen_addresses = set()
    segments = []

    def add_address(lat, lon):
        key = (round(lat, 7), round(lon, 7))
        if key not in seen_addresses:
            seen_addresses.add(key)
            addresses.append((lat, lon))

    class Handler(osmium.SimpleHandler):
        def way(self, w):
            tags = w.tags
            if want_addresses and "addr:housenumber" in tags and w.is_closed():
                points = [(n.location.lat, n.location.lon) for n in w.nodes if n.location.valid()]
                if len(points) > 1 and points[0] == points[-1]:
                    points.pop()
                if points:
                    add_address(sum(p[0] for p in points) / len(points),
                                sum(p[1] for p in points) / len(points))
            if not (want_graph or want_segments) or not is_walkable(tags):
                return
            previous = None
            for n in w.nodes:
                loc = n.location
                if not loc.valid():
                    previous = None
                    continue
                current = (n.ref, loc.lat, loc.lon)
                if previous is not None and previous[0] != current[0]:
                    if want_graph:
                        a, alat, alon = previous
                        b, blat, blon = current
                        metres = haversine(alat, alon, blat, blon)
                        coords[a] = (alat, alon)
                        coords[b] = (blat, blon)
                        adjacency.setdefault(a, []).append((b, metres))
                        adjacency.setdefault(b, []).append((a, metres))
                    if want_segments:
                        segments.append((previous[1], previous[2], current[1], current[2]))
                previous = current

        if want_addresses:
            def node(self, n):
                if "addr:housenumber" in n.tags and n.location.valid():
                    add_address(n.location.lat, n.location.lon)

    try:
        Handler().apply_file(path, locations=True, idx="flex_mem")
    except Exception as error:  # pyosmium reports unreadable input as RuntimeError
        fail("cannot read %s: %s" % (path, error))
    return coords, adjacency, addresses, segments


class Plane:
    """A local equirectangular projection (metres) around a reference latitude."""

    def __init__(self, lat0):
        self.kx = EARTH_RADIUS_M * DEG * math.cos(lat0 * DEG)
        self.ky = EARTH_RADIUS_M * DEG

    def xy(self, lat, lon):
        return lon * self.kx, lat * self.ky


# ---------------------------------------------------------------------------- pairs

class NodeGrid:
    """Graph nodes bucketed in square cells of a local plane, for nearest-node queries."""

    def __init__(self, coords, plane, cell):
        self.plane = plane
        self.cell = cell
        self.buckets = {}
        for node, (lat, lon) in coords.items():
            x, y = plane.xy(lat, lon)
            key = (int(math.floor(x / cell)), int(math.floor(y / cell)))
            self.buckets.setdefault(key, []).append((x, y, node))

    def nearest(self, lat, lon, limit):
        """The nearest node within about `limit` metres (planar search), or None."""
        x, y = self.plane.xy(lat, lon)
        cx, cy = int(math.floor(x / self.cell)), int(math.floor(y / self.cell))
        best, best_d2 = None, float("inf")
        rings = int(math.ceil(limit / self.cell)) + 1
        for r in range(rings + 1):
            for i in range(cx - r, cx + r + 1):
                for j in range(cy - r, cy + r + 1):
                    if max(abs(i - cx), abs(j - cy)) != r:
                        continue
                    for nx, ny, node in self.buckets.get((i, j), ()):
                        d2 = (nx - x) ** 2 + (ny - y) ** 2
                        if d2 < best_d2:
                            best, best_d2 = node, d2
            # Every node closer than r cells has been seen once ring r is done.
            if best is not None and math.sqrt(best_d2) <= r * self.cell:
                break
        return best


def components(adjacency):
    label = {}
    for start in adjacency:
        if start in label:
            continue
        label[start] = start
        stack = [start]
        while stack:
            u = stack.pop()
            for v, _ in adjacency[u]:
                if v not in label:
                    label[v] = start
                    stack.append(v)
    return label


def dijkstra(adjacency, source, target):
    """Shortest path length in metres from source to target, or None if unreachable."""
    dist = {source: 0.0}
    done = set()
    heap = [(0.0, source)]
    while heap:
        d, u = heapq.heappop(heap)
        if u in done:
            continue
        if u == target:
            return d
        done.add(u)
        for v, w in adjacency[u]:
            nd = d + w
            if nd < dist.get(v, float("inf")):
                dist[v] = nd
                heapq.heappush(heap, (nd, v))
    return None


def run_pairs(args):
    coords, adjacency, addresses, _ = read_extract(
        args.extract, True, args.endpoints == "addresses", False)
    result = {"extract": args.extract, "pairs": []}
    if not coords:
        json.dump(result, sys.stdout)
        sys.stdout.write("\n")
        return

    if args.endpoints == "nodes":
        # Opt-in for extracts with too few addresses: graph nodes themselves, snapped at 0 m.
        endpoints = [(lat, lon, node, 0.0) for node, (lat, lon) in coords.items()]
    else:
        lat0 = sum(lat for lat, _ in coords.values()) / len(coords)
        grid = NodeGrid(coords, Plane(lat0), SNAP_CELL_M)
        endpoints = []
        for lat, lon in addresses:
            node = grid.nearest(lat, lon, SNAP_MAX_M)
            if node is None:
                continue
            nlat, nlon = coords[node]
            snap = haversine(lat, lon, nlat, nlon)
            if snap <= SNAP_MAX_M:
                endpoints.append((lat, lon, node, snap))

    label = components(adjacency)
    rng = random.Random(args.seed)
    kept = set()
    attempts = 0
    draws = 0
    max_attempts = 20 * args.count
    max_draws = 1000 * max(args.count, 1)  # ends the search when few pairs fit the range
    pairs = result["pairs"]
    while (len(endpoints) >= 2 and len(pairs) < args.count and attempts < max_attempts
           and draws < max_draws):
        draws += 1
        i = rng.randrange(len(endpoints))
        j = rng.randrange(len(endpoints))
        if i == j:
            continue
        a, b = endpoints[i], endpoints[j]
        straight = haversine(a[0], a[1], b[0], b[1])
        if not (args.min <= straight <= args.max):
            continue
        attempts += 1
        key = (min(i, j), max(i, j))
        if key in kept or a[2] == b[2] or label[a[2]] != label[b[2]]:
            continue
        path = dijkstra(adjacency, a[2], b[2])
        if path is None:
            continue
        kept.add(key)
        pairs.append({
            "from": [round(a[0], 7), round(a[1], 7)],
            "to": [round(b[0], 7), round(b[1], 7)],
            "oracle_m": round(a[3] + path + b[3], 1),
            "path_m": round(path, 1),
            "snap_from_m": round(a[3], 1),
            "snap_to_m": round(b[3], 1),
        })
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")


# ---------------------------------------------------------------------------- near

def point_segment_m(lat, lon, seg):
    """Distance in metres from a point to a segment, in an equirectangular plane centred
    on the point."""
    kx = EARTH_RADIUS_M * DEG * math.cos(lat * DEG)
    ky = EARTH_RADIUS_M * DEG
    ax, ay = (seg[1] - lon) * kx, (seg[0] - lat) * ky
    bx, by = (seg[3] - lon) * kx, (seg[2] - lat) * ky
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, -(ax * dx + ay * dy) / length2))
    px, py = ax + t * dx, ay + t * dy
    return math.sqrt(px * px + py * py)


class SegmentGrid:
    """Segments registered in every cell that their bounding box touches."""

    def __init__(self, segments, plane, cell):
        self.plane = plane
        self.cell = cell
        self.buckets = {}
        for index, seg in enumerate(segments):
            x1, y1 = plane.xy(seg[0], seg[1])
            x2, y2 = plane.xy(seg[2], seg[3])
            for i in range(int(math.floor(min(x1, x2) / cell)), int(math.floor(max(x1, x2) / cell)) + 1):
                for j in range(int(math.floor(min(y1, y2) / cell)), int(math.floor(max(y1, y2) / cell)) + 1):
                    self.buckets.setdefault((i, j), []).append(index)
        self.segments = segments

    def distance(self, lat, lon, limit):
        """Distance to the nearest segment, or `limit` if none lies within it."""
        x, y = self.plane.xy(lat, lon)
        cx, cy = int(math.floor(x / self.cell)), int(math.floor(y / self.cell))
        best = float("inf")
        seen = set()
        rings = int(math.ceil(limit / self.cell))
        for r in range(rings + 1):
            for i in range(cx - r, cx + r + 1):
                for j in range(cy - r, cy + r + 1):
                    if max(abs(i - cx), abs(j - cy)) != r:
                        continue
                    for index in self.buckets.get((i, j), ()):
                        if index in seen:
                            continue
                        seen.add(index)
                        d = point_segment_m(lat, lon, self.segments[index])
                        if d < best:
                            best = d
            if best <= r * self.cell:
                break
        return min(best, limit)


def sample(shape, step):
    """Points every `step` metres along a polyline, its first and last point included."""
    points = [(float(p[0]), float(p[1])) for p in shape]
    if not points:
        return []
    out = [points[0]]
    next_at = step  # distance along the line of the next sample
    travelled = 0.0
    for (lat1, lon1), (lat2, lon2) in zip(points, points[1:]):
        length = haversine(lat1, lon1, lat2, lon2)
        while length > 0 and next_at <= travelled + length:
            f = (next_at - travelled) / length
            out.append((lat1 + f * (lat2 - lat1), lon1 + f * (lon2 - lon1)))
            next_at += step
        travelled += length
    last = points[-1]
    if len(points) > 1 and haversine(out[-1][0], out[-1][1], last[0], last[1]) > 1e-6:
        out.append(last)
    return out


def run_near(args):
    if args.step <= 0:
        fail("--step must be positive")
    try:
        with open(args.shapes, encoding="utf-8") as f:
            shapes = json.load(f)["shapes"]
    except OSError as error:
        fail("cannot read %s: %s" % (args.shapes, error))
    except (ValueError, KeyError, TypeError) as error:
        fail("%s is not {\"shapes\": [[[lat, lon], ...], ...]}: %s" % (args.shapes, error))

    _, _, _, segments = read_extract(args.extract, False, False, True)
    points = [p for shape in shapes for p in sample(shape, args.step)]
    if segments:
        lat0 = sum(s[0] for s in segments) / len(segments)
        grid = SegmentGrid(segments, Plane(lat0), NEAR_CELL_M)
        distances = [grid.distance(lat, lon, NEAR_MAX_M) for lat, lon in points]
    else:
        distances = [NEAR_MAX_M for _ in points]
    within = sum(1 for d in distances if d <= args.threshold)
    result = {
        "points": len(points),
        "within": within,
        "threshold_m": args.threshold,
        "worst_m": round(max(distances), 1) if distances else 0.0,
        "fraction": (within / len(points)) if points else 0.0,
    }
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")


# ---------------------------------------------------------------------------- main

def main():
    parser = argparse.ArgumentParser(
        description="Independent walking oracle (pyosmium + Dijkstra) for the walk router's tests.")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("pairs", help="random connected address pairs with their shortest walk",
                       description="Draw address pairs a straight distance apart and print the "
                                   "shortest walk between them on the walkable ways, as JSON.")
    p.add_argument("extract", help="OSM extract (.osm.pbf)")
    p.add_argument("--count", type=int, default=40, help="pairs to keep (default 40)")
    p.add_argument("--seed", type=int, default=7, help="random seed (default 7)")
    p.add_argument("--min", type=float, default=300.0, help="least straight distance, m (default 300)")
    p.add_argument("--max", type=float, default=3000.0, help="greatest straight distance, m (default 3000)")
    p.add_argument("--endpoints", choices=("addresses", "nodes"), default="addresses",
                   help="draw addresses (default) or, for extracts with few addresses, "
                        "the walkable graph's own nodes")

    n = sub.add_parser("near", help="how much of some polylines lies on walkable ways",
                       description="Sample polylines every --step metres and measure each "
                                   "point's distance to the nearest walkable way segment.")
    n.add_argument("extract", help="OSM extract (.osm.pbf)")
    n.add_argument("shapes", help='JSON file {"shapes": [[[lat, lon], ...], ...]}')
    n.add_argument("--step", type=float, default=5.0, help="sampling step, m (default 5)")
    n.add_argument("--threshold", type=float, default=8.0, help="distance counted as on a way, m (default 8)")

    args = parser.parse_args()
    if not os.path.isfile(args.extract):
        fail("no such file: %s" % args.extract)
    if args.command == "pairs":
        if args.count < 0:
            fail("--count must not be negative")
        run_pairs(args)
    else:
        if not os.path.isfile(args.shapes):
            fail("no such file: %s" % args.shapes)
        run_near(args)


if __name__ == "__main__":
    main()
