#!/usr/bin/env python3
"""Checks the LED edges sampled from gpio-sim against trackd's pattern table, per phase.

usage: waveform.py CONSOLE_LOG PHASES_FILE TOLERANCE_MS
CONSOLE_LOG: lines "<host epoch seconds> <console text>"; the sampler's lines are
"LED <ms since sampler start> <line> <0|1>". PHASES_FILE: lines "<name> <host start> <host end>".
Prints per phase each line's pulses and a 50 ms strip chart, then PASS/FAIL per check; exits 1
when a check fails. Sampler times (guest CLOCK_MONOTONIC) give the pulse lengths; host times
only say which phase an edge belongs to (console latency is far below a phase's margin)."""
import sys

def load(log):
    edges = {}          # line -> [(guest ms, host s, value)]
    for raw in open(log, errors='replace'):
        parts = raw.split()
        if len(parts) == 5 and parts[1] == 'LED':
            edges.setdefault(parts[3], []).append((float(parts[2]), float(parts[0]), int(parts[4])))
    return edges

def phase_edges(edges, line, start, end):
    """The edges inside [start, end] host time, with the value holding at start."""
    inside = [e for e in edges.get(line, []) if start <= e[1] <= end]
    before = [e for e in edges.get(line, []) if e[1] < start]
    initial = before[-1][2] if before else 0
    return initial, inside

def pulses(inside):
    """(value, length ms) of every complete level between two edges."""
    return [(a[2], round(b[0] - a[0])) for a, b in zip(inside, inside[1:])]

def strip(initial, inside, start_host, end_host, step_ms=50):
    if not inside:
        return ('#' if initial else '_') * 40
    # map host time to guest time through the first edge of the phase
    g0 = inside[0][0] - (inside[0][1] - start_host) * 1000
    g1 = g0 + (end_host - start_host) * 1000
    out, value, k, t = [], initial, 0, g0
    while t < g1 and len(out) < 160:
        while k < len(inside) and inside[k][0] <= t:
            value = inside[k][2]; k += 1
        out.append('#' if value else '_'); t += step_ms
    return ''.join(out)

def main():
    edges = load(sys.argv[1])
    phases = {p[0]: (float(p[1]), float(p[2])) for p in (l.split() for l in open(sys.argv[2])) if len(p) == 3}
    tol = int(sys.argv[3])
    fails = 0
    def check(name, ok, detail):
        nonlocal fails
        print('%s %s: %s' % ('PASS' if ok else 'FAIL', name, detail))
        fails += 0 if ok else 1
    def near(got, want):
        return abs(got - want) <= tol
    for name, (s, e) in phases.items():
        for line in ('led-fix', 'led-status'):
            initial, inside = phase_edges(edges, line, s, e)
            print('wave %-9s %-10s start=%d pulses=%s' % (name, line, initial, pulses(inside)[:12]))
            print('strip %-9s %-10s %s' % (name, line, strip(initial, inside, s, e)))
    if 'silent' in phases:
        initial, inside = phase_edges(edges, 'led-fix', *phases['silent'])
        check('led-fix off while the receiver is silent', initial == 0 and not inside,
              'start %d, %d edges' % (initial, len(inside)))
    if 'searching' in phases:
        _, inside = phase_edges(edges, 'led-fix', *phases['searching'])
        p = pulses(inside)
        # The medians of the on and the off levels within the tolerance, each level within twice
        # it: one late wake-up of the guest's one emulated CPU makes one level long and the next
        # short by as much (a CI run on a loaded machine saw 561 then 441 ms); the other led-fix
        # patterns (solid, the 2D double flash, off) fail the medians.
        def median(values):
            values = sorted(values)
            return values[len(values) // 2] if values else -10 ** 6
        ok = (len(p) >= 4 and near(median([ms for v, ms in p if v]), 500) and near(median([ms for v, ms in p if not v]), 500)
              and all(abs(ms - 500) <= 2 * tol for _, ms in p))
        check('led-fix searching pattern (on 500 off 500)', ok,
              '%d levels, lengths %s ms, medians within %d ms, each within %d' % (len(p), sorted(set(ms for _, ms in p)), tol, 2 * tol))
    if 'fix' in phases:
        initial, inside = phase_edges(edges, 'led-fix', *phases['fix'])
        p = pulses(inside)
        solid = initial == 1 and not inside
        double = len(p) >= 4 and all(near(ms, 100) or near(ms, 700) for _, ms in p)
        check('led-fix fix pattern (3D solid or 2D double flash)', solid or double,
              'solid' if solid else 'levels %s' % p[:8])
    if 'waypoint' in phases:
        _, inside = phase_edges(edges, 'led-status', *phases['waypoint'])
        # On a lit line: dark 150, lit 100, dark 100, lit 100, dark 100, lit 100, dark 150.
        # Its 100 ms steps are near the resolution of a loaded host's emulated timers, so the
        # check is the flash's span (first to last edge, 800 ms) and at least two dark gaps.
        levels = pulses(inside)
        span = round(inside[-1][0] - inside[0][0]) if inside else 0
        offs = [ms for v, ms in levels if v == 0]
        check('led-status waypoint flash (800 ms, dark gaps on a lit line)', near(span, 800) and len(offs) >= 2,
              'span %d ms, levels %s ms' % (span, [ms for _, ms in levels]))
    if 'private' in phases:
        _, inside = phase_edges(edges, 'led-status', *phases['private'])
        ons = [ms for v, ms in pulses(inside) if v == 1]
        check('led-status private mode (on 50 off 4950)', len(ons) >= 1 and all(near(ms, 50) for ms in ons[1:] or ons[-1:]),
              'lit %s ms' % ons)
    if 'public' in phases:
        initial, inside = phase_edges(edges, 'led-status', *phases['public'])
        final = inside[-1][2] if inside else initial
        check('led-status solid again after the second long press', final == 1, 'ends at %d' % final)
    sys.exit(1 if fails else 0)

if __name__ == '__main__':
    main()
