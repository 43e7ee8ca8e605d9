#!/usr/bin/env python3
"""The power cuts of a board-test run as volatile-disk.py reported them (cuts.jsonl): one line
for trackd's own cuts, one for the controls' (boots named cut-BUILD-CONTROL-N).

usage: cutstats.py CUTS.jsonl"""
import json
import statistics
import sys

CONTROLS = ("nofsync", "nobarrier")


def summary(cuts):
    disk = [c for c in cuts if c["by"] == "disk"]
    host = len(cuts) - len(disk)
    at_flush = sum(1 for c in disk if c["at"] == "flush")
    modes = {m: sum(1 for c in disk if c["mode"] == m) for m in ("all", "subset", "prefix", "torn")}
    torn = sum(c["torn"] for c in disk)
    cached = [c["sectors"] for c in disk]
    lost = sum(c["sectors"] - c["kept"] for c in disk if c["sectors"] >= c["kept"])
    return (f"{len(disk)} cuts made by the disk ({at_flush} at a flush, {len(disk) - at_flush} at a write), "
            f"{host} by the host; the cache lost whole {modes['all']} times, a random subset of its "
            f"sectors kept {modes['subset']}, the writes in order up to a torn one {modes['prefix']}, "
            f"a random subset of the writes {modes['torn']}; {torn} writes torn at a sector boundary; "
            f"{statistics.median(cached) if cached else 0:g} sectors cached at a cut (median), "
            f"max {max(cached, default=0)}; {lost} cached sectors lost in all")


def main():
    with open(sys.argv[1]) as f:
        cuts = [json.loads(line) for line in f if line.strip()]
    control = [c for c in cuts if any(f"-{k}-" in c["boot"] for k in CONTROLS)]
    own = [c for c in cuts if c not in control]
    print("volatile disk: " + summary(own))
    if control:
        print("volatile disk, controls: " + summary(control))


if __name__ == "__main__":
    main()
