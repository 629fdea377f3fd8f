#!/usr/bin/python3
"""Writes a synthetic city as an OpenStreetMap PBF file, and the queries it can answer with
their true answers, for the place index's tests and `make bench` (issue 39).

    scripts/synthetic-city.py --places 3100000 --out city.osm.pbf --queries city-queries.json

The city is a square grid of named streets every 80 m (ways through shared intersection
nodes), an addressed building every 20 m on each side of each street (a node with
`addr:street` and `addr:housenumber`, odd numbers on one side and even on the other), shops
and amenities along the streets whose names repeat as real names do (a few chains everywhere,
a long tail of names found once), some of them unnamed (ATMs, toilets, benches, bus stops),
and suburbs every 2 km. About 92 % of the places are buildings, as in the issue's city of
3.1 million (2.9 million addresses, 270 000 shops and amenities).

The queries (--queries-per-kind of each) are asked a few hundred metres from their place, as
a walker asks: a category (the truth is the nearest place of that kind), a name that exists
many times (the nearest instance), an address (that building), and a where (the nearest
address, within 40 m). The truths are worked out here by brute force over the city this
script wrote, with its own distances (haversine on a sphere of 6371 km: within 0.3 % of the
ellipsoid's, far less than the tolerances the tests allow), never by the code under test.

Deterministic: the same arguments write the same files. Needs Debian's python3-pyosmium.
"""

import argparse
import json
import math
import random
import sys

try:
    import osmium
except ImportError:  # pragma: no cover - said, not skipped
    sys.exit("synthetic-city.py: needs pyosmium (apt-get install python3-pyosmium)")

SPACING_M = 80.0          # between parallel streets
HOUSE_STEP_M = 20.0       # between buildings along a street
HOUSE_OFFSET_M = 12.0     # from a street's centre line to its buildings
SHOP_OFFSET_M = 8.0       # from a street's centre line to its shops
SUBURB_EVERY_M = 2000.0
BUILDING_SHARE = 0.92     # of all places
EARTH_M = 6371000.0

# The kinds of places, with their tags, their share of the shops and amenities, the category
# word that asks for them (as PlaceKind.queries has it, asking for that kind alone), and how
# often one has no name.
KINDS = [
    # (tags, share, query word, unnamed share)
    ({"amenity": "restaurant"}, 0.22, "restaurant", 0.0),
    ({"amenity": "cafe"}, 0.12, "cafe", 0.0),
    ({"shop": "bakery"}, 0.07, "bakery", 0.02),
    ({"amenity": "pharmacy"}, 0.04, "pharmacy", 0.0),
    ({"shop": "supermarket"}, 0.04, "supermarket", 0.0),
    ({"amenity": "atm"}, 0.05, "atm", 0.6),
    ({"amenity": "bank"}, 0.03, "bank", 0.0),
    ({"amenity": "bar"}, 0.06, None, 0.0),
    ({"amenity": "fast_food"}, 0.07, "fast food", 0.05),
    ({"tourism": "hotel"}, 0.03, "hotel", 0.0),
    ({"amenity": "toilets"}, 0.02, "toilets", 0.8),
    ({"amenity": "bench"}, 0.10, "bench", 1.0),
    ({"highway": "bus_stop"}, 0.08, None, 0.1),
    ({"amenity": "post_office"}, 0.01, "post office", 0.0),
    ({"shop": "clothes"}, 0.07, None, 0.0),
]

SYLLABLES = ["ba", "ro", "ma", "li", "ne", "ta", "vo", "ke", "su", "di", "lo", "ra", "mi", "te", "no", "ca",
             "pe", "si", "lu", "fa", "go", "ve", "ri", "da", "mo", "ze", "ni", "to", "be", "la", "do", "me"]
STREET_TYPES = ["Street", "Road", "Avenue", "Lane", "Way", "Boulevard"]
NAME_WORDS = {
    "restaurant": ["Bistro", "Trattoria", "Brasserie", "Kitchen", "Grill", "Table"],
    "cafe": ["Café", "Coffee", "Espresso Bar", "Tea Room"],
    "bakery": ["Boulangerie", "Bakery", "Bread House"],
    "pharmacy": ["Pharmacie", "Pharmacy", "Apotheke"],
    "supermarket": ["Market", "Supermarket", "Grocer"],
    "atm": ["ATM"],
    "bank": ["Bank", "Savings", "Credit"],
    "bar": ["Bar", "Pub", "Tavern"],
    "fast_food": ["Burger", "Kebab", "Pizza", "Noodles"],
    "hotel": ["Hotel", "Inn", "Residence"],
    "toilets": ["Toilets"],
    "bench": ["Bench"],
    "bus_stop": ["Stop"],
    "post_office": ["Post Office"],
    "clothes": ["Boutique", "Fashion", "Outfitters"],
}


def word(rng, syllables):
    return "".join(rng.choice(SYLLABLES) for _ in range(syllables)).capitalize()


class City:
    def __init__(self, places, seed, centre):
        self.rng = random.Random(seed)
        buildings = BUILDING_SHARE * places
        # Each street segment between two crossings has 2 × 4 buildings; a grid of n × n blocks
        # has 2·n·(n+1) segments.
        self.blocks = max(2, int(math.ceil(math.sqrt(buildings / 16.0))))
        self.shop_count = max(0, places - 16 * self.blocks * self.blocks)
        self.centre = centre
        half = self.blocks * SPACING_M / 2
        self.lat0 = centre[0] - math.degrees(half / EARTH_M)
        self.lon0 = centre[1] - math.degrees(half / (EARTH_M * math.cos(math.radians(centre[0]))))
        names = set()
        self.row_names, self.column_names = [], []
        for names_list in (self.row_names, self.column_names):
            while len(names_list) < self.blocks + 1:
                name = "%s %s" % (word(self.rng, 3), self.rng.choice(STREET_TYPES))
                if name not in names:
                    names.add(name)
                    names_list.append(name)

    def point(self, x_m, y_m):
        """The coordinates of a point x_m east and y_m north of the south-west corner."""
        lat = self.lat0 + math.degrees(y_m / EARTH_M)
        lon = self.lon0 + math.degrees(x_m / (EARTH_M * math.cos(math.radians(self.centre[0]))))
        return round(lat, 7), round(lon, 7)


def distance_m(a, b):
    (lat1, lon1), (lat2, lon2) = a, b
    p1, p2 = math.radians(lat1), math.radians(lat2)
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * EARTH_M * math.asin(min(1.0, math.sqrt(h)))


def offset(rng, city, point, low, high):
    """A point `low`…`high` metres from `point` in a random direction, inside the city."""
    while True:
        meters = rng.uniform(low, high)
        bearing = rng.uniform(0, 2 * math.pi)
        lat = point[0] + math.degrees(meters * math.cos(bearing) / EARTH_M)
        lon = point[1] + math.degrees(meters * math.sin(bearing) / (EARTH_M * math.cos(math.radians(point[0]))))
        if city.lat0 <= lat and city.lon0 <= lon:
            return round(lat, 7), round(lon, 7)


class Grid:
    """Points in cells of `cell_m`, for the nearest one to a query by brute force over the cells
    around it, ring by ring."""

    def __init__(self, city, cell_m=400.0):
        self.city, self.cell_m, self.cells = city, cell_m, {}
        self.cos0 = math.cos(math.radians(city.centre[0]))

    def cell(self, point):
        y = math.radians(point[0] - self.city.lat0) * EARTH_M
        x = math.radians(point[1] - self.city.lon0) * EARTH_M * self.cos0
        return int(x // self.cell_m), int(y // self.cell_m)

    def add(self, point, value):
        self.cells.setdefault(self.cell(point), []).append((point, value))

    def nearest(self, point, within=None):
        cx, cy = self.cell(point)
        best = None
        for ring in range(0, 10000):
            if best is not None and (ring - 1) * self.cell_m > best[0]:
                return best
            if within is not None and (ring - 1) * self.cell_m > within:
                return best
            if ring > 2 * self.city.blocks * SPACING_M / self.cell_m + 2:
                return best
            for dx in range(-ring, ring + 1):
                for dy in range(-ring, ring + 1):
                    if max(abs(dx), abs(dy)) != ring:
                        continue
                    for candidate, value in self.cells.get((cx + dx, cy + dy), ()):
                        meters = distance_m(point, candidate)
                        if (within is None or meters <= within) and (best is None or meters < best[0]):
                            best = (meters, candidate, value)
        return best


def write(args):
    city = City(args.places, args.seed, tuple(args.centre))
    rng = city.rng
    writer = osmium.SimpleWriter(args.out)
    next_id = [1]

    def new_id():
        next_id[0] += 1
        return next_id[0]

    n = city.blocks
    # Intersections, then the streets through them.
    crossing = {}
    for i in range(n + 1):
        for j in range(n + 1):
            node_id = new_id()
            crossing[(i, j)] = node_id
            lat, lon = city.point(i * SPACING_M, j * SPACING_M)
            writer.add_node(osmium.osm.mutable.Node(id=node_id, location=(lon, lat), tags={}))
    buildings = []   # (point, street, number)
    address_grid = Grid(city, 100.0)
    for j, name in enumerate(city.row_names):  # east-west streets, numbered west to east
        for i in range(n):
            for k in range(4):
                x = i * SPACING_M + HOUSE_STEP_M * (k + 0.5)
                number = 2 * (4 * i + k) + 1
                for side, y_offset in ((0, HOUSE_OFFSET_M), (1, -HOUSE_OFFSET_M)):
                    y = j * SPACING_M + y_offset
                    if not (0 <= y <= n * SPACING_M):
                        continue
                    buildings.append((city.point(x, y), name, str(number + side)))
    for i, name in enumerate(city.column_names):  # north-south streets, numbered south to north
        for j in range(n):
            for k in range(4):
                y = j * SPACING_M + HOUSE_STEP_M * (k + 0.5)
                number = 2 * (4 * j + k) + 1
                for side, x_offset in ((0, -HOUSE_OFFSET_M), (1, HOUSE_OFFSET_M)):
                    x = i * SPACING_M + x_offset
                    if not (0 <= x <= n * SPACING_M):
                        continue
                    buildings.append((city.point(x, y), name, str(number + side)))
    for point, street, number in buildings:
        writer.add_node(osmium.osm.mutable.Node(
            id=new_id(), location=(point[1], point[0]), tags={"building": "yes", "addr:street": street, "addr:housenumber": number}))
        address_grid.add(point, (street, number))

    # Shops and amenities along the streets, their names drawn from a long-tailed pool per kind.
    shares = [share for _, share, _, _ in KINDS]
    kind_grids = {}
    name_places = {}
    pools = {}
    for tags, _, _, _ in KINDS:
        key = next(iter(tags.values()))
        words = NAME_WORDS[key]
        pools[key] = ["%s %s" % (rng.choice(words), word(rng, 2)) for _ in range(400)]
    for _ in range(city.shop_count):
        tags, _, _, unnamed = rng.choices(KINDS, weights=shares)[0]
        key = next(iter(tags.values()))
        along = rng.uniform(0, n * SPACING_M)
        line = rng.randrange(n + 1) * SPACING_M
        side = rng.choice((-SHOP_OFFSET_M, SHOP_OFFSET_M))
        x, y = (along, line + side) if rng.random() < 0.5 else (line + side, along)
        if not (0 <= x <= n * SPACING_M and 0 <= y <= n * SPACING_M):
            continue
        point = city.point(x, y)
        place_tags = dict(tags)
        if rng.random() >= unnamed:
            # Zipf-like: the first names of a pool are chains, found everywhere.
            pool = pools[key]
            name = pool[min(len(pool) - 1, int(rng.paretovariate(1.1)) - 1)]
            place_tags["name"] = name
            name_places.setdefault(name, []).append(point)
        writer.add_node(osmium.osm.mutable.Node(id=new_id(), location=(point[1], point[0]), tags=place_tags))
        kind_grids.setdefault(key, Grid(city)).add(point, key)

    suburbs = int(n * SPACING_M // SUBURB_EVERY_M) + 1
    for a in range(suburbs):
        for b in range(suburbs):
            lat, lon = city.point((a + 0.5) * SUBURB_EVERY_M, (b + 0.5) * SUBURB_EVERY_M)
            writer.add_node(osmium.osm.mutable.Node(
                id=new_id(), location=(lon, lat), tags={"place": "suburb", "name": "%s Quarter" % word(rng, 2)}))

    for j, name in enumerate(city.row_names):
        writer.add_way(osmium.osm.mutable.Way(
            id=new_id(), nodes=[crossing[(i, j)] for i in range(n + 1)], tags={"highway": "residential", "name": name}))
    for i, name in enumerate(city.column_names):
        writer.add_way(osmium.osm.mutable.Way(
            id=new_id(), nodes=[crossing[(i, j)] for j in range(n + 1)], tags={"highway": "residential", "name": name}))
    writer.close()

    if not args.queries:
        return
    queries = []
    asked = [(tags, word_) for tags, _, word_, _ in KINDS if word_ and next(iter(tags.values())) in kind_grids]
    for _ in range(args.queries_per_kind):
        tags, query = rng.choice(asked)
        key = next(iter(tags.values()))
        grid = kind_grids[key]
        cell = rng.choice(list(grid.cells.values()))
        near = offset(rng, city, rng.choice(cell)[0], 200, 500)
        meters, point, _ = grid.nearest(near)
        queries.append({"kind": "category", "query": query, "lat": near[0], "lon": near[1],
                        "truth": {"lat": point[0], "lon": point[1], "meters": round(meters, 2)}})
    repeated = [name for name, points in name_places.items() if len(points) >= 2]
    for _ in range(args.queries_per_kind):
        name = rng.choice(repeated)
        points = name_places[name]
        near = offset(rng, city, rng.choice(points), 200, 500)
        meters, point = min((distance_m(near, p), p) for p in points)
        queries.append({"kind": "name", "query": name, "instances": len(points), "lat": near[0], "lon": near[1],
                        "truth": {"lat": point[0], "lon": point[1], "meters": round(meters, 2)}})
    for _ in range(args.queries_per_kind):
        point, street, number = rng.choice(buildings)
        near = offset(rng, city, point, 200, 500)
        queries.append({"kind": "address", "query": "%s %s" % (street, number), "lat": near[0], "lon": near[1],
                        "truth": {"lat": point[0], "lon": point[1], "meters": round(distance_m(near, point), 2)}})
    for _ in range(args.queries_per_kind):
        point = offset(rng, city, rng.choice(buildings)[0], 0, 20)
        meters, found, (street, number) = address_grid.nearest(point, within=40.0)
        queries.append({"kind": "where", "lat": point[0], "lon": point[1],
                        "truth": {"street": street, "housenumber": number, "meters": round(meters, 2)}})
    summary = {"places": len(buildings) + sum(len(g) for grid in kind_grids.values() for g in grid.cells.values())
               + suburbs * suburbs, "buildings": len(buildings), "blocks": n,
               "streets": 2 * (n + 1), "suburbs": suburbs * suburbs, "seed": args.seed,
               "south_west": [city.lat0, city.lon0], "side_m": n * SPACING_M}
    with open(args.queries, "w") as out:
        json.dump({"city": summary, "queries": queries}, out, indent=1, ensure_ascii=False)
        out.write("\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--places", type=int, required=True, help="about how many places (buildings, shops, amenities)")
    parser.add_argument("--out", required=True, help="the OSM PBF file to write")
    parser.add_argument("--queries", help="the JSON file of queries and their true answers to write")
    parser.add_argument("--queries-per-kind", type=int, default=300, help="queries of each kind (default 300)")
    parser.add_argument("--seed", type=int, default=39, help="the random seed (default 39)")
    parser.add_argument("--centre", type=float, nargs=2, default=[48.8556, 2.2986], metavar=("LAT", "LON"),
                        help="the city's centre (default: where waypointd --simulate starts)")
    args = parser.parse_args()
    if args.places < 100 or args.places > 50_000_000:
        parser.error("--places must be from 100 to 50 000 000")
    write(args)


if __name__ == "__main__":
    main()
