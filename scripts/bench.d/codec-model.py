#!/usr/bin/env python3
"""A model of the track log codec for weighing changes to the format before writing them.

Reads fixes as `trackbench logdump DIR` prints them (`time lat lon alt speed course accuracy
mode` in the log's units, `-` for an absent field), one file per track, and codes them the way
the format does (docs/log-format.md): the same predictions, residual code and adaptive models,
each decision counted at its ideal cost (-log2 of its chance) instead of through the arithmetic
coder, chunks sealed every 5 s of fix time, a keyframe every 300 s. Then it adds the framing:
per chunk the coder's 2 closing bits, the padding to a byte and the check; per keyframe interval
the keyframe header and values and the parity chunk.

Each variant changes one thing (or a few, named) and prints the median bytes per fix over the
tracks and the median bits per fix of each field. The `v5` row is the model of today's format
and `v4` of the one before; compare them with `scripts/bench density` ("as written") to see how
close the model is.

It is a model, not the codec: the grid is the coarsest one each fix lies on (the writer's choice
waits for 16 moves), the keyframe values are counted as 20 bytes, and the time in a chunk that
has no fix is left out. Use it to rank levers, then measure the one chosen with the real codec.

usage: codec-model.py [--variants NAME,...] DUMP...
"""
import math
import os
import sys

COST = [0.0] + [-math.log2(i / 4096) for i in range(1, 4096)] + [0.0]
FIELDS = ("time", "lat", "lon", "alt", "speed", "course", "accuracy")


class Model:
    """A decision's chance of 0 in 1/4096ths, moved 1/2^shift of the way after each outcome."""

    __slots__ = ("zero",)

    def __init__(self):
        self.zero = 2048


class Counter:
    def __init__(self, shift):
        self.shift = shift
        self.bits = 0.0
        self.field = "framing"
        self.per_field = {}

    def code(self, bit, model):
        cost = COST[model.zero] if bit == 0 else COST[4096 - model.zero]
        self.add(cost)
        if bit == 0:
            model.zero += (4096 - model.zero) >> self.shift
        else:
            model.zero -= model.zero >> self.shift

    def add(self, cost):
        self.bits += cost
        self.per_field[self.field] = self.per_field.get(self.field, 0.0) + cost


class Residual:
    """docs/log-format.md, "Residuals": zero, sign, unary exponent, a 3-deep tree per exponent."""

    def __init__(self, contexts):
        self.zero = [Model() for _ in range(contexts)]
        self.sign = [Model() for _ in range(contexts)]
        self.exponent = [[Model() for _ in range(20)] for _ in range(contexts)]
        self.tree = [Model() for _ in range(105)]

    def code(self, counter, r, context=0, sign_model=None):
        counter.code(0 if r == 0 else 1, self.zero[context])
        if r == 0:
            return
        counter.code(1 if r < 0 else 0, sign_model or self.sign[context])
        a = abs(r)
        e = a.bit_length() - 1
        for i in range(e):
            counter.code(1, self.exponent[context][min(i, 19)])
        if e < 63:
            counter.code(0, self.exponent[context][min(e, 19)])
        node = 1
        for step in range(e):
            bit = (a >> (e - 1 - step)) & 1
            if e <= 15 and step < 3:
                counter.code(bit, self.tree[(e - 1) * 7 + node - 1])
                node = node * 2 + bit
            else:
                counter.add(1.0)


def divide_rounding(x, d):
    q = (abs(x) + d // 2) // d
    return -q if x < 0 else q


GRID_P = (0, 500, 50, 5)


def grid_index(v, g):
    return v if g == 0 else divide_rounding(v * 3, GRID_P[g])


def on_grid(v, g):
    n = grid_index(v, g)
    return divide_rounding(n * GRID_P[g], 3) == v


class Context:
    """The prediction state of one keyframe interval (docs/log-format.md, "Prediction state")."""

    def __init__(self, time, lat, lon, last, contexts):
        self.time, self.step = time - 1000, 1000
        self.lat, self.lon, self.lat_step, self.lon_step = lat, lon, 0, 0
        self.values = dict(last)
        self.flags = None
        self.codes = {name: Residual(contexts) for name in FIELDS}
        self.last_residual = {name: 0 for name in FIELDS}
        self.signs = {name: [Model(), Model(), Model()] for name in FIELDS}
        self.other, self.new_flags, self.course_fraction = Model(), Model(), Model()
        self.more = [Model() for _ in range(8)]


def magnitude_context(r, contexts):
    if contexts == 1 or r == 0:
        return 0
    return min(1 + (abs(r).bit_length() - 1) // 3, contexts - 1)


def code_track(fixes, v):
    counter = Counter(v.get("shift", 4))
    chunks = []  # (code bits, is keyframe)
    context = None
    last = {"alt": 0, "speed": 0, "course": 0, "accuracy": 0}
    chunk_start = keyframe_time = None
    chunk_bits, chunk_records, chunk_keyframe = 0.0, 0, False
    quantum = v.get("speed_quantum", 1)
    for t, lat, lon, alt, speed, course, accuracy, mode in fixes:
        if speed is not None and quantum != 1:
            speed = int(round(speed / quantum))
        if chunk_start is None or t - chunk_start >= 5000 or t < chunk_start:
            if chunk_start is not None:
                counter.field = "framing"
                counter.code(0, context.more[min(chunk_records, 7)])
                chunks.append((counter.bits - chunk_bits, chunk_keyframe))
            chunk_bits, chunk_records, chunk_start = counter.bits, 0, t
            chunk_keyframe = keyframe_time is None or t - keyframe_time >= 300_000 or t < keyframe_time
            if chunk_keyframe:
                keyframe_time = t
                if context is not None:
                    last = {k: context.values[k] for k in last}
                context = Context(t, lat, lon, last, v.get("contexts", 1))
        c = context
        counter.field = "framing"
        if chunk_records > 0:
            counter.code(1, c.more[min(chunk_records, 7)])
        chunk_records += 1
        counter.code(0, c.other)
        grid = next((g for g in (1, 2, 3) if on_grid(lat, g) and on_grid(lon, g)), 0)
        flags = (mode, alt is None, speed is None, course is None, accuracy is None, grid)
        counter.field = "flags"
        counter.code(0 if flags == c.flags else 1, c.new_flags)
        if flags != c.flags:
            counter.add(8.0)
            c.flags = flags

        def residual(name, r):
            counter.field = name
            sign_model = None
            if v.get("sign_context"):
                previous = c.last_residual[name]
                sign_model = c.signs[name][0 if previous == 0 else (1 if previous > 0 else 2)]
            context_index = magnitude_context(c.last_residual[name], v.get("contexts", 1))
            c.codes[name].code(counter, r, context_index, sign_model)
            c.last_residual[name] = r

        residual("time", t - (c.time + c.step))
        for name, value, previous, step in (("lat", lat, c.lat, c.lat_step), ("lon", lon, c.lon, c.lon_step)):
            index = grid_index(previous, grid)
            residual(name, grid_index(value, grid) - (2 * index - grid_index(previous - step, grid)))
        if alt is not None:
            residual("alt", alt - c.values["alt"])
            c.values["alt"] = alt
        if speed is not None:
            prediction = c.values["speed"]
            weight = v.get("speed_from_step", 0)
            if weight and t > c.time:
                # The length of the last position step over its time, in the speed's unit.
                north = (lat - c.lat) * 1.11319
                east = (lon - c.lon) * 1.11319 * math.cos(math.radians(lat * 1e-7))
                step_speed = math.hypot(north, east) * 1000 / (t - c.time) / quantum
                prediction = round(weight * step_speed + (1 - weight) * prediction)
            residual("speed", speed - prediction)
            c.values["speed"] = speed
        if course is not None:
            counter.field = "course"
            whole = 0 <= course < 36000 and course % 100 == 0
            counter.code(0 if whole else 1, c.course_fraction)
            if whole:
                step = course // 100 - ((c.values["course"] + 50) // 100) % 360
                residual("course", (step + 180) % 360 - 180)
            else:
                residual("course", course - c.values["course"])
            c.values["course"] = course
        if accuracy is not None:
            residual("accuracy", accuracy - c.values["accuracy"])
            c.values["accuracy"] = accuracy
        c.step, c.time = t - c.time, t
        c.lat_step, c.lat = lat - c.lat, lat
        c.lon_step, c.lon = lon - c.lon, lon
    if chunk_start is not None:
        counter.field = "framing"
        counter.code(0, context.more[min(chunk_records, 7)])
        chunks.append((counter.bits - chunk_bits, chunk_keyframe))
    return counter, chunks


def written_bytes(chunks, v):
    check = v.get("check_bits", 32)
    keyframe = v.get("keyframe_bytes", 11 + 20 + 4)
    parity = v.get("parity_bytes", 28)
    total = 0
    for bits, is_keyframe in chunks:
        code = bits + 2
        if is_keyframe:
            total += keyframe + math.ceil(code / 8) + parity
        elif v.get("check_fills_padding"):
            total += math.ceil((code + check) / 8)
        else:
            total += math.ceil(code / 8) + math.ceil(check / 8)
    return total


V5 = {"check_fills_padding": True, "check_bits": 16}

VARIANTS = {
    "v4": ("format version 4: code padded to a byte, a 32-bit CRC", {"check_bits": 32}),
    "v5": ("format version 5 as it is: the check fills the padding, 16 to 23 bits", V5),
    "check-24": ("v5 with a check of 24 to 31 bits", {**V5, "check_bits": 24}),
    "check-20": ("v5 with a check of 20 to 27 bits", {**V5, "check_bits": 20}),
    "headers": ("v5, keyframe header 7 bytes shorter, parity chunk 6 bytes shorter", {**V5, "keyframe_bytes": 28, "parity_bytes": 22}),
    "sign-context": ("v5, each field's sign on 3 models, by the sign of its last residual", {**V5, "sign_context": True}),
    "speed-from-step": ("v5, speed predicted half from the last position step", {**V5, "speed_from_step": 0.5}),
    "contexts-3": ("v5, residual models in 3 sets, by the size of the field's last residual", {**V5, "contexts": 3}),
    "shift-5": ("v5, models adapt by 1/32 instead of 1/16", {**V5, "shift": 5}),
    "speed-5cm": ("v5, speed stored in 5 cm/s instead of cm/s (not lossless at cm/s)", {**V5, "speed_quantum": 5}),
    "all-lossless": ("v5 with headers, sign-context and speed-from-step",
                     {**V5, "keyframe_bytes": 28, "parity_bytes": 22, "sign_context": True, "speed_from_step": 0.5}),
}


def median(values):
    values = sorted(values)
    n = len(values)
    return values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2


def load(path):
    fixes = []
    for line in open(path):
        parts = line.split()
        if len(parts) == 8:
            fixes.append([None if x == "-" else int(x) for x in parts])
    return fixes


def main(args):
    names = list(VARIANTS)
    if args and args[0] == "--variants":
        names, args = args[1].split(","), args[2:]
    if not args:
        sys.exit(__doc__.strip().splitlines()[-1])
    tracks = [(os.path.basename(p), load(p)) for p in args]
    tracks = [(name, fixes) for name, fixes in tracks if fixes]
    print(f"codec model: {len(tracks)} tracks, medians over the tracks")
    print("| variant | bytes/fix | " + " | ".join(FIELDS) + " | what it changes |")
    print("|---|---:|" + "---:|" * len(FIELDS) + "---|")
    for name in names:
        what, variant = VARIANTS[name]
        per_track, per_field = [], {f: [] for f in FIELDS}
        for _, fixes in tracks:
            counter, chunks = code_track(fixes, variant)
            per_track.append(written_bytes(chunks, variant) / len(fixes))
            for f in FIELDS:
                per_field[f].append(counter.per_field.get(f, 0.0) / len(fixes))
        cells = " | ".join(f"{median(per_field[f]):.2f}" for f in FIELDS)
        print(f"| {name} | {median(per_track):.2f} | {cells} | {what} |")


if __name__ == "__main__":
    main(sys.argv[1:])
