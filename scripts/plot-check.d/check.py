#!/usr/bin/env python3
"""Checks one rendering of a `trackctl log plot` SVG (scripts/plot-check runs it per renderer).

    check.py SVG PNG FIXES.csv LABEL...

FIXES.csv is `trackctl log export --format csv` of the same trip. Checks, each printed as
`ok` or `FAIL`: the picture is the SVG's 1000 x 760; the colour under each fix's projected
position (Web Mercator, the SVG's own origin and scale from its <metadata>) is one of the speed
scale's colours; every LABEL is the text of an SVG <text> element and ink is drawn where that
text sits; every coordinate in the SVG is on the canvas, every fix inside the map frame, and the
picture's outer margin is blank. Standard library only (the PNG is decoded with zlib).
"""
import csv
import math
import re
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

WIDTH, HEIGHT = 1000, 760
FRAME = (16, 72, 968, 592)
SVG_NS = "{http://www.w3.org/2000/svg}"
failures = 0
checks = 0


def check(ok, what):
    global failures, checks
    checks += 1
    if not ok:
        failures += 1
    print(("ok    " if ok else "FAIL  ") + what)


def read_png(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path + ": not a PNG"
    offset, chunks, width = 8, [], 0
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        body = data[offset + 8:offset + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, "unsupported PNG: %d %d %d" % (depth, colour, interlace)
            channels = 4 if colour == 6 else 3
        elif kind == b"IDAT":
            chunks.append(body)
        offset += 12 + length
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    rows, previous, position = [], bytearray(stride), 0
    for _ in range(height):
        kind = raw[position]
        line = bytearray(raw[position + 1:position + 1 + stride])
        position += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(line)
        previous = line

    def pixel(x, y):
        row = rows[y]
        r, g, b = row[x * channels], row[x * channels + 1], row[x * channels + 2]
        if channels == 4:  # composite on white
            a = row[x * channels + 3] / 255
            r, g, b = (round(c * a + 255 * (1 - a)) for c in (r, g, b))
        return r, g, b
    return width, height, pixel


def palette(root):
    colours = set()
    for element in root.iter(SVG_NS + "path"):
        stroke = element.get("stroke", "")
        if element.get("stroke-width") == "5" and stroke.startswith("#"):
            colours.add(tuple(int(stroke[i:i + 2], 16) for i in (1, 3, 5)))
    return colours


def main():
    svg_path, png_path, fixes_path, labels = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    text = open(svg_path, encoding="utf-8").read()
    root = ET.fromstring(text)
    width, height, pixel = read_png(png_path)
    check((width, height) == (WIDTH, HEIGHT), "%s is %d x %d" % (png_path, width, height))

    meta = root.find(SVG_NS + "metadata").text.split()
    origin_x, origin_y, scale = float(meta[2]), float(meta[3]), float(meta[5])
    fixes = []
    with open(fixes_path, newline="") as handle:
        for row in csv.DictReader(handle):
            lat, lon = float(row["lat"]), float(row["lon"])
            x = (lon + 180) / 360
            y = 0.5 - math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)) / (2 * math.pi)
            fixes.append(((x - origin_x) * scale, (y - origin_y) * scale))
    check(len(fixes) >= 2, "%d fixes in the trip" % len(fixes))

    # Nothing outside: the SVG's coordinates, the fixes, the picture's margin.
    numbers = [float(v) for v in re.findall(r'\b(?:x|y|cx|cy)="(-?[0-9.]+)"', text)]
    points = [(float(a), float(b)) for a, b in re.findall(r"[ML](-?[0-9.]+) (-?[0-9.]+)", text)]
    check(all(0 <= v <= WIDTH for v in numbers) and all(0 <= x <= WIDTH and 0 <= y <= HEIGHT for x, y in points),
          "every coordinate in the SVG is on the canvas (%d attributes, %d path points)" % (len(numbers), len(points)))
    fx, fy, fw, fh = FRAME
    check(all(fx <= x <= fx + fw and fy <= y <= fy + fh for x, y in fixes), "every fix is inside the map frame")
    margin = [pixel(x, y) for x in range(WIDTH) for y in (0, 1, 2, HEIGHT - 3, HEIGHT - 2, HEIGHT - 1)]
    margin += [pixel(x, y) for y in range(HEIGHT) for x in (0, 1, 2, 3, WIDTH - 4, WIDTH - 3, WIDTH - 2, WIDTH - 1)]
    check(all(min(p) >= 245 for p in margin), "the picture's outer margin is blank")

    # The track's colour at the fixes, away from the start and end markers.
    colours = palette(root)
    check(len(colours) >= 2, "the track uses %d colours of the speed scale" % len(colours))
    start, end = fixes[0], fixes[-1]
    hits = tried = 0
    for x, y in fixes[1:-1]:
        if math.dist((x, y), start) < 16 or math.dist((x, y), end) < 16:
            continue
        tried += 1
        colour = pixel(int(round(x)), int(round(y)))
        if min(math.dist(colour, c) for c in colours) <= 60:
            hits += 1
    check(tried > 0 and hits >= 0.95 * tried, "%d of %d fixes lie on a speed colour" % (hits, tried))

    # Labels: in the SVG as text, and ink on the picture where each sits.
    texts = []
    for element in root.iter(SVG_NS + "text"):
        words = "".join(element.itertext())
        texts.append((words, float(element.get("x")), float(element.get("y")), float(element.get("font-size", "12")),
                      element.get("text-anchor", "start")))
    for label in labels:
        found = [t for t in texts if label in t[0]]
        check(bool(found), "a text says %r" % label)
        if not found:
            continue
        words, x, y, size, anchor = found[0]
        span = len(words) * size * 0.5
        left = x - span if anchor == "end" else x - span / 2 if anchor == "middle" else x
        ink = 0
        for px in range(max(0, int(left)), min(WIDTH, int(left + span))):
            for py in range(max(0, int(y - size)), min(HEIGHT, int(y + 2))):
                r, g, b = pixel(px, py)
                if 0.299 * r + 0.587 * g + 0.114 * b < 140:
                    ink += 1
        check(ink >= len(words) * 3, "ink where %r is drawn (%d dark pixels)" % (label, ink))

    print("%s: %d checks, %d failures" % (png_path, checks, failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
