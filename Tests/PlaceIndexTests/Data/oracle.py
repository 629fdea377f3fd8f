#!/usr/bin/python3
"""The place index's oracle: reads an OSM extract with pyosmium (Debian's python3-pyosmium),
independently of waypointd and osmium-tool, and prints what a search and "where am I" must
find, as one JSON object:
  places:    [{"name", "lat", "lon", "key", "value"}]  named objects (nodes; ways of two or more
             nodes, at the mean of their nodes, only as a place to search from), with their first
             kind tag if any
  addresses: [{"street", "number", "lat", "lon", "way"}] addresses of nodes, and of ways (a
             building) at the mean of their nodes with "way": true
  streets:   [[name, lat1, lon1, lat2, lon2, under], ...] segments of named highways; under: a tunnel,
             a layer below 0 or location=underground
  areas:     [{"name", "ring": [[lat, lon], ...]}]      named closed ways of ENCLOSING_TAGS: where a walker
             is in a square, a park, a station
  kinds:     [{"tag", "lat", "lon", "way"}]             every node and way (named or not) with one of
             CATEGORY_TAGS, for "the nearest bakery" and "every bakery near"
usage: oracle.py FILE.osm.pbf
"""
import json
import sys

import osmium

KIND_KEYS = ["amenity", "shop", "tourism", "leisure", "highway", "railway", "public_transport", "historic", "office",
             "craft", "healthcare", "aeroway", "natural", "place", "building"]


CATEGORY_TAGS = ["amenity=restaurant", "amenity=cafe", "amenity=pharmacy", "shop=supermarket", "shop=bakery",
                 "highway=bus_stop", "amenity=post_office", "amenity=toilets", "tourism=hotel", "amenity=school",
                 "amenity=parking", "amenity=fuel", "amenity=atm", "amenity=bank"]


ENCLOSING_TAGS = ["place=square", "highway=pedestrian", "leisure=park", "leisure=garden", "railway=station",
                  "public_transport=station", "amenity=marketplace"]


class Reader(osmium.SimpleHandler):
    def __init__(self):
        super().__init__()
        self.places, self.addresses, self.streets, self.kinds, self.areas = [], [], [], [], []

    def category(self, tags, lat, lon, way):
        for tag in CATEGORY_TAGS:
            key, value = tag.split("=")
            if tags.get(key) == value:
                self.kinds.append({"tag": tag, "lat": lat, "lon": lon, "way": way})

    def kind(self, tags):
        for key in KIND_KEYS:
            if key in tags and tags[key] != "no":
                return key, tags[key]
        return None, None

    def node(self, n):
        if not n.location.valid():
            return
        tags = n.tags
        self.category(tags, n.location.lat, n.location.lon, False)
        if "name" in tags:
            key, value = self.kind(tags)
            self.places.append({"name": tags["name"], "lat": n.location.lat, "lon": n.location.lon, "key": key, "value": value})
        if "addr:housenumber" in tags and "addr:street" in tags:
            self.addresses.append({"street": tags["addr:street"], "number": tags["addr:housenumber"],
                                   "lat": n.location.lat, "lon": n.location.lon, "way": False})

    def way(self, w):
        tags = w.tags
        points = [(nd.lat, nd.lon) for nd in w.nodes if nd.location.valid()]
        if not points:
            return
        if len(points) >= 2 and "addr:housenumber" in tags and "addr:street" in tags:
            self.addresses.append({"street": tags["addr:street"], "number": tags["addr:housenumber"],
                                   "lat": sum(p[0] for p in points) / len(points),
                                   "lon": sum(p[1] for p in points) / len(points), "way": True})
        closed = len(points) >= 4 and w.nodes[0].ref == w.nodes[-1].ref
        if closed and "name" in tags and any(tags.get(t.split("=")[0]) == t.split("=")[1] for t in ENCLOSING_TAGS):
            self.areas.append({"name": tags["name"], "ring": [[p[0], p[1]] for p in points]})
        if len(points) >= 2:
            self.category(tags, sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points), True)
        # A way clipped by the extract to a single node has no line: osmium's export (and so the
        # index) leaves it out; so does the oracle.
        if "name" in tags and len(points) >= 2:
            key, value = self.kind(tags)
            lat = sum(p[0] for p in points) / len(points)
            lon = sum(p[1] for p in points) / len(points)
            self.places.append({"name": tags["name"], "lat": lat, "lon": lon, "key": key, "value": value})
            # Streets: not areas (a square, a service area), not the highway values that are no way.
            if "highway" in tags and tags.get("area") != "yes" and tags["highway"] not in (
                    "services", "rest_area", "platform", "bus_stop", "elevator"):
                under = (tags.get("tunnel", "no") != "no" or tags.get("location") == "underground"
                         or tags.get("layer", "0").lstrip("-").isdigit() and int(tags.get("layer", "0")) < 0)
                for a, b in zip(points, points[1:]):
                    self.streets.append([tags["name"], a[0], a[1], b[0], b[1], under])


reader = Reader()
reader.apply_file(sys.argv[1], locations=True)
json.dump({"places": reader.places, "addresses": reader.addresses, "streets": reader.streets, "kinds": reader.kinds,
           "areas": reader.areas},
          sys.stdout)
