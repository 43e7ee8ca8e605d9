"""Reads trackctl's exports with real consumers and compares them with the log.

usage: consumers.py TRACKCTL CSV_DIR WORK_DIR

For every CSV_DIR/*.csv (the shared tracks' layout): `trackctl log import` into a log, then
`trackctl log export` in all four formats; the log's truth is the CSV's positions rounded to
the log's 1e-7 degrees (half away from zero, as import stores them). Then

  gpxpy     parses the GPX;
  gpsbabel  reads GPX, KML, GeoJSON and CSV (unicsv) and writes GPX 1.0 with 9 decimals;
  ogrinfo   (GDAL) lists the geometries of all four;

and each must give as many positions as the log has fixes, the same positions to the 1e-7
degrees printed, and gpxpy the same times. The GeoJSON's times: `properties.coordTimes` of its
LineStrings (as togeojson writes them) and, exported again with `--points`, the `time` of a Point
feature per fix must be the log's times, in order, read by ogrinfo (which must type `time` as a
DateTime, the field QGIS's temporal controller animates by, and coordTimes as a StringList) and
by Python's json module, which must also find one time per coordinate. The CSV export must also survive export -> import
-> export byte for byte, and the GPX export must pass a schema-order check of its elements.
Prints one line per track and consumer, and `export-check: T tracks, C checks, F failures` last.
"""
import decimal
import glob
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import gpxpy

trackctl, csv_dir, work = sys.argv[1:4]
failures = 0
checks = 0


def e7(text):
    """Decimal degrees text -> integer 1e-7 degrees, half away from zero."""
    value = decimal.Decimal(text) * 10_000_000
    return int(value.to_integral_value(rounding=decimal.ROUND_HALF_UP)) if value >= 0 else \
        -int((-value).to_integral_value(rounding=decimal.ROUND_HALF_UP))


def e7f(number):
    """A consumer's float degrees -> 1e-7 degrees (its printed digits are exact to that)."""
    return round(number * 10_000_000)


def truth_of(csv_path):
    rows = []
    with open(csv_path) as handle:
        next(handle)
        for line in handle:
            fields = line.rstrip("\n").split(",")
            rows.append((fields[0], e7(fields[1]), e7(fields[2])))
    return rows


def run(*command, **kwargs):
    return subprocess.run(command, check=True, capture_output=True, text=True, **kwargs).stdout


def check(name, consumer, positions, truth, ordered=True):
    """positions: [(lat_e7, lon_e7)] as the consumer read them."""
    global failures, checks
    checks += 1
    expected = [(lat, lon) for _, lat, lon in truth]
    got = list(positions) if ordered else sorted(positions)
    want = expected if ordered else sorted(expected)
    if len(got) != len(want):
        failures += 1
        print(f"  FAIL  {name:22} {consumer:18} {len(got)} positions, the log has {len(want)}")
        return
    wrong = [index for index, (a, b) in enumerate(zip(got, want)) if a != b]
    if wrong:
        failures += 1
        index = wrong[0]
        print(f"  FAIL  {name:22} {consumer:18} {len(wrong)} positions differ, first #{index}: "
              f"{got[index]} vs log {want[index]}")
        return
    print(f"  ok    {name:22} {consumer:18} {len(got)} positions identical")


def gpx_positions(path, tags=("trkpt", "rtept", "wpt")):
    """Positions of a GPX 1.0/1.1 file's points of the given kinds, in file order."""
    positions = []
    for _, element in ET.iterparse(path):
        if element.tag.rsplit("}", 1)[-1] in tags:
            positions.append((e7f(float(element.get("lat"))), e7f(float(element.get("lon")))))
    return positions


NUMBER_PAIR = re.compile(r"(-?\d+(?:\.\d+)?(?:e-?\d+)?) (-?\d+(?:\.\d+)?(?:e-?\d+)?)(?: -?\d+(?:\.\d+)?)?")


def ogr_positions(path, options=(), layers=()):
    """Every coordinate of every geometry ogrinfo prints, in order (x y [z] -> lat, lon)."""
    text = run("ogrinfo", "-ro", "-q", *options, path, *layers)
    positions = []
    for line in text.splitlines():
        stripped = line.strip()
        if re.match(r"^(POINT|LINESTRING|MULTILINESTRING|MULTIPOINT)", stripped):
            body = stripped[stripped.index("("):]
            for x, y in NUMBER_PAIR.findall(body):
                positions.append((e7f(float(y)), e7f(float(x))))
    return positions


def check_times(name, consumer, times, truth):
    """times: the ISO texts a consumer read, in order; the log's times must be them."""
    global failures, checks
    checks += 1
    want = [row[0] for row in truth]
    if times != want:
        failures += 1
        first = next((k for k, (a, b) in enumerate(zip(times, want)) if a != b), min(len(times), len(want)))
        print(f"  FAIL  {name:22} {consumer:18} {len(times)} times, the log has {len(want)}; first difference #{first}")
        return
    print(f"  ok    {name:22} {consumer:18} {len(times)} times identical")


def ogr_datetime_iso(text):
    """ogrinfo's DateTime `2025/06/21 12:01:29.25+00` -> `2025-06-21T12:01:29.250Z`."""
    match = re.match(r"^(\d{4})/(\d\d)/(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d+))?\+00$", text)
    if not match:
        return "unparsed: " + text
    year, month, day, hour, minute, second, fraction = match.groups()
    milliseconds = f".{(fraction + '00')[:3]}" if fraction and int(fraction) else ""
    return f"{year}-{month}-{day}T{hour}:{minute}:{second}{milliseconds}Z"


def ogr_geojson_times(path, points):
    """The times ogrinfo reads: every coordTimes list in order, or every Point's `time`; and
    the field types of the layer (-so)."""
    schema = run("ogrinfo", "-ro", "-so", "-al", path)
    types = dict(re.findall(r"^(\w+): (\w+) \(", schema, re.M))
    times = []
    for line in run("ogrinfo", "-ro", "-q", "-al", path).splitlines():
        stripped = line.strip()
        if not points and stripped.startswith("coordTimes (StringList) = ("):
            times += stripped[stripped.index(":") + 1:-1].split(",")
        elif points and stripped.startswith("time (DateTime) = "):
            times.append(ogr_datetime_iso(stripped.split(" = ", 1)[1]))
    return times, types


def json_geojson(path, points):
    """Python's json module on the export: (positions, times) of the fixes, and the
    LineStrings whose coordTimes do not match their coordinates one for one."""
    with open(path) as handle:
        document = json.load(handle)
    positions, times, mismatched = [], [], 0
    for feature in document["features"]:
        geometry, properties = feature["geometry"], feature["properties"]
        if geometry["type"] == "LineString" and not points:
            coordinates, stamps = geometry["coordinates"], properties.get("coordTimes", [])
            mismatched += len(coordinates) != len(stamps)
            positions += [(e7f(c[1]), e7f(c[0])) for c in coordinates]
            times += stamps
        elif geometry["type"] == "Point" and properties.get("kind") == "fix":
            positions.append((e7f(geometry["coordinates"][1]), e7f(geometry["coordinates"][0])))
            times.append(properties["time"])
    return positions, times, mismatched


def gpx_element_order(path):
    """GPX 1.1 puts every wpt before the first trk; trkpt children in the schema's order."""
    order = {"ele": 0, "time": 1, "fix": 2, "extensions": 3}
    seen_track = False
    for _, element in ET.iterparse(path):
        tag = element.tag.rsplit("}", 1)[-1]
        if tag == "trk":
            seen_track = True
        if tag == "wpt" and seen_track:
            return "a wpt after a trk"
        if tag == "trkpt":
            ranks = [order[child.tag.rsplit("}", 1)[-1]] for child in element]
            if ranks != sorted(ranks):
                return "trkpt children out of order"
    return None


tracks = sorted(glob.glob(os.path.join(csv_dir, "*.csv")))
for csv_path in tracks:
    name = os.path.basename(csv_path)[:-4]
    log = os.path.join(work, name + ".log")
    run(trackctl, "log", "import", csv_path, "--to", log)
    truth = truth_of(csv_path)
    out = {}
    for fmt, options in (("gpx", ()), ("geojson", ()), ("kml", ()), ("csv", ()), ("points", ("--points",))):
        out[fmt] = os.path.join(work, name + "." + fmt)
        with open(out[fmt], "w") as handle:
            subprocess.run([trackctl, "log", "export", "--format", "geojson" if fmt == "points" else fmt,
                            *options, "--log", log], check=True, stdout=handle, stderr=subprocess.DEVNULL)

    # Our own CSV: the log's view, and export -> import -> export is the identity.
    check(name, "csv (as written)", [(e7(r[1]), e7(r[2])) for r in
                                     (line.split(",") for line in open(out["csv"]).read().splitlines()[1:])], truth)
    again = os.path.join(work, name + ".again.log")
    run(trackctl, "log", "import", out["csv"], "--to", again)
    second = run(trackctl, "log", "export", "--format", "csv", "--log", again)
    checks += 1
    if second != open(out["csv"]).read():
        failures += 1
        print(f"  FAIL  {name:22} csv round trip     export -> import -> export changed the CSV")
    problem = gpx_element_order(out["gpx"])
    checks += 1
    if problem:
        failures += 1
        print(f"  FAIL  {name:22} gpx element order  {problem}")

    # gpxpy: positions and times.
    with open(out["gpx"]) as handle:
        parsed = gpxpy.parse(handle)
    points = [p for t in parsed.tracks for s in t.segments for p in s.points]
    check(name, "gpxpy", [(e7f(p.latitude), e7f(p.longitude)) for p in points], truth)
    checks += 1
    times = [p.time.strftime("%Y-%m-%dT%H:%M:%S") + (f".{p.time.microsecond // 1000:03d}" if p.time.microsecond else "") + "Z"
             for p in points]
    if times != [row[0] for row in truth][:len(times)] or len(times) != len(truth):
        failures += 1
        print(f"  FAIL  {name:22} gpxpy times       differ from the log's")

    # gpsbabel: each format to GPX 1.0 (9 decimals).
    for fmt, reader in (("gpx", "gpx"), ("kml", "kml"), ("geojson", "geojson"), ("csv", "unicsv")):
        converted = os.path.join(work, name + "." + fmt + ".babel.gpx")
        run("gpsbabel", "-t", "-r", "-w", "-i", reader, "-f", out[fmt], "-o", "gpx", "-F", converted)
        check(name, "gpsbabel " + fmt, gpx_positions(converted), truth, ordered=False)

    # ogrinfo: every geometry of every layer (GPX: the track points layer).
    check(name, "ogrinfo gpx", ogr_positions(out["gpx"], layers=("track_points",)), truth)
    check(name, "ogrinfo geojson", ogr_positions(out["geojson"], ("-al",)), truth, ordered=False)
    check(name, "ogrinfo kml", ogr_positions(out["kml"], ("-al",)), truth, ordered=False)
    check(name, "ogrinfo csv", ogr_positions(out["csv"], ("-al", "-oo", "X_POSSIBLE_NAMES=lon", "-oo", "Y_POSSIBLE_NAMES=lat",
                                                          "-oo", "KEEP_GEOM_COLUMNS=NO")), truth)

    # The GeoJSON's times: ogrinfo (GDAL, what QGIS reads it with) and Python's json module.
    for fmt, points in (("geojson", False), ("points", True)):
        times, types = ogr_geojson_times(out[fmt], points)
        field, wanted = ("time", "DateTime") if points else ("coordTimes", "StringList")
        checks += 1
        if types.get(field) != wanted:
            failures += 1
            print(f"  FAIL  {name:22} ogrinfo {fmt:10} field {field} is {types.get(field)}, not {wanted}")
        check_times(name, "ogrinfo " + ("points" if points else "coordTimes"), times, truth)
        positions, times, mismatched = json_geojson(out[fmt], points)
        label = "json " + ("points" if points else "coordTimes")
        check(name, label, positions, truth)
        check_times(name, label, times, truth)
        checks += 1
        if mismatched:
            failures += 1
            print(f"  FAIL  {name:22} {label:18} {mismatched} LineStrings with a time count unlike their coordinates'")
    check(name, "ogrinfo points", ogr_positions(out["points"], ("-al",)), truth)

print(f"export-check: {len(tracks)} tracks, {checks} checks, {failures} failures")
sys.exit(1 if failures else 0)
