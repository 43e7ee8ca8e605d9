#!/usr/bin/env python3
"""Checks that an LED line blinked a steady pattern over a stretch of host time, from the edges
ledsample printed on the guest's console ("<host s> LED <guest ms> <line> <value>").

usage: blinkcheck.py CONSOLE LINE START END ON_MS OFF_MS TOLERANCE_MS MIN_PULSES
Prints "PASS ..." or "FAIL ..." (exit 1): the complete levels between two edges inside
[START, END] last ON_MS (on) or OFF_MS (off) within TOLERANCE_MS as a rule: there are at least
MIN_PULSES of them, at least half as many as the pattern makes in the stretch, and the median on
and the median off level are within it. The levels outside are listed, and do not fail the
check by themselves: the guest has one emulated CPU, and while the kernel writes back a disk's
worth of dirty pages, or reports the errors of a file system gone read-only, the guest's
processes (trackd, ledsample) are sometimes 100 to 500 ms late, so a level comes out long and
the next short (CI runs saw 6 of 32 and 10 of 35 so). Every other pattern of the LED fails the
median or the count: the next fastest, three quick flashes, is over in a second, and the
others blink once a second or less."""
import sys


def main():
    console, line = sys.argv[1], sys.argv[2]
    start, end = float(sys.argv[3]), float(sys.argv[4])
    on_ms, off_ms, tolerance, least = (int(a) for a in sys.argv[5:9])
    edges = []
    with open(console, errors='replace') as f:
        for text in f:
            parts = text.split()
            if len(parts) == 5 and parts[1] == 'LED' and parts[3] == line:
                host, guest, value = float(parts[0]), float(parts[2]), int(parts[4])
                if start <= host <= end:
                    edges.append((guest, value))
    levels = [(edges[i][1], edges[i + 1][0] - edges[i][0]) for i in range(len(edges) - 1)]
    wrong = [(v, ms) for v, ms in levels if abs(ms - (on_ms if v else off_ms)) > tolerance]
    def median(values):
        values = sorted(values)
        return values[len(values) // 2] if values else float('inf')
    typical = (abs(median([ms for v, ms in levels if v]) - on_ms) <= tolerance and
               abs(median([ms for v, ms in levels if not v]) - off_ms) <= tolerance)
    # A steady blink makes one level per (ON_MS + OFF_MS) / 2 of the stretch.
    expected = int((end - start) * 1000 * 2 / (on_ms + off_ms))
    ok = len(levels) >= least and typical and len(levels) * 2 >= expected
    print('%s %s: %d levels between %d edges (%d in a steady blink), on %d off %d ms wanted (±%d), medians %s, %d outside%s' % (
        'PASS' if ok else 'FAIL', line, len(levels), len(edges), expected, on_ms, off_ms, tolerance,
        'right' if typical else 'wrong', len(wrong),
        (': ' + ', '.join('%s %.0f ms' % ('on' if v else 'off', ms) for v, ms in wrong[:5])) if wrong else ''))
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
