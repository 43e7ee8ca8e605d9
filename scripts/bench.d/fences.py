#!/usr/bin/env python3
"""Helpers for `scripts/bench fences` (run under .venv-fences, see scripts/setup-fences-venv).

  fences.py generate N SEED OUT.geojson [ROUTE.gpx]
                                          N seeded fences around Tübingen in a 1° x 1.5° box:
                                          40 % circles (30-500 m), 60 % star-shaped polygons
                                          of 20-200 vertices (50-600 m across); with ROUTE, the
                                          last 12 of them (ids route-0 ... route-11, circles
                                          and polygons alternating, 120-250 m) are centred on
                                          points spread along the route, so it runs through them
  fences.py osm N SEED OUT.geojson       N seeded fences shaped like OpenStreetMap's areas, in the
                                          same box, clustered round 300 towns: 58 % buildings
                                          (rectangles and L shapes, 5-9 positions, 8-40 m), 22 %
                                          landuse and parks (irregular rings of 12-160 vertices,
                                          40-900 m, one in six with a hole), 15 % circles (Point
                                          and radius, 25-300 m), 5 % multipolygons (2-4 parts),
                                          and first the 300 towns' municipalities (their
                                          Voronoi cells, tiling the box, boundaries of 12 m
                                          steps shared with the neighbours); ids "way/…" and
                                          "relation/…", OSM tags as properties
  fences.py polygons N VERTICES SEED OUT.geojson
                                          N seeded star polygons of VERTICES positions each, 50-600 m
                                          across, in the same box (20,000 of 40: a 21 MB file)
  fences.py points COUNT SEED OUT.txt     a vehicle's 1 Hz track through the box: lines of
                                          latitude and longitude in nanodegrees and accuracy mm
  fences.py shapely FENCES POINTS         the peer: shapely STRtree.query(point,
                                          predicate='intersects') per fix, one call at a time
                                          and batched; prints `single_us=… batched_us=… hits=…`
"""
import json
import math
import random
import sys
import time

CENTRE_LAT, CENTRE_LON = 48.5, 9.0
HALF_LAT, HALF_LON = 0.5, 0.75
METRES_PER_DEGREE = 111_320.0


def local(lat, lon, east, north):
    return (lat + north / METRES_PER_DEGREE,
            lon + east / (METRES_PER_DEGREE * math.cos(math.radians(lat))))


def star(rnd, lat, lon, low, high):
    """A star-shaped polygon of 20-200 vertices at 0.6-1.0 times a size of `low`-`high` metres
    from its centre (the random numbers drawn in the order they always were)."""
    vertices = rnd.randint(20, 200)
    size = rnd.uniform(low, high)
    angles = [2 * math.pi * (k + rnd.uniform(0.1, 0.9)) / vertices for k in range(vertices)]
    ring = []
    for a in angles:
        r = size * rnd.uniform(0.6, 1.0)
        plat, plon = local(lat, lon, r * math.sin(a), r * math.cos(a))
        ring.append([round(plon, 7), round(plat, 7)])
    ring.append(ring[0])
    return {"type": "Polygon", "coordinates": [ring]}


def lonlat(lat, lon, east, north):
    plat, plon = local(lat, lon, east, north)
    return [round(plon, 7), round(plat, 7)]


def blob(rnd, lat, lon, vertices, size, roughness, start=None):
    """A simple ring round (lat, lon): angles strictly increasing, a radius that wanders
    (smoothed noise, as traced outlines do) between 0.55 and 1.0 of `size` metres."""
    phase = rnd.uniform(0, 2 * math.pi) if start is None else start
    waves = [(rnd.randint(2, 9), rnd.uniform(0, 2 * math.pi), rnd.uniform(0, roughness)) for _ in range(4)]
    ring = []
    for k in range(vertices):
        a = phase + 2 * math.pi * (k + rnd.uniform(0.15, 0.85)) / vertices
        wobble = sum(amplitude * math.sin(n * a + offset) for n, offset, amplitude in waves)
        r = size * min(1.0, max(0.55, 0.8 + wobble + rnd.uniform(-roughness, roughness) / 3))
        ring.append(lonlat(lat, lon, r * math.sin(a), r * math.cos(a)))
    ring.append(ring[0])
    return ring


def building(rnd, lat, lon):
    """A rotated rectangle (5 positions) or L shape (7), 8-40 m, with a closing position."""
    w, h = rnd.uniform(8, 40), rnd.uniform(8, 30)
    if rnd.random() < 0.7:
        corners = [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]
    else:
        cw, ch = w * rnd.uniform(0.3, 0.7), h * rnd.uniform(0.3, 0.7)
        corners = [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, -h / 2 + ch), (-w / 2 + cw, -h / 2 + ch),
                   (-w / 2 + cw, h / 2), (-w / 2, h / 2)]
    turn = rnd.uniform(0, math.pi)
    ring = [lonlat(lat, lon, x * math.cos(turn) - y * math.sin(turn), x * math.sin(turn) + y * math.cos(turn))
            for x, y in corners]
    ring.append(ring[0])
    return {"type": "Polygon", "coordinates": [ring]}


def area(rnd, lat, lon, low, high, vertices):
    size = rnd.uniform(low, high)
    rings = [blob(rnd, lat, lon, vertices, size, 0.12)]
    if rnd.random() < 1 / 6:
        rings.append(blob(rnd, lat, lon, max(6, vertices // 4), size * 0.3, 0.05)[::-1])
    return rings


def polygons(n, vertices, seed, path):
    rnd = random.Random(seed)
    features = []
    for i in range(n):
        lat = CENTRE_LAT + rnd.uniform(-HALF_LAT, HALF_LAT)
        lon = CENTRE_LON + rnd.uniform(-HALF_LON, HALF_LON)
        ring = blob(rnd, lat, lon, vertices, rnd.uniform(25, 300), 0.1)
        features.append({"type": "Feature", "properties": {"id": "p%d" % i},
                         "geometry": {"type": "Polygon", "coordinates": [ring]}})
    with open(path, "w") as out:
        json.dump({"type": "FeatureCollection", "features": features}, out)


def municipalities(towns):
    """The towns' Voronoi cells in the box (every point in the cell of its nearest town, in a
    plane of metres round the box's centre), as municipal boundaries are: they tile the land
    and neighbours share their boundary. Each shared edge is drawn once as a wandering line of
    about 12 m steps (midpoint displacement across the edge, seeded by the pair of towns, so
    both cells get the same line), a graph over the edge that stays within 6 % of its length."""
    cos_lat = math.cos(math.radians(CENTRE_LAT))
    to_xy = lambda lat, lon: ((lon - CENTRE_LON) * METRES_PER_DEGREE * cos_lat, (lat - CENTRE_LAT) * METRES_PER_DEGREE)
    to_lonlat = lambda x, y: [round(CENTRE_LON + x / (METRES_PER_DEGREE * cos_lat), 7), round(CENTRE_LAT + y / METRES_PER_DEGREE, 7)]
    seeds = [to_xy(lat, lon) for lat, lon, _ in towns]
    hx, hy = HALF_LON * METRES_PER_DEGREE * cos_lat, HALF_LAT * METRES_PER_DEGREE
    cells = []
    for i, (sx, sy) in enumerate(seeds):
        # The box, cut by the bisector with every other town; each vertex remembers which
        # neighbour's bisector (or -1, the box) the edge from it runs along.
        poly = [((-hx, -hy), -1), ((hx, -hy), -1), ((hx, hy), -1), ((-hx, hy), -1)]
        for j, (tx, ty) in enumerate(seeds):
            if j == i:
                continue
            mx, my, nx, ny = (sx + tx) / 2, (sy + ty) / 2, tx - sx, ty - sy
            side = lambda p: (p[0] - mx) * nx + (p[1] - my) * ny
            out = []
            for k, (p, edge) in enumerate(poly):
                q, _ = poly[(k + 1) % len(poly)]
                a, b = side(p), side(q)
                if a <= 0:
                    out.append((p, edge))
                if (a <= 0) != (b <= 0):
                    t = a / (a - b)
                    point = (p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]))
                    out.append((point, j if a <= 0 else edge))
            poly = out
        ring = []
        for k, (p, edge) in enumerate(poly):
            q, _ = poly[(k + 1) % len(poly)]
            ring.extend(to_lonlat(x, y) for x, y in wander(p, q, edge, i))
        ring.append(ring[0])
        cells.append(ring)
    return cells


def wander(p, q, neighbour, cell):
    """p, then the points of the edge p → q short of q (see municipalities)."""
    length = math.hypot(q[0] - p[0], q[1] - p[1])
    if neighbour < 0 or length < 25:
        return [p]
    # Drawn from the lower-numbered cell's side; the other walks the same points backwards.
    a, b = (p, q) if cell < neighbour else (q, p)
    rnd = random.Random(min(cell, neighbour) * 1000 + max(cell, neighbour))
    steps = 1
    while length / steps > 12:
        steps *= 2
    offsets = [0.0] * (steps + 1)
    span, amplitude = steps, 0.06 * length
    while span > 1:
        for start in range(0, steps, span):
            offsets[start + span // 2] = (offsets[start] + offsets[start + span]) / 2 + rnd.uniform(-amplitude, amplitude) / 2
        span //= 2
        amplitude /= 2
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    points = [(a[0] + ux * length * k / steps - uy * offsets[k], a[1] + uy * length * k / steps + ux * offsets[k])
              for k in range(steps + 1)]
    if cell > neighbour:
        points.reverse()
    return points[:-1]


def osm(n, seed, path):
    rnd = random.Random(seed)
    towns = [(CENTRE_LAT + rnd.uniform(-HALF_LAT, HALF_LAT) * 0.95, CENTRE_LON + rnd.uniform(-HALF_LON, HALF_LON) * 0.95,
              rnd.uniform(300, 4000)) for _ in range(300)]
    names = ["Wiesenweg", "Kirchplatz", "Sportplatz", "Friedhof", "Stadtpark", "Schulhof", "Gärtnerei",
             "Obstwiese", "Klärwerk", "Bäckerei Müller", "Rathaus", "Kindergarten \"Sonne\""]
    landuse = ["residential", "meadow", "farmland", "forest", "grass", "allotments", "industrial", "cemetery"]
    cells = municipalities(towns)
    with open(path, "w") as out:
        out.write('{"type":"FeatureCollection","name":"osm-like","features":[\n')
        for i in range(n):
            lat, lon, spread = towns[rnd.randrange(len(towns))]
            lat, lon = local(lat, lon, rnd.gauss(0, spread), rnd.gauss(0, spread))
            kind = rnd.random()
            props = {"id": "way/%d" % (10_000_000 + i * 7)}
            if i < len(cells):
                geometry = {"type": "Polygon", "coordinates": [cells[i]]}
                props = {"id": "relation/%d" % (900_000 + i), "boundary": "administrative", "admin_level": "8",
                         "name": "Gemeinde %d" % i}
                if i % 3 == 0:
                    props["dwell"] = 600
            elif kind < 0.58:
                geometry = building(rnd, lat, lon)
                props["building"] = "yes" if rnd.random() < 0.8 else "house"
                if rnd.random() < 0.2:
                    props["addr:street"] = rnd.choice(names)
                    props["addr:housenumber"] = str(rnd.randint(1, 120))
            elif kind < 0.80:
                geometry = {"type": "Polygon", "coordinates": area(rnd, lat, lon, 40, 900, rnd.randint(12, 160))}
                props["landuse"] = rnd.choice(landuse)
                if rnd.random() < 0.4:
                    props["name"] = rnd.choice(names)
            elif kind < 0.95:
                geometry = {"type": "Point", "coordinates": lonlat(lat, lon, 0, 0)}
                props["radius"] = round(rnd.uniform(25, 300), 1)
                props["amenity"] = rnd.choice(["school", "fuel", "parking", "pharmacy"])
                if rnd.random() < 0.3:
                    props["notify"] = ["enter"]
            else:
                parts = []
                for part in range(rnd.randint(2, 4)):
                    plat, plon = local(lat, lon, 1500 * part, rnd.uniform(-300, 300))
                    parts.append(area(rnd, plat, plon, 60, 500, rnd.randint(8, 60)))
                geometry = {"type": "MultiPolygon", "coordinates": parts}
                props = {"id": "relation/%d" % (500_000 + i), "type": "multipolygon", "landuse": rnd.choice(landuse)}
            feature = {"type": "Feature", "properties": props, "geometry": geometry}
            out.write(("," if i else "") + json.dumps(feature, ensure_ascii=False, separators=(",", ":")) + "\n")
        out.write("]}\n")


def route_points(path):
    """(lat, lon) of every trkpt of a GPX file, in order."""
    import re
    with open(path) as gpx:
        text = gpx.read()
    return [(float(a), float(b)) for a, b in re.findall(r'<trkpt lat="([-0-9.]+)" lon="([-0-9.]+)"', text)]


def generate(n, seed, path, route=None):
    rnd = random.Random(seed)
    features = []
    for i in range(n):
        lat = CENTRE_LAT + rnd.uniform(-HALF_LAT, HALF_LAT)
        lon = CENTRE_LON + rnd.uniform(-HALF_LON, HALF_LON)
        props = {"id": "f%d" % i}
        if rnd.random() < 0.4:
            props["radius"] = round(rnd.uniform(30, 500), 1)
            geometry = {"type": "Point", "coordinates": [round(lon, 7), round(lat, 7)]}
        else:
            geometry = star(rnd, lat, lon, 25, 300)
        features.append({"type": "Feature", "properties": props, "geometry": geometry})
    if route:
        on_route = route_points(route)
        count = min(12, n)
        for k in range(count):
            lat, lon = on_route[k * len(on_route) // count]
            props = {"id": "route-%d" % k}
            if k % 2 == 0:
                props["radius"] = round(rnd.uniform(120, 250), 1)
                geometry = {"type": "Point", "coordinates": [round(lon, 7), round(lat, 7)]}
            else:
                geometry = star(rnd, lat, lon, 120, 250)
            features[n - count + k] = {"type": "Feature", "properties": props, "geometry": geometry}
    with open(path, "w") as out:
        json.dump({"type": "FeatureCollection", "features": features}, out)


def points(count, seed, path):
    rnd = random.Random(seed)
    lat, lon, heading = CENTRE_LAT, CENTRE_LON, rnd.uniform(0, 360)
    with open(path, "w") as out:
        for _ in range(count):
            heading += rnd.gauss(0, 8)
            if abs(lat - CENTRE_LAT) > HALF_LAT * 0.95 or abs(lon - CENTRE_LON) > HALF_LON * 0.95:
                heading = math.degrees(math.atan2(CENTRE_LON - lon, CENTRE_LAT - lat))
            speed = 15.0
            lat, lon = local(lat, lon, speed * math.sin(math.radians(heading)), speed * math.cos(math.radians(heading)))
            out.write("%d %d %d\n" % (round(lat * 1e9), round(lon * 1e9), rnd.randint(3000, 12000)))


def peer(fences_path, points_path):
    import shapely
    from shapely.geometry import Polygon, shape

    geoms = []
    with open(fences_path) as f:
        for feature in json.load(f)["features"]:
            g = feature["geometry"]
            if g["type"] == "Point":
                lon, lat = g["coordinates"]
                r = feature["properties"]["radius"]
                ring = [local(lat, lon, r * math.sin(a), r * math.cos(a))
                        for a in (2 * math.pi * k / 64 for k in range(64))]
                geoms.append(Polygon([(x, y) for y, x in ring]))
            else:
                geoms.append(shape(g))
    tree = shapely.STRtree(geoms)
    coords = []
    with open(points_path) as f:
        for line in f:
            lat, lon, _ = line.split()
            coords.append((int(lon) / 1e9, int(lat) / 1e9))
    pts = shapely.points(coords)
    hits = 0
    best_single = None
    for _ in range(3):
        start = time.perf_counter()
        for p in pts:
            hits += len(tree.query(p, predicate="intersects"))
        elapsed = time.perf_counter() - start
        best_single = elapsed if best_single is None else min(best_single, elapsed)
    best_batched = None
    for _ in range(3):
        start = time.perf_counter()
        tree.query(pts, predicate="intersects")
        elapsed = time.perf_counter() - start
        best_batched = elapsed if best_batched is None else min(best_batched, elapsed)
    print("single_us=%.3f batched_us=%.3f hits=%d shapely=%s geos=%s" % (
        best_single / len(pts) * 1e6, best_batched / len(pts) * 1e6, hits // 3,
        shapely.__version__, shapely.geos_version_string))


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "generate":
        generate(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5] if len(sys.argv) > 5 else None)
    elif command == "polygons":
        polygons(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
    elif command == "osm":
        osm(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    elif command == "points":
        points(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    elif command == "shapely":
        peer(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
