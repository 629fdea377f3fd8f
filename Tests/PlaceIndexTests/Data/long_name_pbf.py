#!/usr/bin/python3
"""Writes an OSM PBF file holding one node whose name tag is NAME_BYTES long, encoded by hand
(libosmium, and so pyosmium, refuses to write a tag value over 1024 characters), for the place
index's hostile-import test. The format: OSM's PBF (wiki.openstreetmap.org/wiki/PBF_Format),
blobs stored raw (no compression), one plain Node in one PrimitiveGroup.
usage: long_name_pbf.py OUT.osm.pbf [NAME_BYTES]
"""
import struct
import sys


def varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def zigzag(value):
    return (value << 1) ^ (value >> 63)


def field(number, payload):
    """A length-delimited field."""
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def integer(number, value):
    return varint(number << 3) + varint(value)


def blob(kind, data):
    body = field(1, data)  # Blob.raw
    header = field(1, kind.encode()) + integer(3, len(body))  # BlobHeader.type, datasize
    return struct.pack(">I", len(header)) + header + body


def node(identifier, latitude, longitude, keys, values):
    return (integer(1, zigzag(identifier)) + field(2, b"".join(varint(k) for k in keys))
            + field(3, b"".join(varint(v) for v in values))
            + integer(8, zigzag(round(latitude * 1e7))) + integer(9, zigzag(round(longitude * 1e7))))


size = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000_000
strings = [b"", b"name", b"x" * size, b"amenity", b"cafe", b"Small Cafe"]
table = b"".join(field(1, s) for s in strings)
group = field(1, node(1, 43.73, 7.42, [1, 3], [2, 4])) + field(1, node(2, 43.7301, 7.4201, [1, 3], [5, 4]))
block = field(1, table) + field(2, group)
header_block = field(4, b"OsmSchema-V0.6")
with open(sys.argv[1], "wb") as out:
    out.write(blob("OSMHeader", header_block))
    out.write(blob("OSMData", block))
