#!/usr/bin/env python3
"""UART load of real u-blox receivers before and after trackd configures them.

For each capture given: its epochs (a new epoch starts when a time-bearing sentence — RMC, GGA,
GLL, GNS, ZDA, GST, GBS — carries a UTC time other than the epoch's; sentences without a time,
GSA, GSV, VTG, TXT, belong to the epoch in progress), the first and last epoch left out as
possibly partial. Per epoch: sentences and bytes on the wire ($ to LF), as the receiver sent
them ("stock") and as trackd's default set would make them ("configured": RMC, GGA, every GSA
and GST each epoch, GSV every fifth epoch, nothing else). A capture without GST gets the median
length of the GST lines of the captures that have one (ublox-neo-m9n-nmea.log) for its GST.
Load: bytes × 10 bits (8N1) per epoch at the capture's epoch rate against 9600 baud.

usage: uart-load.py CAPTURE.log...   (prints a markdown table, then `summary: …`)
"""

import statistics
import sys

TIMED = {"RMC": 1, "GGA": 1, "GLL": 5, "GNS": 1, "ZDA": 1, "GST": 1, "GBS": 1}
KEPT = {"RMC", "GGA", "GSA", "GST"}


def sentences(path):
    """(formatter, time, length) for every checksummed-looking sentence line of the capture."""
    with open(path, "rb") as handle:
        for raw in handle:
            if raw.startswith(b"#") or not raw.startswith(b"$") or b"*" not in raw:
                continue
            line = raw.rstrip(b"\r\n")
            length = len(line) + 2
            fields = line[1:].split(b"*")[0].split(b",")
            address = fields[0].decode("ascii", "replace")
            formatter = address[2:] if len(address) == 5 else address
            time = None
            if formatter in TIMED and len(fields) > TIMED[formatter]:
                text = fields[TIMED[formatter]].decode("ascii", "replace")
                if text:
                    try:
                        time = round(float(text), 2)
                    except ValueError:
                        time = None
            yield formatter, time, length


def epochs(path):
    """Lists of (formatter, length), one per epoch, the first and last dropped."""
    result, current, time = [], [], None
    for formatter, stamp, length in sentences(path):
        if stamp is not None and time is not None and stamp != time:
            result.append((time, current))
            current = []
        if stamp is not None:
            time = stamp
        current.append((formatter, length))
    if current:
        result.append((time, current))
    return result[1:-1]


def epoch_seconds(found):
    """Median seconds between epochs (hhmmss.ss times; across midnight ignored)."""
    def seconds(t):
        return int(t // 10000) * 3600 + int(t // 100 % 100) * 60 + t % 100
    deltas = [seconds(b[0]) - seconds(a[0]) for a, b in zip(found, found[1:]) if b[0] is not None and a[0] is not None]
    deltas = [d for d in deltas if d > 0]
    return statistics.median(deltas) if deltas else 1.0


def is_m8(path):
    """True when the capture's header or TXT names a u-blox 8 (M8): `M8`, `u-blox 8`, 00080000."""
    with open(path, "rb") as handle:
        text = handle.read().decode("ascii", "replace").lower()
    header = "\n".join(line for line in text.splitlines() if line.startswith("#"))
    return "m8" in header or "u-blox 8" in header or "00080000" in text


def main(paths):
    gst_lengths = []
    for path in paths:
        gst_lengths += [length for formatter, _, length in sentences(path) if formatter == "GST"]
    gst_typical = statistics.median(gst_lengths) if gst_lengths else 40
    rows = []
    print("| capture | epochs | s/epoch | stock sentences | stock bytes | stock load @9600 | configured sentences | configured bytes | configured load @9600 | saved |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for path in paths:
        found = epochs(path)
        if len(found) < 3:
            continue
        interval = epoch_seconds(found)
        stock_lines = [len(items) for _, items in found]
        stock_bytes = [sum(length for _, length in items) for _, items in found]
        conf_lines, conf_bytes = [], []
        for index, (_, items) in enumerate(found):
            kept = [(f, n) for f, n in items if f in KEPT]
            if not any(f == "GST" for f, _ in items):
                kept.append(("GST", gst_typical))
            gsv = [(f, n) for f, n in items if f == "GSV"]
            # GSV every fifth epoch: its share per epoch.
            conf_lines.append(len(kept) + len(gsv) / 5)
            conf_bytes.append(sum(n for _, n in kept) + sum(n for _, n in gsv) / 5)
        s_lines, s_bytes = statistics.median(stock_lines), statistics.median(stock_bytes)
        c_lines, c_bytes = statistics.median(conf_lines), statistics.median(conf_bytes)
        s_load = s_bytes * 10 / interval / 9600 * 100
        c_load = c_bytes * 10 / interval / 9600 * 100
        name = path.rsplit("/", 1)[-1]
        rows.append((name, s_load, c_load, s_bytes, c_bytes, is_m8(path)))
        print(f"| {name} | {len(found)} | {interval:g} | {s_lines:g} | {s_bytes:.0f} | {s_load:.0f} % | "
              f"{c_lines:.1f} | {c_bytes:.0f} | {c_load:.0f} % | {100 * (1 - c_bytes / s_bytes):.0f} % |")
    if rows:
        loads = sorted(r[1] for r in rows)
        after = sorted(r[2] for r in rows)
        ratio = statistics.median(r[4] / r[3] for r in rows)
        print()
        print(f"summary: {len(rows)} u-blox captures; stock load at 9600 baud {loads[0]:.0f}–{loads[-1]:.0f} % "
              f"(median {statistics.median(loads):.0f} %), configured {after[0]:.0f}–{after[-1]:.0f} % "
              f"(median {statistics.median(after):.0f} %); configured bytes per epoch {ratio:.2f}× stock (median); "
              f"GST counted at {gst_typical:g} bytes where absent")
        m8 = [r for r in rows if r[5]]
        if m8:
            print(f"m8: {len(m8)} u-blox 8 captures ({', '.join(r[0] for r in m8)}): stock "
                  f"{min(r[1] for r in m8):.0f}–{max(r[1] for r in m8):.0f} %, configured "
                  f"{min(r[2] for r in m8):.0f}–{max(r[2] for r in m8):.0f} % of 9600 baud")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
