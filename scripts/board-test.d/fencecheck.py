#!/usr/bin/env python3
"""Checks the fence boot of scripts/board-test: trackd's fence events and led-fence's edges.

usage: fencecheck.py CONSOLE_LOG TIMES_FILE FENCES GUEST_GEOJSON HOST_GEOJSON DECODED TOLERANCE_MS
CONSOLE_LOG: host-stamped guest console (the sampler's "LED <ms> <line> <0|1>" lines).
TIMES_FILE: pace.py's "<host seconds> <receiver hhmmss.ss>" per epoch sent.
FENCES: the one-circle fences file. GUEST_GEOJSON / HOST_GEOJSON: `trackctl log export --format
geojson` of the guest's log and of a host replay of the same bytes. DECODED: `trackctl decode`
of the bytes sent (the receiver's fixes, for the geometry).

Checks: the guest's fence events equal the host replay's (one enter, then one exit); each comes
after the first fix on its side of the circle and at most CONFIRM_S later (3-of-5 confirmation
and 20 m hysteresis at the boat's 3 m/s); led-fence is dark until the epoch that carried the
enter fix was sent, flashes three times, is lit until the exit epoch, flashes three times and
is dark again. Every LED transition must come within TOLERANCE_MS of its epoch being sent:
a fix is complete when the next epoch begins (one pacing interval, 400 ms), then the guest's
UART, trackd's read coalescing (100 ms at 115200 baud), the sampler and the console. Prints PASS/FAIL lines, a strip
chart of the line, and exits 1 on a failure."""
import json, math, sys

CONFIRM_S = 15.0
FLASH_S = 0.8          # fence-crossed: off 150 on 100 off 100 on 100 off 100 on 100 off 150


def led_edges(log, line='led-fence'):
    out = []
    for raw in open(log, errors='replace'):
        parts = raw.split()
        if len(parts) == 5 and parts[1] == 'LED' and parts[3] == line:
            out.append((float(parts[0]), int(parts[4]), float(parts[2])))
    return out


def fence_events(path):
    events = []
    for feature in json.load(open(path))['features']:
        kind = feature['properties'].get('kind', '')
        if kind.startswith('fence-'):
            events.append((kind[6:], feature['properties']['time']))
    return events


def hhmmss(iso):
    """'2018-08-20T09:48:30.000Z' -> seconds of the day."""
    clock = iso.split('T')[1].rstrip('Z')
    h, m, s = clock.split(':')
    return int(h) * 3600 + int(m) * 60 + float(s)


def receiver_seconds(text):
    return int(text[0:2]) * 3600 + int(text[2:4]) * 60 + float(text[4:])


def distance_m(a, b):
    """Haversine on a sphere of the WGS-84 mean radius: good to 0.5 % over 100 m."""
    r = 6371008.8
    p1, p2 = math.radians(a[0]), math.radians(b[0])
    dp, dl = p2 - p1, math.radians(b[1] - a[1])
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * r * math.asin(math.sqrt(h))


def main():
    console, times_file, fences, guest, host, decoded, tol_ms = sys.argv[1:8]
    tol = int(tol_ms) / 1000
    fails = 0

    def check(name, ok, detail):
        nonlocal fails
        print('%s %s: %s' % ('PASS' if ok else 'FAIL', name, detail))
        fails += 0 if ok else 1

    guest_events, host_events = fence_events(guest), fence_events(host)
    check('fence events equal a host replay of the same bytes', guest_events == host_events,
          'guest %s, host %s' % (guest_events, host_events))
    kinds = [k for k, _ in guest_events]
    check('one enter, then one exit', kinds == ['enter', 'exit'], 'events %s' % kinds)
    if kinds != ['enter', 'exit']:
        sys.exit(1)
    t_enter, t_exit = (hhmmss(t) for _, t in guest_events)

    # Geometry: the first fix inside the circle and the first one outside after it.
    feature = json.load(open(fences))['features'][0]
    centre = tuple(reversed(feature['geometry']['coordinates']))
    radius = feature['properties']['radius']
    fixes = []
    for raw in open(decoded):
        d = json.loads(raw)
        if d.get('mode', 0) >= 2 and 'lat' in d and 'time' in d:
            fixes.append((hhmmss(d['time']), distance_m(centre, (d['lat'], d['lon']))))
    first_in = next((t for t, dist in fixes if dist < radius), None)
    first_out = next((t for t, dist in fixes if first_in is not None and t > first_in and dist > radius), None)
    check('enter after the first fix inside, within %d s' % CONFIRM_S,
          first_in is not None and 0 <= t_enter - first_in <= CONFIRM_S,
          'first fix inside %s, enter %s' % (first_in, t_enter))
    check('exit after the first fix outside, within %d s' % CONFIRM_S,
          first_out is not None and 0 <= t_exit - first_out <= CONFIRM_S,
          'first fix outside %s, exit %s' % (first_out, t_exit))

    # When the epochs carrying those fixes were sent.
    sent = {}
    for raw in open(times_file):
        host_s, clock = raw.split()
        if clock != '-':
            sent.setdefault(round(receiver_seconds(clock), 2), float(host_s))
    h_enter, h_exit = sent.get(round(t_enter, 2)), sent.get(round(t_exit, 2))
    check('the enter and exit epochs were sent', h_enter is not None and h_exit is not None,
          'enter epoch at %s, exit epoch at %s' % (h_enter, h_exit))
    if h_enter is None or h_exit is None:
        sys.exit(1)
    start = min(float(raw.split()[0]) for raw in open(times_file))
    end = max(float(raw.split()[0]) for raw in open(times_file))

    edges = led_edges(console)
    before = [e for e in edges if e[0] < h_enter]
    check('led-fence dark before the enter epoch', all(e[1] == 0 for e in before),
          '%d samples before (the sampler prints the first level)' % len(before))
    enter_burst = [e for e in edges if h_enter <= e[0] <= h_enter + tol + FLASH_S]
    rises = [e[0] for e in enter_burst if e[1] == 1]
    check('three flashes on enter, then lit',
          len(rises) >= 3 and rises[0] - h_enter <= tol and enter_burst[-1][1] == 1,
          '%d rising edges, first %.0f ms after the epoch was sent' % (len(rises), (rises[0] - h_enter) * 1000 if rises else -1))
    inside = [e for e in edges if h_enter + tol + FLASH_S < e[0] < h_exit]
    check('led-fence lit while inside', not inside and len(enter_burst) > 0 and enter_burst[-1][1] == 1,
          '%d edges over %.1f s inside' % (len(inside), h_exit - h_enter))
    exit_burst = [e for e in edges if h_exit <= e[0] <= h_exit + tol + FLASH_S]
    rises = [e[0] for e in exit_burst if e[1] == 1]
    check('three flashes on exit, then dark',
          len(rises) >= 3 and exit_burst and exit_burst[0][0] - h_exit <= tol and exit_burst[-1][1] == 0,
          '%d rising edges, first edge %.0f ms after the epoch was sent' % (len(rises), (exit_burst[0][0] - h_exit) * 1000 if exit_burst else -1))
    after = [e for e in edges if e[0] > h_exit + tol + FLASH_S]
    check('led-fence dark after the exit', not after, '%d edges after' % len(after))

    # Strip chart over the paced capture, 250 ms per character: '#' lit, '_' dark,
    # '>' / '<' the epochs that carried the enter and exit fixes.
    chart, value, k, t = [], 0, 0, start
    while t <= end + 2:
        while k < len(edges) and edges[k][0] <= t:
            value = edges[k][1]; k += 1
        mark = '>' if abs(t - h_enter) < 0.125 else '<' if abs(t - h_exit) < 0.125 else None
        chart.append(mark or ('#' if value else '_'))
        t += 0.25
    print('strip led-fence %s' % ''.join(chart))
    # Level lengths from the sampler's own clock (guest CLOCK_MONOTONIC), not the console's.
    levels = ['%s %d' % ('on' if a[1] else 'off', round(b[2] - a[2])) for a, b in zip(edges, edges[1:])]
    print('wave led-fence levels (ms): %s' % ', '.join(levels))
    print('fence: enter at %s (first fix inside %s), exit at %s (first fix outside %s), lit %.1f s'
          % (guest_events[0][1], first_in, guest_events[1][1], first_out, h_exit - h_enter))
    sys.exit(1 if fails else 0)


if __name__ == '__main__':
    main()
