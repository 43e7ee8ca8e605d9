#!/usr/bin/env python3
"""Seeds a fuzz target's corpus from real inputs (scripts/fuzz runs it before every target).

Each seed kind turns files of the shared data (when present), the test fixtures and board/ into
inputs no longer than --max-len, written into --out under a name made from their content (so a
rerun adds nothing twice). Nothing is written into the repository.

Kinds: nmea (gpsd's captures and the golden fixtures, pieces at line ends, a mode byte first),
fences (every GeoJSON file whole, and one FeatureCollection per feature), config (trackd.conf
with every key set, each section, the board files, LED patterns), gpx (the shared GPX tracks and
the demo route, cut to whole points), csv (the shared track CSVs, pieces under their header),
log (segments that `trackctl log import` writes from those CSV pieces and the demo route, a mode
byte first), none (a target that makes its own inputs), and files:GLOB[+GLOB] for a target that needs no code here (globs from the
repository root; `shared/…` globs are in the shared data). Every target also gets the regression
inputs kept in Tests/*Tests/Fixtures/fuzz/TARGET/*.hex ('#' lines are the header, then the bytes
in hex).

usage: seed.py --target NAME --kinds KIND[,KIND] --max-len BYTES --out DIR [--shared DIR]
               [--trackctl PATH] [--verbose]
"""

import argparse
import glob
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def pieces(data, limit, count):
    """Up to `count` runs of whole lines of `data`, each at most `limit` bytes, spread over it."""
    lines = data.splitlines(keepends=True)
    runs, run = [], b""
    for line in lines:
        if len(run) + len(line) > limit and run:
            runs.append(run)
            run = b""
        if len(line) <= limit:
            run += line
    if run:
        runs.append(run)
    if len(runs) <= count:
        return runs
    step = len(runs) / count
    return [runs[int(index * step)] for index in range(count)]


def regression_inputs(target):
    """The bytes of every kept regression input of `target`."""
    found = []
    for path in sorted(glob.glob(os.path.join(ROOT, "Tests", "*", "Fixtures", "fuzz", target, "*.hex"))):
        with open(path, encoding="utf-8") as handle:
            text = "".join(line for line in handle if not line.startswith("#"))
        found.append(bytes.fromhex(text))
    return found


def read(path):
    with open(path, "rb") as handle:
        return handle.read()


def nmea(args):
    files = sorted(glob.glob(os.path.join(ROOT, "Tests/TrackCoreTests/Fixtures/nmea/*.nmea")))
    if args.shared:
        files += sorted(glob.glob(os.path.join(args.shared, "gpsd-regress", "*.log")))
    seeds = []
    for path in files:
        for piece in pieces(read(path), args.max_len - 1, 4):
            # Mode byte: checksums repaired (harmless on real sentences), 64-byte chunks.
            seeds.append(bytes([0x01 | 63 << 1]) + piece)
    return seeds


def fences(args):
    files = sorted(glob.glob(os.path.join(ROOT, "Tests/TrackCoreTests/Fixtures/fences/*.geojson")))
    files += [os.path.join(ROOT, "board/fences.example.geojson"),
              os.path.join(ROOT, "scripts/board-test.d/fence-route.geojson")]
    seeds = []
    for path in files:
        data = read(path)
        seeds.append(data)
        try:
            document = json.loads(data)
        except ValueError:
            continue
        for feature in document.get("features", []):
            seeds.append(json.dumps({"type": "FeatureCollection", "features": [feature]},
                                    separators=(",", ":")).encode())
    return seeds


def config(args):
    example = read(os.path.join(ROOT, "board/trackd.conf.example")).decode()
    # Every key set to its default, then each section alone.
    uncommented = [re.sub(r"^#([a-z][a-z0-9-]* = )", r"\1", line) for line in example.splitlines()]
    settings = [line for line in uncommented if line.startswith("[") or re.match(r"^[a-z][a-z0-9-]* = ", line)]
    seeds = ["\n".join(settings) + "\n"]
    section = []
    for line in settings + ["["]:
        if line.startswith("[") and section:
            seeds.append("\n".join(section) + "\n")
            section = []
        section.append(line)
    seeds = [seed.encode() for seed in seeds]
    seeds += [read(path) for path in sorted(glob.glob(os.path.join(ROOT, "board/*.conf")))]
    seeds += [b"on 100 off 100 on 100 off 700", b"solid", b"off", b"on 50 off 4950"]
    return seeds


def gpx_documents(args):
    """GPX documents cut to at most max_len bytes of whole track points."""
    files = [os.path.join(ROOT, "board/demo-route.gpx")]
    if args.shared:
        files += sorted(glob.glob(os.path.join(args.shared, "tracks", "original", "*.gpx")))
    documents = []
    for path in files:
        text = read(path)
        points = [match for match in re.finditer(rb"<(trkpt|rtept)\b.*?</\1>", text, re.S)]
        if not points:
            documents.append(text[:args.max_len])
            continue
        head, tail = text[:points[0].start()], text[points[-1].end():]
        for start in (0, len(points) // 3, 2 * len(points) // 3):
            body = b""
            for match in points[start:]:
                chunk = text[match.start():match.end()] + b"\n"
                if len(head) + len(body) + len(chunk) + len(tail) > args.max_len:
                    break
                body += chunk
            if body:
                documents.append(head + body + tail)
    return documents


def csv_pieces(args, count=3):
    seeds = []
    if args.shared:
        for path in sorted(glob.glob(os.path.join(args.shared, "tracks", "csv", "*.csv"))):
            data = read(path)
            header, _, rest = data.partition(b"\n")
            for piece in pieces(rest, args.max_len - len(header) - 1, count):
                seeds.append(header + b"\n" + piece)
    return seeds


def log(args):
    if not args.trackctl:
        sys.exit("seed.py: the log kind needs --trackctl")
    sources = [("piece.csv", piece) for piece in csv_pieces(args, count=2)]
    sources.append(("route.gpx", read(os.path.join(ROOT, "board/demo-route.gpx"))))
    seeds = []
    with tempfile.TemporaryDirectory() as work:
        for number, (name, data) in enumerate(sources):
            source = os.path.join(work, str(number) + name)
            with open(source, "wb") as handle:
                handle.write(data)
            directory = os.path.join(work, "log" + str(number))
            subprocess.run([args.trackctl, "log", "import", source, "--to", directory],
                           check=True, stdout=subprocess.DEVNULL)
            for segment in sorted(glob.glob(os.path.join(directory, "*.tlog"))):
                # Mode byte 0: the bytes as written (bit 0 would repair CRCs).
                seeds.append(b"\x00" + read(segment)[:args.max_len - 1])
    return seeds


def files(args, patterns):
    """The files matching `patterns` (globs from the repository root, or ../shared/data's when
    they start with `shared/`), in pieces of whole lines when longer than max_len."""
    seeds = []
    for pattern in patterns.split("+"):
        if pattern.startswith("shared/"):
            if not args.shared:
                continue
            pattern = os.path.join(args.shared, pattern[len("shared/"):])
        else:
            pattern = os.path.join(ROOT, pattern)
        for path in sorted(glob.glob(pattern)):
            data = read(path)
            seeds += [data] if len(data) <= args.max_len else pieces(data, args.max_len, 4)
    return seeds


KINDS = {"nmea": nmea, "fences": fences, "config": config, "gpx": gpx_documents, "csv": csv_pieces,
         "log": log}
# Targets whose first input byte is a mode (see their files): kept regression inputs are the
# bytes the parser saw, so they get a mode that changes nothing (nmea: no checksum repair,
# 64-byte chunks; log: no CRC repair; state: the bytes as the file).
REGRESSION_PREFIX = {"nmea": bytes([63 << 1]), "receiver": bytes([63 << 1]), "log": b"\x00", "state": b"\x00"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", required=True)
    parser.add_argument("--kinds", required=True)
    parser.add_argument("--max-len", type=int, required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--shared", default="")
    parser.add_argument("--trackctl", default="")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    added = 0
    seeds = []
    for kind in args.kinds.split(","):
        if kind == "none":
            continue
        if kind.startswith("files:"):
            seeds += files(args, kind[len("files:"):])
            continue
        if kind not in KINDS:
            sys.exit("seed.py: unknown kind " + kind)
        seeds += KINDS[kind](args)
    prefix = REGRESSION_PREFIX.get(args.target, b"")
    seeds += [prefix + data for data in regression_inputs(args.target)]
    for seed in seeds:
        seed = seed[:args.max_len]
        path = os.path.join(args.out, "seed-" + hashlib.sha1(seed).hexdigest())
        if not os.path.exists(path):
            with open(path, "wb") as handle:
                handle.write(seed)
            added += 1
    if args.verbose:
        print("fuzz: %s: %d new seeds" % (args.kinds, added))


if __name__ == "__main__":
    main()
